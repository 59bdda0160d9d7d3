#include "jobscan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "keyref.h"
#include "parse.h"

#define VAR_NAME(name, doc) #name,
static const char *const var_names[] = {GUESTPROTO_JOB_VARS(VAR_NAME)};
#undef VAR_NAME

/* What an option of the allowlist is to the scan. */
enum kind {
	PLAIN,    /* shapes the I/O: any value fio takes */
	TARGET,   /* filename, directory: only what the kit fills in */
	ENGINE,   /* ioengine: ${BUILDAPP_IOENGINE} or a local engine */
	MEM,      /* mem, iomem: malloc only */
	RW,       /* rw: no trim */
	KNOB,     /* one the kit has a say in (.knob) */
	BUFFERED, /* buffered: direct's opposite */
	FLUSH,    /* fdatasync, end_fsync...: said by the plan */
	GROUPREP, /* group_reporting */
	STATS,    /* stats: 0 runs the job and reports nothing */
	NEWGROUP, /* stonewall, wait_for_previous, new_group */
};

/* The options a job file may have: those that shape the I/O on its target
 * (fio's HOWTO, sections "Job description" to "Measurements and
 * reporting"), and how each is read.  docs/plan.md says why the other
 * families are left out. */
static const struct option {
	const char *name;
	enum kind kind;
	enum jobscan_knob knob;
} allowed[] = {
	/* the job, its clones and its order */
	{"description", PLAIN, 0}, {"stonewall", NEWGROUP, 0},
	{"wait_for_previous", NEWGROUP, 0}, {"new_group", NEWGROUP, 0},
	{"wait_for", PLAIN, 0}, {"numjobs", KNOB, JOBKNOB_NUMJOBS},
	{"group_reporting", GROUPREP, 0}, {"startdelay", PLAIN, 0},
	{"exitall", PLAIN, 0}, {"exit_what", PLAIN, 0}, {"loops", PLAIN, 0},
	{"thread", PLAIN, 0}, {"stats", STATS, 0},
	/* the target and how much of it */
	{"filename", TARGET, 0}, {"directory", TARGET, 0}, {"size", PLAIN, 0},
	{"filesize", PLAIN, 0}, {"io_size", PLAIN, 0}, {"io_limit", PLAIN, 0},
	{"offset", PLAIN, 0}, {"offset_increment", PLAIN, 0}, {"offset_align", PLAIN, 0},
	{"number_ios", PLAIN, 0}, {"nrfiles", PLAIN, 0}, {"file_service_type", PLAIN, 0},
	{"openfiles", PLAIN, 0}, {"fill_device", PLAIN, 0}, {"fill_fs", PLAIN, 0},
	{"create_on_open", PLAIN, 0}, {"create_serialize", PLAIN, 0},
	{"create_fsync", PLAIN, 0}, {"pre_read", PLAIN, 0}, {"overwrite", PLAIN, 0},
	{"file_append", PLAIN, 0}, {"fallocate", PLAIN, 0}, {"unlink", PLAIN, 0},
	{"unlink_each_loop", PLAIN, 0}, {"invalidate", PLAIN, 0}, {"lockfile", PLAIN, 0},
	/* the pattern */
	{"rw", RW, JOBKNOB_RW}, {"readwrite", RW, JOBKNOB_RW}, {"rw_sequencer", PLAIN, 0},
	{"rwmixread", PLAIN, 0}, {"rwmixwrite", PLAIN, 0}, {"percentage_random", PLAIN, 0},
	{"random_distribution", PLAIN, 0}, {"random_generator", PLAIN, 0},
	{"randrepeat", PLAIN, 0}, {"allrandrepeat", PLAIN, 0}, {"randseed", PLAIN, 0},
	{"norandommap", PLAIN, 0}, {"softrandommap", PLAIN, 0}, {"bs", PLAIN, 0},
	{"blocksize", PLAIN, 0}, {"bsrange", PLAIN, 0}, {"blocksize_range", PLAIN, 0},
	{"bssplit", PLAIN, 0}, {"bs_unaligned", PLAIN, 0}, {"blocksize_unaligned", PLAIN, 0},
	{"bs_is_seq_rand", PLAIN, 0}, {"blockalign", PLAIN, 0}, {"ba", PLAIN, 0},
	{"fadvise_hint", PLAIN, 0},
	/* how it is issued */
	{"ioengine", ENGINE, JOBKNOB_IOENGINE}, {"iodepth", KNOB, JOBKNOB_IODEPTH},
	{"iodepth_batch", PLAIN, 0}, {"iodepth_batch_submit", PLAIN, 0},
	{"iodepth_batch_complete", PLAIN, 0}, {"iodepth_batch_complete_min", PLAIN, 0},
	{"iodepth_batch_complete_max", PLAIN, 0}, {"iodepth_low", PLAIN, 0},
	{"io_submit_mode", PLAIN, 0}, {"serialize_overlap", PLAIN, 0},
	{"direct", KNOB, JOBKNOB_DIRECT}, {"buffered", BUFFERED, JOBKNOB_DIRECT},
	{"atomic", PLAIN, 0}, {"hipri", PLAIN, 0}, {"fixedbufs", PLAIN, 0},
	{"registerfiles", PLAIN, 0}, {"sqthread_poll", PLAIN, 0}, {"nonvectored", PLAIN, 0},
	{"nowait", PLAIN, 0}, {"force_async", PLAIN, 0}, {"userspace_reap", PLAIN, 0},
	/* flushes */
	{"fsync", KNOB, JOBKNOB_FSYNC}, {"fdatasync", FLUSH, 0}, {"end_fsync", FLUSH, 0},
	{"fsync_on_close", FLUSH, 0}, {"sync", FLUSH, 0}, {"write_barrier", FLUSH, 0},
	{"sync_file_range", FLUSH, 0},
	/* the data */
	{"zero_buffers", PLAIN, 0}, {"refill_buffers", PLAIN, 0},
	{"scramble_buffers", PLAIN, 0}, {"buffer_compress_percentage", PLAIN, 0},
	{"buffer_compress_chunk", PLAIN, 0}, {"buffer_pattern", PLAIN, 0},
	{"dedupe_percentage", PLAIN, 0}, {"iomem_align", PLAIN, 0}, {"mem_align", PLAIN, 0},
	{"mem", MEM, 0}, {"iomem", MEM, 0},
	/* time and rate */
	{"runtime", KNOB, JOBKNOB_RUNTIME}, {"timeout", KNOB, JOBKNOB_RUNTIME},
	{"time_based", KNOB, JOBKNOB_TIME_BASED}, {"ramp_time", KNOB, JOBKNOB_RAMP},
	{"steadystate", KNOB, JOBKNOB_SS}, {"ss", KNOB, JOBKNOB_SS}, {"ss_dur", KNOB, JOBKNOB_SS_DUR},
	{"steadystate_duration", KNOB, JOBKNOB_SS_DUR}, {"ss_ramp", PLAIN, 0},
	{"steadystate_ramp_time", PLAIN, 0}, {"thinktime", PLAIN, 0},
	{"thinktime_spin", PLAIN, 0}, {"thinktime_blocks", PLAIN, 0},
	{"thinktime_blocks_type", PLAIN, 0}, {"thinktime_iotime", PLAIN, 0},
	{"rate", PLAIN, 0}, {"rate_min", PLAIN, 0}, {"rate_iops", PLAIN, 0},
	{"rate_iops_min", PLAIN, 0}, {"rate_process", PLAIN, 0},
	{"rate_ignore_thinktime", PLAIN, 0}, {"ratecycle", PLAIN, 0},
	{"latency_target", PLAIN, 0}, {"latency_window", PLAIN, 0},
	{"latency_percentile", PLAIN, 0}, {"latency_run", PLAIN, 0},
	{"max_latency", PLAIN, 0},
	/* what fio measures (a latency it does not measure is absent) */
	{"gtod_reduce", PLAIN, 0}, {"disable_lat", PLAIN, 0}, {"disable_clat", PLAIN, 0},
	{"disable_slat", PLAIN, 0}, {"disable_bw_measurement", PLAIN, 0},
	{"disable_bw", PLAIN, 0}, {"lat_percentiles", PLAIN, 0},
	{"clat_percentiles", PLAIN, 0}, {"slat_percentiles", PLAIN, 0},
	{"percentile_list", PLAIN, 0}, {"clocksource", PLAIN, 0},
};
#define N_ALLOWED (sizeof(allowed) / sizeof(allowed[0]))

