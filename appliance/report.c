/* The report model (docs/report.md) from result bundles: their journals,
 * summaries, host.json and plan.json; the comparisons of every varied
 * axis; the baseline check.  The writers are in report_text.c. */
#include "report.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "cleanup.h"
#include "compare.h"
#include "hostinfo.h"
#include "jsonget.h"
#include "log.h"
#include "reference.h"
#include "summary.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

#define CONFIDENCE 0.95
#define MAX_AXES 16
#define AXIS_NAME_MAX 32
#define LABEL_MAX 64
#define HOST_AXIS "host"

/* The journal's runs of one summary cell, in run index order. */
struct cellruns {
	const struct journal_run **runs;
	size_t n;
	unsigned first_position;
};

struct bundle {
	const char *dir;
	char label[LABEL_MAX];
	struct journal j;
	struct summary s;
	struct cellruns *cr; /* one per s.cells */
	json_object *host;   /* host.json, or NULL */
	json_object *plan;   /* plan.json, or NULL */
};

struct axis {
	char name[AXIS_NAME_MAX];
	char **levels; /* in the order the plan lists them */
	size_t n_levels;
	size_t ref;
};

/* A cell of one bundle, placed on the axes. */
struct rcell {
	struct bundle *b;
	size_t i; /* into b->s.cells */
	json_object *axes; /* the cell's axis values (owned) */
	size_t lev[MAX_AXES];
};

struct builder {
	const struct report_options *o;
	struct bundle *bundles;
	size_t n_bundles;
	struct bundle base;
	bool has_base;
	struct rcell *cells;
	size_t n_cells;
	struct axis axes[MAX_AXES];
	size_t n_axes;
	json_object *headlines, *worse;
};

/* --- reading a bundle ---------------------------------------------------- */

/* The journal checks `journal_read` leaves to its callers: a report of a
 * journal cut short or of another version would silently leave runs
 * out, so both are refused with their own message. */
static int check_journal(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return log_error_errno(-EINVAL, "report: '%s': no results (%s)", path,
				       strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0 && len <= 1)
		;
	if (len < 0)
		return log_error_errno(-EINVAL, "report: '%s': no results (the journal holds no run)",
				       path);
	_cleanup_(json_object_putp) json_object *o = json_tokener_parse(line);
	json_object *v;
	if (o && json_object_object_get_ex(o, "version", &v) &&
	    json_object_get_int(v) != JOURNAL_VERSION)
		return log_error_errno(-EINVAL, "report: journal '%s' is version %d; this buildapp reads version %d",
				       path, json_object_get_int(v), JOURNAL_VERSION);
	if (fseek(f, -1, SEEK_END) < 0 || fgetc(f) != '\n')
		return log_error_errno(-EINVAL, "report: journal '%s' is truncated: its last line is cut short (the sweep was interrupted)",
				       path);
	return 0;
}

