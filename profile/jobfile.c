#include "jobfile.h"

#include <errno.h>
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
#include "fioargs.h"
#include "guestproto.h"
#include "jobscan.h"
#include "keys.h"
#include "names.h"
#include "parse.h"
#include "plan.h"

struct check {
	const char *path;
	char *why;
	size_t why_len;
};

#define refuse(c, line, ...) jobscan_refuse((c)->why, (c)->why_len, (c)->path, line, __VA_ARGS__)

static bool any_level_not_one(const struct num_axis *a)
{
	for (unsigned i = 0; i < a->n; i++)
		if (a->v[i] != 1)
			return true;
	return false;
}

/* Whether job J does what the profile's key says for knob K: it leaves
 * the option to the kit's command line, or names the kit's variable. */
static bool takes(const struct jobscan_job *j, enum jobscan_knob k, int var)
{
	return !j->knob[k].line || (var >= 0 && j->knob[k].var == var);
}

/* A key set away from its default must reach some job: one that every job
 * overrides would be a setting the plan prints and no run has. */
static int check_reached(struct check *c, const struct profile *p, const struct jobscan *s)
{
	static const struct {
		enum jobscan_knob knob;
		int var;
		const char *key, *option, *use;
	} keys[] = {
		{JOBKNOB_DIRECT, JOBVAR_DIRECT, "fio_direct", "direct",
		 "use direct=${" GUESTPROTO_JOB_VAR_PREFIX "DIRECT} where it is meant, "
		 "or leave direct out"},
		{JOBKNOB_FSYNC, JOBVAR_FSYNC, "fio_fsync", "fsync",
		 "use fsync=${" GUESTPROTO_JOB_VAR_PREFIX "FSYNC} where it is meant, or "
		 "leave fsync out"},
		{JOBKNOB_RUNTIME, JOBVAR_RUNTIME, "fio_runtime", "runtime",
		 "use runtime=${" GUESTPROTO_JOB_VAR_PREFIX "RUNTIME} where it is meant, "
		 "or leave runtime out"},
		{JOBKNOB_RAMP, JOBVAR_RAMP, "fio_ramp", "ramp_time",
		 "use ramp_time=${" GUESTPROTO_JOB_VAR_PREFIX "RAMP} where it is meant, "
		 "or leave ramp_time out"},
		{JOBKNOB_SS, -1, "fio_steadystate", "steadystate",
		 "leave steadystate out of the jobs it is meant for"},
	};
	struct profile def;
	char a[PROFILE_STR_MAX], b[PROFILE_STR_MAX];

	if (keys_set_defaults(&def) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key_def *k = keys_find("workload", keys[i].key);
		if (strcmp(keys_format(p, k, a, sizeof(a)), keys_format(&def, k, b, sizeof(b))) == 0)
			continue;
		bool reached = false;
		for (size_t j = 0; j < s->n_jobs && !reached; j++) {
			const struct jobscan_setting *d = &s->jobs[j].knob[JOBKNOB_SS_DUR];
			reached = takes(&s->jobs[j], keys[i].knob, keys[i].var) &&
				  !(keys[i].knob == JOBKNOB_SS && d->line && d->var < 0 &&
				    strspn(d->value, "0") == strlen(d->value));
		}
		if (!reached)
			return refuse(c, s->jobs[0].knob[keys[i].knob].line,
				      "[workload] %s = %s reaches no job: each sets %s itself "
				      "(%s)",
				      keys[i].key, a, keys[i].option, keys[i].use);
	}
	return 0;
}

/* What the scan found, against the profile: jobs, each with a target;
 * clones reported together, and no reporting group of several jobs (fio
 * would report them under the first one's name); each knob the profile
 * has a say in reaches the jobs. */
