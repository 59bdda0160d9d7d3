/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hostinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "disks.h"
#include "hostjson.h"
#include "hosttune.h"
#include "jsonget.h"
#include "log.h"
#include "plan.h"
#include "sha256.h"
#include "sysfs.h"

static json_object *string_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

unsigned hostinfo_parse_cpuinfo(const char *text, char *model, size_t len)
{
	unsigned n = 0;

	if (len)
		model[0] = '\0';
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t l = eol ? (size_t)(eol - line) : strlen(line);
		const char *colon = memchr(line, ':', l);
		if (colon && strncmp(line, "processor", 9) == 0 &&
		    strspn(line + 9, " \t") == (size_t)(colon - line - 9))
			n++;
		if (colon && len && !model[0] && strncmp(line, "model name", 10) == 0) {
			const char *v = colon + 1 + strspn(colon + 1, " \t");
			size_t vl = (size_t)(line + l - v);
			snprintf(model, len, "%.*s", (int)vl, v);
		}
		line = eol ? eol + 1 : NULL;
	}
	return n;
}

int hostinfo_kit_sha256(const char *dir, char hex[65])
{
	static const char *const files[] = {"plan.json", "vmlinuz", "initrd.img",
					    "disk.qcow2"};
	char list[4 * (64 + 2 + 16 + 1) + 1] = "";

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[PATH_MAX], h[65];
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		int r = sha256_path_hex(path, h);
		if (r < 0)
			return r;
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s  %s\n", h, files[i]);
	}
	return sha256_fd_hex(-1, list, strlen(list), hex);
}

static json_object *plan_json(const struct plan *plan)
{
	json_object *o = json_object_new_object();
	_cleanup_free_ char *text = NULL;
	size_t size = 0;
	char hex[65];

	json_object_object_add(o, "seed", json_object_new_uint64(plan->profile.sweep.seed));
	/* The plan as plan_write_json prints it: the same plan, the same hash,
	 * whichever file it was read from. */
	FILE *f = open_memstream(&text, &size);
	int r = f ? plan_write_json(plan, f) : -ENOMEM;
	if (f && fclose(f) != 0)
		r = -EIO;
	json_object_object_add(o, "sha256",
			       r == 0 && sha256_fd_hex(-1, text, size, hex) == 0
				       ? json_object_new_string(hex)
				       : NULL);
	return o;
}

/* The whole disk behind block device PATH ("sda" for /dev/sda2), from
 * /sys/dev/block; "" when PATH is not a block device. */
static void disk_of(const char *path, char name[DISK_NAME_MAX])
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16];
	struct stat st;

	name[0] = '\0';
	if (!path || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	if (!realpath(link, real))
		return;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	snprintf(name, DISK_NAME_MAX, "%s", basename(real));
}

static json_object *block_number(const char *disk, const char *attr)
{
	char buf[32], *end;

	if (sysfs_read_block(disk, attr, buf, sizeof(buf)) < 0)
		return NULL;
	unsigned long long v = strtoull(buf, &end, 10);
	return end != buf && !*end ? json_object_new_uint64(v) : NULL;
}

static const char *on_off(int v)
{
	return v < 0 ? NULL : v ? "on" : "off";
}

static json_object *disk_json(const struct hostinfo_inputs *in)
{
	char name[DISK_NAME_MAX], rev[DISK_ID_MAX] = "", rot[8];
	struct disk_info d;

	disk_of(in->target, name);
	if (!name[0] || disks_info(name, &d) < 0)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(d.name));
	json_object_object_add(o, "model", string_or_null(d.model));
	/* SCSI and ATA say rev, NVMe firmware_rev (on the controller). */
	if (sysfs_read_block(name, "device/rev", rev, sizeof(rev)) < 0)
		sysfs_read_block(name, "device/firmware_rev", rev, sizeof(rev));
	json_object_object_add(o, "firmware", string_or_null(rev));
	json_object_object_add(o, "serial", string_or_null(d.serial));
	json_object_object_add(o, "wwid", string_or_null(d.wwid));
	json_object_object_add(o, "size_bytes", json_object_new_uint64(d.size));
	json_object_object_add(o, "rotational",
			       sysfs_read_block(name, "queue/rotational", rot, sizeof(rot)) == 0
				       ? json_object_new_boolean(strcmp(rot, "0") != 0)
				       : NULL);
	json_object_object_add(o, "logical_sector_bytes",
			       block_number(name, "queue/logical_block_size"));
	json_object_object_add(o, "physical_sector_bytes",
			       block_number(name, "queue/physical_block_size"));
	/* What the profile asked for and what the device said after it was
	 * applied; only the appliance's host tuning knows either. */
	const struct hosttune *t = in->tune;
	char wc[32];
	json_object_object_add(
		o, "write_cache_requested",
		t ? json_object_new_string(hosttune_write_cache_text(
			    in->plan->profile.host.write_cache, wc, sizeof(wc)))
		  : NULL);
	json_object_object_add(o, "write_cache_read_back",
			       t ? string_or_null(on_off(t->write_cache_effective)) : NULL);
	return o;
}

