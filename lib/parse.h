/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing of user-supplied scalars: sizes, integers, booleans.
 *
 * Each returns 0 and sets *ret only on success, -EINVAL for text that is
 * not of the form, and -ERANGE for a well-formed value out of range. */
#ifndef BUILDAPP_PARSE_H
#define BUILDAPP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decimal unsigned integer, no sign, no suffix. */
int parse_uint64(const char *s, uint64_t *ret);
/* "4096", "64K", "1.5G" style sizes with K/M/G/T (powers of 1024), an
 * optional trailing "B" or "iB"; fractions allowed with a suffix. */
int parse_size(const char *s, uint64_t *ret);
/* yes/no/on/off/true/false/1/0, any case. */
int parse_bool(const char *s, bool *ret);

/* Strips leading and trailing white space in place; returns the start. */
char *parse_strip(char *s);

/* Human size, e.g. "64M", "1.5G", "4096" into buf (at least 32 bytes).
 * Exact multiples print without a fraction. */
const char *format_size(uint64_t bytes, char *buf, size_t len);

#endif