static int check_jobs(struct check *c, const struct profile *p, const struct jobscan *s)
{
	const struct profile_workload *w = &p->workload;
	static const struct {
		int var;
		const char *key, *var_name;
	} knobs[] = {
		{JOBVAR_BS, "fio_bs", "BS"},
		{JOBVAR_IODEPTH, "fio_iodepth", "IODEPTH"},
		{JOBVAR_NUMJOBS, "fio_numjobs", "NUMJOBS"},
		{JOBVAR_IOENGINE, "fio_ioengine", "IOENGINE"},
		{JOBVAR_RW, "fio_rw", "RW"},
		{JOBVAR_RWMIXREAD, "fio_rwmixread", "RWMIXREAD"},
	};
	bool swept[] = {
		w->fio_bs.n > 1, w->fio_iodepth.n > 1, w->fio_numjobs.n > 1,
		(w->fio_ioengine & (w->fio_ioengine - 1)) != 0,
		(w->fio_rw & (w->fio_rw - 1)) != 0, w->fio_rwmixread.n > 1,
	};
	bool clones_by_kit = any_level_not_one(&w->fio_numjobs);

	if (s->n_jobs == 0)
		return refuse(c, 0, "no job: a job is a [name] section");
	size_t reported = 0;
	for (size_t i = 0; i < s->n_jobs; i++)
		reported += !s->jobs[i].unreported;
	if (!reported)
		return refuse(c, 0, "no job reports anything: each has stats=0");
	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct jobscan_job *j = &s->jobs[i];
		const struct jobscan_setting *n = &j->knob[JOBKNOB_NUMJOBS];
		bool clones = n->line && (n->var == JOBVAR_NUMJOBS ? clones_by_kit
								   : strcmp(n->value, "1") != 0);
		if (!j->target)
			return refuse(c, j->line, "job '%s' names no target the kit can fill "
						  "in: add filename=${" GUESTPROTO_JOB_VAR_PREFIX
						  "TARGET} to it or to a [global] before it",
				      j->name);
		if (clones && !j->group_reporting)
			return refuse(c, n->line, "job '%s' may run several clones (numjobs), "
						  "which fio reports one by one: add "
						  "group_reporting to it, so they are measured "
						  "together",
				      j->name);
		if (i > 0 && j->group_reporting && j->group == s->jobs[i - 1].group) {
			size_t first = i - 1;
			while (first > 0 && s->jobs[first - 1].group == j->group)
				first--;
			return refuse(c, j->line, "with group_reporting, job '%s' joins the "
						  "reporting group of job '%s' (line %u: no "
						  "stonewall or new_group between them), and fio "
						  "would report them as one job named '%s': start "
						  "'%s' with stonewall or new_group, or leave "
						  "group_reporting out of it (each job then reports "
						  "on its own)",
				      j->name, s->jobs[i - 1].name, s->jobs[i - 1].line,
				      s->jobs[first].name, j->name);
		}
	}
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (swept[i] && !s->used[knobs[i].var])
			return refuse(c, 0, "[workload] %s sweeps several levels, but the job "
					    "file uses no ${" GUESTPROTO_JOB_VAR_PREFIX "%s}: "
					    "every level would run the same jobs",
				      knobs[i].key, knobs[i].var_name);
	if (clones_by_kit && !s->used[JOBVAR_NUMJOBS])
		return refuse(c, 0, "[workload] fio_numjobs = %" PRIu64 " reaches no job: the "
				    "job file uses no ${" GUESTPROTO_JOB_VAR_PREFIX "NUMJOBS} "
				    "(numjobs=${" GUESTPROTO_JOB_VAR_PREFIX "NUMJOBS} with "
				    "group_reporting, in the jobs it is for)",
			      w->fio_numjobs.v[0]);
	return check_reached(c, p, s);
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
	snprintf(vals[n++], 96, "BUILDAPP_DIRECT=%d", w->fio_direct ? 1 : 0);
	snprintf(vals[n++], 96, "BUILDAPP_FSYNC=%u", w->fio_fsync);
	snprintf(vals[n++], 96, "BUILDAPP_RAMP=%u", w->fio_ramp);
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
	n = strcspn(at, ">;\n");
	snprintf(option, sizeof(option), "%.*s", (int)n, at);
	for (const char *l = text; *l; line++) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char buf[1024];
		snprintf(buf, sizeof(buf), "%.*s", (int)len, l);
		buf[strcspn(buf, ";#")] = '\0';
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

