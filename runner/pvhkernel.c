/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pvhkernel.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"

/* Limits on what is read and written: a distribution bzImage is ~8 MiB,
 * its ELF ~66 MiB (Debian 12's 6.1). */
#define BZIMAGE_MAX (64ull << 20)
#define ELF_MAX (512ull << 20)

/* Xen's ELF note of the 32-bit PVH entry point (xen/include/public/
 * elfnote.h); QEMU's x86 loader boots an ELF -kernel only with it. */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The payload of a bzImage (Documentation/x86/boot.rst: the setup header
 * at 0x1f1, "HdrS" at 0x202, protocol 2.08 or later for payload_offset
 * at 0x248 and payload_length at 0x24c, counted from the protected-mode
 * code after the setup sectors). */
static int payload(const unsigned char *b, size_t n, size_t *ret_off,
		   size_t *ret_len)
{
	if (n < 0x250 || memcmp(b + 0x202, "HdrS", 4) != 0 ||
	    (b[0x206] | b[0x207] << 8) < 0x0208)
		return -ENOEXEC;
	size_t setup = b[0x1f1] ? b[0x1f1] : 4;
	size_t off = (setup + 1) * 512 + le32(b + 0x248), len = le32(b + 0x24c);
	static const unsigned char xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
	if (off > n || len > n - off || len < sizeof(xz) ||
	    memcmp(b + off, xz, sizeof(xz)) != 0)
		return -ENOEXEC;
	*ret_off = off;
	*ret_len = len;
	return 0;
}

/* Whether the 64-bit ELF E (N bytes) has the PVH entry note. */
static int has_pvh_note(const unsigned char *e, size_t n)
{
	if (n < sizeof(Elf64_Ehdr) || memcmp(e, ELFMAG, SELFMAG) != 0 ||
	    e[EI_CLASS] != ELFCLASS64)
		return 0;
	Elf64_Ehdr h;
	memcpy(&h, e, sizeof(h));
	if (h.e_phentsize != sizeof(Elf64_Phdr) || h.e_phoff > n ||
	    (uint64_t)h.e_phnum * sizeof(Elf64_Phdr) > n - h.e_phoff)
		return 0;
	for (unsigned i = 0; i < h.e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, e + h.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > n ||
		    ph.p_filesz > n - ph.p_offset)
			continue;
		const unsigned char *p = e + ph.p_offset;
		const unsigned char *end = p + ph.p_filesz;
		while ((size_t)(end - p) >= sizeof(Elf64_Nhdr)) {
			Elf64_Nhdr nh;
			memcpy(&nh, p, sizeof(nh));
			size_t name = (nh.n_namesz + 3) & ~3u;
			size_t desc = (nh.n_descsz + 3) & ~3u;
			p += sizeof(nh);
			if (name > (size_t)(end - p) ||
			    desc > (size_t)(end - p) - name)
				break;
			if (nh.n_namesz == 4 && memcmp(p, "Xen", 4) == 0 &&
			    nh.n_type == XEN_ELFNOTE_PHYS32_ENTRY)
				return 1;
			p += name + desc;
		}
	}
	return 0;
}

static int read_file(const char *path, unsigned char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "cannot read '%s'", path);
	if ((uint64_t)st.st_size > BZIMAGE_MAX)
		return -ENOEXEC;
	_cleanup_free_ unsigned char *b = malloc(st.st_size ? st.st_size : 1);
	if (!b)
		return -ENOMEM;
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, b + got, st.st_size - got);
		if (k <= 0)
			return log_error_errno(k < 0 ? -errno : -EIO,
					       "cannot read '%s'", path);
		got += k;
	}
	*ret = TAKE_PTR(b);
	*ret_len = got;
	return 0;
}

/* The XZ stream IN (one stream; the kernel's build appends the
 * uncompressed size after it, which is ignored) into *RET. */
static int unxz(const unsigned char *in, size_t len, unsigned char **ret,
		size_t *ret_len)
{
	lzma_stream s = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	size_t cap = 8 * len, n = 0;
	unsigned char *out = malloc(cap);
	lzma_ret lr = LZMA_OK;
	s.next_in = in;
	s.avail_in = len;
	while (out && lr == LZMA_OK) {
		if (n == cap) {
			unsigned char *o = cap * 2 <= ELF_MAX ? realloc(out, cap * 2) : NULL;
			if (!o) {
				free(out);
				out = NULL;
				break;
			}
			out = o;
			cap *= 2;
		}
		s.next_out = out + n;
		s.avail_out = cap - n;
		lr = lzma_code(&s, LZMA_FINISH);
		n = cap - s.avail_out;
	}
	lzma_end(&s);
	if (!out)
		return -ENOEXEC; /* larger than any kernel: not one */
	if (lr != LZMA_STREAM_END) {
		free(out);
		return -ENOEXEC;
	}
	*ret = out;
	*ret_len = n;
	return 0;
}

static int write_file(const char *path, const unsigned char *b, size_t n)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return log_error_errno(-ENAMETOOLONG, "cannot create '%s'", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return log_error_errno(-errno, "cannot create '%s'", tmp);
	int r = 0;
	for (size_t done = 0; done < n && r == 0;) {
		ssize_t k = write(fd, b + done, n - done);
		if (k < 0)
			r = -errno;
		else
			done += k;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return log_error_errno(r, "cannot write '%s'", path);
	}
	return 0;
}

int pvhkernel_write(const char *bzimage, const char *dest)
{
	_cleanup_free_ unsigned char *b = NULL, *elf = NULL;
	size_t n = 0, off = 0, len = 0, elf_len = 0;
	int r;

	if ((r = read_file(bzimage, &b, &n)) < 0 ||
	    (r = payload(b, n, &off, &len)) < 0 ||
	    (r = unxz(b + off, len, &elf, &elf_len)) < 0)
		return r;
	if (!has_pvh_note(elf, elf_len))
		return -ENOEXEC;
	return write_file(dest, elf, elf_len);
}
