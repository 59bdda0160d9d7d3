/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profile loader.
 *
 * Each file is read in one pass, line by line.  Each line is checked
 * here for what iniparser would silently take (unknown names,
 * duplicates, binary data, very long lines), and the line of every key
 * is recorded; the same lines are joined and read as iniparser 4.1's
 * iniparser_load reads a file (continuations, quotes, comments after a
 * value) into an iniparser dictionary.  iniparser cannot do the pass
 * itself: it loads only a named file and tells no line numbers.  Then
 * the values are parsed by type, checked against their ranges and
 * stored; includes are applied first, so a file overrides its base. */
#include "loader.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <iniparser.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "bmcspec.h"
#include "cleanup.h"
#include "files.h"
#include "guestproto.h"
#include "jobfile.h"
#include "keyref.h"
#include "log.h"
#include "parse.h"
#include "planner.h"
#include "questions.h"
#include "uploadurl.h"

#define MAX_INCLUDE_DEPTH 8
#define MAX_LINE_LEN 1000
#define MAX_FILE_SIZE (1024 * 1024)
/* Every key of keys_list.h, counted when compiled: a file names each at
 * most once, and the origins are indexed like profile_keys. */
#define KEYS_ENTRY(...) +1
#define KEYS_NAMED(...) +1
#define KEYS_UNSTORED(...) +1
enum { MAX_KEYS = 0
#include "keys_list.h"
};
#undef KEYS_ENTRY
#undef KEYS_NAMED
#undef KEYS_UNSTORED
/* iniparser 4.1's line buffer (ASCIILINESZ in its iniparser.c): it reads
 * a line, continuations joined, of at most INI_LINE_MAX - 1 characters. */
#define INI_LINE_MAX 1024

DEFINE_TRIVIAL_CLEANUP_FUNC(dictionary, iniparser_freedict)

/* Where a key got its value: for messages about it. */
struct origin {
	char file[PATH_MAX];
	unsigned line;
};

struct load_state {
	struct profile profile;
	struct origin origins[MAX_KEYS]; /* indexed like profile_keys */
	char stack[MAX_INCLUDE_DEPTH + 1][PATH_MAX]; /* real paths, for cycles */
	int depth;
};

/* One file's keys, in file order, as the scan found them. */
struct scanned_key {
	const struct key_def *key;
	unsigned line;
};

/* The line iniparser_load would be reading: physical lines joined where
 * one ends in '\' (the next one is written over the '\'). */
struct ini_reader {
	char line[INI_LINE_MAX];
	size_t last; /* where the next physical line goes */
	char section[INI_LINE_MAX];
};

struct scan {
	struct scanned_key keys[MAX_KEYS];
	size_t n_keys;
	dictionary *dict; /* the values, as iniparser_load would store them */
	struct ini_reader ini;
	bool unparsable; /* a line iniparser_load refuses */
};