/* fio --parse-only ARGS (NULL-terminated, after the kit's settings) with
 * the knobs K in its environment.  Returns 0, or -EINVAL with fio's
 * message in MSG, or another negative errno (fio did not run). */
static int run_parse_only(const struct profile *p, const char *fio, const struct fio_knobs *k,
			  const char *const *args, char *msg, size_t msg_len)
{
	char vals[_JOBVAR_MAX][96], *env[_JOBVAR_MAX + 1];
	char errpath[] = "/tmp/buildapp-fio-XXXXXX", globals[FIOARGS_MAX][FIOARGS_LEN];
	char *argv[FIOARGS_MAX + 8];
	_cleanup_close_ int fd = mkstemp(errpath);
	_cleanup_free_ char *err = NULL;
	struct command_result res = {0};
	struct fioargs fa;
	size_t n = 0;

	if (fd < 0)
		return -errno;
	profile_fioargs(p, &fa);
	size_t ng = fioargs_globals(&fa, globals);
	argv[n++] = (char *)fio;
	argv[n++] = "--parse-only";
	for (size_t i = 0; i < ng; i++)
		argv[n++] = globals[i];
	for (; *args && n < sizeof(argv) / sizeof(argv[0]) - 1; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	job_env(p, k, vals, env);
	struct command_opts o = {.env_extra = env, .out = COMMAND_OUT_CAPTURE,
				 .max = 65536, .stderr_path = errpath, .timeout = 60};
	int r = command_spawn(argv, &o, &res);
	int rr = files_read_regular(errpath, 65536, &err, NULL);
	unlink(errpath);
	if (r < 0) {
		free(res.out);
		snprintf(msg, msg_len, "cannot run '%s --parse-only': %s", fio, strerror(-r));
		return r;
	}
	/* fio says why on stderr, some of it on stdout. */
	msg[0] = '\0';
	const char *sources[] = {rr >= 0 ? err : NULL, res.out};
	for (size_t i = 0; i < 2; i++)
		for (const char *l = sources[i]; l && *l && strlen(msg) < 300;) {
			size_t len = strcspn(l, "\n");
			/* "job x dropped" follows the reason */
			if (len && !memmem(l, len, "dropped", 7))
				snprintf(msg + strlen(msg), msg_len - strlen(msg), "%s%.*s",
					 msg[0] ? "; " : "", (int)(len > 200 ? 200 : len), l);
			l += len + (l[len] == '\n');
		}
	free(res.out);
	if (r == 0)
		return 0;
	if (!msg[0])
		snprintf(msg, msg_len, "no message");
	return -EINVAL;
}

/* fio --parse-only of the job file with the knobs K. */
static int parse_only(struct check *c, const struct profile *p, const char *fio,
		      const char *text, const struct fio_knobs *k)
{
	const char *args[] = {c->path, NULL};
	char msg[512];
	int r = run_parse_only(p, fio, k, args, msg, sizeof(msg));

	if (r == -EINVAL)
		return refuse(c, message_line(text, msg), "fio --parse-only refuses it: %s", msg);
	if (r < 0)
		snprintf(c->why, c->why_len, "%s", msg);
	return r;
}

/* fio --parse-only once per level of each knob the sweep varies, the
 * others at their first level: a value is checked where it is used. */
static int parse_levels(struct check *c, const struct profile *p, const char *fio,
			const char *text)
{
	const struct profile_workload *w = &p->workload;
	struct fio_knobs first, k;
	int r;

	struct plan_cell none = {.workload = WORKLOAD_FIO, PLAN_CELL_NO_FIO};

	plan_cell_fio(p, &none, &first);
	if ((r = parse_only(c, p, fio, text, &first)) < 0)
		return r;
	for (int v = 0; v < _FIO_RW_MAX; v++)
		if ((w->fio_rw & AXIS_BIT(v)) && v != (int)first.rw) {
			k = first;
			k.rw = (enum fio_rw)v;
			if ((r = parse_only(c, p, fio, text, &k)) < 0)
				return r;
		}
	for (int v = 0; v < _FIO_IOENGINE_MAX; v++)
		if (w->fio_ioengine & AXIS_BIT(v)) {
			k = first;
			k.ioengine = fio_ioengine_resolve((enum fio_ioengine)v, k.iodepth);
			if (k.ioengine != first.ioengine && (r = parse_only(c, p, fio, text, &k)) < 0)
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
			if ((r = parse_only(c, p, fio, text, &k)) < 0)
				return r;
		}
	return 0;
}

/* FIO's engines (fio --enghelp: "Available IO engines:", one a line),
 * into *RET (free it). */
static int fio_engines(const char *fio, char **ret, char *why, size_t why_len)
{
	char *argv[] = {(char *)fio, "--enghelp", NULL};
	int r = command_capture(argv, NULL, 65536, ret);

	if (r != 0 || !*ret) {
		snprintf(why, why_len, "cannot run '%s --enghelp' to see its engines%s%s", fio,
			 r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
		return r < 0 ? r : -EIO;
	}
	return 0;
}

static bool has_engine(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = list; *l;) {
		size_t len = strcspn(l, "\n");
		const char *t = l;
		while (t < l + len && (*t == ' ' || *t == '\t'))
			t++;
		if ((size_t)(l + len - t) == n && strncmp(t, name, n) == 0)
			return true;
		l += len + (l[len] == '\n');
	}
	return false;
}

/* The engines the job file names itself are in the guests' fio. */
static int check_file_engines(struct check *c, const struct jobscan *s, const char *fio)
{
	_cleanup_free_ char *list = NULL;
	int r;

	for (size_t i = 0; i < s->n_jobs; i++) {
		const struct jobscan_setting *e = &s->jobs[i].knob[JOBKNOB_IOENGINE];
		if (!e->line || e->var >= 0)
			continue;
		if (!list && (r = fio_engines(fio, &list, c->why, c->why_len)) < 0)
			return r;
		if (!has_engine(list, e->value))
			return refuse(c, e->line, "ioengine=%s: the guests' fio (%s) has no "
						  "such engine (fio --enghelp)",
				      e->value, fio);
	}
	return 0;
}

/* The file PATH, read whole (at most JOBFILE_MAX_BYTES, no NUL). */
static int read_job_file(struct check *c, char **ret)
{
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t len = 0;
	int r;

	if (stat(c->path, &st) < 0) {
		r = -errno;
		snprintf(c->why, c->why_len, "'%s': %s", c->path, strerror(-r));
		return r;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(c, 0, "not a regular file");
	if (st.st_size > JOBFILE_MAX_BYTES)
		return refuse(c, 0, "%lld bytes: a job file has at most %d",
			      (long long)st.st_size, JOBFILE_MAX_BYTES);
	r = files_read_regular(c->path, JOBFILE_MAX_BYTES, &text, &len);
	if (r < 0) {
		snprintf(c->why, c->why_len, "'%s': %s", c->path, strerror(-r));
		return r;
	}
	if (memchr(text, '\0', len))
		return refuse(c, 0, "binary data: not a fio job file");
	*ret = TAKE_PTR(text);
	return 0;
}

int jobfile_check(const char *path, const struct profile *p, const char *fio,
		  char *why, size_t why_len)
{
	_cleanup_free_ char *text = NULL;
	struct check c = {.path = path, .why = why, .why_len = why_len};
	struct jobscan s;
	int r;

	if ((r = read_job_file(&c, &text)) < 0)
		return r;
	/* The file on its own first: fio --parse-only would dlopen an
	 * engine it names, and does not look at what it would touch. */
	r = jobscan_text(path, text, p->workload.fio_target == FIO_TARGET_DEVICE, &s, why,
			 why_len);
	if (r < 0 || (r = check_jobs(&c, p, &s)) < 0)
		return r;
	if (access(fio, X_OK) < 0)
		return refuse(&c, 0, "cannot be checked: %s: %s (install fio)", fio,
			      strerror(errno));
	if ((r = check_file_engines(&c, &s, fio)) < 0)
		return r;
	return parse_levels(&c, p, fio, text);
}

int jobfile_check_engines(const struct profile *p, const char *fio, char *why,
			  size_t why_len)
{
	_cleanup_free_ char *out = NULL;
	axis_mask m = p->workload.fio_ioengine;
	int r;

	/* auto is psync or libaio, by iodepth */
	if (m & AXIS_BIT(FIO_IOENGINE_AUTO))
		m |= AXIS_BIT(FIO_IOENGINE_PSYNC) | AXIS_BIT(FIO_IOENGINE_LIBAIO);
	if ((r = fio_engines(fio, &out, why, why_len)) < 0)
		return r;
	for (int e = FIO_IOENGINE_PSYNC; e < _FIO_IOENGINE_MAX; e++)
		if ((m & AXIS_BIT(e)) && !has_engine(out, fio_ioengine_name(e))) {
			snprintf(why, why_len, "%s: the guests' fio (%s) has no such engine "
					       "(fio --enghelp)",
				 fio_ioengine_name(e), fio);
			return -EINVAL;
		}
	return 0;
}

int jobfile_check_steadystate(const struct profile *p, const char *fio, char *why,
			      size_t why_len)
{
	const struct profile_workload *w = &p->workload;
	const char *args[] = {"--name=steadystate", "--filename=/dev/null", "--size=1M", NULL};
	struct plan_cell none = {.workload = WORKLOAD_FIO, PLAN_CELL_NO_FIO};
	struct fio_knobs k;
	char msg[512];

	if (!w->fio_steadystate[0])
		return 0;
	if (!fioargs_steadystate_ok(w->fio_steadystate, why, why_len))
		return -EINVAL;
	if (!w->fio_runtime || !w->fio_ss_duration ||
	    w->fio_ss_duration + w->fio_ss_ramp > w->fio_runtime) {
		snprintf(why, why_len, "'%s' needs fio_steadystate_duration (%u s) and "
				       "fio_steadystate_ramp (%u s) within fio_runtime (%u s), "
				       "the duration at least 1 s",
			 w->fio_steadystate, w->fio_ss_duration, w->fio_ss_ramp, w->fio_runtime);
		return -EINVAL;
	}
	if (access(fio, X_OK) < 0)
		return 0;
	plan_cell_fio(p, &none, &k);
	int r = run_parse_only(p, fio, &k, args, msg, sizeof(msg));
	if (r == -EINVAL)
		snprintf(why, why_len, "fio --parse-only refuses '%s': %s", w->fio_steadystate,
			 msg);
	return r == -EINVAL ? r : 0;
}

/* ---- what each job will do (buildapp plan) ------------------------------ */

/* Where job J's knob K comes from: its file's line, or the profile's KEY
 * (through fio's command line, or the variable the job names). */
static const char *source(const struct jobscan_job *j, enum jobscan_knob k, const char *key,
			  char *buf, size_t len)
{
	const struct jobscan_setting *s = &j->knob[k];

	if (s->line && s->var < 0)
		snprintf(buf, len, "line %u", s->line);
	else
		snprintf(buf, len, "%s", key);
	return buf;
}

/* KNOB's value for job J: its literal, else the profile's (DEF). */
static const char *value(const struct jobscan_job *j, enum jobscan_knob k, const char *def)
{
	const struct jobscan_setting *s = &j->knob[k];

	return s->line && s->var < 0 ? s->value : def;
}

static bool is_zero(const char *v)
{
	return !*v || strspn(v, "0") == strlen(v);
}

static void describe_job(const struct profile *p, const struct jobscan_job *j,
			 const char *name, FILE *f)
{
	const struct profile_workload *w = &p->workload;
	char src[5][32], def[5][FIOARGS_SS_MAX + 16], rt[256];

	snprintf(def[0], sizeof(def[0]), "%d", w->fio_direct ? 1 : 0);
	snprintf(def[1], sizeof(def[1]), "%u", w->fio_fsync);
	snprintf(def[2], sizeof(def[2]), "%u", w->fio_runtime);
	snprintf(def[3], sizeof(def[3]), "%u", w->fio_ramp);
	snprintf(def[4], sizeof(def[4]), "%s", w->fio_steadystate);
	const char *direct = value(j, JOBKNOB_DIRECT, def[0]);
	const char *fsync = value(j, JOBKNOB_FSYNC, def[1]);
	const char *runtime = value(j, JOBKNOB_RUNTIME, def[2]);
	const char *ramp = value(j, JOBKNOB_RAMP, def[3]);
	const char *ss = value(j, JOBKNOB_SS, def[4]);
	/* The kit's --time_based=1 comes with its --runtime. */
	bool time_based = j->knob[JOBKNOB_TIME_BASED].line && j->knob[JOBKNOB_TIME_BASED].var < 0
				  ? strcmp(j->knob[JOBKNOB_TIME_BASED].value, "0") != 0
				  : w->fio_runtime > 0;
	bool plain = strspn(runtime, "0123456789") == strlen(runtime);

	if (is_zero(runtime))
		snprintf(rt, sizeof(rt), "until its size is done");
	else
		snprintf(rt, sizeof(rt), "%s%s%s%s", time_based ? "" : "at most ", runtime,
			 plain ? " s" : "", time_based ? ", time-based" : "");
	fprintf(f, "  %s: direct=%s (%s); fsync %s%s%s%s%s (%s); %s (%s); ramp %s%s (%s)", name,
		direct, source(j, JOBKNOB_DIRECT, "fio_direct", src[0], sizeof(src[0])),
		is_zero(fsync) ? "none" : "every ", is_zero(fsync) ? "" : fsync,
		is_zero(fsync) ? "" : " writes", j->flushes[0] ? ", " : "", j->flushes,
		source(j, JOBKNOB_FSYNC, "fio_fsync", src[1], sizeof(src[1])), rt,
		source(j, JOBKNOB_RUNTIME, "fio_runtime", src[2], sizeof(src[2])),
		is_zero(ramp) ? "none" : ramp,
		!is_zero(ramp) && strspn(ramp, "0123456789") == strlen(ramp) ? " s" : "",
		source(j, JOBKNOB_RAMP, "fio_ramp", src[3], sizeof(src[3])));
	const struct jobscan_setting *dur = &j->knob[JOBKNOB_SS_DUR];
	if (*ss && dur->line && dur->var < 0 && is_zero(dur->value))
		fprintf(f, "; no steady state (ss_dur=0, line %u)", dur->line);
	else if (*ss)
		fprintf(f, "; steady state %s (%s)", ss,
			source(j, JOBKNOB_SS, "fio_steadystate", src[4], sizeof(src[4])));
	fputc('\n', f);
}

int jobfile_describe(const struct profile *p, FILE *f)
{
	const struct profile_workload *w = &p->workload;
	char globals[FIOARGS_MAX][FIOARGS_LEN], why[768];
	_cleanup_free_ char *text = NULL;
	struct check c = {.path = w->fio_job, .why = why, .why_len = sizeof(why)};
	struct fioargs fa;
	struct jobscan s;

	if (!(w->kinds & AXIS_BIT(WORKLOAD_FIO)))
		return 0;
	profile_fioargs(p, &fa);
	size_t n = fioargs_globals(&fa, globals);
	fprintf(f, "\nfio jobs, as each will run (the kit gives fio");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", globals[i]);
	if (!w->fio_job[0]) {
		struct jobscan_job built_in = {.flushes = ""};
		for (int k = 0; k < _JOBKNOB_MAX; k++)
			built_in.knob[k].var = -1;
		fprintf(f, "):\n");
		describe_job(p, &built_in, "fio (the built-in job)", f);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "; a job's own setting wins):\n");
	if (read_job_file(&c, &text) < 0 ||
	    jobscan_text(w->fio_job, text, w->fio_target == FIO_TARGET_DEVICE, &s, why,
			 sizeof(why)) < 0) {
		fprintf(f, "  cannot read it now: %s\n", why);
		return ferror(f) ? -EIO : 0;
	}
	for (size_t i = 0; i < s.n_jobs; i++) {
		char name[96];
		snprintf(name, sizeof(name), "%s (line %u, group %u%s)", s.jobs[i].name,
			 s.jobs[i].line, s.jobs[i].group,
			 s.jobs[i].unreported ? ", not reported: stats=0" : "");
		describe_job(p, &s.jobs[i], name, f);
	}
	return ferror(f) ? -EIO : 0;
}
