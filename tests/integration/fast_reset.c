/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driver of tests/integration/fast-reset.sh: the steps of a run and of
 * its two resets, one per invocation, so the script can hash the volume
 * between them.
 *
 *   fast-reset make VOLUME FORMAT SIZE        a filled volume, as provisioned
 *   fast-reset full VOLUME FORMAT PRISTINE    storage_reset()
 *   fast-reset run VOLUME FORMAT KERNEL INITRD CMDLINE LOG STATEDIR WRITTEN
 *                                             a tracked guest run; its writes to WRITTEN
 *   fast-reset fast VOLUME FORMAT PRISTINE WRITTEN [SKIP]
 *                                             written_reset() of WRITTEN's ranges,
 *                                             leaving out the SKIP-th (a reset that
 *                                             misses a range, which the test must see)
 *   fast-reset checked VOLUME FORMAT PRISTINE WRITTEN [SKIP]
 *                                             the runner's checked fast reset of WRITTEN's
 *                                             ranges ([sweep] verify_reset: volreset_run()
 *                                             with a check), printed as its journal line */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "log.h"
#include "names.h"
#include "storage.h"
#include "vm.h"
#include "volreset.h"
#include "written.h"

static int volume(const char *path, const char *format, struct storage_volume *v)
{
	int f = name_table_lookup(&image_format_names, format);

	if (f < 0 || strlen(path) >= sizeof v->path)
		return -EINVAL;
	*v = (struct storage_volume){.backend = f == IMAGE_FORMAT_QCOW2 ? BACKEND_QCOW2 : BACKEND_RAW,
				     .format = (enum image_format)f,
				     .prealloc = 0,
				     .cluster_size = f == IMAGE_FORMAT_QCOW2 ? 65536 : 0,
				     .fill = true};
	snprintf(v->path, sizeof v->path, "%s", path);
	return 0;
}

static int save(const char *path, const struct written *w)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	for (size_t i = 0; i < w->n; i++)
		fprintf(f, "%" PRIu64 " %" PRIu64 "\n", w->v[i].offset, w->v[i].length);
	return fclose(f) == 0 ? 0 : -EIO;
}

static int load(const char *path, long skip, struct written *w)
{
	FILE *f = fopen(path, "re");
	uint64_t off, len;
	long i = 0;

	if (!f)
		return -errno;
	while (fscanf(f, "%" SCNu64 " %" SCNu64, &off, &len) == 2)
		if (i++ != skip && written_add(w, off, len) < 0)
			break;
	fclose(f);
	return 0;
}

static int run(struct storage_volume *v, char **a)
{
	struct vm_spec spec = {
		.name = "buildapp-fast-reset",
		.kernel = a[0], .initrd = a[1], .cmdline = a[2],
		.memory = 256ull << 20, .vcpus = 1,
		.disk = v->path, .format = v->format,
		.cache = CACHE_UNSAFE, .aio = AIO_THREADS, .bus = BUS_VIRTIO,
		.console_log = a[3], .timeout = 600, .track_writes = true,
	};
	struct vm_host *h;
	struct vm_result res;
	int r;

	if (vm_host_open(NULL, a[4], VM_ACCEL_AUTO, &h) < 0)
		return 1;
	r = vm_run(h, &spec, &res);
	vm_host_close(h);
	if (r < 0)
		return 1;
	printf("status=%s seconds=%.1f written_known=%d ranges=%zu bytes=%" PRIu64
	       " read_seconds=%.3f\n",
	       vm_status_name(res.status), res.seconds, res.written_known,
	       res.written.n, res.written.bytes, res.written_seconds);
	r = res.status == VM_OK && res.written_known ? save(a[5], &res.written) : -EIO;
	vm_result_release(&res);
	return r < 0 ? 1 : 0;
}

/* What the runner does with a run's writes when verify_reset is on:
 * volreset_note() after the run, volreset_run() with a check before the
 * next one; the check as the journal writes it. */
static int checked(struct storage_volume *v, const char *pristine,
		   const char *written, long skip)
{
	struct vm_result res;
	struct journal_run jr;
	const char *kind = "";
	double secs = 0;
	char *line = NULL;
	int r;

	memset(&res, 0, sizeof res);
	r = load(written, skip, &res.written);
	if (r < 0)
		return r;
	res.written_known = true;
	volreset_note(v, &res);
	vm_result_release(&res);
	journal_run_init(&jr);
	jr.cell.backend = v->backend;
	jr.cell.format = v->format;
	jr.cell.cache = CACHE_UNSAFE;
	jr.cell.workload = WORKLOAD_FIO;
	snprintf(jr.cell.id, sizeof jr.cell.id, "%s/%s/-/unsafe/threads/virtio/fio",
		 image_format_name(v->format), image_format_name(v->format));
	snprintf(jr.status, sizeof jr.status, "ok");
	r = volreset_run(v, pristine, &secs, &kind, &jr.reset_check);
	snprintf(jr.reset, sizeof jr.reset, "%s", kind);
	if (r >= 0)
		r = journal_run_to_json(&jr, &line);
	if (r >= 0)
		printf("%s\n", line);
	free(line);
	journal_run_release(&jr);
	return r;
}

int main(int argc, char **argv)
{
	struct storage_volume v;
	struct written w = {NULL, 0, 0, 0};
	double secs = 0;
	int r;

	log_set_program("fast-reset");
	if (argc < 5 || volume(argv[2], argv[3], &v) < 0) {
		fprintf(stderr, "usage: see the comment at the top of fast_reset.c\n");
		return 2;
	}
	if (strcmp(argv[1], "make") == 0) {
		v.size = strtoull(argv[4], NULL, 10);
		r = storage_create_file(&v);
		if (r >= 0)
			r = storage_fill(v.path, v.format, v.size, NULL);
	} else if (strcmp(argv[1], "full") == 0) {
		r = storage_reset(&v, argv[4], &secs);
	} else if (strcmp(argv[1], "run") == 0 && argc == 10) {
		return run(&v, argv + 4);
	} else if (strcmp(argv[1], "fast") == 0 && argc >= 6) {
		r = load(argv[5], argc > 6 ? strtol(argv[6], NULL, 10) : -1, &w);
		if (r >= 0)
			r = written_reset(&v, argv[4], &w, &secs);
		written_release(&w);
	} else if (strcmp(argv[1], "checked") == 0 && argc >= 6) {
		return checked(&v, argv[4], argv[5],
			       argc > 6 ? strtol(argv[6], NULL, 10) : -1) < 0 ? 1 : 0;
	} else {
		return 2;
	}
	if (r < 0)
		return 1;
	printf("%s %.3f s\n", argv[1], secs);
	return 0;
}
