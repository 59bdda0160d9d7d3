/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "upload.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "uploadurl.h"
#include "log.h"
#include "sha256.h"

#define MAX_FILES 4096

DEFINE_TRIVIAL_CLEANUP_FUNC(CURL, curl_easy_cleanup)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct curl_slist, curl_slist_free_all)

/* --- the bundle's files -------------------------------------------------- */

struct walk {
	const char *dir;
	size_t skip; /* strlen(dir) + 1 */
	char *paths[MAX_FILES]; /* relative; directories end in '/' */
	size_t n;
	bool full;
};
/* nftw has no context argument: one walk at a time. */
static struct walk *walking;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct walk *w = walking;
	(void)st;
	if (ftw->level == 0)
		return 0;
	/* Temporary files (".host.json.123", "x.tmp") are not the bundle's,
	 * nor is a SHA256SUMS of an earlier try or RESULTS's lost+found. */
	const char *base = path + ftw->base;
	size_t bl = strlen(base);
	if (base[0] == '.' || (bl > 4 && strcmp(base + bl - 4, ".tmp") == 0) ||
	    (ftw->level == 1 &&
	     (strcmp(base, UPLOAD_SUMS) == 0 || strcmp(base, "lost+found") == 0)))
		return type == FTW_D ? FTW_SKIP_SUBTREE : 0;
	if (type != FTW_F && type != FTW_D)
		return 0;
	if (w->n == MAX_FILES) {
		w->full = true;
		return FTW_STOP;
	}
	if (asprintf(&w->paths[w->n], "%s%s", path + w->skip, type == FTW_D ? "/" : "") < 0)
		return FTW_STOP;
	w->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_release(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->paths[i]);
	w->n = 0;
}

static int fail(struct upload_result *ret, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct upload_result *ret, int r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ret->error, sizeof ret->error, fmt, ap);
	va_end(ap);
	log_error("upload: %s", ret->error);
	return r;
}

