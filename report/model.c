/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model's structures read from its JSON form (report.json,
 * or a hand-made model of the tests), and freed.  Members a model leaves
 * out read as empty: no string (NULL), no number (NAN), zero, false. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "jsonget.h"

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static size_t length(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* A copy of string member KEY, NULL when absent or not a string; sets
 * *OOM when out of memory. */
static char *text(json_object *o, const char *key, bool *oom)
{
	const char *s = o ? jsonget_string(o, key) : NULL;
	char *d = s ? strdup(s) : NULL;
	if (s && !d)
		*oom = true;
	return d;
}

static double number(json_object *o, const char *key)
{
	double v = NAN;
	if (!o || !jsonget_number(o, key, &v))
		return NAN;
	return v;
}

/* An integer member as json-c reads it (0 when absent or null). */
static unsigned count(json_object *o, const char *key)
{
	return (unsigned)json_object_get_int(member(o, key));
}

static bool boolean(json_object *o, const char *key)
{
	return json_object_get_boolean(member(o, key));
}

/* Room for the entries of array A into *RET (N of them). */
static void *entries(json_object *a, size_t size, size_t *n, bool *oom)
{
	*n = length(a);
	if (*n == 0)
		return NULL;
	void *p = calloc(*n, size);
	if (!p) {
		*n = 0;
		*oom = true;
	}
	return p;
}

static char **strings(json_object *a, size_t *n, bool *oom)
{
	char **s = entries(a, sizeof *s, n, oom);
	for (size_t i = 0; i < *n; i++) {
		const char *v = json_object_get_string(json_object_array_get_idx(a, i));
		if (v && !(s[i] = strdup(v)))
			*oom = true;
	}
	return s;
}

static void ratio_from(json_object *o, struct model_ratio *r)
{
	r->ratio = number(o, "ratio");
	r->low = number(o, "ratio_low");
	r->high = number(o, "ratio_high");
}

int model_axes_from_json(json_object *axes, struct model_axis_value **ret, size_t *n)
{
	struct model_axis_value *v = NULL;
	size_t k = 0, want;
	int r = 0;

	*ret = NULL;
	*n = 0;
	if (!json_object_is_type(axes, json_type_object))
		return 0;
	want = (size_t)json_object_object_length(axes);
	if (want && !(v = calloc(want, sizeof *v)))
		return -ENOMEM;
	json_object_object_foreach(axes, key, val)
	{
		if (k == want)
			break;
		struct model_axis_value *a = &v[k++];
		if (!(a->axis = strdup(key)))
			r = -ENOMEM;
		if (json_object_is_type(val, json_type_boolean)) {
			a->kind = MODEL_VALUE_BOOL;
			a->boolean = json_object_get_boolean(val);
		} else if (json_object_is_type(val, json_type_int)) {
			a->kind = MODEL_VALUE_INT;
			a->integer = json_object_get_int64(val);
		} else if (val) {
			a->kind = MODEL_VALUE_STRING;
			if (!(a->string = strdup(json_object_get_string(val))))
				r = -ENOMEM;
		}
		if (val && !(a->text = strdup(json_object_get_string(val))))
			r = -ENOMEM;
	}
	/* Half made is still freed with the cell. */
	*ret = v;
	*n = k;
	return r;
}

void model_cell_name(const struct model_cell *c, char *buf, size_t size)
{
	const char *g = c->group ? c->group : "", *l = c->label ? c->label : "";

	if (strcmp(l, "-") == 0)
		l = "";
	snprintf(buf, size, "%s%s%s", g, *g && *l ? " / " : "", *g || *l ? l : "all");
}

bool model_loss_cuts(const struct model_loss *l)
{
	return l->crash && strcmp(l->crash, "power") == 0;
}

bool model_metric_cuts(const struct model_metric *m)
{
	bool any = false;

	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_loss *l = m->cells[i].loss;
		if (!l)
			continue;
		if (!model_loss_cuts(l))
			return false;
		any = true;
	}
	return any;
}

