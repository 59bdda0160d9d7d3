/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model's JSON form (report.json, docs/report.md) from its
 * structures: the members in the order report.json has always had them,
 * numbers in the fewest digits that read back exactly (jsonget.h), none
 * (NAN) as null. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <json.h>

#include "jsonget.h"

static json_object *string_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void add_ratio(json_object *o, const struct model_ratio *r)
{
	add(o, "ratio", jsonget_new_number(r->ratio));
	add(o, "ratio_low", jsonget_new_number(r->low));
	add(o, "ratio_high", jsonget_new_number(r->high));
}

json_object *model_axes_to_json(const struct model_axis_value *axes, size_t n)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < n; i++) {
		const struct model_axis_value *a = &axes[i];
		json_object *v = NULL;
		switch (a->kind) {
		case MODEL_VALUE_STRING:
			v = json_object_new_string(a->string);
			break;
		case MODEL_VALUE_BOOL:
			v = json_object_new_boolean(a->boolean);
			break;
		case MODEL_VALUE_INT:
			v = json_object_new_int64(a->integer);
			break;
		case MODEL_VALUE_NULL:
			break;
		}
		add(o, a->axis, v);
	}
	return o;
}

static json_object *cell_json(const struct model_cell *c)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array_ext((int)c->n_runs);

	add(o, "id", json_object_new_string(c->id));
	add(o, "host", json_object_new_string(c->host));
	add(o, "axes", model_axes_to_json(c->axes, c->n_axes));
	add(o, "group", json_object_new_string(c->group));
	add(o, "label", json_object_new_string(c->label));
	add(o, "n", json_object_new_int64(c->n));
	add(o, "mean", jsonget_new_number(c->mean));
	add(o, "sd", jsonget_new_number(c->sd));
	add(o, "ci_low", jsonget_new_number(c->ci_low));
	add(o, "ci_high", jsonget_new_number(c->ci_high));
	add(o, "display", json_object_new_string(c->display));
	add(o, "too_few_runs", json_object_new_boolean(c->too_few_runs));
	for (size_t i = 0; runs && i < c->n_runs; i++) {
		json_object *r = json_object_new_object();
		add(r, "index", json_object_new_int64(c->runs[i].index));
		add(r, "value", jsonget_new_number(c->runs[i].value));
		add(r, "first", json_object_new_boolean(c->runs[i].first));
		json_object_array_add(runs, r);
	}
	add(o, "runs", runs);
	add(o, "failed", json_object_new_int64(c->failed));
	add(o, "cache_mismatches", json_object_new_int64(c->cache_mismatches));
	json_object *b = NULL;
	if (c->has_baseline) {
		b = json_object_new_object();
		add_ratio(b, &c->baseline.r);
		add(b, "worse", json_object_new_boolean(c->baseline.worse));
	}
	add(o, "baseline", b);
	if (c->loss)
		add(o, "loss", model_loss_to_json(c->loss));
	return o;
}

static json_object *host_crash_json(const struct model_crash *c)
{
	if (!c->has_host_crash)
		return NULL;
	json_object *o = json_object_new_object();
	add(o, "mechanism", string_or_null(c->mechanism));
	add(o, "fallback", string_or_null(c->fallback));
	add(o, "dirty_kib", jsonget_new_number(c->dirty_kib));
	add(o, "writeback_kib", jsonget_new_number(c->writeback_kib));
	add(o, "disk_write_cache", string_or_null(c->disk_write_cache));
	add(o, "qemu_stopped_seconds", jsonget_new_number(c->qemu_stopped_seconds));
	add(o, "writeback_stopped_seconds", jsonget_new_number(c->writeback_stopped_seconds));
	add(o, "results_synced_seconds", jsonget_new_number(c->results_synced_seconds));
	add(o, "facts_read_seconds", jsonget_new_number(c->facts_read_seconds));
	add(o, "to_kernel_seconds", jsonget_new_number(c->to_kernel_seconds));
	add(o, "to_sweep_seconds", jsonget_new_number(c->to_sweep_seconds));
	if (c->bmc)
		add(o, "bmc", json_object_new_string(c->bmc));
	return o;
}