/* Options left out, by family, and why (an option may also be left out
 * only for not being in the list above). */
static const struct {
	const char *prefix; /* the name, or with a '*' at its end every name it starts */
	const char *why;
} left_out[] = {
	{"opendir", "it adds every file under a directory to the job, and fio would "
		    "read or write files the kit does not own"},
	{"filename_format", "it names the job's files itself, wherever it says"},
	{"exec_*", "it runs a program"},
	{"write_*", "it writes a file in fio's working directory (a log or an I/O log)"},
	{"log_*", "it shapes log files, which a job file may not write"},
	{"per_job_logs", "it shapes log files, which a job file may not write"},
	{"read_iolog", "it replays I/O from a file the kit does not carry"},
	{"replay_*", "it replays I/O from a file the kit does not carry"},
	{"ioscheduler", "it changes the disk's scheduler: [host] scheduler does that"},
	{"cgroup*", "it makes cgroups on the machine that runs it"},
	{"uid", "it runs the job as another user"},
	{"gid", "it runs the job as another group"},
	{"nice", "it sets priorities on the machine that runs it"},
	{"prio*", "it sets priorities on the machine that runs it"},
	{"cpu*", "it places the job on the CPUs of the machine that runs it"},
	{"numa_*", "it places the job on the NUMA nodes of the machine that runs it"},
	{"gtod_cpu", "it places the job on the CPUs of the machine that runs it"},
	{"daemonize", "it leaves fio running in the background"},
	{"allow_mounted_write", "it lets fio write a disk that holds a mounted filesystem"},
	{"unified_rw_reporting", "it reports reads and writes as one, which the kit "
				 "cannot name: each direction is reported on its own"},
	{"kb_base", "it changes the units of fio's numbers"},
	{"unit_base", "it changes the units of fio's numbers"},
	{"name", "it renames the job: a job is named by its [section], which names its "
		 "metrics"},
	{"verify*", "it checks written data and keeps state files in fio's working "
		    "directory: a check, not a measurement"},
	{"do_verify", "it checks written data: a check, not a measurement"},
	{"experimental_verify", "it checks written data: a check, not a measurement"},
	{"trim_*", "it trims to check written data: a check, not a measurement"},
	{"continue_on_error", "it counts failed I/O as done: a run with I/O errors is a "
			      "failed run, not a number"},
	{"ignore_error", "it counts failed I/O as done: a run with I/O errors is a failed "
			 "run, not a number"},
	{"error_dump", "it is about errors, which fail a run"},
	{"profile", "it runs one of fio's built-in workloads on what its own options name"},
	{"create_only", "it lays files out and does no I/O: there is nothing to measure"},
	{"hugepage-size", "it is about buffers in huge pages, which mem= may not ask for"},
};

