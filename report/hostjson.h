/* host.json read back: the report's view of the host a bundle's sweep
 * ran on (written by the sweep's caller, appliance/hostinfo.h; the
 * format is in docs/report.md). */
#ifndef BUILDAPP_HOSTJSON_H
#define BUILDAPP_HOSTJSON_H

#include <stdbool.h>

struct json_object;

/* A vendor's way of saying nothing ("To Be Filled By O.E.M.", "Not
 * Specified", all zeros or all ones, "localhost"...), or "". */
bool hostjson_placeholder(const char *s);

/* The label the report gives a bundle's host: host.json's hostname when
 * it is a real one, else its "label" (SERVER_DISK of the bundle's name),
 * else NULL.  Points into INFO. */
const char *hostjson_label(struct json_object *info);

/* Reads DIR/host.json into *ret (a new reference; NULL when the file does
 * not exist).  Returns 0, or -EBADMSG for a file that is not a host.json
 * (reported). */
int hostjson_read(const char *dir, struct json_object **ret);

#endif
