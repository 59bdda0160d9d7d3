/* The workloads the guest agent runs, on the disk under test mounted at
 * AGENT_MNT.  Timed workloads print METRIC lines; fio and bonnie++ print
 * their raw output, which the host parses (runner/results.c). */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "agent.h"
#include "fioargs.h"
#include "guestproto.h"
#include "monotonic.h"
#include "records.h"

/* The work directory on the disk under test (agent_mnt/work). */
static char work_dir[512];
static char work_file[600];

static const char *work(void)
{
	snprintf(work_dir, sizeof(work_dir), "%s/" GUESTPROTO_WORK_DIR, agent_mnt);
	return work_dir;
}

/* NAME in the work directory. */
static const char *work_path(const char *name)
{
	snprintf(work_file, sizeof(work_file), "%s/%s", work(), name);
	return work_file;
}

static int run_checked(const char *const *argv, const char *frame)
{
	int r = agent_run(argv, frame);
	if (r > 0)
		return agent_error("%s exited with status %d", argv[0], r);
	return r;
}

static int make_work_dir(void)
{
	if (mkdir(work(), 0755) < 0 && errno != EEXIST)
		return agent_error("cannot create %s: %s", work(),
				   strerror(errno));
	return 0;
}

static int drop_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return agent_error("cannot drop caches: %s", strerror(e));
	}
	close(fd);
	return 0;
}

/* busybox tar does not sniff compression: pick the flag from the magic. */
static const char *tar_flag(const char *path)
{
	unsigned char m[6] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t r = read(fd, m, sizeof(m));
		(void)r;
		close(fd);
	}
	if (m[0] == 0x1f && m[1] == 0x8b)
		return "-z";
	if (memcmp(m, "\xfd" "7zXZ", 5) == 0)
		return "-J";
	if (memcmp(m, "BZh", 3) == 0)
		return "-j";
	return NULL;
}

static int tarball_write(void)
{
	char path[256];
	const char *name = agent_param("tarball");
	snprintf(path, sizeof(path), "%s/" GUESTPROTO_DATA_DIR "/%s",
		 agent_mnt, name ? name : GUESTPROTO_TARBALL);
	if (access(path, R_OK) < 0)
		return agent_error("tarball %s: %s", path, strerror(errno));
	if (make_work_dir() < 0)
		return -1;
	const char *flag = tar_flag(path);
	const char *argv[] = {"/usr/bin/busybox", "tar", "-x", "-f", path,
			      "-C", work(), flag, NULL};
	double t0 = monotonic_seconds();
	if (run_checked(argv, NULL) < 0)
		return -1;
	sync();
	agent_metric("write_seconds", monotonic_seconds() - t0, "s");
	return 0;
}

static uint64_t read_bytes, read_files;
static char *read_buf;

static int read_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type != FTW_F)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return agent_error("cannot open %s: %s", path, strerror(errno));
	ssize_t n;
	while ((n = read(fd, read_buf, 1 << 20)) > 0)
		read_bytes += n;
	int e = errno;
	close(fd);
	if (n < 0)
		return agent_error("cannot read %s: %s", path, strerror(e));
	read_files++;
	return 0;
}

static int tarball_read(void)
{
	char tree[512];
	snprintf(tree, sizeof(tree), "%s/" GUESTPROTO_TREE_DIR, agent_mnt);
	if (drop_caches() < 0)
		return -1;
	read_buf = malloc(1 << 20);
	if (!read_buf)
		return agent_error("out of memory");
	double t0 = monotonic_seconds();
	int r = nftw(tree, read_one, 32, FTW_PHYS);
	double secs = monotonic_seconds() - t0;
	free(read_buf);
	if (r < 0)
		return agent_error("cannot walk %s: %s", tree, strerror(errno));
	if (r > 0)
		return -1;
	agent_metric("read_seconds", secs, "s");
	agent_metric("read_bytes", (double)read_bytes, "B");
	agent_metric("read_files", (double)read_files, "files");
	return 0;
}

