/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "volrecord.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "jsonget.h"
#include "log.h"
#include "sha256.h"

#define RECORD_LAYOUT 1

struct recorded {
	char path[STORAGE_PATH_MAX];
	char name[STORAGE_PATH_MAX]; /* the path in the directory */
	char label[64];              /* "raw/full", "qcow2/metadata" */
	enum image_format format;
	uint64_t size, cluster_size;
	bool fill;
	bool block_device;            /* an LV, named by its path */
	bool pristine;
};

static struct {
	bool open;
	char dir[STORAGE_PATH_MAX];
	char image[STORAGE_PATH_MAX];
	char fingerprint[SHA256_HEX_LEN];
	size_t n;
	struct recorded v[RECIPE_MAX_VOLUMES];
} record;

bool volrecord_wanted(const struct recipe *rec, const char *pristine)
{
	return pristine && rec->spec.fill &&
	       (rec->target.kind == STORAGE_TARGET_DIRECTORY || rec->files_size > 0);
}

#define CHUNK (64 * 1024)

/* The SHA-256 of the image at PATH from its content alone: its size, then
 * the offset and bytes of each 64 KiB chunk that is not all zeroes.  Only
 * the data extents (SEEK_DATA, SEEK_HOLE) are read, so a sparse 32G image
 * costs what it holds, and how the host laid it out does not matter. */
static int fingerprint(const char *path, char hex[SHA256_HEX_LEN])
{
	static const unsigned char zeros[CHUNK];
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_(sha256_freep) struct sha256 *s = sha256_new();
	unsigned char buf[CHUNK], md[SHA256_LEN];
	off_t end, data = 0, next = 0;
	uint64_t word;

	if (!s)
		return -ENOMEM;
	if (fd < 0 || (end = lseek(fd, 0, SEEK_END)) < 0)
		return log_error_errno(-errno, "pristine image '%s'", path);
	word = (uint64_t)end;
	sha256_update(s, &word, sizeof(word));
	while ((data = lseek(fd, data, SEEK_DATA)) >= 0 && data < end) {
		off_t hole = lseek(fd, data, SEEK_HOLE);
		off_t off = data - data % CHUNK;

		if (hole < 0)
			return log_error_errno(-errno, "pristine image '%s'", path);
		for (off = off > next ? off : next; off < hole; off += CHUNK) {
			size_t n = (size_t)(end - off) < CHUNK ? (size_t)(end - off) : CHUNK;
			ssize_t got = pread(fd, buf, n, off);

			if (got != (ssize_t)n)
				return log_error_errno(got < 0 ? -errno : -EIO,
						       "reading '%s'", path);
			if (memcmp(buf, zeros, n) == 0)
				continue;
			word = (uint64_t)off;
			sha256_update(s, &word, sizeof(word));
			sha256_update(s, buf, n);
		}
		next = off;
		data = hole;
	}
	if (data < 0 && errno != ENXIO)
		return log_error_errno(-errno, "pristine image '%s'", path);
	if (sha256_final(s, md) < 0)
		return log_error_code(-EIO, "sha256 of '%s'", path);
	sha256_hex(md, hex);
	return 0;
}

/* REC's volumes into the record's memory, all not pristine. */
static int describe(const struct recipe *rec, const char *pristine)
{
	const char *dir = rec->target.mountpoint;
	size_t dl = strlen(dir);
	int r;

	memset(&record, 0, sizeof(record));
	snprintf(record.dir, sizeof(record.dir), "%s", dir);
	snprintf(record.image, sizeof(record.image), "%s", pristine);
	r = fingerprint(pristine, record.fingerprint);
	if (r < 0)
		return r;
	record.n = rec->n_volumes;
	for (size_t i = 0; i < rec->n_volumes; i++) {
		const struct storage_volume *v = &rec->volumes[i];
		struct recorded *d = &record.v[i];

		snprintf(d->path, sizeof(d->path), "%s", v->path);
		if (v->block_device)
			snprintf(d->name, sizeof(d->name), "%s", v->path);
		else if (strncmp(v->path, dir, dl) == 0 && v->path[dl] == '/')
			snprintf(d->name, sizeof(d->name), "%s", v->path + dl + 1);
		else
			return log_error_code(-EINVAL, "volume '%s' is not in '%s'",
					      v->path, dir);
		d->block_device = v->block_device;
		storage_volume_label(v, d->label, sizeof(d->label));
		d->format = v->format;
		d->size = v->size;
		d->cluster_size = v->cluster_size;
		d->fill = v->fill;
	}
	return 0;
}

