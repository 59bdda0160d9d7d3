#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cleanup.h"
#include "parse.h"
#include "profile.h"

#define F(field) offsetof(struct profile, field), sizeof(((struct profile *)0)->field)
#define K 1024ULL
#define M (1024ULL * K)
#define G (1024ULL * M)
#define T (1024ULL * G)

const char *const profile_sections[] = {
	"appliance", "host", "storage", "guest", "workload", "sweep", "report",
};
const size_t n_profile_sections =
	sizeof(profile_sections) / sizeof(profile_sections[0]);

/* clang-format off */
const struct key_def profile_keys[] = {
	{"appliance", "name", KEY_STRING, "", 0, 0, NULL, F(appliance.name),
	 "Kit name: output file names and the report title. Default: the profile's file name without .ini. Letters, digits, '-', '_', '.'."},
	{"appliance", "format", KEY_ENUM, "raw", 0, 0, &image_format_names, F(appliance.format),
	 "Image file format."},
	{"appliance", "size", KEY_SIZE, "2G", 256 * M, 64 * T, NULL, F(appliance.size),
	 "Size of the appliance image (boot partition + RESULTS)."},
	{"appliance", "console", KEY_STRING, "ttyS0,115200", 0, 0, NULL, F(appliance.console),
	 "Kernel console= of the appliance."},
	{"appliance", "kernel", KEY_STRING, "auto", 0, 0, NULL, F(appliance.kernel),
	 "Kernel for the appliance and the guests: 'auto' (the build host's newest /boot/vmlinuz-*) or a path."},
	{"appliance", "after", KEY_ENUM, "poweroff", 0, 0, &after_action_names, F(appliance.after),
	 "What the appliance does when the sweep is over."},
	{"appliance", "upload", KEY_STRING, "", 0, 0, NULL, F(appliance.upload),
	 "WebDAV collection (http:// or https:// URL, no credentials) the appliance sends its finished bundle to; buildapp.upload= on the kernel command line overrides it (and may carry user:password@). Empty: no upload."},
	{"appliance", "include", KEY_STRING, "", 0, 0, NULL, 0, 0,
	 "A base profile, relative to this file; this file's keys override it. At most 8 deep, no cycles."},

	{"host", "disk", KEY_STRING, "auto", 0, 0, NULL, F(host.disk),
	 "Disk under test: 'auto' (the only disk that is neither the boot disk nor RESULTS), a /dev/disk/by-id name, a serial or a WWN."},
	{"host", "wipe", KEY_BOOL, "no", 0, 0, NULL, F(host.wipe),
	 "Allow writing over a disk that carries a partition table, filesystem, LVM or RAID signature (needs a stable identity in disk)."},
	{"host", "write_cache", KEY_ENUM, "keep", 0, 0, &write_cache_setting_names, F(host.write_cache),
	 "Physical write cache of the disk under test (hdparm -W, sdparm WCE, NVMe feature 6), restored at the end."},
	{"host", "page_cache", KEY_ENUM, "drop", 0, 0, &page_cache_setting_names, F(host.page_cache),
	 "drop: sync and drop the host page cache before each run."},
	{"host", "dirty_ratio", KEY_KEEP_UINT, "keep", 1, 100, NULL, F(host.dirty_ratio),
	 "vm.dirty_ratio during the sweep (percent) or keep."},
	{"host", "dirty_background_ratio", KEY_KEEP_UINT, "keep", 0, 100, NULL, F(host.dirty_background_ratio),
	 "vm.dirty_background_ratio during the sweep (percent) or keep; below dirty_ratio."},
	{"host", "scheduler", KEY_ENUM, "keep", 0, 0, &io_scheduler_names, F(host.scheduler),
	 "I/O scheduler of the disk under test."},
	{"host", "read_ahead_kb", KEY_KEEP_UINT, "keep", 0, 65536, NULL, F(host.read_ahead_kb),
	 "Read-ahead of the disk under test in KiB, or keep."},
	{"host", "strict", KEY_BOOL, "yes", 0, 0, NULL, F(host.strict),
	 "A host setting the device refuses is an error (yes) or a recorded warning (no)."},

	{"storage", "backends", KEY_LIST, "lvm", 0, 0, &backend_names, F(storage.backends),
	 "Backends holding the guest disk (axis)."},
	{"storage", "size", KEY_SIZE, "4G", 16 * M, 16 * T, NULL, F(storage.size),
	 "Size of each guest disk."},
	{"storage", "qcow2_preallocation", KEY_LIST, "off", 0, 0, &qcow2_prealloc_names, F(storage.qcow2_prealloc),
	 "Preallocation of the qcow2 backend (axis)."},
	{"storage", "raw_preallocation", KEY_LIST, "sparse", 0, 0, &raw_prealloc_names, F(storage.raw_prealloc),
	 "Preallocation of the raw backend (axis)."},
	{"storage", "cluster_size", KEY_SIZE, "64K", 512, 2 * M, NULL, F(storage.cluster_size),
	 "qcow2 cluster size, a power of two."},
	{"storage", "fill", KEY_BOOL, "no", 0, 0, NULL, F(storage.fill),
	 "Write each volume whole once after provisioning, so reads never hit unallocated space."},

	{"guest", "memory", KEY_SIZE, "512M", 64 * M, 64 * G, NULL, F(guest.memory),
	 "Guest memory."},
	{"guest", "vcpus", KEY_UINT, "1", 1, 64, NULL, F(guest.vcpus),
	 "Guest virtual CPUs."},
	{"guest", "bus", KEY_LIST, "virtio", 0, 0, &disk_bus_names, F(guest.bus),
	 "Bus of the disk under test in the guest (axis)."},
	{"guest", "cache", KEY_LIST, "none", 0, 0, &cache_mode_names, F(guest.cache),
	 "QEMU cache mode (axis); see the cache-mode table."},
	{"guest", "aio", KEY_LIST, "threads", 0, 0, &aio_mode_names, F(guest.aio),
	 "QEMU aio mode (axis); native needs cache none or directsync."},
	{"guest", "l2_cache", KEY_SIZE_LIST, "default", 4 * K, 4 * G, NULL, F(guest.l2_cache),
	 "qcow2 L2 cache sizes (axis); default keeps QEMU's own. Applied to qcow2 guests and qemu-img bench alike as QEMU's cache-size = this + 4 clusters of refcount cache (so the L2 cache is exactly this); cells of other formats have none."},
	{"guest", "timeout", KEY_UINT, "600", 10, 86400, NULL, F(guest.timeout),
	 "Seconds a run may take before its guest is destroyed and the run recorded as failed."},
	{"guest", "accel", KEY_ENUM, "auto", 0, 0, &vm_accel_names, F(guest.accel),
	 "Accelerator of the guests: auto (KVM when /dev/kvm boots a guest, else TCG), kvm or tcg. tcg skips the boot check where KVM is known not to work (nested TCG)."},

	{"workload", "kinds", KEY_LIST, "fio", 0, 0, &workload_kind_names, F(workload.kinds),
	 "Workloads (axis)."},
	{"workload", "tarball", KEY_STRING, "auto", 0, 0, NULL, F(workload.tarball),
	 "Tarball for tarball-write/-read: auto (linux-source when installed, else generated), generated, or a path."},
	{"workload", "tarball_size", KEY_SIZE, "64M", 1 * M, 16 * G, NULL, F(workload.tarball_size),
	 "Size of a generated tarball."},
	{"workload", "fio_rw", KEY_ENUM, "randwrite", 0, 0, &fio_rw_names, F(workload.fio_rw),
	 "fio rw="},
	{"workload", "fio_bs", KEY_SIZE, "4K", 512, 16 * M, NULL, F(workload.fio_bs),
	 "fio bs="},
	{"workload", "fio_iodepth", KEY_UINT, "1", 1, 1024, NULL, F(workload.fio_iodepth),
	 "fio iodepth="},
	{"workload", "fio_size", KEY_SIZE, "64M", 1 * M, 1 * T, NULL, F(workload.fio_size),
	 "fio size="},
	{"workload", "fio_direct", KEY_BOOL, "yes", 0, 0, NULL, F(workload.fio_direct),
	 "fio direct="},
	{"workload", "fio_fsync", KEY_UINT, "0", 0, 1000000, NULL, F(workload.fio_fsync),
	 "fio fsync= (fsync every N writes; 0 never)."},
	{"workload", "fio_runtime", KEY_UINT, "0", 0, 86400, NULL, F(workload.fio_runtime),
	 "fio runtime= in seconds; 0 runs until fio_size is done."},
	{"workload", "bonnie_size", KEY_SIZE, "256M", 1 * M, 1 * T, NULL, F(workload.bonnie_size),
	 "bonnie++ file size (-s)."},
	{"workload", "dd_bs", KEY_SIZE, "4K", 512, 16 * M, NULL, F(workload.dd_bs),
	 "dd block size."},
	{"workload", "dd_count", KEY_UINT, "4096", 1, 1000000000, NULL, F(workload.dd_count),
	 "dd block count."},
	{"workload", "bench_count", KEY_UINT, "100000", 1, 1000000000, NULL, F(workload.bench_count),
	 "qemu-img bench requests (-c)."},
	{"workload", "bench_step", KEY_SIZE, "512M", 512, 1 * T, NULL, F(workload.bench_step),
	 "qemu-img bench step between requests (-S)."},
	{"workload", "host_baseline", KEY_BOOL, "no", 0, 0, NULL, F(workload.host_baseline),
	 "Add, per backend and bonnie/dd/fio workload, a cell that runs the same command on the host itself (no guest) on the guest's filesystem: the LV, or the raw/ext4-file image through a loop device (qcow2 has no host cell)."},

	{"sweep", "runs", KEY_UINT, "5", 1, 1000, NULL, F(sweep.runs),
	 "Runs per cell."},
	{"sweep", "order", KEY_ENUM, "interleaved", 0, 0, &sweep_order_names, F(sweep.order),
	 "interleaved: runs of all cells shuffled together (seeded); blocked: each cell's runs together."},
	{"sweep", "seed", KEY_UINT, "1", 0, UINT64_MAX, NULL, F(sweep.seed),
	 "Seed of the interleaved order; the plan records it."},
	{"sweep", "target_ci", KEY_PERCENT, "0", 0, 100, NULL, F(sweep.target_ci),
	 "Stop adding runs to a cell once its 95% CI half-width is below this percent of the mean; 0 off."},
	{"sweep", "max_runs", KEY_UINT, "0", 0, 1000, NULL, F(sweep.max_runs),
	 "With target_ci: most runs per cell (at least runs); 0 means runs."},

	{"report", "baseline", KEY_STRING, "", 0, 0, NULL, F(report.baseline),
	 "Reference level of the report's comparisons, as axis:level (e.g. cache:writethrough): a level the sweep runs. Default: each axis's first listed level."},
	{"report", "reference", KEY_ENUM, "none", 0, 0, &report_reference_names, F(report.reference),
	 "The published study this profile reproduces: the report prints its table beside the measured one."},
};
/* clang-format on */
const size_t n_profile_keys = sizeof(profile_keys) / sizeof(profile_keys[0]);

