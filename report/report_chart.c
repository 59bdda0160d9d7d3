/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One metric as an SVG bar chart: a bar per cell at its mean with the 95%
 * interval as whiskers, every run as a dot beside its bar (the first one
 * hollow), cells grouped by the outer axes with the innermost level under
 * each bar; a server that stands out from a rack (the metric's
 * "outliers") has its bar outlined dashed and labelled.  Drawn in viewBox
 * units; the page scales it to its width. */
#include "report_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htmltext.h"
#include "model.h"
#include "summary.h"

/* Geometry in viewBox units (about CSS pixels at full size). */
#define SLOT 48.0   /* one cell: its bar and its dots */
#define BAR 26.0
#define GROUP_GAP 18.0
#define LEFT 64.0   /* tick labels and the unit */
#define RIGHT 12.0
#define TOP 26.0    /* room for the value and the marks above a bar */
#define PLOT 200.0
#define CHAR_W 6.2  /* of an 11-unit label, roughly */
#define COLOURS 8

struct scale {
	double bottom, top, step;
};

static double finite_or(double v, double fallback)
{
	return isfinite(v) ? v : fallback;
}

/* Characters, not bytes, of UTF-8 text: for widths. */
static size_t chars(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* 1, 2 or 5 times a power of ten, the smallest at least X. */
static double nice_step(double x)
{
	double p = pow(10, floor(log10(x)));
	double f = x / p;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* From zero (bars start there) to the highest whisker or run.  The
 * whiskers of a cell with too few runs are left out (they would squash
 * every other bar) and drawn clipped; so are whiskers below zero. */
static struct scale make_scale(const struct model_metric *m)
{
	double lo = 0, hi = 0;

	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		double v[] = {c->mean, c->too_few_runs ? NAN : c->ci_high};
		for (size_t k = 0; k < 2; k++)
			if (isfinite(v[k])) {
				lo = fmin(lo, v[k]);
				hi = fmax(hi, v[k]);
			}
		for (size_t k = 0; k < c->n_runs; k++) {
			double r = c->runs[k].value;
			if (isfinite(r)) {
				lo = fmin(lo, r);
				hi = fmax(hi, r);
			}
		}
	}
	if (hi - lo <= 0 || !isfinite(hi - lo))
		hi = lo + 1;
	struct scale s = {.step = nice_step((hi - lo) / 5)};
	s.top = ceil(hi / s.step - 1e-9) * s.step;
	s.bottom = floor(lo / s.step + 1e-9) * s.step;
	return s;
}

static double y_of(const struct scale *s, double v)
{
	return TOP + PLOT * (s->top - v) / (s->top - s->bottom);
}

void report_chart_tick_text(double v, double step, char *buf, size_t len)
{
	const char *suffix = "";
	double scale = 1;

	if (fabs(step) >= 1e6) {
		scale = 1e6;
		suffix = "M";
	} else if (fabs(step) >= 1e3) {
		scale = 1e3;
		suffix = "k";
	}
	int decimals = (int)fmax(0, -floor(log10(step / scale) + 1e-9));
	if (v == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.*f%s", decimals, v / scale, suffix);
}

static int attr_num(xmlTextWriterPtr w, const char *name, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return xmlwrite_attr(w, name, buf);
}

int report_svg_text(xmlTextWriterPtr w, const char *class, double x, double y,
		    const char *anchor, const char *transform, const char *text)
{
	XW(xmlwrite_start(w, "text"));
	XW(xmlwrite_attr(w, "class", class));
	XW(attr_num(w, "x", x));
	XW(attr_num(w, "y", y));
	if (anchor)
		XW(xmlwrite_attr(w, "text-anchor", anchor));
	if (transform)
		XW(xmlwrite_attr(w, "transform", transform));
	XW(htmltext_text(w, text));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_axis(xmlTextWriterPtr w, const struct scale *s, double width,
		      const char *unit)
{
	char buf[64];

	for (double v = s->bottom; v <= s->top + s->step / 2; v += s->step) {
		double y = y_of(s, v);
		XW(xmlwrite_start(w, "path"));
		XW(xmlwrite_attr(w, "class", fabs(v) < s->step / 2 ? "axis" : "grid"));
		snprintf(buf, sizeof(buf), "M%.1f,%.1fH%.1f", LEFT, y, width - RIGHT);
		XW(xmlwrite_attr(w, "d", buf));
		XW(xmlwrite_end(w));
		report_chart_tick_text(fabs(v) < s->step / 2 ? 0 : v, s->step, buf, sizeof(buf));
		XW(report_svg_text(w, "tick", LEFT - 6, y + 4, "end", NULL, buf));
	}
	snprintf(buf, sizeof(buf), "rotate(-90 14 %.1f)", TOP + PLOT / 2);
	XW(report_svg_text(w, "unit", 14, TOP + PLOT / 2, "middle", buf, unit));
	return 0;
}

/* The bar's tooltip: "raw / unsafe: 1230 ± 25 IOPS, n=5". */
static int write_tooltip(xmlTextWriterPtr w, const struct model_cell *c, const char *unit,
			 bool outlier)
{
	const char *group = c->group, *label = c->label, *display = c->display;
	unsigned n = c->n;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s%s: %s %s, n=%u%s", group ? group : "",
		 group && *group ? " / " : "", label ? label : "?",
		 display ? display : "no ok run", unit, n,
		 outlier ? "; this server stands out from the others" : "");
	XW(xmlwrite_start(w, "title"));
	XW(htmltext_text(w, buf));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_runs(xmlTextWriterPtr w, const struct model_cell *c, double x,
		      const struct scale *s)
{
	for (size_t k = 0; k < c->n_runs; k++) {
		double v = c->runs[k].value;
		bool first = c->runs[k].first;
		if (!isfinite(v))
			continue;
		XW(xmlwrite_start(w, "circle"));
		XW(xmlwrite_attr(w, "class", first ? "run first" : "run"));
		/* Three columns so equal values do not hide each other. */
		XW(attr_num(w, "cx", x + BAR + 6 + (double)(k % 3) * 4));
		XW(attr_num(w, "cy", y_of(s, v)));
		XW(xmlwrite_attr(w, "r", first ? "3.2" : "2.6"));
		unsigned index = c->runs[k].index;
		char title[64];
		snprintf(title, sizeof(title), "run %u%s: %.4g", index,
			 first ? " (first)" : "", v);
		XW(xmlwrite_start(w, "title"));
		XW(htmltext_text(w, title));
		XW(xmlwrite_end(w));
		XW(xmlwrite_end(w));
	}
	return 0;
}

struct cell_marks {
	bool mismatch, worse, empty, outlier;
};

static bool same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Whether cell C is one in which its server stands out: its host and id
 * among the metric's OUTLIERS (report_rack.c). */
static bool is_outlier(const struct model_cell *c, const struct model_metric *metric)
{
	for (size_t i = 0; i < metric->n_outliers; i++) {
		const struct model_outlier *o = &metric->outliers[i];
		if (same(o->host, c->host) && same(o->cell, c->id))
			return true;
	}
	return false;
}

static struct cell_marks marks_of(const struct model_cell *c, const struct model_metric *metric)
{
	struct cell_marks m = {.outlier = is_outlier(c, metric)};

	m.mismatch = c->cache_mismatches > 0;
	m.empty = c->n == 0 || !isfinite(c->mean);
	m.worse = c->has_baseline && c->baseline.worse;
	return m;
}

/* The whisker from LO to HI, clipped to the plot; a clipped end gets an
 * arrowhead instead of its cap. */
static int write_whisker(xmlTextWriterPtr w, double cx, double lo, double hi,
			 const struct scale *s)
{
	bool lo_cut = lo < s->bottom, hi_cut = hi > s->top;
	double ylo = y_of(s, fmax(lo, s->bottom)), yhi = y_of(s, fmin(hi, s->top));
	char d[200];
	int n;

	n = snprintf(d, sizeof(d), "M%.1f,%.1fV%.1f", cx, ylo, yhi);
	if (hi_cut)
		n += snprintf(d + n, sizeof(d) - (size_t)n, "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1f",
			      cx - 4, yhi + 6, cx, yhi, cx + 4, yhi + 6);
	else
		n += snprintf(d + n, sizeof(d) - (size_t)n, "M%.1f,%.1fH%.1f", cx - 5,
			      yhi, cx + 5);
	if (lo_cut)
		snprintf(d + n, sizeof(d) - (size_t)n, "M%.1f,%.1fL%.1f,%.1fL%.1f,%.1f",
			 cx - 4, ylo - 6, cx, ylo, cx + 4, ylo - 6);
	else
		snprintf(d + n, sizeof(d) - (size_t)n, "M%.1f,%.1fH%.1f", cx - 5, ylo,
			 cx + 5);
	XW(xmlwrite_start(w, "path"));
	XW(xmlwrite_attr(w, "class", "ci"));
	XW(xmlwrite_attr(w, "d", d));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_bar(xmlTextWriterPtr w, const struct model_cell *c, double x,
		     const struct scale *s, unsigned colour, unsigned chart,
		     const char *unit, const struct model_metric *metric)
{
	struct cell_marks m = marks_of(c, metric);
	double mean = finite_or(c->mean, 0);
	double y0 = y_of(s, 0), y1 = y_of(s, mean);
	double lo = c->ci_low, hi = c->ci_high;
	char class[64], buf[64];

	/* A hatched bar has no colour of its own: the class's fill would
	 * hide the pattern. */
	const char *more = m.outlier ? " outlier" : "";
	if (m.mismatch)
		snprintf(class, sizeof(class), "bar mismatch%s%s%s",
			 m.worse ? " worse" : "", m.empty ? " none" : "", more);
	else
		snprintf(class, sizeof(class), "bar c%u%s%s%s", colour,
			 m.worse ? " worse" : "", m.empty ? " none" : "", more);
	XW(xmlwrite_start(w, "rect"));
	XW(xmlwrite_attr(w, "class", class));
	XW(attr_num(w, "x", x));
	XW(attr_num(w, "y", fmin(y0, y1)));
	XW(attr_num(w, "width", BAR));
	XW(attr_num(w, "height", fabs(y1 - y0)));
	if (m.mismatch) {
		snprintf(buf, sizeof(buf), "url(#hatch-%u)", chart);
		XW(xmlwrite_attr(w, "fill", buf));
	}
	XW(write_tooltip(w, c, unit, m.outlier));
	XW(xmlwrite_end(w));
	double top = y1;
	if (isfinite(lo) && isfinite(hi)) {
		XW(write_whisker(w, x + BAR / 2, lo, hi, s));
		top = fmin(top, y_of(s, fmin(hi, s->top)));
	}
	if (m.empty)
		XW(report_svg_text(w, "val", x + BAR / 2, y0 - 4, "middle", NULL, "no ok run"));
	double my = fmax(12, top - 5);
	/* The outlier's label right above its bar, the other marks above it. */
	if (m.outlier) {
		my = fmax(23, top - 5);
		XW(report_svg_text(w, "mark outlier", x + BAR / 2, my, "middle", NULL, "outlier"));
		my -= 11;
	}
	if (m.mismatch)
		XW(report_svg_text(w, "mark mismatch", x + BAR / 2 - (m.worse ? 6 : 0), my,
			   "middle", NULL, "!"));
	if (m.worse)
		XW(report_svg_text(w, "mark worse", x + BAR / 2 + (m.mismatch ? 6 : 0), my,
			   "middle", NULL, "\u25bc"));
	return 0;
}

static const char *label_at(const struct model_metric *m, size_t i)
{
	return m->cells[i].label;
}

static const char *group_at(const struct model_metric *m, size_t i)
{
	return m->cells[i].group;
}

/* The colour of a cell: the place of its label among the distinct labels
 * in order of appearance, so one cache mode has one colour in every
 * group. */
static unsigned colour_of(const struct model_metric *m, size_t i)
{
	unsigned distinct = 0;

	for (size_t k = 0; k < i; k++) {
		if (same(label_at(m, k), label_at(m, i)))
			return distinct % COLOURS;
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = same(label_at(m, j), label_at(m, k));
		distinct += !seen;
	}
	return distinct % COLOURS;
}

struct layout {
	double width, height, label_h, group_h;
	bool rotate, groups;
};

/* Room added on each side of the group that starts at cell I when its
 * label (12px bold) is wider than its bars, so that neighbouring groups'
 * labels do not run into each other. */
static double group_pad(const struct model_metric *m, size_t i)
{
	const char *g = group_at(m, i);
	size_t n = m->n_cells, k = i;

	while (k < n && same(g, group_at(m, k)))
		k++;
	double need = (double)chars(g) * CHAR_W * 1.2 + 8 - GROUP_GAP;
	double span = (double)(k - i) * SLOT;
	return need > span ? (need - span) / 2 : 0;
}

static struct layout make_layout(const struct model_metric *m)
{
	struct layout l = {0};
	size_t n = m->n_cells, longest = 0, n_groups = 0;

	for (size_t i = 0; i < n; i++) {
		const char *g = group_at(m, i);
		if (i == 0 || !same(g, group_at(m, i - 1))) {
			n_groups++;
			l.width += 2 * group_pad(m, i);
		}
		l.groups |= g && *g;
		size_t k = chars(label_at(m, i));
		longest = k > longest ? k : longest;
	}
	l.rotate = longest * CHAR_W > SLOT - 4;
	l.label_h = l.rotate ? 14 + (double)longest * CHAR_W * 0.71 : 18;
	l.group_h = l.groups ? 22 : 4;
	l.width += LEFT + (double)n * SLOT + (double)(n_groups ? n_groups - 1 : 0) * GROUP_GAP +
		  RIGHT;
	l.height = TOP + PLOT + l.label_h + l.group_h;
	return l;
}

static int write_defs(xmlTextWriterPtr w, unsigned chart)
{
	char id[32];

	snprintf(id, sizeof(id), "hatch-%u", chart);
	XW(xmlwrite_start(w, "defs"));
	XW(xmlwrite_start(w, "pattern"));
	XW(xmlwrite_attr(w, "id", id));
	XW(xmlwrite_attr(w, "patternUnits", "userSpaceOnUse"));
	XW(xmlwrite_attr(w, "width", "6"));
	XW(xmlwrite_attr(w, "height", "6"));
	XW(xmlwrite_attr(w, "patternTransform", "rotate(45)"));
	XW(xmlwrite_start(w, "rect"));
	XW(xmlwrite_attr(w, "class", "hatch-bg"));
	XW(xmlwrite_attr(w, "width", "6"));
	XW(xmlwrite_attr(w, "height", "6"));
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "path"));
	XW(xmlwrite_attr(w, "class", "hatch"));
	XW(xmlwrite_attr(w, "d", "M0,0V6"));
	XW(xmlwrite_end(w));
	XW(xmlwrite_end(w));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_group_label(xmlTextWriterPtr w, const struct layout *l,
			     double x0, double x1, const char *group)
{
	double y = TOP + PLOT + l->label_h;
	char d[96];

	snprintf(d, sizeof(d), "M%.1f,%.1fH%.1f", x0, y, x1);
	XW(xmlwrite_start(w, "path"));
	XW(xmlwrite_attr(w, "class", "bracket"));
	XW(xmlwrite_attr(w, "d", d));
	XW(xmlwrite_end(w));
	return report_svg_text(w, "group", (x0 + x1) / 2, y + 15, "middle", NULL, group);
}

static int write_cells(xmlTextWriterPtr w, const struct model_metric *m,
		       const struct layout *l, const struct scale *s,
		       unsigned chart, const char *unit)
{
	size_t n = m->n_cells;
	double x = LEFT, group_x = LEFT, pad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct model_cell *c = &m->cells[i];
		const char *g = c->group;
		bool first = i == 0 || !same(g, group_at(m, i - 1));
		if (first) {
			x += (i > 0 ? GROUP_GAP : 0) + (pad = group_pad(m, i));
			group_x = x;
		}
		double bx = x + (SLOT - BAR - 14) / 2;
		XW(write_bar(w, c, bx, s, colour_of(m, i), chart, unit, m));
		XW(write_runs(w, c, bx, s));
		double lx = bx + BAR / 2, ly = TOP + PLOT + 14;
		char rot[64];
		snprintf(rot, sizeof(rot), "rotate(-45 %.1f %.1f)", lx, ly - 4);
		const char *label = c->label;
		XW(report_svg_text(w, "label", lx, ly, l->rotate ? "end" : "middle",
			   l->rotate ? rot : NULL, label ? label : ""));
		x += SLOT;
		bool last = i + 1 == n || !same(g, group_at(m, i + 1));
		if (last && l->groups)
			XW(write_group_label(w, l, group_x + 2, x - 2, g ? g : ""));
		if (last)
			x += pad;
	}
	return 0;
}

/* Keys for the marks the chart uses; small inline drawings whose classes
 * ("key-…") a count of bars and runs does not see. */
static int write_key(xmlTextWriterPtr w, const char *shape, const char *class,
		     const char *text)
{
	XW(xmlwrite_start(w, "li"));
	XW(xmlwrite_start(w, "svg"));
	XW(xmlwrite_attr(w, "class", "key"));
	XW(xmlwrite_attr(w, "viewBox", "0 0 14 14"));
	XW(xmlwrite_attr(w, "width", "14"));
	XW(xmlwrite_attr(w, "height", "14"));
	XW(xmlwrite_attr(w, "aria-hidden", "true"));
	if (strcmp(shape, "text") == 0) {
		XW(report_svg_text(w, class, 7, 12, "middle", NULL,
			   strstr(class, "worse") ? "\u25bc" : "!"));
	} else if (strcmp(shape, "path") == 0) {
		XW(xmlwrite_start(w, "path"));
		XW(xmlwrite_attr(w, "class", class));
		XW(xmlwrite_attr(w, "d", "M7,1V13M3,1H11M3,13H11"));
		XW(xmlwrite_end(w));
	} else {
		XW(xmlwrite_start(w, shape));
		XW(xmlwrite_attr(w, "class", class));
		if (strcmp(shape, "circle") == 0) {
			XW(xmlwrite_attr(w, "cx", "7"));
			XW(xmlwrite_attr(w, "cy", "7"));
			XW(xmlwrite_attr(w, "r", "3.2"));
		} else {
			XW(xmlwrite_attr(w, "x", "2"));
			XW(xmlwrite_attr(w, "y", "2"));
			XW(xmlwrite_attr(w, "width", "10"));
			XW(xmlwrite_attr(w, "height", "10"));
		}
		XW(xmlwrite_end(w));
	}
	XW(xmlwrite_end(w));
	XW(htmltext_text(w, text));
	XW(xmlwrite_end_full(w));
	return 0;
}

static int write_legend(xmlTextWriterPtr w, const struct model_metric *metric,
			enum report_chart_kind kind)
{
	bool mismatch = false, worse = false, outlier = false;

	for (size_t i = 0; i < metric->n_cells; i++) {
		struct cell_marks m = marks_of(&metric->cells[i], metric);
		mismatch |= m.mismatch;
		worse |= m.worse;
		outlier |= m.outlier;
	}
	bool crash = kind == REPORT_CHART_CRASHES, counts = kind == REPORT_CHART_COUNTS;
	/* A loss counted in power cuts says "cut". */
	bool cuts = crash && model_metric_cuts(metric);
	XW(xmlwrite_start(w, "ul"));
	XW(xmlwrite_attr(w, "class", "legend"));
	XW(write_key(w, "rect", "key-bar",
		    cuts     ? "cuts that lost"
		    : crash  ? "crashes that lost"
		    : counts ? "mean of the crashes"
			     : "mean"));
	/* A count of records per crash has no interval (docs/results.md). */
	if (!counts)
		XW(write_key(w, "path", "key-ci",
			    crash ? "its exact 95% interval" : "95% interval"));
	XW(write_key(w, "circle", "key-run",
		    cuts     ? "a cut's share lost"
		    : crash  ? "a crash's share lost"
		    : counts ? "a crash"
			     : "a run"));
	XW(write_key(w, "circle", "key-run first",
		    cuts	      ? "the first cut of a cell"
		    : crash || counts ? "the first crash of a cell"
				      : "the first run of a cell"));
	if (mismatch)
		XW(write_key(w, "text", "mark mismatch",
			    "cache flags applied did not match (hatched)"));
	if (worse)
		XW(write_key(w, "text", "mark worse",
			    "significantly worse than the baseline"));
	if (outlier)
		XW(write_key(w, "rect", "key-bar key-outlier",
			    "outlier (dashed outline): this server's interval excludes "
			    "the other servers'"));
	XW(xmlwrite_end_full(w));
	return 0;
}

int report_chart_write(xmlTextWriterPtr w, const struct model_metric *metric, unsigned chart,
		       enum report_chart_kind kind)
{
	const char *unit = metric->unit, *name = metric->name;
	char buf[256];

	if (metric->n_cells == 0)
		return 0;
	unit = unit ? unit : "";
	struct layout l = make_layout(metric);
	struct scale s = make_scale(metric);

	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "svg"));
	XW(xmlwrite_attr(w, "xmlns", "http://www.w3.org/2000/svg"));
	XW(xmlwrite_attr(w, "class", "chart"));
	XW(xmlwrite_attr(w, "role", "img"));
	snprintf(buf, sizeof(buf), "0 0 %.0f %.0f", ceil(l.width), ceil(l.height));
	XW(xmlwrite_attr(w, "viewBox", buf));
	/* Full width on a phone down to 60% of the drawn size (then the box
	 * scrolls), and no larger than 130% of it on a wide screen. */
	snprintf(buf, sizeof(buf), "min-width:%.0fpx;max-width:%.0fpx",
		 l.width * 0.6, l.width * 1.3);
	XW(xmlwrite_attr(w, "style", buf));
	XW(xmlwrite_start(w, "title"));
	snprintf(buf, sizeof(buf), "%s (%s), one bar per cell", name ? name : "", unit);
	XW(htmltext_text(w, buf));
	XW(xmlwrite_end(w));
	XW(write_defs(w, chart));
	XW(write_axis(w, &s, l.width, unit));
	XW(write_cells(w, metric, &l, &s, chart, unit));
	XW(xmlwrite_end(w));
	XW(xmlwrite_end_full(w));
	return write_legend(w, metric, kind);
}

