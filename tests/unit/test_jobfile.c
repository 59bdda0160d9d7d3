/* [workload] fio_job and fio's knobs as axes: the job file's check when
 * the profile is loaded (a good file, one fio refuses with its line, one
 * with no target the kit fills in, and the other refusals), the bad
 * values of the knobs, and the cells a sweep of them makes: how many,
 * their ids, which are left out and why.  The job file checks run the
 * real fio (--parse-only); the engine check a stand-in fio that lacks
 * io_uring. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fioargs.h"
#include "guestproto.h"
#include "jobfile.h"
#include "keys.h"
#include "loader.h"
#include "log.h"
#include "planner.h"
#include "unitskip.h"

static char tmpdir[] = "/tmp/buildapp-jobfile-XXXXXX";
static char *messages;
static size_t messages_len;
static FILE *message_stream;

/* Two jobs, one after the other, on the target the kit fills in, at the
 * cell's queue depth and engine. */
static const char good_job[] =
	"; a random reader, then a sequential writer\n"
	"[global]\n"
	"filename=${BUILDAPP_TARGET}\n"
	"size=${BUILDAPP_SIZE}\n"
	"ioengine=${BUILDAPP_IOENGINE}\n"
	"iodepth=${BUILDAPP_IODEPTH}\n"
	"direct=1\n"
	"\n"
	"[randread]\n"
	"rw=randread\n"
	"bs=4k\n"
	"\n"
	"[seqwrite]\n"
	"stonewall\n"
	"rw=write\n"
	"bs=1M\n";

static const char *write_file(const char *name, const char *content)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	return path;
}

/* Loads the profile PROFILE (t.ini) beside the job file JOB (job.fio, not
 * there when NULL); the loader's message is left in `messages`. */
static int load(const char *profile, const char *job, struct profile *p)
{
	if (job)
		write_file("job.fio", job);
	else
		unlink(write_file("job.fio", ""));
	const char *path = write_file("t.ini", profile);
	fclose(message_stream);
	free(messages);
	message_stream = open_memstream(&messages, &messages_len);
	log_set_stream(message_stream);
	int r = loader_load(path, p);
	fflush(message_stream);
	return r;
}

#define PROFILE_WITH(extra)                                                    \
	"[workload]\nkinds = fio\nfio_job = job.fio\nfio_size = 2M\n" extra

/* The load fails, exit status 2's way, with a message holding each of
 * the strings. */
static void expect_refused(const char *profile, const char *job, ...)
{
	struct profile p;
	va_list ap;
	const char *want;

	if (load(profile, job, &p) == 0)
		fail_msg("loaded but should not: %.200s", job ? job : profile);
	va_start(ap, job);
	while ((want = va_arg(ap, const char *)))
		if (!strstr(messages, want))
			fail_msg("message '%s' lacks '%s'", messages, want);
	va_end(ap);
	/* One line: a person reads one error. */
	assert_int_equal(strchr(messages, '\n') - messages + 1, (long)strlen(messages));
}

static void need_fio(void)
{
	if (access(GUESTPROTO_FIO, X_OK) < 0)
		UNIT_SKIP(GUESTPROTO_FIO " is not installed (scripts/install-deps.sh)");
}

static void test_good_job_file(void **state)
{
	struct profile p;
	char want[600];

	(void)state;
	need_fio();
	if (load(PROFILE_WITH("fio_iodepth = 1, 8\nfio_ioengine = libaio\n"), good_job, &p) < 0)
		fail_msg("%s", messages);
	/* Resolved against the profile's directory. */
	snprintf(want, sizeof(want), "%s/job.fio", tmpdir);
	assert_string_equal(p.workload.fio_job, want);
}

static void test_fio_refuses(void **state)
{
	static const char bogus[] = "[j]\nfilename=${BUILDAPP_TARGET}\nrw=randread\n"
				    "bogus_option=1\n";
	static const char bad_value[] = "[j]\nfilename=${BUILDAPP_TARGET}\n"
					"rw=randread\n\niodepth=lots ; deep\n";

	(void)state;
	need_fio();
	/* An option that is not on the list, before fio sees it. */
	expect_refused(PROFILE_WITH(""), bogus, "t.ini:3: [workload] fio_job:",
		       "job.fio' line 4: bogus_option: not an option a job file may have",
		       NULL);
	/* fio's own words, with the file and line they are about. */
	expect_refused(PROFILE_WITH(""), bad_value, "job.fio' line 5:",
		       "fio --parse-only refuses it:", "failed parsing iodepth=lots", NULL);
}

