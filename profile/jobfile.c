#include "jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "files.h"
#include "guestproto.h"
#include "names.h"
#include "parse.h"
#include "plan.h"

#define VAR_NAME(name, doc) #name,
static const char *const job_vars[] = {GUESTPROTO_JOB_VARS(VAR_NAME)};
#undef VAR_NAME
#define N_VARS (sizeof(job_vars) / sizeof(job_vars[0]))
enum { VAR_TARGET, VAR_DIR, VAR_BS, VAR_IODEPTH, VAR_NUMJOBS, VAR_IOENGINE,
       VAR_RW, VAR_RWMIXREAD, VAR_SIZE, VAR_RUNTIME };

/* Options a job file may not have, and why: the file runs on the lab
 * server too (the host baseline), where it must touch nothing but its
 * target. */
static const struct {
	const char *option, *why;
} refused[] = {
	{"exec_prerun", "runs a program"},
	{"exec_postrun", "runs a program"},
	{"write_bw_log", "writes a log file outside the work directory"},
	{"write_lat_log", "writes a log file outside the work directory"},
	{"write_iops_log", "writes a log file outside the work directory"},
	{"write_hist_log", "writes a log file outside the work directory"},
	{"write_iolog", "writes a log file outside the work directory"},
	{"read_iolog", "reads a file the kit does not carry"},
	{"ioscheduler", "changes the disk's scheduler: [host] scheduler does that"},
};

/* What the scan learnt of one section. */
struct section {
	char name[JOBFILE_NAME_MAX + 1];
	unsigned line;
	bool target, group_reporting, clones;
};

struct scan {
	const char *path;
	struct section global, jobs[JOBFILE_MAX_JOBS];
	size_t n_jobs;
	bool in_global, any_section;
	bool used[N_VARS];
	bool device; /* fio_target = device: no work directory */
	char *why;
	size_t why_len;
};