/* Distinct values of AT (a cell's group or label) over M's cells in
 * order of appearance, into OUT (borrowed strings); returns their number. */
static size_t distinct(const struct model_metric *m,
		       const char *(*at)(const struct model_metric *, size_t),
		       const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_cells; i++) {
		const char *v = at(m, i);
		size_t k = 0;
		while (k < n && !same(out[k], v))
			k++;
		if (k == n && n < max)
			out[n++] = v;
	}
	return n;
}

static const struct model_cell *cell_at(const struct model_metric *m, const char *group,
				       const char *label)
{
	for (size_t i = 0; i < m->n_cells; i++)
		if (same(group_at(m, i), group) && same(label_at(m, i), label))
			return &m->cells[i];
	return NULL;
}

static int write_value(xmlTextWriterPtr w, const struct model_cell *c,
		       const struct model_metric *metric)
{
	char buf[160];

	XW(xmlwrite_start(w, "td"));
	XW(xmlwrite_attr(w, "class", "num"));
	if (!c) {
		XW(htmltext_text(w, "\u2013"));
		return xmlwrite_end_full(w);
	}
	struct cell_marks m = marks_of(c, metric);
	const char *display = c->display;
	unsigned n = c->n, failed = c->failed;
	XW(htmltext_text(w, m.empty ? "no ok run" : display ? display : "?"));
	if (failed)
		snprintf(buf, sizeof(buf), " n=%u, %u failed", n, failed);
	else
		snprintf(buf, sizeof(buf), " n=%u", n);
	XW(htmltext_element(w, "span", "muted", buf));
	if (m.mismatch)
		XW(htmltext_element(w, "span", "mark mismatch", " !"));
	if (m.worse)
		XW(htmltext_element(w, "span", "mark worse", " \u25bc"));
	if (m.outlier)
		XW(htmltext_element(w, "span", "mark outlier", " outlier"));
	return xmlwrite_end_full(w);
}