const char *model_crash_step_name(size_t i)
{
	static const char *const names[MODEL_CRASH_STEPS] = {
		"QEMU stopped", "writeback stopped", "RESULTS synced", "facts read"};

	return names[i];
}

double model_crash_step_seconds(const struct model_crash *c, size_t i)
{
	const double seconds[MODEL_CRASH_STEPS] = {
		c->qemu_stopped_seconds, c->writeback_stopped_seconds,
		c->results_synced_seconds, c->facts_read_seconds};

	return seconds[i];
}

bool model_crash_steps(const struct model_crash *c, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < MODEL_CRASH_STEPS && len < size; i++) {
		double s = model_crash_step_seconds(c, i);
		if (isnan(s))
			continue;
		int n = snprintf(buf + len, size - len, "%s%s at %.1f ms", len ? ", " : "",
				 model_crash_step_name(i), 1000 * s);
		len += n > 0 ? (size_t)n : 0;
	}
	return buf[0] != '\0';
}

void *model_push(void *array, size_t *n, size_t size)
{
	void **p = array;
	char *grown = realloc(*p, (*n + 1) * size);

	if (!grown)
		return NULL;
	*p = grown;
	memset(grown + *n * size, 0, size);
	return grown + (*n)++ * size;
}

int model_push_string(char ***array, size_t *n, const char *s)
{
	char *copy = strdup(s);
	char **slot = copy ? MODEL_PUSH(*array, *n) : NULL;

	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	return 0;
}

static void crash_from(json_object *o, struct model_crash *c, bool *oom)
{
	json_object *h = member(o, "host_crash");

	c->index = count(o, "index");
	c->lost = number(o, "lost");
	c->acknowledged = number(o, "acknowledged");
	c->fraction = number(o, "fraction");
	c->dirty_kib = c->writeback_kib = c->to_kernel_seconds = c->to_sweep_seconds = NAN;
	c->qemu_stopped_seconds = c->writeback_stopped_seconds = NAN;
	c->results_synced_seconds = c->facts_read_seconds = NAN;
	if (!h)
		return;
	c->has_host_crash = true;
	c->mechanism = text(h, "mechanism", oom);
	c->fallback = text(h, "fallback", oom);
	c->disk_write_cache = text(h, "disk_write_cache", oom);
	c->bmc = text(h, "bmc", oom);
	c->dirty_kib = number(h, "dirty_kib");
	c->writeback_kib = number(h, "writeback_kib");
	c->qemu_stopped_seconds = number(h, "qemu_stopped_seconds");
	c->writeback_stopped_seconds = number(h, "writeback_stopped_seconds");
	c->results_synced_seconds = number(h, "results_synced_seconds");
	c->facts_read_seconds = number(h, "facts_read_seconds");
	c->to_kernel_seconds = number(h, "to_kernel_seconds");
	c->to_sweep_seconds = number(h, "to_sweep_seconds");
}

void model_loss_from_json(json_object *o, struct model_loss **ret, bool *oom)
{
	json_object *runs = member(o, "runs");
	struct model_loss *l;

	*ret = NULL;
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	if (!(l = calloc(1, sizeof *l))) {
		*oom = true;
		return;
	}
	l->crash = text(o, "crash", oom);
	l->crashes = count(o, "crashes");
	l->lost_any = count(o, "lost_any");
	l->low = number(o, "lost_any_low");
	l->high = number(o, "lost_any_high");
	l->median = number(o, "fraction_median");
	l->min = number(o, "fraction_min");
	l->max = number(o, "fraction_max");
	l->mean = number(o, "fraction_mean");
	l->mean_low = number(o, "fraction_mean_low");
	l->mean_high = number(o, "fraction_mean_high");
	l->runs = entries(runs, sizeof *l->runs, &l->n_runs, oom);
	for (size_t i = 0; i < l->n_runs; i++)
		crash_from(json_object_array_get_idx(runs, i), &l->runs[i], oom);
	*ret = l;
}

