/* A metric against a numeric axis of the sweep (fio's iodepth, numjobs,
 * bs; the L2 cache size), drawn where that axis has more than two levels:
 * one line per setting of the other varied axes (each cache mode, each
 * backend...), a point at each level's mean and the 95% interval as a
 * band around the line.  The levels are evenly spaced in their order (1,
 * 8, 32 are three steps), each labelled with its value: the chart shows
 * how the metric changes from level to level, not a fitted curve.  Drawn
 * beside the bar chart, with the same colours in the order the series
 * appear. */
#include "report_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "htmltext.h"
#include "parse.h"

#define W_LEFT 64.0
#define W_PLOT 420.0
#define W_RIGHT 16.0
#define H_TOP 20.0
#define H_PLOT 200.0
#define H_AXIS 40.0
#define LEGEND_LINE 16.0
#define MAX_LEVELS 16
#define MAX_SERIES 16
#define COLOURS 8

/* Axis A of cell C, or NULL. */
static const struct model_axis_value *axis_of(const struct model_cell *c, const char *a)
{
	for (size_t i = 0; i < c->n_axes; i++)
		if (c->axes[i].axis && strcmp(c->axes[i].axis, a) == 0)
			return &c->axes[i];
	return NULL;
}

static bool same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The levels of numeric axis A among M's cells, ascending, into OUT;
 * 0 when a value is not a number (the axis is not numeric). */
static size_t numeric_levels(const struct model_metric *m, const char *a, int64_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_axis_value *v = axis_of(&m->cells[i], a);
		if (!v || !v->text)
			continue; /* the cell has no such axis: not on this chart */
		if (v->kind != MODEL_VALUE_INT)
			return 0;
		size_t k = 0;
		while (k < n && out[k] < v->integer)
			k++;
		if (k < n && out[k] == v->integer)
			continue;
		if (n == MAX_LEVELS)
			return 0;
		memmove(out + k + 1, out + k, (n - k) * sizeof(*out));
		out[k] = v->integer;
		n++;
	}
	return n;
}

/* Whether axis A has two values or more among M's cells that have it:
 * an axis only some cells have (a host cell's null cache mode) does not
 * vary by that. */
static bool varies(const struct model_metric *m, const char *a)
{
	const char *first = NULL;

	for (size_t k = 0; k < m->n_cells; k++) {
		const struct model_axis_value *o = axis_of(&m->cells[k], a);
		if (!o || !o->text)
			continue;
		if (first && strcmp(first, o->text) != 0)
			return true;
		first = o->text;
	}
	return false;
}

/* The series of cell C on the chart of axis A: its values of the other
 * axes that vary among M's cells ("cache=none"; "host" for a host-native
 * cell, which has no cache mode), and its host where there are several,
 * into BUF. */
static void series_name(const struct model_metric *m, const struct model_cell *c,
			const char *a, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n_axes && used < len; i++) {
		const struct model_axis_value *v = &c->axes[i];
		if (!v->axis || strcmp(v->axis, a) == 0 || !v->text || !varies(m, v->axis))
			continue;
		if (strcmp(v->axis, "guest") == 0) {
			if (v->kind == MODEL_VALUE_BOOL && !v->boolean)
				used += (size_t)snprintf(buf + used, len - used, "%shost",
							 used ? ", " : "");
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "",
					 v->axis, v->text);
	}
	for (size_t k = 0; k < m->n_cells && used < len; k++)
		if (!same_text(m->cells[k].host, c->host)) {
			snprintf(buf + used, len - used, "%sserver=%s", used ? ", " : "",
				 c->host ? c->host : "?");
			break;
		}
	if (!buf[0])
		snprintf(buf, len, "all cells");
}

struct series {
	char name[256];
	const struct model_cell *at[MAX_LEVELS]; /* by level; NULL: none */
};

struct chart {
	const char *axis;
	int64_t levels[MAX_LEVELS];
	size_t n_levels;
	struct series series[MAX_SERIES];
	size_t n_series;
	double lo, hi, step;
};

static size_t level_index(const struct chart *ch, int64_t v)
{
	size_t i = 0;

	while (i < ch->n_levels && ch->levels[i] != v)
		i++;
	return i;
}

/* Fills CH's series from M's cells; false when there are more series
 * than a chart can tell apart. */
static bool collect(const struct model_metric *m, struct chart *ch)
{
	char name[256];

	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		const struct model_axis_value *v = axis_of(c, ch->axis);
		if (!v || !v->text)
			continue;
		series_name(m, c, ch->axis, name, sizeof(name));
		size_t s = 0;
		while (s < ch->n_series && strcmp(ch->series[s].name, name) != 0)
			s++;
		if (s == ch->n_series) {
			if (s == MAX_SERIES)
				return false;
			snprintf(ch->series[s].name, sizeof(ch->series[s].name), "%s", name);
			ch->n_series++;
		}
		ch->series[s].at[level_index(ch, v->integer)] = c;
	}
	return true;
}

