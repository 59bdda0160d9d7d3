/* The SVG charts of report.html: one metric's bars and table of values,
 * and its line charts against fio's knobs.  Called by the page's writers
 * (report_html.c, report_loss_html.c); they call only htmltext.h. */
#ifndef BUILDAPP_REPORT_CHART_H
#define BUILDAPP_REPORT_CHART_H

#include <errno.h>
#include <stdbool.h>

#include <libxml/xmlwriter.h>

#include "model.h"
#include "xmlwrite.h"

/* What a chart's bars and dots are: a cell's runs (its mean, a dot per
 * run), its crashes (the share of them that lost, a dot per crash), or a
 * count of records per crash (the mean, no interval, a dot per crash). */
enum report_chart_kind {
	REPORT_CHART_RUNS,
	REPORT_CHART_CRASHES,
	REPORT_CHART_COUNTS,
};
/* Writes the chart of METRIC (a workload's metric, model.h) as an inline
 * <svg>, its legend as KIND says; N makes its ids unique in the page.
 * Returns 0 or -EIO. */
int report_chart_write(xmlTextWriterPtr w, const struct model_metric *metric, unsigned n,
		       enum report_chart_kind kind);
/* <text class=CLASS x y text-anchor=ANCHOR transform=TRANSFORM>TEXT;
 * ANCHOR and TRANSFORM may be NULL.  Returns 0 or -EIO. */
int report_svg_text(xmlTextWriterPtr w, const char *class, double x, double y,
		    const char *anchor, const char *transform, const char *text);
/* A tick value V of an axis of STEP in few characters, into BUF: 250,
 * 0.05, 12k, 3.5M. */
void report_chart_tick_text(double v, double step, char *buf, size_t len);
/* Writes, for each of fio's numeric knobs with more than two levels among
 * METRIC's cells, a line chart of the metric against it (one line per
 * setting of the other axes, the intervals as bands), as inline <svg>;
 * nothing for the others.  Returns 0, -EIO or -ENOMEM. */
int report_axischart_write(xmlTextWriterPtr w, const struct model_metric *metric);
/* Writes METRIC's means and intervals as a table, groups by labels, with
 * the marks of the chart.  Returns 0 or -EIO. */
int report_chart_values(xmlTextWriterPtr w, const struct model_metric *metric);

#endif
