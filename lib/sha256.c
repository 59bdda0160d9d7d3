/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"

struct sha256 {
	EVP_MD_CTX *md;
};

struct sha256 *sha256_new(void)
{
	struct sha256 *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->md = EVP_MD_CTX_new();
	if (!s->md || EVP_DigestInit_ex(s->md, EVP_sha256(), NULL) != 1) {
		sha256_free(s);
		return NULL;
	}
	return s;
}

void sha256_free(struct sha256 *s)
{
	if (!s)
		return;
	EVP_MD_CTX_free(s->md);
	free(s);
}

void sha256_update(struct sha256 *s, const void *data, size_t size)
{
	EVP_DigestUpdate(s->md, data, size);
}

int sha256_final(struct sha256 *s, unsigned char md[SHA256_LEN])
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	if (EVP_DigestFinal_ex(s->md, out, &n) != 1 || n != SHA256_LEN)
		return -EIO;
	memcpy(md, out, SHA256_LEN);
	return 0;
}

int sha256_digest(const void *data, size_t size, unsigned char md[SHA256_LEN])
{
	_cleanup_(sha256_freep) struct sha256 *s = sha256_new();

	if (!s)
		return -ENOMEM;
	sha256_update(s, data, size);
	return sha256_final(s, md);
}

void sha256_hex(const unsigned char md[SHA256_LEN], char hex[SHA256_HEX_LEN])
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < SHA256_LEN; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

int sha256_fd_hex(int fd, const void *data, size_t size,
		  char hex[SHA256_HEX_LEN])
{
	_cleanup_(sha256_freep) struct sha256 *s = sha256_new();
	unsigned char buf[1 << 16], out[SHA256_LEN];
	ssize_t r = 0;

	if (!s)
		return -ENOMEM;
	if (data)
		sha256_update(s, data, size);
	while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		sha256_update(s, buf, (size_t)r);
	}
	r = sha256_final(s, out);
	if (r < 0)
		return (int)r;
	sha256_hex(out, hex);
	return 0;
}

int sha256_path_hex(const char *path, char hex[SHA256_HEX_LEN])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : sha256_fd_hex(fd, NULL, 0, hex);
}