static int list_files(const char *dir, struct walk *w, struct upload_result *ret)
{
	w->dir = dir;
	w->skip = strlen(dir) + 1;
	walking = w;
	int r = nftw(dir, collect, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	walking = NULL;
	if (r < 0 || w->full)
		return fail(ret, w->full ? -E2BIG : -errno, "reading the bundle '%s': %s", dir,
			    w->full ? "too many files" : strerror(errno));
	/* Sorted: a directory comes before what it holds. */
	qsort(w->paths, w->n, sizeof w->paths[0], cmp_str);
	return 0;
}

struct sums {
	const struct walk *w;
	char *unreadable; /* PATH_MAX: the file that could not be read */
};

/* SHA256SUMS's lines, as sha256sum -c reads them: one per file. */
static int write_sum_lines(const void *ctx, FILE *f)
{
	const struct sums *s = ctx;

	for (size_t i = 0; i < s->w->n; i++) {
		char hex[SHA256_HEX_LEN];
		const char *name = s->w->paths[i];
		size_t l = strlen(name);
		if (l && name[l - 1] == '/')
			continue;
		snprintf(s->unreadable, PATH_MAX, "%s/%s", s->w->dir, name);
		int r = sha256_path_hex(s->unreadable, hex);
		if (r < 0)
			return r;
		fprintf(f, "%s  %s\n", hex, name);
	}
	s->unreadable[0] = '\0';
	return ferror(f) ? -EIO : 0;
}

static int write_sums(const struct walk *w, struct upload_result *ret)
{
	char path[PATH_MAX], tmp[PATH_MAX], unreadable[PATH_MAX] = "";
	const struct sums s = {w, unreadable};

	snprintf(path, sizeof path, "%s/%s", w->dir, UPLOAD_SUMS);
	snprintf(tmp, sizeof tmp, "%s/.%s.tmp", w->dir, UPLOAD_SUMS);
	int r = atomicfile_write_tmp(tmp, write_sum_lines, &s);
	if (r < 0 && unreadable[0])
		return fail(ret, r, "reading '%s': %s", unreadable, strerror(-r));
	if (r == 0 && rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
	}
	if (r < 0)
		return fail(ret, r, "writing '%s': %s", path, strerror(-r));
	return 0;
}

/* --- requests ------------------------------------------------------------ */

struct request {
	const char *method; /* MKCOL, PUT, MOVE, DELETE, HEAD */
	const char *url;
	const char *file;        /* PUT: what is sent */
	const char *destination; /* MOVE */
};

/* Answers a retry may change: none (a connection failure), a timeout,
 * too many requests, a server error. */
/* The server's answers are statuses only: their bodies are dropped. */
static size_t discard(char *data, size_t size, size_t n, void *ctx)
{
	(void)data, (void)ctx;
	return size * n;
}

static bool retryable(long status)
{
	return status == 0 || status == 408 || status == 429 || status >= 500;
}

/* One attempt of REQ: the HTTP status in *STATUS (0: none came), curl's
 * message in ERR. */
static CURLcode attempt(const struct upload_options *o, const struct request *req,
			long *status, char err[CURL_ERROR_SIZE])
{
	_cleanup_(curl_easy_cleanupp) CURL *c = curl_easy_init();
	_cleanup_(curl_slist_free_allp) struct curl_slist *h = NULL;
	_cleanup_fclose_ FILE *body = NULL;
	char dest[UPLOADURL_MAX + 256];
	CURLcode rc;

	*status = 0;
	err[0] = '\0';
	if (!c)
		return CURLE_OUT_OF_MEMORY;
	curl_easy_setopt(c, CURLOPT_URL, req->url);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)o->timeout_seconds);
	/* A stalled transfer (a server gone mid-upload) fails rather than
	 * hangs: less than 1 byte/s for the timeout. */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)o->timeout_seconds);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "buildapp-appliance");
	/* https:// only to a server these CAs vouch for, under its name. */
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (o->ca_file)
		curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	if (o->max_bytes_per_second)
		curl_easy_setopt(c, CURLOPT_MAX_SEND_SPEED_LARGE,
				 (curl_off_t)o->max_bytes_per_second);
	if (strcmp(req->method, "PUT") == 0) {
		struct stat st;
		if (!(body = fopen(req->file, "re")) || fstat(fileno(body), &st) < 0) {
			snprintf(err, CURL_ERROR_SIZE, "%s: %s", req->file, strerror(errno));
			return CURLE_READ_ERROR;
		}
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READDATA, body);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)st.st_size);
	} else {
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
		if (strcmp(req->method, "HEAD") == 0)
			curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	}
	if (req->destination) {
		snprintf(dest, sizeof dest, "Destination: %s", req->destination);
		h = curl_slist_append(h, dest);
		h = curl_slist_append(h, "Overwrite: F");
	}
	/* A bundle's small files: no round trip for 100-continue. */
	h = curl_slist_append(h, "Expect:");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	if (rc != CURLE_OK && !err[0])
		snprintf(err, CURL_ERROR_SIZE, "%s", curl_easy_strerror(rc));
	return rc;
}

/* REQ until it succeeds (a 2xx, or one of OK_TOO), is refused, or its
 * attempts are used.  Returns the final status (0: none) or -1 when the
 * request never got an answer. */
static long request(const struct upload_options *o, const struct request *req,
		    const long *ok_too, struct upload_result *ret, int *r)
{
	char err[CURL_ERROR_SIZE], shown[UPLOADURL_MAX + 256];
	unsigned wait = o->retry_seconds;
	long status = 0;

	uploadurl_redact(req->url, shown, sizeof shown);
	for (unsigned i = 0; i < (o->attempts ? o->attempts : 1); i++) {
		if (i) {
			log_warning("upload: %s %s: %s; retrying in %u s (%u of %u)", req->method,
				    shown, status ? "server error" : err, wait, i + 1, o->attempts);
			sleep(wait);
			wait *= 2;
		}
		CURLcode rc = attempt(o, req, &status, err);
		if (rc == CURLE_READ_ERROR && status == 0) {
			*r = fail(ret, -EIO, "%s %s: %s", req->method, shown, err);
			return -1;
		}
		/* A certificate no retry changes: said once, not retried. */
		if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE) {
			*r = fail(ret, -EKEYREJECTED, "%s %s: the server's certificate is not "
				  "trusted: %s", req->method, shown, err);
			return -1;
		}
		if (rc == CURLE_OK && status >= 200 && status < 300)
			return status;
		for (const long *k = ok_too; k && *k; k++)
			if (rc == CURLE_OK && status == *k)
				return status;
		if (rc == CURLE_OK && !retryable(status))
			break;
	}
	if (status)
		*r = fail(ret, -EACCES, "%s %s: refused: HTTP %ld", req->method, shown, status);
	else
		*r = fail(ret, -EHOSTUNREACH, "%s %s: %s (after %u attempts)", req->method, shown,
			  err, o->attempts ? o->attempts : 1);
	return -1;
}

