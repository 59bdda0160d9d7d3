/* Journal: JSON round trip, append + read back, a torn last line, bad
 * lines, resume lookups. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "log.h"

static struct journal_run sample_run(unsigned index)
{
	struct journal_run run;
	journal_run_init(&run);
	snprintf(run.cell.id, sizeof run.cell.id,
		 "qcow2/qcow2/metadata/unsafe/threads/virtio/fio");
	run.cell.backend = BACKEND_QCOW2;
	run.cell.format = IMAGE_FORMAT_QCOW2;
	run.cell.prealloc = QCOW2_PREALLOC_METADATA;
	run.cell.cache = CACHE_UNSAFE;
	run.cell.aio = AIO_THREADS;
	run.cell.bus = BUS_VIRTIO;
	run.cell.workload = WORKLOAD_FIO;
	run.index = index;
	run.position = 7 + index;
	run.start_time = 1764470400 + index;
	snprintf(run.status, sizeof run.status, "ok");
	run.boot_seconds = 21.25 + index;
	run.applied_known = true;
	run.applied = (struct cache_flags){true, false, true};
	run.kvm = false;
	snprintf(run.guest_kernel, sizeof run.guest_kernel, "6.1.0-57-amd64");
	snprintf(run.reset, sizeof run.reset, "%s", index % 2 ? "full" : "fast");
	assert_int_equal(journal_run_add_metric(&run, "iops", 1234.5 + index, "IOPS"), 0);
	assert_int_equal(journal_run_add_metric(&run, "clat_p99", 0.1 + 0.2, "us"), 0);
	assert_int_equal(journal_run_add_metric(&run, "unmeasured", NAN, ""), 0);
	return run;
}

static void assert_runs_equal(const struct journal_run *a,
			      const struct journal_run *b)
{
	assert_string_equal(a->cell.id, b->cell.id);
	assert_int_equal(a->cell.backend, b->cell.backend);
	assert_int_equal(a->cell.format, b->cell.format);
	assert_int_equal(a->cell.prealloc, b->cell.prealloc);
	assert_int_equal(a->cell.cache, b->cell.cache);
	assert_int_equal(a->cell.aio, b->cell.aio);
	assert_int_equal(a->cell.bus, b->cell.bus);
	assert_int_equal(a->cell.workload, b->cell.workload);
	assert_int_equal(a->index, b->index);
	assert_int_equal(a->position, b->position);
	assert_int_equal(a->start_time, b->start_time);
	assert_string_equal(a->status, b->status);
	assert_string_equal(a->message, b->message);
	assert_true(a->boot_seconds == b->boot_seconds ||
		    (isnan(a->boot_seconds) && isnan(b->boot_seconds)));
	assert_int_equal(a->applied_known, b->applied_known);
	assert_int_equal(a->applied.writeback, b->applied.writeback);
	assert_int_equal(a->applied.direct, b->applied.direct);
	assert_int_equal(a->applied.no_flush, b->applied.no_flush);
	assert_int_equal(a->kvm, b->kvm);
	assert_string_equal(a->host_kernel, b->host_kernel);
	assert_string_equal(a->guest_kernel, b->guest_kernel);
	assert_string_equal(a->reset, b->reset);
	for (int k = 0; k < 2; k++) {
		const struct journal_reset_check *x = k ? &a->reset_check_after : &a->reset_check,
						 *y = k ? &b->reset_check_after : &b->reset_check;
		assert_int_equal(x->done, y->done);
		if (!x->done)
			continue;
		assert_string_equal(x->fast, y->fast);
		assert_string_equal(x->full, y->full);
		assert_int_equal(x->identical, y->identical);
	}
	assert_int_equal(a->n_metrics, b->n_metrics);
	for (size_t i = 0; i < a->n_metrics; i++) {
		assert_string_equal(a->metrics[i].name, b->metrics[i].name);
		assert_string_equal(a->metrics[i].unit, b->metrics[i].unit);
		/* exact: doubles survive the JSON text bit for bit */
		assert_true(a->metrics[i].value == b->metrics[i].value ||
			    (isnan(a->metrics[i].value) &&
			     isnan(b->metrics[i].value)));
	}
}

