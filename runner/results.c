#include "results.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "guestproto.h"
#include "jsonget.h"

#define RAW_LIMIT (64u << 20)

static void set_error(struct results *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_error(struct results *r, const char *fmt, ...)
{
	if (r->error[0])
		return; /* the first error is the cause */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
}

int results_add(struct results *r, const char *name, double value,
		const char *unit)
{
	if (r->n_metrics == RESULTS_MAX_METRICS)
		return -ENOSPC;
	struct result_metric *m = &r->metrics[r->n_metrics++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = value;
	return 0;
}

const struct result_metric *results_metric_find(const struct result_metric *metrics,
						size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(metrics[i].name, name) == 0)
			return &metrics[i];
	return NULL;
}

const struct result_metric *results_find(const struct results *r,
					 const char *name)
{
	return results_metric_find(r->metrics, r->n_metrics, name);
}

void results_add_note(struct results *r, const char *note)
{
	for (size_t i = 0; i < r->n_notes; i++)
		if (strcmp(r->notes[i], note) == 0)
			return;
	if (r->n_notes == RESULTS_NOTES_MAX) {
		snprintf(r->notes[RESULTS_NOTES_MAX - 1], RESULTS_NOTE_MAX,
			 "(more notes than a run keeps: see the console log)");
		return;
	}
	snprintf(r->notes[r->n_notes++], RESULTS_NOTE_MAX, "%s", note);
}

static double json_num(json_object *o, const char *key, bool *ok)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v)) {
		*ok = false;
		return 0;
	}
	return json_object_get_double(v);
}

/* A latency fio measured (clat_ns, lat_ns, a sync's lat_ns) as
 * NAME_mean and NAME_p50, _p99, _p99_9 in microseconds; nothing when
 * fio measured none (N = 0: gtod_reduce, disable_clat...: fio writes its
 * zeros, which are no measurement), and no percentile it did not compute
 * (lat_percentiles, percentile_list).  -EBADMSG when the object is not
 * there at all. */
static int fio_latency(json_object *d, const char *key, const char *name, struct results *r)
{
	static const struct {
		const char *key, *suffix;
	} p[] = {{"50.000000", "p50"}, {"99.000000", "p99"}, {"99.900000", "p99_9"}};
	json_object *lat, *pct;
	char n[RESULTS_NAME_MAX];
	bool ok = true;
	int e = 0;

	if (!json_object_object_get_ex(d, key, &lat))
		return -EBADMSG;
	double count = json_num(lat, "N", &ok), mean = json_num(lat, "mean", &ok);
	if (!ok)
		return -EBADMSG;
	if (count <= 0)
		return 0;
	snprintf(n, sizeof(n), "%s_mean", name);
	e |= results_add(r, n, mean / 1000.0, "us");
	if (json_object_object_get_ex(lat, "percentile", &pct))
		for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
			bool have = true;
			double v = json_num(pct, p[i].key, &have);
			if (!have)
				continue;
			snprintf(n, sizeof(n), "%s_%s", name, p[i].suffix);
			e |= results_add(r, n, v / 1000.0, "us");
		}
	return e ? -ENOSPC : 0;
}

/* One direction ("read", "write") of a fio job, if it did any I/O, as
 * metrics PREFIX_DIR_iops, _bw, _clat_* (completion latency) and _lat_*
 * (total latency: submission and completion). */
static int fio_direction(json_object *job, const char *prefix, const char *dir,
			 struct results *r)
{
	json_object *d;
	bool ok = true;
	char name[RESULTS_NAME_MAX];
	int e = 0;

	if (!json_object_object_get_ex(job, dir, &d))
		return 0;
	if (json_num(d, "total_ios", &ok) <= 0)
		return 0;
	double iops = json_num(d, "iops", &ok);
	double bw = json_num(d, "bw", &ok); /* KiB/s */
	if (!ok)
		return -EBADMSG;
	snprintf(name, sizeof(name), "%s_%s_iops", prefix, dir);
	e |= results_add(r, name, iops, "IOPS");
	snprintf(name, sizeof(name), "%s_%s_bw", prefix, dir);
	e |= results_add(r, name, bw, "KiB/s");
	if (e)
		return -ENOSPC;
	snprintf(name, sizeof(name), "%s_%s_clat", prefix, dir);
	if ((e = fio_latency(d, "clat_ns", name, r)) < 0)
		return e;
	snprintf(name, sizeof(name), "%s_%s_lat", prefix, dir);
	return fio_latency(d, "lat_ns", name, r);
}

