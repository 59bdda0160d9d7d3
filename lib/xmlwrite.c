/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "xmlwrite.h"

int xmlwrite_start(xmlTextWriterPtr w, const char *name)
{
	return xmlTextWriterStartElement(w, BAD_CAST name);
}

int xmlwrite_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}

int xmlwrite_end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w);
}

int xmlwrite_end_full(xmlTextWriterPtr w)
{
	return xmlTextWriterFullEndElement(w);
}

int xmlwrite_element(xmlTextWriterPtr w, const char *name, const char *text)
{
	return xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST text);
}
