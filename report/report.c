/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model (docs/report.md, model.h's structures) from result
 * bundles (bundle.h): the cells placed on the axes the sweep varied, per
 * workload and metric, with failures, hosts and plan differences.  The
 * axes and their reference levels are report_axes.c's, the comparisons
 * and the baseline check report_cmp.c's, the writers report_text.c's
 * (report.json: model_json.c). */
#include "report_builder.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>

#include "cleanup.h"
#include "compare.h"
#include "jsonget.h"
#include "parse.h"
#include "log.h"
#include "reference.h"
#include "summary.h"

/* The [report] section of the first bundle's plan, or NULL. */
static json_object *plan_report_section(const struct builder *bd)
{
	json_object *profile, *section;

	if (!bd->bundles[0].plan ||
	    !json_object_object_get_ex(bd->bundles[0].plan, "profile", &profile) ||
	    !json_object_object_get_ex(profile, "report", &section))
		return NULL;
	return section;
}

/* KEY of the first bundle's plan's [report] section, or NULL when it
 * has none or it is empty. */
static const char *plan_report_key(const struct builder *bd, const char *key)
{
	json_object *section = plan_report_section(bd);
	const char *v;

	if (!section || !(v = jsonget_string(section, key)) || !*v)
		return NULL;
	return v;
}

/* --- per cell ------------------------------------------------------------ */

static const struct summary_metric *metric_of(const struct summary_cell *sc,
					      const char *name)
{
	for (size_t m = 0; m < sc->n_metrics; m++)
		if (strcmp(sc->metrics[m].name, name) == 0)
			return &sc->metrics[m];
	return NULL;
}

/* Which varied axis's level decides which other's, over every cell
 * (backend decides format), and so which follow an earlier one. */
static int mark_following_axes(struct builder *bd)
{
	for (size_t k = 0; k < bd->n_axes; k++) {
		bd->follows[k] = false;
		for (size_t j = 0; j < bd->n_axes; j++) {
			bd->decides[j][k] = false;
			if (j == k || !varied(&bd->axes[j]) || !varied(&bd->axes[k]))
				continue;
			_cleanup_free_ size_t *seen = malloc(bd->axes[j].n_levels * sizeof *seen);
			if (!seen)
				return -ENOMEM;
			for (size_t l = 0; l < bd->axes[j].n_levels; l++)
				seen[l] = SIZE_MAX;
			bool decided = true;
			for (size_t i = 0; i < bd->n_cells && decided; i++) {
				size_t *s = &seen[bd->cells[i].lev[j]];
				if (*s == SIZE_MAX)
					*s = bd->cells[i].lev[k];
				decided = *s == bd->cells[i].lev[k];
			}
			bd->decides[j][k] = decided;
			if (j < k && decided)
				bd->follows[k] = true;
		}
	}
	return 0;
}

/* "outer / levels" and the innermost varied axis's level; an axis that
 * follows another is not named twice. */
static void group_label(const struct builder *bd, const struct rcell *c,
			char *group, size_t gsize, char *label, size_t lsize)
{
	size_t last = SIZE_MAX;
	for (size_t k = 0; k < bd->n_axes; k++)
		if (varied(&bd->axes[k]))
			last = k;
	group[0] = label[0] = '\0';
	size_t used = 0;
	for (size_t k = 0; k < bd->n_axes && last != SIZE_MAX; k++) {
		if (!varied(&bd->axes[k]))
			continue;
		const char *lv = bd->axes[k].levels[c->lev[k]];
		if (k != last && bd->follows[k])
			continue;
		if (k == last)
			snprintf(label, lsize, "%s", lv);
		else if (used < gsize)
			used += (size_t)snprintf(group + used, gsize - used, "%s%s",
						 used ? " / " : "", lv);
	}
}

/* Copies S into *RET; returns 0 or -ENOMEM. */
static int dup_into(char **ret, const char *s)
{
	return (*ret = strdup(s)) ? 0 : -ENOMEM;
}

static int cell_fill(struct builder *bd, const struct rcell *c, const char *metric,
		     struct model_cell *o)
{
	const struct summary_cell *sc = sc_of(c);
	const struct summary_metric *m = metric_of(sc, metric);
	const struct bundle_runs *cr = &c->b->cr[c->i];
	_cleanup_free_ double *v = calloc(cr->n ? cr->n : 1, sizeof *v);
	_cleanup_free_ unsigned *idx = calloc(cr->n ? cr->n : 1, sizeof *idx);
	char group[256], label[BUNDLE_LABEL_MAX], display[64];
	int r;

	if (!v || !idx)
		return -ENOMEM;
	size_t n = bundle_values(cr, metric, v, idx);
	/* A cell with no ok run is in the list all the same (workload_fill). */
	static const struct stats none = {.mean = NAN, .sd = NAN, .ci95 = NAN};
	const struct stats *s = m ? &m->stats : &none;
	bool wide = stats_display(s->mean, s->ci95, s->n, display, sizeof display);
	if (!m)
		snprintf(display, sizeof display, "no ok run");
	group_label(bd, c, group, sizeof group, label, sizeof label);
	if ((r = dup_into(&o->id, sc->cell.id)) < 0 || (r = dup_into(&o->host, c->b->label)) < 0 ||
	    (r = model_axes_from_json(c->axes, &o->axes, &o->n_axes)) < 0 ||
	    (r = dup_into(&o->group, group)) < 0 || (r = dup_into(&o->label, label)) < 0 ||
	    (r = dup_into(&o->display, display)) < 0)
		return r;
	o->n = (unsigned)s->n;
	o->mean = s->mean;
	o->sd = s->sd;
	/* Runs that all read the same have no interval, not one of no
	 * width (docs/results.md, "Runs that did not vary"). */
	o->ci_low = s->ci95 > 0 ? s->mean - s->ci95 : NAN;
	o->ci_high = s->ci95 > 0 ? s->mean + s->ci95 : NAN;
	o->too_few_runs = wide;
	if (n && !(o->runs = calloc(n, sizeof *o->runs)))
		return -ENOMEM;
	o->n_runs = n;
	for (size_t i = 0; i < n; i++)
		o->runs[i] = (struct model_run){.index = idx[i], .value = v[i], .first = i == 0};
	o->failed = (unsigned)sc->n_failed;
	o->cache_mismatches = (unsigned)sc->n_cache_mismatch;
	/* What the crashes lost is said by crash, not as a mean of records. */
	if (m && strcmp(m->name, "lost") == 0 ? (r = report_loss_cell(c, o)) < 0
	    : m && (r = report_loss_records_cell(m, v, n, o)) < 0)
		return r;
	return m ? report_cmp_baseline(bd, c, m, v, n, o) : 0;
}

/* --- workloads ----------------------------------------------------------- */

static int metric_fill(struct builder *bd, struct mcells *m, bool primary,
		       struct model_metric *o)
{
	int r;

	if ((r = dup_into(&o->name, m->metric)) < 0 || (r = dup_into(&o->unit, m->unit)) < 0)
		return r;
	o->lower_is_better = m->lower;
	if (m->n && !(o->cells = calloc(m->n, sizeof *o->cells)))
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		o->n_cells++;
		if ((r = cell_fill(bd, m->c[i], m->metric, &o->cells[i])) < 0)
			return r;
	}
	/* Counts of records are not compared as ratios of means; what a
	 * durability cell lost is compared by crash. */
	if (summary_unit_records(m->unit))
		return strcmp(m->metric, "lost") == 0 &&
				       strcmp(m->workload, workload_kind_name(WORKLOAD_DURABILITY)) == 0
			       ? report_loss_cmp(bd, m, o)
			       : 0;
	if ((r = report_cmp(bd, m, primary, o)) < 0)
		return r;
	return report_rack_outliers(bd, m, o);
}

