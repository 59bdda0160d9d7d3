/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hostjson.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json.h>

#include "cleanup.h"
#include "jsonget.h"
#include "log.h"

/* A vendor's way of saying nothing: "To Be Filled By O.E.M.", "Not
 * Specified", "Default string", "None", all zeros or all ones (UUIDs). */
bool hostjson_placeholder(const char *s)
{
	static const char *const names[] = {"to be filled by o.e.m.", "not specified",
					    "default string", "none", "not applicable",
					    "system serial number", "0123456789", "n/a", "(none)",
					    "localhost"};
	size_t digits = strspn(s, "0-"), ones = strspn(s, "fF-");

	if (!*s || !s[digits] || !s[ones])
		return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcasecmp(s, names[i]) == 0)
			return true;
	return false;
}

static bool real(const char *s)
{
	return s && !hostjson_placeholder(s);
}

/* O's SERIAL, after its NAME when it has one ("netboot SRV-A"): false
 * when O has no real serial. */
static bool named_serial(json_object *o, const char *name, char *buf, size_t size)
{
	const char *serial = o ? jsonget_string(o, "serial") : NULL, *what = NULL;

	if (!real(serial))
		return false;
	what = jsonget_string(o, name);
	snprintf(buf, size, "%s%s%s", real(what) ? what : "", real(what) ? " " : "", serial);
	return true;
}

bool hostjson_label(json_object *info, char *buf, size_t size)
{
	json_object *server = NULL, *disk = NULL;
	const char *h;

	if (size == 0)
		return false;
	buf[0] = '\0';
	if (!info)
		return false;
	json_object_object_get_ex(info, "server", &server);
	json_object_object_get_ex(info, "disk", &disk);
	if (named_serial(server, "product", buf, size) || named_serial(disk, "model", buf, size))
		return true;
	if (real(h = jsonget_string(info, "hostname")) ||
	    (server && real(h = jsonget_string(server, "uuid")))) {
		snprintf(buf, size, "%s", h);
		return true;
	}
	/* A bundle with no more than its name's SERVER_DISK, unless the
	 * name did not know the server either. */
	h = jsonget_string(info, "label");
	if (!h || !*h || strncmp(h, "unknown_", strlen("unknown_")) == 0)
		return false;
	snprintf(buf, size, "%s", h);
	return true;
}

int hostjson_read(const char *dir, json_object **ret)
{
	char path[PATH_MAX];
	unsigned version = 0;

	snprintf(path, sizeof(path), "%s/host.json", dir);
	if (access(path, F_OK) < 0 && errno == ENOENT) {
		*ret = NULL;
		return 0;
	}
	_cleanup_(json_object_putp) json_object *o = json_object_from_file(path);
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !jsonget_uint(o, "version", &version) || version != 1) {
		log_error("'%s': not a host.json of version 1 (%s)", path,
			  o ? "no \"version\": 1" : "not JSON");
		return -EBADMSG;
	}
	*ret = TAKE_PTR(o);
	return 0;
}