/* fsync/fdatasync latency (fio's "sync"), where the job synced. */
static int fio_sync(json_object *job, const char *prefix, struct results *r)
{
	json_object *d;
	bool ok = true;
	char name[RESULTS_NAME_MAX];

	if (!json_object_object_get_ex(job, "sync", &d) || json_num(d, "total_ios", &ok) <= 0)
		return 0;
	snprintf(name, sizeof(name), "%s_sync_lat", prefix);
	return fio_latency(d, "lat_ns", name, r);
}

/* fio's JSON object in OUT, fio's whole stdout: the one that starts at a
 * line "{" (fio prints notes before it: "note: both iodepth >= 1 and
 * synchronous I/O engine are selected..."; with --output=FILE fio 3.33
 * loses the notes its job processes print).  Every other line is a note. */
static json_object *fio_json(const char *out, struct results *r)
{
	const char *start = NULL;
	enum json_tokener_error jerr = json_tokener_continue;
	size_t end = 0;
	json_object *root = NULL;

	for (const char *l = out; *l && !start;) {
		size_t n = strcspn(l, "\n");
		if ((n == 1 && l[0] == '{') || (n == 2 && l[0] == '{' && l[1] == '\r'))
			start = l;
		l += n + (l[n] == '\n');
	}
	if (start) {
		json_tokener *tok = json_tokener_new();
		if (!tok)
			return NULL;
		root = json_tokener_parse_ex(tok, start, (int)strlen(start));
		jerr = json_tokener_get_error(tok);
		end = (size_t)(start - out) + json_tokener_get_parse_end(tok);
		json_tokener_free(tok);
		if (!root && jerr == json_tokener_continue)
			jerr = json_tokener_error_parse_eof;
	}
	/* The lines outside it, trimmed, are fio's notes. */
	for (const char *l = out; *l;) {
		size_t n = strcspn(l, "\n");
		if (root && l == start) {
			l = out + end;
			continue;
		}
		char note[RESULTS_NOTE_MAX];
		snprintf(note, sizeof(note), "%.*s", (int)n, l);
		char *t = note + strspn(note, " \t\r");
		t[strcspn(t, "\r")] = '\0';
		if (*t)
			results_add_note(r, t);
		l += n + (l[n] == '\n');
	}
	if (!root)
		set_error(r, "fio output holds no JSON object%s%s",
			  start ? ": " : " (no line '{')",
			  start ? json_tokener_error_desc(jerr) : "");
	return root;
}

/* fio's JSON: its jobs, after the checks every run needs. */
static json_object *fio_jobs(const char *out, json_object **ret_root, struct results *r,
			     int *ret_err)
{
	json_object *root, *jobs;

	*ret_root = root = fio_json(out, r);
	*ret_err = -EBADMSG;
	if (!root)
		return NULL;
	if (!json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) < 1) {
		set_error(r, "fio output has no jobs");
		return NULL;
	}
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *err;
		json_object *job = json_object_array_get_idx(jobs, i);
		if (json_object_object_get_ex(job, "error", &err) &&
		    json_object_get_int(err) != 0) {
			set_error(r, "fio job failed with error %d", json_object_get_int(err));
			*ret_err = -EIO;
			return NULL;
		}
	}
	return jobs;
}

/* Whether a metric from index FROM on is PREFIX_read_... or
 * PREFIX_write_... */
static bool results_find_prefixed(const struct results *r, size_t from, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = from; i < r->n_metrics; i++)
		if (strncmp(r->metrics[i].name, prefix, n) == 0 &&
		    (strncmp(r->metrics[i].name + n, "_read_", 6) == 0 ||
		     strncmp(r->metrics[i].name + n, "_write_", 7) == 0))
			return true;
	return false;
}

/* Whether JOB is what fio 3.33 writes for a job with stats=0 (a
 * prefill the job file does not report): an entry with no name, the
 * group UINT32_MAX, no I/O. */
static bool fio_unreported(json_object *job)
{
	static const char *const dirs[] = {"read", "write", "trim", "sync"};
	json_object *v;
	bool ok = true;

	if (json_object_object_get_ex(job, "jobname", &v) ||
	    !json_object_object_get_ex(job, "groupid", &v) ||
	    json_object_get_int64(v) != UINT32_MAX)
		return false;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (json_object_object_get_ex(job, dirs[i], &v) && json_num(v, "total_ios", &ok) != 0)
			return false;
	return true;
}

