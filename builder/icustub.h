/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host root's ICU data library swapped for an empty one.  libxml2
 * (which libvirt parses its XML with) links libicuuc, and libicuuc links
 * libicudata: 30 MiB (10 compressed) of converter tables, collation and
 * locale data for encodings and languages nothing in the appliance asks
 * for; libvirt's XML is UTF-8, which libxml2 converts by itself. */
#ifndef BUILDAPP_ICUSTUB_H
#define BUILDAPP_ICUSTUB_H

/* Replaces ROOT's usr/lib/x86_64-linux-gnu/libicudata.so.MAJOR.* with
 * icudata-stub.so ($BUILDAPP_ICUDATA_STUB, else beside this executable,
 * else in BUILDAPP_LIBEXECDIR; appliance/icudata_stub.c) when the stub
 * defines that ICU's entry point (icudtMAJOR_dat); a stub made for
 * another ICU leaves the data as it is, with a warning.  A root without
 * ICU is left alone.  Returns 0 or a negative errno (reported). */
int icustub_apply(const char *root);

#endif
