/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model (model.h) written out: report.txt (answers first),
 * report.csv (RFC 4180), report.json through model_json.c, and
 * report.html through report_html.c; each
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
#include "crashloss.h"
#include "jsonget.h"
#include "log.h"
#include "model.h"
#include "reference.h"
#include "report.h"
#include "report_html.h"
#include "summary.h"


static size_t length(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* S, or "" for none. */
static const char *str(const char *s)
{
	return s ? s : "";
}

/* --- report.txt ------------------------------------------------------- */

static void text_hosts(const struct model *mo, FILE *f)
{
	static const char *const fields[] = {"cpu_model", "cpus", "memory_bytes", "kernel",
					     "qemu_version", "libvirt_version", "accel", "secure_boot",
					     "lockdown"};

	fprintf(f, "\n== Hosts ==\n");
	for (size_t k = 0; k < mo->n_hosts; k++) {
		const struct model_host *h = &mo->hosts[k];
		fprintf(f, "%s (%s): %u runs", str(h->label), str(h->source), h->runs);
		if (h->planned)
			fprintf(f, " (plan: %u)", h->planned);
		fprintf(f, ", %u failed", h->failed);
		/* host.json's own members, as it holds them. */
		for (size_t i = 0; h->info && i < sizeof fields / sizeof fields[0]; i++) {
			json_object *v = NULL;
			if (json_object_object_get_ex(h->info, fields[i], &v) && v)
				fprintf(f, "; %s %s", fields[i], json_object_get_string(v));
		}
		fputc('\n', f);
	}
	if (mo->n_plan_differences)
		fprintf(f, "\n== Plan differences (what is common is compared) ==\n");
	for (size_t k = 0; k < mo->n_plan_differences; k++) {
		const struct model_plan_difference *d = &mo->plan_differences[k];
		fprintf(f, "%s: %s = %s (first bundle: %s)\n", str(d->host), str(d->key),
			str(d->value), str(d->reference_value));
	}
}

static int widest(int width, const char *s)
{
	int n = (int)strlen(s);
	return n > width ? n : width;
}

/* One crash's host crash record, after its loss: "; host crash by kexec:
 * dirty 1536 KiB, writeback 0 KiB at the trigger, disk write cache off;
 * 4.25 s to the next kernel, 61.5 s to the resumed sweep"; a power cut's
 * "; power cut through in-band IPMI (...): chassis power cycle: ...". */
static void text_host_crash(const struct model_crash *c, FILE *f)
{
	if (!c->has_host_crash)
		return;
	if (c->mechanism && strcmp(c->mechanism, "power") == 0)
		fprintf(f, "; power cut through %s", c->bmc ? c->bmc : "the BMC");
	else
		fprintf(f, "; host crash by %s", str(c->mechanism));
	if (c->fallback)
		fprintf(f, " (kexec not used: %s)", c->fallback);
	char dirty[32] = "unknown", writeback[32] = "unknown";
	if (!isnan(c->dirty_kib))
		snprintf(dirty, sizeof dirty, "%.0f KiB", c->dirty_kib);
	if (!isnan(c->writeback_kib))
		snprintf(writeback, sizeof writeback, "%.0f KiB", c->writeback_kib);
	fprintf(f, ": dirty %s, writeback %s at the trigger, disk write cache %s", dirty,
		writeback, c->disk_write_cache ? c->disk_write_cache : "unknown");
	char steps[256];
	if (model_crash_steps(c, steps, sizeof steps))
		fprintf(f, "; from the crash point: %s, then the trigger", steps);
	if (!isnan(c->to_kernel_seconds))
		fprintf(f, "; %g s to the next kernel", c->to_kernel_seconds);
	if (!isnan(c->to_sweep_seconds))
		fprintf(f, "%s %g s to the resumed sweep", isnan(c->to_kernel_seconds) ? ";" : ",",
			c->to_sweep_seconds);
}

/* Each crash of the metric's durability cells: what it lost, and what
 * its host's crash left on record. */
static void text_crashes(const struct model_metric *m, FILE *f)
{
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		if (!c->loss)
			continue;
		char name[256];
		model_cell_name(c, name, sizeof name);
		fprintf(f, "  %s of %s on %s (%s, after %s):\n",
			crashloss_unit(model_loss_cuts(c->loss), true), name,
			str(c->host), str(c->id), crashloss_after(c->loss->crash));
		for (size_t k = 0; k < c->loss->n_runs; k++) {
			const struct model_crash *x = &c->loss->runs[k];
			char pc[24];
			crashloss_percent(x->fraction, pc, sizeof pc);
			fprintf(f, "    run %u: lost %.0f of %.0f acknowledged (%s%%)", x->index, x->lost,
				x->acknowledged, pc);
			text_host_crash(x, f);
			fputc('\n', f);
		}
	}
}

