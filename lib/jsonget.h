/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Typed look-ups of json-c object members, shared by the readers of the
 * journal, QEMU replies and the summary; exact, short JSON numbers; and
 * the one way a JSON file is written. */
#ifndef BUILDAPP_JSONGET_H
#define BUILDAPP_JSONGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json.h>

#include "cleanup.h"

/* _cleanup_(json_object_putp): a reference dropped at the end of scope. */
DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

/* The string member KEY of O, or NULL when absent, null or not a string.
 * Borrowed from O. */
const char *jsonget_string(json_object *o, const char *key);
/* Member KEY of O as a boolean into *ret; false when absent or not one. */
bool jsonget_bool(json_object *o, const char *key, bool *ret);
/* Member KEY as a number into *ret, NAN when absent or null; false when it
 * is something else. */
bool jsonget_number(json_object *o, const char *key, double *ret);
/* Member KEY as an integer in 0..UINT32_MAX; false otherwise. */
bool jsonget_uint(json_object *o, const char *key, unsigned *ret);

/* A new JSON number for V written in the fewest digits that read back as
 * V exactly (json-c's default prints 17), or NULL (JSON null) when V is
 * not finite.  The caller owns the reference. */
json_object *jsonget_new_number(double v);
/* V as jsonget_new_number writes it, into BUF (LEN, JSONGET_NUMBER_MAX
 * is enough), or NULL when V is not finite. */
#define JSONGET_NUMBER_MAX 32
const char *jsonget_number_text(double v, char *buf, size_t len);

/* Writes O (a json_object) to F, indented, '/' unescaped, with a final
 * newline: an atomicfile_writer (host.json, timings.json).  Returns 0 or
 * -EIO. */
int jsonget_write_pretty(const void *o, FILE *f);

#endif