json_object *model_loss_to_json(const struct model_loss *l)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array();

	add(o, "crash", string_or_null(l->crash));
	add(o, "crashes", json_object_new_int64(l->crashes));
	add(o, "lost_any", json_object_new_int64(l->lost_any));
	add(o, "lost_any_low", jsonget_new_number(l->low));
	add(o, "lost_any_high", jsonget_new_number(l->high));
	add(o, "fraction_median", jsonget_new_number(l->median));
	add(o, "fraction_min", jsonget_new_number(l->min));
	add(o, "fraction_max", jsonget_new_number(l->max));
	add(o, "fraction_mean", jsonget_new_number(l->mean));
	add(o, "fraction_mean_low", jsonget_new_number(l->mean_low));
	add(o, "fraction_mean_high", jsonget_new_number(l->mean_high));
	add(o, "fraction_mean_method",
	    isnan(l->mean_low) ? NULL : json_object_new_string("Hoeffding"));
	for (size_t i = 0; runs && i < l->n_runs; i++) {
		const struct model_crash *c = &l->runs[i];
		json_object *r = json_object_new_object();
		add(r, "index", json_object_new_int64(c->index));
		add(r, "lost", jsonget_new_number(c->lost));
		add(r, "acknowledged", jsonget_new_number(c->acknowledged));
		add(r, "fraction", jsonget_new_number(c->fraction));
		add(r, "host_crash", host_crash_json(c));
		json_object_array_add(runs, r);
	}
	add(o, "runs", runs);
	return o;
}

static json_object *loss_side_json(const struct model_loss_side *s)
{
	json_object *o = json_object_new_object();
	add(o, "crashes", json_object_new_int64(s->crashes));
	add(o, "lost_any", json_object_new_int64(s->lost_any));
	add(o, "lost_any_low", jsonget_new_number(s->low));
	add(o, "lost_any_high", jsonget_new_number(s->high));
	add(o, "fraction_min", jsonget_new_number(s->min));
	add(o, "fraction_max", jsonget_new_number(s->max));
	return o;
}

json_object *model_loss_comparisons_to_json(const struct model_loss_comparison *c, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		json_object *o = json_object_new_object();
		add(o, "axis", json_object_new_string(c[i].axis));
		add(o, "level", json_object_new_string(c[i].level));
		add(o, "reference", json_object_new_string(c[i].reference));
		add(o, "held", model_held_to_json(c[i].held, c[i].n_held));
		add(o, "at", model_held_to_json(c[i].at, c[i].n_at));
		add(o, "pooled", json_object_new_boolean(c[i].pooled));
		add(o, "strata", json_object_new_int64(c[i].strata));
		add(o, "crash", string_or_null(c[i].crash));
		/* Pooled, no side is given: the crashes are not added across
		 * the settings (each pair has its own). */
		add(o, "level_loss", c[i].pooled ? NULL : loss_side_json(&c[i].l));
		add(o, "reference_loss", c[i].pooled ? NULL : loss_side_json(&c[i].r));
		add(o, "test", json_object_new_string(c[i].test));
		add(o, "p", jsonget_new_number(c[i].p));
		add(o, "shown", json_object_new_boolean(c[i].shown));
		if (c[i].pooled)
			add(o, "settings_disagree", json_object_new_boolean(c[i].disagree));
		add(o, "crashes_to_resolve",
		    c[i].shown || c[i].pooled ? NULL : json_object_new_int64(c[i].resolve));
		add(o, "sentence", json_object_new_string(c[i].sentence));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *model_held_to_json(const struct model_held *held, size_t n)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; o && i < n; i++)
		add(o, held[i].axis, json_object_new_string(held[i].level));
	return o;
}

