#include "elfdeps.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"

/* The multiarch system directories of Debian's ld.so, in its order. */
static const char *const system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

struct elf_file {
	const unsigned char *map;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
};

static void elf_close(struct elf_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
}

static int elf_open(const char *path, struct elf_file *ret)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if ((size_t)st.st_size < sizeof(Elf64_Ehdr))
		return -ENOEXEC;
	void *m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	struct elf_file f = {m, st.st_size, m, NULL};
	if (memcmp(f.eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    f.eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    f.eh->e_machine != EM_X86_64 ||
	    f.eh->e_phoff + (uint64_t)f.eh->e_phnum * sizeof(Elf64_Phdr) >
		    f.size) {
		elf_close(&f);
		return -ENOEXEC;
	}
	f.ph = (const Elf64_Phdr *)(f.map + f.eh->e_phoff);
	*ret = f;
	return 0;
}

/* File offset of virtual address VADDR, through the PT_LOAD segments. */
static bool elf_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *ret)
{
	for (int i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];
		if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr &&
		    vaddr < p->p_vaddr + p->p_filesz) {
			*ret = vaddr - p->p_vaddr + p->p_offset;
			return *ret < f->size;
		}
	}
	return false;
}

static bool have(const struct elfdeps *d, const char *path)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->paths[i], path) == 0)
			return true;
	return false;
}

static bool have_base(const struct elfdeps *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++) {
		const char *b = strrchr(d->paths[i], '/');
		if (strcmp(b ? b + 1 : d->paths[i], name) == 0)
			return true;
	}
	return false;
}

static int push(struct elfdeps *d, const char *path)
{
	if (have(d, path))
		return 0;
	if (d->n == ELFDEPS_MAX)
		return -E2BIG;
	d->paths[d->n] = strdup(path);
	if (!d->paths[d->n])
		return -ENOMEM;
	d->n++;
	return 1;
}

/* Looks NAME up in the colon-separated DIRS ($ORIGIN = ORIGIN), then in
 * the system directories.  The candidate must be a 64-bit ELF: the
 * loader skips libraries of another class the same way. */
static int find_lib(const char *name, const char *dirs, const char *origin,
		    char *ret, size_t len)
{
	char buf[PATH_MAX];
	_cleanup_free_ char *copy = dirs ? strdup(dirs) : NULL;
	char *save = NULL;
	size_t nsys = sizeof(system_dirs) / sizeof(system_dirs[0]);
	char *dir = copy ? strtok_r(copy, ":", &save) : NULL;

	for (size_t i = 0;; ) {
		const char *d;
		if (dir) {
			d = dir;
		} else if (i < nsys) {
			d = system_dirs[i++];
		} else {
			return -ENOENT;
		}
		if (strncmp(d, "$ORIGIN", 7) == 0)
			snprintf(buf, sizeof(buf), "%s%s/%s", origin, d + 7,
				 name);
		else
			snprintf(buf, sizeof(buf), "%s/%s", d, name);
		if (dir)
			dir = strtok_r(NULL, ":", &save);
		struct elf_file f;
		if (elf_open(buf, &f) == 0) {
			elf_close(&f);
			snprintf(ret, len, "%s", buf);
			return 0;
		}
	}
}

static int add_object(struct elfdeps *d, const char *path, bool top);

static int scan(struct elfdeps *d, const char *path, const struct elf_file *f)
{
	const Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0;
	for (int i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];
		if (p->p_offset + p->p_filesz > f->size)
			return -ENOEXEC;
		if (p->p_type == PT_INTERP) {
			char interp[PATH_MAX];
			snprintf(interp, sizeof(interp), "%.*s",
				 (int)strnlen((const char *)f->map + p->p_offset,
					      p->p_filesz),
				 (const char *)f->map + p->p_offset);
			int r = push(d, interp);
			if (r < 0)
				return r;
		} else if (p->p_type == PT_DYNAMIC) {
			dyn = (const Elf64_Dyn *)(f->map + p->p_offset);
			ndyn = p->p_filesz / sizeof(Elf64_Dyn);
		}
	}
	if (!dyn)
		return 0; /* static */

	uint64_t strtab = 0, off;
	const char *runpath = NULL, *rpath = NULL;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	if (!elf_offset(f, strtab, &off))
		return -ENOEXEC;
	const char *str = (const char *)f->map + off;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_RUNPATH)
			runpath = str + dyn[i].d_un.d_val;
		else if (dyn[i].d_tag == DT_RPATH)
			rpath = str + dyn[i].d_un.d_val;
	}
	char real[PATH_MAX];
	if (!realpath(path, real))
		return -errno;
	const char *origin = dirname(real);
	/* DT_RPATH counts only without DT_RUNPATH, as in ld.so. */
	const char *dirs = runpath ? runpath : rpath;

	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		const char *name = str + dyn[i].d_un.d_val;
		if ((const unsigned char *)name >= f->map + f->size)
			return -ENOEXEC;
		/* ld.so matches an already loaded object by name first: the
		 * interpreter satisfies libc's need of ld-linux*.so. */
		if (have_base(d, name))
			continue;
		char lib[PATH_MAX];
		int r = find_lib(name, dirs, origin, lib, sizeof(lib));
		if (r < 0)
			return log_error_code(r, "'%s' needs '%s', which is "
						 "not installed",
					      path, name);
		r = add_object(d, lib, false);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_object(struct elfdeps *d, const char *path, bool top)
{
	if (!top) {
		int r = push(d, path);
		if (r <= 0)
			return r; /* already scanned, or an error */
	}
	struct elf_file f;
	int r = elf_open(path, &f);
	if (r < 0)
		return log_error_errno(r, "'%s': not a 64-bit x86 ELF file",
				       path);
	r = scan(d, path, &f);
	elf_close(&f);
	return r;
}

int elfdeps_add(struct elfdeps *deps, const char *program)
{
	return add_object(deps, program, true);
}

void elfdeps_release(struct elfdeps *deps)
{
	for (size_t i = 0; i < deps->n; i++)
		free(deps->paths[i]);
	deps->n = 0;
}
