/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the builder finds its companions and keeps its cache. */
#ifndef BUILDAPP_TOOLS_H
#define BUILDAPP_TOOLS_H

#include <stddef.h>

/* A companion program NAME: GIVEN when not NULL, else $ENV, else NAME
 * next to this executable (the build tree), else BUILDAPP_LIBEXECDIR/NAME.
 * Returns 0 or -ENOENT (reported, naming ENV). */
int tools_find(const char *name, const char *env, const char *given,
	       char *buf, size_t len);

/* The appliance init: $BUILDAPP_INIT, else buildapp-init next to this
 * executable (the build tree), else BUILDAPP_LIBEXECDIR/buildapp-init.
 * Returns 0 or -ENOENT (reported). */
int tools_find_init(char *buf, size_t len);

/* The kernel [appliance] kernel = SETTING takes (kernel_find: "auto",
 * "" or NULL is the newest /boot kernel with modules).  Reports errors,
 * naming the key; returns 0 or kernel_find's negative errno (-EINVAL: a
 * name without a version). */
int tools_find_kernel(const char *setting, char *path, size_t path_len,
		      char *version, size_t version_len);

/* The build cache, the one place that decides it: GIVEN (--cache), else
 * $XDG_CACHE_HOME/buildapp, else $HOME/.cache/buildapp, else
 * /var/tmp/buildapp-cache; created with its parents when missing (a fresh
 * machine has no ~/.cache).  Returns 0 or a negative errno (reported). */
int tools_cache_dir(const char *given, char *buf, size_t len);

#endif
