/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The few libxml2 xmlTextWriter calls every XML and HTML writer of
 * buildapp makes (libvirt's domain XML, report.html and its SVG charts):
 * a writer does the escaping, so no document can come out malformed. */
#ifndef BUILDAPP_XMLWRITE_H
#define BUILDAPP_XMLWRITE_H

#include <errno.h>

#include <libxml/xmlwriter.h>

/* Every writer call returns what libxml2's does (< 0 on failure), which
 * says nothing of the cause: XW() returns -EIO from the calling function
 * when CALL fails. */
#define XW(call)                                                               \
	do {                                                                   \
		if ((call) < 0)                                                \
			return -EIO;                                           \
	} while (0)

/* <NAME ...: an element left open for attributes and content. */
int xmlwrite_start(xmlTextWriterPtr w, const char *name);
/* NAME="VALUE" on the element just started. */
int xmlwrite_attr(xmlTextWriterPtr w, const char *name, const char *value);
/* Ends the open element, self-closed when empty ("<x/>": XML, SVG). */
int xmlwrite_end(xmlTextWriterPtr w);
/* Ends the open element with its end tag even when empty: HTML's
 * non-void elements need it ("<td/>" is not HTML). */
int xmlwrite_end_full(xmlTextWriterPtr w);
/* <NAME>TEXT</NAME>, TEXT escaped. */
int xmlwrite_element(xmlTextWriterPtr w, const char *name, const char *text);

#endif
