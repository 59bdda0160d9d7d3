/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the bytes of the appliance's host root are: its files' sizes
 * summed by the Debian package that installed them (dpkg's file lists),
 * the kernel modules, and the rest (files no package lists: generated
 * by supermin or depmod).  Written once, beside the cached root, as
 * JSON, for the kit's size breakdown (docs/kit.md). */
#ifndef BUILDAPP_ROOTSIZES_H
#define BUILDAPP_ROOTSIZES_H

/* Measures the tree ROOT and writes the breakdown to OUTPUT:
 * {"total": N, "modules": N, "unpackaged": N, "packages": {NAME: N}},
 * bytes of regular files before compression, each file counted once.
 * Returns 0 or a negative errno (reported). */
int rootsizes_measure(const char *root, const char *output);

#endif