static void loss_side_from(json_object *o, struct model_loss_side *s)
{
	*s = (struct model_loss_side){.crashes = count(o, "crashes"),
				      .lost_any = count(o, "lost_any"),
				      .low = number(o, "lost_any_low"),
				      .high = number(o, "lost_any_high"),
				      .min = number(o, "fraction_min"),
				      .max = number(o, "fraction_max")};
}

struct model_loss_comparison *model_loss_comparisons_from_json(json_object *a, size_t *n,
								bool *oom)
{
	struct model_loss_comparison *out = entries(a, sizeof *out, n, oom);

	for (size_t i = 0; i < *n; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct model_loss_comparison *c = &out[i];
		c->axis = text(o, "axis", oom);
		c->level = text(o, "level", oom);
		c->reference = text(o, "reference", oom);
		model_held_from_json(member(o, "held"), &c->held, &c->n_held, oom);
		model_held_from_json(member(o, "at"), &c->at, &c->n_at, oom);
		c->pooled = boolean(o, "pooled");
		c->strata = count(o, "strata");
		c->crash = text(o, "crash", oom);
		loss_side_from(member(o, "level_loss"), &c->l);
		loss_side_from(member(o, "reference_loss"), &c->r);
		c->test = text(o, "test", oom);
		c->p = number(o, "p");
		c->shown = boolean(o, "shown");
		c->disagree = boolean(o, "settings_disagree");
		c->resolve = count(o, "crashes_to_resolve");
		c->sentence = text(o, "sentence", oom);
	}
	return out;
}

static void cell_from(json_object *o, struct model_cell *c, bool *oom)
{
	json_object *axes = member(o, "axes"), *runs = member(o, "runs"), *b;

	c->id = text(o, "id", oom);
	c->host = text(o, "host", oom);
	if (axes && model_axes_from_json(axes, &c->axes, &c->n_axes) < 0)
		*oom = true;
	c->group = text(o, "group", oom);
	c->label = text(o, "label", oom);
	c->display = text(o, "display", oom);
	c->n = count(o, "n");
	c->mean = number(o, "mean");
	c->sd = number(o, "sd");
	c->ci_low = number(o, "ci_low");
	c->ci_high = number(o, "ci_high");
	c->too_few_runs = boolean(o, "too_few_runs");
	c->runs = entries(runs, sizeof *c->runs, &c->n_runs, oom);
	for (size_t i = 0; i < c->n_runs; i++) {
		json_object *r = json_object_array_get_idx(runs, i);
		c->runs[i] = (struct model_run){.index = count(r, "index"),
						.value = number(r, "value"),
						.first = boolean(r, "first")};
	}
	c->failed = count(o, "failed");
	c->cache_mismatches = count(o, "cache_mismatches");
	if ((b = member(o, "baseline"))) {
		c->has_baseline = true;
		ratio_from(b, &c->baseline.r);
		c->baseline.worse = boolean(b, "worse");
	}
	model_loss_from_json(member(o, "loss"), &c->loss, oom);
}

void model_held_from_json(json_object *o, struct model_held **ret, size_t *n, bool *oom)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	*n = (size_t)json_object_object_length(o);
	if (*n && !(*ret = calloc(*n, sizeof **ret))) {
		*n = 0;
		*oom = true;
	}
	size_t i = 0;
	json_object_object_foreach(o, key, val)
	{
		if (i == *n)
			break;
		const char *v = json_object_get_string(val);
		(*ret)[i].axis = strdup(key);
		(*ret)[i].level = v ? strdup(v) : NULL;
		if (!(*ret)[i].axis || (v && !(*ret)[i].level))
			*oom = true;
		i++;
	}
}