/* fio's steadystate of JOB, when it had one. */
static void fio_steady(json_object *job, const char *prefix, struct results *r)
{
	json_object *ss, *v;

	if (!json_object_object_get_ex(job, "steadystate", &ss) ||
	    !json_object_object_get_ex(ss, "attained", &v) || r->n_steady == RESULTS_STEADY_MAX)
		return;
	struct result_steady *s = &r->steady[r->n_steady++];
	snprintf(s->prefix, sizeof(s->prefix), "%s", prefix);
	s->attained = json_object_get_int(v) != 0;
}

/* The metrics of fio job JOB, named PREFIX_...; -EBADMSG when it did no
 * I/O, or I/O the kit cannot name, or lacks a field. */
static int fio_job_metrics(json_object *job, const char *prefix, struct results *r)
{
	size_t before = r->n_metrics;
	json_object *d;
	bool ok = true;
	int e;

	/* The profile's check refuses both; a fio that did them anyway
	 * is not reported under names that do not say so. */
	if (json_object_object_get_ex(job, "trim", &d) && json_num(d, "total_ios", &ok) > 0) {
		set_error(r, "fio did trims, which the kit does not report");
		return -EBADMSG;
	}
	if (json_object_object_get_ex(job, "mixed", &d)) {
		set_error(r, "fio reported reads and writes as one (unified_rw_reporting), "
			     "which the kit does not report");
		return -EBADMSG;
	}
	if ((e = fio_direction(job, prefix, "read", r)) < 0 ||
	    (e = fio_direction(job, prefix, "write", r)) < 0 ||
	    (e = fio_sync(job, prefix, r)) < 0) {
		set_error(r, e == -ENOSPC ? "fio output has more metrics than a run keeps"
					  : "fio output lacks iops, bw, clat_ns or lat_ns");
		return e;
	}
	/* Syncs alone are not I/O: a job reports reads or writes. */
	if (!results_find_prefixed(r, before, prefix)) {
		set_error(r, "fio did no I/O");
		return -EBADMSG;
	}
	fio_steady(job, prefix, r);
	return 0;
}

int results_parse_fio_json(const char *out, struct results *r)
{
	_cleanup_(json_object_putp) json_object *root = NULL;
	int e;
	/* The built-in job is one job (its clones reported together). */
	json_object *jobs = fio_jobs(out, &root, r, &e);

	if (!jobs)
		return e;
	return fio_job_metrics(json_object_array_get_idx(jobs, 0), "fio", r);
}

int results_parse_fio_jobs(const char *out, struct results *r)
{
	_cleanup_(json_object_putp) json_object *root = NULL;
	char prefix[RESULTS_NAME_MAX];
	int e;
	json_object *jobs = fio_jobs(out, &root, r, &e);

	if (!jobs)
		return e;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i), *name;
		if (fio_unreported(job))
			continue;
		if (!json_object_object_get_ex(job, "jobname", &name) ||
		    !json_object_is_type(name, json_type_string)) {
			set_error(r, "fio output: job %zu has no name (a reporting group "
				     "of several jobs?)", i);
			return -EBADMSG;
		}
		const char *n = json_object_get_string(name);
		/* The names the profile's check lets through, each once: a
		 * name twice is a job's clones reported one by one. */
		if (!guestproto_job_name_ok(n)) {
			set_error(r, "fio output: job name '%.40s' is not one a job file may "
				     "have", n);
			return -EBADMSG;
		}
		for (size_t k = 0; k < i; k++) {
			json_object *other;
			if (json_object_object_get_ex(json_object_array_get_idx(jobs, k),
						      "jobname", &other) &&
			    strcmp(json_object_get_string(other), n) == 0) {
				set_error(r, "fio output: job '%s' is there twice (clones "
					     "without group_reporting?)", n);
				return -EBADMSG;
			}
		}
		snprintf(prefix, sizeof(prefix), "fio_%s", n);
		if ((e = fio_job_metrics(job, prefix, r)) < 0)
			return e;
	}
	return 0;
}

/* Splits LINE at commas in place into at most MAX fields. */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