/* Engines a job file may name: they read and write the target with the
 * kernel's own calls, in any fio the kit carries. */
const char *const jobscan_engines[] = {"sync",   "psync",    "vsync",    "pvsync",
				       "pvsync2", "libaio", "io_uring", "posixaio",
				       "mmap",   NULL};

static const struct {
	const char *names, *why; /* names: space-separated */
} engines_left_out[] = {
	{"net netsplice rdma rbd rados gfapi gfapi_async nbd http nfs libiscsi libcufile "
	 "xnvme dfs daos",
	 "it reaches another machine over the network"},
	{"exec", "it runs a program"},
	{"null cpuio ftruncate filecreate filestat filedelete dircreate dirstat dirdelete "
	 "falloc e4defrag",
	 "it does no data I/O on the target, or changes its filesystem's metadata"},
};

struct scan {
	const char *path;
	struct jobscan *out;
	struct jobscan_job global, *cur; /* cur: global or the job being read */
	bool any_section, device;
	char *why;
	size_t why_len;
};

int jobscan_refuse(char *why, size_t why_len, const char *path, unsigned line,
		   const char *fmt, ...)
{
	char text[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(why, why_len, "'%s' line %u: %s", path, line, text);
	else
		snprintf(why, why_len, "'%s': %s", path, text);
	return -EINVAL;
}

#define refuse(s, line, ...) jobscan_refuse((s)->why, (s)->why_len, (s)->path, line, __VA_ARGS__)

static const struct option *find_allowed(const char *key)
{
	for (size_t i = 0; i < N_ALLOWED; i++)
		if (strcmp(allowed[i].name, key) == 0)
			return &allowed[i];
	return NULL;
}

static const char *left_out_why(const char *key)
{
	for (size_t i = 0; i < sizeof(left_out) / sizeof(left_out[0]); i++) {
		const char *p = left_out[i].prefix;
		size_t n = strlen(p);
		if (p[n - 1] == '*' ? strncmp(key, p, n - 1) == 0 : strcmp(key, p) == 0)
			return left_out[i].why;
	}
	return NULL;
}

static int refuse_option(struct scan *s, unsigned line, const char *key)
{
	const char *why = left_out_why(key);
	const char *names[N_ALLOWED];

	if (why)
		return refuse(s, line, "%s: refused: %s", key, why);
	for (size_t i = 0; i < N_ALLOWED; i++)
		names[i] = allowed[i].name;
	const char *near = keyref_nearest(key, names, N_ALLOWED);
	char hint[80] = "";
	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	return refuse(s, line, "%.64s: not an option a job file may have%s: a job file "
			       "has only the options that shape its I/O (docs/plan.md)",
		      key, hint);
}

/* The variable NAME (N bytes, after "${") is, or -1. */
static int var_index(const char *name, size_t n)
{
	size_t plen = strlen(GUESTPROTO_JOB_VAR_PREFIX);

	if (n <= plen || strncmp(name, GUESTPROTO_JOB_VAR_PREFIX, plen) != 0)
		return -1;
	for (size_t i = 0; i < _JOBVAR_MAX; i++)
		if (strlen(var_names[i]) == n - plen && strncmp(name + plen, var_names[i], n - plen) == 0)
			return (int)i;
	return -1;
}

/* Every ${NAME} of VALUE is one of ours: fio would take any other from
 * the environment of whoever runs it.  Returns the one VALUE is exactly,
 * -1 if it is not one, or -EINVAL (refused). */
static int scan_vars(struct scan *s, unsigned line, const char *value, int *ret_whole)
{
	*ret_whole = -1;
	for (const char *p = strstr(value, "${"); p; p = strstr(p + 2, "${")) {
		const char *end = strchr(p, '}');
		size_t n = end ? (size_t)(end - p - 2) : strlen(p + 2);
		int v = var_index(p + 2, n);
		if (!end || v < 0)
			return refuse(s, line, "'%.*s' is not a variable the kit sets; it sets "
					       "${" GUESTPROTO_JOB_VAR_PREFIX "TARGET}, _DIR, _BS, "
					       "_IODEPTH, _NUMJOBS, _IOENGINE, _RW, _RWMIXREAD, "
					       "_SIZE, _RUNTIME, _DIRECT, _FSYNC and _RAMP",
				      end ? (int)(n + 3) : (int)strlen(p), p);
		s->out->used[v] = true;
		if (p == value && !end[1])
			*ret_whole = v;
	}
	return 0;
}

/* A target the kit fills in: ${BUILDAPP_TARGET} itself, or for
 * directory= ${BUILDAPP_DIR}, or a plain file name in it. */
static int check_target(struct scan *s, unsigned line, const char *key, const char *value)
{
	static const char target[] = "${" GUESTPROTO_JOB_VAR_PREFIX "TARGET}";
	static const char dir[] = "${" GUESTPROTO_JOB_VAR_PREFIX "DIR}";
	bool dir_ok = strcmp(key, "directory") == 0 && strcmp(value, dir) == 0;

	if (strcmp(key, "filename") == 0 && strncmp(value, dir, sizeof(dir) - 1) == 0 &&
	    value[sizeof(dir) - 1] == '/') {
		const char *leaf = value + sizeof(dir);
		dir_ok = *leaf && strcmp(leaf, ".") && strcmp(leaf, "..");
		for (const char *c = leaf; *c; c++)
			dir_ok &= isalnum((unsigned char)*c) || strchr("._-", *c);
	}
	if ((strcmp(key, "filename") != 0 || strcmp(value, target) != 0) && !dir_ok)
		return refuse(s, line, "%s=%.200s: the kit fills in the target: use "
				       "filename=%s, or directory=%s (a file per job in the "
				       "work directory)",
			      key, value, target, dir);
	if (dir_ok && s->device)
		return refuse(s, line, "%s=%.200s: with fio_target = device there is no work "
				       "directory: use filename=%s (the disk)",
			      key, value, target);
	s->cur->target = true;
	return 0;
}

static int check_engine(struct scan *s, unsigned line, const char *value, int var)
{
	if (var == JOBVAR_IOENGINE)
		return 0;
	for (const char *const *e = jobscan_engines; *e; e++)
		if (strcmp(value, *e) == 0)
			return 0;
	const char *why = strchr(value, '/') || strncmp(value, "external", 8) == 0
				  ? "fio would load it as a shared object"
				  : NULL;
	for (size_t i = 0; !why && i < sizeof(engines_left_out) / sizeof(engines_left_out[0]); i++)
		for (const char *w = engines_left_out[i].names; *w && !why;) {
			size_t n = strcspn(w, " ");
			if (n == strlen(value) && strncmp(w, value, n) == 0)
				why = engines_left_out[i].why;
			w += n + (w[n] == ' ');
		}
	return refuse(s, line, "ioengine=%.64s: refused: %s%sthe engines a job file may "
			       "name are ${" GUESTPROTO_JOB_VAR_PREFIX "IOENGINE} (the "
			       "cell's) and sync, psync, vsync, pvsync, pvsync2, libaio, "
			       "io_uring, posixaio, mmap",
		      value, why ? why : "", why ? "; " : "");
}

/* rw=: fio's kinds but the trims, with a ":N" of its own (rw_sequencer's
 * count) or not. */
static int check_rw(struct scan *s, unsigned line, const char *key, const char *value,
		    int var)
{
	static const char *const kinds[] = {"read", "write", "randread", "randwrite",
					    "rw", "readwrite", "randrw"};
	size_t n = strcspn(value, ":");

	if (var == JOBVAR_RW)
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i]) == n && strncmp(kinds[i], value, n) == 0)
			return 0;
	if (strncmp(value, "trim", 4) == 0 || strncmp(value, "randtrim", 8) == 0)
		return refuse(s, line, "%s=%.64s: refused: fio reports trims on their own, "
				       "which the kit does not read (it reports reads, writes "
				       "and syncs), and a trim of a file punches holes in it",
			      key, value);
	const char *near = keyref_nearest(value, kinds, sizeof(kinds) / sizeof(kinds[0]));
	return refuse(s, line, "%s=%.64s: not a kind of I/O fio knows%s%s%s: read, write, "
			       "randread, randwrite, rw (readwrite), randrw, or ${"
			       GUESTPROTO_JOB_VAR_PREFIX "RW}",
		      key, value, near ? " (did you mean '" : "", near ? near : "",
		      near ? "'?)" : "");
}