static int cmp_run_ptr(const void *a, const void *b)
{
	const struct journal_run *x = *(const struct journal_run *const *)a,
				 *y = *(const struct journal_run *const *)b;
	int c = strcmp(x->cell.id, y->cell.id);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Hands each summary cell its runs (sorted by id, then index, once). */
static int bundle_group_runs(struct bundle *b)
{
	_cleanup_free_ const struct journal_run **all =
		calloc(b->j.n_runs ? b->j.n_runs : 1, sizeof *all);
	if (!all || !(b->cr = calloc(b->s.n_cells ? b->s.n_cells : 1, sizeof *b->cr)))
		return -ENOMEM;
	for (size_t i = 0; i < b->j.n_runs; i++)
		all[i] = &b->j.runs[i];
	qsort(all, b->j.n_runs, sizeof *all, cmp_run_ptr);
	for (size_t i = 0; i < b->j.n_runs;) {
		size_t k = i;
		while (k < b->j.n_runs && strcmp(all[k]->cell.id, all[i]->cell.id) == 0)
			k++;
		for (size_t c = 0; c < b->s.n_cells; c++) {
			if (strcmp(b->s.cells[c].cell.id, all[i]->cell.id) != 0)
				continue;
			struct cellruns *cr = &b->cr[c];
			if (!(cr->runs = calloc(k - i, sizeof *cr->runs)))
				return -ENOMEM;
			cr->n = k - i;
			cr->first_position = UINT32_MAX;
			for (size_t r = i; r < k; r++) {
				cr->runs[r - i] = all[r];
				if (all[r]->position < cr->first_position)
					cr->first_position = all[r]->position;
			}
			break;
		}
		i = k;
	}
	return 0;
}

static void bundle_release(struct bundle *b)
{
	if (b->cr)
		for (size_t i = 0; i < b->s.n_cells; i++)
			free(b->cr[i].runs);
	free(b->cr);
	summary_release(&b->s);
	journal_release(&b->j);
	json_object_put(b->host);
	json_object_put(b->plan);
	memset(b, 0, sizeof *b);
}

static int bundle_load(const char *dir, struct bundle *b)
{
	_cleanup_free_ char *journal = NULL, *plan = NULL;
	struct stat st;
	int r;

	b->dir = dir;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return log_error_errno(-EINVAL, "report: '%s': not a results directory", dir);
	if (asprintf(&journal, "%s/runs.jsonl", dir) < 0 ||
	    asprintf(&plan, "%s/plan.json", dir) < 0)
		return -ENOMEM;
	if ((r = check_journal(journal)) < 0)
		return r;
	if (journal_read(journal, &b->j) < 0)
		return -EINVAL; /* reported, naming the line */
	if ((r = summary_build(&b->j, &b->s)) < 0 || (r = bundle_group_runs(b)) < 0)
		return r;
	if (hostinfo_read(dir, &b->host) < 0)
		return -EINVAL;
	if (access(plan, F_OK) == 0 && !(b->plan = json_object_from_file(plan)))
		return log_error_errno(-EINVAL, "report: '%s': not a plan (%s)", plan,
				       json_util_get_last_err());
	/* The host's name, else the directory's. */
	const char *name = b->host ? jsonget_string(b->host, "hostname") : NULL;
	_cleanup_free_ char *copy = strdup(dir);
	if (!copy)
		return -ENOMEM;
	snprintf(b->label, sizeof b->label, "%s", name && *name ? name : basename(copy));
	return 0;
}

/* --- axes ---------------------------------------------------------------- */

static struct axis *axis_get(struct builder *bd, const char *name)
{
	for (size_t i = 0; i < bd->n_axes; i++)
		if (strcmp(bd->axes[i].name, name) == 0)
			return &bd->axes[i];
	if (bd->n_axes == MAX_AXES)
		return NULL;
	struct axis *a = &bd->axes[bd->n_axes++];
	snprintf(a->name, sizeof a->name, "%s", name);
	return a;
}

static int axis_level(struct axis *a, const char *level, size_t *ret)
{
	for (size_t i = 0; i < a->n_levels; i++)
		if (strcmp(a->levels[i], level) == 0) {
			*ret = i;
			return 0;
		}
	char **grown = realloc(a->levels, (a->n_levels + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	a->levels = grown;
	if (!(a->levels[a->n_levels] = strdup(level)))
		return -ENOMEM;
	*ret = a->n_levels++;
	return 0;
}

static const char *axis_value(json_object *v)
{
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
							    : "-";
}

/* Registers the axis values of a cell object (plan_cell_to_json's form:
 * every field but the id and the workload is an axis), filling LEV when
 * given. */
static int place(struct builder *bd, json_object *cell, size_t *lev)
{
	json_object_object_foreach(cell, key, val)
	{
		if (strcmp(key, "id") == 0 || strcmp(key, "workload") == 0 ||
		    strcmp(key, "reason") == 0)
			continue;
		struct axis *a = axis_get(bd, key);
		size_t l;
		int r;
		if (!a)
			return -E2BIG;
		if ((r = axis_level(a, axis_value(val), &l)) < 0)
			return r;
		if (lev)
			lev[a - bd->axes] = l;
	}
	return 0;
}

static int cmp_first_position(const void *a, const void *b)
{
	const struct rcell *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	unsigned px = x->b->cr[x->i].first_position, py = y->b->cr[y->i].first_position;
	return (px > py) - (px < py);
}

/* Sorted so that charts draw them grouped: workload, then the axes'
 * levels in axis order (host last). */
static size_t sort_axes;
static int cmp_levels(const void *a, const void *b)
{
	const struct rcell *x = a, *y = b;
	int wx = (int)x->b->s.cells[x->i].cell.workload,
	    wy = (int)y->b->s.cells[y->i].cell.workload;
	if (wx != wy)
		return wx - wy;
	for (size_t k = 0; k < sort_axes; k++)
		if (x->lev[k] != y->lev[k])
			return x->lev[k] < y->lev[k] ? -1 : 1;
	return 0;
}

/* The plans' levels that no journaled cell has (a sweep cut short, a
 * plan that differs) would make an axis look varied: only their order is
 * kept. */
static void drop_unused_levels(struct builder *bd)
{
	for (size_t a = 0; a < bd->n_axes; a++) {
		struct axis *ax = &bd->axes[a];
		size_t map[PLAN_MAX_CELLS], kept = 0;
		bool *used = calloc(ax->n_levels ? ax->n_levels : 1, sizeof *used);
		if (!used || ax->n_levels > PLAN_MAX_CELLS) {
			free(used);
			continue; /* keeping them is only less tidy */
		}
		for (size_t i = 0; i < bd->n_cells; i++)
			used[bd->cells[i].lev[a]] = true;
		for (size_t l = 0; l < ax->n_levels; l++) {
			if (!used[l]) {
				free(ax->levels[l]);
				continue;
			}
			map[l] = kept;
			ax->levels[kept++] = ax->levels[l];
		}
		ax->n_levels = kept;
		for (size_t i = 0; i < bd->n_cells; i++)
			bd->cells[i].lev[a] = map[bd->cells[i].lev[a]];
		free(used);
	}
}

static int make_cells(struct builder *bd)
{
	int r;

	/* The plans list the levels in the profile's order. */
	for (size_t i = 0; i < bd->n_bundles; i++) {
		json_object *cells;
		if (!bd->bundles[i].plan ||
		    !json_object_object_get_ex(bd->bundles[i].plan, "cells", &cells) ||
		    !json_object_is_type(cells, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(cells); k++)
			if ((r = place(bd, json_object_array_get_idx(cells, k), NULL)) < 0)
				return r;
	}
	size_t total = 0;
	for (size_t i = 0; i < bd->n_bundles; i++)
		total += bd->bundles[i].s.n_cells;
	if (!(bd->cells = calloc(total ? total : 1, sizeof *bd->cells)))
		return -ENOMEM;
	for (size_t i = 0; i < bd->n_bundles; i++)
		for (size_t c = 0; c < bd->bundles[i].s.n_cells; c++) {
			struct rcell *rc = &bd->cells[bd->n_cells++];
			rc->b = &bd->bundles[i];
			rc->i = c;
			if (!(rc->axes = plan_cell_to_json(&rc->b->s.cells[c].cell)))
				return -ENOMEM;
			json_object_object_del(rc->axes, "id");
			json_object_object_del(rc->axes, "workload");
		}
	/* Without a plan, the order the sweep first ran them in. */
	qsort(bd->cells, bd->n_cells, sizeof *bd->cells, cmp_first_position);
	for (size_t i = 0; i < bd->n_cells; i++)
		if ((r = place(bd, bd->cells[i].axes, bd->cells[i].lev)) < 0)
			return r;
	drop_unused_levels(bd);
	if (bd->n_bundles > 1) {
		struct axis *h = axis_get(bd, HOST_AXIS);
		if (!h)
			return -E2BIG;
		for (size_t i = 0; i < bd->n_bundles; i++)
			if ((r = axis_level(h, bd->bundles[i].label, &(size_t){0})) < 0)
				return r;
		for (size_t i = 0; i < bd->n_cells; i++)
			bd->cells[i].lev[h - bd->axes] = (size_t)(bd->cells[i].b - bd->bundles);
	}
	sort_axes = bd->n_axes;
	qsort(bd->cells, bd->n_cells, sizeof *bd->cells, cmp_levels);
	return 0;
}

/* The reference level of each axis: the options' or the first plan's
 * [report] baseline = axis:level when it names one of the sweep's levels,
 * else the first listed. */
static void pick_references(struct builder *bd)
{
	const char *want = bd->o->baseline_level;
	json_object *profile, *section;
	if (!want && bd->bundles[0].plan &&
	    json_object_object_get_ex(bd->bundles[0].plan, "profile", &profile) &&
	    json_object_object_get_ex(profile, "report", &section) &&
	    (want = jsonget_string(section, "baseline")) && !*want)
		want = NULL;
	const char *colon = want ? strchr(want, ':') : NULL;
	bool used = false;

	for (size_t i = 0; i < bd->n_axes; i++) {
		struct axis *a = &bd->axes[i];
		a->ref = 0;
		if (!colon || strlen(a->name) != (size_t)(colon - want) ||
		    strncmp(a->name, want, (size_t)(colon - want)) != 0)
			continue;
		for (size_t l = 0; l < a->n_levels; l++)
			if (strcmp(a->levels[l], colon + 1) == 0) {
				a->ref = l;
				used = true;
			}
	}
	if (want && !used)
		log_warning("report: baseline '%s' is not a level this sweep varied; each axis is compared with its first level",
			    want);
}

static bool varied(const struct axis *a)
{
	return a->n_levels > 1;
}

/* --- per cell ------------------------------------------------------------ */

static const struct summary_cell *sc_of(const struct rcell *c)
{
	return &c->b->s.cells[c->i];
}

static const struct summary_metric *metric_of(const struct summary_cell *sc,
					      const char *name)
{
	for (size_t m = 0; m < sc->n_metrics; m++)
		if (strcmp(sc->metrics[m].name, name) == 0)
			return &sc->metrics[m];
	return NULL;
}

/* The ok values of METRIC in the runs CR into V (room for cr->n), their
 * run indexes into IDX when given; returns how many. */
static size_t cell_values(const struct cellruns *cr, const char *metric,
			  double *v, unsigned *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < cr->n; i++) {
		double x = summary_run_value(cr->runs[i], metric);
		if (strcmp(cr->runs[i]->status, "ok") != 0 || !isfinite(x))
			continue;
		if (idx)
			idx[n] = cr->runs[i]->index;
		v[n++] = x;
	}
	return n;
}

/* "outer / levels" and the innermost varied axis's level. */
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
		if (k == last)
			snprintf(label, lsize, "%s", lv);
		else if (used < gsize)
			used += (size_t)snprintf(group + used, gsize - used, "%s%s",
						 used ? " / " : "", lv);
	}
}

static json_object *runs_json(const double *v, const unsigned *idx, size_t n)
{
	json_object *a = json_object_new_array_ext((int)n);
	for (size_t i = 0; a && i < n; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "index", json_object_new_int64(idx[i]));
		json_object_object_add(o, "value", jsonget_new_number(v[i]));
		json_object_object_add(o, "first", json_object_new_boolean(i == 0));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *ratio_json(const struct compare_ratio *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "ratio", jsonget_new_number(c->ratio));
	json_object_object_add(o, "ratio_low", jsonget_new_number(c->low));
	json_object_object_add(o, "ratio_high", jsonget_new_number(c->high));
	return o;
}

static bool is_better(double ratio, bool lower_is_better)
{
	return lower_is_better ? ratio < 1 : ratio > 1;
}

/* The cell against the same cell of the --baseline bundle. */
static json_object *baseline_json(struct builder *bd, const struct rcell *c,
				  const struct summary_metric *m, const double *v,
				  size_t n)
{
	const struct bundle *base = &bd->base;
	if (!bd->has_base)
		return NULL;
	for (size_t i = 0; i < base->s.n_cells; i++) {
		if (strcmp(base->s.cells[i].cell.id, sc_of(c)->cell.id) != 0)
			continue;
		const struct cellruns *cr = &base->cr[i];
		_cleanup_free_ double *bv = calloc(cr->n ? cr->n : 1, sizeof *bv);
		struct compare_ratio cmp;
		if (!bv)
			return NULL;
		size_t bn = cell_values(cr, m->name, bv, NULL);
		if (n == 0 || bn == 0 ||
		    compare_ratio(v, n, bv, bn, CONFIDENCE, &cmp) < 0)
			return NULL;
		bool worse = cmp.shown && !is_better(cmp.ratio, m->lower_is_better);
		json_object *o = ratio_json(&cmp);
		json_object_object_add(o, "worse", json_object_new_boolean(worse));
		if (worse) {
			json_object *w = ratio_json(&cmp);
			json_object_object_add(w, "host", json_object_new_string(c->b->label));
			json_object_object_add(w, "cell", json_object_new_string(sc_of(c)->cell.id));
			json_object_object_add(w, "metric", json_object_new_string(m->name));
			json_object_array_add(bd->worse, w);
		}
		return o;
	}
	return NULL;
}

static json_object *cell_json(struct builder *bd, const struct rcell *c,
			      const char *metric)
{
	const struct summary_cell *sc = sc_of(c);
	const struct summary_metric *m = metric_of(sc, metric);
	const struct cellruns *cr = &c->b->cr[c->i];
	_cleanup_free_ double *v = calloc(cr->n ? cr->n : 1, sizeof *v);
	_cleanup_free_ unsigned *idx = calloc(cr->n ? cr->n : 1, sizeof *idx);
	char group[256], label[LABEL_MAX], display[64];
	json_object *o = json_object_new_object();

	if (!v || !idx || !o) {
		json_object_put(o);
		return NULL;
	}
	size_t n = cell_values(cr, metric, v, idx);
	const struct stats *s = &m->stats;
	bool wide = compare_display(s->mean, s->ci95, s->n, display, sizeof display);
	group_label(bd, c, group, sizeof group, label, sizeof label);
	json_object_object_add(o, "id", json_object_new_string(sc->cell.id));
	json_object_object_add(o, "host", json_object_new_string(c->b->label));
	json_object_object_add(o, "axes", json_object_get(c->axes));
	json_object_object_add(o, "group", json_object_new_string(group));
	json_object_object_add(o, "label", json_object_new_string(label));
	json_object_object_add(o, "n", json_object_new_int64((int64_t)s->n));
	json_object_object_add(o, "mean", jsonget_new_number(s->mean));
	json_object_object_add(o, "sd", jsonget_new_number(s->sd));
	json_object_object_add(o, "ci_low", jsonget_new_number(s->mean - s->ci95));
	json_object_object_add(o, "ci_high", jsonget_new_number(s->mean + s->ci95));
	json_object_object_add(o, "display", json_object_new_string(display));
	json_object_object_add(o, "too_few_runs", json_object_new_boolean(wide));
	json_object_object_add(o, "runs", runs_json(v, idx, n));
	json_object_object_add(o, "failed", json_object_new_int64((int64_t)sc->n_failed));
	json_object_object_add(o, "cache_mismatches",
			       json_object_new_int64((int64_t)sc->n_cache_mismatch));
	json_object_object_add(o, "baseline", baseline_json(bd, c, m, v, n));
	return o;
}

/* --- comparisons --------------------------------------------------------- */

/* The cells of one workload's metric: pointers into bd->cells. */
struct mcells {
	const struct rcell **c;
	size_t n;
	const char *workload, *metric, *unit;
	bool lower;
};

/* The cell of M that is C but for axis A at level L, or NULL. */
static const struct rcell *partner(const struct builder *bd, const struct mcells *m,
				   const struct rcell *c, size_t a, size_t l)
{
	for (size_t i = 0; i < m->n; i++) {
		bool same = m->c[i]->lev[a] == l;
		for (size_t k = 0; k < bd->n_axes && same; k++)
			if (k != a && varied(&bd->axes[k]))
				same = m->c[i]->lev[k] == c->lev[k];
		if (same)
			return m->c[i];
	}
	return NULL;
}

static void n_text(const struct compare_ratio *c, char *buf, size_t size)
{
	if (c->n_level == c->n_reference)
		snprintf(buf, size, "n=%zu each", c->n_level);
	else
		snprintf(buf, size, "n=%zu vs %zu", c->n_level, c->n_reference);
}

/* "unsafe vs directsync, fio_write_iops (fio, backend=raw): +54% [+41%,
 * +68%], n=5 each, better" or "...: no difference shown at n=2 each (+3%
 * [-10%, +18%])". */
static void sentence(const struct mcells *m, const char *level, const char *ref,
		     const char *where, const struct compare_ratio *c,
		     char *buf, size_t size)
{
	char ns[48], pr[24], lo[24], hi[24];
	int dec = compare_percent_decimals(c->low, c->high);

	n_text(c, ns, sizeof ns);
	compare_percent(c->ratio, dec, pr, sizeof pr);
	compare_percent(c->low, dec, lo, sizeof lo);
	compare_percent(c->high, dec, hi, sizeof hi);
	int len = snprintf(buf, size, "%s vs %s, %s (%s%s%s): ", level, ref, m->metric,
			   m->workload, *where ? ", " : "", where);
	if (len < 0 || (size_t)len >= size)
		return;
	if (isnan(c->low))
		snprintf(buf + len, size - (size_t)len, "%s, too few runs for an interval (%s)",
			 pr, ns);
	else if (c->shown)
		snprintf(buf + len, size - (size_t)len, "%s [%s, %s], %s, %s", pr, lo, hi, ns,
			 is_better(c->ratio, m->lower) ? "better" : "worse");
	else
		snprintf(buf + len, size - (size_t)len, "no difference shown at %s (%s [%s, %s])",
			 ns, pr, lo, hi);
}

static json_object *comparison_json(const struct mcells *m, const char *axis,
				    const char *level, const char *ref, json_object *held,
				    size_t strata, const struct compare_ratio *c,
				    const char *text)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "axis", json_object_new_string(axis));
	json_object_object_add(o, "level", json_object_new_string(level));
	json_object_object_add(o, "reference", json_object_new_string(ref));
	json_object_object_add(o, "held", held);
	json_object_object_add(o, "pooled", json_object_new_boolean(strata > 1));
	json_object_object_add(o, "strata", json_object_new_int64((int64_t)strata));
	json_object_object_add(o, "ratio", jsonget_new_number(c->ratio));
	json_object_object_add(o, "ratio_low", jsonget_new_number(c->low));
	json_object_object_add(o, "ratio_high", jsonget_new_number(c->high));
	json_object_object_add(o, "df", jsonget_new_number(c->df));
	json_object_object_add(o, "n_level", json_object_new_int64((int64_t)c->n_level));
	json_object_object_add(o, "n_reference", json_object_new_int64((int64_t)c->n_reference));
	json_object_object_add(o, "shown", json_object_new_boolean(c->shown));
	json_object_object_add(o, "better",
			       json_object_new_boolean(c->shown && is_better(c->ratio, m->lower)));
	json_object_object_add(o, "sentence", json_object_new_string(text));
	return o;
}