/* From zero, or below it, to the highest end of a band or mean. */
static void make_scale(struct chart *ch)
{
	double lo = 0, hi = 0;

	for (size_t s = 0; s < ch->n_series; s++)
		for (size_t l = 0; l < ch->n_levels; l++) {
			const struct model_cell *c = ch->series[s].at[l];
			if (!c)
				continue;
			double v[] = {c->mean, c->too_few_runs ? NAN : c->ci_low,
				      c->too_few_runs ? NAN : c->ci_high};
			for (size_t k = 0; k < 3; k++)
				if (isfinite(v[k])) {
					lo = fmin(lo, v[k]);
					hi = fmax(hi, v[k]);
				}
		}
	if (!(hi > lo))
		hi = lo + 1;
	double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), f = raw / p;
	ch->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
	ch->hi = ceil(hi / ch->step - 1e-9) * ch->step;
	ch->lo = floor(lo / ch->step + 1e-9) * ch->step;
}

static double x_at(const struct chart *ch, size_t level)
{
	return W_LEFT + (ch->n_levels > 1 ? W_PLOT * (double)level / (double)(ch->n_levels - 1)
					  : W_PLOT / 2);
}

static double y_at(const struct chart *ch, double v)
{
	return H_TOP + H_PLOT * (ch->hi - v) / (ch->hi - ch->lo);
}

static int path(xmlTextWriterPtr w, const char *class, const char *d)
{
	XW(xmlwrite_start(w, "path"));
	XW(xmlwrite_attr(w, "class", class));
	XW(xmlwrite_attr(w, "d", d));
	XW(xmlwrite_end(w));
	return 0;
}

/* The label of level L as the profile writes it: "32", a block size
 * "4K" (its cells hold bytes). */
static const char *level_text(const struct chart *ch, size_t l, char *buf, size_t len)
{
	if (strcmp(ch->axis, "fio_bs") == 0)
		return format_size((uint64_t)ch->levels[l], buf, len);
	snprintf(buf, len, "%lld", (long long)ch->levels[l]);
	return buf;
}

static int write_frame(xmlTextWriterPtr w, const struct chart *ch, const char *unit)
{
	char d[128], buf[64];

	for (double v = ch->lo; v <= ch->hi + ch->step / 2; v += ch->step) {
		double y = y_at(ch, v);
		snprintf(d, sizeof(d), "M%.1f,%.1fH%.1f", W_LEFT, y, W_LEFT + W_PLOT);
		XW(path(w, fabs(v) < ch->step / 2 ? "axis" : "grid", d));
		report_chart_tick_text(fabs(v) < ch->step / 2 ? 0 : v, ch->step, buf, sizeof(buf));
		XW(report_svg_text(w, "tick", W_LEFT - 6, y + 4, "end", NULL, buf));
	}
	for (size_t l = 0; l < ch->n_levels; l++) {
		snprintf(d, sizeof(d), "M%.1f,%.1fv5", x_at(ch, l), H_TOP + H_PLOT);
		XW(path(w, "axis", d));
		XW(report_svg_text(w, "label", x_at(ch, l), H_TOP + H_PLOT + 18, "middle", NULL,
			   level_text(ch, l, buf, sizeof(buf))));
	}
	XW(report_svg_text(w, "group", W_LEFT + W_PLOT / 2, H_TOP + H_PLOT + 36, "middle",
			   NULL, ch->axis));
	snprintf(buf, sizeof(buf), "rotate(-90 14 %.1f)", H_TOP + H_PLOT / 2);
	XW(report_svg_text(w, "unit", 14, H_TOP + H_PLOT / 2, "middle", buf, unit));
	return 0;
}

/* One series: its band (where its cells have intervals), line and
 * points, each point with its value as a tooltip. */