static json_object *comparison_json(const struct model_comparison *c)
{
	json_object *o = json_object_new_object();

	add(o, "axis", json_object_new_string(c->axis));
	add(o, "level", json_object_new_string(c->level));
	add(o, "reference", json_object_new_string(c->reference));
	add(o, "held", model_held_to_json(c->held, c->n_held));
	add(o, "at", model_held_to_json(c->at, c->n_at));
	add(o, "pooled", json_object_new_boolean(c->pooled));
	add(o, "strata", json_object_new_int64(c->strata));
	add_ratio(o, &c->r);
	add(o, "df", jsonget_new_number(c->df));
	add(o, "n_level", json_object_new_int64(c->n_level));
	add(o, "n_reference", json_object_new_int64(c->n_reference));
	add(o, "shown", json_object_new_boolean(c->shown));
	add(o, "better", json_object_new_boolean(c->better));
	add(o, "sentence", json_object_new_string(c->sentence));
	if (c->unmeasured)
		add(o, "measured", json_object_new_boolean(false));
	if (c->pooled)
		add(o, "settings_disagree", json_object_new_boolean(c->disagree));
	if (c->no_spread) {
		add(o, "did_not_vary", json_object_new_boolean(true));
		add(o, "resolution", jsonget_new_number(c->resolution));
	}
	return o;
}

