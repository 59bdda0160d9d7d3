/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "uploadurl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"

/* The part of URL after the scheme, or NULL for another scheme. */
static const char *after_scheme(const char *url)
{
	if (strncmp(url, "http://", 7) == 0)
		return url + 7;
	if (strncmp(url, "https://", 8) == 0)
		return url + 8;
	return NULL;
}

int uploadurl_check_text(const char *url, size_t max, char *reason, size_t len)
{
	for (const char *c = url; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f) {
			snprintf(reason, len, "must not contain spaces or control characters");
			return -EINVAL;
		}
	if (strlen(url) >= max) {
		snprintf(reason, len, "longer than %zu characters", max - 1);
		return -EINVAL;
	}
	return 0;
}

int uploadurl_check(const char *url, bool credentials, char *reason, size_t len)
{
	const char *rest = after_scheme(url);

	if (!*url)
		return 0;
	if (uploadurl_check_text(url, UPLOADURL_MAX, reason, len) < 0)
		return -EINVAL;
	if (!rest) {
		snprintf(reason, len, "'%.64s' is not an http:// or https:// URL (a WebDAV collection)",
			 url);
		return -EINVAL;
	}
	size_t host = strcspn(rest, "/?#");
	const char *at = memchr(rest, '@', host);
	if (at && !credentials) {
		snprintf(reason, len, "must not carry credentials (user:password@): a profile is "
				      "baked into the kit; give them on the kernel command line "
				      "(buildapp.upload=) for one boot");
		return -EINVAL;
	}
	if (host == 0 || (at && at + 1 == rest + host)) {
		snprintf(reason, len, "'%.64s' names no host", url);
		return -EINVAL;
	}
	if (strpbrk(rest + host, "?#")) {
		snprintf(reason, len, "'%.64s': a collection URL has no query or fragment", url);
		return -EINVAL;
	}
	return 0;
}

const char *uploadurl_redact(const char *url, char *buf, size_t len)
{
	const char *rest = after_scheme(url);
	const char *at = rest ? memchr(rest, '@', strcspn(rest, "/")) : NULL;

	if (!at)
		snprintf(buf, len, "%s", url);
	else
		snprintf(buf, len, "%.*s***@%s", (int)(rest - url), url, at + 1);
	return buf;
}

int uploadurl_check_ca(const char *path, char *reason, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[256];

	if (!f) {
		snprintf(reason, len, "'%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "-----BEGIN CERTIFICATE-----", 27) == 0)
			return 0;
	snprintf(reason, len, "'%s': no PEM certificate in it (-----BEGIN CERTIFICATE-----)",
		 path);
	return -EINVAL;
}
