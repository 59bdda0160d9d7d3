/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scope-bound cleanup helpers (gcc/clang cleanup attribute).
 *
 * Every destructor used here accepts NULL, so a variable declared with a
 * cleanup attribute may be returned to the caller by setting it to NULL
 * (see TAKE_PTR). */
#ifndef BUILDAPP_CLEANUP_H
#define BUILDAPP_CLEANUP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

/* Defines static void NAMEp(TYPE **p) that calls FUNC(*p) when *p != NULL. */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, func)                                \
	static inline void func##p(type **p)                                   \
	{                                                                      \
		if (*p)                                                        \
			func(*p);                                              \
	}

/* Hand ownership of a cleanup-managed pointer to someone else. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) _tp = (p);                                       \
		(p) = NULL;                                                    \
		_tp;                                                           \
	})

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

/* Frees a NULL-terminated array of strings and the array. */
static inline void strv_freep(char ***v)
{
	if (*v) {
		for (char **s = *v; *s; s++)
			free(*s);
		free(*v);
	}
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_strv_free_ _cleanup_(strv_freep)

#endif