static json_object *outliers_json(const struct model_outlier *x, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		json_object *o = json_object_new_object();
		add(o, "host", json_object_new_string(x[i].host));
		add(o, "cell", json_object_new_string(x[i].cell));
		add(o, "workload", json_object_new_string(x[i].workload));
		add(o, "metric", json_object_new_string(x[i].metric));
		add(o, "mean", jsonget_new_number(x[i].mean));
		add(o, "ci_low", jsonget_new_number(x[i].ci_low));
		add(o, "ci_high", jsonget_new_number(x[i].ci_high));
		add(o, "others", json_object_new_int64(x[i].others));
		add(o, "others_mean", jsonget_new_number(x[i].others_mean));
		add(o, "others_ci_low", jsonget_new_number(x[i].others_ci_low));
		add(o, "others_ci_high", jsonget_new_number(x[i].others_ci_high));
		add(o, "worse", json_object_new_boolean(x[i].worse));
		add(o, "sentence", json_object_new_string(x[i].sentence));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *metric_json(const struct model_metric *m)
{
	json_object *o = json_object_new_object(), *cells = json_object_new_array(),
		    *cmps = json_object_new_array();

	add(o, "name", json_object_new_string(m->name));
	add(o, "unit", json_object_new_string(m->unit));
	add(o, "better", json_object_new_string(m->lower_is_better ? "lower" : "higher"));
	for (size_t i = 0; cells && i < m->n_cells; i++)
		json_object_array_add(cells, cell_json(&m->cells[i]));
	add(o, "cells", cells);
	for (size_t i = 0; cmps && i < m->n_comparisons; i++)
		json_object_array_add(cmps, comparison_json(&m->comparisons[i]));
	add(o, "comparisons", cmps);
	add(o, "outliers", outliers_json(m->outliers, m->n_outliers));
	if (m->n_loss_comparisons)
		add(o, "loss_comparisons",
		    model_loss_comparisons_to_json(m->loss_comparisons, m->n_loss_comparisons));
	return o;
}

static json_object *workloads_json(const struct model *m)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_workloads; i++) {
		const struct model_workload *w = &m->workloads[i];
		json_object *o = json_object_new_object(), *metrics = json_object_new_array();
		add(o, "workload", json_object_new_string(w->name));
		for (size_t k = 0; metrics && k < w->n_metrics; k++)
			json_object_array_add(metrics, metric_json(&w->metrics[k]));
		add(o, "metrics", metrics);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *hosts_json(const struct model *m)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_hosts; i++) {
		const struct model_host *h = &m->hosts[i];
		json_object *o = json_object_new_object(), *e = NULL;
		add(o, "label", json_object_new_string(h->label));
		add(o, "source", json_object_new_string(h->source));
		add(o, "info", json_object_get(h->info));
		add(o, "runs", json_object_new_int64(h->runs));
		add(o, "failed", json_object_new_int64(h->failed));
		if (h->planned)
			add(o, "planned_runs", json_object_new_int64(h->planned));
		if (h->has_efficiency) {
			e = json_object_new_object();
			add(e, "ratio", jsonget_new_number(h->efficiency.ratio));
			add(e, "measured_seconds", jsonget_new_number(h->efficiency.measured_seconds));
			add(e, "wall_seconds", jsonget_new_number(h->efficiency.wall_seconds));
			add(e, "sessions", json_object_new_int64(h->efficiency.sessions));
		}
		add(o, "efficiency", e);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *plan_differences_json(const struct model *m)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_plan_differences; i++) {
		const struct model_plan_difference *d = &m->plan_differences[i];
		json_object *o = json_object_new_object();
		add(o, "host", json_object_new_string(d->host));
		add(o, "key", json_object_new_string(d->key));
		add(o, "value", json_object_new_string(d->value));
		add(o, "reference_value", json_object_new_string(d->reference_value));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *axes_json(const struct model *m)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_axes; i++) {
		json_object *o = json_object_new_object(), *l = json_object_new_array();
		add(o, "name", json_object_new_string(m->axes[i].name));
		for (size_t k = 0; l && k < m->axes[i].n_levels; k++)
			json_object_array_add(l, json_object_new_string(m->axes[i].levels[k]));
		add(o, "levels", l);
		add(o, "reference", json_object_new_string(m->axes[i].reference));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *failures_json(const struct model *m)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_failures; i++) {
		const struct model_failure *f = &m->failures[i];
		json_object *o = json_object_new_object();
		add(o, "host", json_object_new_string(f->host));
		add(o, "cell", json_object_new_string(f->cell));
		add(o, "index", json_object_new_int64(f->index));
		add(o, "status", json_object_new_string(f->status));
		add(o, "message", json_object_new_string(f->message));
		add(o, "console_log", string_or_null(f->console_log));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *baseline_json(const struct model *m)
{
	if (!m->has_baseline)
		return NULL;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	add(o, "source", json_object_new_string(m->baseline_source));
	for (size_t i = 0; a && i < m->n_worse; i++) {
		json_object *w = json_object_new_object();
		add_ratio(w, &m->worse[i].r);
		add(w, "host", json_object_new_string(m->worse[i].host));
		add(w, "cell", json_object_new_string(m->worse[i].cell));
		add(w, "metric", json_object_new_string(m->worse[i].metric));
		json_object_array_add(a, w);
	}
	add(o, "worse", a);
	return o;
}

int model_to_json(const struct model *m, struct json_object **ret)
{
	json_object *o = json_object_new_object(), *headlines = json_object_new_array();

	if (!o || !headlines) {
		json_object_put(o);
		json_object_put(headlines);
		return -ENOMEM;
	}
	add(o, "format", json_object_new_string(m->format));
	add(o, "version", json_object_new_int((int)m->version));
	add(o, "confidence", jsonget_new_number(m->confidence));
	add(o, "method", json_object_new_string(m->method));
	for (size_t i = 0; i < m->n_headlines; i++)
		json_object_array_add(headlines, json_object_new_string(m->headlines[i]));
	add(o, "headlines", headlines);
	add(o, "asked", json_object_new_int((int)m->n_asked));
	add(o, "title", json_object_new_string(m->title));
	add(o, "workloads", workloads_json(m));
	add(o, "plan_differences", plan_differences_json(m));
	add(o, "hosts", hosts_json(m));
	add(o, "axes", axes_json(m));
	add(o, "failures", failures_json(m));
	add(o, "outliers", outliers_json(m->outliers, m->n_outliers));
	add(o, "baseline", baseline_json(m));
	if (m->references)
		add(o, "references", json_object_get(m->references));
	*ret = o;
	return 0;
}
