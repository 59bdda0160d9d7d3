/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "summary.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "jsonget.h"
#include "log.h"

bool summary_unit_records(const char *unit)
{
	return unit && strncmp(unit, "records", 7) == 0;
}

bool summary_unit_lower_is_better(const char *unit)
{
	static const char *const times[] = {"s", "ms", "us", "ns", "sec",
					    "seconds", "records lost"};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (strcmp(unit, times[i]) == 0)
			return true;
	return false;
}

static bool run_ok(const struct journal_run *r)
{
	return strcmp(r->status, "ok") == 0;
}

double summary_run_value(const struct journal_run *r, const char *metric)
{
	if (strcmp(metric, SUMMARY_BOOT_METRIC) == 0)
		return r->boot_seconds;
	const struct result_metric *m = journal_run_metric(r, metric);
	return m ? m->value : NAN;
}

bool summary_run_crash(const struct journal_run *r, double *ret_lost, double *ret_acked)
{
	double lost = summary_run_value(r, "lost"), acked = summary_run_value(r, "acknowledged");

	/* A run that acknowledged nothing asked nothing of the crash. */
	if (r->cell.workload != WORKLOAD_DURABILITY || !run_ok(r) || !(acked > 0) ||
	    !(lost >= 0 && lost <= acked))
		return false;
	*ret_lost = lost;
	*ret_acked = acked;
	return true;
}

static int cmp_run_index(const void *a, const void *b)
{
	const struct journal_run *x = *(const struct journal_run *const *)a,
				 *y = *(const struct journal_run *const *)b;
	return (x->index > y->index) - (x->index < y->index);
}

static bool has_metric(const struct summary_cell *c, const char *name)
{
	for (size_t i = 0; i < c->n_metrics; i++)
		if (strcmp(c->metrics[i].name, name) == 0)
			return true;
	return false;
}

static int add_metric(struct summary_cell *c, const char *name,
		      const char *unit)
{
	if (has_metric(c, name))
		return 0;
	struct summary_metric *grown =
		realloc(c->metrics, (c->n_metrics + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	c->metrics = grown;
	struct summary_metric *m = &c->metrics[c->n_metrics++];
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->unit, sizeof m->unit, "%s", unit);
	m->lower_is_better = summary_unit_lower_is_better(unit);
	return 0;
}

/* The metrics of a cell: the boot time first for the tarball workloads
 * (the kvm-perf method) and last for the others, whose first reported
 * metric is their primary one. */
static int collect_metrics(struct summary_cell *c,
			   const struct journal_run *const *runs, size_t n)
{
	bool boot = false, boot_first = c->cell.workload == WORKLOAD_TARBALL_WRITE ||
					 c->cell.workload == WORKLOAD_TARBALL_READ;
	int r;

	for (size_t i = 0; i < n; i++)
		if (run_ok(runs[i]) && isfinite(runs[i]->boot_seconds))
			boot = true;
	if (boot && boot_first && (r = add_metric(c, SUMMARY_BOOT_METRIC, "s")) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (!run_ok(runs[i]))
			continue;
		for (size_t k = 0; k < runs[i]->n_metrics; k++)
			if ((r = add_metric(c, runs[i]->metrics[k].name,
					    runs[i]->metrics[k].unit)) < 0)
				return r;
	}
	if (boot && !boot_first && (r = add_metric(c, SUMMARY_BOOT_METRIC, "s")) < 0)
		return r;

	_cleanup_free_ double *v = calloc(n ? n : 1, sizeof *v);
	if (!v)
		return -ENOMEM;
	for (size_t m = 0; m < c->n_metrics; m++) {
		struct summary_metric *sm = &c->metrics[m];
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			double x = summary_run_value(runs[i], sm->name), lost, acked;
			if (!run_ok(runs[i]) || !isfinite(x))
				continue;
			v[k++] = x;
			if (summary_run_crash(runs[i], &lost, &acked)) {
				sm->crashes++;
				sm->crashes_above_zero += x > 0;
				sm->cuts |= strcmp(runs[i]->crash, "power") == 0;
			}
		}
		if (stats_compute(v, k, &sm->stats) < 0)
			sm->stats = (struct stats){0, NAN, NAN, NAN, NAN, NAN, NAN};
		/* Records are counted per crash, often all or none: no t
		 * interval over them (docs/results.md, "Loss by crash"). */
		if (summary_unit_records(sm->unit))
			sm->stats.ci95 = NAN;
	}
	return 0;
}