/* The values of cell C for M into a new array in *V; returns n. */
static size_t values_of(const struct mcells *m, const struct rcell *c, double **v)
{
	const struct cellruns *cr = &c->b->cr[c->i];
	*v = calloc(cr->n ? cr->n : 1, sizeof **v);
	return *v ? cell_values(cr, m->metric, *v, NULL) : 0;
}

/* Level L of axis A against the reference, per stratum and pooled. */
static int compare_level(struct builder *bd, const struct mcells *m, size_t a,
			 size_t l, json_object *out, bool headline)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[l], *ref = ax->levels[ax->ref];
	_cleanup_free_ struct compare_sample *sl = calloc(m->n ? m->n : 1, sizeof *sl);
	_cleanup_free_ struct compare_sample *sr = calloc(m->n ? m->n : 1, sizeof *sr);
	size_t k = 0;
	char text[512], where[256];
	int r = 0;

	if (!sl || !sr)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		const struct rcell *c = m->c[i], *p;
		if (c->lev[a] != l || !(p = partner(bd, m, c, a, ax->ref)))
			continue;
		double *lv, *rv;
		sl[k].n = values_of(m, c, &lv);
		sr[k].n = values_of(m, p, &rv);
		sl[k].v = lv;
		sr[k].v = rv;
		struct compare_ratio cmp;
		if (!lv || !rv) {
			r = -ENOMEM;
			k++;
			break;
		}
		if (compare_ratio(lv, sl[k].n, rv, sr[k].n, CONFIDENCE, &cmp) < 0) {
			free(lv);
			free(rv);
			continue; /* nothing measured, or a value with no log */
		}
		json_object *held = json_object_new_object();
		size_t used = 0;
		where[0] = '\0';
		for (size_t x = 0; x < bd->n_axes; x++) {
			if (x == a || !varied(&bd->axes[x]))
				continue;
			const char *hv = bd->axes[x].levels[c->lev[x]];
			json_object_object_add(held, bd->axes[x].name, json_object_new_string(hv));
			if (used < sizeof where)
				used += (size_t)snprintf(where + used, sizeof where - used,
							 "%s%s=%s", used ? ", " : "",
							 bd->axes[x].name, hv);
		}
		sentence(m, level, ref, where, &cmp, text, sizeof text);
		json_object_array_add(out, comparison_json(m, ax->name, level, ref, held, 1,
							   &cmp, text));
		k++;
	}
	if (r == 0 && k > 0) {
		struct compare_ratio cmp;
		json_object *head = k == 1 ? json_object_array_get_idx(
						     out, json_object_array_length(out) - 1)
					   : NULL;
		if (k > 1 && compare_ratio_pooled(sl, sr, k, CONFIDENCE, &cmp) == 0) {
			char over[200];
			size_t used = 0;
			over[0] = '\0';
			for (size_t x = 0; x < bd->n_axes; x++)
				if (x != a && varied(&bd->axes[x]) && used < sizeof over)
					used += (size_t)snprintf(over + used, sizeof over - used,
								 "%s%s", used ? ", " : "",
								 bd->axes[x].name);
			snprintf(where, sizeof where, "pooled over %zu settings of %s", k, over);
			sentence(m, level, ref, where, &cmp, text, sizeof text);
			head = comparison_json(m, ax->name, level, ref, json_object_new_object(),
					       k, &cmp, text);
			json_object_array_add(out, head);
		}
		/* The headline is the pooled sentence, or the only one. */
		if (headline && head)
			json_object_array_add(bd->headlines,
					      json_object_get(json_object_object_get(head, "sentence")));
	}
	for (size_t i = 0; i < k; i++) {
		free((void *)sl[i].v);
		free((void *)sr[i].v);
	}
	return r;
}

