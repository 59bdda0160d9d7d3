/* The HTML text calls report.html's page and its charts share (the
 * writer's own are lib/xmlwrite.h's): below both, so that the page calls
 * the chart writers and never the reverse. */
#ifndef BUILDAPP_HTMLTEXT_H
#define BUILDAPP_HTMLTEXT_H

#include <libxml/xmlwriter.h>

#include "xmlwrite.h"

/* Text as HTML can carry it: control characters (HTML forbids most, even
 * as references) and bytes that are not UTF-8 become U+FFFD, so a
 * hostname or a console message cannot make the page invalid.  A new
 * string, NULL when out of memory. */
char *htmltext_clean(const char *s);

/* Writes S as text (escaped by the writer, cleaned as above). */
int htmltext_text(xmlTextWriterPtr w, const char *s);
/* <NAME class=CLASS>TEXT</NAME>, CLASS may be NULL. */
int htmltext_element(xmlTextWriterPtr w, const char *name, const char *class,
		     const char *text);

/* Starts a table of class CLASS (or none) with a fixed header, the texts
 * of HEADS (NULL-ended), in a box that scrolls on a narrow screen, and
 * its body; htmltext_table_end ends them.  Return 0 or -1. */
int htmltext_table_start(xmlTextWriterPtr w, const char *class, const char *const *heads);
int htmltext_table_end(xmlTextWriterPtr w);

#endif
