/* fio's output as the guest prints it, read back: each job file of
 * tests/unit/data/fio-jobs/ the profile's check accepts, with fio 3.33's
 * own output of it (capture.sh there): every job's metrics under its own
 * name, the latencies fio did not measure absent (not 0), total latency
 * beside completion latency, sync latency where the job syncs, fio's
 * notes kept, steady state reached or not. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cleanup.h"
#include "journal.h"
#include "jobscan.h"
#include "results.h"
#include "testfile.h"

/* R after parsing NAME.out as a job file's output; fails unless it
 * parses. */
static void parse(const char *name, struct results *r)
{
	char file[128];
	snprintf(file, sizeof(file), "fio-jobs/%s.out", name);
	_cleanup_free_ char *out = read_data(file);
	memset(r, 0, sizeof(*r));
	if (results_parse_fio_jobs(out, r) < 0)
		fail_msg("%s: %s", file, r->error);
}

/* Each NULL-terminated name is a metric of R, with a finite value. */
static void has(const struct results *r, ...)
{
	va_list ap;
	const char *n;

	va_start(ap, r);
	while ((n = va_arg(ap, const char *))) {
		const struct result_metric *m = results_find(r, n);
		if (!m || !isfinite(m->value))
			fail_msg("no metric %s", n);
	}
	va_end(ap);
}

static void lacks(const struct results *r, ...)
{
	va_list ap;
	const char *n;

	va_start(ap, r);
	while ((n = va_arg(ap, const char *)))
		if (results_find(r, n))
			fail_msg("metric %s is there, but fio did not measure it", n);
	va_end(ap);
}

/* No metric of R starts with PREFIX. */
static void none_named(const struct results *r, const char *prefix)
{
	for (size_t i = 0; i < r->n_metrics; i++)
		if (strncmp(r->metrics[i].name, prefix, strlen(prefix)) == 0)
			fail_msg("metric %s", r->metrics[i].name);
}

/* group_reporting, one job per reporting group: the clones of 'writers'
 * together under its name (2048 writes of 4k in 2 x 4M), 'reader' on its
 * own. */
static void groups_by_their_job(void **state)
{
	struct results r;

	(void)state;
	parse("group-stonewall", &r);
	has(&r, "fio_writers_write_iops", "fio_writers_write_clat_p99",
	    "fio_writers_write_lat_p99", "fio_reader_read_iops", "fio_reader_read_lat_p50",
	    NULL);
	lacks(&r, "fio_writers_read_iops", "fio_reader_write_iops", NULL);
	assert_int_equal(r.n_notes, 0);
}

/* A prefill with stats=0 runs and reports nothing: fio's nameless empty
 * entry for it is no job's, and the first metrics are the first measured
 * job's. */
static void unreported_prefill(void **state)
{
	struct results r;

	(void)state;
	parse("prefill", &r);
	has(&r, "fio_randread_read_iops", "fio_randread_read_lat_p99", NULL);
	none_named(&r, "fio_prefill");
	assert_string_equal(r.metrics[0].name, "fio_randread_read_iops");
}

/* gtod_reduce: fio measured no latency; its zeros are not data. */
static void no_latency_measured(void **state)
{
	struct results r;

	(void)state;
	parse("gtod-reduce", &r);
	has(&r, "fio_j_write_iops", "fio_j_write_bw", NULL);
	lacks(&r, "fio_j_write_clat_mean", "fio_j_write_clat_p50", "fio_j_write_lat_mean",
	      "fio_j_write_lat_p99", NULL);
	/* disable_clat: total latency only; its fsyncs' latency not
	 * measured either (fio's sync N is 0). */
	parse("disable-clat", &r);
	has(&r, "fio_j_write_lat_mean", "fio_j_write_lat_p50", "fio_j_write_lat_p99",
	    "fio_j_write_lat_p99_9", NULL);
	lacks(&r, "fio_j_write_clat_mean", "fio_j_write_clat_p99", "fio_j_sync_lat_mean", NULL);
}

/* fsync=1: the syncs' latency beside the writes', in microseconds, and
 * total latency never below completion latency. */