static int refuse(struct scan *s, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(struct scan *s, unsigned line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(s->why, s->why_len, "'%s' line %u: %s", s->path, line, text);
	else
		snprintf(s->why, s->why_len, "'%s': %s", s->path, text);
	return -EINVAL;
}

static int var_index(const char *name, size_t n)
{
	size_t plen = strlen(GUESTPROTO_JOB_VAR_PREFIX);

	if (n <= plen || strncmp(name, GUESTPROTO_JOB_VAR_PREFIX, plen) != 0)
		return -1;
	for (size_t i = 0; i < N_VARS; i++)
		if (strlen(job_vars[i]) == n - plen && strncmp(name + plen, job_vars[i], n - plen) == 0)
			return (int)i;
	return -1;
}

/* Every ${NAME} of TEXT is one of ours: fio would leave any other
 * unexpanded, or take it from the environment of whoever runs it. */
static int scan_vars(struct scan *s, unsigned line, const char *text)
{
	for (const char *p = strstr(text, "${"); p; p = strstr(p + 2, "${")) {
		const char *end = strchr(p, '}');
		size_t n = end ? (size_t)(end - p - 2) : strlen(p + 2);
		int v = var_index(p + 2, n);
		if (!end || v < 0)
			return refuse(s, line, "'%.*s' is not a variable the kit sets; it sets "
					       "${" GUESTPROTO_JOB_VAR_PREFIX "TARGET}, _DIR, _BS, "
					       "_IODEPTH, _NUMJOBS, _IOENGINE, _RW, _RWMIXREAD, _SIZE "
					       "and _RUNTIME",
				      end ? (int)(n + 3) : (int)strlen(p), p);
		s->used[v] = true;
	}
	return 0;
}

static bool is_job_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > JOBFILE_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static struct section *current(struct scan *s)
{
	return s->in_global ? &s->global : &s->jobs[s->n_jobs - 1];
}

/* A target the kit fills in: ${BUILDAPP_TARGET} itself, or for
 * directory= ${BUILDAPP_DIR}, or a plain file name in it. */
static int check_target(struct scan *s, unsigned line, const char *key, const char *value)
{
	static const char target[] = "${" GUESTPROTO_JOB_VAR_PREFIX "TARGET}";
	static const char dir[] = "${" GUESTPROTO_JOB_VAR_PREFIX "DIR}";
	bool dir_ok = strcmp(value, dir) == 0;

	if (strcmp(key, "filename") == 0 && strncmp(value, dir, sizeof(dir) - 1) == 0 &&
	    value[sizeof(dir) - 1] == '/') {
		const char *leaf = value + sizeof(dir);
		dir_ok = *leaf && strcmp(leaf, ".") && strcmp(leaf, "..");
		for (const char *c = leaf; *c; c++)
			dir_ok &= isalnum((unsigned char)*c) || strchr("._-", *c);
	}
	if (strcmp(value, target) != 0 && !dir_ok)
		return refuse(s, line, "%s=%s: the kit fills in the target: use %s=%s, or "
				       "directory=%s (a file per job in the work directory)",
			      key, value, key, target, dir);
	if (dir_ok && s->device)
		return refuse(s, line, "%s=%s: with fio_target = device there is no work "
				       "directory: use filename=%s (the disk)",
			      key, value, target);
	current(s)->target = true;
	return 0;
}

static int scan_option(struct scan *s, unsigned line, char *text)
{
	char *eq = strchr(text, '=');
	char *key = text, *value = eq ? parse_strip(eq + 1) : NULL;

	if (eq)
		*eq = '\0';
	key = parse_strip(key);
	if (strncmp(key, "include", 7) == 0 && (!key[7] || isspace((unsigned char)key[7])))
		return refuse(s, line, "include: the kit carries this one file; put the "
				       "included jobs in it");
	if (!s->any_section)
		return refuse(s, line, "option '%s' before any [section]", key);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(key, refused[i].option) == 0)
			return refuse(s, line, "%s: refused: it %s", key, refused[i].why);
	if (value && scan_vars(s, line, value) < 0)
		return -EINVAL;
	if (value && strcmp(key, "ioengine") == 0 &&
	    (strcmp(value, "exec") == 0 || strncmp(value, "external", 8) == 0))
		return refuse(s, line, "ioengine=%s: refused: it runs a program or loads one", value);
	if (strcmp(key, "filename") == 0 || strcmp(key, "directory") == 0)
		return check_target(s, line, key, value ? value : "");
	if (strcmp(key, "group_reporting") == 0)
		current(s)->group_reporting = !value || strcmp(value, "0") != 0;
	if (strcmp(key, "numjobs") == 0 && value)
		current(s)->clones = strcmp(value, "1") != 0;
	return 0;
}

static int scan_section(struct scan *s, unsigned line, char *text)
{
	char *close = strchr(text, ']');

	if (!close || *parse_strip(close + 1))
		return refuse(s, line, "a section header is '[name]'");
	*close = '\0';
	const char *name = parse_strip(text + 1);
	s->any_section = true;
	s->in_global = strcmp(name, "global") == 0;
	if (s->in_global) {
		s->global.line = line;
		return 0;
	}
	if (!is_job_name(name))
		return refuse(s, line, "job name '%.64s': it names the job's metrics "
				       "(fio_NAME_read_iops): use 1 to %d letters, digits, "
				       "'_' and '-'",
			      name, JOBFILE_NAME_MAX);
	for (size_t i = 0; i < s->n_jobs; i++)
		if (strcmp(s->jobs[i].name, name) == 0)
			return refuse(s, line, "job '%s' again (first at line %u): each job's "
					       "metrics are named by it",
				      name, s->jobs[i].line);
	if (s->n_jobs == JOBFILE_MAX_JOBS)
		return refuse(s, line, "more than %d jobs", JOBFILE_MAX_JOBS);
	struct section *j = &s->jobs[s->n_jobs++];
	snprintf(j->name, sizeof(j->name), "%s", name);
	j->line = line;
	return 0;
}

