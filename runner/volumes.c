#include "volumes.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "log.h"
#include "native.h"
#include "safety.h"
#include "tool.h"
#include "volrecord.h"
#include "watchdog.h"

void volumes_spec_from_profile(const struct profile *profile,
			       struct storage_spec *ret)
{
	const struct profile_storage *s = &profile->storage;

	/* Both are (1 << enum value) sets over the same enums. */
	_Static_assert(AXIS_BIT(BACKEND_RAW) == STORAGE_BIT(BACKEND_RAW),
		       "axis and storage bit sets differ");
	memset(ret, 0, sizeof(*ret));
	ret->backends = s->backends;
	ret->size = s->size;
	ret->qcow2_prealloc = s->qcow2_prealloc;
	ret->raw_prealloc = s->raw_prealloc;
	ret->cluster_size = s->cluster_size;
	ret->fill = s->fill;
}

int volumes_disk_size(const struct profile *profile, uint64_t *ret)
{
	struct storage_target t = {.kind = STORAGE_TARGET_DISK, .device = "/dev/sda",
				   .mountpoint = "/"};
	struct storage_spec spec;
	_cleanup_free_ struct recipe *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	volumes_spec_from_profile(profile, &spec);
	if (storage_spec_check(&spec) || recipe_build(&spec, &t, r) < 0)
		return -EINVAL;
	*ret = r->disk_size;
	return 0;
}

int volumes_check_target(const struct profile *p, const char *path,
			 const char *own_ptuuid)
{
	struct safety_policy policy = {p->host.wipe, p->host.disk, own_ptuuid};
	struct safety_facts facts;
	char reason[SAFETY_REASON_MAX];
	int r;

	r = safety_probe(path, &facts);
	if (r < 0)
		return r;
	if (safety_decide(&facts, &policy, reason, sizeof(reason)) < 0) {
		log_error("refusing to write '%s': %s", path, reason);
		return -EPERM;
	}
	if (facts.n_signatures > 0 && !p->host.wipe && own_ptuuid &&
	    strcmp(own_ptuuid, facts.ptuuid) == 0)
		log_info("'%s' carries the layout this sweep made on it (partition "
			 "table %s, recorded on RESULTS): no wipe needed", path,
			 facts.ptuuid);
	else if (facts.n_signatures > 0 && !p->host.wipe && safety_kit_layout(&facts))
		log_info("'%s' carries a layout a kit made (its GPT's mark, disk GUID %s): "
			 "it is laid out again, no wipe needed", path, facts.ptuuid);
	return 0;
}

#define LAYOUT_NAME "layout"

int volumes_layout_read(const char *results_dir, char *buf, size_t len)
{
	char path[PATH_MAX], line[256];

	snprintf(path, sizeof(path), "%s/" LAYOUT_NAME, results_dir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "ptuuid=", 7) == 0) {
			line[strcspn(line, "\n")] = '\0';
			if (!line[7] || strlen(line + 7) >= len)
				return -EINVAL;
			memcpy(buf, line + 7, strlen(line + 7) + 1);
			return 0;
		}
	return -ENOENT;
}

static int write_layout(const void *ctx, FILE *f)
{
	const struct safety_facts *facts = ctx;

	fprintf(f, "ptuuid=%s\n", facts->ptuuid);
	for (size_t i = 0; i < facts->n_identities; i++)
		fprintf(f, "identity=%s\n", facts->identities[i]);
	return ferror(f) ? -EIO : 0;
}

int volumes_layout_write(const char *results_dir, const char *device)
{
	struct safety_facts facts;
	int r;

	r = safety_probe(device, &facts);
	if (r < 0)
		return r;
	if (!facts.ptuuid[0])
		return log_error_code(-ENODATA, "'%s': no partition table UUID to record",
				      device);
	if (mkdir(results_dir, 0755) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "cannot create '%s'", results_dir);
	return atomicfile_write(results_dir, LAYOUT_NAME, write_layout, &facts);
}

static int disk_target(const struct profile *p, const char *device,
		       const char *mountpoint, const char *own_ptuuid,
		       struct storage_target *ret)
{
	char real[PATH_MAX];
	int r;

	r = volumes_check_target(p, device, own_ptuuid);
	if (r < 0)
		return r;
	/* Partitions are named after the kernel's name (/dev/sda1), not a
	 * by-id link's. */
	if (!realpath(device, real))
		return log_error_errno(-errno, "'%s'", device);
	if (strlen(real) >= sizeof(ret->device) ||
	    strlen(mountpoint) >= sizeof(ret->mountpoint)) {
		log_error("'%s' or '%s': path too long", real, mountpoint);
		return -ENAMETOOLONG;
	}
	ret->kind = STORAGE_TARGET_DISK;
	snprintf(ret->device, sizeof(ret->device), "%s", real);
	snprintf(ret->mountpoint, sizeof(ret->mountpoint), "%s", mountpoint);
	return 0;
}

/* The recipe of PROFILE's backends on TARGET, checked as
 * volumes_provision says, in *RET. */