static void sync_and_total_latency(void **state)
{
	struct results r;

	(void)state;
	parse("fsync", &r);
	has(&r, "fio_j_write_iops", "fio_j_write_clat_mean", "fio_j_write_clat_p99_9",
	    "fio_j_write_lat_mean", "fio_j_write_lat_p99_9", "fio_j_sync_lat_mean",
	    "fio_j_sync_lat_p50", "fio_j_sync_lat_p99", "fio_j_sync_lat_p99_9", NULL);
	assert_true(results_find(&r, "fio_j_write_lat_mean")->value >=
		    results_find(&r, "fio_j_write_clat_mean")->value);
	assert_string_equal(results_find(&r, "fio_j_sync_lat_p99")->unit, "us");
	assert_true(results_find(&r, "fio_j_sync_lat_p50")->value <=
		    results_find(&r, "fio_j_sync_lat_p99")->value);
}

/* A psync job at depth 4: fio's note before its JSON is kept, once. */
static void note_before_the_json(void **state)
{
	struct results r;

	(void)state;
	parse("psync-note", &r);
	has(&r, "fio_j_read_iops", "fio_j_read_clat_p99", NULL);
	assert_int_equal(r.n_notes, 1);
	assert_string_equal(r.notes[0], "note: both iodepth >= 1 and synchronous I/O engine "
					"are selected, queue depth will be capped at 1");
	/* The same framed as the guest prints it, through the whole parser,
	 * and into a journal line and back. */
	_cleanup_free_ char *out = read_data("fio-jobs/psync-note.out");
	_cleanup_free_ char *log = NULL;
	size_t len = 0, lines = 0;
	FILE *f = open_memstream(&log, &len);
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	fprintf(f, "BUILDAPP:BEGIN workload=fio kernel=6.1.0\nBUILDAPP:RAW-BEGIN fio-jobs "
		   "lines=%zu\n", lines);
	for (const char *p = out; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "BUILDAPP:RAW %.*s\r\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	fprintf(f, "BUILDAPP:RAW-END fio-jobs\nBUILDAPP:END status=0\n");
	fclose(f);
	assert_int_equal(results_parse(log, len, WORKLOAD_FIO, &r), 0);
	assert_int_equal(r.n_notes, 1);
	struct journal_run jr, back;
	_cleanup_free_ char *line = NULL;
	journal_run_init(&jr);
	snprintf(jr.status, sizeof(jr.status), "ok");
	journal_run_add_notes(&jr, &r);
	assert_int_equal(journal_run_to_json(&jr, &line), 0);
	assert_non_null(strstr(line, "\"notes\":[\"note: both iodepth >= 1 and synchronous"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_int_equal(back.n_notes, 1);
	assert_string_equal(back.notes[0], r.notes[0]);
	journal_run_release(&jr);
	journal_run_release(&back);
}

/* seq and seq_read, in either order: each job under its own name. */
static void names_that_extend_another(void **state)
{
	static const char *const files[] = {"seq-names", "seq-names-reversed"};
	struct results r;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		parse(files[i], &r);
		has(&r, "fio_seq_write_iops", "fio_seq_write_lat_p99", "fio_seq_read_read_iops",
		    "fio_seq_read_read_clat_p50", NULL);
		lacks(&r, "fio_seq_read_iops", "fio_seq_read_write_iops", NULL);
	}
}

/* Every pair of job names the profile's check accepts, the parser
 * accepts, each job's metrics under names no other job's have: names
 * that are another's plus '_' and a direction or a metric's word. */
static void every_name_pair(void **state)
{
	static const char *const names[] = {"a", "a_read", "a_write", "a_sync", "a_sync_lat",
					    "a_read_lat", "a_read_read", "read", "sync", "a-b"};
	static const char job[] =
		"{\"jobname\":\"%s\",\"read\":{\"total_ios\":1,\"iops\":1,\"bw\":1,"
		"\"clat_ns\":{\"N\":1,\"mean\":1,\"percentile\":{\"99.000000\":1}},"
		"\"lat_ns\":{\"N\":1,\"mean\":1}},\"write\":{\"total_ios\":1,\"iops\":1,"
		"\"bw\":1,\"clat_ns\":{\"N\":1,\"mean\":1},\"lat_ns\":{\"N\":1,\"mean\":1,"
		"\"percentile\":{\"50.000000\":1}}},\"sync\":{\"total_ios\":1,"
		"\"lat_ns\":{\"N\":1,\"mean\":1}}}";
	const size_t n = sizeof(names) / sizeof(names[0]);
	struct results r;
	struct jobscan scan;
	char a[600], b[600], out[1400], file[400], why[600];

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			if (i == k)
				continue;
			snprintf(file, sizeof(file), "[global]\nfilename=${BUILDAPP_TARGET}\n"
						     "[%s]\nrw=randrw\nfsync=1\n[%s]\nstonewall\n"
						     "rw=randrw\nfsync=1\n",
				 names[i], names[k]);
			if (jobscan_text("t.fio", file, false, &scan, why, sizeof(why)) < 0)
				fail_msg("the check refuses %s and %s: %s", names[i], names[k], why);
			snprintf(a, sizeof(a), job, names[i]);
			snprintf(b, sizeof(b), job, names[k]);
			snprintf(out, sizeof(out), "{\n\"jobs\":[%s,%s]}\n", a, b);
			memset(&r, 0, sizeof(r));
			if (results_parse_fio_jobs(out, &r) < 0)
				fail_msg("the parser refuses %s and %s: %s", names[i], names[k],
					 r.error);
			/* Each job: 5 metrics a direction (iops, bw, 2 means,
			 * a percentile), sync's mean. */
			assert_int_equal(r.n_metrics, 2 * 11);
			for (size_t x = 0; x < r.n_metrics; x++)
				for (size_t y = x + 1; y < r.n_metrics; y++)
					if (strcmp(r.metrics[x].name, r.metrics[y].name) == 0)
						fail_msg("%s and %s: %s twice", names[i], names[k],
							 r.metrics[x].name);
		}
}

/* steadystate per job: reached by one, not by the other; in the journal
 * by the jobs' metric prefix. */
static void steady_state_per_job(void **state)
{
	struct results r;
	struct journal_run jr;
	_cleanup_free_ char *line = NULL;

	(void)state;
	parse("steadystate", &r);
	assert_int_equal(r.n_steady, 2);
	assert_string_equal(r.steady[0].prefix, "fio_steady");
	assert_true(r.steady[0].attained);
	assert_string_equal(r.steady[1].prefix, "fio_never");
	assert_false(r.steady[1].attained);
	journal_run_init(&jr);
	snprintf(jr.status, sizeof(jr.status), "ok");
	journal_run_add_notes(&jr, &r);
	assert_int_equal(journal_run_to_json(&jr, &line), 0);
	assert_non_null(strstr(line, "\"steadystate\":{\"fio_steady\":true,\"fio_never\":false}"));
	journal_run_release(&jr);
}

/* What the profile's check refuses is not reported under names that do
 * not say so, should a fio do it anyway: a reporting group of two jobs
 * (fio 3.33 writes an entry without a name for the second), trims, the
 * "mixed" direction, a name twice, and output with no JSON in it. */
static void refused_shapes(void **state)
{
	static const char *const bad[][2] = {
		{"{\n\"jobs\":[{\"jobname\":\"a\",\"read\":{\"total_ios\":1,\"iops\":1,\"bw\":1,"
		 "\"clat_ns\":{\"N\":1,\"mean\":1},\"lat_ns\":{\"N\":1,\"mean\":1}}},"
		 "{\"groupid\":0,\"read\":{\"total_ios\":1}}]}\n",
		 "job 1 has no name"},
		{"{\n\"jobs\":[{\"jobname\":\"t\",\"trim\":{\"total_ios\":5}}]}\n",
		 "fio did trims"},
		{"{\n\"jobs\":[{\"jobname\":\"m\",\"mixed\":{\"total_ios\":5}}]}\n",
		 "unified_rw_reporting"},
		{"{\n\"jobs\":[{\"jobname\":\"a\",\"write\":{\"total_ios\":1,\"iops\":1,\"bw\":1,"
		 "\"clat_ns\":{\"N\":0,\"mean\":0},\"lat_ns\":{\"N\":0,\"mean\":0}}},"
		 "{\"jobname\":\"a\"}]}\n",
		 "job 'a' is there twice"},
		{"fio: pid=12, err=28/file:io_u.c:1845, func=io_u error, error=No space left\n",
		 "fio output holds no JSON object (no line '{')"},
	};
	struct results r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&r, 0, sizeof(r));
		assert_int_equal(results_parse_fio_jobs(bad[i][0], &r), -EBADMSG);
		if (!strstr(r.error, bad[i][1]))
			fail_msg("'%s' lacks '%s'", r.error, bad[i][1]);
	}
	/* The lines of a fio that printed no JSON are its notes. */
	assert_int_equal(r.n_notes, 1);
	none_named(&r, "fio_");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_by_their_job),
		cmocka_unit_test(unreported_prefill),
		cmocka_unit_test(no_latency_measured),
		cmocka_unit_test(sync_and_total_latency),
		cmocka_unit_test(note_before_the_json),
		cmocka_unit_test(names_that_extend_another),
		cmocka_unit_test(every_name_pair),
		cmocka_unit_test(steady_state_per_job),
		cmocka_unit_test(refused_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