/* One workload: the cells [FROM, TO) of bd->cells (sorted by workload). */
static int workload_fill(struct builder *bd, size_t from, size_t to)
{
	int r;

	_cleanup_free_ const struct rcell **pick = calloc(to - from, sizeof *pick);
	_cleanup_free_ const char **names = NULL;
	size_t n_names = 0;

	if (!pick)
		return -ENOMEM;
	/* The metrics, primary first, in the order the cells report them. */
	for (size_t i = from; i < to; i++) {
		const struct summary_cell *sc = sc_of(&bd->cells[i]);
		for (size_t k = 0; k < sc->n_metrics; k++) {
			bool seen = false;
			for (size_t x = 0; x < n_names && !seen; x++)
				seen = strcmp(names[x], sc->metrics[k].name) == 0;
			if (seen)
				continue;
			const char **grown = realloc(names, (n_names + 1) * sizeof *grown);
			if (!grown)
				return -ENOMEM;
			names = grown;
			names[n_names++] = sc->metrics[k].name;
		}
	}
	struct model_workload *w = MODEL_PUSH(bd->m->workloads, bd->m->n_workloads);
	if (!w)
		return -ENOMEM;
	if ((r = dup_into(&w->name, workload_kind_name(sc_of(&bd->cells[from])->cell.workload))) < 0)
		return r;
	for (size_t x = 0; x < n_names; x++) {
		struct mcells m = {.c = pick, .workload = workload_kind_name(
						      sc_of(&bd->cells[from])->cell.workload),
				   .metric = names[x]};
		for (size_t i = from; i < to; i++) {
			const struct summary_cell *sc = sc_of(&bd->cells[i]);
			const struct summary_metric *sm = metric_of(sc, names[x]);
			/* A cell with no ok run has no metric at all: it is
			 * listed under each ("no ok run"), and its comparisons
			 * say it was not measured, rather than being left out. */
			if (!sm && sc->n_metrics > 0)
				continue;
			if (sm && !m.unit) {
				m.unit = sm->unit;
				m.lower = sm->lower_is_better;
			}
			pick[m.n++] = &bd->cells[i];
		}
		/* Made in place: the model's metric is W's, whose array only
		 * this loop adds to. */
		struct model_metric *mo = MODEL_PUSH(w->metrics, w->n_metrics);
		if (!mo)
			return -ENOMEM;
		if ((r = metric_fill(bd, &m, x == 0, mo)) < 0)
			return r;
	}
	return 0;
}