static void test_round_trip(void **state)
{
	(void)state;
	struct journal_run run = sample_run(0), back;
	char *line = NULL;

	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_null(strchr(line, '\n'));
	assert_non_null(strstr(line, "\"start_time\":\"2025-11-30T02:40:00Z\""));
	assert_non_null(strstr(line, "\"preallocation\":\"metadata\""));
	assert_non_null(strstr(line, "\"accel\":\"tcg\""));
	assert_non_null(strstr(line, "\"applied_cache\":{\"writeback\":true,\"direct\":false,\"no-flush\":true}"));
	assert_non_null(strstr(line, "{\"name\":\"unmeasured\",\"value\":null,\"unit\":\"\"}"));
	assert_non_null(strstr(line, "\"reset\":\"fast\""));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	journal_run_release(&back);
	/* A reset the runner does not make is not a record. */
	char *p = strstr(line, "\"reset\":\"fast\"");
	memcpy(p, "\"reset\":\"fist\"", 15);
	assert_int_equal(journal_run_from_json(line, &back), -EBADMSG);
	journal_run_release(&back);
	free(line);

	/* A failed run: no metrics, no boot time, no applied flags, no bus
	 * (qemu-img-bench) and no preallocation. */
	journal_run_release(&run);
	journal_run_init(&run);
	snprintf(run.cell.id, sizeof run.cell.id, "raw/raw/-/none/native/-/qemu-img-bench");
	run.cell.backend = BACKEND_RAW;
	run.cell.cache = CACHE_NONE;
	run.cell.aio = AIO_NATIVE;
	run.cell.bus = -1;
	run.cell.prealloc = -1;
	run.cell.workload = WORKLOAD_QEMU_IMG_BENCH;
	snprintf(run.status, sizeof run.status, "timeout");
	snprintf(run.message, sizeof run.message, "the guest was still \"running\" after 20 s\n");
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"bus\":null"));
	assert_non_null(strstr(line, "\"applied_cache\":null"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	free(line);
	journal_run_release(&back);
	journal_run_release(&run);
}

/* A host-native run: no cache mode, aio, bus, accelerator or boot time,
 * written and read back as such; a qcow2 run's cache option survives the
 * round trip; a line of before these fields reads with their defaults. */
static void test_host_run_and_qcow2_cache(void **state)
{
	(void)state;
	struct journal_run run, back;
	char *line = NULL;

	journal_run_init(&run);
	run.cell = (struct plan_cell){.backend = BACKEND_RAW, .format = IMAGE_FORMAT_RAW,
				      .prealloc = RAW_PREALLOC_SPARSE, .cache = -1, .aio = -1,
				      .bus = -1, .workload = WORKLOAD_DD, .l2_cache = -1,
				      .host = true, PLAN_CELL_NO_FIO};
	plan_cell_make_id(&run.cell);
	assert_string_equal(run.cell.id, "raw/raw/sparse/-/-/host/dd");
	snprintf(run.status, sizeof run.status, "ok");
	assert_int_equal(journal_run_add_metric(&run, "dd_mbps", 81.5, "MB/s"), 0);
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"cache\":null,\"aio\":null,\"bus\":null"));
	assert_non_null(strstr(line, "\"l2_cache\":null,\"guest\":false"));
	assert_non_null(strstr(line, "\"accel\":null"));
	assert_non_null(strstr(line, "\"qcow2_cache\":null"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	assert_true(back.cell.host);
	free(line);
	journal_run_release(&back);
	journal_run_release(&run);

	run = sample_run(0);
	run.cell.l2_cache = 1 << 20;
	plan_cell_make_id(&run.cell);
	run.qcow2_cache_known = true;
	run.qcow2_cache_size = (1 << 20) + (256 << 10);
	snprintf(run.qcow2_cache_source, sizeof run.qcow2_cache_source, "qemu command line");
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"id\":\"qcow2/qcow2/metadata/l2=1M/unsafe/threads/virtio/fio\""));
	assert_non_null(strstr(line, "\"qcow2_cache\":{\"option\":\"cache-size\",\"bytes\":1310720,"
				     "\"source\":\"qemu command line\"}"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	assert_int_equal(back.cell.l2_cache, 1 << 20);
	assert_true(back.qcow2_cache_known);
	assert_int_equal(back.qcow2_cache_size, (1 << 20) + (256 << 10));
	assert_string_equal(back.qcow2_cache_source, "qemu command line");
	free(line);
	journal_run_release(&back);
	journal_run_release(&run);

	/* As the runner wrote it before the L2 axis and host cells. */
	static const char old[] =
		"{\"version\":1,\"cell\":{\"id\":\"qcow2/qcow2/off/none/threads/virtio/fio\","
		"\"backend\":\"qcow2\",\"format\":\"qcow2\",\"preallocation\":\"off\",\"cache\":\"none\","
		"\"aio\":\"threads\",\"bus\":\"virtio\",\"workload\":\"fio\"},\"index\":0,\"position\":0,"
		"\"start_time\":\"2026-11-30T02:40:00Z\",\"status\":\"ok\",\"message\":null,"
		"\"boot_seconds\":21.25,\"accel\":\"tcg\",\"applied_cache\":null,"
		"\"host_kernel\":\"6.1.0-57-amd64\",\"guest_kernel\":null,\"metrics\":[]}";
	assert_int_equal(journal_run_from_json(old, &back), 0);
	assert_false(back.cell.host);
	assert_int_equal(back.cell.l2_cache, 0);
	assert_false(back.qcow2_cache_known);
	assert_string_equal(back.reset, "");
	assert_string_equal(back.cell.id, "qcow2/qcow2/off/none/threads/virtio/fio");
	journal_run_release(&back);
	/* A guest cell without a cache mode is not a record. */
	static const char bad[] =
		"{\"version\":1,\"cell\":{\"id\":\"x\",\"backend\":\"raw\",\"format\":\"raw\","
		"\"preallocation\":null,\"cache\":null,\"aio\":null,\"bus\":null,\"workload\":\"dd\"},"
		"\"index\":0,\"position\":0,\"start_time\":\"2026-11-30T02:40:00Z\",\"status\":\"ok\","
		"\"boot_seconds\":null,\"accel\":null,\"metrics\":[]}";
	assert_int_equal(journal_run_from_json(bad, &back), -EBADMSG);
	journal_run_release(&back);
}

/* [sweep] verify_reset's checks: written only when made, read back; a
 * check that says identical of two different hashes, or a hash that is
 * not one, is not a record. */
static void test_reset_check(void **state)
{
	(void)state;
	struct journal_run run = sample_run(0), back;
	char *line = NULL, *p;

	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_null(strstr(line, "reset_check"));
	free(line);
	run.reset_check.done = true;
	memset(run.reset_check.fast, 'a', 64);
	memset(run.reset_check.full, 'a', 64);
	run.reset_check.identical = true;
	run.reset_check_after = run.reset_check;
	run.reset_check_after.full[63] = '0';
	run.reset_check_after.identical = false;
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"reset_check\":{\"fast\":\"aaaa"));
	assert_non_null(strstr(line, "a0\",\"identical\":false}"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	journal_run_release(&back);
	p = strstr(line, "\"identical\":false");
	memcpy(p, "\"identical\":true,", 18);
	assert_int_equal(journal_run_from_json(line, &back), -EBADMSG);
	journal_run_release(&back);
	free(line);
	run.reset_check.fast[10] = 'X';
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_int_equal(journal_run_from_json(line, &back), -EBADMSG);
	journal_run_release(&back);
	free(line);
	journal_run_release(&run);
}

/* A host crash's record (crashfacts.h): written only when present, read
 * back value for value, nulls as nulls; absent in older lines; a record
 * of another shape makes the line no record. */
static void test_host_crash(void **state)
{
	(void)state;
	struct journal_run run = sample_run(0), back;
	char *line = NULL;

	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_null(strstr(line, "host_crash"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_false(back.host_crash.present);
	assert_int_equal(back.host_crash.dirty_kib, -1);
	assert_true(isnan(back.host_crash.to_sweep_seconds));
	journal_run_release(&back);
	free(line);

	snprintf(run.crash, sizeof run.crash, "host");
	run.host_crash.present = true;
	snprintf(run.host_crash.mechanism, sizeof run.host_crash.mechanism, "firmware");
	snprintf(run.host_crash.fallback, sizeof run.host_crash.fallback,
		 "kexec_file_load: Operation not permitted");
	run.host_crash.dirty_kib = 1536;
	run.host_crash.writeback_kib = 0;
	snprintf(run.host_crash.disk_write_cache, sizeof run.host_crash.disk_write_cache, "off");
	run.host_crash.qemu_stopped_seconds = 0.25;
	run.host_crash.writeback_stopped_seconds = 0.5;
	run.host_crash.results_synced_seconds = 1.5;
	run.host_crash.facts_read_seconds = 1.75;
	run.host_crash.to_kernel_seconds = 41.5;
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"crash\":\"host\",\"host_crash\":{\"mechanism\":\"firmware\","
				     "\"fallback\":\"kexec_file_load: Operation not permitted\","
				     "\"dirty_kib\":1536,\"writeback_kib\":0,\"disk_write_cache\":\"off\","
				     "\"qemu_stopped_seconds\":0.25,\"writeback_stopped_seconds\":0.5,"
				     "\"results_synced_seconds\":1.5,\"facts_read_seconds\":1.75,"
				     "\"to_kernel_seconds\":41.5,\"to_sweep_seconds\":null}"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_runs_equal(&run, &back);
	assert_true(back.host_crash.present);
	assert_string_equal(back.host_crash.mechanism, "firmware");
	assert_string_equal(back.host_crash.fallback, run.host_crash.fallback);
	assert_int_equal(back.host_crash.dirty_kib, 1536);
	assert_int_equal(back.host_crash.writeback_kib, 0);
	assert_string_equal(back.host_crash.disk_write_cache, "off");
	assert_true(back.host_crash.to_kernel_seconds == 41.5);
	assert_true(back.host_crash.qemu_stopped_seconds == 0.25);
	assert_true(back.host_crash.facts_read_seconds == 1.75);
	assert_true(isnan(back.host_crash.to_sweep_seconds));
	journal_run_release(&back);
	/* reboot(2)'s restart is a mechanism of its own. */
	char *restart = strdup(line);
	memcpy(strstr(restart, "\"firmware\""), "\"restart\" ", 10);
	assert_int_equal(journal_run_from_json(restart, &back), 0);
	assert_string_equal(back.host_crash.mechanism, "restart");
	journal_run_release(&back);
	free(restart);

	/* Each of these is not a host crash's record. */
	static const char *const bad[][2] = {
		{"\"mechanism\":\"firmware\"", "\"mechanism\":\"reboot\""},
		{"\"mechanism\":\"firmware\",", ""},
		{"\"dirty_kib\":1536", "\"dirty_kib\":-1"},
		{"\"dirty_kib\":1536", "\"dirty_kib\":\"1536\""},
		{"\"disk_write_cache\":\"off\"", "\"disk_write_cache\":\"maybe\""},
		{"\"to_kernel_seconds\":41.5", "\"to_kernel_seconds\":-2"},
		{"\"results_synced_seconds\":1.5", "\"results_synced_seconds\":-1"},
		{"\"qemu_stopped_seconds\":0.25", "\"qemu_stopped_seconds\":\"0.25\""},
		{"\"fallback\":\"kexec_file_load: Operation not permitted\"", "\"fallback\":7"},
		{"\"host_crash\":{", "\"host_crash\":[],\"x\":{"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *at = strstr(line, bad[i][0]), edited[4096];
		assert_non_null(at);
		snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - line), line, bad[i][1],
			 at + strlen(bad[i][0]));
		assert_int_equal(journal_run_from_json(edited, &back), -EBADMSG);
		journal_run_release(&back);
	}
	/* A null record is none. */
	char *at = strstr(line, "\"host_crash\":{"), edited[4096];
	snprintf(edited, sizeof edited, "%.*s\"host_crash\":null%s", (int)(at - line), line,
		 strchr(at, '}') + 1);
	assert_int_equal(journal_run_from_json(edited, &back), 0);
	assert_false(back.host_crash.present);
	journal_run_release(&back);
	free(line);
	journal_run_release(&run);
}

static void test_bad_lines(void **state)
{
	(void)state;
	struct journal_run run;
	assert_int_equal(journal_run_from_json("", &run), -EBADMSG);
	assert_int_equal(journal_run_from_json("[]", &run), -EBADMSG);
	assert_int_equal(journal_run_from_json("{\"version\":1}", &run), -EBADMSG);

	struct journal_run good = sample_run(1);
	char *line = NULL;
	assert_int_equal(journal_run_to_json(&good, &line), 0);
	char *bad = strdup(line);
	char *p = strstr(bad, "\"unsafe\"");
	memcpy(p, "\"unsafX\"", 8);
	assert_int_equal(journal_run_from_json(bad, &run), -EBADMSG);
	free(bad);
	free(line);

	good.cell.cache = _CACHE_MAX;
	assert_int_equal(journal_run_to_json(&good, &line), -EINVAL);
	journal_run_release(&good);

	struct journal_run r2;
	journal_run_init(&r2);
	char longname[100];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	assert_int_equal(journal_run_add_metric(&r2, longname, 1, "s"), -EINVAL);
	assert_int_equal(journal_run_add_metric(&r2, "", 1, "s"), -EINVAL);
	journal_run_release(&r2);
}

static void test_append_read(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-journal.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/runs.jsonl", dir);

	struct journal j;
	assert_int_equal(journal_read(path, &j), 0); /* missing: empty */
	assert_int_equal(j.n_runs, 0);

	struct journal_run runs[3];
	for (unsigned i = 0; i < 3; i++) {
		runs[i] = sample_run(i);
		assert_int_equal(journal_append(path, &runs[i]), 0);
	}
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_runs_equal(&runs[i], &j.runs[i]);
	assert_true(journal_has_run(&j, runs[0].cell.id, 2));
	assert_false(journal_has_run(&j, runs[0].cell.id, 3));
	assert_false(journal_has_run(&j, "other", 0));
	journal_release(&j);

	/* A crash in the middle of a write leaves a torn last line: the
	 * runs before it are all there. */
	FILE *f = fopen(path, "a");
	fputs("{\"version\":1,\"cell\":{\"id\":\"lvm", f);
	fclose(f);
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 3);
	journal_release(&j);

	/* The next append removes the torn line instead of writing after
	 * it: reader and writer agree, nothing but that run is lost. */
	assert_int_equal(journal_append(path, &runs[1]), 0);
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 4);
	assert_runs_equal(&runs[1], &j.runs[3]);
	journal_release(&j);

	/* A whole record without its newline was not committed (its append
	 * failed): the reader ignores it and the writer removes it. */
	char *whole = NULL;
	assert_int_equal(journal_run_to_json(&runs[2], &whole), 0);
	f = fopen(path, "a");
	fputs(whole, f);
	fclose(f);
	free(whole);
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 4);
	journal_release(&j);
	assert_int_equal(journal_append(path, &runs[0]), 0);
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 5);
	assert_runs_equal(&runs[0], &j.runs[4]);
	journal_release(&j);

	/* ...but garbage in the middle is an error. */
	f = fopen(path, "a");
	fputs("{\"version\":1,\"cell\":{\"id\":\"lvm\n", f);
	fclose(f);
	assert_int_equal(journal_append(path, &runs[0]), 0);
	assert_int_equal(journal_read(path, &j), -EBADMSG);
	assert_int_equal(j.n_runs, 0);

	for (unsigned i = 0; i < 3; i++)
		journal_run_release(&runs[i]);
	unlink(path);
	rmdir(dir);
}

/* A write the file system refuses half-way (a full RESULTS; here the
 * file size limit, which fails the same way) names its cause and leaves
 * the journal as it was. */
static void test_append_fails(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-journal.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/runs.jsonl", dir);
	struct journal_run run = sample_run(0);
	assert_int_equal(journal_append(path, &run), 0);
	struct stat before, after;
	assert_int_equal(stat(path, &before), 0);

	struct rlimit old, lim;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)before.st_size + 100;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	char *msg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&msg, &len);
	log_set_stream(f);
	int r = journal_append(path, &run);
	log_set_stream(NULL);
	fclose(f);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);

	assert_int_equal(r, -EFBIG);
	assert_non_null(strstr(msg, strerror(EFBIG)));
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(after.st_size, before.st_size);
	free(msg);

	struct journal j;
	assert_int_equal(journal_append(path, &run), 0);
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(j.n_runs, 2);
	journal_release(&j);
	journal_run_release(&run);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_host_crash),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_reset_check),
		cmocka_unit_test(test_host_run_and_qcow2_cache),
		cmocka_unit_test(test_append_read),
		cmocka_unit_test(test_append_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
