/* A host crash and what it relies on (runner/crashsteps.h,
 * runner/hostcrash.h): the steps before the trigger in their order, each
 * way recorded before it acts, what is put back when the host stays up;
 * atomicfile's directory fsync and the reset's sync (lib/atomicfile.h,
 * runner/volreset.h); a stale crash file (runner/sweep_crash.c).
 *
 * The crash is driven as the sweep drives it: hostcrash_prepare loads
 * "kexec" through the command runner (a stand-in on PATH) and reads
 * kexec_loaded, hostcrash_reboot stops a real process standing for QEMU
 * (two threads, one rewriting meminfo's Dirty as fast as it can) and
 * syncs RESULTS with syncfs(2).  The host's knobs are files in a
 * directory and reboot(2) is a function here: nothing of this machine is
 * changed.  fsync and syncfs are wrapped (the link's --wrap) to see what
 * is synced, and when. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "atomicfile.h"
#include "crashsteps.h"
#include "dirs.h"
#include "files.h"
#include "guestproto.h"
#include "hostcrash.h"
#include "journal.h"
#include "loader.h"
#include "planner.h"
#include "sweep.h"
#include "testfile.h"
#include "volreset.h"

/* --- fsync and syncfs, seen ------------------------------------------------ */

#define EVENTS_MAX 32
/* "fsync PATH", "fsync DIR [entry,entry]" (a directory, with what it held
 * then), "syncfs PATH". */
static char events[EVENTS_MAX][PATH_MAX + 256];
static size_t n_events;
/* Called at syncfs, before the real one. */
static void (*at_syncfs)(const char *path);

int __real_fsync(int fd);
int __real_syncfs(int fd);
int __wrap_fsync(int fd);
int __wrap_syncfs(int fd);

static void fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

static void note(const char *what, int fd)
{
	char path[PATH_MAX], list[512] = "";
	struct stat st;

	if (n_events == EVENTS_MAX)
		return;
	fd_path(fd, path, sizeof(path));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int n = scandir(path, &names, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.64s",
					 *list ? "," : "", names[i]->d_name);
			free(names[i]);
		}
		if (n >= 0)
			free(names);
		snprintf(events[n_events++], sizeof(events[0]), "%s %s [%s]", what, path, list);
	} else {
		snprintf(events[n_events++], sizeof(events[0]), "%s %s", what, path);
	}
}

int __wrap_fsync(int fd)
{
	note("fsync", fd);
	return __real_fsync(fd);
}

int __wrap_syncfs(int fd)
{
	char path[PATH_MAX];

	note("syncfs", fd);
	fd_path(fd, path, sizeof(path));
	if (at_syncfs)
		at_syncfs(path);
	return __real_syncfs(fd);
}

static void clear_events(void)
{
	n_events = 0;
}

/* --- atomicfile, the reset's sync ------------------------------------------ */

static int write_text(const void *ctx, FILE *f)
{
	return fputs(ctx, f) < 0 ? -EIO : 0;
}

/* The new file's name is in its directory when the call returns: the
 * directory is synced after the rename, the file before it. */