static json_object *comparisons_json(struct builder *bd, const struct mcells *m,
				     bool headline)
{
	json_object *out = json_object_new_array();
	for (size_t a = 0; out && a < bd->n_axes; a++) {
		if (!varied(&bd->axes[a]))
			continue;
		for (size_t l = 0; l < bd->axes[a].n_levels; l++)
			if (l != bd->axes[a].ref &&
			    compare_level(bd, m, a, l, out, headline) < 0) {
				json_object_put(out);
				return NULL;
			}
	}
	return out;
}

/* --- workloads ----------------------------------------------------------- */

static json_object *metric_json(struct builder *bd, struct mcells *m, bool primary)
{
	json_object *o = json_object_new_object(), *cells = json_object_new_array();
	json_object_object_add(o, "name", json_object_new_string(m->metric));
	json_object_object_add(o, "unit", json_object_new_string(m->unit));
	json_object_object_add(o, "better", json_object_new_string(m->lower ? "lower" : "higher"));
	json_object_object_add(o, "cells", cells);
	for (size_t i = 0; i < m->n; i++)
		json_object_array_add(cells, cell_json(bd, m->c[i], m->metric));
	json_object_object_add(o, "comparisons", comparisons_json(bd, m, primary));
	return o;
}

/* One workload: the cells [FROM, TO) of bd->cells (sorted by workload). */
static int workload_json(struct builder *bd, size_t from, size_t to, json_object *out)
{
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
	json_object *w = json_object_new_object(), *metrics = json_object_new_array();
	json_object_object_add(w, "workload", json_object_new_string(
						     workload_kind_name(sc_of(&bd->cells[from])->cell.workload)));
	json_object_object_add(w, "metrics", metrics);
	json_object_array_add(out, w);
	for (size_t x = 0; x < n_names; x++) {
		struct mcells m = {.c = pick, .workload = workload_kind_name(
						      sc_of(&bd->cells[from])->cell.workload),
				   .metric = names[x]};
		for (size_t i = from; i < to; i++) {
			const struct summary_metric *sm = metric_of(sc_of(&bd->cells[i]), names[x]);
			if (!sm)
				continue;
			if (m.n == 0) {
				m.unit = sm->unit;
				m.lower = sm->lower_is_better;
			}
			pick[m.n++] = &bd->cells[i];
		}
		json_object *mo = metric_json(bd, &m, x == 0);
		if (!mo)
			return -ENOMEM;
		json_object_array_add(metrics, mo);
	}
	return 0;
}

