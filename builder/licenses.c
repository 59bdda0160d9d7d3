#include "licenses.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "command.h"
#include "files.h"
#include "image.h"
#include "jsonget.h"

/* The host files every kit copies besides the host root's packages: its
 * loaders (image.h), and syslinux, which writes its own ldlinux.sys. */
static const char *const loader_files[] = {
	IMAGE_GPTMBR,  IMAGE_SHIM,	   IMAGE_GRUB,		IMAGE_GRUB_CD,
	IMAGE_ISOLINUX, IMAGE_ISOHYBRID_MBR, IMAGE_LDLINUX_BIOS, "/usr/bin/syslinux",
};
#define N_LOADERS (sizeof(loader_files) / sizeof(loader_files[0]))

/* A copyright file is read whole up to this size (the kernel's is 150 KB). */
#define COPYRIGHT_MAX (4u << 20)

static bool in_array(json_object *a, const char *s)
{
	for (size_t i = 0; i < json_object_array_length(a); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(a, i)), s) == 0)
			return true;
	return false;
}

static void add_once(json_object *a, const char *s, size_t len)
{
	char name[128];

	snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1), s);
	if (!in_array(a, name))
		json_object_array_add(a, json_object_new_string(name));
}

/* The licenses Debian ships whole that [TEXT, END) points to, by their
 * files' names (/usr/share/common-licenses/GPL-2), into NAMES; how many
 * it names. */
static size_t common_licenses(const char *text, const char *end, json_object *names)
{
	static const char common[] = "/usr/share/common-licenses/";
	size_t found = 0;

	for (const char *p = text; (p = strstr(p, common)) && p < end; p += sizeof(common) - 1) {
		const char *v = p + sizeof(common) - 1;
		size_t n = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-+_");
		while (n && v[n - 1] == '.')
			n--;
		if (n && v + n <= end) {
			add_once(names, v, n);
			found++;
		}
	}
	return found;
}

int licenses_of_copyright(const char *text, json_object **ret)
{
	json_object *names = json_object_new_array();
	bool dep5 = strncmp(text, "Format:", 7) == 0;

	for (const char *line = text; dep5 && line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len >= 8 && strncmp(line, "License:", 8) == 0) {
			const char *v = line + 8;
			size_t n = len - 8;
			while (n && (*v == ' ' || *v == '\t'))
				v++, n--;
			while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
				n--;
			/* No name: the license is in the field's text, which may
			 * point to the licenses Debian ships whole. */
			const char *stop = line + len;
			while (!n && *stop == '\n' && (stop[1] == ' ' || stop[1] == '\t')) {
				const char *next = strchr(stop + 1, '\n');
				stop = next ? next : stop + 1 + strlen(stop + 1);
			}
			if (n || !common_licenses(line, stop, names))
				add_once(names, v, n);
		}
		line = end ? end + 1 : NULL;
	}
	if (!dep5)
		common_licenses(text, text + strlen(text), names);
	*ret = names;
	return dep5;
}

/* The packages that own FILES (and their /usr-less names, as dpkg's
 * lists may give a merged-/usr file), added to SET (an object used as a
 * set); the files none owns into ORPHANS. */
