/* report.html's loss by crash (report_loss_html.c): a section of the
 * page, written by report_html.c, that calls the chart writers. */
#ifndef BUILDAPP_REPORT_LOSS_HTML_H
#define BUILDAPP_REPORT_LOSS_HTML_H

#include <stdbool.h>

#include <libxml/xmlwriter.h>

#include "model.h"

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