static bool has_loss(const struct model_metric *m)
{
	for (size_t i = 0; i < m->n_cells; i++)
		if (m->cells[i].loss)
			return true;
	return false;
}

static void text_metric(const struct model_workload *w, const struct model_metric *m, FILE *f)
{
	bool loss = has_loss(m);

	fprintf(f, "\n== %s: %s (%s, %s is better) ==\n", str(w->name), str(m->name),
		str(m->unit), m->lower_is_better ? "lower" : "higher");
	bool cuts = model_metric_cuts(m);
	if (loss)
		fprintf(f, "(by %s: %s that lost any acknowledged record, k of n with the exact "
			"95%% interval, and each %s's fraction lost)\n", crashloss_unit(cuts, false),
			crashloss_unit(cuts, true), crashloss_unit(cuts, false));
	/* Columns as wide as their longest entry, so long groups line up. */
	int wg = 5, wl = 5, wh = 4;
	for (size_t i = 0; i < m->n_cells; i++) {
		wg = widest(wg, str(m->cells[i].group));
		wl = widest(wl, str(m->cells[i].label));
		wh = widest(wh, str(m->cells[i].host));
	}
	/* A count of records is said by crash, with no interval over them. */
	const char *head = loss ? "loss" : summary_unit_records(m->unit) ? "by crash" : "mean ± 95% CI";
	fprintf(f, "%-*s  %-*s  %-*s  %3s  %-26s %s\n", wg, "group", wl, "level", wh, "host",
		"n", head, "notes");
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		char notes[160] = "";
		size_t used = 0;
		if (c->failed)
			used += (size_t)snprintf(notes + used, sizeof notes - used, "%d failed; ",
						 (int)c->failed);
		if (c->cache_mismatches && used < sizeof notes)
			used += (size_t)snprintf(notes + used, sizeof notes - used,
						 "cache flags did not match in %d run(s); ",
						 (int)c->cache_mismatches);
		if (c->has_baseline && c->baseline.worse && used < sizeof notes)
			snprintf(notes + used, sizeof notes - used, "WORSE than the baseline; ");
		fprintf(f, "%-*s  %-*s  %-*s  %3d  %-26s %s\n", wg, str(c->group), wl,
			str(c->label), wh, str(c->host), (int)c->n, str(c->display), notes);
	}
	for (size_t i = 0; i < m->n_comparisons; i++)
		fprintf(f, "  %s\n", str(m->comparisons[i].sentence));
	for (size_t i = 0; i < m->n_loss_comparisons; i++)
		fprintf(f, "  %s\n", str(m->loss_comparisons[i].sentence));
	if (loss)
		text_crashes(m, f);
}

/* Where the answers were measured: "on SRV-A" or "on 3 servers". */
void report_answers_where(const struct model *mo, char *buf, size_t size)
{
	if (mo->n_hosts == 1)
		snprintf(buf, size, "on %s", str(mo->hosts[0].label));
	else
		snprintf(buf, size, "on %zu servers", mo->n_hosts);
}

bool report_host_unfinished(const struct model_host *h, char *buf, size_t size)
{
	if (!h->planned || h->runs >= h->planned)
		return false;
	snprintf(buf, size,
		 "%s did not finish its sweep: its journal holds %u of the %u runs its plan "
		 "holds; what follows is from the runs it made",
		 str(h->label), h->runs, h->planned);
	return true;
}

