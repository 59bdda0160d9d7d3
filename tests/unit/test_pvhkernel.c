/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest kernel's ELF out of a bzImage: written byte for byte as the
 * XZ payload holds it when the ELF has the PVH entry note; -ENOEXEC and
 * nothing written for a bzImage QEMU could not boot that way (no PVH
 * note, another codec, not a bzImage, a cut payload), which the kit then
 * boots as it is. */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pvhkernel.h"
#include "testfile.h"

static char dir[] = "/tmp/test-pvhkernel.XXXXXX";

/* A 64-bit ELF with one PT_NOTE holding Xen's note of type TYPE. */
static size_t make_elf(unsigned char *e, size_t cap, uint32_t type)
{
	Elf64_Ehdr h = {0};
	Elf64_Phdr ph = {0};
	Elf64_Nhdr nh = {.n_namesz = 4, .n_descsz = 4, .n_type = type};
	size_t note = sizeof(h) + sizeof(ph), n = note + sizeof(nh) + 8 + 4096;
	assert_true(n <= cap);
	memset(e, 0x90, n);
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_type = ET_EXEC;
	h.e_phoff = sizeof(h);
	h.e_phentsize = sizeof(ph);
	h.e_phnum = 1;
	ph.p_type = PT_NOTE;
	ph.p_offset = note;
	ph.p_filesz = sizeof(nh) + 8;
	memcpy(e, &h, sizeof(h));
	memcpy(e + sizeof(h), &ph, sizeof(ph));
	memcpy(e + note, &nh, sizeof(nh));
	memcpy(e + note + sizeof(nh), "Xen\0\0\0\0\x01", 8);
	return n;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

/* NAME: a bzImage (protocol 2.15, one setup sector) whose payload is
 * PAYLOAD, LEN bytes, followed by the uncompressed size as the kernel's
 * build appends it. */
static void write_bzimage(const char *name, const unsigned char *payload,
			  size_t len, const char *magic)
{
	size_t off = 1024;
	unsigned char *b = calloc(1, off + len + 4);
	assert_non_null(b);
	b[0x1f1] = 1;
	memcpy(b + 0x202, magic, 4);
	b[0x206] = 0x0f;
	b[0x207] = 0x02;
	put32(b + 0x248, 0);
	put32(b + 0x24c, len + 4);
	memcpy(b + off, payload, len);
	put32(b + off + len, 12345);
	write_data(dir, name, b, off + len + 4);
	free(b);
}

static size_t xz(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	size_t pos = 0;
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in,
						 n, out, &pos, cap),
			 LZMA_OK);
	return pos;
}

/* RET is the result of unpacking NAME into NAME.elf; 0 only with the
 * ELF's bytes in it, else nothing there (not even the temporary). */
static void check(const char *name, int ret, const unsigned char *elf,
		  size_t n)
{
	char in[PATH_MAX], out[PATH_MAX], tmp[PATH_MAX + 8];
	snprintf(in, sizeof(in), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/%s.elf", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	assert_int_equal(pvhkernel_write(in, out), ret);
	assert_int_not_equal(access(tmp, F_OK), 0);
	if (ret < 0) {
		assert_int_not_equal(access(out, F_OK), 0);
		return;
	}
	unsigned char *got = malloc(n + 1);
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	assert_int_equal(fread(got, 1, n + 1, f), n);
	fclose(f);
	assert_memory_equal(got, elf, n);
	free(got);
}

static void unpack(void **state)
{
	(void)state;
	static unsigned char elf[8192], packed[16384];
	assert_non_null(mkdtemp(dir));

	size_t n = make_elf(elf, sizeof(elf), 18);
	size_t p = xz(elf, n, packed, sizeof(packed));
	write_bzimage("pvh", packed, p, "HdrS");
	check("pvh", 0, elf, n);
	/* The same bzImage, the same bytes: written again over the first. */
	check("pvh", 0, elf, n);

	write_bzimage("not-bzimage", packed, p, "XXXX");
	check("not-bzimage", -ENOEXEC, NULL, 0);
	write_bzimage("cut", packed, p / 2, "HdrS");
	check("cut", -ENOEXEC, NULL, 0);
	static const unsigned char gzip[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	write_bzimage("gzip", gzip, sizeof(gzip), "HdrS");
	check("gzip", -ENOEXEC, NULL, 0);

	/* Xen's notes without the PVH entry (18): QEMU would refuse it. */
	n = make_elf(elf, sizeof(elf), 17);
	p = xz(elf, n, packed, sizeof(packed));
	write_bzimage("no-pvh", packed, p, "HdrS");
	check("no-pvh", -ENOEXEC, NULL, 0);

	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unpack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