const struct key_def *keys_find(const char *section, const char *name)
{
	for (size_t i = 0; i < n_profile_keys; i++)
		if (strcasecmp(profile_keys[i].section, section) == 0 &&
		    strcasecmp(profile_keys[i].name, name) == 0)
			return &profile_keys[i];
	return NULL;
}

/* Levenshtein distance, capped: words longer than 64 are never typos. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *keys_nearest(const char *word, const char *const *candidates,
			 size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	size_t limit = strlen(word) / 3 + 1;

	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

const char *keys_nearest_key(const char *section, const char *word)
{
	const char *names[64];
	size_t n = 0;

	for (size_t i = 0; i < n_profile_keys && n < 64; i++)
		if (strcmp(profile_keys[i].section, section) == 0)
			names[n++] = profile_keys[i].name;
	return keys_nearest(word, names, n);
}

const char *keys_nearest_section(const char *word)
{
	return keys_nearest(word, profile_sections, n_profile_sections);
}

static const char *type_text(const struct key_def *k, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	switch (k->type) {
	case KEY_STRING:
		return "text";
	case KEY_BOOL:
		return "yes/no";
	case KEY_UINT:
		snprintf(buf, len, "integer %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_KEEP_UINT:
		snprintf(buf, len, "keep or %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_PERCENT:
		snprintf(buf, len, "number %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_SIZE:
		snprintf(buf, len, "size %s..%s", format_size(k->min, lo, sizeof(lo)),
			 format_size(k->max, hi, sizeof(hi)));
		return buf;
	case KEY_ENUM:
	case KEY_LIST:
		buf[0] = '\0';
		for (int i = 0; i < k->names->count && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "\\|" : "", k->names->names[i]);
		if (k->type == KEY_LIST && used < len)
			snprintf(buf + used, len - used, " (list)");
		return buf;
	case KEY_SIZE_LIST:
		snprintf(buf, len, "default or size %s..%s (list)",
			 format_size(k->min, lo, sizeof(lo)),
			 format_size(k->max, hi, sizeof(hi)));
		return buf;
	}
	return "?";
}

void keys_write_markdown(FILE *f)
{
	char buf[256];

	fprintf(f, "| section | key | type and range | default | meaning |\n"
		   "|---|---|---|---|---|\n");
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		fprintf(f, "| [%s] | %s | %s | %s | %s |\n", k->section, k->name,
			type_text(k, buf, sizeof(buf)),
			k->default_value[0] ? k->default_value : "(none)", k->doc);
	}
}

/* Fills REASON and evaluates to -EINVAL. */
#define REASON(...) (snprintf(reason, reason_len, __VA_ARGS__), -EINVAL)