/* The job files of tests/unit/data/fio-jobs/: each refused with its line
 * and option, before fio --parse-only (which would dlopen an engine it
 * names), or accepted; test_results_fio.c reads fio's output of the
 * accepted ones. */
static void test_job_files(void **state)
{
	static const struct {
		const char *file, *line, *what;
	} refused[] = {
		{"opendir", "line 7", "opendir: refused: it adds every file under a directory"},
		{"mem-mmap", "line 4", "mem=mmap:/var/tmp/victim: refused"},
		{"engine-so", "line 4", "ioengine=/var/tmp/x.so: refused: fio would load it"},
		{"late-global", "line 3", "job 'j' names no target the kit can fill in"},
		{"engine-net", "line 4", "ioengine=net: refused: it reaches another machine"},
		{"engine-rbd", "line 4", "ioengine=rbd: refused: it reaches another machine"},
		{"group-merged", "line 12", "job 'reader' joins the reporting group of job "
					    "'writer' (line 9"},
		{"unified", "line 4", "unified_rw_reporting: refused"},
		{"trim", "line 4", "rw=trim: refused: fio reports trims on their own"},
		{"blank-lines", "line 15", "exec_prerun: refused: it runs a program"},
		{"randreed", "line 4", "rw=randreed: not a kind of I/O fio knows (did you "
				       "mean 'randread'?)"},
		{"filename-format", "line 4", "filename_format: refused"},
		{"write-log", "line 5", "write_lat_log: refused: it writes a file"},
	};
	static const struct {
		const char *file, *what;
	} refused_whole[] = {
		{"all-unreported", "no job reports anything: each has stats=0"},
	};
	static const char *const accepted[] = {"group-stonewall", "gtod-reduce", "disable-clat",
					       "psync-note", "seq-names", "seq-names-reversed",
					       "fsync", "steadystate", "prefill"};
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char profile[1024], want[128];
	struct profile p;

	(void)state;
	need_fio();
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(profile, sizeof(profile),
			 "[workload]\nkinds = fio\nfio_job = %s/tests/unit/data/fio-jobs/%s.fio\n",
			 top, refused[i].file);
		snprintf(want, sizeof(want), "%s.fio' %s: ", refused[i].file, refused[i].line);
		expect_refused(profile, NULL, "t.ini:3: [workload] fio_job:", want,
			       refused[i].what, NULL);
	}
	for (size_t i = 0; i < sizeof(refused_whole) / sizeof(refused_whole[0]); i++) {
		snprintf(profile, sizeof(profile),
			 "[workload]\nkinds = fio\nfio_job = %s/tests/unit/data/fio-jobs/%s.fio\n",
			 top, refused_whole[i].file);
		snprintf(want, sizeof(want), "%s.fio': %s", refused_whole[i].file,
			 refused_whole[i].what);
		expect_refused(profile, NULL, "t.ini:3: [workload] fio_job:", want, NULL);
	}
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		/* psync-note's depth is the cell's: 1 and 4. */
		snprintf(profile, sizeof(profile),
			 "[workload]\nkinds = fio\nfio_job = %s/tests/unit/data/fio-jobs/%s.fio\n"
			 "fio_size = 4M\n%s",
			 top, accepted[i],
			 strcmp(accepted[i], "psync-note") == 0 ? "fio_iodepth = 1, 4\n" : "");
		if (load(profile, NULL, &p) < 0)
			fail_msg("%s.fio: %s", accepted[i], messages);
	}
}

static void test_no_target(void **state)
{
	(void)state;
	need_fio();
	expect_refused(PROFILE_WITH(""), "[j]\nrw=randread\n",
		       "t.ini:3: [workload] fio_job:", "line 1: job 'j' names no target",
		       "add filename=${BUILDAPP_TARGET}", NULL);
	/* A path of its own would be written on the lab server too. */
	expect_refused(PROFILE_WITH(""), "[j]\nfilename=/dev/sda\nrw=write\n",
		       "line 2: filename=/dev/sda: the kit fills in the target", NULL);
	/* A file per job in the work directory is one the kit fills in. */
	struct profile p;
	if (load(PROFILE_WITH(""), "[j]\nfilename=${BUILDAPP_DIR}/j.dat\nrw=write\n"
				   "[k]\ndirectory=${BUILDAPP_DIR}\nrw=read\n", &p) < 0)
		fail_msg("%s", messages);
	/* ... but not when fio runs on the disk itself. */
	expect_refused(PROFILE_WITH("fio_target = device\n"),
		       "[j]\ndirectory=${BUILDAPP_DIR}\nrw=read\n",
		       "with fio_target = device there is no work directory", NULL);
}

