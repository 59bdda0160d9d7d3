/* The SVG chart of one metric of report.html, and the HTML text calls
 * the page and its charts share (the writer's own are lib/xmlwrite.h's).
 * Private to report_html.c, report_chart.c and report_loss_html.c. */
#ifndef BUILDAPP_REPORT_CHART_H
#define BUILDAPP_REPORT_CHART_H

#include <errno.h>
#include <stdbool.h>

#include <libxml/xmlwriter.h>

#include "model.h"
#include "xmlwrite.h"

/* Text as HTML can carry it: control characters (HTML forbids most, even
 * as references) and bytes that are not UTF-8 become U+FFFD, so a
 * hostname or a console message cannot make the page invalid.  A new
 * string, NULL when out of memory. */
char *report_html_clean(const char *s);

/* Writes S as text (escaped by the writer, cleaned as above). */
int report_html_text(xmlTextWriterPtr w, const char *s);
/* <NAME class=CLASS>TEXT</NAME>, CLASS may be NULL. */
int report_html_element(xmlTextWriterPtr w, const char *name,
			const char *class, const char *text);

/* Starts a table of class CLASS (or none) with a fixed header, the texts
 * of HEADS (NULL-ended), in a box that scrolls on a narrow screen, and
 * its body; report_html_table_end ends them.  Return 0 or -1. */
int report_html_table_start(xmlTextWriterPtr w, const char *class, const char *const *heads);
int report_html_table_end(xmlTextWriterPtr w);
/* Writes the chart of METRIC (a workload's metric, model.h) as an inline
 * <svg>; N makes its ids unique in the page.  Returns 0 or -EIO. */
int report_chart_write(xmlTextWriterPtr w, const struct model_metric *metric, unsigned n);
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

/* Whether metric M is a durability workload's loss by crash (it has a
 * cell with a loss, model.h): report_loss_html.c draws it, not the
 * chart of its means. */
bool report_loss_html_wanted(const struct model_metric *m);
/* M's loss by crash, of workload WORKLOAD: its chart (number CHART of the
 * page), each crash with its host crash record, and the loss
 * comparisons.  Returns 0 or a negative errno. */
int report_loss_html_write(xmlTextWriterPtr w, const char *workload,
			   const struct model_metric *m, unsigned chart);

#endif