static bool truth(const char *value)
{
	return !value || strcmp(value, "0") != 0;
}

static void add_flush(struct jobscan_job *j, const char *key, const char *value)
{
	size_t used = strlen(j->flushes);

	snprintf(j->flushes + used, sizeof(j->flushes) - used, "%s%s=%s", used ? " " : "",
		 key, value ? value : "1");
}

static int scan_option(struct scan *s, unsigned line, char *text)
{
	char *eq = strchr(text, '=');
	char *key = text, *value = eq ? parse_strip(eq + 1) : NULL;
	int var = -1, r;

	if (eq)
		*eq = '\0';
	key = parse_strip(key);
	if (strncmp(key, "include", 7) == 0 && (!key[7] || isspace((unsigned char)key[7])))
		return refuse(s, line, "include: the kit carries this one file; put the "
				       "included jobs in it");
	if (!s->any_section)
		return refuse(s, line, "option '%.64s' before any [section]", key);
	const struct option *o = find_allowed(key);
	if (!o)
		return refuse_option(s, line, key);
	if (value && (r = scan_vars(s, line, value, &var)) < 0)
		return r;
	struct jobscan_job *j = s->cur;
	switch (o->kind) {
	case TARGET:
		return check_target(s, line, key, value ? value : "");
	case ENGINE:
		if ((r = check_engine(s, line, value ? value : "", var)) < 0)
			return r;
		break;
	case MEM:
		if (!value || strcmp(value, "malloc") != 0)
			return refuse(s, line, "%s=%.64s: refused: a job's buffers are "
					       "malloc's: mmap:PATH and mmaphuge:PATH create "
					       "or truncate that file, shm and shmhuge take "
					       "shared memory",
				      key, value ? value : "");
		return 0;
	case RW:
		if ((r = check_rw(s, line, key, value ? value : "", var)) < 0)
			return r;
		break;
	case GROUPREP:
		j->group_reporting = truth(value);
		return 0;
	case STATS:
		j->unreported = !truth(value);
		return 0;
	case NEWGROUP:
		j->new_group = truth(value);
		return 0;
	case FLUSH:
		add_flush(j, key, value);
		return 0;
	case PLAIN:
		return 0;
	case KNOB:
	case BUFFERED:
		break;
	}
	struct jobscan_setting *k = &j->knob[o->knob];
	k->line = line;
	k->var = var;
	snprintf(k->value, sizeof(k->value), "%s", value ? value : "1");
	if (o->kind == BUFFERED) /* buffered=1 is direct=0 */
		snprintf(k->value, sizeof(k->value), "%d", truth(value) ? 0 : 1);
	return 0;
}