int report_chart_values(xmlTextWriterPtr w, const struct model_metric *metric)
{
	const char *groups[256], *labels[64];

	if (metric->n_cells == 0)
		return 0;
	size_t ng = distinct(metric, group_at, groups, 256);
	size_t nl = distinct(metric, label_at, labels, 64);
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "table"));
	XW(xmlwrite_attr(w, "class", "values"));
	/* A count of records per crash has no interval (docs/results.md). */
	XW(htmltext_element(w, "caption", NULL,
			    summary_unit_records(metric->unit) ? "by crash: each crash's count"
							       : "mean \u00b1 95% interval, runs"));
	XW(xmlwrite_start(w, "thead"));
	XW(xmlwrite_start(w, "tr"));
	XW(htmltext_element(w, "th", NULL, ""));
	for (size_t l = 0; l < nl; l++)
		XW(htmltext_element(w, "th", "num", labels[l] ? labels[l] : ""));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_start(w, "tbody"));
	for (size_t g = 0; g < ng; g++) {
		XW(xmlwrite_start(w, "tr"));
		XW(htmltext_element(w, "th", NULL, groups[g] && *groups[g] ? groups[g] : "all"));
		for (size_t l = 0; l < nl; l++)
			XW(write_value(w, cell_at(metric, groups[g], labels[l]), metric));
		XW(xmlwrite_end_full(w));
	}
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}