/* --- the rest of the model ----------------------------------------------- */

static json_object *failures_json(const struct builder *bd)
{
	json_object *a = json_object_new_array();
	for (size_t b = 0; b < bd->n_bundles; b++) {
		const struct bundle *bu = &bd->bundles[b];
		for (size_t i = 0; i < bu->j.n_runs; i++) {
			const struct journal_run *r = &bu->j.runs[i];
			if (strcmp(r->status, "ok") == 0)
				continue;
			char log[64], path[4096];
			snprintf(log, sizeof log, "console/run-%04u.log", r->position);
			snprintf(path, sizeof path, "%s/%s", bu->dir, log);
			json_object *o = json_object_new_object();
			json_object_object_add(o, "host", json_object_new_string(bu->label));
			json_object_object_add(o, "cell", json_object_new_string(r->cell.id));
			json_object_object_add(o, "index", json_object_new_int64(r->index));
			json_object_object_add(o, "status", json_object_new_string(r->status));
			json_object_object_add(o, "message", json_object_new_string(r->message));
			json_object_object_add(o, "console_log",
					       access(path, F_OK) == 0 ? json_object_new_string(log)
								       : NULL);
			json_object_array_add(a, o);
		}
	}
	return a;
}

static json_object *hosts_json(const struct builder *bd)
{
	json_object *a = json_object_new_array();
	for (size_t b = 0; b < bd->n_bundles; b++) {
		const struct bundle *bu = &bd->bundles[b];
		size_t failed = 0;
		for (size_t i = 0; i < bu->j.n_runs; i++)
			failed += strcmp(bu->j.runs[i].status, "ok") != 0;
		json_object *o = json_object_new_object();
		json_object_object_add(o, "label", json_object_new_string(bu->label));
		json_object_object_add(o, "source", json_object_new_string(bu->dir));
		json_object_object_add(o, "info", json_object_get(bu->host));
		json_object_object_add(o, "runs", json_object_new_int64((int64_t)bu->j.n_runs));
		json_object_object_add(o, "failed", json_object_new_int64((int64_t)failed));
		json_object_array_add(a, o);
	}
	return a;
}