static void comparison_from(json_object *o, struct model_comparison *c, bool *oom)
{
	json_object *measured = member(o, "measured");

	c->axis = text(o, "axis", oom);
	c->level = text(o, "level", oom);
	c->reference = text(o, "reference", oom);
	model_held_from_json(member(o, "held"), &c->held, &c->n_held, oom);
	model_held_from_json(member(o, "at"), &c->at, &c->n_at, oom);
	c->pooled = boolean(o, "pooled");
	c->strata = count(o, "strata");
	ratio_from(o, &c->r);
	c->df = number(o, "df");
	c->n_level = count(o, "n_level");
	c->n_reference = count(o, "n_reference");
	c->shown = boolean(o, "shown");
	c->better = boolean(o, "better");
	c->unmeasured = measured && !json_object_get_boolean(measured);
	c->no_spread = boolean(o, "did_not_vary");
	c->disagree = boolean(o, "settings_disagree");
	c->resolution = number(o, "resolution");
	c->sentence = text(o, "sentence", oom);
}

static struct model_outlier *outliers_from(json_object *a, size_t *n, bool *oom)
{
	struct model_outlier *out = entries(a, sizeof *out, n, oom);
	for (size_t i = 0; i < *n; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct model_outlier *x = &out[i];
		x->host = text(o, "host", oom);
		x->cell = text(o, "cell", oom);
		x->workload = text(o, "workload", oom);
		x->metric = text(o, "metric", oom);
		x->mean = number(o, "mean");
		x->ci_low = number(o, "ci_low");
		x->ci_high = number(o, "ci_high");
		x->others = count(o, "others");
		x->others_mean = number(o, "others_mean");
		x->others_ci_low = number(o, "others_ci_low");
		x->others_ci_high = number(o, "others_ci_high");
		x->worse = boolean(o, "worse");
		x->sentence = text(o, "sentence", oom);
	}
	return out;
}

static void metric_from(json_object *o, struct model_metric *m, bool *oom)
{
	json_object *cells = member(o, "cells"), *cmps = member(o, "comparisons");
	const char *better = jsonget_string(o, "better");

	m->name = text(o, "name", oom);
	m->unit = text(o, "unit", oom);
	m->lower_is_better = better && strcmp(better, "lower") == 0;
	m->cells = entries(cells, sizeof *m->cells, &m->n_cells, oom);
	for (size_t i = 0; i < m->n_cells; i++)
		cell_from(json_object_array_get_idx(cells, i), &m->cells[i], oom);
	m->comparisons = entries(cmps, sizeof *m->comparisons, &m->n_comparisons, oom);
	for (size_t i = 0; i < m->n_comparisons; i++)
		comparison_from(json_object_array_get_idx(cmps, i), &m->comparisons[i], oom);
	m->outliers = outliers_from(member(o, "outliers"), &m->n_outliers, oom);
	m->loss_comparisons = model_loss_comparisons_from_json(member(o, "loss_comparisons"),
								&m->n_loss_comparisons, oom);
}

static void hosts_from(json_object *a, struct model *m, bool *oom)
{
	m->hosts = entries(a, sizeof *m->hosts, &m->n_hosts, oom);
	for (size_t i = 0; i < m->n_hosts; i++) {
		json_object *o = json_object_array_get_idx(a, i), *e;
		struct model_host *h = &m->hosts[i];
		h->label = text(o, "label", oom);
		h->source = text(o, "source", oom);
		h->info = json_object_get(member(o, "info"));
		h->runs = count(o, "runs");
		h->failed = count(o, "failed");
		h->planned = count(o, "planned_runs");
		if ((e = member(o, "efficiency"))) {
			h->has_efficiency = true;
			h->efficiency = (struct model_efficiency){
				.ratio = number(e, "ratio"),
				.measured_seconds = number(e, "measured_seconds"),
				.wall_seconds = number(e, "wall_seconds"),
				.sessions = count(e, "sessions")};
		}
	}
}

