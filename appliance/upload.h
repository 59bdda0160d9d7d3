/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sending a finished bundle to a WebDAV server (nginx's dav module,
 * Apache's mod_dav) with libcurl: MKCOL a hidden temporary collection,
 * PUT every file and a SHA256SUMS of them, then MOVE it to the bundle's
 * name, so a bundle that is there is whole (docs/kit.md, "Uploads").
 * Nothing listens, nothing is kept: the URL is all it knows. */
#ifndef BUILDAPP_UPLOAD_H
#define BUILDAPP_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "uploadurl.h"

#define UPLOAD_SUMS "SHA256SUMS"

struct upload_options {
	const char *url;  /* the collection the bundle goes into */
	const char *dir;  /* the bundle */
	const char *name; /* its name there (hostinfo_bundle_name) */
	unsigned attempts;      /* per request, at least 1 */
	unsigned retry_seconds; /* before the first retry, doubled each time */
	unsigned timeout_seconds; /* a request that moves no byte this long fails */
	unsigned long long max_bytes_per_second; /* 0: as fast as it goes */
	const char *ca_file;    /* PEM CAs for https://; NULL: libcurl's default */
};

struct upload_result {
	size_t files;
	unsigned long long bytes;
	char where[UPLOADURL_MAX + 128]; /* URL/NAME/, redacted */
	char error[512];                  /* what failed, as shown */
};

/* Writes DIR/SHA256SUMS (sha256sum's format, every file of the bundle
 * but itself, sorted) and uploads DIR as O->url/O->name/: through
 * O->url/.O->name.partial/, moved into place only once every file and
 * SHA256SUMS are there; an existing bundle of that name is never
 * overwritten.  Connection failures, timeouts and 5xx answers are retried
 * (O->attempts), other refusals are not, nor a certificate that does not
 * verify (-EKEYREJECTED).  Returns 0, or a negative errno with the reason
 * in RET->error (also logged). */
int upload_bundle(const struct upload_options *o, struct upload_result *ret);

#endif