/* The profile keys whose values differ from the first bundle's plan. */
static void plan_diff(const struct bundle *ref, const struct bundle *b, json_object *out)
{
	json_object *pa, *pb;
	if (!ref->plan || !b->plan || !json_object_object_get_ex(ref->plan, "profile", &pa) ||
	    !json_object_object_get_ex(b->plan, "profile", &pb))
		return;
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
				json_object *o = json_object_new_object();
				json_object_object_add(o, "host", json_object_new_string(b->label));
				json_object_object_add(o, "key", json_object_new_string(name));
				json_object_object_add(o, "value", json_object_new_string(pass ? s1 : s2));
				json_object_object_add(o, "reference_value",
						       json_object_new_string(pass ? s2 : s1));
				json_object_array_add(out, o);
			}
		}
	}
}

static json_object *axes_json(const struct builder *bd)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < bd->n_axes; i++) {
		if (!varied(&bd->axes[i]))
			continue;
		json_object *o = json_object_new_object(), *l = json_object_new_array();
		json_object_object_add(o, "name", json_object_new_string(bd->axes[i].name));
		for (size_t k = 0; k < bd->axes[i].n_levels; k++)
			json_object_array_add(l, json_object_new_string(bd->axes[i].levels[k]));
		json_object_object_add(o, "levels", l);
		json_object_object_add(o, "reference",
				       json_object_new_string(bd->axes[i].levels[bd->axes[i].ref]));
		json_object_array_add(a, o);
	}
	return a;
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
	for (size_t i = 0; i < bd->n_bundles; i++)
		bundle_release(&bd->bundles[i]);
	free(bd->bundles);
	bundle_release(&bd->base);
	json_object_put(bd->headlines);
	json_object_put(bd->worse);
}