/* --- the rest of the model ----------------------------------------------- */

static int failures_fill(const struct builder *bd)
{
	struct model *m = bd->m;
	int r;

	for (size_t b = 0; b < bd->n_bundles; b++) {
		const struct bundle *bu = &bd->bundles[b];
		for (size_t i = 0; i < bu->j.n_runs; i++) {
			const struct journal_run *run = &bu->j.runs[i];
			if (strcmp(run->status, "ok") == 0)
				continue;
			char log[64], path[4096];
			snprintf(log, sizeof log, "console/run-%04u.log", run->position);
			snprintf(path, sizeof path, "%s/%s", bu->dir, log);
			struct model_failure *o = MODEL_PUSH(m->failures, m->n_failures);
			if (!o)
				return -ENOMEM;
			o->index = run->index;
			if ((r = dup_into(&o->host, bu->label)) < 0 ||
			    (r = dup_into(&o->cell, run->cell.id)) < 0 ||
			    (r = dup_into(&o->status, run->status)) < 0 ||
			    (r = dup_into(&o->message, run->message)) < 0 ||
			    (access(path, F_OK) == 0 && (r = dup_into(&o->console_log, log)) < 0))
				return r;
		}
	}
	return 0;
}

/* The sweep's efficiency from its timings.json: measuring time over wall
 * time, over every session of the sweep; false when it was not recorded. */
static bool efficiency_of(json_object *timings, struct model_efficiency *ret)
{
	json_object *s = NULL;
	double ratio, measured, wall;

	if (!timings || !jsonget_number(timings, "efficiency", &ratio) || !isfinite(ratio) ||
	    !jsonget_number(timings, "measured_seconds", &measured) ||
	    !jsonget_number(timings, "wall_seconds", &wall) ||
	    !json_object_object_get_ex(timings, "sessions", &s))
		return false;
	*ret = (struct model_efficiency){.ratio = ratio, .measured_seconds = measured,
					 .wall_seconds = wall,
					 .sessions = (unsigned)json_object_array_length(s)};
	return true;
}