static int scan_text(struct scan *s, char *text)
{
	unsigned line = 0;
	int r = 0;

	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && r == 0;
	     l = strtok_r(NULL, "\n", &save)) {
		line++;
		char *t = parse_strip(l);
		if (!*t || *t == ';' || *t == '#')
			continue;
		r = *t == '[' ? scan_section(s, line, t) : scan_option(s, line, t);
	}
	return r;
}

/* What the scan found, as a whole: jobs, each with a target, clones only
 * reported together, each knob the profile sweeps used. */
static int check_jobs(struct scan *s, const struct profile *p)
{
	const struct profile_workload *w = &p->workload;
	static const struct {
		int var;
		const char *key;
	} knobs[] = {
		{VAR_BS, "fio_bs"},          {VAR_IODEPTH, "fio_iodepth"},
		{VAR_NUMJOBS, "fio_numjobs"}, {VAR_IOENGINE, "fio_ioengine"},
		{VAR_RW, "fio_rw"},          {VAR_RWMIXREAD, "fio_rwmixread"},
	};
	bool swept[] = {
		w->fio_bs.n > 1, w->fio_iodepth.n > 1, w->fio_numjobs.n > 1,
		(w->fio_ioengine & (w->fio_ioengine - 1)) != 0,
		(w->fio_rw & (w->fio_rw - 1)) != 0, w->fio_rwmixread.n > 1,
	};

	if (s->n_jobs == 0)
		return refuse(s, 0, "no job: a job is a [name] section");
	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct section *j = &s->jobs[i];
		if (!j->target && !s->global.target)
			return refuse(s, j->line, "job '%s' names no target the kit can fill "
						  "in: add filename=${" GUESTPROTO_JOB_VAR_PREFIX
						  "TARGET} to it or to [global]",
				      j->name);
		if ((j->clones || s->global.clones || s->used[VAR_NUMJOBS]) && !j->group_reporting &&
		    !s->global.group_reporting)
			return refuse(s, j->line, "job '%s' may run several clones (numjobs), "
						  "which fio reports one by one: add "
						  "group_reporting to it or to [global], so "
						  "they are measured together",
				      j->name);
	}
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (swept[i] && !s->used[knobs[i].var])
			return refuse(s, 0, "[workload] %s sweeps several levels, but the job "
					    "file uses no ${" GUESTPROTO_JOB_VAR_PREFIX "%s}: "
					    "every level would run the same jobs",
				      knobs[i].key, job_vars[knobs[i].var]);
	return 0;
}

/* The environment of fio for the knobs K: the guest's paths. */
static void job_env(const struct profile *p, const struct fio_knobs *k, char vals[][96],
		    char **env)
{
	const struct profile_workload *w = &p->workload;
	size_t n = 0;

	snprintf(vals[n++], 96, "BUILDAPP_TARGET=%s",
		 w->fio_target == FIO_TARGET_DEVICE ? "/dev/vda" : "/mnt/work/fio.dat");
	snprintf(vals[n++], 96, "BUILDAPP_DIR=/mnt/work");
	snprintf(vals[n++], 96, "BUILDAPP_BS=%" PRIu64, k->bs);
	snprintf(vals[n++], 96, "BUILDAPP_IODEPTH=%" PRIu64, k->iodepth);
	snprintf(vals[n++], 96, "BUILDAPP_NUMJOBS=%" PRIu64, k->numjobs);
	snprintf(vals[n++], 96, "BUILDAPP_IOENGINE=%s", fio_ioengine_name(k->ioengine));
	snprintf(vals[n++], 96, "BUILDAPP_RW=%s", fio_rw_name(k->rw));
	snprintf(vals[n++], 96, "BUILDAPP_RWMIXREAD=%" PRIu64, k->rwmixread);
	snprintf(vals[n++], 96, "BUILDAPP_SIZE=%" PRIu64, w->fio_size);
	snprintf(vals[n++], 96, "BUILDAPP_RUNTIME=%u", w->fio_runtime);
	for (size_t i = 0; i < n; i++)
		env[i] = vals[i];
	env[n] = NULL;
}