/* A durability cell's loss with the crash as its unit (crashloss.h). */
static int collect_crashes(struct summary_cell *c, const struct journal_run *const *runs,
			   size_t n)
{
	_cleanup_free_ double *fraction = calloc(n ? n : 1, sizeof *fraction);
	_cleanup_free_ struct summary_crash *crashes = calloc(n ? n : 1, sizeof *crashes);
	size_t k = 0;
	bool cuts = false;

	if (!fraction || !crashes)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double lost, acked;
		if (!summary_run_crash(runs[i], &lost, &acked))
			continue;
		cuts |= strcmp(runs[i]->crash, "power") == 0;
		crashes[k] = (struct summary_crash){.index = runs[i]->index, .lost = lost,
						    .acknowledged = acked, .fraction = lost / acked};
		fraction[k] = crashes[k].fraction;
		k++;
	}
	if (k == 0)
		return 0;
	c->crashes = TAKE_PTR(crashes);
	c->n_crashes = k;
	int r = crashloss_compute(fraction, k, &c->loss);
	c->loss.cuts = cuts;
	return r;
}

static int build_cell(const struct journal *j, const char *id,
		      struct summary_cell *c)
{
	_cleanup_free_ const struct journal_run **runs =
		calloc(j->n_runs, sizeof *runs);
	size_t n = 0;

	if (!runs)
		return -ENOMEM;
	for (size_t i = 0; i < j->n_runs; i++)
		if (strcmp(j->runs[i].cell.id, id) == 0)
			runs[n++] = &j->runs[i];
	qsort(runs, n, sizeof *runs, cmp_run_index);
	c->cell = runs[0]->cell;
	c->n_runs = n;
	struct cache_flags want = cache_mode_flags(c->cell.cache);
	for (size_t i = 0; i < n; i++) {
		const struct journal_run *r = runs[i];
		if (!run_ok(r))
			c->n_failed++;
		if (r->applied_known &&
		    (r->applied.writeback != want.writeback ||
		     r->applied.direct != want.direct ||
		     r->applied.no_flush != want.no_flush))
			c->n_cache_mismatch++;
		if (strcmp(r->reset, "fast") == 0)
			c->n_fast_reset++;
		else if (strcmp(r->reset, "full") == 0)
			c->n_full_reset++;
		else if (strcmp(r->reset, "none") == 0)
			c->n_none_reset++;
	}
	c->kvm = runs[n - 1]->kvm;
	int r = collect_metrics(c, runs, n);
	return r < 0 ? r : collect_crashes(c, runs, n);
}

/* Table order: by workload, then best primary mean first; cells with
 * nothing measured last; ties by id. */
static int cmp_cells(const void *a, const void *b)
{
	const struct summary_cell *x = a, *y = b;
	if (x->cell.workload != y->cell.workload)
		return (int)x->cell.workload - (int)y->cell.workload;
	double mx = x->n_metrics ? x->metrics[0].stats.mean : NAN,
	       my = y->n_metrics ? y->metrics[0].stats.mean : NAN;
	if (isnan(mx) != isnan(my))
		return isnan(mx) ? 1 : -1;
	if (!isnan(mx) && mx != my) {
		bool lower = x->metrics[0].lower_is_better;
		return (mx < my) == lower ? -1 : 1;
	}
	return strcmp(x->cell.id, y->cell.id);
}