int results_parse_bonnie_csv(const char *csv, struct results *r)
{
	static const struct {
		const char *name, *unit;
	} cols[] = {
		{"bonnie_putc", "K/s"},       {"bonnie_block_write", "K/s"},
		{"bonnie_rewrite", "K/s"},    {"bonnie_getc", "K/s"},
		{"bonnie_block_read", "K/s"}, {"bonnie_seeks", "/s"},
	};
	char *f[64];
	_cleanup_free_ char *line = NULL;

	/* The CSV line is the last non-empty line; bonnie++ -q prints only
	 * it, but a human-readable table may precede it. */
	const char *start = csv, *p;
	for (p = csv; *p; p++)
		if (*p == '\n' && p[1] && p[1] != '\n')
			start = p + 1;
	line = strndup(start, strcspn(start, "\r\n"));
	if (!line)
		return -ENOMEM;
	int n = split_csv(line, f, 64);

	/* Where the six (value, %CPU) pairs start: 1.03 has no version
	 * column (name,size,...); 1.96/1.97 put format and bonnie versions,
	 * name, concurrency, seed, size, chunk first; 1.98 (bonnie++ 2.x)
	 * adds seeks and seek processes. */
	int first;
	if (strcmp(f[0], "1.98") == 0)
		first = 9;
	else if (strcmp(f[0], "1.96") == 0 || strcmp(f[0], "1.97") == 0)
		first = 7;
	else if (n >= 14 && f[0][0] && (f[0][0] < '0' || f[0][0] > '9'))
		first = 2;
	else {
		set_error(r, "unknown bonnie++ CSV format '%s'", f[0]);
		return -EBADMSG;
	}
	if (n < first + 12) {
		set_error(r, "bonnie++ CSV line has %d fields", n);
		return -EBADMSG;
	}
	int found = 0;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		const char *v = f[first + 2 * i];
		char *end;
		/* "+++++": too fast to measure; empty: test skipped. */
		if (!*v || v[0] == '+')
			continue;
		double x = strtod(v, &end);
		if (end == v || *end || !isfinite(x)) {
			set_error(r, "bonnie++ CSV: bad %s '%s'", cols[i].name,
				  v);
			return -EBADMSG;
		}
		if (results_add(r, cols[i].name, x, cols[i].unit) < 0)
			return -ENOSPC;
		found++;
	}
	if (!found) {
		set_error(r, "bonnie++ measured nothing");
		return -EBADMSG;
	}
	return 0;
}

/* Value of KEY=VALUE among space-separated words of S, copied to BUF. */
static bool word_value(const char *s, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	for (const char *p = s; p && *p;) {
		while (*p == ' ')
			p++;
		if (strncmp(p, key, k) == 0 && p[k] == '=') {
			p += k + 1;
			size_t n = strcspn(p, " ");
			snprintf(buf, len, "%.*s", (int)n, p);
			return true;
		}
		p = strchr(p, ' ');
	}
	return false;
}

static int parse_metric(const char *args, struct results *r)
{
	char name[RESULTS_LINE_NAME_MAX], value[64], unit[RESULTS_UNIT_MAX];
	char *end;

	if (!word_value(args, "name", name, sizeof(name)) ||
	    !word_value(args, "value", value, sizeof(value)) ||
	    !word_value(args, "unit", unit, sizeof(unit)))
		goto bad;
	double v = strtod(value, &end);
	if (end == value || *end || !isfinite(v))
		goto bad;
	return results_add(r, name, v, unit);
bad:
	set_error(r, "bad METRIC line '%s'", args);
	return -EBADMSG;
}

struct raw {
	char tool[32];
	long announced, lines;
	char *buf;
	size_t len, cap;
	bool open;
};

static int raw_append(struct raw *w, const char *s, size_t n)
{
	if (w->len + n + 2 > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 65536;
		while (cap < w->len + n + 2)
			cap *= 2;
		if (cap > RAW_LIMIT)
			return -EFBIG;
		char *b = realloc(w->buf, cap);
		if (!b)
			return -ENOMEM;
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len++] = '\n';
	w->buf[w->len] = '\0';
	w->lines++;
	return 0;
}

static int raw_finish(struct raw *w, struct results *r)
{
	w->open = false;
	if (w->lines != w->announced) {
		set_error(r, "raw %s output: %ld lines announced, %ld received",
			  w->tool, w->announced, w->lines);
		return -EBADMSG;
	}
	const char *text = w->buf ? w->buf : "";
	if (strcmp(w->tool, "fio") == 0)
		return results_parse_fio_json(text, r);
	if (strcmp(w->tool, "fio-jobs") == 0)
		return results_parse_fio_jobs(text, r);
	if (strcmp(w->tool, "bonnie") == 0)
		return results_parse_bonnie_csv(text, r);
	set_error(r, "raw output of unknown tool '%s'", w->tool);
	return -EBADMSG;
}

/* Handles one tagged line: KIND is the word after the tag, ARGS the rest
 * (after one space), N its length. */