static const char *list_names(const struct name_table *t, char *buf,
			      size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", t->names[i]);
	return buf;
}

static int name_reason(const struct key_def *k, const char *item, char *reason,
		       size_t reason_len)
{
	char all[256];
	const char *hint = keys_nearest(item, k->names->names,
					(size_t)k->names->count);

	list_names(k->names, all, sizeof(all));
	if (hint)
		return REASON(
			   "unknown value '%.64s' (did you mean '%s'?); one of: %s",
			   item, hint, all);
	return REASON(
		   "unknown value '%.64s'; one of: %s", item, all);
}

static void store_uint(void *field, size_t size, uint64_t v)
{
	if (size == sizeof(uint64_t))
		*(uint64_t *)field = v;
	else
		*(unsigned *)field = (unsigned)v;
}

static int range_reason(const struct key_def *k, const char *value,
			char *reason, size_t reason_len)
{
	char lo[32], hi[32];

	if (k->type == KEY_SIZE || k->type == KEY_SIZE_LIST)
		return REASON(
			   "'%.64s' is out of range %s..%s", value,
			   format_size(k->min, lo, sizeof(lo)),
			   format_size(k->max, hi, sizeof(hi)));
	return REASON(
		   "'%.64s' is out of range %llu..%llu", value,
		   (unsigned long long)k->min, (unsigned long long)k->max);
}

