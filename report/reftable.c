/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "reftable.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jsonget.h"
#include "plan.h"

void reftable_release(struct reftable *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

const char *reftable_axis(const struct model_cell *cell, const char *name)
{
	for (size_t i = 0; cell && i < cell->n_axes; i++)
		if (strcmp(cell->axes[i].axis, name) == 0)
			/* A number (l2_cache in bytes, say) reads as its JSON text. */
			return cell->axes[i].text;
	return NULL;
}

const char *reftable_axis_or(const struct model_cell *cell, const char *name)
{
	const char *v = reftable_axis(cell, name);
	return v ? v : "-";
}

const char *reftable_host(const struct model_cell *cell)
{
	return cell && cell->host ? cell->host : "";
}

double reftable_mean(const struct model_cell *cell)
{
	return cell ? cell->mean : NAN;
}

double reftable_half_width(const struct model_cell *cell)
{
	return cell ? (cell->ci_high - cell->ci_low) / 2 : NAN;
}

unsigned reftable_n(const struct model_cell *cell)
{
	return cell ? cell->n : 0;
}

/* The metric METRIC of WORKLOAD in REPORT, or NULL. */
static const struct model_metric *model_cells(const struct model *report, const char *workload,
					      const char *metric)
{
	for (size_t i = 0; i < report->n_workloads; i++) {
		const struct model_workload *w = &report->workloads[i];
		if (!w->name || strcmp(w->name, workload) != 0)
			continue;
		for (size_t k = 0; k < w->n_metrics; k++)
			if (w->metrics[k].name && strcmp(w->metrics[k].name, metric) == 0)
				return &w->metrics[k];
	}
	return NULL;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

static void config_key(const struct model_cell *cell, const char *const *ignore,
		       char *buf, size_t len)
{
	size_t used = snprintf(buf, len, "%s", reftable_host(cell));
	/* The plan's axes tell one configuration from another, across
	 * workloads (docs/report.md's cells[].axes). */
	const char *axis;
	for (size_t i = 0; (axis = plan_axis(i)) && used < len; i++)
		if (!in_list(ignore, axis))
			used += snprintf(buf + used, len - used, "\x1f%s",
					 reftable_axis_or(cell, axis));
}

static struct reftable_row *row_for(struct reftable *t, const char *key,
				    size_t *cap)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].key, key) == 0)
			return &t->rows[i];
	if (t->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct reftable_row *g = realloc(t->rows, ncap * sizeof *g);
		if (!g)
			return NULL;
		t->rows = g;
		*cap = ncap;
	}
	struct reftable_row *r = &t->rows[t->n];
	*r = (struct reftable_row){.order = t->n};
	snprintf(r->key, sizeof r->key, "%s", key);
	t->n++;
	return r;
}

int reftable_gather(const struct model *report, const struct reftable_source *src,
		    size_t n, bool (*keep)(const struct model_cell *cell),
		    struct reftable *ret)
{
	return reftable_gather_ignoring(report, src, n, keep, NULL, ret);
}

int reftable_gather_ignoring(const struct model *report,
			     const struct reftable_source *src, size_t n,
			     bool (*keep)(const struct model_cell *cell),
			     const char *const *ignore, struct reftable *ret)
{
	struct reftable t = {0};
	size_t cap = 0;
	if (n > REFTABLE_MAX_SOURCES)
		return -EINVAL;
	for (size_t s = 0; s < n; s++) {
		const struct model_metric *m = model_cells(report, src[s].workload, src[s].metric);
		for (size_t i = 0; m && i < m->n_cells; i++) {
			const struct model_cell *c = &m->cells[i];
			char key[512];
			if (keep && !keep(c))
				continue;
			config_key(c, ignore, key, sizeof key);
			struct reftable_row *r = row_for(&t, key, &cap);
			if (!r) {
				reftable_release(&t);
				return -ENOMEM;
			}
			if (!r->cell[s])
				r->cell[s] = c;
			if (!r->any)
				r->any = c;
		}
	}
	*ret = t;
	return 0;
}

void reftable_sort(struct reftable *t,
		   int (*cmp)(const void *, const void *))
{
	if (t->n)
		qsort(t->rows, t->n, sizeof *t->rows, cmp);
}

/* Whether axis NAME ("host" for the host) differs between two of T's rows
 * that both have it.  An axis a cell lacks (a host cell's cache) tells
 * nothing apart; preallocation values are the backend's own (qcow2 "off",
 * raw "sparse"), so only rows of one backend are compared on it. */
static bool varies(const struct reftable *t, const char *name)
{
	bool host = strcmp(name, "host") == 0;
	bool per_backend = strcmp(name, "preallocation") == 0;
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = i + 1; k < t->n; k++) {
			const struct model_cell *a = t->rows[i].any, *b = t->rows[k].any;
			const char *x = host ? reftable_host(a) : reftable_axis(a, name);
			const char *y = host ? reftable_host(b) : reftable_axis(b, name);
			if (!x || !y || strcmp(x, y) == 0)
				continue;
			if (!per_backend || strcmp(reftable_axis_or(a, "backend"),
						   reftable_axis_or(b, "backend")) == 0)
				return true;
		}
	return false;
}