static int bonnie(void)
{
	uint64_t size, fast;
	if (agent_param_u64("bonnie_size", 256ull << 20, &size) < 0 ||
	    agent_param_u64("bonnie_fast", 0, &fast) < 0)
		return -1;
	uint64_t mb = size >> 20;
	if (mb < 2)
		return agent_error("bonnie_size must be at least 2 MiB");
	if (make_work_dir() < 0)
		return -1;
	char s[32], ram[32];
	snprintf(s, sizeof(s), "%" PRIu64, mb);
	/* bonnie++ wants a file twice the RAM size; -r states a RAM size
	 * that lets the profile choose the file size. */
	snprintf(ram, sizeof(ram), "%" PRIu64, mb / 2);
	const char *argv[] = {"/usr/sbin/bonnie++", "-d", work(), "-s", s,
			      "-r", ram, "-n", "0", "-u", "root", "-m",
			      "guest", "-q", fast ? "-f" : NULL, NULL};
	return run_checked(argv, "bonnie");
}

/* Whether DISK (or a partition of it) holds a mounted filesystem, the
 * guest's root among them: fio on the device would overwrite it. */
static bool disk_in_use(const char *disk)
{
	struct stat root, dev;
	char line[1024];
	size_t len = strlen(disk);
	bool used = false;

	if (stat("/", &root) == 0 && stat(disk, &dev) == 0 && S_ISBLK(dev.st_mode) &&
	    major(root.st_dev) == major(dev.st_rdev) &&
	    minor(root.st_dev) - minor(dev.st_rdev) < 16)
		return true;
	FILE *f = fopen("/proc/mounts", "re");
	while (f && !used && fgets(line, sizeof(line), f))
		used = strncmp(line, disk, len) == 0;
	if (f)
		fclose(f);
	return used;
}

/* 1 when the kernel has DEV read-only (the host gave the disk as such:
 * the runner does for a guest that only reads it), 0 when writable, -1
 * when it cannot tell. */
static int disk_read_only(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	int ro = -1;

	if (fd < 0)
		return -1;
	if (ioctl(fd, BLKROGET, &ro) < 0)
		ro = -1;
	close(fd);
	return ro < 0 ? -1 : ro != 0;
}

bool workload_on_device(const char *kind)
{
	const char *target = agent_param("fio_target");

	return strcmp(kind, "fio") == 0 && target && strcmp(target, "device") == 0;
}

/* The kit's fio settings of the command line (buildapp.fio_direct...),
 * as fio's global options (lib/fioargs.h): before the job, every job's
 * unless it sets its own.  Returns how many, or -1 after an error. */
static int fio_globals(char out[][FIOARGS_LEN])
{
	uint64_t direct, fsync_n, runtime, ramp, ss_dur, ss_ramp;
	struct fioargs a;
	const char *ss = agent_param("fio_steadystate");

	if (agent_param_u64("fio_direct", 0, &direct) < 0 ||
	    agent_param_u64("fio_fsync", 0, &fsync_n) < 0 ||
	    agent_param_u64("fio_runtime", 0, &runtime) < 0 ||
	    agent_param_u64("fio_ramp", 0, &ramp) < 0 ||
	    agent_param_u64("fio_ss_duration", 0, &ss_dur) < 0 ||
	    agent_param_u64("fio_ss_ramp", 0, &ss_ramp) < 0)
		return -1;
	if (fsync_n > 1000000 || runtime > 86400 || ramp > 86400 || ss_dur > 86400 ||
	    ss_ramp > 86400)
		return agent_error("fio_fsync, fio_runtime, fio_ramp or fio_ss_ out of range");
	a = (struct fioargs){.direct = direct != 0, .fsync = (unsigned)fsync_n,
			     .runtime = (unsigned)runtime, .ramp = (unsigned)ramp,
			     .ss_dur = (unsigned)ss_dur, .ss_ramp = (unsigned)ss_ramp};
	if (ss && (strlen(ss) >= sizeof(a.ss) || !fioargs_steadystate_ok(ss, NULL, 0)))
		return agent_error("bad fio_steadystate '%s'", ss);
	snprintf(a.ss, sizeof(a.ss), "%s", ss ? ss : "");
	return (int)fioargs_globals(&a, out);
}

/* A fio job file (buildapp.fio_job=PATH): its target and the cell's
 * knobs reach it as environment variables, which fio expands in the file
 * (${BUILDAPP_TARGET}...: lib/guestproto.h, docs/guest-protocol.md), and
 * the kit's settings as fio's global options before it.  Its output is
 * framed as "fio-jobs": the host names each job's metrics. */