static int bad(const char *file, unsigned line, const char *section,
	       const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Reports "FILE:LINE: [section] key: reason"; returns -EINVAL. */
static int bad(const char *file, unsigned line, const char *section,
	       const char *key, const char *fmt, ...)
{
	char reason[512], where[64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(where, sizeof(where), ":%u", line);
	if (section && key)
		log_error("%s%s: [%s] %s: %s", file, where, section, key, reason);
	else if (section)
		log_error("%s%s: [%s]: %s", file, where, section, reason);
	else
		log_error("%s%s: %s", file, where, reason);
	return -EINVAL;
}

static void lowercase(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* A name as written in a profile: letters, digits, '_', '-', '.'. */
static bool is_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return false;
	return true;
}

static int scan_line(const char *file, unsigned lineno, char *line,
		     char *section, size_t section_len, struct scan *scan)
{
	char *s = parse_strip(line), *eq, *name;
	const struct key_def *key;
	const char *hint;

	if (*s == '\0' || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close || *parse_strip(close + 1) != '\0')
			return bad(file, lineno, NULL, NULL,
				   "syntax error: a section header is '[name]'");
		*close = '\0';
		name = parse_strip(s + 1);
		lowercase(name);
		for (size_t i = 0; i < n_profile_sections; i++)
			if (strcmp(name, profile_sections[i]) == 0) {
				snprintf(section, section_len, "%s", name);
				return 0;
			}
		hint = is_name(name) ? keyref_nearest_section(name) : NULL;
		if (hint)
			return bad(file, lineno, name, NULL,
				   "unknown section (did you mean [%s]?)", hint);
		return bad(file, lineno, is_name(name) ? name : "?", NULL,
			   "unknown section; sections are [appliance], [host], "
			   "[storage], [guest], [workload], [sweep]");
	}
	eq = strchr(s, '=');
	if (!eq)
		return bad(file, lineno, *section ? section : NULL, NULL,
			   "syntax error: expected 'key = value', '[section]' "
			   "or a comment");
	*eq = '\0';
	name = parse_strip(s);
	lowercase(name);
	if (!*section)
		return bad(file, lineno, NULL, NULL,
			   "key '%.64s' comes before any [section]", name);
	if (!is_name(name))
		return bad(file, lineno, section, "?",
			   "syntax error: a key is made of letters, digits, "
			   "'_', '-' and '.'");
	key = keys_find(section, name);
	if (!key) {
		hint = keyref_nearest_key(section, name);
		if (hint)
			return bad(file, lineno, section, name,
				   "unknown key (did you mean '%s'?)", hint);
		return bad(file, lineno, section, name,
			   "unknown key (see 'buildapp keys')");
	}
	if (*parse_strip(eq + 1) == '\0')
		return bad(file, lineno, section, name, "empty value");
	for (size_t i = 0; i < scan->n_keys; i++)
		if (scan->keys[i].key == key)
			return bad(file, lineno, section, name,
				   "given twice (first at line %u)",
				   scan->keys[i].line);
	scan->keys[scan->n_keys].key = key;
	scan->keys[scan->n_keys].line = lineno;
	scan->n_keys++;
	return 0;
}

/* A line too long to take: the message names the section and, when the
 * line is (or continues) a 'key = value', the key, like every other one. */
static int long_line(const char *file, unsigned lineno, const char *section,
		     const char *continued_key, const char *text, size_t n)
{
	const char *eq = memchr(text, '=', n < MAX_LINE_LEN ? n : MAX_LINE_LEN);
	char buf[64] = "", *name = buf;

	if (continued_key)
		snprintf(buf, sizeof(buf), "%s", continued_key);
	else if (eq && (size_t)(eq - text) < sizeof(buf)) {
		memcpy(buf, text, (size_t)(eq - text));
		buf[eq - text] = '\0';
		name = parse_strip(buf);
		lowercase(name);
	}
	return bad(file, lineno, *section ? section : NULL,
		   *section && is_name(name) ? name : NULL,
		   "line longer than %d characters", MAX_LINE_LEN);
}

/* Stores the joined line TEXT in SCAN's dictionary as iniparser 4.1's
 * iniparser_line and iniparser_load do: "[name]" sets the section, and
 * "key = value" is stored as "section:key"; a value in quotes is kept as
 * written up to the closing quote, any other is cut at ';' or '#' and
 * stripped ("" and '' are empty).  Returns 0, -EBADMSG for a line
 * iniparser refuses, or -ENOMEM. */
static int ini_store(struct scan *scan, char *text)
{
	struct ini_reader *ini = &scan->ini;
	char *line = parse_strip(text), *eq, *key, *v;
	char value[INI_LINE_MAX], entry[2 * INI_LINE_MAX + 2];
	size_t len = strlen(line), n;

	if (len == 0 || line[0] == '#' || line[0] == ';')
		return 0;
	if (line[0] == '[' && line[len - 1] == ']') {
		/* sscanf "[%[^]]": "[]" leaves the section as it was. */
		n = strcspn(line + 1, "]");
		if (n > 0) {
			line[1 + n] = '\0';
			snprintf(ini->section, sizeof(ini->section), "%s",
				 parse_strip(line + 1));
			lowercase(ini->section);
		}
		return dictionary_set(scan->dict, ini->section, NULL) ? -ENOMEM : 0;
	}
	eq = strchr(line, '=');
	if (!eq || eq == line)
		return -EBADMSG;
	*eq = '\0';
	key = parse_strip(line);
	lowercase(key);
	for (v = eq + 1; isspace((unsigned char)*v); v++)
		;
	if ((v[0] == '"' || v[0] == '\'') && v[1] && v[1] != v[0]) {
		n = strcspn(v + 1, v[0] == '"' ? "\"" : "'");
		memcpy(value, v + 1, n);
		value[n] = '\0';
	} else if (*v && *v != ';' && *v != '#') {
		v[strcspn(v, ";#")] = '\0';
		v = parse_strip(v);
		snprintf(value, sizeof(value), "%s",
			 strcmp(v, "\"\"") == 0 || strcmp(v, "''") == 0 ? "" : v);
	} else
		value[0] = '\0';
	snprintf(entry, sizeof(entry), "%s:%s", ini->section, key);
	return dictionary_set(scan->dict, entry, value) ? -ENOMEM : 0;
}

/* Gives iniparser's reading the next physical line of the file: TEXT, N
 * bytes, HAS_NL when a newline ended it.  Returns 0 or -ENOMEM. */
static int ini_feed(struct scan *scan, const char *text, size_t n, bool has_nl)
{
	struct ini_reader *ini = &scan->ini;
	size_t room = INI_LINE_MAX - 1 - ini->last, len;
	int r;

	if (scan->unparsable)
		return 0;
	/* fgets reads at most ROOM characters: a line it cuts short (not
	 * ended by its newline or by the end of the file) is refused. */
	if (n + has_nl > room || (!has_nl && n == room)) {
		scan->unparsable = true;
		return 0;
	}
	if (ini->last == 0 && n + has_nl <= 1)
		return 0; /* iniparser_load skips it */
	memcpy(ini->line + ini->last, text, n);
	len = ini->last + n;
	while (len > 0 && isspace((unsigned char)ini->line[len - 1]))
		len--;
	ini->line[len] = '\0';
	if (len > 0 && ini->line[len - 1] == '\\') {
		ini->last = len - 1;
		return 0;
	}
	ini->last = 0;
	r = ini_store(scan, ini->line);
	if (r == -EBADMSG) {
		scan->unparsable = true;
		return 0;
	}
	return r;
}

/* Reads the text of FILE in one pass: checks each line, records the line
 * of each key in SCAN and stores the values in SCAN's dictionary. */
static int scan_text(const char *file, const char *data, size_t len,
		     struct scan *scan)
{
	char section[32] = "", line[MAX_LINE_LEN + 2];
	const struct key_def *key = NULL; /* of the line a '\\' continues */
	unsigned lineno = 0;
	bool continued = false;
	size_t pos = 0;

	/* A UTF-8 byte order mark, as some editors save a file, is not
	 * part of the first line.  Anywhere else it is the first line's
	 * syntax error, as other bytes out of place are. */
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < len) {
		const char *text = data + pos, *nl = memchr(text, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text) : len - pos;
		int r;

		lineno++;
		if (n > MAX_LINE_LEN)
			return long_line(file, lineno, section,
					 continued && key ? key->name : NULL,
					 text, n);
		pos += n + 1;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)text[i];
			if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') ||
			    c == 0x7f)
				return bad(file, lineno, NULL, NULL,
					   "binary data (byte 0x%02x): not a profile",
					   c);
		}
		memcpy(line, text, n);
		line[n] = '\0';
		/* A line ending in '\' continues on the next one: the key is
		 * the first line's.  ini_feed joins lines as iniparser does,
		 * which also joins a line of spaces to one ending in "\ \". */
		bool was_continued = continued;
		char *t = parse_strip(line);
		continued = *t && t[strlen(t) - 1] == '\\';
		if (!was_continued) {
			size_t had = scan->n_keys;
			r = scan_line(file, lineno, line, section, sizeof(section),
				      scan);
			if (r < 0)
				return r;
			key = scan->n_keys > had ? scan->keys[had].key : NULL;
		}
		r = ini_feed(scan, text, n, nl != NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Parses VALUE as key K into PROFILE, reporting where it was written. */
static int set_value(struct profile *profile, const struct key_def *k,
		     const char *value, const char *file, unsigned line)
{
	char reason[512];
	int r = keys_set_hinted(profile, k, value, keyref_nearest, reason,
				sizeof(reason));

	if (r == -EINVAL)
		return bad(file, line, k->section, k->name, "%s", reason);
	return r;
}

static int load_file(struct load_state *st, const char *path,
		     const char *data, size_t len, const char *from_file,
		     unsigned from_line);

static int read_whole_file(const char *path, char **ret, size_t *ret_len)
{
	return files_read_regular(path, MAX_FILE_SIZE, ret, ret_len);
}

/* Loads the base profile named by `include = VALUE` in FILE at LINE. */
static int load_include(struct load_state *st, const char *file,
			unsigned line, const char *value)
{
	_cleanup_free_ char *dir_copy = strdup(file), *data = NULL;
	char path[PATH_MAX];
	size_t len;
	int r;

	if (!dir_copy)
		return -ENOMEM;
	if (value[0] == '/')
		snprintf(path, sizeof(path), "%s", value);
	else if ((size_t)snprintf(path, sizeof(path), "%s/%s", dirname(dir_copy),
				  value) >= sizeof(path))
		return bad(file, line, "appliance", "include", "path too long");
	if (st->depth > MAX_INCLUDE_DEPTH)
		return bad(file, line, "appliance", "include",
			   "includes nest deeper than %d", MAX_INCLUDE_DEPTH);
	r = read_whole_file(path, &data, &len);
	if (r < 0)
		return bad(file, line, "appliance", "include",
			   "cannot read '%s': %s", path, strerror(-r));
	return load_file(st, path, data, len, file, line);
}

/* Applies one file (DATA, LEN bytes, read from PATH): its includes first,
 * then its own keys. */
static int load_file(struct load_state *st, const char *path,
		     const char *data, size_t len, const char *from_file,
		     unsigned from_line)
{
	_cleanup_(iniparser_freedictp) dictionary *dict = dictionary_new(0);
	struct scan scan = {.n_keys = 0, .dict = dict};
	char real[PATH_MAX];
	int r;

	if (!dict)
		return -ENOMEM;
	if (len > MAX_FILE_SIZE)
		return bad(path, 0, NULL, NULL, "larger than %d bytes",
			   MAX_FILE_SIZE);
	r = scan_text(path, data, len, &scan);
	if (r < 0)
		return r;

	/* Cycle check by real path; a buffer has none (and cannot be included). */
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	for (int i = 0; i < st->depth; i++)
		if (strcmp(st->stack[i], real) == 0)
			return bad(from_file, from_line, "appliance", "include",
				   "include cycle: '%s' is already being loaded", path);
	snprintf(st->stack[st->depth], PATH_MAX, "%s", real);
	if (scan.unparsable)
		return bad(path, 0, NULL, NULL, "cannot be parsed as INI");

	for (size_t i = 0; i < scan.n_keys; i++) {
		const struct key_def *k = scan.keys[i].key;
		if (strcmp(k->name, "include") == 0) {
			char q[64];
			snprintf(q, sizeof(q), "%s:%s", k->section, k->name);
			st->depth++;
			r = load_include(st, path, scan.keys[i].line,
					 iniparser_getstring(dict, q, ""));
			st->depth--;
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < scan.n_keys; i++) {
		const struct key_def *k = scan.keys[i].key;
		size_t idx = (size_t)(k - profile_keys);
		char q[64];
		const char *value;

		snprintf(q, sizeof(q), "%s:%s", k->section, k->name);
		value = iniparser_getstring(dict, q, NULL);
		if (!value || !*value)
			return bad(path, scan.keys[i].line, k->section, k->name,
				   "empty value");
		r = set_value(&st->profile, k, value, path, scan.keys[i].line);
		if (r < 0)
			return r;
		snprintf(st->origins[idx].file, PATH_MAX, "%s", path);
		st->origins[idx].line = scan.keys[i].line;
	}
	return 0;
}

/* Reports a problem with key SECTION.NAME at the place it was set. */
static int bad_key(const struct load_state *st, const char *section,
		   const char *name, const char *reason)
{
	const struct key_def *k = keys_find(section, name);
	const struct origin *o = &st->origins[k - profile_keys];

	return bad(o->line ? o->file : st->profile.path, o->line, section, name,
		   "%s", reason);
}

static bool single(axis_mask m)
{
	return m && !(m & (m - 1));
}

/* True when some cell of P's matrix has axis field AXIS (as the plan's
 * cells name them, so axes added later are known) at LEVEL. */
static bool sweeps_level(const struct profile *p, const char *axis, const char *level)
{
	struct plan plan = {0};
	bool found = false;

	if (planner_build(p, &plan) < 0)
		return false;
	for (size_t i = 0; i < plan.n_cells && !found; i++)
		found = plan_cell_at(&plan.cells[i], axis, level);
	plan_release(&plan);
	return found;
}

/* [workload] fio_job as a path: relative to the file that named it, as
 * an include is.  Returns 0 or -EINVAL (reported). */
static int resolve_job_path(struct load_state *st)
{
	struct profile_workload *w = &st->profile.workload;
	const struct origin *o = &st->origins[keys_find("workload", "fio_job") - profile_keys];
	_cleanup_free_ char *dir = strdup(o->line ? o->file : st->profile.path);
	char path[PATH_MAX];

	if (!dir)
		return -ENOMEM;
	if (w->fio_job[0] == '/' || !w->fio_job[0])
		return 0;
	size_t n = (size_t)snprintf(path, sizeof(path), "%s/%s", dirname(dir), w->fio_job);
	if (n >= sizeof(w->fio_job))
		return bad_key(st, "workload", "fio_job", "path too long");
	memcpy(w->fio_job, path, n + 1);
	return 0;
}

/* The fio knobs and job file, when fio is among the kinds. */
static int check_fio(struct load_state *st)
{
	const struct profile_workload *w = &st->profile.workload;
	char why[768];
	bool built_in = !w->fio_job[0];
	int r;

	/* A key's value is checked whether or not a cell uses it. */
	r = jobfile_check_steadystate(&st->profile, GUESTPROTO_FIO, why, sizeof(why));
	if (r < 0)
		return bad_key(st, "workload", "fio_steadystate", why);
	if (!(w->kinds & AXIS_BIT(WORKLOAD_FIO)))
		return 0;
	if (w->fio_ioengine == AXIS_BIT(FIO_IOENGINE_PSYNC)) {
		for (unsigned i = 0; i < w->fio_iodepth.n; i++)
			if (w->fio_iodepth.v[i] == 1)
				goto psync_ok;
		return bad_key(st, "workload", "fio_ioengine",
			       "psync is synchronous and every [workload] fio_iodepth "
			       "is above 1: use libaio or io_uring, or an iodepth of 1");
	}
psync_ok:
	if (built_in && w->fio_rwmixread.n > 1 &&
	    !(w->fio_rw & (AXIS_BIT(FIO_RW_RW) | AXIS_BIT(FIO_RW_RANDRW))))
		return bad_key(st, "workload", "fio_rwmixread",
			       "sweeps several levels, but [workload] fio_rw has neither "
			       "rw nor randrw, the only ones that mix reads and writes");
	if (w->fio_ioengine != AXIS_BIT(FIO_IOENGINE_AUTO) &&
	    (r = jobfile_check_engines(&st->profile, GUESTPROTO_FIO, why, sizeof(why))) < 0)
		return bad_key(st, "workload", "fio_ioengine", why);
	if (built_in)
		return 0;
	r = resolve_job_path(st);
	if (r < 0)
		return r;
	r = jobfile_check(w->fio_job, &st->profile, GUESTPROTO_FIO, why, sizeof(why));
	if (r < 0)
		return bad_key(st, "workload", "fio_job", why);
	return 0;
}

/* [host] bmc and the keys a Redfish one needs (bmcspec.h): the account
 * read here only to check it, never said. */
static int check_bmc(struct load_state *st)
{
	const struct profile_host *h = &st->profile.host;
	char msg[256], user[BMCSPEC_USER_MAX], password[BMCSPEC_PASSWORD_MAX];
	int r;

	if (bmcspec_check(h->bmc, msg, sizeof(msg)) < 0)
		return bad_key(st, "host", "bmc", msg);
	if (!bmcspec_is_redfish(h->bmc)) {
		if (h->bmc_credentials[0])
			return bad_key(st, "host", "bmc_credentials",
				       "in-band IPMI (bmc = ipmi) takes no credentials: a Redfish "
				       "endpoint in [host] bmc does");
		if (h->bmc_ca[0])
			return bad_key(st, "host", "bmc_ca",
				       "in-band IPMI (bmc = ipmi) has no https: a Redfish endpoint "
				       "in [host] bmc does");
		return 0;
	}
	if (!h->bmc_credentials[0])
		return bad_key(st, "host", "bmc",
			       "a Redfish endpoint needs the account the kit signs in with: "
			       "name a file holding USER:PASSWORD in [host] bmc_credentials (it "
			       "goes into the kit's root, never into its plan, manifest or console)");
	r = bmcspec_read_credentials(h->bmc_credentials, user, password, msg, sizeof(msg));
	explicit_bzero(password, sizeof(password));
	if (r < 0)
		return bad_key(st, "host", "bmc_credentials", msg);
	if (h->bmc_ca[0] && uploadurl_check_ca(h->bmc_ca, msg, sizeof(msg)) < 0)
		return bad_key(st, "host", "bmc_ca", msg);
	return 0;
}

/* Checks that involve more than one key. */
static int check_combinations(struct load_state *st)
{
	struct profile *p = &st->profile;
	size_t n_cells, n_excluded;
	char msg[256];
	int r;

	if (!is_name(p->appliance.name))
		return bad_key(st, "appliance", "name",
			       "use letters, digits, '-', '_' and '.'");
	if (single(p->guest.aio) && (p->guest.aio & AXIS_BIT(AIO_NATIVE)) &&
	    single(p->guest.cache)) {
		enum cache_mode c = (enum cache_mode)__builtin_ctz(p->guest.cache);
		if (!cache_mode_allows_native_aio(c)) {
			snprintf(msg, sizeof(msg),
				 "native needs a cache mode that bypasses the host "
				 "page cache (none or directsync), not '%s'",
				 cache_mode_name(c));
			return bad_key(st, "guest", "aio", msg);
		}
	}
	if (!(p->storage.backends & AXIS_BIT(BACKEND_QCOW2)) &&
	    (p->guest.l2_cache.n > 1 || p->guest.l2_cache.bytes[0] != 0))
		return bad_key(st, "guest", "l2_cache",
			       "sizes apply to qcow2 only, and [storage] backends "
			       "has no qcow2");
	if (p->workload.host_baseline &&
	    !(p->workload.kinds & (AXIS_BIT(WORKLOAD_BONNIE) | AXIS_BIT(WORKLOAD_DD) |
				   AXIS_BIT(WORKLOAD_FIO))))
		return bad_key(st, "workload", "host_baseline",
			       "none of [workload] kinds runs on the host "
			       "(bonnie, dd, fio do)");
	if (p->workload.bench_flush_interval && !p->workload.bench_write)
		return bad_key(st, "workload", "bench_flush_interval",
			       "flushes follow writes: it needs bench_write = yes");
	/* qemu-img refuses a flush interval below its requests in flight. */
	unsigned depth = p->workload.bench_depth ? p->workload.bench_depth : IMGBENCH_DEFAULT_DEPTH;
	if (p->workload.bench_flush_interval && p->workload.bench_flush_interval < depth) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " is below bench_depth (%u%s): qemu-img "
			 "flushes only after as many writes as it has in flight; set bench_depth = %" PRIu64,
			 p->workload.bench_flush_interval, depth,
			 p->workload.bench_depth ? "" : ", qemu-img's default",
			 p->workload.bench_flush_interval);
		return bad_key(st, "workload", "bench_flush_interval", msg);
	}
	if (p->workload.fio_target == FIO_TARGET_DEVICE &&
	    (p->workload.kinds & AXIS_BIT(WORKLOAD_FIO)) && p->workload.host_baseline)
		return bad_key(st, "workload", "fio_target",
			       "device runs fio on the guest's disk, and a host_baseline "
			       "cell runs on the guest's filesystem mounted on the host: "
			       "set one of them");
	if (p->workload.fio_target == FIO_TARGET_DEVICE &&
	    (p->workload.kinds & AXIS_BIT(WORKLOAD_FIO)) &&
	    p->workload.fio_size > p->storage.size) {
		snprintf(msg, sizeof(msg),
			 "with fio_target = device, fio_size (%" PRIu64 " bytes) is more "
			 "than the guest's disk ([storage] size, %" PRIu64 " bytes)",
			 p->workload.fio_size, p->storage.size);
		return bad_key(st, "workload", "fio_size", msg);
	}
	if (p->storage.cluster_size & (p->storage.cluster_size - 1))
		return bad_key(st, "storage", "cluster_size",
			       "must be a power of two");
	for (unsigned i = 0; i < p->workload.fio_bs.n; i++)
		if (p->workload.fio_bs.v[i] % 512)
			return bad_key(st, "workload", "fio_bs",
				       "must be a multiple of 512");
	r = check_fio(st);
	if (r < 0)
		return r;
	if (p->workload.durability_record_size % 512)
		return bad_key(st, "workload", "durability_record_size",
			       "must be a multiple of 512");
	if (p->workload.dd_bs % 512)
		return bad_key(st, "workload", "dd_bs",
			       "must be a multiple of 512");
	if (p->sweep.max_runs && p->sweep.max_runs < p->sweep.runs)
		return bad_key(st, "sweep", "max_runs",
			       "is less than [sweep] runs");
	if (p->host.dirty_ratio >= 0 && p->host.dirty_background_ratio >= 0 &&
	    p->host.dirty_background_ratio >= p->host.dirty_ratio)
		return bad_key(st, "host", "dirty_background_ratio",
			       "must be below [host] dirty_ratio");
	planner_count(p, &n_cells, &n_excluded);
	if (n_cells == 0)
		return bad_key(st, "guest", "aio",
			       "every cell of the matrix is impossible: aio "
			       "native needs cache none or directsync");
	if (n_cells + n_excluded > PLAN_MAX_CELLS || planner_max_runs(p) > PLAN_MAX_RUNS) {
		/* Named by the key that makes it too many: the durability
		 * cells' own count when the others' alone would do. */
		struct profile speed = *p;
		speed.sweep.durability_runs = 0;
		snprintf(msg, sizeof(msg),
			 "the matrix has %zu cells: more than %d cells or %d "
			 "runs in all", n_cells, PLAN_MAX_CELLS, PLAN_MAX_RUNS);
		return bad_key(st, "sweep",
			       n_cells + n_excluded <= PLAN_MAX_CELLS &&
					       planner_max_runs(&speed) <= PLAN_MAX_RUNS
				       ? "durability_runs"
				       : "runs",
			       msg);
	}
	const char *base = p->report.baseline, *colon = strchr(base, ':');
	if (*base) {
		char axis[64];
		snprintf(axis, sizeof(axis), "%.*s", colon ? (int)(colon - base) : 0, base);
		if (!colon || !sweeps_level(p, axis, colon + 1))
			return bad_key(st, "report", "baseline",
				       "must be axis:level, a level the sweep runs "
				       "(e.g. cache:writethrough)");
	}
	struct questions qs;
	if (questions_parse(p->report.compare, &qs, msg, sizeof(msg)) < 0)
		return bad_key(st, "report", "compare", msg);
	for (size_t i = 0; i < qs.n; i++) {
		const struct question *q = &qs.q[i];
		const char *missing = !sweeps_level(p, q->axis, q->level) ? q->level
				      : !sweeps_level(p, q->axis, q->reference) ? q->reference
										  : NULL;
		char text[3 * QUESTION_WORD_MAX + 16];
		question_text(q, text, sizeof(text));
		if (missing) {
			snprintf(msg, sizeof(msg), "'%s': the sweep runs no %s %s", text,
				 q->axis, missing);
			return bad_key(st, "report", "compare", msg);
		}
	}
	if (uploadurl_check(p->appliance.upload, false, msg, sizeof(msg)) < 0)
		return bad_key(st, "appliance", "upload", msg);
	if (p->appliance.upload_ca[0] &&
	    uploadurl_check_ca(p->appliance.upload_ca, msg, sizeof(msg)) < 0)
		return bad_key(st, "appliance", "upload_ca", msg);
	r = check_bmc(st);
	if (r < 0)
		return r;
	if (p->host.wipe && strcmp(p->host.disk, "auto") == 0)
		return bad_key(st, "host", "wipe",
			       "yes needs [host] disk to name the disk by a "
			       "stable identity (by-id name, serial or WWN), "
			       "not auto");
	return 0;
}