void summary_release(struct summary *s)
{
	for (size_t i = 0; i < s->n_cells; i++) {
		free(s->cells[i].metrics);
		free(s->cells[i].crashes);
	}
	free(s->cells);
	s->cells = NULL;
	s->n_cells = 0;
}

int summary_build(const struct journal *j, struct summary *ret)
{
	struct summary s = {0};

	if (j->n_runs && !(s.cells = calloc(j->n_runs, sizeof *s.cells)))
		return -ENOMEM;
	for (size_t i = 0; i < j->n_runs; i++) {
		bool seen = false;
		for (size_t k = 0; k < s.n_cells && !seen; k++)
			seen = strcmp(s.cells[k].cell.id, j->runs[i].cell.id) == 0;
		if (seen)
			continue;
		int r = build_cell(j, j->runs[i].cell.id, &s.cells[s.n_cells++]);
		if (r < 0) {
			summary_release(&s);
			return r;
		}
	}
	if (s.n_cells)
		qsort(s.cells, s.n_cells, sizeof *s.cells, cmp_cells);
	*ret = s;
	return 0;
}

/* --- output -------------------------------------------------------------- */

static int metric_to_json(const struct summary_metric *m, json_object *a)
{
	json_object *o = json_object_new_object();
	if (!o || json_object_array_add(a, o) < 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "unit", json_object_new_string(m->unit));
	json_object_object_add(o, "better",
			       json_object_new_string(m->lower_is_better ? "lower" : "higher"));
	json_object_object_add(o, "n", json_object_new_int64((int64_t)m->stats.n));
	json_object_object_add(o, "mean", jsonget_new_number(m->stats.mean));
	json_object_object_add(o, "sd", jsonget_new_number(m->stats.sd));
	json_object_object_add(o, "ci95", jsonget_new_number(m->stats.ci95));
	json_object_object_add(o, "min", jsonget_new_number(m->stats.min));
	json_object_object_add(o, "max", jsonget_new_number(m->stats.max));
	json_object_object_add(o, "first", jsonget_new_number(m->stats.first));
	return 0;
}

/* "loss": a durability cell's crashes and their loss (docs/results.md). */
static json_object *loss_to_json(const struct summary_cell *c)
{
	const struct crashloss *l = &c->loss;
	json_object *o = json_object_new_object(), *runs = json_object_new_array();

	if (!o || !runs) {
		json_object_put(o);
		json_object_put(runs);
		return NULL;
	}
	json_object_object_add(o, "crashes", json_object_new_int64((int64_t)l->crashes));
	json_object_object_add(o, "lost_any", json_object_new_int64((int64_t)l->lost_any));
	json_object_object_add(o, "lost_any_low", jsonget_new_number(l->low));
	json_object_object_add(o, "lost_any_high", jsonget_new_number(l->high));
	json_object_object_add(o, "fraction_median", jsonget_new_number(l->median));
	json_object_object_add(o, "fraction_min", jsonget_new_number(l->min));
	json_object_object_add(o, "fraction_max", jsonget_new_number(l->max));
	json_object_object_add(o, "fraction_mean", jsonget_new_number(l->mean));
	json_object_object_add(o, "fraction_mean_low", jsonget_new_number(l->mean_low));
	json_object_object_add(o, "fraction_mean_high", jsonget_new_number(l->mean_high));
	for (size_t i = 0; i < c->n_crashes; i++) {
		json_object *r = json_object_new_object();
		json_object_object_add(r, "index", json_object_new_int64(c->crashes[i].index));
		json_object_object_add(r, "lost", jsonget_new_number(c->crashes[i].lost));
		json_object_object_add(r, "acknowledged",
				       jsonget_new_number(c->crashes[i].acknowledged));
		json_object_object_add(r, "fraction", jsonget_new_number(c->crashes[i].fraction));
		json_object_array_add(runs, r);
	}
	json_object_object_add(o, "runs", runs);
	return o;
}