static json_object *to_json(void)
{
	json_object *o = json_object_new_object(), *vols = json_object_new_array();
	json_object *img = json_object_new_object();

	json_object_object_add(o, "layout", json_object_new_int(RECORD_LAYOUT));
	json_object_object_add(img, "path", json_object_new_string(record.image));
	json_object_object_add(img, "fingerprint",
			       json_object_new_string(record.fingerprint));
	json_object_object_add(o, "pristine_image", img);
	for (size_t i = 0; i < record.n; i++) {
		const struct recorded *d = &record.v[i];
		json_object *v = json_object_new_object();

		json_object_object_add(v, "name", json_object_new_string(d->name));
		json_object_object_add(v, "volume", json_object_new_string(d->label));
		json_object_object_add(v, "format",
				       json_object_new_string(image_format_name(d->format)));
		json_object_object_add(v, "size", json_object_new_int64((int64_t)d->size));
		json_object_object_add(v, "cluster_size",
				       json_object_new_int64((int64_t)d->cluster_size));
		json_object_object_add(v, "filled", json_object_new_boolean(d->fill));
		json_object_object_add(v, "pristine", json_object_new_boolean(d->pristine));
		json_object_array_add(vols, v);
	}
	json_object_object_add(o, "volumes", vols);
	return o;
}

static int save(void)
{
	_cleanup_(json_object_putp) json_object *o = to_json();

	return atomicfile_write(record.dir, STORAGE_VOLUMES_RECORD, jsonget_write_pretty, o);
}

static int64_t member_int(json_object *o, const char *key)
{
	json_object *m;

	return json_object_object_get_ex(o, key, &m) && json_object_is_type(m, json_type_int)
		       ? json_object_get_int64(m)
		       : -1;
}

/* Why the record O is not the one of the volumes described, or NULL;
 * the pristine marks into the description when it is. */
static const char *mismatch(json_object *o)
{
	json_object *img, *vols;
	const char *fp;

	if (member_int(o, "layout") != RECORD_LAYOUT)
		return "another layout of the record";
	if (!json_object_object_get_ex(o, "pristine_image", &img) ||
	    !(fp = jsonget_string(img, "fingerprint")))
		return "no pristine image named";
	if (strcmp(fp, record.fingerprint) != 0)
		return "made for another pristine image";
	if (!json_object_object_get_ex(o, "volumes", &vols) ||
	    !json_object_is_type(vols, json_type_array) ||
	    json_object_array_length(vols) != record.n)
		return "another set of volumes";
	for (size_t i = 0; i < record.n; i++) {
		json_object *v = json_object_array_get_idx(vols, i);
		struct recorded *d = &record.v[i];
		const char *name = jsonget_string(v, "name");
		const char *label = jsonget_string(v, "volume");
		const char *format = jsonget_string(v, "format");
		bool filled, pristine;
		struct stat st;

		if (!name || strcmp(name, d->name) != 0 || !label ||
		    strcmp(label, d->label) != 0 || !format ||
		    strcmp(format, image_format_name(d->format)) != 0 ||
		    member_int(v, "size") != (int64_t)d->size ||
		    member_int(v, "cluster_size") != (int64_t)d->cluster_size ||
		    !jsonget_bool(v, "filled", &filled) || filled != d->fill ||
		    !jsonget_bool(v, "pristine", &pristine))
			return "another set of volumes";
		if (stat(d->path, &st) < 0 ||
		    !(d->block_device ? S_ISBLK(st.st_mode) : S_ISREG(st.st_mode)))
			return "a volume is missing";
		d->pristine = pristine;
	}
	return NULL;
}

int volrecord_open(const struct recipe *rec, const char *pristine, bool ret_pristine[])
{
	char path[RECIPE_RECORD_PATH_MAX];
	_cleanup_(json_object_putp) json_object *o = NULL;
	const char *why;
	int r;

	volrecord_close();
	recipe_record_path(rec->target.mountpoint, path);
	if (access(path, F_OK) < 0)
		return errno == ENOENT ? 0 : log_error_errno(-errno, "'%s'", path);
	r = describe(rec, pristine);
	if (r < 0)
		return r;
	o = json_object_from_file(path);
	why = o ? mismatch(o) : "not JSON";
	if (why) {
		log_info("'%s' does not hold these volumes (%s): making them again",
			 path, why);
		if (unlink(path) < 0)
			return log_error_errno(-errno, "removing '%s'", path);
		return 0;
	}
	for (size_t i = 0; i < record.n; i++)
		ret_pristine[i] = record.v[i].pristine;
	record.open = true;
	return 1;
}

int volrecord_create(const struct recipe *rec, const char *pristine,
		     const bool pristine_now[])
{
	int r;

	volrecord_close();
	r = describe(rec, pristine);
	if (r < 0)
		return r;
	for (size_t i = 0; i < record.n; i++)
		record.v[i].pristine = pristine_now[i];
	r = save();
	record.open = r >= 0;
	return r;
}

int volrecord_mark(const struct storage_volume *v, bool pristine)
{
	for (size_t i = 0; record.open && i < record.n; i++) {
		struct recorded *d = &record.v[i];

		if (strcmp(d->path, v->path) != 0)
			continue;
		if (d->pristine == pristine)
			return 0;
		d->pristine = pristine;
		if (save() >= 0)
			return 0;
		/* No record is as safe as a true one: the next sweep makes
		 * the volumes again. */
		d->pristine = !pristine;
		char path[RECIPE_RECORD_PATH_MAX];
		if (unlink(recipe_record_path(record.dir, path)) < 0)
			return log_error_errno(-errno, "cannot remove '%s'", path);
		record.open = false;
		return 0;
	}
	return 0;
}

void volrecord_close(void)
{
	record.open = false;
}
