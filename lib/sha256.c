#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <unistd.h>

#include "cleanup.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(EVP_MD_CTX, EVP_MD_CTX_free)

void sha256_hex(const unsigned char md[32], char hex[SHA256_HEX_LEN])
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

int sha256_fd_hex(int fd, const void *data, size_t size,
		  char hex[SHA256_HEX_LEN])
{
	_cleanup_(EVP_MD_CTX_freep) EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char buf[1 << 16], out[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	ssize_t r = 0;

	if (!md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1)
		return -ENOMEM;
	if (data)
		EVP_DigestUpdate(md, data, size);
	while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		EVP_DigestUpdate(md, buf, (size_t)r);
	}
	if (EVP_DigestFinal_ex(md, out, &n) != 1 || n != 32)
		return -EIO;
	sha256_hex(out, hex);
	return 0;
}

int sha256_path_hex(const char *path, char hex[SHA256_HEX_LEN])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : sha256_fd_hex(fd, NULL, 0, hex);
}
