/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "elfdeps.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "log.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(Elf, elf_end)

int elfdeps_push(struct elfdeps *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->paths[i], path) == 0)
			return 0;
	if (d->n == ELFDEPS_MAX)
		return -E2BIG;
	d->paths[d->n] = strdup(path);
	if (!d->paths[d->n])
		return -ENOMEM;
	d->n++;
	return 0;
}

/* A 64-bit x86-64 ELF file open for reading, or NULL. */
static Elf *elf_open(int fd)
{
	GElf_Ehdr eh;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getclass(e) == ELFCLASS64 &&
	    gelf_getehdr(e, &eh) && eh.e_machine == EM_X86_64)
		return e;
	elf_end(e);
	return NULL;
}

int elfdeps_defines(const char *path, const char *name)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	_cleanup_(elf_endp) Elf *e = elf_open(fd);
	Elf_Scn *scn = NULL;

	if (!e)
		return -ENOEXEC;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
		    sh.sh_entsize == 0 || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;
			if (gelf_getsym(d, (int)i, &s) && s.st_shndx != SHN_UNDEF &&
			    (n = elf_strptr(e, sh.sh_link, s.st_name)) &&
			    strcmp(n, name) == 0)
				return 1;
		}
	}
	return 0;
}

/* The program interpreter of PATH (PT_INTERP) into RET, "" for a static
 * program.  libelf checks the headers against the file's size; the
 * string is taken only within its segment.  Returns 0 or -ENOEXEC for a
 * file that is not a 64-bit x86 ELF (not reported), -errno. */
static int interpreter(const char *path, char *ret, size_t len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n, size;

	ret[0] = '\0';
	if (fd < 0)
		return -errno;
	_cleanup_(elf_endp) Elf *e = elf_open(fd);
	if (!e || elf_getphdrnum(e, &n) != 0)
		return -ENOEXEC;
	const char *raw = elf_rawfile(e, &size);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			return -ENOEXEC;
		if (ph.p_type != PT_INTERP)
			continue;
		if (!raw || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return -ENOEXEC;
		size_t l = strnlen(raw + ph.p_offset, ph.p_filesz);
		if (l == 0 || l >= len || raw[ph.p_offset] != '/')
			return -ENOEXEC;
		memcpy(ret, raw + ph.p_offset, l);
		ret[l] = '\0';
	}
	return 0;
}

/* One line of `ld.so --list`: "\tNAME => PATH (0xADDR)", "\tPATH
 * (0xADDR)" (the interpreter), "\tNAME (0xADDR)" (the vDSO, no file) or
 * "\tNAME => not found". */
static int add_line(struct elfdeps *d, const char *program, char *line)
{
	char *arrow = strstr(line, " => ");
	char *path = arrow ? arrow + 4 : line + strspn(line, " \t");

	if (arrow && strncmp(path, "not found", 9) == 0) {
		*arrow = '\0';
		log_error("'%s' needs '%s', which the loader does not find "
			  "(the guest has no ld.so.cache: only DT_RUNPATH and "
			  "the system directories count)",
			  program, line + strspn(line, " \t"));
		return -ENOENT;
	}
	path[strcspn(path, " (\n")] = '\0';
	if (path[0] != '/')
		return 0; /* linux-vdso.so.1: in the kernel */
	int r = elfdeps_push(d, path);
	return r < 0 ? log_error_errno(r, "'%s'", program) : 0;
}

int elfdeps_add(struct elfdeps *deps, const char *program)
{
	char interp[PATH_MAX];
	_cleanup_free_ char *out = NULL;
	int r = interpreter(program, interp, sizeof(interp));

	if (r < 0)
		return log_error_errno(r, "'%s': not a 64-bit x86 ELF file",
				       program);
	if (!interp[0])
		return 0; /* static: needs nothing */
	/* The loader resolves as it will in the guest: no ld.so.cache
	 * there (--inhibit-cache), and a CPU of its own, so no glibc-hwcaps
	 * subdirectory chosen for this one (a mask that matches none). */
	char *argv[] = {interp,	       "--inhibit-cache", "--glibc-hwcaps-mask",
			"none",	       "--list",	  (char *)program,
			NULL};
	r = command_capture(argv, NULL, 1 << 20, &out);
	if (r != 0 && !out)
		return log_error_errno(r < 0 ? r : -EIO,
				       "'%s --list %s' failed", interp, program);
	int failed = r;
	char *save = NULL;
	for (char *line = out ? strtok_r(out, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		if ((r = add_line(deps, program, line)) < 0)
			return r;
	if (failed != 0)
		return log_error_errno(failed < 0 ? failed : -EIO,
				       "'%s --list %s' failed (exit status %d)",
				       interp, program, failed);
	return 0;
}

void elfdeps_release(struct elfdeps *deps)
{
	for (size_t i = 0; i < deps->n; i++)
		free(deps->paths[i]);
	deps->n = 0;
}