static int build(struct builder *bd, json_object *root)
{
	const struct report_options *o = bd->o;
	int r;

	if (!(bd->bundles = calloc(o->n_dirs, sizeof *bd->bundles)))
		return -ENOMEM;
	for (size_t i = 0; i < o->n_dirs; i++, bd->n_bundles++)
		if ((r = bundle_load(o->dirs[i], &bd->bundles[i])) < 0)
			return r;
	if (o->baseline_dir) {
		if ((r = bundle_load(o->baseline_dir, &bd->base)) < 0)
			return r;
		bd->has_base = true;
	}
	unique_labels(bd);
	json_object_object_add(root, "title", json_object_new_string(title_of(&bd->bundles[0])));
	if ((r = make_cells(bd)) < 0)
		return r == -E2BIG ? log_error_errno(-EINVAL, "report: more than %d axes", MAX_AXES)
				   : r;
	pick_references(bd);

	json_object *workloads = json_object_new_array();
	json_object_object_add(root, "workloads", workloads);
	for (size_t i = 0; i < bd->n_cells;) {
		size_t k = i;
		while (k < bd->n_cells &&
		       sc_of(&bd->cells[k])->cell.workload == sc_of(&bd->cells[i])->cell.workload)
			k++;
		if ((r = workload_json(bd, i, k, workloads)) < 0)
			return r;
		i = k;
	}
	json_object *diffs = json_object_new_array();
	for (size_t i = 1; i < bd->n_bundles; i++)
		plan_diff(&bd->bundles[0], &bd->bundles[i], diffs);
	json_object_object_add(root, "plan_differences", diffs);
	json_object_object_add(root, "hosts", hosts_json(bd));
	json_object_object_add(root, "axes", axes_json(bd));
	json_object_object_add(root, "failures", failures_json(bd));
	if (bd->has_base) {
		json_object *b = json_object_new_object();
		json_object_object_add(b, "source", json_object_new_string(o->baseline_dir));
		json_object_object_add(b, "worse", json_object_get(bd->worse));
		json_object_object_add(root, "baseline", b);
		size_t n = json_object_array_length(bd->worse);
		if (n) {
			char text[160];
			snprintf(text, sizeof text, "%zu cell metric%s significantly worse than the baseline %s",
				 n, n == 1 ? "" : "s", o->baseline_dir);
			json_object_array_add(bd->headlines, json_object_new_string(text));
		}
	} else {
		json_object_object_add(root, "baseline", NULL);
	}
	return 0;
}