void reftable_label_extra(const struct reftable *t,
			  const struct reftable_row *row,
			  const char *const *shown, char *buf, size_t len)
{
	size_t used = strlen(buf), n_axes = plan_n_axes();
	bool first = true;
	for (size_t i = 0; i <= n_axes && used < len; i++) {
		const char *name = i < n_axes ? plan_axis(i) : "host";
		if (in_list(shown, name) || !varies(t, name))
			continue;
		const char *v = i < n_axes ? reftable_axis_or(row->any, name)
					   : reftable_host(row->any);
		used += snprintf(buf + used, len - used, "%s%s=%s",
				 first ? " (" : ", ", name, v);
		first = false;
	}
	if (!first && used < len)
		snprintf(buf + used, len - used, ")");
}

void reftable_columns(struct reftable_out *o, ...)
{
	va_list ap;
	va_start(ap, o);
	for (const char *c; (c = va_arg(ap, const char *));)
		json_object_array_add(o->columns, json_object_new_string(c));
	va_end(ap);
}

void reftable_add_row(struct reftable_out *o, char c[][REFTABLE_CELL_MAX],
		      size_t n)
{
	json_object *row = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(row, json_object_new_string(c[i]));
	json_object_array_add(o->rows, row);
}

void reftable_note(struct reftable_out *o, const char *text)
{
	json_object_array_add(o->notes, json_object_new_string(text));
}

static const char *row_item(json_object *row, size_t i)
{
	const char *s = json_object_get_string(json_object_array_get_idx(row, i));
	return s ? s : "";
}

static bool same_key(json_object *a, json_object *b, size_t n_key)
{
	for (size_t i = 0; i < n_key; i++)
		if (strcmp(row_item(a, i), row_item(b, i)) != 0)
			return false;
	return true;
}

void reftable_note_coverage(struct reftable_out *o, size_t n_key,
			    const char *what)
{
	json_object *pub = NULL;
	/* With nothing measured the layout's own note says so. */
	if (!json_object_array_length(o->rows))
		return;
	json_object_object_get_ex(o->published, "rows", &pub);
	size_t n = json_object_array_length(pub), matched = 0, listed = 0;
	char missing[1024] = "";
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pub, i);
		bool found = false;
		for (size_t k = 0; !found && k < json_object_array_length(o->rows); k++)
			found = same_key(p, json_object_array_get_idx(o->rows, k), n_key);
		if (found) {
			matched++;
			continue;
		}
		size_t used = strlen(missing);
		for (size_t c = 0; c < n_key && used < sizeof missing; c++)
			used += snprintf(missing + used, sizeof missing - used,
					 "%s%s", c ? " " : listed ? "; " : "",
					 row_item(p, c));
		listed++;
	}
	char text[1400];
	if (matched == n)
		snprintf(text, sizeof text, "Every published row has a "
			 "measured row with the same %s.", what);
	else if (n - matched <= 6)
		snprintf(text, sizeof text, "%zu of %zu published rows have a "
			 "measured row with the same %s; not in this report: %s.",
			 matched, n, what, missing);
	else
		snprintf(text, sizeof text, "%zu of %zu published rows have a "
			 "measured row with the same %s; the others were not "
			 "in this report's sweep.", matched, n, what);
	reftable_note(o, text);
}

/* Display width of a UTF-8 string: its code points. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

#define MAX_TEXT_COLS 32

static void pad(const char *s, size_t w, bool last, FILE *f)
{
	fputs(s, f);
	if (!last)
		fprintf(f, "%*s", (int)(w - width(s) + 2), "");
}

int reftable_write_text(json_object *table, const char *indent, FILE *f)
{
	json_object *cols = NULL, *rows = NULL;
	json_object_object_get_ex(table, "columns", &cols);
	json_object_object_get_ex(table, "rows", &rows);
	size_t nc = json_object_array_length(cols), nr = json_object_array_length(rows);
	size_t w[MAX_TEXT_COLS] = {0};
	if (nc > MAX_TEXT_COLS)
		nc = MAX_TEXT_COLS;
	for (size_t c = 0; c < nc; c++) {
		w[c] = width(row_item(cols, c));
		for (size_t r = 0; r < nr; r++) {
			size_t x = width(row_item(json_object_array_get_idx(rows, r), c));
			if (x > w[c])
				w[c] = x;
		}
	}
	for (size_t r = 0; r <= nr; r++) {
		json_object *row = r ? json_object_array_get_idx(rows, r - 1) : cols;
		fputs(indent, f);
		for (size_t c = 0; c < nc; c++)
			pad(row_item(row, c), w[c], c + 1 == nc, f);
		fputc('\n', f);
	}
	if (!nr)
		fprintf(f, "%s(no rows)\n", indent);
	return ferror(f) ? -EIO : 0;
}