static int parse_line(const char *kind, size_t klen, const char *args,
		      size_t n, struct raw *w, struct results *r)
{
	char a[1024];
#define IS(k) (klen == strlen(k) && strncmp(kind, k, klen) == 0)
	if (IS(GUESTPROTO_RAW))
		return w->open ? raw_append(w, args, n) : 0;
	snprintf(a, sizeof(a), "%.*s", (int)n, args);
	if (IS(GUESTPROTO_BEGIN)) {
		r->begun = true;
		word_value(a, "kernel", r->kernel, sizeof(r->kernel));
	} else if (IS(GUESTPROTO_METRIC)) {
		return parse_metric(a, r);
	} else if (IS(GUESTPROTO_RAW_BEGIN)) {
		char lines[32] = "";
		snprintf(w->tool, sizeof(w->tool), "%.*s", (int)strcspn(a, " "),
			 a);
		word_value(a, "lines", lines, sizeof(lines));
		w->announced = strtol(lines, NULL, 10);
		w->lines = 0;
		w->len = 0;
		if (w->buf)
			w->buf[0] = '\0';
		w->open = true;
	} else if (IS(GUESTPROTO_RAW_END)) {
		if (w->open)
			return raw_finish(w, r);
	} else if (IS(GUESTPROTO_ERROR)) {
		set_error(r, "guest: %s", a);
	} else if (IS(GUESTPROTO_END)) {
		char st[16] = "";
		r->ended = true;
		word_value(a, "status", st, sizeof(st));
		r->status = (int)strtol(st, NULL, 10);
		if (!st[0])
			r->status = 1;
	}
#undef IS
	return 0;
}

static bool kind_has_metrics(enum workload_kind kind, const struct results *r)
{
	switch (kind) {
	case WORKLOAD_TARBALL_WRITE:
		return results_find(r, "write_seconds");
	case WORKLOAD_TARBALL_READ:
		return results_find(r, "read_seconds");
	case WORKLOAD_DD:
		return results_find(r, "dd_mbps");
	case WORKLOAD_FIO:
		/* fio_read_iops, or a job file's fio_JOB_write_iops... */
		for (size_t i = 0; i < r->n_metrics; i++) {
			const char *n = r->metrics[i].name;
			size_t len = strlen(n);
			if (strncmp(n, "fio_", 4) == 0 && len > 5 &&
			    strcmp(n + len - 5, "_iops") == 0)
				return true;
		}
		return false;
	case WORKLOAD_BONNIE:
		for (size_t i = 0; i < r->n_metrics; i++)
			if (strncmp(r->metrics[i].name, "bonnie_", 7) == 0)
				return true;
		return false;
	default:
		return r->n_metrics > 0;
	}
}

int results_parse(const char *text, size_t len, enum workload_kind kind,
		  struct results *ret)
{
	struct raw w = {0};
	const size_t tlen = strlen(GUESTPROTO_TAG);
	int bad = 0;

	memset(ret, 0, sizeof(*ret));
	ret->status = -1;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		/* The tag may follow junk a kernel message left on the
		 * line; search for it rather than expect it first. */
		const char *t = memmem(p, eol - p, GUESTPROTO_TAG, tlen);
		if (t) {
			const char *k = t + tlen;
			while (eol > k && eol[-1] == '\r')
				eol--;
			size_t klen = 0;
			while (k + klen < eol && k[klen] != ' ')
				klen++;
			const char *args = k + klen < eol ? k + klen + 1 : eol;
			int r = parse_line(k, klen, args, eol - args, &w, ret);
			if (r < 0 && !bad)
				bad = r;
		}
		p = nl ? nl + 1 : end;
	}
	free(w.buf);

	if (!ret->begun && !ret->ended) {
		set_error(ret, "no output from the guest agent");
		return -ENODATA;
	}
	if (!ret->ended) {
		set_error(ret, "the guest stopped before its END line "
			       "(crash or timeout)");
		return -ENODATA;
	}
	if (ret->status != 0) {
		set_error(ret, "the guest agent failed (status %d)",
			  ret->status);
		return -EIO;
	}
	if (w.open) {
		set_error(ret, "raw %s output not terminated", w.tool);
		return -EBADMSG;
	}
	if (bad)
		return bad == -EIO ? -EIO : -EBADMSG;
	if (!kind_has_metrics(kind, ret)) {
		set_error(ret, "no %s metrics in the guest output",
			  workload_kind_name(kind));
		return -EBADMSG;
	}
	return 0;
}