static int fio_job_file(const char *job, const char *target, const char *rw,
			const uint64_t *v, const char *engine)
{
	char env[13][640], globals[FIOARGS_MAX][FIOARGS_LEN];
	char *envp[14];
	const char *argv[FIOARGS_MAX + 4];
	size_t n = 0, k = 0;
	int ng = fio_globals(globals);

	if (ng < 0)
		return -1;
	if (access(job, R_OK) < 0)
		return agent_error("fio job file %s: %s", job, strerror(errno));
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_TARGET=%s", target);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_DIR=%s", work());
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_BS=%" PRIu64, v[0]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_IODEPTH=%" PRIu64, v[1]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_NUMJOBS=%" PRIu64, v[2]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_IOENGINE=%s", engine);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_RW=%s", rw);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_RWMIXREAD=%" PRIu64, v[3]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_SIZE=%" PRIu64, v[4]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_RUNTIME=%" PRIu64, v[5]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_DIRECT=%" PRIu64, v[6]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_FSYNC=%" PRIu64, v[7]);
	snprintf(env[n++], sizeof(env[0]), "BUILDAPP_RAMP=%" PRIu64, v[8]);
	for (size_t i = 0; i < n; i++)
		envp[i] = env[i];
	envp[n] = NULL;
	argv[k++] = GUESTPROTO_FIO;
	argv[k++] = "--output-format=json";
	for (int i = 0; i < ng; i++)
		argv[k++] = globals[i];
	argv[k++] = job;
	argv[k] = NULL;
	int r = agent_run_env(argv, "fio-jobs", envp);
	if (r > 0)
		return agent_error("fio exited with status %d", r);
	return r;
}

static bool one_of(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return true;
	return false;
}

static int fio(void)
{
	static const char *const rws[] = {"read", "write", "randread",
					  "randwrite", "rw", "randrw"};
	static const char *const engines[] = {"psync", "libaio", "io_uring"};
	const char *rw = agent_param("fio_rw");
	if (!rw)
		rw = "randwrite";
	if (!one_of(rw, rws, sizeof(rws) / sizeof(rws[0])))
		return agent_error("bad fio_rw '%s'", rw);
	uint64_t bs, depth, size, direct, fsync_n, runtime, numjobs, mix, ramp;
	if (agent_param_u64("fio_bs", 4096, &bs) < 0 ||
	    agent_param_u64("fio_iodepth", 1, &depth) < 0 ||
	    agent_param_u64("fio_size", 64ull << 20, &size) < 0 ||
	    agent_param_u64("fio_direct", 0, &direct) < 0 ||
	    agent_param_u64("fio_fsync", 0, &fsync_n) < 0 ||
	    agent_param_u64("fio_runtime", 0, &runtime) < 0 ||
	    agent_param_u64("fio_ramp", 0, &ramp) < 0 ||
	    agent_param_u64("fio_numjobs", 1, &numjobs) < 0 ||
	    agent_param_u64("fio_rwmixread", 50, &mix) < 0)
		return -1;
	/* Without one: what the built-in job always did, psync at iodepth
	 * 1, libaio above (a queue needs an asynchronous engine). */
	const char *engine = agent_param("fio_ioengine");
	if (!engine)
		engine = depth > 1 ? "libaio" : "psync";
	if (!one_of(engine, engines, sizeof(engines) / sizeof(engines[0])))
		return agent_error("bad fio_ioengine '%s'", engine);
	if (numjobs < 1 || numjobs > 64 || mix > 100)
		return agent_error("bad fio_numjobs %" PRIu64 " or fio_rwmixread %" PRIu64,
				   numjobs, mix);
	const char *target = agent_param("fio_target");
	bool device = workload_on_device("fio");
	if (target && !device && strcmp(target, "file") != 0)
		return agent_error("bad fio_target '%s'", target);
	if (device && !agent_disk)
		return agent_error("fio_target=device needs the guest's disk: a host "
				   "cell runs on the guest's filesystem");
	if (device && disk_in_use(agent_disk))
		return agent_error("fio_target=device: %s holds a mounted filesystem "
				   "(the guest's root?): fio would overwrite it",
				   agent_disk);
	if (!device && make_work_dir() < 0)
		return -1;
	if (device)
		agent_line(GUESTPROTO_INFO, "fio_target=device file=%s read_only=%d",
			   agent_disk, disk_read_only(agent_disk));
	const char *file = device ? agent_disk : work_path("fio.dat");
	const char *job = agent_param("fio_job");
	if (job) {
		uint64_t v[] = {bs, depth, numjobs, mix, size, runtime, direct ? 1 : 0,
				fsync_n, ramp};
		return fio_job_file(job, file, rw, v, engine);
	}
	char a[8][64], fname[700], globals[FIOARGS_MAX][FIOARGS_LEN];
	const char *argv[FIOARGS_MAX + 16] = {GUESTPROTO_FIO, "--name=buildapp", fname,
					      "--output-format=json"};
	size_t n = 4, k = 0;
	int ng = fio_globals(globals);
	if (ng < 0)
		return -1;
	snprintf(fname, sizeof(fname), "--filename=%s", file);
	snprintf(a[k++], 64, "--rw=%s", rw);
	snprintf(a[k++], 64, "--bs=%" PRIu64, bs);
	snprintf(a[k++], 64, "--iodepth=%" PRIu64, depth);
	snprintf(a[k++], 64, "--size=%" PRIu64, size);
	snprintf(a[k++], 64, "--ioengine=%s", engine);
	if (numjobs > 1)
		snprintf(a[k++], 64, "--numjobs=%" PRIu64, numjobs);
	if (agent_param("fio_rwmixread"))
		snprintf(a[k++], 64, "--rwmixread=%" PRIu64, mix);
	for (size_t i = 0; i < k; i++)
		argv[n++] = a[i];
	for (int i = 0; i < ng; i++)
		argv[n++] = globals[i];
	/* Clones are one job to measure: fio sums them. */
	if (numjobs > 1)
		argv[n++] = "--group_reporting";
	argv[n] = NULL;
	return run_checked(argv, "fio");
}

