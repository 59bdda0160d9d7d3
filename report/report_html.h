/* report.html: one self-contained page (inline SVG and CSS, no script,
 * font or anything fetched) rendered from the report model of
 * docs/report.md, through libxml2's writer so the document cannot be
 * malformed. */
#ifndef BUILDAPP_REPORT_HTML_H
#define BUILDAPP_REPORT_HTML_H

#include <stdio.h>

struct json_object;

/* Writes the HTML page of REPORT (the model, as report.json holds it) to
 * F.  Returns 0, -EINVAL for a model it cannot read, or another negative
 * errno. */
int report_html_write(struct json_object *report, FILE *f);

#endif