static void test_other_refusals(void **state)
{
	char big[JOBFILE_MAX_BYTES + 200];

	(void)state;
	need_fio();
	expect_refused(PROFILE_WITH(""), "[j]\nfilename=${BUILDAPP_TARGET}\nsize=${HOME}\n",
		       "line 3: '${HOME}' is not a variable the kit sets", NULL);
	expect_refused(PROFILE_WITH(""),
		       "[j]\nfilename=${BUILDAPP_TARGET}\nexec_prerun=reboot\n",
		       "line 3: exec_prerun: refused: it runs a program", NULL);
	expect_refused(PROFILE_WITH(""), "include other.fio\n[j]\n",
		       "line 1: include: the kit carries this one file", NULL);
	expect_refused(PROFILE_WITH(""),
		       "[j]\nfilename=${BUILDAPP_TARGET}\nnumjobs=4\nrw=read\n",
		       "job 'j' may run several clones", "add group_reporting", NULL);
	expect_refused(PROFILE_WITH(""), "[a b]\nfilename=${BUILDAPP_TARGET}\n",
		       "line 1: job name 'a b'", NULL);
	/* A swept knob the file does not use would run one job N times. */
	expect_refused(PROFILE_WITH("fio_bs = 4K, 64K\n"), good_job,
		       "[workload] fio_bs sweeps several levels, but the job file uses "
		       "no ${BUILDAPP_BS}", NULL);
	/* Missing, and larger than the limit. */
	expect_refused(PROFILE_WITH(""), NULL, "t.ini:3: [workload] fio_job:",
		       "job.fio': No such file or directory", NULL);
	memset(big, ';', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	expect_refused(PROFILE_WITH(""), big, "t.ini:3: [workload] fio_job:",
		       "bytes: a job file has at most 65536", NULL);
}

/* The kit's settings reach every job that does not set its own, and a
 * profile key no job takes is refused; the plan says what each job does
 * and who says so. */
static void test_kit_settings(void **state)
{
	static const char own_direct[] = "[global]\nfilename=${BUILDAPP_TARGET}\n"
					 "size=${BUILDAPP_SIZE}\n\n"
					 "[a]\nrw=randread\ndirect=1\n\n"
					 "[b]\nstonewall\nrw=write\ndirect=1\nend_fsync=1\n";
	struct profile p;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	need_fio();
	/* fio_direct = no, and both jobs say direct=1 themselves. */
	expect_refused(PROFILE_WITH("fio_direct = no\n"), own_direct,
		       "job.fio' line 7: [workload] fio_direct = no reaches no job: each "
		       "sets direct itself",
		       "use direct=${BUILDAPP_DIRECT}", NULL);
	/* fio_numjobs reaches a job file only through its variable. */
	expect_refused(PROFILE_WITH("fio_numjobs = 4\n"), good_job,
		       "[workload] fio_numjobs = 4 reaches no job", NULL);
	/* A ramp and a time basis from the profile; the file's own direct. */
	if (load(PROFILE_WITH("fio_ramp = 2\nfio_runtime = 10\nfio_fsync = 8\n"),
		 own_direct, &p) < 0)
		fail_msg("%s", messages);
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(jobfile_describe(&p, f), 0);
	fclose(f);
	if (!strstr(text, "the kit gives fio --direct=1 --fsync=8 --runtime=10 --time_based=1 "
			  "--ramp_time=2 --lat_percentiles=1") ||
	    !strstr(text, "  a (line 5, group 0): direct=1 (line 7); fsync every 8 writes "
			  "(fio_fsync); 10 s, time-based (fio_runtime); ramp 2 s (fio_ramp)\n") ||
	    !strstr(text, "  b (line 9, group 1): direct=1 (line 12); fsync every 8 writes, "
			  "end_fsync=1 (fio_fsync);"))
		fail_msg("%s", text);
	free(text);
}

/* [workload] fio_steadystate: fio's spec, with a duration in the runtime. */
static void test_steadystate_key(void **state)
{
	struct profile p;

	(void)state;
	need_fio();
	expect_refused("[workload]\nkinds = fio\nfio_runtime = 30\nfio_steadystate_duration = 10\n"
		       "fio_steadystate = iops:abc\n",
		       NULL, "t.ini:5: [workload] fio_steadystate: 'iops:abc': the threshold "
			     "after ':' is a number",
		       NULL);
	expect_refused("[workload]\nkinds = fio\nfio_runtime = 30\nfio_steadystate = lat:5%\n"
		       "fio_steadystate_duration = 10\n",
		       NULL, "t.ini:4: [workload] fio_steadystate: 'lat:5%': a steadystate spec is "
			     "iops, iops_slope, bw or bw_slope",
		       NULL);
	/* Checked even where no cell runs fio. */
	expect_refused("[workload]\nkinds = dd\nfio_steadystate = nonsense\n", NULL,
		       "t.ini:3: [workload] fio_steadystate: 'nonsense': a steadystate spec is",
		       NULL);
	expect_refused("[workload]\nkinds = fio\nfio_steadystate = iops_slope:0.1%\n"
		       "fio_steadystate_duration = 10\n",
		       NULL, "[workload] fio_steadystate: 'iops_slope:0.1%' needs "
			     "fio_steadystate_duration (10 s) and fio_steadystate_ramp (0 s) "
			     "within fio_runtime (0 s)",
		       NULL);
	if (load("[workload]\nkinds = fio\nfio_runtime = 30\nfio_steadystate = iops_slope:0.1%\n"
		 "fio_steadystate_duration = 10\nfio_steadystate_ramp = 5\n",
		 NULL, &p) < 0)
		fail_msg("%s", messages);
	struct fioargs a;
	char g[FIOARGS_MAX][FIOARGS_LEN];
	profile_fioargs(&p, &a);
	size_t n = fioargs_globals(&a, g);
	assert_int_equal(n, 7);
	assert_string_equal(g[3], "--steadystate=iops_slope:0.1%");
	assert_string_equal(g[4], "--ss_dur=10");
	assert_string_equal(g[5], "--ss_ramp=5");
}

static void test_bad_knobs(void **state)
{
	(void)state;
	expect_refused("[workload]\nkinds = fio\nfio_iodepth = 1, 0, 32\n", NULL,
		       "t.ini:3: [workload] fio_iodepth: '0' is out of range 1..1024", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_bs = 4K, 4K\n", NULL,
		       "t.ini:3: [workload] fio_bs: '4K' listed twice", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_bs = 4K, 1000\n", NULL,
		       "t.ini:3: [workload] fio_bs: must be a multiple of 512", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_ioengine = windowsaio\n", NULL,
		       "t.ini:3: [workload] fio_ioengine: unknown value 'windowsaio'", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_ioengine = psync\nfio_iodepth = 8, 32\n",
		       NULL, "[workload] fio_ioengine: psync is synchronous", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_rwmixread = 30, 70\n", NULL,
		       "[workload] fio_rwmixread: sweeps several levels, but [workload] "
		       "fio_rw has neither rw nor randrw", NULL);
	expect_refused("[workload]\nkinds = fio\nfio_numjobs = 1,2,3,4,5,6,7,8,9\n", NULL,
		       "[workload] fio_numjobs: more than 8 values", NULL);
}

/* The guests' fio is the build host's: an engine it was built without is
 * refused (here a stand-in that lists no io_uring). */
static void test_engine_the_fio_lacks(void **state)
{
	struct profile p;
	char why[512], stub[600];

	(void)state;
	snprintf(stub, sizeof(stub), "%s/fio", tmpdir);
	write_file("fio", "#!/bin/sh\nprintf 'Available IO engines:\\n\\tpsync\\n\\tlibaio\\n'\n");
	assert_int_equal(chmod(stub, 0755), 0);
	assert_int_equal(keys_set_defaults(&p), 0);
	p.workload.fio_ioengine = AXIS_BIT(FIO_IOENGINE_LIBAIO) | AXIS_BIT(FIO_IOENGINE_IO_URING);
	assert_int_equal(jobfile_check_engines(&p, stub, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "io_uring: the guests' fio"));
	p.workload.fio_ioengine = AXIS_BIT(FIO_IOENGINE_AUTO);
	assert_int_equal(jobfile_check_engines(&p, stub, why, sizeof(why)), 0);
}

/* fio knobs as axes: a cell per combination of the swept ones; psync
 * cells deeper than 1 left out with the reason; rwmixread only where rw
 * mixes; the knobs not swept in no id. */
static void test_axes_in_the_plan(void **state)
{
	struct profile p;
	struct plan plan = {0};

	(void)state;
	if (load("[workload]\nkinds = fio, dd\nfio_rw = randread, randrw\n"
		 "fio_iodepth = 1, 8, 32\nfio_ioengine = psync, io_uring\n"
		 "fio_rwmixread = 30, 70\nfio_bs = 8K\n[guest]\ncache = none, unsafe\n",
		 NULL, &p) < 0)
		fail_msg("%s", messages);
	assert_int_equal(planner_build(&p, &plan), 0);
	/* fio per cache mode: randread 3 depths x 2 engines less psync at 8
	 * and 32 = 4; randrw the same x 2 mixes = 8; and one dd cell. */
	assert_int_equal(plan.n_cells, 2 * (4 + 8 + 1));
	assert_int_equal(plan.n_excluded, 2 * (2 + 4));
	assert_int_not_equal(plan_cell_find(&plan, "lvm/raw/-/none/threads/virtio/fio/"
						   "rw=randread/qd=32/engine=io_uring"), -1);
	assert_int_not_equal(plan_cell_find(&plan, "lvm/raw/-/unsafe/threads/virtio/fio/"
						   "rw=randrw/qd=1/engine=psync/mix=70"), -1);
	/* dd has no knobs: its id is what it always was. */
	assert_int_not_equal(plan_cell_find(&plan, "lvm/raw/-/none/threads/virtio/dd"), -1);
	for (size_t i = 0; i < plan.n_cells; i++)
		assert_null(strstr(plan.cells[i].id, "bs="));
	for (size_t i = 0; i < plan.n_excluded; i++) {
		assert_non_null(strstr(plan.excluded[i].cell.id, "engine=psync"));
		assert_null(strstr(plan.excluded[i].cell.id, "qd=1"));
		assert_non_null(strstr(plan.excluded[i].reason, "psync is synchronous"));
	}
	/* The cell's knobs, and the profile's one bs. */
	struct fio_knobs k;
	ssize_t c = plan_cell_find(&plan, "lvm/raw/-/none/threads/virtio/fio/rw=randrw/"
					  "qd=8/engine=io_uring/mix=30");
	assert_true(c >= 0);
	plan_cell_fio(&p, &plan.cells[c], &k);
	assert_int_equal(k.rw, FIO_RW_RANDRW);
	assert_int_equal(k.iodepth, 8);
	assert_int_equal(k.ioengine, FIO_IOENGINE_IO_URING);
	assert_int_equal(k.rwmixread, 30);
	assert_int_equal(k.bs, 8192);
	plan_release(&plan);

	/* One value each: the ids of before, and auto resolved by depth. */
	if (load("[workload]\nkinds = fio\nfio_iodepth = 16\n", NULL, &p) < 0)
		fail_msg("%s", messages);
	assert_int_equal(planner_build(&p, &plan), 0);
	assert_int_equal(plan.n_cells, 1);
	assert_string_equal(plan.cells[0].id, "lvm/raw/-/none/threads/virtio/fio");
	plan_cell_fio(&p, &plan.cells[0], &k);
	assert_int_equal(k.ioengine, FIO_IOENGINE_LIBAIO);
	plan_release(&plan);
}

static int setup(void **state)
{
	(void)state;
	message_stream = open_memstream(&messages, &messages_len);
	log_set_stream(message_stream);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	log_set_stream(NULL);
	fclose(message_stream);
	free(messages);
	messages = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_job_file),
		cmocka_unit_test(test_fio_refuses),
		cmocka_unit_test(test_job_files),
		cmocka_unit_test(test_no_target),
		cmocka_unit_test(test_other_refusals),
		cmocka_unit_test(test_kit_settings),
		cmocka_unit_test(test_steadystate_key),
		cmocka_unit_test(test_bad_knobs),
		cmocka_unit_test(test_engine_the_fio_lacks),
		cmocka_unit_test(test_axes_in_the_plan),
	};
	char cmd[600];

	if (!mkdtemp(tmpdir))
		return 1;
	int r = cmocka_run_group_tests(tests, setup, teardown);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return unit_result(r);
}
