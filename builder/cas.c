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
	char hex[2 * EVP_MAX_MD_SIZE + 1];
	if (EVP_DigestFinal_ex(c->md, md, &n) != 1)
		return -EIO;
	for (unsigned i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	int r = dirs_make(cache, 0755);
	if (r < 0)
		return r;
	/* 16 bytes of the hash are plenty to tell builds apart. */
	if (snprintf(ret, len, "%s/%s-%.32s", cache, c->kind, hex) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int cas_copy(const char *from, const char *to, int hardlink)
{
	if (hardlink) {
		unlink(to);
		if (link(from, to) == 0)
			return 0;
	}
	_cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	/* copy_file_range: the kernel copies, reflinks where it can. */
	for (off_t left = st.st_size; left > 0;) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, left, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		left -= n;
	}
	return 0;
}