static int scan_section(struct scan *s, unsigned line, char *text)
{
	char *close = strchr(text, ']');
	struct jobscan *out = s->out;

	/* fio takes the name between the brackets as it is, blanks and all. */
	if (!close || *parse_strip(close + 1))
		return refuse(s, line, "a section header is '[name]'");
	*close = '\0';
	const char *name = text + 1;
	s->any_section = true;
	if (strcmp(name, "global") == 0) {
		s->cur = &s->global;
		return 0;
	}
	if (!guestproto_job_name_ok(name))
		return refuse(s, line, "job name '%.64s': it names the job's metrics "
				       "(fio_NAME_read_iops): use 1 to %d letters, digits, "
				       "'_' and '-'",
			      name, GUESTPROTO_JOB_NAME_MAX);
	for (size_t i = 0; i < out->n_jobs; i++)
		if (strcmp(out->jobs[i].name, name) == 0)
			return refuse(s, line, "job '%s' again (first at line %u): each job's "
					       "metrics are named by it",
				      name, out->jobs[i].line);
	if (out->n_jobs == JOBSCAN_MAX_JOBS)
		return refuse(s, line, "more than %d jobs", JOBSCAN_MAX_JOBS);
	/* A job starts as a copy of the [global] options before it. */
	struct jobscan_job *j = &out->jobs[out->n_jobs++];
	*j = s->global;
	snprintf(j->name, sizeof(j->name), "%s", name);
	j->line = line;
	s->cur = j;
	return 0;
}

