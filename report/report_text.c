/* The report model written out: report.txt (answers first), report.csv
 * (RFC 4180), report.json, and report.html through report_html.c; each
 * file through a temporary one, renamed only once all are written. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "jsonget.h"
#include "log.h"
#include "reference.h"
#include "report.h"
#include "report_html.h"

/* Member KEY of O as text ("" when absent or null). */
static const char *str(json_object *o, const char *key)
{
	const char *s = jsonget_string(o, key);
	return s ? s : "";
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static size_t len(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

#define FOR_EACH(v, arr) \
	for (size_t v##_i = 0; v##_i < len(arr) && ((v) = json_object_array_get_idx(arr, v##_i)); v##_i++)

/* --- report.txt ------------------------------------------------------- */

static void text_hosts(json_object *report, FILE *f)
{
	static const char *const fields[] = {"cpu_model", "cpus", "memory_bytes", "kernel",
					     "qemu_version", "libvirt_version", "accel"};
	json_object *h;

	fprintf(f, "\n== Hosts ==\n");
	FOR_EACH(h, get(report, "hosts")) {
		json_object *info = get(h, "info");
		fprintf(f, "%s (%s): %d runs, %d failed", str(h, "label"), str(h, "source"),
			json_object_get_int(get(h, "runs")), json_object_get_int(get(h, "failed")));
		for (size_t i = 0; info && i < sizeof fields / sizeof fields[0]; i++) {
			json_object *v = get(info, fields[i]);
			if (v)
				fprintf(f, "; %s %s", fields[i], json_object_get_string(v));
		}
		fputc('\n', f);
	}
	json_object *d;
	if (len(get(report, "plan_differences")))
		fprintf(f, "\n== Plan differences (what is common is compared) ==\n");
	FOR_EACH(d, get(report, "plan_differences"))
		fprintf(f, "%s: %s = %s (first bundle: %s)\n", str(d, "host"), str(d, "key"),
			str(d, "value"), str(d, "reference_value"));
}

static int widest(int width, const char *s)
{
	int n = (int)strlen(s);
	return n > width ? n : width;
}

static void text_metric(json_object *w, json_object *m, FILE *f)
{
	json_object *c, *cmp;

	fprintf(f, "\n== %s: %s (%s, %s is better) ==\n", str(w, "workload"), str(m, "name"),
		str(m, "unit"), str(m, "better"));
	/* Columns as wide as their longest entry, so long groups line up. */
	int wg = 5, wl = 5, wh = 4;
	FOR_EACH(c, get(m, "cells")) {
		wg = widest(wg, str(c, "group"));
		wl = widest(wl, str(c, "label"));
		wh = widest(wh, str(c, "host"));
	}
	fprintf(f, "%-*s  %-*s  %-*s  %3s  %-26s %s\n", wg, "group", wl, "level", wh, "host",
		"n", "mean ± 95% CI", "notes");
	FOR_EACH(c, get(m, "cells")) {
		char notes[160] = "";
		size_t used = 0;
		int failed = json_object_get_int(get(c, "failed")),
		    mism = json_object_get_int(get(c, "cache_mismatches"));
		json_object *b = get(c, "baseline");
		if (failed)
			used += (size_t)snprintf(notes + used, sizeof notes - used, "%d failed; ",
						 failed);
		if (mism && used < sizeof notes)
			used += (size_t)snprintf(notes + used, sizeof notes - used,
						 "cache flags did not match in %d run(s); ", mism);
		if (b && json_object_get_boolean(get(b, "worse")) && used < sizeof notes)
			snprintf(notes + used, sizeof notes - used, "WORSE than the baseline; ");
		fprintf(f, "%-*s  %-*s  %-*s  %3d  %-26s %s\n", wg, str(c, "group"), wl,
			str(c, "label"), wh, str(c, "host"), json_object_get_int(get(c, "n")),
			str(c, "display"), notes);
	}
	FOR_EACH(cmp, get(m, "comparisons"))
		fprintf(f, "  %s\n", str(cmp, "sentence"));
}

static int write_txt(json_object *report, FILE *f)
{
	json_object *h, *w, *m, *x;

	fprintf(f, "buildapp report: %s\n%s.\n", str(report, "title"), str(report, "method"));
	FOR_EACH(h, get(report, "hosts")) {
		json_object *e = get(h, "efficiency");
		if (e)
			fprintf(f, "Sweep efficiency of %s: %.2f (%.0f s measuring in %.0f s "
				"of wall time)\n", str(h, "label"),
				json_object_get_double(get(e, "ratio")),
				json_object_get_double(get(e, "measured_seconds")),
				json_object_get_double(get(e, "wall_seconds")));
	}
	fprintf(f, "\n== Answers ==\n");
	if (!len(get(report, "headlines")))
		fprintf(f, "(the sweep varied no axis: nothing to compare)\n");
	FOR_EACH(h, get(report, "headlines"))
		fprintf(f, "%s\n", json_object_get_string(h));
	text_hosts(report, f);
	FOR_EACH(w, get(report, "workloads"))
		FOR_EACH(m, get(w, "metrics"))
			text_metric(w, m, f);
	if (len(get(report, "failures")))
		fprintf(f, "\n== Failed runs ==\n");
	FOR_EACH(x, get(report, "failures"))
		fprintf(f, "%s %s run %d: %s: %s%s%s\n", str(x, "host"), str(x, "cell"),
			json_object_get_int(get(x, "index")), str(x, "status"), str(x, "message"),
			get(x, "console_log") ? "; console: " : "", str(x, "console_log"));
	json_object *base = get(report, "baseline");
	if (base) {
		fprintf(f, "\n== Against the baseline %s ==\n", str(base, "source"));
		if (!len(get(base, "worse")))
			fprintf(f, "no cell significantly worse\n");
		FOR_EACH(x, get(base, "worse")) {
			char lo[32], hi[32];
			snprintf(lo, sizeof lo, "%+.0f%%", (json_object_get_double(get(x, "ratio_low")) - 1) * 100);
			snprintf(hi, sizeof hi, "%+.0f%%", (json_object_get_double(get(x, "ratio_high")) - 1) * 100);
			fprintf(f, "worse: %s %s %s: %+.0f%% [%s, %s]\n", str(x, "host"), str(x, "cell"),
				str(x, "metric"), (json_object_get_double(get(x, "ratio")) - 1) * 100, lo, hi);
		}
	}
	FOR_EACH(x, get(report, "references")) {
		fputc('\n', f);
		int r = reference_write_text(x, f);
		if (r < 0)
			return r;
	}
	return ferror(f) ? -EIO : 0;
}

/* --- report.csv ------------------------------------------------------- */

/* One RFC 4180 field: quoted when it holds a comma, quote or line end. */
static void csv_field(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number as JSON writes it (shortest exact form), "" for null. */
static void csv_number(FILE *f, json_object *v)
{
	csv_field(f, v ? json_object_to_json_string(v) : "", false);
}

#define CSV_MAX_AXES 16
struct csv_axes {
	const char *names[CSV_MAX_AXES];
	size_t n;
};

static void csv_collect_axes(json_object *report, struct csv_axes *ax)
{
	json_object *w, *m, *c;
	FOR_EACH(w, get(report, "workloads"))
		FOR_EACH(m, get(w, "metrics"))
			FOR_EACH(c, get(m, "cells")) {
				json_object_object_foreach(get(c, "axes"), key, val)
				{
					(void)val;
					bool seen = false;
					for (size_t i = 0; i < ax->n && !seen; i++)
						seen = strcmp(ax->names[i], key) == 0;
					if (!seen && ax->n < CSV_MAX_AXES)
						ax->names[ax->n++] = key;
				}
			}
}

static void csv_row_start(FILE *f, const char *kind, json_object *w, json_object *c,
			  const struct csv_axes *ax)
{
	csv_field(f, kind, true);
	csv_field(f, str(c, "host"), false);
	csv_field(f, str(c, "id"), false);
	csv_field(f, str(w, "workload"), false);
	for (size_t i = 0; i < ax->n; i++) {
		json_object *v = get(get(c, "axes"), ax->names[i]);
		csv_field(f, v ? json_object_get_string(v) : "", false);
	}
}

static int write_csv(json_object *report, FILE *f)
{
	static const char *const tail[] = {"metric", "unit", "better", "run_index", "first_run",
					   "status", "value (unit)", "n", "mean (unit)",
					   "sd (unit)", "ci95_low (unit)", "ci95_high (unit)",
					   "failed_runs", "cache_mismatches", "answer"};
	struct csv_axes ax = {0};
	json_object *w, *m, *c, *r;

	csv_collect_axes(report, &ax);
	csv_field(f, "kind", true);
	csv_field(f, "host", false);
	csv_field(f, "cell", false);
	csv_field(f, "workload", false);
	for (size_t i = 0; i < ax.n; i++)
		csv_field(f, ax.names[i], false);
	for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
		csv_field(f, tail[i], false);
	fputs("\r\n", f);
	/* The answers first, as in every format: the sentence in the last
	 * column. */
	FOR_EACH(r, get(report, "headlines")) {
		csv_field(f, "answer", true);
		for (size_t i = 0; i < ax.n + sizeof tail / sizeof tail[0] + 2; i++)
			fputc(',', f);
		csv_field(f, json_object_get_string(r), false);
		fputs("\r\n", f);
	}
	FOR_EACH(w, get(report, "workloads"))
		FOR_EACH(m, get(w, "metrics"))
			FOR_EACH(c, get(m, "cells")) {
				FOR_EACH(r, get(c, "runs")) {
					csv_row_start(f, "run", w, c, &ax);
					csv_field(f, str(m, "name"), false);
					csv_field(f, str(m, "unit"), false);
					csv_field(f, str(m, "better"), false);
					csv_number(f, get(r, "index"));
					csv_field(f, json_object_get_boolean(get(r, "first")) ? "yes" : "no", false);
					csv_field(f, "ok", false);
					csv_number(f, get(r, "value"));
					fputs(",,,,,,,,\r\n", f);
				}
				csv_row_start(f, "cell", w, c, &ax);
				csv_field(f, str(m, "name"), false);
				csv_field(f, str(m, "unit"), false);
				csv_field(f, str(m, "better"), false);
				fputs(",,,,", f); /* run_index .. value */
				csv_number(f, get(c, "n"));
				csv_number(f, get(c, "mean"));
				csv_number(f, get(c, "sd"));
				csv_number(f, get(c, "ci_low"));
				csv_number(f, get(c, "ci_high"));
				csv_number(f, get(c, "failed"));
				csv_number(f, get(c, "cache_mismatches"));
				fputs(",\r\n", f);
			}
	/* The runs that measured nothing: one row each, with their status. */
	FOR_EACH(r, get(report, "failures")) {
		csv_field(f, "run", true);
		csv_field(f, str(r, "host"), false);
		csv_field(f, str(r, "cell"), false);
		for (size_t i = 0; i < ax.n + 4; i++) /* workload .. better */
			fputc(',', f);
		csv_number(f, get(r, "index"));
		fputc(',', f);
		csv_field(f, str(r, "status"), false);
		fputs(",,,,,,,,,\r\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

/* --- report.json and the files ------------------------------------------ */

/* Compact: a 10,000-run model is 16 MB pretty-printed, 5 plain. */
static int write_json(json_object *report, FILE *f)
{
	const char *text = json_object_to_json_string_ext(
		report, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	return fputs(text, f) < 0 || fputc('\n', f) < 0 ? -EIO : 0;
}

static const struct {
	unsigned format;
	const char *name;
	int (*write)(json_object *, FILE *);
} files[] = {
	{REPORT_HTML, "report.html", report_html_write},
	{REPORT_CSV, "report.csv", write_csv},
	{REPORT_JSON, "report.json", write_json},
	{REPORT_TXT, "report.txt", write_txt},
};
#define N_FILES (sizeof files / sizeof files[0])

struct job {
	json_object *report;
	int (*write)(json_object *, FILE *);
};

static int run_job(const void *ctx, FILE *f)
{
	const struct job *j = ctx;
	return j->write(j->report, f);
}

int report_write(struct json_object *report, unsigned formats, const char *dir)
{
	char tmp[N_FILES][4096], path[4096];
	bool made[N_FILES] = {false};
	int r = 0;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "report: cannot create '%s'", dir);
	for (size_t i = 0; i < N_FILES && r == 0; i++) {
		if (!(formats & files[i].format))
			continue;
		snprintf(tmp[i], sizeof tmp[i], "%s/.%s.tmp", dir, files[i].name);
		struct job job = {report, files[i].write};
		r = atomicfile_write_tmp(tmp[i], run_job, &job);
		made[i] = true;
		if (r < 0) {
			log_error("report: cannot write '%s/%s': %s", dir, files[i].name,
				  strerror(-r));
		}
	}
	for (size_t i = 0; i < N_FILES; i++) {
		if (!made[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
		if (r == 0 && rename(tmp[i], path) < 0)
			r = log_error_errno(-errno, "report: cannot write '%s'", path);
		if (r < 0)
			unlink(tmp[i]);
	}
	return r;
}