static int volumes_recipe(const struct profile *profile, const char *target,
			  const char *mountpoint, const char *own_ptuuid,
			  struct recipe *ret)
{
	struct storage_spec spec;
	struct storage_target t;
	struct stat st;
	const char *why;
	int r;

	memset(&t, 0, sizeof(t));
	if (stat(target, &st) < 0)
		return log_error_errno(-errno, "target '%s'", target);
	if (S_ISDIR(st.st_mode)) {
		t.kind = STORAGE_TARGET_DIRECTORY;
		snprintf(t.mountpoint, sizeof(t.mountpoint), "%s", target);
	} else if (S_ISBLK(st.st_mode)) {
		r = disk_target(profile, target, mountpoint, own_ptuuid, &t);
		if (r < 0)
			return r;
	} else {
		log_error("target '%s' is neither a directory nor a block device", target);
		return -EINVAL;
	}
	volumes_spec_from_profile(profile, &spec);
	why = storage_spec_check(&spec);
	if (why) {
		log_error("profile '%s': [storage] %s", profile->path, why);
		return -EINVAL;
	}
	if (recipe_build(&spec, &t, ret) < 0) {
		log_error("profile '%s': [storage] backends: %s", profile->path,
			  t.kind == STORAGE_TARGET_DIRECTORY
				  ? "a directory holds the file backends only "
				    "(ext4-file, qcow2, raw); lvm needs a disk"
				  : "the backends do not fit the target");
		return -EINVAL;
	}
	return 0;
}

/* The volumes an earlier sweep made on TARGET, kept when the record it
 * left says they are RET's, for the image at PRISTINE (volrecord.h): a
 * directory's, or a disk's when its partition table is OWN_PTUUID, the
 * one this sweep's RESULTS record (opened as they are: the filesystem
 * mounted, the volume group activated; let go again when not kept).
 * Returns 1 when kept, 0 when not, or a negative errno (reported). */
static int keep_volumes(const char *target, const char *own_ptuuid,
			const char *pristine, struct recipe *ret, bool ret_pristine[])
{
	bool disk = ret->target.kind == STORAGE_TARGET_DISK;
	struct safety_facts facts;
	int r;

	if (!volrecord_wanted(ret, pristine))
		return 0;
	if (disk && (!own_ptuuid || safety_probe(target, &facts) < 0 ||
		     strcmp(facts.ptuuid, own_ptuuid) != 0))
		return 0;
	if (disk && native_adopt(ret) < 0) {
		log_info("the volumes on %s cannot be opened as they are: making them again",
			 target);
		volumes_release(ret);
		return 0;
	}
	r = volrecord_open(ret, pristine, ret_pristine);
	if (r <= 0 && disk)
		volumes_release(ret);
	return r;
}

int volumes_provision(const struct profile *profile, const char *target,
		      const char *mountpoint, const char *own_ptuuid,
		      const char *pristine, struct recipe *ret, bool ret_pristine[])
{
	int r = volumes_recipe(profile, target, mountpoint, own_ptuuid, ret);
	if (r < 0)
		return r;
	r = keep_volumes(target, own_ptuuid, pristine, ret, ret_pristine);
	if (r < 0)
		return r;
	if (r > 0) {
		size_t n = 0;
		for (size_t i = 0; i < ret->n_volumes; i++)
			n += ret_pristine[i];
		log_info("keeping the %zu volumes an earlier sweep made in %s (%s), "
			 "%zu of %zu with the pristine image", ret->n_volumes, target,
			 STORAGE_VOLUMES_RECORD, n, ret->n_volumes);
		return 0;
	}
	log_info("provisioning %zu volumes on %s", ret->n_volumes, target);
	r = native_execute(ret, pristine);
	if (r < 0)
		return r;
	/* Filled with the pristine image, a filled volume holds it. */
	for (size_t i = 0; i < ret->n_volumes; i++)
		ret_pristine[i] = pristine && ret->volumes[i].fill;
	return volrecord_wanted(ret, pristine)
		       ? volrecord_create(ret, pristine, ret_pristine) : 0;
}

int volumes_adopt(const struct profile *profile, const char *target,
		  const char *mountpoint, const char *own_ptuuid, struct recipe *ret)
{
	int r = volumes_recipe(profile, target, mountpoint, own_ptuuid, ret);
	if (r < 0)
		return r;
	watchdog_step(0, "opening the %zu volumes on %s as they are", ret->n_volumes, target);
	return native_adopt(ret);
}

void volumes_release(const struct recipe *r)
{
	if (r->target.kind != STORAGE_TARGET_DISK)
		return;
	if (r->files_size && umount2(r->target.mountpoint, 0) < 0)
		log_warning("cannot unmount %s: %s", r->target.mountpoint,
			    strerror(errno));
	if (r->lvm_size) {
		char *argv[] = {"vgchange", "-q", "-an", RECIPE_VG, NULL};
		tool_run(argv, NULL, NULL);
	}
}