static int write_series(xmlTextWriterPtr w, const struct chart *ch, size_t s,
			const char *unit)
{
	const struct series *se = &ch->series[s];
	char class[32], d[MAX_LEVELS * 48 + 8], buf[512], level[32];
	size_t used = 0;

	snprintf(class, sizeof(class), "series c%zu", s % COLOURS);
	XW(xmlwrite_start(w, "g"));
	XW(xmlwrite_attr(w, "class", class));
	/* The band: the upper ends left to right, the lower ones back. */
	for (size_t l = 0; l < ch->n_levels; l++) {
		const struct model_cell *c = se->at[l];
		if (c && !c->too_few_runs && isfinite(c->ci_high))
			used += (size_t)snprintf(d + used, sizeof(d) - used, "%c%.1f,%.1f",
						 used ? 'L' : 'M', x_at(ch, l),
						 y_at(ch, fmin(c->ci_high, ch->hi)));
	}
	for (size_t l = ch->n_levels; used && l-- > 0;) {
		const struct model_cell *c = se->at[l];
		if (c && !c->too_few_runs && isfinite(c->ci_low))
			used += (size_t)snprintf(d + used, sizeof(d) - used, "L%.1f,%.1f",
						 x_at(ch, l), y_at(ch, fmax(c->ci_low, ch->lo)));
	}
	if (used) {
		snprintf(d + used, sizeof(d) - used, "Z");
		XW(path(w, "band", d));
	}
	used = 0;
	for (size_t l = 0; l < ch->n_levels; l++) {
		const struct model_cell *c = se->at[l];
		if (c && isfinite(c->mean))
			used += (size_t)snprintf(d + used, sizeof(d) - used, "%c%.1f,%.1f",
						 used ? 'L' : 'M', x_at(ch, l), y_at(ch, c->mean));
	}
	if (used)
		XW(path(w, "line", d));
	for (size_t l = 0; l < ch->n_levels; l++) {
		const struct model_cell *c = se->at[l];
		if (!c || !isfinite(c->mean))
			continue;
		XW(xmlwrite_start(w, "circle"));
		XW(xmlwrite_attr(w, "class", "point"));
		snprintf(buf, sizeof(buf), "%.1f", x_at(ch, l));
		XW(xmlwrite_attr(w, "cx", buf));
		snprintf(buf, sizeof(buf), "%.1f", y_at(ch, c->mean));
		XW(xmlwrite_attr(w, "cy", buf));
		XW(xmlwrite_attr(w, "r", "3.5"));
		XW(xmlwrite_start(w, "title"));
		snprintf(buf, sizeof(buf), "%s, %s=%s: %s %s, n=%u", se->name, ch->axis,
			 level_text(ch, l, level, sizeof(level)), c->display ? c->display : "?", unit, c->n);
		XW(htmltext_text(w, buf));
		XW(xmlwrite_end(w));
		XW(xmlwrite_end(w));
	}
	double ly = H_TOP + H_PLOT + H_AXIS + 12 + (double)s * LEGEND_LINE;
	snprintf(d, sizeof(d), "M%.1f,%.1fh18", W_LEFT, ly - 4);
	XW(path(w, "line", d));
	XW(report_svg_text(w, "series-name", W_LEFT + 24, ly, "start", NULL, se->name));
	return xmlwrite_end(w);
}

static int write_chart(xmlTextWriterPtr w, struct chart *ch, const struct model_metric *m)
{
	const char *unit = m->unit ? m->unit : "";
	double width = W_LEFT + W_PLOT + W_RIGHT;
	double height = H_TOP + H_PLOT + H_AXIS + 8 + (double)ch->n_series * LEGEND_LINE;
	char buf[320];

	make_scale(ch);
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "svg"));
	XW(xmlwrite_attr(w, "xmlns", "http://www.w3.org/2000/svg"));
	XW(xmlwrite_attr(w, "class", "chart axischart"));
	XW(xmlwrite_attr(w, "role", "img"));
	snprintf(buf, sizeof(buf), "0 0 %.0f %.0f", width, ceil(height));
	XW(xmlwrite_attr(w, "viewBox", buf));
	snprintf(buf, sizeof(buf), "min-width:%.0fpx;max-width:%.0fpx", width * 0.6,
		 width * 1.3);
	XW(xmlwrite_attr(w, "style", buf));
	XW(xmlwrite_start(w, "title"));
	snprintf(buf, sizeof(buf), "%s (%s) against %s: a line per setting of the other "
				   "axes, the 95%% interval as a band",
		 m->name ? m->name : "", unit, ch->axis);
	XW(htmltext_text(w, buf));
	XW(xmlwrite_end(w));
	XW(write_frame(w, ch, unit));
	for (size_t s = 0; s < ch->n_series; s++)
		XW(write_series(w, ch, s, unit));
	XW(xmlwrite_end(w));
	return xmlwrite_end_full(w);
}

/* The numeric axes a chart is drawn against: fio's knobs.  (The L2 cache
 * size is numeric too, but its "default", 0 bytes, is QEMU's own size,
 * not the smallest.) */
static bool charted(const char *axis)
{
	static const char *const axes[] = {"fio_bs", "fio_iodepth", "fio_numjobs",
					   "fio_rwmixread"};

	for (size_t i = 0; i < sizeof(axes) / sizeof(axes[0]); i++)
		if (strcmp(axis, axes[i]) == 0)
			return true;
	return false;
}

int report_axischart_write(xmlTextWriterPtr w, const struct model_metric *m)
{
	if (m->n_cells == 0)
		return 0;
	/* Each axis the cells have, in their order, once. */
	const struct model_cell *first = &m->cells[0];
	for (size_t a = 0; a < first->n_axes; a++) {
		_cleanup_free_ struct chart *ch = calloc(1, sizeof(*ch));
		if (!ch)
			return -ENOMEM;
		ch->axis = first->axes[a].axis;
		if (!ch->axis || !charted(ch->axis))
			continue;
		ch->n_levels = numeric_levels(m, ch->axis, ch->levels);
		if (ch->n_levels > 2 && collect(m, ch))
			XW(write_chart(w, ch, m));
	}
	return 0;
}
