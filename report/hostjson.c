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

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

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

const char *hostjson_label(json_object *info)
{
	const char *h = info ? jsonget_string(info, "hostname") : NULL;
	if (h && !hostjson_placeholder(h))
		return h;
	h = info ? jsonget_string(info, "label") : NULL;
	return h && *h ? h : NULL;
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
