/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cas.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "dirs.h"
#include "sha256.h"

struct cas {
	struct sha256 *md;
	char kind[32];
};

struct cas *cas_new(const char *kind)
{
	struct cas *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->md = sha256_new();
	if (!c->md) {
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
	sha256_free(c->md);
	free(c);
}

void cas_add(struct cas *c, const void *data, size_t len)
{
	sha256_update(c->md, data, len);
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
	unsigned char md[SHA256_LEN];
	char hex[SHA256_HEX_LEN];
	int r = sha256_final(c->md, md);
	if (r < 0)
		return r;
	sha256_hex(md, hex);
	r = dirs_make(cache, 0755);
	if (r < 0)
		return r;
	/* 16 bytes of the hash are plenty to tell builds apart. */
	if (snprintf(ret, len, "%s/%s-%.32s", cache, c->kind, hex) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}