/* dd as in the slow-guest-disk report (bs=4096 from /dev/zero), written
 * here so the flush policy is exact: fsync at the end, O_DSYNC per block,
 * or none. */
static int dd(void)
{
	uint64_t bs, count;
	if (agent_param_u64("dd_bs", 4096, &bs) < 0 ||
	    agent_param_u64("dd_count", 16384, &count) < 0)
		return -1;
	const char *sync_mode = agent_param("dd_sync");
	if (!sync_mode)
		sync_mode = "fsync";
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
	if (strcmp(sync_mode, "dsync") == 0)
		flags |= O_DSYNC;
	else if (strcmp(sync_mode, "fsync") != 0 &&
		 strcmp(sync_mode, "none") != 0)
		return agent_error("bad dd_sync '%s'", sync_mode);
	if (bs == 0 || bs > (64u << 20))
		return agent_error("bad dd_bs %" PRIu64, bs);
	if (make_work_dir() < 0)
		return -1;
	char *buf = calloc(1, bs);
	if (!buf)
		return agent_error("out of memory");
	const char *path = work_path("dd.dat");
	int fd = open(path, flags, 0644);
	if (fd < 0) {
		free(buf);
		return agent_error("cannot create %s: %s", path,
				   strerror(errno));
	}
	double t0 = monotonic_seconds();
	int r = 0;
	for (uint64_t i = 0; i < count && r == 0; i++)
		if (write(fd, buf, bs) != (ssize_t)bs)
			r = agent_error("write %s: %s", path, strerror(errno));
	if (r == 0 && strcmp(sync_mode, "fsync") == 0 && fsync(fd) < 0)
		r = agent_error("fsync %s: %s", path, strerror(errno));
	double secs = monotonic_seconds() - t0;
	close(fd);
	free(buf);
	if (r < 0)
		return r;
	agent_metric("dd_seconds", secs, "s");
	agent_metric("dd_mbps", secs > 0 ? bs * count / 1e6 / secs : 0,
		     "MB/s");
	return 0;
}

#define RECORDS_EXTENTS_MAX 32

/* Where PATH's bytes are on the disk: one RECORDS line, with each extent
 * as file offset:disk offset:length in bytes, so the host can read the
 * records back from the volume without the filesystem. */
