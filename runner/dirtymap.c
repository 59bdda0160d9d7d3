/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "dirtymap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>

#include "cleanup.h"
#include "jsonget.h"
#include "log.h"

/* Runs the QMP command EXECUTE with ARGS (consumed; NULL: none). */
static int qmp(virDomainPtr dom, const char *execute, json_object *args)
{
	_cleanup_(json_object_putp) json_object *cmd = json_object_new_object();
	_cleanup_free_ char *reply = NULL;

	json_object_object_add(cmd, "execute", json_object_new_string(execute));
	if (args)
		json_object_object_add(cmd, "arguments", args);
	if (virDomainQemuMonitorCommand(dom, json_object_to_json_string(cmd),
					&reply, 0) < 0) {
		log_warning("QMP %s: %s", execute, virGetLastErrorMessage());
		return -EIO;
	}
	if (strstr(reply, "\"error\"")) {
		log_warning("QMP %s: %.300s", execute, reply);
		return -EIO;
	}
	return 0;
}

static json_object *bitmap_args(const char *node)
{
	json_object *a = json_object_new_object();

	json_object_object_add(a, "node", json_object_new_string(node));
	json_object_object_add(a, "name", json_object_new_string(DIRTYMAP_NAME));
	return a;
}

int dirtymap_parse_node(const char *reply, char *node, size_t len)
{
	_cleanup_(json_object_putp) json_object *root = json_tokener_parse(reply);
	json_object *list, *inserted;

	if (!root || !json_object_object_get_ex(root, "return", &list) ||
	    !json_object_is_type(list, json_type_array))
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *dev = json_object_array_get_idx(list, i);
		const char *name;

		if (!json_object_object_get_ex(dev, "inserted", &inserted))
			continue;
		name = jsonget_string(inserted, "node-name");
		if (!name || !*name || strlen(name) >= len)
			return -EINVAL;
		snprintf(node, len, "%s", name);
		return 0;
	}
	return -EINVAL;
}

int dirtymap_start(virDomainPtr dom, char *node, size_t len)
{
	_cleanup_free_ char *reply = NULL;
	json_object *args;

	if (virDomainQemuMonitorCommand(dom, "{\"execute\":\"query-block\"}",
					&reply, 0) < 0) {
		log_warning("cannot find the disk's block node: %s",
			    virGetLastErrorMessage());
		return -EIO;
	}
	if (dirtymap_parse_node(reply, node, len) < 0) {
		log_warning("no block node in the query-block reply: %.200s", reply);
		return -EINVAL;
	}
	args = bitmap_args(node);
	json_object_object_add(args, "persistent", json_object_new_boolean(false));
	return qmp(dom, "block-dirty-bitmap-add", args);
}

int dirtymap_collect(virDomainPtr dom, const char *node, struct written *ret)
{
	char dir[] = "/tmp/buildapp-nbd-XXXXXX", sock[64];
	json_object *addr, *data, *exp, *bitmaps;
	int r;

	if (!mkdtemp(dir)) {
		log_warning("mkdtemp: %s", strerror(errno));
		return -errno;
	}
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	/* A read-only export takes disabled bitmaps only; the guest is done. */
	r = qmp(dom, "block-dirty-bitmap-disable", bitmap_args(node));
	if (r < 0)
		goto out;
	data = json_object_new_object();
	json_object_object_add(data, "path", json_object_new_string(sock));
	addr = json_object_new_object();
	json_object_object_add(addr, "type", json_object_new_string("unix"));
	json_object_object_add(addr, "data", data);
	exp = json_object_new_object();
	json_object_object_add(exp, "addr", addr);
	r = qmp(dom, "nbd-server-start", exp);
	if (r < 0)
		goto out;
	bitmaps = json_object_new_array();
	json_object_array_add(bitmaps, json_object_new_string(DIRTYMAP_NAME));
	exp = json_object_new_object();
	json_object_object_add(exp, "type", json_object_new_string("nbd"));
	json_object_object_add(exp, "id", json_object_new_string(DIRTYMAP_NAME));
	json_object_object_add(exp, "node-name", json_object_new_string(node));
	json_object_object_add(exp, "name", json_object_new_string(DIRTYMAP_NAME));
	json_object_object_add(exp, "writable", json_object_new_boolean(false));
	json_object_object_add(exp, "bitmaps", bitmaps);
	r = qmp(dom, "block-export-add", exp);
	if (r >= 0)
		r = written_read_bitmap(sock, DIRTYMAP_NAME, DIRTYMAP_NAME, ret);
	/* The domain is destroyed next: the export and server go with it. */
	qmp(dom, "nbd-server-stop", NULL);
out:
	unlink(sock);
	rmdir(dir);
	return r;
}