static void add_owners(const char *const *files, size_t n, json_object *set,
		       json_object *orphans)
{
	for (size_t i = 0; i < n; i++) {
		const char *f = files[i];
		char alias[4096];
		bool found = false;
		if (!f || !*f)
			continue;
		snprintf(alias, sizeof(alias), "%s", strncmp(f, "/usr/", 5) == 0 ? f + 4 : f);
		for (int k = 0; k < 2 && !found; k++) {
			char *argv[] = {"dpkg-query", "-S", (char *)(k ? alias : f), NULL};
			struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .max = 1 << 16,
						 .stderr_path = "/dev/null"};
			struct command_result res = {0};
			if (command_spawn(argv, &o, &res) == 0 && res.out) {
				/* "pkg1, pkg2: /path" ("diversion by ..." lines have no ':' first) */
				for (char *save = NULL, *l = strtok_r(res.out, "\n", &save); l;
				     l = strtok_r(NULL, "\n", &save)) {
					char *colon = strstr(l, ": ");
					if (!colon || strncmp(l, "diversion ", 10) == 0)
						continue;
					*colon = '\0';
					for (char *s2 = NULL, *p = strtok_r(l, ", ", &s2); p;
					     p = strtok_r(NULL, ", ", &s2)) {
						char *arch = strchr(p, ':');
						if (arch)
							*arch = '\0';
						json_object_object_add(set, p, NULL);
						found = true;
					}
				}
			}
			free(res.out);
			if (strcmp(alias, f) == 0)
				break;
		}
		if (!found && !in_array(orphans, f))
			json_object_array_add(orphans, json_object_new_string(f));
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The version of each package of NAMES (N of them) as dpkg knows it, into
 * VERSIONS (an object). */
static void add_versions(const char **names, size_t n, json_object *versions)
{
	for (size_t i = 0; i < n; i += 64) {
		char *argv[64 + 5] = {"dpkg-query", "-W", "-f", "${Package}\\t${Version}\\n"};
		size_t k = 4;
		for (size_t j = i; j < n && j < i + 64; j++)
			argv[k++] = (char *)names[j];
		argv[k] = NULL;
		struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .max = 1 << 20,
					 .stderr_path = "/dev/null"};
		struct command_result res = {0};
		if (command_spawn(argv, &o, &res) >= 0 && res.out)
			for (char *save = NULL, *l = strtok_r(res.out, "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save)) {
				char *tab = strchr(l, '\t');
				if (tab) {
					*tab = '\0';
					json_object_object_add(versions, l, json_object_new_string(tab + 1));
				}
			}
		free(res.out);
	}
}

json_object *licenses_json(json_object *sizes, const char *const *files, size_t n_files)
{
	json_object *root, *packages = NULL;
	_cleanup_(json_object_putp) json_object *set = json_object_new_object();
	_cleanup_(json_object_putp) json_object *versions = json_object_new_object();
	json_object *out = json_object_new_object(), *pk = json_object_new_object(),
		    *orphans = json_object_new_array();

	if (!set || !versions || !out || !pk || !orphans) {
		json_object_put(out);
		json_object_put(pk);
		json_object_put(orphans);
		return NULL;
	}
	if (json_object_object_get_ex(sizes, "host_root_uncompressed", &root))
		json_object_object_get_ex(root, "packages", &packages);
	if (packages) {
		json_object_object_foreach(packages, name, v) {
			(void)v;
			json_object_object_add(set, name, NULL);
		}
	}
	add_owners(loader_files, N_LOADERS, set, orphans);
	add_owners(files, n_files, set, orphans);

	size_t n = (size_t)json_object_object_length(set), k = 0;
	_cleanup_free_ const char **names = calloc(n ? n : 1, sizeof(*names));
	if (!names) {
		json_object_put(out);
		json_object_put(pk);
		json_object_put(orphans);
		return NULL;
	}
	{
		json_object_object_foreach(set, member, unused) {
			(void)unused;
			names[k++] = member;
		}
	}
	qsort(names, n, sizeof(*names), by_name);
	add_versions(names, n, versions);
	for (size_t i = 0; i < n; i++) {
		char path[512];
		_cleanup_free_ char *text = NULL;
		json_object *e = json_object_new_object(), *list = NULL, *v;
		snprintf(path, sizeof(path), "/usr/share/doc/%s/copyright", names[i]);
		int dep5 = 0;
		if (files_read_regular(path, COPYRIGHT_MAX, &text, NULL) == 0)
			dep5 = licenses_of_copyright(text, &list);
		if (json_object_object_get_ex(versions, names[i], &v))
			json_object_object_add(e, "version", json_object_get(v));
		json_object_object_add(e, "licenses", list ? list : json_object_new_array());
		json_object_object_add(e, "copyright",
				       text ? json_object_new_string(path) : NULL);
		json_object_object_add(e, "machine_readable", json_object_new_boolean(dep5));
		json_object_object_add(pk, names[i], e);
	}
	json_object_object_add(out, "buildapp", json_object_new_string(LICENSES_BUILDAPP));
	json_object_object_add(out, "packages", pk);
	json_object_object_add(out, "files_of_no_package", orphans);
	return out;
}
