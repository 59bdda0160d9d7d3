/* HTML text as report.html's writers write it, through libxml2's writer:
 * text cleaned of what HTML cannot carry, elements of text, tables. */
#include "htmltext.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

char *htmltext_clean(const char *s)
{
	size_t n = strlen(s);
	/* U+FFFD takes 3 bytes in place of one. */
	char *out = malloc(3 * n + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int len = xmlUTF8Size(p);
		bool bad = len < 1 || xmlGetUTF8Char(p, &len) < 0 ||
			   (*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f;
		if (bad) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
			continue;
		}
		memcpy(o, p, (size_t)len);
		o += len;
		p += len;
	}
	*o = '\0';
	return out;
}

int htmltext_text(xmlTextWriterPtr w, const char *s)
{
	_cleanup_free_ char *clean = htmltext_clean(s ? s : "");

	if (!clean)
		return -1;
	return xmlTextWriterWriteString(w, BAD_CAST clean);
}

int htmltext_element(xmlTextWriterPtr w, const char *name, const char *class,
		     const char *text)
{
	if (xmlwrite_start(w, name) < 0 || (class && xmlwrite_attr(w, "class", class) < 0) ||
	    htmltext_text(w, text) < 0)
		return -1;
	return xmlwrite_end_full(w);
}

int htmltext_table_start(xmlTextWriterPtr w, const char *class, const char *const *heads)
{
	XW(xmlwrite_start(w, "div"));
	XW(xmlwrite_attr(w, "class", "scroll"));
	XW(xmlwrite_start(w, "table"));
	if (class)
		XW(xmlwrite_attr(w, "class", class));
	XW(xmlwrite_start(w, "thead"));
	XW(xmlwrite_start(w, "tr"));
	for (; *heads; heads++)
		XW(htmltext_element(w, "th", NULL, *heads));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_start(w, "tbody"));
	return 0;
}

int htmltext_table_end(xmlTextWriterPtr w)
{
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	XW(xmlwrite_end_full(w));
	return 0;
}