static int load_top(const char *path, const char *data, size_t len,
		    struct profile *ret)
{
	_cleanup_free_ struct load_state *st = calloc(1, sizeof(*st));
	char base[PROFILE_NAME_MAX];
	const char *slash;
	size_t n;
	int r;

	if (!st)
		return -ENOMEM;
	r = keys_set_defaults(&st->profile);
	if (r < 0)
		return r;
	snprintf(st->profile.path, sizeof(st->profile.path), "%s", path);
	r = load_file(st, path, data, len, path, 0);
	if (r < 0)
		return r;
	if (!st->profile.appliance.name[0]) {
		slash = strrchr(path, '/');
		snprintf(base, sizeof(base), "%s", slash ? slash + 1 : path);
		n = strlen(base);
		if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
			base[n - 4] = '\0';
		snprintf(st->profile.appliance.name, PROFILE_NAME_MAX, "%s", base);
	}
	r = check_combinations(st);
	if (r < 0)
		return r;
	*ret = st->profile;
	return 0;
}

int loader_load(const char *path, struct profile *ret)
{
	_cleanup_free_ char *data = NULL;
	size_t len;
	int r;

	r = read_whole_file(path, &data, &len);
	if (r == -EFBIG)
		return bad(path, 0, NULL, NULL, "larger than %d bytes",
			   MAX_FILE_SIZE);
	if (r < 0) {
		bad(path, 0, NULL, NULL, "cannot read: %s", strerror(-r));
		return r;
	}
	return load_top(path, data, len, ret);
}

int loader_load_buffer(const char *name, const char *data, size_t len,
		       struct profile *ret)
{
	return load_top(name, data, len, ret);
}