static void rest_from(json_object *o, struct model *m, bool *oom)
{
	json_object *a = member(o, "plan_differences"), *b;

	m->plan_differences = entries(a, sizeof *m->plan_differences, &m->n_plan_differences, oom);
	for (size_t i = 0; i < m->n_plan_differences; i++) {
		json_object *d = json_object_array_get_idx(a, i);
		m->plan_differences[i] = (struct model_plan_difference){
			text(d, "host", oom), text(d, "key", oom), text(d, "value", oom),
			text(d, "reference_value", oom)};
	}
	a = member(o, "axes");
	m->axes = entries(a, sizeof *m->axes, &m->n_axes, oom);
	for (size_t i = 0; i < m->n_axes; i++) {
		json_object *x = json_object_array_get_idx(a, i);
		m->axes[i].name = text(x, "name", oom);
		m->axes[i].levels = strings(member(x, "levels"), &m->axes[i].n_levels, oom);
		m->axes[i].reference = text(x, "reference", oom);
	}
	a = member(o, "failures");
	m->failures = entries(a, sizeof *m->failures, &m->n_failures, oom);
	for (size_t i = 0; i < m->n_failures; i++) {
		json_object *f = json_object_array_get_idx(a, i);
		struct model_failure *x = &m->failures[i];
		x->host = text(f, "host", oom);
		x->cell = text(f, "cell", oom);
		x->status = text(f, "status", oom);
		x->message = text(f, "message", oom);
		x->index = count(f, "index");
		x->console_log = text(f, "console_log", oom);
	}
	m->outliers = outliers_from(member(o, "outliers"), &m->n_outliers, oom);
	if ((b = member(o, "baseline"))) {
		m->has_baseline = true;
		m->baseline_source = text(b, "source", oom);
		a = member(b, "worse");
		m->worse = entries(a, sizeof *m->worse, &m->n_worse, oom);
		for (size_t i = 0; i < m->n_worse; i++) {
			json_object *w = json_object_array_get_idx(a, i);
			ratio_from(w, &m->worse[i].r);
			m->worse[i].host = text(w, "host", oom);
			m->worse[i].cell = text(w, "cell", oom);
			m->worse[i].metric = text(w, "metric", oom);
		}
	}
	a = member(o, "references");
	m->references = length(a) ? json_object_get(a) : NULL;
}

int model_from_json(struct json_object *o, struct model **ret)
{
	const char *format = o ? jsonget_string(o, "format") : NULL;
	unsigned version = 0;
	bool oom = false;
	json_object *a;

	if (!o || !json_object_is_type(o, json_type_object) || !format ||
	    strcmp(format, "buildapp-report") != 0 || !jsonget_uint(o, "version", &version) ||
	    version != 1 || !json_object_is_type(member(o, "workloads"), json_type_array))
		return -EINVAL;
	struct model *m = calloc(1, sizeof *m);
	if (!m)
		return -ENOMEM;
	m->format = text(o, "format", &oom);
	m->version = count(o, "version");
	m->confidence = number(o, "confidence");
	m->title = text(o, "title", &oom);
	m->method = text(o, "method", &oom);
	m->headlines = strings(member(o, "headlines"), &m->n_headlines, &oom);
	m->n_asked = count(o, "asked");
	if (m->n_asked > m->n_headlines)
		m->n_asked = m->n_headlines;
	a = member(o, "workloads");
	m->workloads = entries(a, sizeof *m->workloads, &m->n_workloads, &oom);
	for (size_t i = 0; i < m->n_workloads; i++) {
		json_object *w = json_object_array_get_idx(a, i), *ms = member(w, "metrics");
		struct model_workload *x = &m->workloads[i];
		x->name = text(w, "workload", &oom);
		x->metrics = entries(ms, sizeof *x->metrics, &x->n_metrics, &oom);
		for (size_t k = 0; k < x->n_metrics; k++)
			metric_from(json_object_array_get_idx(ms, k), &x->metrics[k], &oom);
	}
	hosts_from(member(o, "hosts"), m, &oom);
	rest_from(o, m, &oom);
	if (oom) {
		model_free(m);
		return -ENOMEM;
	}
	*ret = m;
	return 0;
}