/* A comment starts at ';' or '#', at the start of a line or after an
 * option (fio 3.33 cuts "bs=4k ; why" to "bs=4k"). */
static void cut_comment(char *l)
{
	l[strcspn(l, ";#")] = '\0';
}

int jobscan_text(const char *path, const char *text, bool device, struct jobscan *ret,
		 char *why, size_t why_len)
{
	struct scan s = {.path = path, .out = ret, .device = device, .why = why,
			 .why_len = why_len};
	_cleanup_free_ char *copy = strdup(text);
	unsigned line = 0;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	memset(ret, 0, sizeof(*ret));
	for (int k = 0; k < _JOBKNOB_MAX; k++)
		s.global.knob[k].var = -1;
	/* Every line counts, blank ones too: the numbers are the editor's. */
	for (char *l = copy, *next; l && r == 0; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		cut_comment(l);
		char *t = parse_strip(l);
		if (*t)
			r = *t == '[' ? scan_section(&s, line, t) : scan_option(&s, line, t);
	}
	if (r < 0)
		return r;
	/* fio's groups: a job with stonewall or new_group starts the next. */
	for (size_t i = 1; i < ret->n_jobs; i++)
		ret->jobs[i].group = ret->jobs[i - 1].group + ret->jobs[i].new_group;
	return 0;
}
