/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host.json read back: the report's view of the host a bundle's sweep
 * ran on (written by the sweep's caller, appliance/hostinfo.h; the
 * format is in docs/report.md). */
#ifndef BUILDAPP_HOSTJSON_H
#define BUILDAPP_HOSTJSON_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* A vendor's way of saying nothing ("To Be Filled By O.E.M.", "Not
 * Specified", all zeros or all ones, "localhost"...), or "". */
bool hostjson_placeholder(const char *s);

/* The label the report gives a bundle's host, by what identifies it:
 * the DMI serial (after the product), else the disk under test's serial
 * (after its model), else a real hostname, else the DMI UUID, else
 * host.json's "label" (SERVER_DISK of the bundle's name) unless its
 * server is "unknown".  Writes into BUF (SIZE bytes); returns false, BUF
 * "", when none of these is there. */
bool hostjson_label(struct json_object *info, char *buf, size_t size);

/* Reads DIR/host.json into *ret (a new reference; NULL when the file does
 * not exist).  Returns 0, or -EBADMSG for a file that is not a host.json
 * (reported). */
int hostjson_read(const char *dir, struct json_object **ret);

#endif