static int print_records_extents(int fd, const char *path, uint64_t size,
				 uint64_t count)
{
	char buf[sizeof(struct fiemap) +
		 RECORDS_EXTENTS_MAX * sizeof(struct fiemap_extent)];
	struct fiemap *fm = (struct fiemap *)buf;
	char line[RECORDS_EXTENTS_MAX * 64], *at = line;

	memset(buf, 0, sizeof(buf));
	fm->fm_length = size * count;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = RECORDS_EXTENTS_MAX;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
		return agent_error("FIEMAP %s: %s", path, strerror(errno));
	if (fm->fm_mapped_extents == 0 ||
	    !(fm->fm_extents[fm->fm_mapped_extents - 1].fe_flags & FIEMAP_EXTENT_LAST))
		return agent_error("%s has more than %d extents or none",
				   path, RECORDS_EXTENTS_MAX);
	*at = '\0';
	for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];
		if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED |
				   FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_NOT_ALIGNED))
			return agent_error("%s: extent %u is not plain data "
					   "(flags 0x%x)", path, i, e->fe_flags);
		at += snprintf(at, line + sizeof(line) - at, "%s%llu:%llu:%llu",
			       i ? "," : "", (unsigned long long)e->fe_logical,
			       (unsigned long long)e->fe_physical,
			       (unsigned long long)e->fe_length);
	}
	agent_line(GUESTPROTO_RECORDS, "size=%" PRIu64 " count=%" PRIu64
		   " extents=%s", size, count, line);
	return 0;
}

/* Numbered, self-checking records (lib/records.h) written in place over
 * the image's blank records file, each followed by the flush asked for
 * and then acknowledged on the console.  The run ends with the crash the
 * host causes (docs/results.md): when every record is acknowledged, the
 * agent waits for it rather than end the run itself. */
static int durability(void)
{
	uint64_t count, size, run;
	if (agent_param_u64("records", 1000, &count) < 0 ||
	    agent_param_u64("record_size", 4096, &size) < 0 ||
	    agent_param_u64("run", 0, &run) < 0)
		return -1;
	if (size < RECORDS_SIZE_MIN || size > RECORDS_SIZE_MAX ||
	    size % RECORDS_SECTOR || count == 0)
		return agent_error("bad records=%" PRIu64 " record_size=%" PRIu64,
				   count, size);
	const char *flush = agent_param("flush");
	if (!flush)
		flush = "fdatasync";
	int flags = O_RDWR | O_CLOEXEC;
	if (strcmp(flush, "dsync") == 0)
		flags |= O_DSYNC;
	else if (strcmp(flush, "fdatasync") != 0 && strcmp(flush, "fsync") != 0)
		return agent_error("bad flush '%s'", flush);
	const char *path = work_path(RECORDS_FILE);
	int fd = open(path, flags);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return agent_error("cannot open %s: %s", path, strerror(errno));
	if ((uint64_t)st.st_size < count * size) {
		close(fd);
		return agent_error("%s holds %lld bytes, not the %" PRIu64
				   " of %" PRIu64 " records", path,
				   (long long)st.st_size, count * size, count);
	}
	char *buf = malloc(size);
	if (!buf || print_records_extents(fd, path, size, count) < 0) {
		free(buf);
		close(fd);
		return buf ? -1 : agent_error("out of memory");
	}
	for (uint64_t seq = 0; seq < count; seq++) {
		records_fill(buf, size, seq, run);
		int r = 0;
		if (pwrite(fd, buf, size, (off_t)(seq * size)) != (ssize_t)size)
			r = agent_error("write %s: %s", path, strerror(errno));
		else if (strcmp(flush, "fdatasync") == 0 && fdatasync(fd) < 0)
			r = agent_error("fdatasync %s: %s", path, strerror(errno));
		else if (strcmp(flush, "fsync") == 0 && fsync(fd) < 0)
			r = agent_error("fsync %s: %s", path, strerror(errno));
		if (r < 0) {
			free(buf);
			close(fd);
			return r;
		}
		agent_line(GUESTPROTO_ACK, "seq=%" PRIu64, seq);
	}
	free(buf);
	agent_line(GUESTPROTO_INFO, "records=all-acknowledged");
	for (;;)
		pause();
}

int workload_run(const char *kind)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} table[] = {
		{"tarball-write", tarball_write},
		{"tarball-read", tarball_read},
		{"bonnie", bonnie},
		{"fio", fio},
		{"dd", dd},
		{"durability", durability},
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(kind, table[i].name) == 0) {
			double t0 = monotonic_seconds();
			int r = table[i].fn();
			if (r == 0)
				agent_metric("workload_seconds",
					     monotonic_seconds() - t0, "s");
			return r;
		}
	return agent_error("unknown workload '%s'", kind);
}