static json_object *cpu_json(json_object *o)
{
	_cleanup_free_ char *text = malloc(1 << 20);
	char model[256] = "";
	unsigned listed = 0;

	_cleanup_close_ int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
	if (text && fd >= 0) {
		size_t len = 0;
		ssize_t n;
		while (len < (1 << 20) - 1 &&
		       (n = read(fd, text + len, (1 << 20) - 1 - len)) > 0)
			len += (size_t)n;
		text[len] = '\0';
		listed = hostinfo_parse_cpuinfo(text, model, sizeof(model));
	}
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	json_object_object_add(o, "cpu_model", string_or_null(model));
	json_object_object_add(o, "cpus",
			       online > 0 ? json_object_new_int64(online)
			       : listed   ? json_object_new_int64(listed)
					  : NULL);
	return o;
}


static void read_attr(const char *dir, const char *name, char buf[HOSTINFO_ID_MAX])
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (sysfs_read(path, buf, HOSTINFO_ID_MAX) < 0 || hostjson_placeholder(buf))
		buf[0] = '\0';
}

void hostinfo_read_dmi(const char *dir, struct hostinfo_server *ret)
{
	read_attr(dir, "product_serial", ret->serial);
	read_attr(dir, "product_uuid", ret->uuid);
	read_attr(dir, "sys_vendor", ret->vendor);
	read_attr(dir, "product_name", ret->product);
}

long long hostinfo_parse_btime(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (strncmp(l, "btime ", 6) == 0)
			return strtoll(l + 6, NULL, 10);
	return 0;
}

/* Appends "_" (unless first) and PART with every character that is not a
 * letter, digit, '.' or '-' as '-'; false when it does not fit. */
static bool name_part(char *buf, size_t len, size_t *used, const char *part)
{
	if (*used && *used + 1 < len)
		buf[(*used)++] = '_';
	for (const char *c = part; *c && *used + 1 < len; c++)
		buf[(*used)++] = isalnum((unsigned char)*c) || *c == '.' || *c == '-' ? *c : '-';
	buf[*used < len ? *used : len - 1] = '\0';
	return *used + 1 < len;
}

static const char *first_of(const char *a, const char *b, const char *c, const char *none)
{
	return a && *a ? a : b && *b ? b : c && *c ? c : none;
}

int hostinfo_bundle_name(const char *profile, const struct hostinfo_server *server,
			 const char *hostname, const char *disk_serial,
			 const char *disk_wwid, const char *disk_name, long long boot,
			 char *buf, size_t len)
{
	char when[32] = "noboottime";
	size_t used = 0;
	struct tm tm;
	time_t t = (time_t)boot;

	if (boot > 0)
		strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", gmtime_r(&t, &tm));
	if (len == 0)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (!name_part(buf, len, &used, first_of(profile, NULL, NULL, "buildapp")) ||
	    !name_part(buf, len, &used,
		       first_of(server->serial, server->uuid,
				hostname && !hostjson_placeholder(hostname) ? hostname : NULL,
				"unknown")) ||
	    !name_part(buf, len, &used, first_of(disk_serial, disk_wwid, disk_name, "nodisk")) ||
	    !name_part(buf, len, &used, when)) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}


long long hostinfo_boot_time(const char *proc_dir)
{
	char path[PATH_MAX], text[16384];
	snprintf(path, sizeof path, "%s/stat", proc_dir ? proc_dir : "/proc");
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return hostinfo_parse_btime(text);
}

/* The server (DMI), the boot time and the bundle's name and label. */
static void identity_json(const struct hostinfo_inputs *in, const char *hostname,
			  json_object *disk, json_object *o)
{
	struct hostinfo_server s;
	char name[HOSTINFO_BUNDLE_MAX], when[32];
	long long boot = hostinfo_boot_time(in->proc_dir);
	struct tm tm;
	time_t t = (time_t)boot;

	hostinfo_read_dmi(in->dmi_dir ? in->dmi_dir : "/sys/class/dmi/id", &s);
	json_object *srv = json_object_new_object();
	json_object_object_add(srv, "serial", string_or_null(s.serial));
	json_object_object_add(srv, "uuid", string_or_null(s.uuid));
	json_object_object_add(srv, "vendor", string_or_null(s.vendor));
	json_object_object_add(srv, "product", string_or_null(s.product));
	json_object_object_add(o, "server", srv);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	json_object_object_add(o, "boot_time", boot > 0 ? json_object_new_string(when) : NULL);
	const char *profile = in->plan->profile.appliance.name;
	if (hostinfo_bundle_name(profile, &s, hostname, jsonget_string(disk, "serial"),
				 jsonget_string(disk, "wwid"), jsonget_string(disk, "name"),
				 boot, name, sizeof name) < 0)
		return;
	json_object_object_add(o, "bundle", json_object_new_string(name));
	/* SERVER_DISK: the name without the profile and the boot time. */
	const char *from = strchr(name, '_'), *to = strrchr(name, '_');
	if (from && to > from)
		json_object_object_add(o, "label", json_object_new_string_len(
							   from + 1, (int)(to - from - 1)));
}

