/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.html: one self-contained page (inline SVG and CSS, no script,
 * font or anything fetched) rendered from the report model of
 * docs/report.md, through libxml2's writer so the document cannot be
 * malformed. */
#ifndef BUILDAPP_REPORT_HTML_H
#define BUILDAPP_REPORT_HTML_H

#include <stdio.h>

struct model;

/* Writes the HTML page of REPORT (model.h) to F.  Returns 0 or a negative
 * errno. */
int report_html_write(const struct model *report, FILE *f);

#endif