/* "default, 1M, 8M": each item once, at most L2_CACHE_MAX_VALUES. */
static int set_size_list(const struct key_def *k, const char *value,
			 struct l2_cache_axis *field, char *reason,
			 size_t reason_len)
{
	_cleanup_free_ char *copy = strdup(value);
	struct l2_cache_axis axis = {.n = 0};
	char *rest = copy, *item;
	uint64_t u;
	int r;

	if (!copy)
		return -ENOMEM;
	while ((item = strsep(&rest, ","))) {
		item = parse_strip(item);
		if (!*item)
			return REASON("empty item in list");
		if (strcmp(item, "default") == 0) {
			u = 0;
		} else {
			r = parse_size(item, &u);
			if (r == -EINVAL)
				return REASON("'%.64s' is neither 'default' nor a "
					      "size (e.g. 1M, 8M)", item);
			if (r < 0 || u < k->min || u > k->max)
				return range_reason(k, item, reason, reason_len);
		}
		for (unsigned i = 0; i < axis.n; i++)
			if (axis.bytes[i] == u)
				return REASON("'%s' listed twice", item);
		if (axis.n == L2_CACHE_MAX_VALUES)
			return REASON("more than %d sizes", L2_CACHE_MAX_VALUES);
		axis.bytes[axis.n++] = u;
	}
	*field = axis;
	return 0;
}

