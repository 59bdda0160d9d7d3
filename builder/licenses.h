/* What a kit carries, by license: the Debian packages it embeds, each
 * with the license names its /usr/share/doc/PKG/copyright gives, for the
 * manifest (docs/kit.md, "The manifest"), so a team that ships a kit
 * onward knows what it ships. */
#ifndef BUILDAPP_LICENSES_H
#define BUILDAPP_LICENSES_H

#include <stddef.h>

struct json_object;

/* buildapp's own license (COPYING). */
#define LICENSES_BUILDAPP "GPL-2.0-or-later"

/* The manifest's "licenses": buildapp's own; for each package of the
 * host root (SIZES, the manifest's "sizes": its host_root_uncompressed's
 * packages) and each package that owns one of FILES (N_FILES
 * host paths the kit copies: its kernel, a tarball; NULL and "" are
 * skipped) or of the boot loaders every kit carries, its version, the
 * license names of its copyright file and the file's path; and the FILES
 * no package owns.  Packages in name order, so equal inputs give equal
 * bytes.  A new reference, or NULL when out of memory. */
struct json_object *licenses_json(struct json_object *sizes, const char *const *files,
				  size_t n_files);

/* The license names of the Debian copyright file TEXT into *RET (a new
 * JSON array), in order, each once: a machine-readable file's License:
 * names (a field with no name: the /usr/share/common-licenses/NAME its
 * text points to, else ""); of a file in free text, the
 * /usr/share/common-licenses/NAME it points to.  Returns whether the file
 * is machine-readable (its first line is Format:). */
int licenses_of_copyright(const char *text, struct json_object **ret);

#endif