static int cell_to_json(const struct summary_cell *c, json_object *a)
{
	json_object *o = json_object_new_object(), *cell = NULL, *metrics;
	if (!o || json_object_array_add(a, o) < 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	int r;
	if (!(cell = plan_cell_to_json(&c->cell)))
		return -ENOMEM;
	json_object_object_add(o, "cell", cell);
	json_object_object_add(o, "runs", json_object_new_int64((int64_t)c->n_runs));
	json_object_object_add(o, "failed", json_object_new_int64((int64_t)c->n_failed));
	json_object_object_add(o, "accel", c->cell.host ? NULL
							: json_object_new_string(c->kvm ? "kvm" : "tcg"));
	json_object_object_add(o, "cache_mismatches",
			       json_object_new_int64((int64_t)c->n_cache_mismatch));
	json_object *resets = json_object_new_object();
	json_object_object_add(resets, "fast", json_object_new_int64((int64_t)c->n_fast_reset));
	json_object_object_add(resets, "full", json_object_new_int64((int64_t)c->n_full_reset));
	json_object_object_add(resets, "none", json_object_new_int64((int64_t)c->n_none_reset));
	json_object_object_add(o, "resets", resets);
	json_object_object_add(o, "primary",
			       c->n_metrics ? json_object_new_string(c->metrics[0].name) : NULL);
	if (!(metrics = json_object_new_array()))
		return -ENOMEM;
	json_object_object_add(o, "metrics", metrics);
	for (size_t i = 0; i < c->n_metrics; i++)
		if ((r = metric_to_json(&c->metrics[i], metrics)) < 0)
			return r;
	if (c->n_crashes) {
		json_object *loss = loss_to_json(c);
		if (!loss)
			return -ENOMEM;
		json_object_object_add(o, "loss", loss);
	}
	return 0;
}

int summary_write_json(const struct summary *s, FILE *f)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	json_object *cells = json_object_new_array();
	int r;

	if (!o || !cells) {
		json_object_put(cells);
		return -ENOMEM;
	}
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "confidence", jsonget_new_number(0.95));
	json_object_object_add(o, "cells", cells);
	for (size_t i = 0; i < s->n_cells; i++)
		if ((r = cell_to_json(&s->cells[i], cells)) < 0)
			return r;
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	if (fputs(text, f) < 0 || fputc('\n', f) < 0)
		return -EIO;
	return 0;
}

/* V rounded as report.txt rounds the mean: to the place PLACE of the
 * interval's second significant digit (stats_display_place), or to four
 * significant digits without an interval. */
static void print_number(FILE *f, double v, int place)
{
	if (!isfinite(v)) {
		fprintf(f, " %12s", "-");
	} else if (place == INT_MIN) {
		fprintf(f, " %12.4g", v);
	} else {
		char text[320];
		stats_round_text(v, place, text, sizeof text);
		fprintf(f, " %12s", text);
	}
}

static void print_metric(FILE *f, const char *label, const char *runs,
			 const struct summary_metric *m)
{
	char mean[64];
	if (m->stats.n == 0)
		snprintf(mean, sizeof mean, "-");
	else if (m->crashes && strcmp(m->unit, "records lost") == 0)
		/* Lost records are said by crash: in how many of them. */
		snprintf(mean, sizeof mean, "%zu of %zu %s", m->crashes_above_zero, m->crashes,
			 crashloss_unit(m->cuts, m->crashes != 1));
	else
		stats_display(m->stats.mean, m->stats.ci95, m->stats.n, mean,
			      sizeof mean);
	int place = stats_display_place(m->stats.ci95);
	/* "±" is two bytes and one column. */
	int width = 28 + (strstr(mean, "±") ? 1 : 0);
	fprintf(f, "%-44s %7s  %-22s %-8s %3zu  %-*s", label, runs, m->name,
		m->unit, m->stats.n, width, mean);
	print_number(f, m->stats.sd, place);
	print_number(f, m->stats.min, place);
	print_number(f, m->stats.max, place);
	print_number(f, m->stats.first, place);
	fputc('\n', f);
}