/* The line of TEXT that fio's message MSG ("failed parsing KEY=VALUE",
 * "Bad option <KEY=VALUE>") is about, or 0. */
static unsigned message_line(const char *text, const char *msg)
{
	const char *at = strstr(msg, "failed parsing ");
	char option[256];
	unsigned line = 0;
	size_t n;

	if (at)
		at += strlen("failed parsing ");
	else if ((at = strstr(msg, "Bad option <")))
		at += strlen("Bad option <");
	else
		return 0;
	n = strcspn(at, ">\n");
	snprintf(option, sizeof(option), "%.*s", (int)n, at);
	for (const char *l = text; *l; line++) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char buf[1024];
		snprintf(buf, sizeof(buf), "%.*s", (int)len, l);
		char *t = parse_strip(buf), *eq = strchr(t, '=');
		if (eq) { /* "key = value" is "key=value" to fio */
			*eq = '\0';
			char joined[1024];
			snprintf(joined, sizeof(joined), "%s=%s", parse_strip(t),
				 parse_strip(eq + 1));
			if (strcmp(joined, option) == 0)
				return line + 1;
		} else if (strcmp(t, option) == 0) {
			return line + 1;
		}
		l = nl ? nl + 1 : l + len;
	}
	return 0;
}

/* fio --parse-only with the knobs K.  fio's messages come on stderr. */
static int parse_only(struct scan *s, const struct profile *p, const char *fio,
		      const char *text, const struct fio_knobs *k)
{
	char vals[N_VARS][96], *env[N_VARS + 1], errpath[] = "/tmp/buildapp-fio-XXXXXX";
	char *argv[] = {(char *)fio, "--parse-only", (char *)s->path, NULL};
	_cleanup_close_ int fd = mkstemp(errpath);
	_cleanup_free_ char *err = NULL;
	struct command_result res = {0};

	if (fd < 0)
		return -errno;
	job_env(p, k, vals, env);
	struct command_opts o = {.env_extra = env, .out = COMMAND_OUT_CAPTURE,
				 .max = 65536, .stderr_path = errpath, .timeout = 60};
	int r = command_spawn(argv, &o, &res);
	int rr = files_read_regular(errpath, 65536, &err, NULL);
	unlink(errpath);
	if (r < 0) {
		free(res.out);
		snprintf(s->why, s->why_len, "cannot run '%s --parse-only': %s", fio,
			 strerror(-r));
		return r;
	}
	/* fio says why on stderr, some of it on stdout. */
	char msg[512] = "";
	const char *sources[] = {rr >= 0 ? err : NULL, res.out};
	for (size_t i = 0; i < 2; i++)
		for (const char *l = sources[i]; l && *l && strlen(msg) < 300;) {
			size_t n = strcspn(l, "\n");
			/* "job x dropped" follows the reason */
			if (n && !memmem(l, n, "dropped", 7))
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "%s%.*s",
					 msg[0] ? "; " : "", (int)(n > 200 ? 200 : n), l);
			l += n + (l[n] == '\n');
		}
	free(res.out);
	if (r == 0)
		return 0;
	unsigned line = message_line(text, msg);
	return refuse(s, line, "fio --parse-only refuses it: %s", msg[0] ? msg : "no message");
}

/* fio --parse-only once per level of each knob the sweep varies, the
 * others at their first level: a value is checked where it is used. */
