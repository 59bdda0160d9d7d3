/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The URL of [appliance] upload (or buildapp.upload= on the kernel
 * command line): a WebDAV collection the appliance sends its bundle to
 * (appliance/upload.h). */
#ifndef BUILDAPP_UPLOADURL_H
#define BUILDAPP_UPLOADURL_H

#include <stdbool.h>
#include <stddef.h>

#define UPLOADURL_MAX 256

/* Whether URL is one the upload takes: http:// or https://, a host, no
 * space or control character; with CREDENTIALS false, no user:password@
 * (a profile is baked into the kit: credentials go on the kernel command
 * line only).  "" is no upload.  Returns 0, or -EINVAL with the reason
 * in REASON. */
int uploadurl_check(const char *url, bool credentials, char *reason, size_t len);

/* The checks every URL a profile names passes: no space or control
 * character, shorter than MAX.  Returns 0, or -EINVAL with the reason in
 * REASON. */
int uploadurl_check_text(const char *url, size_t max, char *reason, size_t len);

/* URL with any user:password@ left out, for messages, into BUF. */
const char *uploadurl_redact(const char *url, char *buf, size_t len);

/* Whether PATH is a readable PEM file holding at least one certificate
 * (what [appliance] upload_ca names).  Returns 0, or -EINVAL with the
 * reason in REASON. */
int uploadurl_check_ca(const char *path, char *reason, size_t len);

#endif