static int hosts_fill(const struct builder *bd)
{
	struct model *m = bd->m;
	int r;

	if (!(m->hosts = calloc(bd->n_bundles, sizeof *m->hosts)))
		return -ENOMEM;
	for (size_t b = 0; b < bd->n_bundles; b++) {
		const struct bundle *bu = &bd->bundles[b];
		struct model_host *h = &m->hosts[m->n_hosts++];
		size_t failed = 0;
		for (size_t i = 0; i < bu->j.n_runs; i++)
			failed += strcmp(bu->j.runs[i].status, "ok") != 0;
		if ((r = dup_into(&h->label, bu->label)) < 0 || (r = dup_into(&h->source, bu->dir)) < 0)
			return r;
		h->info = json_object_get(bu->host);
		h->runs = (unsigned)bu->j.n_runs;
		h->failed = (unsigned)failed;
		json_object *total = NULL;
		if (bu->plan && json_object_object_get_ex(bu->plan, "total_runs", &total) &&
		    json_object_is_type(total, json_type_int) && json_object_get_int64(total) > 0)
			h->planned = (unsigned)json_object_get_int64(total);
		h->has_efficiency = efficiency_of(bu->timings, &h->efficiency);
	}
	return 0;
}

/* The profile keys whose values differ from the first bundle's plan. */
static int plan_diff(const struct bundle *ref, const struct bundle *b, struct model *m)
{
	json_object *pa, *pb;
	if (!ref->plan || !b->plan || !json_object_object_get_ex(ref->plan, "profile", &pa) ||
	    !json_object_object_get_ex(b->plan, "profile", &pb))
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		json_object *x = pass ? pb : pa, *y = pass ? pa : pb;
		json_object_object_foreach(x, section, keys)
		{
			json_object *other = NULL;
			if (!json_object_is_type(keys, json_type_object))
				continue;
			json_object_object_get_ex(y, section, &other);
			json_object_object_foreach(keys, key, val)
			{
				json_object *ov = NULL;
				if (other)
					json_object_object_get_ex(other, key, &ov);
				if (pass == 1 && ov)
					continue; /* seen from the other side */
				const char *s1 = json_object_to_json_string(val),
					   *s2 = ov ? json_object_to_json_string(ov) : "null";
				if (strcmp(s1, s2) == 0)
					continue;
				char name[160];
				snprintf(name, sizeof name, "[%s] %s", section, key);
				struct model_plan_difference *d =
					MODEL_PUSH(m->plan_differences, m->n_plan_differences);
				if (!d || dup_into(&d->host, b->label) < 0 || dup_into(&d->key, name) < 0 ||
				    dup_into(&d->value, pass ? s1 : s2) < 0 ||
				    dup_into(&d->reference_value, pass ? s2 : s1) < 0)
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int axes_fill(const struct builder *bd)
{
	struct model *m = bd->m;

	for (size_t i = 0; i < bd->n_axes; i++) {
		const struct axis *ax = &bd->axes[i];
		if (!varied(ax))
			continue;
		struct model_axis *o = MODEL_PUSH(m->axes, m->n_axes);
		if (!o || dup_into(&o->name, ax->name) < 0 ||
		    dup_into(&o->reference, ax->levels[ax->ref]) < 0)
			return -ENOMEM;
		for (size_t k = 0; k < ax->n_levels; k++)
			if (model_push_string(&o->levels, &o->n_levels, ax->levels[k]) < 0)
				return -ENOMEM;
	}
	return 0;
}

static const char *title_of(const struct bundle *b)
{
	json_object *kit, *profile;
	const char *s;
	if (b->host && json_object_object_get_ex(b->host, "kit", &kit) &&
	    (s = jsonget_string(kit, "profile")))
		return s;
	json_object *appliance;
	if (b->plan && json_object_object_get_ex(b->plan, "profile", &profile) &&
	    json_object_object_get_ex(profile, "appliance", &appliance) &&
	    (s = jsonget_string(appliance, "name")) && *s)
		return s;
	return b->label;
}

static void unique_labels(struct builder *bd)
{
	for (size_t i = 1; i < bd->n_bundles; i++)
		for (unsigned k = 2;; k++) {
			bool taken = false;
			for (size_t x = 0; x < i && !taken; x++)
				taken = strcmp(bd->bundles[x].label, bd->bundles[i].label) == 0;
			if (!taken)
				break;
			char base[48];
			snprintf(base, sizeof base, "%.40s", bd->bundles[i].label);
			char *dash = strrchr(base, '#');
			if (dash && k > 2)
				*dash = '\0';
			snprintf(bd->bundles[i].label, sizeof bd->bundles[i].label, "%s#%u",
				 base, k);
		}
}

static void builder_release(struct builder *bd)
{
	for (size_t i = 0; i < bd->n_cells; i++)
		json_object_put(bd->cells[i].axes);
	free(bd->cells);
	for (size_t i = 0; i < bd->n_axes; i++) {
		for (size_t l = 0; l < bd->axes[i].n_levels; l++)
			free(bd->axes[i].levels[l]);
		free(bd->axes[i].levels);
	}
	for (size_t q = 0; q < bd->qs.n; q++)
		model_strings_free(bd->asked[q], bd->n_asked[q]);
	for (size_t i = 0; i < bd->n_bundles; i++)
		bundle_release(&bd->bundles[i]);
	free(bd->bundles);
	bundle_release(&bd->base);
}

/* The profile's questions' answers lead the headlines, in the order it
 * asks them; a question nothing answered says why. */
static int answers_first(struct builder *bd)
{
	struct model *m = bd->m;
	char **all = NULL;
	size_t n = 0;
	int r = 0;

	for (size_t q = 0; q < bd->qs.n && r == 0; q++) {
		char text[3 * QUESTION_WORD_MAX + 16], line[512];
		for (size_t i = 0; i < bd->n_asked[q] && r == 0; i++)
			r = model_push_string(&all, &n, bd->asked[q][i]);
		if (bd->n_asked[q] || r < 0)
			continue;
		const struct question *qq = &bd->qs.q[q];
		question_text(qq, text, sizeof text);
		if (*qq->metric)
			snprintf(line, sizeof line, "%s: not compared: no workload of these "
				 "results measured %s at both levels", text, qq->metric);
		else
			snprintf(line, sizeof line, "%s: not compared: these results have no "
				 "runs of %s %s and %s %s", text, qq->axis, qq->level, qq->axis,
				 qq->reference);
		r = model_push_string(&all, &n, line);
	}
	for (size_t i = 0; i < m->n_headlines && r == 0; i++)
		r = model_push_string(&all, &n, m->headlines[i]);
	if (r < 0) {
		model_strings_free(all, n);
		return r;
	}
	m->n_asked = n - m->n_headlines;
	model_strings_free(m->headlines, m->n_headlines);
	m->headlines = all;
	m->n_headlines = n;
	return 0;
}

static int build(struct builder *bd)
{
	const struct report_options *o = bd->o;
	struct model *m = bd->m;
	int r;

	if (!(bd->bundles = calloc(o->n_dirs, sizeof *bd->bundles)))
		return -ENOMEM;
	/* Counted before it is loaded: a bundle that fails half-read is
	 * released with the others. */
	for (size_t i = 0; i < o->n_dirs; i++)
		if (bd->n_bundles++, (r = bundle_load(o->dirs[i], &bd->bundles[i])) < 0)
			return r;
	if (o->baseline_dir) {
		if ((r = bundle_load(o->baseline_dir, &bd->base)) < 0)
			return r;
		bd->has_base = true;
	}
	unique_labels(bd);
	if ((r = dup_into(&m->title, title_of(&bd->bundles[0]))) < 0)
		return r;
	if ((r = report_axes_place(bd)) < 0)
		return r == -E2BIG ? log_error_code(-EINVAL, "report: more than %d axes", MAX_AXES)
				   : r;
	report_axes_pick_references(bd, bd->o->baseline_level
						? bd->o->baseline_level
						: plan_report_key(bd, "baseline"));
	if ((r = mark_following_axes(bd)) < 0)
		return r;
	char why[256];
	/* The questions: the options', else the first plan's. */
	const char *compare = bd->o->compare ? bd->o->compare : plan_report_key(bd, "compare");
	if (compare && questions_parse(compare, &bd->qs, why, sizeof why) < 0) {
		if (bd->o->compare)
			return log_error_code(-EINVAL, "report: --compare: %s", why);
		log_warning("report: [report] compare of the plan: %s; not answered", why);
	}

	for (size_t i = 0; i < bd->n_cells;) {
		size_t k = i;
		while (k < bd->n_cells &&
		       sc_of(&bd->cells[k])->cell.workload == sc_of(&bd->cells[i])->cell.workload)
			k++;
		if ((r = workload_fill(bd, i, k)) < 0)
			return r;
		i = k;
	}
	for (size_t i = 1; i < bd->n_bundles; i++)
		if ((r = plan_diff(&bd->bundles[0], &bd->bundles[i], m)) < 0)
			return r;
	if ((r = hosts_fill(bd)) < 0 || (r = axes_fill(bd)) < 0 || (r = failures_fill(bd)) < 0 ||
	    (r = answers_first(bd)) < 0)
		return r;
	if (bd->has_base) {
		m->has_baseline = true;
		if ((r = dup_into(&m->baseline_source, o->baseline_dir)) < 0)
			return r;
		size_t n = m->n_worse;
		if (n) {
			char text[160];
			snprintf(text, sizeof text, "%zu cell metric%s significantly worse than the baseline %s",
				 n, n == 1 ? "" : "s", o->baseline_dir);
			if ((r = model_push_string(&m->headlines, &m->n_headlines, text)) < 0)
				return r;
		}
	}
	return 0;
}

/* The table of study NAME beside the measured one, into M's references,
 * with the verdicts on its claims under the bound EQUIVALENCE (percent; 0:
 * none stated). */
static int add_study(struct model *m, const char *name, double equivalence)
{
	_cleanup_(json_object_putp) json_object *refs = json_object_new_array();
	json_object *study = NULL;
	int r;

	if (!refs)
		return -ENOMEM;
	r = reference_build(name, m, equivalence / 100.0, &study);
	if (r < 0)
		return log_error_code(r == -ENOENT ? -EINVAL : r, "report: study '%s': %s", name,
				      r == -ENOENT ? "not a shipped study" : strerror(-r));
	json_object_array_add(refs, study);
	m->references = TAKE_PTR(refs);
	return 0;
}

int report_build(const struct report_options *o, struct model **ret)
{
	_cleanup_(model_freep) struct model *m = calloc(1, sizeof *m);
	struct builder bd = {.o = o, .m = m};
	int r;

	if (o->n_dirs == 0)
		return log_error_code(-EINVAL, "report: no results given");
	if (!m || !(m->format = strdup("buildapp-report")) ||
	    !(m->method = strdup("ratio of geometric means, 95% CI by Welch's t on the log scale "
				  "(Welch-Satterthwaite df); pooled: the unweighted mean of the "
				  "cells' log ratios, Satterthwaite df (docs/results.md)")))
		return -ENOMEM;
	m->version = 1;
	m->confidence = CONFIDENCE;
	r = build(&bd);
	/* The study: the one asked for, else the one the profile reproduces
	 * ([report] reference). */
	const char *study_name = o->reference;
	if (!study_name && (study_name = plan_report_key(&bd, "reference")) &&
	    strcmp(study_name, "none") == 0)
		study_name = NULL;
	/* Claims of closeness are judged against the profile's bound
	 * ([report] equivalence, percent); none stated is 0. */
	double equivalence = 0;
	json_object *section = r == 0 ? plan_report_section(&bd) : NULL;
	if (section && !jsonget_number(section, "equivalence", &equivalence))
		equivalence = 0;
	if (r == 0 && study_name)
		r = add_study(m, study_name, equivalence);
	builder_release(&bd);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(m);
	return 0;
}

bool report_baseline_worse(const struct model *report)
{
	return report->has_baseline && report->n_worse > 0;
}

void report_after_sweep(const char *dir, FILE *answers, FILE *result_lines)
{
	const char *dirs[] = {dir};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	_cleanup_(model_freep) struct model *model = NULL;
	int r = report_build(&o, &model);
	if (r >= 0)
		r = report_write(model, REPORT_ALL_FORMATS, dir);
	if (r >= 0 && answers) {
		fputc('\n', answers);
		report_write_answers(model, answers);
		fflush(answers);
	}
	if (r >= 0 && result_lines)
		report_write_answer_lines(model, result_lines);
	/* The journal and summary are the results: a report that cannot be
	 * made is said, and can be made again with `buildapp report`. */
	if (r < 0)
		log_warning("the report of '%s' was not written", dir);
}