/* --- freeing ------------------------------------------------------------- */

static void outliers_free(struct model_outlier *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].host);
		free(o[i].cell);
		free(o[i].workload);
		free(o[i].metric);
		free(o[i].sentence);
	}
	free(o);
}

void model_strings_free(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

static void cell_release(struct model_cell *c)
{
	free(c->id);
	free(c->host);
	for (size_t i = 0; i < c->n_axes; i++) {
		free(c->axes[i].axis);
		free(c->axes[i].string);
		free(c->axes[i].text);
	}
	free(c->axes);
	free(c->group);
	free(c->label);
	free(c->display);
	free(c->runs);
	model_loss_free(c->loss);
}

void model_loss_free(struct model_loss *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n_runs; i++) {
		free(l->runs[i].mechanism);
		free(l->runs[i].fallback);
		free(l->runs[i].disk_write_cache);
		free(l->runs[i].bmc);
	}
	free(l->runs);
	free(l->crash);
	free(l);
}

void model_loss_comparisons_free(struct model_loss_comparison *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].axis);
		free(c[i].level);
		free(c[i].reference);
		free(c[i].crash);
		free(c[i].test);
		model_held_free(c[i].held, c[i].n_held);
		model_held_free(c[i].at, c[i].n_at);
		free(c[i].sentence);
	}
	free(c);
}

void model_held_free(struct model_held *held, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(held[i].axis);
		free(held[i].level);
	}
	free(held);
}

static void comparison_release(struct model_comparison *c)
{
	free(c->axis);
	free(c->level);
	free(c->reference);
	model_held_free(c->held, c->n_held);
	model_held_free(c->at, c->n_at);
	free(c->sentence);
}

static void metric_release(struct model_metric *m)
{
	free(m->name);
	free(m->unit);
	for (size_t i = 0; i < m->n_cells; i++)
		cell_release(&m->cells[i]);
	free(m->cells);
	for (size_t i = 0; i < m->n_comparisons; i++)
		comparison_release(&m->comparisons[i]);
	free(m->comparisons);
	outliers_free(m->outliers, m->n_outliers);
	model_loss_comparisons_free(m->loss_comparisons, m->n_loss_comparisons);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	free(m->format);
	free(m->title);
	free(m->method);
	model_strings_free(m->headlines, m->n_headlines);
	for (size_t i = 0; i < m->n_workloads; i++) {
		for (size_t k = 0; k < m->workloads[i].n_metrics; k++)
			metric_release(&m->workloads[i].metrics[k]);
		free(m->workloads[i].metrics);
		free(m->workloads[i].name);
	}
	free(m->workloads);
	for (size_t i = 0; i < m->n_plan_differences; i++) {
		struct model_plan_difference *d = &m->plan_differences[i];
		free(d->host);
		free(d->key);
		free(d->value);
		free(d->reference_value);
	}
	free(m->plan_differences);
	for (size_t i = 0; i < m->n_hosts; i++) {
		free(m->hosts[i].label);
		free(m->hosts[i].source);
		json_object_put(m->hosts[i].info);
	}
	free(m->hosts);
	for (size_t i = 0; i < m->n_axes; i++) {
		free(m->axes[i].name);
		model_strings_free(m->axes[i].levels, m->axes[i].n_levels);
		free(m->axes[i].reference);
	}
	free(m->axes);
	for (size_t i = 0; i < m->n_failures; i++) {
		struct model_failure *f = &m->failures[i];
		free(f->host);
		free(f->cell);
		free(f->status);
		free(f->message);
		free(f->console_log);
	}
	free(m->failures);
	outliers_free(m->outliers, m->n_outliers);
	free(m->baseline_source);
	for (size_t i = 0; i < m->n_worse; i++) {
		free(m->worse[i].host);
		free(m->worse[i].cell);
		free(m->worse[i].metric);
	}
	free(m->worse);
	json_object_put(m->references);
	free(m);
}