/* The host's page-cache writeback settings as the sweep runs (after
 * [host] applied them): how long written data may stay only in memory. */
static json_object *writeback_json(void)
{
	static const char *const names[] = {
		"dirty_ratio", "dirty_background_ratio", "dirty_bytes",
		"dirty_background_bytes", "dirty_expire_centisecs",
		"dirty_writeback_centisecs"};
	json_object *o = json_object_new_object();
	char path[64], buf[32];

	for (size_t i = 0; o && i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", names[i]);
		json_object_object_add(o, names[i],
				       sysfs_read(path, buf, sizeof(buf)) == 0
					       ? json_object_new_int64(atoll(buf))
					       : NULL);
	}
	return o;
}

int hostinfo_secure_boot(void)
{
	unsigned char var[5];

	if (access("/sys/firmware/efi", F_OK) < 0)
		return 0; /* BIOS: no Secure Boot */
	_cleanup_close_ int fd = open("/sys/firmware/efi/efivars/"
				      "SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
				      O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, var, sizeof(var)) != (ssize_t)sizeof(var))
		return -ENOENT;
	return var[4] == 1;
}

int hostinfo_lockdown(char *buf, size_t len)
{
	char text[128];
	if (sysfs_read("/sys/kernel/security/lockdown", text, sizeof(text)) < 0)
		return -ENOENT;
	char *open_b = strchr(text, '['), *close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b)
		return -ENOENT;
	snprintf(buf, len, "%.*s", (int)(close_b - open_b - 1), open_b + 1);
	return 0;
}

static json_object *secure_boot_json(void)
{
	int on = hostinfo_secure_boot();
	return on < 0 ? NULL : json_object_new_boolean(on);
}

static json_object *lockdown_json(void)
{
	char mode[64];
	return hostinfo_lockdown(mode, sizeof(mode)) < 0 ? NULL : json_object_new_string(mode);
}

int hostinfo_collect(const struct hostinfo_inputs *in, json_object **ret)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	char host[256] = "", started[32];
	struct utsname u;

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "version", json_object_new_int(1));
	gethostname(host, sizeof(host) - 1);
	json_object_object_add(o, "hostname", string_or_null(host));
	cpu_json(o);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	json_object_object_add(o, "memory_bytes",
			       pages > 0 && page > 0
				       ? json_object_new_uint64((uint64_t)pages * (uint64_t)page)
				       : NULL);
	json_object_object_add(o, "kernel",
			       uname(&u) == 0 ? json_object_new_string(u.release) : NULL);
	json_object_object_add(o, "qemu_version", string_or_null(in->qemu_version));
	json_object_object_add(o, "libvirt_version", string_or_null(in->libvirt_version));
	json_object_object_add(o, "accel", json_object_new_string(in->kvm ? "kvm" : "tcg"));
	json_object_object_add(o, "firmware",
			       json_object_new_string(access("/sys/firmware/efi", F_OK) == 0
							      ? "uefi"
							      : "bios"));
	json_object_object_add(o, "secure_boot", secure_boot_json());
	json_object_object_add(o, "lockdown", lockdown_json());
	json_object *disk = disk_json(in);
	json_object_object_add(o, "disk", disk);
	json_object_object_add(o, "page_cache_writeback", writeback_json());
	identity_json(in, host, disk, o);
	json_object *kit = NULL;
	char hex[65];
	if (in->kit_dir) {
		kit = json_object_new_object();
		json_object_object_add(kit, "profile",
				       string_or_null(in->plan->profile.appliance.name));
		json_object_object_add(kit, "sha256",
				       hostinfo_kit_sha256(in->kit_dir, hex) == 0
					       ? json_object_new_string(hex)
					       : NULL);
	}
	json_object_object_add(o, "kit", kit);
	json_object_object_add(o, "plan", plan_json(in->plan));
	time_t now = time(NULL);
	struct tm tm;
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	json_object_object_add(o, "started", json_object_new_string(started));
	*ret = TAKE_PTR(o);
	return 0;
}

int hostinfo_write(const char *dir, json_object *info)
{
	return atomicfile_write(dir, "host.json", jsonget_write_pretty, info);
}

int hostinfo_record_sweep(void *inputs, const char *dir, bool kvm, const char *qemu_version,
			  const char *libvirt_version)
{
	struct hostinfo_inputs in = *(const struct hostinfo_inputs *)inputs;
	json_object *info = NULL;

	in.kvm = kvm;
	in.qemu_version = qemu_version;
	in.libvirt_version = libvirt_version;
	int r = hostinfo_collect(&in, &info);
	if (r == 0)
		r = hostinfo_write(dir, info);
	json_object_put(info);
	return r;
}
