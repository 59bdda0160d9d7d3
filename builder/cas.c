#include "cas.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "dirs.h"
#include "sha256.h"

struct cas {
	EVP_MD_CTX *md;
	char kind[32];
};

struct cas *cas_new(const char *kind)
{
	struct cas *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->md = EVP_MD_CTX_new();
	if (!c->md || EVP_DigestInit_ex(c->md, EVP_sha256(), NULL) != 1) {
		cas_free(c);
		return NULL;
	}
	snprintf(c->kind, sizeof(c->kind), "%s", kind);
	cas_add_str(c, kind);
	return c;
}

void cas_free(struct cas *c)
{
	if (!c)
		return;
	EVP_MD_CTX_free(c->md);
	free(c);
}

void cas_add(struct cas *c, const void *data, size_t len)
{
	EVP_DigestUpdate(c->md, data, len);
}

void cas_add_str(struct cas *c, const char *s)
{
	/* With the NUL, so "ab"+"c" and "a"+"bc" differ. */
	cas_add(c, s, strlen(s) + 1);
}

int cas_add_file(struct cas *c, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	char buf[256];
	snprintf(buf, sizeof(buf), "%llu %lld.%09ld %llu %o",
		 (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec, (unsigned long long)st.st_ino,
		 (unsigned)st.st_mode);
	cas_add_str(c, path);
	cas_add_str(c, buf);
	return 0;
}

int cas_path(struct cas *c, const char *cache, char *ret, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	char hex[SHA256_HEX_LEN];
	if (EVP_DigestFinal_ex(c->md, md, &n) != 1 || n != 32)
		return -EIO;
	sha256_hex(md, hex);
	int r = dirs_make(cache, 0755);
	if (r < 0)
		return r;
	/* 16 bytes of the hash are plenty to tell builds apart. */
	if (snprintf(ret, len, "%s/%s-%.32s", cache, c->kind, hex) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}