/* A durability cell's loss by crash, under its metrics: its rows give
 * the lost records' mean per crash, this what the crashes lost. */
static void print_loss(FILE *f, const struct summary_cell *c)
{
	_cleanup_free_ double *fraction = calloc(c->n_crashes, sizeof *fraction);
	char text[1024];

	if (!fraction)
		return;
	for (size_t i = 0; i < c->n_crashes; i++)
		fraction[i] = c->crashes[i].fraction;
	crashloss_text(&c->loss, fraction, c->n_crashes, text, sizeof text);
	fprintf(f, "  loss by %s: %s\n", crashloss_unit(c->loss.cuts, false), text);
}

int summary_write_text(const struct summary *s, FILE *f)
{
	int workload = -1;

	for (size_t i = 0; i < s->n_cells; i++) {
		const struct summary_cell *c = &s->cells[i];
		if ((int)c->cell.workload != workload) {
			workload = (int)c->cell.workload;
			fprintf(f, "%s== %s", i ? "\n" : "",
				workload_kind_name(c->cell.workload));
			if (c->n_metrics)
				fprintf(f, ": sorted by mean %s (%s), %s is better",
					c->metrics[0].name, c->metrics[0].unit,
					c->metrics[0].lower_is_better ? "lower" : "higher");
			fprintf(f, " ==\n%-44s %7s  %-22s %-8s %3s  %-29s %12s %12s %12s %12s\n",
				"cell", "ok/runs", "metric", "unit", "n",
				"mean ± 95% CI (t, n-1)", "sd", "min", "max",
				"first run");
		}
		char runs[32];
		snprintf(runs, sizeof runs, "%zu/%zu", c->n_runs - c->n_failed,
			 c->n_runs);
		if (c->n_metrics == 0)
			fprintf(f, "%-44s %7s  (nothing measured)\n", c->cell.id, runs);
		for (size_t m = 0; m < c->n_metrics; m++)
			print_metric(f, m ? "" : c->cell.id, m ? "" : runs,
				     &c->metrics[m]);
		/* Said only where a reset was not full: every reset of a
		 * journal before the fast one was. */
		if (c->n_fast_reset || c->n_none_reset)
			fprintf(f, "  resets: %zu fast, %zu full, %zu none (journal: reset)\n",
				c->n_fast_reset, c->n_full_reset, c->n_none_reset);
		if (c->n_cache_mismatch)
			fprintf(f, "  warning: in %zu run(s) QEMU applied other cache flags than cache=%s asks for\n",
				c->n_cache_mismatch, cache_mode_name(c->cell.cache));
		if (c->n_crashes)
			print_loss(f, c);
	}
	return ferror(f) ? -EIO : 0;
}

static int write_json_file(const void *s, FILE *f)
{
	return summary_write_json(s, f);
}

static int write_text_file(const void *s, FILE *f)
{
	return summary_write_text(s, f);
}

int summary_write_results(const char *dir)
{
	_cleanup_free_ char *journal_path = NULL;
	struct journal j = {0};
	struct summary s = {0};
	int r;

	if (asprintf(&journal_path, "%s/runs.jsonl", dir) < 0)
		return -ENOMEM;
	r = journal_read(journal_path, &j);
	if (r < 0)
		return r;
	r = summary_build(&j, &s);
	journal_release(&j);
	if (r < 0)
		return log_error_errno(r, "summary of '%s'", journal_path);
	r = atomicfile_write(dir, "summary.json", write_json_file, &s);
	if (r == 0)
		r = atomicfile_write(dir, "summary.txt", write_text_file, &s);
	summary_release(&s);
	return r;
}
