/* Where the builder finds its companions and keeps its cache. */
#ifndef BUILDAPP_TOOLS_H
#define BUILDAPP_TOOLS_H

#include <stddef.h>

/* The appliance init: $BUILDAPP_INIT, else buildapp-init next to this
 * executable (the build tree), else BUILDAPP_LIBEXECDIR/buildapp-init.
 * Returns 0 or -ENOENT (reported). */
int tools_find_init(char *buf, size_t len);

/* $BUILDAPP_CACHE_DIR, $XDG_CACHE_HOME/buildapp or ~/.cache/buildapp.
 * Returns 0 or a negative errno (reported). */
int tools_cache_dir(char *buf, size_t len);
#endif