static void test_atomicfile_syncs_its_directory(void **state)
{
	char dir[] = "/tmp/test-crashsteps.XXXXXX", want[PATH_MAX + 64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	clear_events();
	assert_int_equal(atomicfile_write(dir, "plan.json", write_text, "{}\n"), 0);
	assert_int_equal(n_events, 2);
	snprintf(want, sizeof(want), "fsync %s/.plan.json.tmp", dir);
	assert_string_equal(events[0], want);
	snprintf(want, sizeof(want), "fsync %s [plan.json]", dir);
	assert_string_equal(events[1], want);
	/* Written again: the same, over the old one. */
	clear_events();
	assert_int_equal(atomicfile_write(dir, "plan.json", write_text, "{\"a\":1}\n"), 0);
	assert_string_equal(events[1], want);
	assert_int_equal(files_remove_tree(dir), 0);
}

/* A file volume's reset is synced, and so is its directory (the full
 * reset makes the file anew). */
static void test_reset_synced(void **state)
{
	char dir[] = "/tmp/test-crashsteps.XXXXXX", want[PATH_MAX + 64];
	struct storage_volume v = {.format = IMAGE_FORMAT_QCOW2};

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(v.path, sizeof(v.path), "%s/qcow2.img", dir);
	write_file(dir, "qcow2.img", "reset");
	clear_events();
	assert_int_equal(volreset_sync(&v), 0);
	assert_int_equal(n_events, 2);
	snprintf(want, sizeof(want), "fsync %s", v.path);
	assert_string_equal(events[0], want);
	snprintf(want, sizeof(want), "fsync %s [qcow2.img]", dir);
	assert_string_equal(events[1], want);
	/* A volume that is not there: said, not passed over. */
	snprintf(v.path, sizeof(v.path), "%s/gone.img", dir);
	assert_int_equal(volreset_sync(&v), -ENOENT);
	assert_int_equal(files_remove_tree(dir), 0);
}

/* --- the crash -------------------------------------------------------------- */

static char top[] = "/tmp/test-crashsteps.XXXXXX";
static char vm[PATH_MAX], meminfo[PATH_MAX], sysrq[PATH_MAX], block[PATH_MAX],
	loaded[PATH_MAX], results[PATH_MAX];
static pid_t qemu;

/* What the host looked like at each reboot(2) call. */
struct seen {
	int how;
	bool qemu_stopped;
	char writeback[32], expire[32], dirty_bytes[32], background_bytes[32];
	char min_ratio_disk[8], min_ratio_lv[8], stat_refresh[8];
	bool crash_file;
	struct crashfacts facts;
	int64_t dirty_now; /* meminfo's Dirty then */
};
static struct seen at_reboot[4];
static size_t n_reboots;
/* At syncfs of RESULTS. */
static bool synced_results, qemu_stopped_at_sync;
static char writeback_at_sync[32];

static void read_knob(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = '\0';
	if ((f = fopen(path, "r"))) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* DIR/SUB, made with its parents. */
static void make_dir(const char *dir, const char *sub)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	assert_int_equal(dirs_make(path, 0755), 0);
}

static void put_knob(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*strrchr(path, '/') = '\0';
	assert_int_equal(dirs_make(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

/* Every thread of PID stopped (or gone). */
static bool stopped(pid_t pid)
{
	char dir[64], path[PATH_MAX], stat[512];
	struct dirent *e;
	bool all = true;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s/stat", dir, e->d_name);
			FILE *f = fopen(path, "r");
			if (f && fgets(stat, sizeof(stat), f)) {
				const char *p = strrchr(stat, ')');
				all &= p && (p[2] == 'T' || p[2] == 't');
			}
			if (f)
				fclose(f);
		}
	closedir(d);
	return all;
}

static int64_t dirty_in(const char *path)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Dirty: %lld kB", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* RESULTS synced: its pages are written, so the Dirty the facts read
 * after it is this one (4242 kB), not QEMU's counter. */
static void results_synced(const char *path)
{
	char tmp[PATH_MAX + 8];

	if (strcmp(path, results) != 0)
		return;
	synced_results = true;
	qemu_stopped_at_sync = stopped(qemu);
	/* Written again by the facts' step, after this. */
	put_knob(vm, "stat_refresh", "");
	read_knob(vm, "dirty_writeback_centisecs", writeback_at_sync, sizeof(writeback_at_sync));
	snprintf(tmp, sizeof(tmp), "%s.sync", meminfo);
	FILE *f = fopen(tmp, "w");
	if (f) {
		fputs("MemTotal: 2000000 kB\nDirty: 4242 kB\nWriteback: 8 kB\n", f);
		fclose(f);
		rename(tmp, meminfo);
	}
}

static int fake_reboot(int how)
{
	struct seen *s = &at_reboot[n_reboots < 4 ? n_reboots++ : 3];
	char path[PATH_MAX];
	struct hostcrash c;

	memset(s, 0, sizeof(*s));
	s->how = how;
	s->qemu_stopped = stopped(qemu);
	read_knob(vm, "dirty_writeback_centisecs", s->writeback, sizeof(s->writeback));
	read_knob(vm, "dirty_expire_centisecs", s->expire, sizeof(s->expire));
	read_knob(vm, "dirty_bytes", s->dirty_bytes, sizeof(s->dirty_bytes));
	read_knob(vm, "dirty_background_bytes", s->background_bytes, sizeof(s->background_bytes));
	read_knob(block, "vdz/bdi/min_ratio", s->min_ratio_disk, sizeof(s->min_ratio_disk));
	read_knob(block, "dm-3/bdi/min_ratio", s->min_ratio_lv, sizeof(s->min_ratio_lv));
	read_knob(vm, "stat_refresh", s->stat_refresh, sizeof(s->stat_refresh));
	hostcrash_path(results, 17, path, sizeof(path));
	s->crash_file = hostcrash_read(path, &c) == 0;
	if (s->crash_file) {
		s->facts = c.facts;
		hostcrash_release(&c);
	}
	s->dirty_now = dirty_in(meminfo);
	errno = EPERM;
	return -1;
}

static const struct crashsteps_host fake_host = {
	.vm = vm, .meminfo = meminfo, .sys_block = block, .sysrq = sysrq,
	.kexec_loaded = loaded, .reboot = fake_reboot,
};

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* The stand-in for QEMU: two threads, one of them rewriting meminfo's
 * Dirty (an ever larger count) until it is stopped. */
static pid_t start_qemu(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t t;
		char tmp[PATH_MAX + 8];
		/* Gone with the test, holding none of its output open. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_RDWR);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		pthread_create(&t, NULL, idle_thread, NULL);
		snprintf(tmp, sizeof(tmp), "%s.qemu", meminfo);
		for (unsigned long i = 1;; i++) {
			FILE *f = fopen(tmp, "w");
			if (f) {
				fprintf(f, "MemTotal: 2000000 kB\nDirty: %lu kB\nWriteback: 8 kB\n", i);
				fclose(f);
				rename(tmp, meminfo);
			}
		}
	}
	while (dirty_in(meminfo) < 10)
		usleep(1000);
	return pid;
}

static void end_qemu(void)
{
	if (qemu <= 0)
		return;
	kill(qemu, SIGKILL);
	waitpid(qemu, NULL, 0);
	qemu = 0;
}

/* A test that failed half-way leaves its QEMU: ended here. */
static int end_test(void **state)
{
	(void)state;
	end_qemu();
	return 0;
}

static int setup_host(void **state)
{
	char path[PATH_MAX];

	(void)state;
	if (!mkdtemp(top))
		return -1;
	snprintf(vm, sizeof(vm), "%s/proc/sys/vm", top);
	snprintf(meminfo, sizeof(meminfo), "%s/proc/meminfo", top);
	snprintf(sysrq, sizeof(sysrq), "%s/proc/sysrq-trigger", top);
	snprintf(block, sizeof(block), "%s/sys/block", top);
	snprintf(loaded, sizeof(loaded), "%s/sys/kernel/kexec_loaded", top);
	snprintf(results, sizeof(results), "%s/results", top);
	/* Before anything can reach reboot(2). */
	crashsteps_set_host(&fake_host);
	/* A kexec on PATH that loads nothing, and the kernel it is given. */
	snprintf(path, sizeof(path), "%s/bin/kexec", top);
	put_knob(top, "bin/kexec", "#!/bin/sh\necho \"$@\" >\"$0.args\"");
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/bin:%s", top, getenv("PATH"));
	setenv("PATH", path, 1);
	put_knob(top, "vmlinuz", "kernel");
	put_knob(top, "initrd", "initramfs");
	put_knob(top, "results/console/run-0017.acks", "1\n");
	return 0;
}

static int teardown_host(void **state)
{
	(void)state;
	crashsteps_set_host(NULL);
	return files_remove_tree(top);
}

/* The host's knobs as a Debian kernel starts with them. */
static void reset_knobs(void)
{
	put_knob(vm, "dirty_writeback_centisecs", "500");
	put_knob(vm, "dirty_expire_centisecs", "3000");
	put_knob(vm, "dirty_bytes", "0");
	put_knob(vm, "dirty_ratio", "20");
	put_knob(vm, "dirty_background_bytes", "0");
	put_knob(vm, "dirty_background_ratio", "10");
	put_knob(vm, "stat_refresh", "");
	put_knob(block, "vdz/queue/write_cache", "write back");
	put_knob(block, "vdz/bdi/min_ratio", "0");
	/* An LV on the disk's first partition. */
	make_dir(block, "vdz/vdz1/holders/dm-3");
	make_dir(block, "dm-3/holders");
	put_knob(block, "dm-3/bdi/min_ratio", "0");
	put_knob(top, "proc/sysrq-trigger", "");
	put_knob(top, "sys/kernel/kexec_loaded", "1");
	n_reboots = 0;
	synced_results = qemu_stopped_at_sync = false;
	at_syncfs = results_synced;
}

static struct hostcrash crash_at_17(void)
{
	struct hostcrash c = {.cell = "lvm/raw/-/unsafe/threads/virtio/durability",
			      .index = 1, .position = 17, .acks = 1, .ack_seconds = NAN,
			      .reset = "full", .run_seconds = 30, .crashed_at = 1796000000};
	c.records = strdup(GUESTPROTO_TAG GUESTPROTO_RECORDS " size=4096 count=60 extents=0:8192:245760");
	return c;
}

/* The knobs as reset_knobs left them: put back after a crash that did
 * not take the host down. */
static void check_knobs_back(void)
{
	static const char *const back[][3] = {
		{vm, "dirty_writeback_centisecs", "500"},
		{vm, "dirty_expire_centisecs", "3000"},
		{vm, "dirty_ratio", "20"},
		{vm, "dirty_background_ratio", "10"},
		{block, "vdz/bdi/min_ratio", "0"},
		{block, "dm-3/bdi/min_ratio", "0"},
	};
	char v[32];

	for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		read_knob(back[i][0], back[i][1], v, sizeof(v));
		assert_string_equal(v, back[i][2]);
	}
}

/* What the host was at a reboot(2) call: QEMU stopped, writeback off,
 * the crash file there with the facts read after RESULTS' sync, and the
 * steps' times in their order. */
static void check_at_reboot(const struct seen *s, const char *mechanism)
{
	assert_true(s->qemu_stopped);
	assert_string_equal(s->writeback, "0");
	assert_string_equal(s->expire, "8640000");
	assert_true(strtoull(s->dirty_bytes, NULL, 10) >= (1ULL << 40));
	assert_string_equal(s->background_bytes, s->dirty_bytes);
	/* 50 over the disk and the LV on it. */
	assert_string_equal(s->min_ratio_disk, "25");
	assert_string_equal(s->min_ratio_lv, "25");
	/* meminfo's counters folded after RESULTS' sync, for the facts. */
	assert_string_equal(s->stat_refresh, "1");
	assert_true(s->crash_file);
	assert_string_equal(s->facts.mechanism, mechanism);
	assert_int_equal(s->facts.dirty_kib, 4242);
	assert_int_equal(s->dirty_now, 4242);
	assert_int_equal(s->facts.writeback_kib, 8);
	assert_string_equal(s->facts.disk_write_cache, "on");
	assert_true(s->facts.qemu_stopped_seconds >= 0);
	assert_true(s->facts.qemu_stopped_seconds <= s->facts.writeback_stopped_seconds);
	assert_true(s->facts.writeback_stopped_seconds <= s->facts.results_synced_seconds);
	assert_true(s->facts.results_synced_seconds <= s->facts.facts_read_seconds);
}

/* kexec readied: the steps, then the kexec, recorded first; when it
 * returns, sysrq b, then reboot(2)'s restart, each recorded with why the
 * ways before it were not taken; still up, the settings are put back and
 * the crash file removed. */
static void test_crash_by_kexec(void **state)
{
	char path[PATH_MAX], args[256];
	struct hostcrash c = crash_at_17();

	(void)state;
	reset_knobs();
	snprintf(path, sizeof(path), "%s/vmlinuz", top);
	char initrd[PATH_MAX];
	snprintf(initrd, sizeof(initrd), "%s/initrd", top);
	hostcrash_prepare(CRASH_REBOOT_KEXEC, path, initrd, NULL, "vdz");
	read_knob(top, "bin/kexec.args", args, sizeof(args));
	assert_non_null(strstr(args, "-s -l "));
	qemu = start_qemu();
	assert_int_equal(hostcrash_reboot(results, &c, qemu), -EPERM);
	assert_true(synced_results);
	assert_true(qemu_stopped_at_sync);
	assert_string_equal(writeback_at_sync, "0");
	assert_int_equal(n_reboots, 2);
	assert_int_equal(at_reboot[0].how, RB_KEXEC);
	check_at_reboot(&at_reboot[0], "kexec");
	assert_string_equal(at_reboot[0].facts.fallback, "");
	assert_int_equal(at_reboot[1].how, RB_AUTOBOOT);
	check_at_reboot(&at_reboot[1], "restart");
	assert_string_equal(at_reboot[1].facts.fallback,
			    "the kexec itself failed: Operation not permitted; "
			    "sysrq b: the host was still up after it");
	read_knob(top, "proc/sysrq-trigger", args, sizeof(args));
	assert_string_equal(args, "b");
	hostcrash_path(results, 17, path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
	check_knobs_back();
	end_qemu();
	hostcrash_release(&c);
}

/* The firmware asked, and no sysrq: reboot(2)'s restart, recorded as
 * such with the reason. */
static void test_crash_without_sysrq(void **state)
{
	struct hostcrash c = crash_at_17();

	(void)state;
	reset_knobs();
	unlink(sysrq);
	hostcrash_prepare(CRASH_REBOOT_FIRMWARE, NULL, NULL, NULL, "vdz");
	qemu = start_qemu();
	assert_int_equal(hostcrash_reboot(results, &c, qemu), -EPERM);
	assert_int_equal(n_reboots, 1);
	assert_int_equal(at_reboot[0].how, RB_AUTOBOOT);
	check_at_reboot(&at_reboot[0], "restart");
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), "%s: No such file or directory", sysrq);
	assert_string_equal(at_reboot[0].facts.fallback, want);
	check_knobs_back();
	end_qemu();
	hostcrash_release(&c);
}

/* A QEMU that cannot be stopped (gone): the host stays up, nothing is
 * changed, no crash file is left. */
static void test_no_qemu_no_crash(void **state)
{
	char path[PATH_MAX];
	struct hostcrash c = crash_at_17();

	(void)state;
	reset_knobs();
	hostcrash_prepare(CRASH_REBOOT_FIRMWARE, NULL, NULL, NULL, "vdz");
	qemu = start_qemu();
	pid_t gone = qemu;
	end_qemu();
	assert_int_equal(hostcrash_reboot(results, &c, gone), -ESRCH);
	assert_int_equal(n_reboots, 0);
	assert_false(synced_results);
	hostcrash_path(results, 17, path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
	check_knobs_back();
	hostcrash_release(&c);
}

/* --- a stale crash file ------------------------------------------------------ */

/* Three crashes planned: run 1 journaled with its crash file still there
 * (the boot went down before its removal was on the disk), run 2's crash
 * file to finish, run 3 to make: one crash left, not none; finishing
 * journals run 2 and removes both files. */
static void test_stale_crash_file(void **state)
{
	static const char ini[] = "[storage]\nbackends = lvm\n[guest]\ncache = unsafe\n"
				  "[workload]\nkinds = durability\ncrash = host\n[sweep]\nruns = 3\n";
	char dir[] = "/tmp/test-crashsteps.XXXXXX", journal[PATH_MAX], path[PATH_MAX];
	struct profile p;
	struct plan plan;
	struct journal_run jr;
	struct journal j;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_dir(dir, "console");
	assert_int_equal(loader_load_buffer("t.ini", ini, strlen(ini), &p), 0);
	assert_int_equal(planner_build(&p, &plan), 0);
	assert_int_equal(plan.n_cells, 1);
	assert_int_equal(plan.n_runs, 3);
	assert_true(hostcrash_planned(&plan));
	snprintf(journal, sizeof(journal), "%s/runs.jsonl", dir);
	journal_run_init(&jr);
	jr.cell = plan.cells[0];
	jr.index = 0;
	snprintf(jr.status, sizeof(jr.status), "ok");
	assert_int_equal(journal_append(journal, &jr), 0);
	journal_run_release(&jr);
	for (unsigned i = 0; i < 2; i++) {
		struct hostcrash c = crash_at_17();
		snprintf(c.cell, sizeof(c.cell), "%s", plan.cells[0].id);
		c.index = i;
		c.position = i;
		crashfacts_init(&c.facts);
		c.facts.present = true;
		snprintf(c.facts.mechanism, sizeof(c.facts.mechanism), "kexec");
		assert_int_equal(hostcrash_write(dir, &c), 0);
		hostcrash_release(&c);
	}
	assert_int_equal(sweep_host_crashes_left(&plan, dir), 1);
	struct sweep_env env = {.plan = &plan, .results_dir = dir};
	assert_int_equal(sweep_finish_crashes(&env), 0);
	for (unsigned i = 0; i < 2; i++) {
		hostcrash_path(dir, i, path, sizeof(path));
		assert_int_equal(access(path, F_OK), -1);
	}
	assert_int_equal(journal_read(journal, &j), 0);
	assert_int_equal(j.n_runs, 2);
	assert_int_equal(j.runs[1].index, 1);
	assert_string_equal(j.runs[1].host_crash.mechanism, "kexec");
	journal_release(&j);
	assert_int_equal(sweep_host_crashes_left(&plan, dir), 1);
	plan_release(&plan);
	assert_int_equal(files_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomicfile_syncs_its_directory),
		cmocka_unit_test(test_reset_synced),
		cmocka_unit_test_teardown(test_crash_by_kexec, end_test),
		cmocka_unit_test_teardown(test_crash_without_sysrq, end_test),
		cmocka_unit_test_teardown(test_no_qemu_no_crash, end_test),
		cmocka_unit_test(test_stale_crash_file),
	};
	return cmocka_run_group_tests(tests, setup_host, teardown_host);
}