int report_build(const struct report_options *o, struct json_object **ret)
{
	struct builder bd = {.o = o};
	_cleanup_(json_object_putp) json_object *root = json_object_new_object();
	int r;

	if (o->n_dirs == 0)
		return log_error_errno(-EINVAL, "report: no results given");
	if (!root || !(bd.headlines = json_object_new_array()) ||
	    !(bd.worse = json_object_new_array()))
		return -ENOMEM;
	json_object_object_add(root, "format", json_object_new_string("buildapp-report"));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "confidence", jsonget_new_number(CONFIDENCE));
	json_object_object_add(root, "method",
			       json_object_new_string(
				       "ratio of geometric means, 95% CI by Welch's t on the log scale "
				       "(Welch-Satterthwaite df); pooled: the unweighted mean of the "
				       "cells' log ratios, Satterthwaite df (docs/results.md)"));
	json_object_object_add(root, "headlines", json_object_get(bd.headlines));
	r = build(&bd, root);
	if (r == 0 && o->reference) {
		json_object *refs = json_object_new_array(), *study = NULL;
		json_object_object_add(root, "references", refs);
		r = reference_build(o->reference, root, &study);
		if (r < 0)
			r = log_error_errno(r == -ENOENT ? -EINVAL : r,
					    "report: study '%s': %s", o->reference,
					    r == -ENOENT ? "not a shipped study" : strerror(-r));
		else
			json_object_array_add(refs, study);
	}
	builder_release(&bd);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(root);
	return 0;
}

bool report_baseline_worse(struct json_object *report)
{
	json_object *b, *w;
	return json_object_object_get_ex(report, "baseline", &b) && b &&
	       json_object_object_get_ex(b, "worse", &w) &&
	       json_object_array_length(w) > 0;
}

int report_write_results(const char *dir)
{
	const char *dirs[] = {dir};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	_cleanup_(json_object_putp) json_object *model = NULL;
	int r = report_build(&o, &model);
	return r < 0 ? r : report_write(model, REPORT_ALL_FORMATS, dir);
}