/* --- the upload ---------------------------------------------------------- */

int upload_bundle(const struct upload_options *o, struct upload_result *ret)
{
	static struct walk w;
	char base[UPLOADURL_MAX + 1], tmp[UPLOADURL_MAX + 256], final[UPLOADURL_MAX + 256];
	char url[UPLOADURL_MAX + 512 + PATH_MAX], file[PATH_MAX + 16], reason[256];
	int r = 0;

	memset(ret, 0, sizeof *ret);
	if (uploadurl_check(o->url, true, reason, sizeof reason) < 0 || !*o->url)
		return fail(ret, -EINVAL, "'%s': %s", uploadurl_redact(o->url, base, sizeof base),
			    *o->url ? reason : "no URL");
	size_t l = strlen(o->url);
	snprintf(base, sizeof base, "%s%s", o->url, o->url[l - 1] == '/' ? "" : "/");
	snprintf(tmp, sizeof tmp, "%s.%s.partial/", base, o->name);
	snprintf(final, sizeof final, "%s%s/", base, o->name);
	uploadurl_redact(final, ret->where, sizeof ret->where);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return fail(ret, -ENOMEM, "libcurl could not start");
	if ((r = list_files(o->dir, &w, ret)) < 0 || (r = write_sums(&w, ret)) < 0)
		goto out;
	/* A temporary collection of an earlier try of this boot goes first;
	 * the collection itself may already be there. */
	static const long gone[] = {404, 0}, exists[] = {405, 0};
	if (request(o, &(struct request){"DELETE", tmp, NULL, NULL}, gone, ret, &r) < 0 ||
	    request(o, &(struct request){"MKCOL", base, NULL, NULL}, exists, ret, &r) < 0 ||
	    request(o, &(struct request){"MKCOL", tmp, NULL, NULL}, NULL, ret, &r) < 0)
		goto out;
	/* Every file, then SHA256SUMS: its presence says the rest is there. */
	for (size_t i = 0; i <= w.n; i++) {
		const char *rel = i < w.n ? w.paths[i] : UPLOAD_SUMS;
		size_t rl = strlen(rel);
		bool is_dir = rl && rel[rl - 1] == '/';
		snprintf(url, sizeof url, "%s%s", tmp, rel);
		snprintf(file, sizeof file, "%s/%s", o->dir, rel);
		if (request(o, &(struct request){is_dir ? "MKCOL" : "PUT", url, file, NULL}, NULL,
			    ret, &r) < 0)
			goto out;
		if (!is_dir) {
			struct stat st;
			ret->files++;
			ret->bytes += stat(file, &st) == 0 ? (unsigned long long)st.st_size : 0;
		}
	}
	/* The MOVE's answer can be lost after it was done: then the source
	 * is gone (404) and the bundle is there. */
	static const long moved[] = {404, 0};
	long s = request(o, &(struct request){"MOVE", tmp, NULL, final}, moved, ret, &r);
	if (s == 404) {
		snprintf(url, sizeof url, "%s%s", final, UPLOAD_SUMS);
		if (request(o, &(struct request){"HEAD", url, NULL, NULL}, NULL, ret, &r) < 0)
			goto out;
	}
	if (s < 0 && strstr(ret->error, "HTTP 412"))
		r = fail(ret, -EEXIST, "%s is already there: not overwritten", ret->where);
	if (s < 0)
		goto out;
	log_info("upload: %s: %zu files, %llu bytes, %s verifies them", ret->where, ret->files,
		 ret->bytes, UPLOAD_SUMS);
out:
	walk_release(&w);
	curl_global_cleanup();
	return r;
}
