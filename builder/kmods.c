/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kmods.h"

#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "log.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct kmod_ctx, kmod_unref)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct kmod_list, kmod_module_unref_list)

/* Modules are resolved against one kernel's files only: the build host's
 * /etc/modprobe.d says nothing about the guest.  (An empty list: libkmod
 * still reads the kernel's own softdeps, MODDIR/modules.softdep.) */
static const char *const no_config[] = {NULL};

/* Nested softdeps cannot loop forever: modprobe itself stops at a few. */
#define DEPTH_MAX 16

struct walk {
	const char *moddir;
	size_t prefix; /* strlen(moddir) + 1 */
	struct elfdeps *ret;
};

static int add_module(struct walk *w, struct kmod_module *mod, int depth);

static int add_list(struct walk *w, struct kmod_list *list, int depth)
{
	struct kmod_list *l;
	int r = 0;

	kmod_list_foreach(l, list)
	{
		struct kmod_module *m = kmod_module_get_module(l);
		r = add_module(w, m, depth);
		kmod_module_unref(m);
		if (r < 0)
			break;
	}
	return r;
}

/* MOD after what it needs, the way modprobe loads it: its softdeps'
 * "pre" modules and its dependencies (each after its own) first, then
 * MOD, then its "post" modules. */
static int add_module(struct walk *w, struct kmod_module *mod, int depth)
{
	_cleanup_(kmod_module_unref_listp) struct kmod_list *pre = NULL;
	_cleanup_(kmod_module_unref_listp) struct kmod_list *post = NULL;
	_cleanup_(kmod_module_unref_listp) struct kmod_list *deps = NULL;
	const char *path = kmod_module_get_path(mod);
	int r;

	/* No file: built into the kernel, nothing to carry. */
	if (!path)
		return 0;
	if (strncmp(path, w->moddir, w->prefix - 1) != 0 ||
	    path[w->prefix - 1] != '/') {
		log_error("kernel module '%s': '%s' is outside '%s'",
			  kmod_module_get_name(mod), path, w->moddir);
		return -EINVAL;
	}
	for (size_t i = 0; i < w->ret->n; i++)
		if (strcmp(w->ret->paths[i], path + w->prefix) == 0)
			return 0;
	if (depth > DEPTH_MAX) {
		log_error("kernel module '%s': dependencies nest deeper than "
			  "%d",
			  kmod_module_get_name(mod), DEPTH_MAX);
		return -ELOOP;
	}
	kmod_module_get_softdeps(mod, &pre, &post);
	deps = kmod_module_get_dependencies(mod);
	if ((r = add_list(w, pre, depth + 1)) < 0 ||
	    (r = add_list(w, deps, depth + 1)) < 0)
		return r;
	/* (A softdep may have brought MOD in already: push keeps one.) */
	if ((r = elfdeps_push(w->ret, path + w->prefix)) < 0)
		return log_error_errno(r, "kernel modules");
	return add_list(w, post, depth + 1);
}

int kmods_resolve(const char *moddir, const char *const *names,
		  bool optional, struct elfdeps *ret)
{
	_cleanup_(kmod_unrefp) struct kmod_ctx *ctx =
		kmod_new(moddir, no_config);
	struct walk w = {moddir, strlen(moddir) + 1, ret};
	int r;

	if (!ctx)
		return log_error_errno(-ENOMEM, "libkmod: cannot read '%s'",
				       moddir);
	if ((r = kmod_load_resources(ctx)) < 0)
		return log_error_errno(r, "libkmod: cannot load the indexes "
					  "of '%s' (run depmod)",
				       moddir);
	for (const char *const *name = names; *name; name++) {
		_cleanup_(kmod_module_unref_listp) struct kmod_list *list = NULL;
		r = kmod_module_new_from_lookup(ctx, *name, &list);
		if (r < 0)
			return log_error_errno(r, "kernel module '%s'",
					       *name);
		/* Not found: neither a module, nor an alias, nor built in. */
		if (!list) {
			if (optional)
				continue;
			return log_error_errno(-ENOENT, "kernel module '%s' is "
							"not in '%s'",
					       *name, moddir);
		}
		if ((r = add_list(&w, list, 0)) < 0)
			return r;
	}
	return 0;
}