static int parse_levels(struct scan *s, const struct profile *p, const char *fio,
			const char *text)
{
	const struct profile_workload *w = &p->workload;
	struct fio_knobs first, k;
	int r;

	struct plan_cell none = {.workload = WORKLOAD_FIO, PLAN_CELL_NO_FIO};

	plan_cell_fio(p, &none, &first);
	if ((r = parse_only(s, p, fio, text, &first)) < 0)
		return r;
	for (int v = 0; v < _FIO_RW_MAX; v++)
		if ((w->fio_rw & AXIS_BIT(v)) && v != (int)first.rw) {
			k = first;
			k.rw = (enum fio_rw)v;
			if ((r = parse_only(s, p, fio, text, &k)) < 0)
				return r;
		}
	for (int v = 0; v < _FIO_IOENGINE_MAX; v++)
		if (w->fio_ioengine & AXIS_BIT(v)) {
			k = first;
			k.ioengine = fio_ioengine_resolve((enum fio_ioengine)v, k.iodepth);
			if (k.ioengine != first.ioengine && (r = parse_only(s, p, fio, text, &k)) < 0)
				return r;
		}
	const struct {
		const struct num_axis *axis;
		size_t offset;
	} nums[] = {
		{&w->fio_bs, offsetof(struct fio_knobs, bs)},
		{&w->fio_iodepth, offsetof(struct fio_knobs, iodepth)},
		{&w->fio_numjobs, offsetof(struct fio_knobs, numjobs)},
		{&w->fio_rwmixread, offsetof(struct fio_knobs, rwmixread)},
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		for (unsigned l = 1; l < nums[i].axis->n; l++) {
			k = first;
			*(uint64_t *)((char *)&k + nums[i].offset) = nums[i].axis->v[l];
			if ((r = parse_only(s, p, fio, text, &k)) < 0)
				return r;
		}
	return 0;
}

int jobfile_check(const char *path, const struct profile *p, const char *fio,
		  char *why, size_t why_len)
{
	_cleanup_free_ char *text = NULL, *copy = NULL;
	struct scan s = {.path = path, .why = why, .why_len = why_len,
			 .device = p->workload.fio_target == FIO_TARGET_DEVICE};
	size_t len = 0;
	struct stat st;
	int r;

	if (stat(path, &st) < 0) {
		snprintf(why, why_len, "'%s': %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(&s, 0, "not a regular file");
	if (st.st_size > JOBFILE_MAX_BYTES)
		return refuse(&s, 0, "%lld bytes: a job file has at most %d",
			      (long long)st.st_size, JOBFILE_MAX_BYTES);
	r = files_read_regular(path, JOBFILE_MAX_BYTES, &text, &len);
	if (r < 0) {
		snprintf(why, why_len, "'%s': %s", path, strerror(-r));
		return r;
	}
	if (memchr(text, '\0', len))
		return refuse(&s, 0, "binary data: not a fio job file");
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	if ((r = scan_text(&s, copy)) < 0 || (r = check_jobs(&s, p)) < 0)
		return r;
	if (access(fio, X_OK) < 0)
		return refuse(&s, 0, "cannot be checked: %s: %s (install fio)", fio,
			      strerror(errno));
	return parse_levels(&s, p, fio, text);
}

int jobfile_check_engines(const struct profile *p, const char *fio, char *why,
			  size_t why_len)
{
	char *argv[] = {(char *)fio, "--enghelp", NULL};
	_cleanup_free_ char *out = NULL;
	axis_mask m = p->workload.fio_ioengine, have = 0;

	/* auto is psync or libaio, by iodepth */
	if (m & AXIS_BIT(FIO_IOENGINE_AUTO))
		m |= AXIS_BIT(FIO_IOENGINE_PSYNC) | AXIS_BIT(FIO_IOENGINE_LIBAIO);
	int r = command_capture(argv, NULL, 65536, &out);
	if (r != 0 || !out) {
		snprintf(why, why_len, "cannot run '%s --enghelp' to see its engines%s%s", fio,
			 r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
		return r < 0 ? r : -EIO;
	}
	/* "Available IO engines:", then one a line */
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		int e = name_table_lookup(&fio_ioengine_names, parse_strip(l));
		if (e > FIO_IOENGINE_AUTO)
			have |= AXIS_BIT(e);
	}
	for (int e = FIO_IOENGINE_PSYNC; e < _FIO_IOENGINE_MAX; e++)
		if ((m & AXIS_BIT(e)) && !(have & AXIS_BIT(e))) {
			snprintf(why, why_len, "%s: the guests' fio (%s) has no such engine "
					       "(fio --enghelp)",
				 fio_ioengine_name(e), fio);
			return -EINVAL;
		}
	return 0;
}