void report_write_answers(const struct model *mo, FILE *f)
{
	char where[160];

	fprintf(f, "== Answers ==\n");
	if (!mo->n_headlines)
		fprintf(f, "(the sweep varied no axis: nothing to compare)\n");
	report_answers_where(mo, where, sizeof where);
	if (mo->n_asked)
		fprintf(f, "What this profile asks ([report] compare), %s:\n", where);
	for (size_t i = 0; i < mo->n_headlines; i++) {
		if (mo->n_asked && i == mo->n_asked)
			fprintf(f, "Also compared:\n");
		fprintf(f, "%s\n", str(mo->headlines[i]));
	}
}

static int write_txt(const struct model *mo, FILE *f)
{
	fprintf(f, "buildapp report: %s\n%s.\n", str(mo->title), str(mo->method));
	for (size_t i = 0; i < mo->n_hosts; i++) {
		const struct model_host *h = &mo->hosts[i];
		if (h->has_efficiency)
			fprintf(f, "Sweep efficiency of %s: %.2f (%.0f s measuring in %.0f s "
				"of wall time)\n", str(h->label), h->efficiency.ratio,
				h->efficiency.measured_seconds, h->efficiency.wall_seconds);
		char unfinished[320];
		if (report_host_unfinished(h, unfinished, sizeof unfinished))
			fprintf(f, "Unfinished: %s.\n", unfinished);
	}
	fprintf(f, "\n");
	report_write_answers(mo, f);
	text_hosts(mo, f);
	for (size_t w = 0; w < mo->n_workloads; w++)
		for (size_t m = 0; m < mo->workloads[w].n_metrics; m++)
			text_metric(&mo->workloads[w], &mo->workloads[w].metrics[m], f);
	if (mo->n_failures)
		fprintf(f, "\n== Failed runs ==\n");
	for (size_t i = 0; i < mo->n_failures; i++) {
		const struct model_failure *x = &mo->failures[i];
		fprintf(f, "%s %s run %d: %s: %s%s%s\n", str(x->host), str(x->cell),
			(int)x->index, str(x->status), str(x->message),
			x->console_log ? "; console: " : "", str(x->console_log));
	}
	if (mo->has_baseline) {
		fprintf(f, "\n== Against the baseline %s ==\n", str(mo->baseline_source));
		if (!mo->n_worse)
			fprintf(f, "no cell significantly worse\n");
		for (size_t i = 0; i < mo->n_worse; i++) {
			const struct model_worse *x = &mo->worse[i];
			char lo[32], hi[32];
			snprintf(lo, sizeof lo, "%+.0f%%", (x->r.low - 1) * 100);
			snprintf(hi, sizeof hi, "%+.0f%%", (x->r.high - 1) * 100);
			fprintf(f, "worse: %s %s %s: %+.0f%% [%s, %s]\n", str(x->host),
				str(x->cell), str(x->metric), (x->r.ratio - 1) * 100, lo, hi);
		}
	}
	for (size_t i = 0; i < length(mo->references); i++) {
		fputc('\n', f);
		int r = reference_write_text(json_object_array_get_idx(mo->references, i), f);
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

/* A number as report.json writes it (shortest exact form), "" for none. */
static void csv_number(FILE *f, double v)
{
	char buf[JSONGET_NUMBER_MAX];
	const char *s = jsonget_number_text(v, buf, sizeof buf);
	csv_field(f, s ? s : "", false);
}

static void csv_count(FILE *f, unsigned n)
{
	fprintf(f, ",%u", n);
}

#define CSV_MAX_AXES 16
struct csv_axes {
	const char *names[CSV_MAX_AXES];
	size_t n;
};

static void csv_collect_axes(const struct model *mo, struct csv_axes *ax)
{
	for (size_t w = 0; w < mo->n_workloads; w++)
		for (size_t m = 0; m < mo->workloads[w].n_metrics; m++) {
			const struct model_metric *me = &mo->workloads[w].metrics[m];
			for (size_t c = 0; c < me->n_cells; c++)
				for (size_t k = 0; k < me->cells[c].n_axes; k++) {
					const char *key = me->cells[c].axes[k].axis;
					bool seen = false;
					for (size_t i = 0; i < ax->n && !seen; i++)
						seen = strcmp(ax->names[i], key) == 0;
					if (!seen && ax->n < CSV_MAX_AXES)
						ax->names[ax->n++] = key;
				}
		}
}

/* Cell C's level of axis NAME as JSON text gives it ("" for none). */
static void csv_level(FILE *f, const struct model_cell *c, const char *name)
{
	const char *s = "";

	for (size_t k = 0; k < c->n_axes; k++)
		if (strcmp(c->axes[k].axis, name) == 0) {
			s = c->axes[k].text ? c->axes[k].text : "";
			break;
		}
	csv_field(f, s, false);
}

static void csv_row_start(FILE *f, const char *kind, const struct model_workload *w,
			  const struct model_cell *c, const struct csv_axes *ax)
{
	csv_field(f, kind, true);
	csv_field(f, str(c->host), false);
	csv_field(f, str(c->id), false);
	csv_field(f, str(w->name), false);
	for (size_t i = 0; i < ax->n; i++)
		csv_level(f, c, ax->names[i]);
}

static void csv_metric(FILE *f, const struct model_metric *m)
{
	csv_field(f, str(m->name), false);
	csv_field(f, str(m->unit), false);
	csv_field(f, m->lower_is_better ? "lower" : "higher", false);
}

/* The columns of a durability cell's loss by crash (docs/report.md),
 * between cache_mismatches and answer. */
static const char *const loss_columns[] = {
	"acknowledged",	   "lost_fraction",	    "crashes",
	"crashes_lost_any", "crashes_ci95_low",	    "crashes_ci95_high",
	"lost_fraction_median", "lost_fraction_min", "lost_fraction_max",
	"crash_mechanism", "crash_fallback",	    "dirty_kib",
	"writeback_kib",   "disk_write_cache",	    "qemu_stopped_seconds",
	"writeback_stopped_seconds", "results_synced_seconds", "facts_read_seconds",
	"to_kernel_seconds", "to_sweep_seconds",
};
#define N_LOSS_COLUMNS (sizeof loss_columns / sizeof loss_columns[0])

static void csv_empty(FILE *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(',', f);
}

/* A run row's loss columns: crash X's, or empty. */
static void csv_crash(FILE *f, const struct model_crash *x)
{
	if (!x) {
		csv_empty(f, N_LOSS_COLUMNS);
		return;
	}
	csv_number(f, x->acknowledged);
	csv_number(f, x->fraction);
	csv_empty(f, 7); /* crashes .. lost_fraction_max */
	csv_field(f, str(x->mechanism), false);
	csv_field(f, str(x->fallback), false);
	csv_number(f, x->dirty_kib);
	csv_number(f, x->writeback_kib);
	csv_field(f, str(x->disk_write_cache), false);
	csv_number(f, x->qemu_stopped_seconds);
	csv_number(f, x->writeback_stopped_seconds);
	csv_number(f, x->results_synced_seconds);
	csv_number(f, x->facts_read_seconds);
	csv_number(f, x->to_kernel_seconds);
	csv_number(f, x->to_sweep_seconds);
}

/* A cell row's loss columns: L's, or empty. */
static void csv_loss(FILE *f, const struct model_loss *l)
{
	if (!l) {
		csv_empty(f, N_LOSS_COLUMNS);
		return;
	}
	csv_empty(f, 2); /* acknowledged, lost_fraction */
	csv_count(f, l->crashes);
	csv_count(f, l->lost_any);
	csv_number(f, l->low);
	csv_number(f, l->high);
	csv_number(f, l->median);
	csv_number(f, l->min);
	csv_number(f, l->max);
	csv_empty(f, 11); /* crash_mechanism .. to_sweep_seconds */
}

/* Crash INDEX of cell C's loss, or NULL. */
static const struct model_crash *crash_of_run(const struct model_cell *c, unsigned index)
{
	for (size_t i = 0; c->loss && i < c->loss->n_runs; i++)
		if (c->loss->runs[i].index == index)
			return &c->loss->runs[i];
	return NULL;
}

static void csv_cell(FILE *f, const struct model_workload *w, const struct model_metric *m,
		     const struct model_cell *c, const struct csv_axes *ax)
{
	for (size_t i = 0; i < c->n_runs; i++) {
		csv_row_start(f, "run", w, c, ax);
		csv_metric(f, m);
		csv_count(f, c->runs[i].index);
		csv_field(f, c->runs[i].first ? "yes" : "no", false);
		csv_field(f, "ok", false);
		csv_number(f, c->runs[i].value);
		csv_empty(f, 7); /* n .. cache_mismatches */
		csv_crash(f, crash_of_run(c, c->runs[i].index));
		fputs(",\r\n", f);
	}
	csv_row_start(f, "cell", w, c, ax);
	csv_metric(f, m);
	fputs(",,,,", f); /* run_index .. value */
	csv_count(f, c->n);
	csv_number(f, c->mean);
	csv_number(f, c->sd);
	csv_number(f, c->ci_low);
	csv_number(f, c->ci_high);
	csv_count(f, c->failed);
	csv_count(f, c->cache_mismatches);
	csv_loss(f, c->loss);
	fputs(",\r\n", f);
}

static int write_csv(const struct model *mo, FILE *f)
{
	static const char *const tail[] = {"metric", "unit", "better", "run_index", "first_run",
					   "status", "value (unit)", "n", "mean (unit)",
					   "sd (unit)", "ci95_low (unit)", "ci95_high (unit)",
					   "failed_runs", "cache_mismatches"};
	struct csv_axes ax = {0};

	csv_collect_axes(mo, &ax);
	csv_field(f, "kind", true);
	csv_field(f, "host", false);
	csv_field(f, "cell", false);
	csv_field(f, "workload", false);
	for (size_t i = 0; i < ax.n; i++)
		csv_field(f, ax.names[i], false);
	for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
		csv_field(f, tail[i], false);
	for (size_t i = 0; i < N_LOSS_COLUMNS; i++)
		csv_field(f, loss_columns[i], false);
	csv_field(f, "answer", false);
	fputs("\r\n", f);
	/* The answers first, as in every format: the sentence in the last
	 * column. */
	for (size_t r = 0; r < mo->n_headlines; r++) {
		csv_field(f, "answer", true);
		csv_empty(f, ax.n + sizeof tail / sizeof tail[0] + N_LOSS_COLUMNS + 3);
		csv_field(f, str(mo->headlines[r]), false);
		fputs("\r\n", f);
	}
	for (size_t w = 0; w < mo->n_workloads; w++)
		for (size_t m = 0; m < mo->workloads[w].n_metrics; m++) {
			const struct model_metric *me = &mo->workloads[w].metrics[m];
			for (size_t c = 0; c < me->n_cells; c++)
				csv_cell(f, &mo->workloads[w], me, &me->cells[c], &ax);
		}
	/* The runs that measured nothing: one row each, with their status. */
	for (size_t r = 0; r < mo->n_failures; r++) {
		const struct model_failure *x = &mo->failures[r];
		csv_field(f, "run", true);
		csv_field(f, str(x->host), false);
		csv_field(f, str(x->cell), false);
		csv_empty(f, ax.n + 4); /* workload .. better */
		csv_count(f, x->index);
		fputc(',', f);
		csv_field(f, str(x->status), false);
		csv_empty(f, 8 + N_LOSS_COLUMNS + 1); /* value .. answer */
		fputs("\r\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

/* --- report.json and the files ------------------------------------------ */

/* Compact: a 10,000-run model is 16 MB pretty-printed, 5 plain. */
static int write_json(const struct model *report, FILE *f)
{
	_cleanup_(json_object_putp) json_object *o = NULL;
	int r = model_to_json(report, &o);

	if (r < 0)
		return r;
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	return fputs(text, f) < 0 || fputc('\n', f) < 0 ? -EIO : 0;
}

static const struct {
	unsigned format;
	const char *name;
	int (*write)(const struct model *, FILE *);
} files[] = {
	{REPORT_HTML, "report.html", report_html_write},
	{REPORT_CSV, "report.csv", write_csv},
	{REPORT_JSON, "report.json", write_json},
	{REPORT_TXT, "report.txt", write_txt},
};
#define N_FILES (sizeof files / sizeof files[0])

struct job {
	const struct model *model;
	int (*write)(const struct model *, FILE *);
};

static int run_job(const void *ctx, FILE *f)
{
	const struct job *j = ctx;
	return j->write(j->model, f);
}

int report_write(const struct model *report, unsigned formats, const char *dir)
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