int keys_set(struct profile *profile, const struct key_def *k,
	     const char *value, char *reason, size_t reason_len)
{
	void *field = (char *)profile + k->offset;
	uint64_t u;
	bool b;
	int r, idx;

	switch (k->type) {
	case KEY_STRING:
		if (k->size == 0) /* include: handled by the caller */
			return 0;
		if (strlen(value) >= k->size)
			return REASON(
				   "longer than %zu characters", k->size - 1);
		snprintf(field, k->size, "%s", value);
		return 0;
	case KEY_BOOL:
		if (parse_bool(value, &b) < 0)
			return REASON(
				   "'%.64s' is not a boolean (yes/no, on/off, "
				   "true/false)", value);
		*(bool *)field = b;
		return 0;
	case KEY_KEEP_UINT:
		if (strcmp(value, "keep") == 0) {
			u = UINT64_MAX;
		} else {
			r = parse_uint64(value, &u);
			if (r == -EINVAL)
				return REASON(
					   "'%.64s' is neither 'keep' nor a "
					   "whole number", value);
			if (r < 0 || u < k->min || u > k->max)
				return range_reason(k, value, reason, reason_len);
		}
		if (k->size == sizeof(int64_t))
			*(int64_t *)field = u == UINT64_MAX ? -1 : (int64_t)u;
		else
			*(int *)field = u == UINT64_MAX ? -1 : (int)u;
		return 0;
	case KEY_UINT:
	case KEY_SIZE:
		r = k->type == KEY_SIZE ? parse_size(value, &u)
					: parse_uint64(value, &u);
		if (r == -EINVAL)
			return REASON(
				   k->type == KEY_SIZE
					   ? "'%.64s' is not a size (e.g. 512M, 4G)"
					   : "'%.64s' is not a whole number",
				   value);
		if (r < 0 || u < k->min || u > k->max)
			return range_reason(k, value, reason, reason_len);
		store_uint(field, k->size, u);
		return 0;
	case KEY_PERCENT: {
		char *end;
		errno = 0;
		double d = strtod(value, &end);
		if (errno || *end || end == value || !isdigit((unsigned char)*value))
			return REASON(
				   "'%.64s' is not a number", value);
		if (d < (double)k->min || d > (double)k->max)
			return range_reason(k, value, reason, reason_len);
		*(double *)field = d;
		return 0;
	}
	case KEY_ENUM:
		idx = name_table_lookup(k->names, value);
		if (idx < 0)
			return name_reason(k, value, reason, reason_len);
		*(int *)field = idx;
		return 0;
	case KEY_LIST: {
		_cleanup_free_ char *copy = strdup(value);
		axis_mask mask = 0;
		char *rest = copy, *item;

		if (!copy)
			return -ENOMEM;
		while ((item = strsep(&rest, ","))) {
			item = parse_strip(item);
			if (!*item)
				return REASON(
					   "empty item in list");
			idx = name_table_lookup(k->names, item);
			if (idx < 0)
				return name_reason(k, item, reason, reason_len);
			if (mask & AXIS_BIT(idx))
				return REASON(
					   "'%s' listed twice", item);
			mask |= AXIS_BIT(idx);
		}
		if (!mask)
			return REASON( "empty list");
		*(axis_mask *)field = mask;
		return 0;
	}
	case KEY_SIZE_LIST:
		return set_size_list(k, value, field, reason, reason_len);
	}
	return -EINVAL;
}

int keys_set_defaults(struct profile *profile)
{
	char reason[256];

	for (size_t i = 0; i < n_profile_keys; i++) {
		int r = keys_set(profile, &profile_keys[i],
				 profile_keys[i].default_value, reason,
				 sizeof(reason));
		if (r < 0)
			return r;
	}
	return 0;
}

const char *keys_format(const struct profile *profile, const struct key_def *k,
			char *buf, size_t len)
{
	const void *field = (const char *)profile + k->offset;
	size_t used = 0;
	uint64_t u;
	int64_t v;

	buf[0] = '\0';
	switch (k->type) {
	case KEY_STRING:
		if (k->size)
			snprintf(buf, len, "%s", (const char *)field);
		break;
	case KEY_BOOL:
		snprintf(buf, len, "%s", *(const bool *)field ? "yes" : "no");
		break;
	case KEY_UINT:
	case KEY_SIZE:
		u = k->size == sizeof(uint64_t) ? *(const uint64_t *)field
						: *(const unsigned *)field;
		if (k->type == KEY_SIZE)
			format_size(u, buf, len);
		else
			snprintf(buf, len, "%llu", (unsigned long long)u);
		break;
	case KEY_KEEP_UINT:
		v = k->size == sizeof(int64_t) ? *(const int64_t *)field
					       : *(const int *)field;
		if (v < 0)
			snprintf(buf, len, "keep");
		else
			snprintf(buf, len, "%lld", (long long)v);
		break;
	case KEY_PERCENT:
		snprintf(buf, len, "%g", *(const double *)field);
		break;
	case KEY_ENUM:
		snprintf(buf, len, "%s", k->names->names[*(const int *)field]);
		break;
	case KEY_LIST:
		for (int i = 0; i < k->names->count && used < len; i++)
			if (*(const axis_mask *)field & AXIS_BIT(i))
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? "," : "",
							 k->names->names[i]);
		break;
	case KEY_SIZE_LIST: {
		const struct l2_cache_axis *a = field;
		char one[32];
		for (unsigned i = 0; i < a->n && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "," : "",
						 a->bytes[i] ? format_size(a->bytes[i], one, sizeof(one))
							     : "default");
		break;
	}
	}
	return buf;
}
