/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <json.h>

#include "cleanup.h"
#include "files.h"
#include "jsonget.h"
#include "log.h"
#include "names.h"

void journal_run_init(struct journal_run *run)
{
	struct utsname u;

	memset(run, 0, sizeof *run);
	run->cell = (struct plan_cell){PLAN_CELL_NO_FIO};
	run->boot_seconds = NAN;
	run->phases = (struct journal_phases){NAN, NAN, NAN, NAN, NAN, NAN};
	run->start_time = (int64_t)time(NULL);
	crashfacts_init(&run->host_crash);
	if (uname(&u) == 0)
		snprintf(run->host_kernel, sizeof run->host_kernel, "%s",
			 u.release);
}

void journal_run_release(struct journal_run *run)
{
	free(run->metrics);
	memset(run, 0, sizeof *run);
}

static bool copy_text(char *dst, size_t size, const char *src)
{
	if (!src || strlen(src) >= size)
		return false;
	memcpy(dst, src, strlen(src) + 1);
	return true;
}

int journal_run_add_metric(struct journal_run *run, const char *name,
			   double value, const char *unit)
{
	struct result_metric m = {.value = value};

	if (!name || !*name || !copy_text(m.name, sizeof m.name, name) ||
	    !copy_text(m.unit, sizeof m.unit, unit ? unit : ""))
		return -EINVAL;
	if (run->n_metrics >= JOURNAL_MAX_METRICS)
		return -EINVAL;
	struct result_metric *grown =
		realloc(run->metrics, (run->n_metrics + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	run->metrics = grown;
	run->metrics[run->n_metrics++] = m;
	return 0;
}

void journal_run_add_notes(struct journal_run *run, const struct results *res)
{
	run->n_notes = res->n_notes;
	memcpy(run->notes, res->notes, sizeof(run->notes));
	run->n_steady = res->n_steady;
	memcpy(run->steady, res->steady, sizeof(run->steady));
}

const struct result_metric *journal_run_metric(const struct journal_run *run,
					       const char *name)
{
	return results_metric_find(run->metrics, run->n_metrics, name);
}

/* --- writing ----------------------------------------------------------- */

static int add(json_object *o, const char *key, json_object *v)
{
	return json_object_object_add(o, key, v) < 0 ? -ENOMEM : 0;
}

static int add_string(json_object *o, const char *key, const char *s)
{
	json_object *v = s ? json_object_new_string(s) : NULL;
	if (s && !v)
		return -ENOMEM;
	return add(o, key, v);
}

static int metrics_to_json(const struct journal_run *run, json_object **ret)
{
	_cleanup_(json_object_putp) json_object *a = json_object_new_array();
	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < run->n_metrics; i++) {
		const struct result_metric *m = &run->metrics[i];
		json_object *o = json_object_new_object();
		if (!o || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			return -ENOMEM;
		}
		if (add_string(o, "name", m->name) < 0 ||
		    add(o, "value", jsonget_new_number(m->value)) < 0 ||
		    add_string(o, "unit", m->unit) < 0)
			return -ENOMEM;
	}
	*ret = TAKE_PTR(a);
	return 0;
}

static json_object *qcow2_cache_to_json(const struct journal_run *run)
{
	if (!run->qcow2_cache_known)
		return NULL;
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	add_string(o, "option", run->qcow2_cache_size ? "cache-size" : NULL);
	add(o, "bytes", run->qcow2_cache_size ? json_object_new_uint64(run->qcow2_cache_size)
					       : NULL);
	add_string(o, "source", run->qcow2_cache_source);
	return o;
}

static bool qcow2_cache_from_json(json_object *o, struct journal_run *run)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, "qcow2_cache", &o) || !o)
		return true;
	if (json_object_object_get_ex(o, "bytes", &v) && v) {
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) <= 0)
			return false;
		run->qcow2_cache_size = json_object_get_uint64(v);
	}
	s = jsonget_string(o, "source");
	if (s && !copy_text(run->qcow2_cache_source, sizeof run->qcow2_cache_source, s))
		return false;
	run->qcow2_cache_known = true;
	return true;
}

static int applied_to_json(const struct journal_run *run, json_object **ret)
{
	if (!run->applied_known) {
		*ret = NULL;
		return 0;
	}
	json_object *o = json_object_new_object();
	if (!o ||
	    add(o, "writeback", json_object_new_boolean(run->applied.writeback)) < 0 ||
	    add(o, "direct", json_object_new_boolean(run->applied.direct)) < 0 ||
	    add(o, "no-flush", json_object_new_boolean(run->applied.no_flush)) < 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	*ret = o;
	return 0;
}

/* "phases": the measured ones only; null when none was. */
static json_object *phases_to_json(const struct journal_phases *ph)
{
	const struct {
		const char *name;
		double v;
	} p[] = {{"reset", ph->reset}, {"page_cache", ph->page_cache},
		 {"workload", ph->workload}, {"guest_start", ph->guest_start},
		 {"guest_stop", ph->guest_stop}, {"total", ph->total}};
	json_object *o = NULL;

	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		if (!isfinite(p[i].v))
			continue;
		if (!o && !(o = json_object_new_object()))
			return NULL;
		/* Out of memory loses the phases, not the run. */
		add(o, p[i].name, jsonget_new_number(p[i].v));
	}
	return o;
}

static bool phases_from_json(json_object *o, struct journal_phases *ph)
{
	*ph = (struct journal_phases){NAN, NAN, NAN, NAN, NAN, NAN};
	if (!json_object_object_get_ex(o, "phases", &o) || !o)
		return true;
	return json_object_is_type(o, json_type_object) &&
	       jsonget_number(o, "reset", &ph->reset) &&
	       jsonget_number(o, "page_cache", &ph->page_cache) &&
	       jsonget_number(o, "workload", &ph->workload) &&
	       jsonget_number(o, "guest_start", &ph->guest_start) &&
	       jsonget_number(o, "guest_stop", &ph->guest_stop) &&
	       jsonget_number(o, "total", &ph->total);
}

/* "reset_check": null when no check was made. */
static json_object *reset_check_to_json(const struct journal_reset_check *c)
{
	json_object *o;

	if (!c->done || !(o = json_object_new_object()))
		return NULL;
	/* Out of memory loses the check, not the run. */
	add(o, "fast", json_object_new_string(c->fast));
	add(o, "full", json_object_new_string(c->full));
	add(o, "identical", json_object_new_boolean(c->identical));
	return o;
}

static bool sha_from_json(json_object *o, const char *key, char *hex)
{
	const char *s = jsonget_string(o, key);

	if (!s || strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64)
		return false;
	memcpy(hex, s, 65);
	return true;
}

/* Absent or null in journals older than the check, and when none was made. */
static bool reset_check_from_json(json_object *o, const char *key,
				  struct journal_reset_check *c)
{
	*c = (struct journal_reset_check){.done = false};
	if (!json_object_object_get_ex(o, key, &o) || !o)
		return true;
	c->done = true;
	return json_object_is_type(o, json_type_object) &&
	       sha_from_json(o, "fast", c->fast) && sha_from_json(o, "full", c->full) &&
	       jsonget_bool(o, "identical", &c->identical) &&
	       c->identical == (strcmp(c->fast, c->full) == 0);
}

/* "notes": absent when the tool said nothing. */
static json_object *notes_to_json(const struct journal_run *run)
{
	json_object *a;

	if (!run->n_notes || !(a = json_object_new_array()))
		return NULL;
	for (size_t i = 0; i < run->n_notes; i++)
		json_object_array_add(a, json_object_new_string(run->notes[i]));
	return a;
}

static bool notes_from_json(json_object *o, struct journal_run *run)
{
	if (!json_object_object_get_ex(o, "notes", &o) || !o)
		return true;
	if (!json_object_is_type(o, json_type_array) ||
	    json_object_array_length(o) > RESULTS_NOTES_MAX)
		return false;
	for (size_t i = 0; i < json_object_array_length(o); i++) {
		json_object *n = json_object_array_get_idx(o, i);
		if (!json_object_is_type(n, json_type_string) ||
		    !copy_text(run->notes[i], sizeof run->notes[i], json_object_get_string(n)))
			return false;
		run->n_notes++;
	}
	return true;
}

/* "steadystate": {"fio_JOB": true, ...}, absent without one. */
static json_object *steady_to_json(const struct journal_run *run)
{
	json_object *o;

	if (!run->n_steady || !(o = json_object_new_object()))
		return NULL;
	for (size_t i = 0; i < run->n_steady; i++)
		add(o, run->steady[i].prefix, json_object_new_boolean(run->steady[i].attained));
	return o;
}

static bool steady_from_json(json_object *o, struct journal_run *run)
{
	if (!json_object_object_get_ex(o, "steadystate", &o) || !o)
		return true;
	if (!json_object_is_type(o, json_type_object))
		return false;
	json_object_object_foreach(o, key, v) {
		struct result_steady *s = &run->steady[run->n_steady];
		if (run->n_steady == RESULTS_STEADY_MAX || !json_object_is_type(v, json_type_boolean) ||
		    !copy_text(s->prefix, sizeof s->prefix, key))
			return false;
		s->attained = json_object_get_boolean(v);
		run->n_steady++;
	}
	return true;
}

int journal_run_to_json(const struct journal_run *run, char **ret)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	json_object *cell = NULL, *metrics = NULL, *applied = NULL;
	char start[32];
	struct tm tm;
	time_t t = (time_t)run->start_time;
	int r;

	if (!o)
		return -ENOMEM;
	if (!gmtime_r(&t, &tm) ||
	    strftime(start, sizeof start, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return -EINVAL;
	if ((unsigned)run->cell.backend >= _BACKEND_MAX ||
	    (unsigned)run->cell.format >= _IMAGE_FORMAT_MAX ||
	    (!run->cell.host && ((unsigned)run->cell.cache >= _CACHE_MAX ||
				 (unsigned)run->cell.aio >= _AIO_MAX)) ||
	    (unsigned)run->cell.workload >= _WORKLOAD_MAX ||
	    run->cell.bus >= _BUS_MAX)
		return -EINVAL;
	if (!(cell = plan_cell_to_json(&run->cell)))
		return -ENOMEM;
	if (add(o, "version", json_object_new_int(JOURNAL_VERSION)) < 0 ||
	    add(o, "cell", cell) < 0)
		return -ENOMEM;
	if ((r = metrics_to_json(run, &metrics)) < 0 ||
	    (r = applied_to_json(run, &applied)) < 0) {
		json_object_put(metrics);
		return r;
	}
	if (add(o, "index", json_object_new_int64(run->index)) < 0 ||
	    add(o, "position", json_object_new_int64(run->position)) < 0 ||
	    add_string(o, "start_time", start) < 0 ||
	    add_string(o, "status", run->status) < 0 ||
	    add_string(o, "message", run->message[0] ? run->message : NULL) < 0 ||
	    add(o, "boot_seconds", jsonget_new_number(run->boot_seconds)) < 0 ||
	    add_string(o, "accel", run->cell.host ? NULL : run->kvm ? "kvm" : "tcg") < 0 ||
	    add(o, "applied_cache", applied) < 0 ||
	    add(o, "qcow2_cache", qcow2_cache_to_json(run)) < 0 ||
	    add_string(o, "reset", run->reset[0] ? run->reset : NULL) < 0 ||
	    (run->reset_check.done &&
	     add(o, "reset_check", reset_check_to_json(&run->reset_check)) < 0) ||
	    (run->reset_check_after.done &&
	     add(o, "reset_check_after",
		 reset_check_to_json(&run->reset_check_after)) < 0) ||
	    add_string(o, "host_kernel", run->host_kernel) < 0 ||
	    add_string(o, "guest_kernel",
		       run->guest_kernel[0] ? run->guest_kernel : NULL) < 0 ||
	    add_string(o, "crash", run->crash[0] ? run->crash : NULL) < 0 ||
	    (run->host_io[0] && add_string(o, "host_io", run->host_io) < 0) ||
	    (run->n_notes && add(o, "notes", notes_to_json(run)) < 0) ||
	    (run->n_steady && add(o, "steadystate", steady_to_json(run)) < 0) ||
	    (run->host_crash.present &&
	     add(o, "host_crash", crashfacts_to_json(&run->host_crash)) < 0) ||
	    (run->disk_write_cache[0] &&
	     add_string(o, "disk_write_cache", run->disk_write_cache) < 0) ||
	    add(o, "metrics", metrics) < 0 ||
	    add(o, "phases", phases_to_json(&run->phases)) < 0)
		return -ENOMEM;
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || !(*ret = strdup(text)))
		return -ENOMEM;
	return 0;
}

/* --- reading ----------------------------------------------------------- */

/* The cell as the plan writes it, but with the id as journaled: the
 * runner's id is the key a resumed sweep looks runs up by. */
static bool cell_from_json(json_object *o, struct plan_cell *c)
{
	const char *id = jsonget_string(o, "id");

	if (!id || plan_cell_from_json(o, c) < 0)
		return false;
	return copy_text(c->id, sizeof c->id, id);
}

static bool metrics_from_json(json_object *a, struct journal_run *run)
{
	if (!a || !json_object_is_type(a, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *m = json_object_array_get_idx(a, i);
		double value;
		if (!jsonget_number(m, "value", &value) ||
		    journal_run_add_metric(run, jsonget_string(m, "name"), value,
					   jsonget_string(m, "unit")) < 0)
			return false;
	}
	return true;
}

static bool run_from_json(json_object *o, struct journal_run *run)
{
	json_object *v, *applied;
	struct tm tm = {0};
	const char *s;

	if (!json_object_object_get_ex(o, "version", &v) ||
	    json_object_get_int(v) != JOURNAL_VERSION)
		return false;
	if (!json_object_object_get_ex(o, "cell", &v) ||
	    !cell_from_json(v, &run->cell) ||
	    !jsonget_uint(o, "index", &run->index) ||
	    !jsonget_uint(o, "position", &run->position))
		return false;
	s = jsonget_string(o, "start_time");
	if (!s || !(s = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm)) || *s)
		return false;
	run->start_time = (int64_t)timegm(&tm);
	if (!copy_text(run->status, sizeof run->status, jsonget_string(o, "status")))
		return false;
	s = jsonget_string(o, "message");
	if (s && !copy_text(run->message, sizeof run->message, s))
		return false;
	if (!jsonget_number(o, "boot_seconds", &run->boot_seconds))
		return false;
	/* Host cells ran no guest: no accelerator. */
	s = jsonget_string(o, "accel");
	if (!run->cell.host ? !s || (strcmp(s, "kvm") && strcmp(s, "tcg")) : s != NULL)
		return false;
	run->kvm = s && strcmp(s, "kvm") == 0;
	if (!qcow2_cache_from_json(o, run) || !phases_from_json(o, &run->phases))
		return false;
	if (json_object_object_get_ex(o, "applied_cache", &applied) && applied) {
		if (!jsonget_bool(applied, "writeback", &run->applied.writeback) ||
		    !jsonget_bool(applied, "direct", &run->applied.direct) ||
		    !jsonget_bool(applied, "no-flush", &run->applied.no_flush))
			return false;
		run->applied_known = true;
	}
	/* Absent in journals older than the fast reset. */
	s = jsonget_string(o, "reset");
	if (s && ((strcmp(s, "full") && strcmp(s, "fast") && strcmp(s, "none")) ||
		  !copy_text(run->reset, sizeof run->reset, s)))
		return false;
	if (!reset_check_from_json(o, "reset_check", &run->reset_check) ||
	    !reset_check_from_json(o, "reset_check_after", &run->reset_check_after))
		return false;
	s = jsonget_string(o, "host_kernel");
	if (s && !copy_text(run->host_kernel, sizeof run->host_kernel, s))
		return false;
	s = jsonget_string(o, "guest_kernel");
	if (s && !copy_text(run->guest_kernel, sizeof run->guest_kernel, s))
		return false;
	s = jsonget_string(o, "crash");
	if (s && !copy_text(run->crash, sizeof run->crash, s))
		return false;
	/* Absent in older lines, and for runs whose host did not crash. */
	if (!crashfacts_from_json(o, &run->host_crash))
		return false;
	s = jsonget_string(o, "disk_write_cache");
	if (s && ((strcmp(s, "on") != 0 && strcmp(s, "off") != 0) ||
		  !copy_text(run->disk_write_cache, sizeof run->disk_write_cache, s)))
		return false;
	/* Absent in older lines, and for guest cells. */
	s = jsonget_string(o, "host_io");
	if (s && ((strcmp(s, "direct") && strcmp(s, "buffered")) ||
		  !copy_text(run->host_io, sizeof run->host_io, s)))
		return false;
	if (!notes_from_json(o, run) || !steady_from_json(o, run))
		return false;
	return json_object_object_get_ex(o, "metrics", &v) &&
	       metrics_from_json(v, run);
}

int journal_run_from_json(const char *line, struct journal_run *ret)
{
	_cleanup_(json_object_putp) json_object *o = json_tokener_parse(line);
	struct journal_run run = {0};

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !run_from_json(o, &run)) {
		journal_run_release(&run);
		return -EBADMSG;
	}
	*ret = run;
	return 0;
}

/* --- the file ------------------------------------------------------------ */

static int fsync_parent(const char *path)
{
	_cleanup_free_ char *copy = strdup(path);
	return copy ? files_fsync_dir(dirname(copy)) : -ENOMEM;
}

/* The length of FD's contents up to and including its last newline: what
 * is after it is a line cut short (a power cut or a full disk in the
 * middle of an append), which journal_read ignores and the next append
 * removes.  Returns the length or a negative errno. */
static off_t committed_length(int fd)
{
	char buf[4096];
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	for (off_t end = st.st_size; end > 0;) {
		size_t n = end < (off_t)sizeof buf ? (size_t)end : sizeof buf;
		ssize_t got = pread(fd, buf, n, end - (off_t)n);
		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		for (size_t i = n; i > 0; i--)
			if (buf[i - 1] == '\n')
				return end - (off_t)n + (off_t)i;
		end -= (off_t)n;
	}
	return 0;
}

/* Writes all of BUF at the end of FD.  A short write is retried, so a full
 * disk answers with its errno (ENOSPC) rather than a count. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int journal_append(const char *path, const struct journal_run *run)
{
	_cleanup_free_ char *line = NULL;
	int r = journal_run_to_json(run, &line);
	if (r < 0)
		return log_error_errno(r, "journal '%s': cannot write run %u of '%s'",
				       path, run->index, run->cell.id);

	bool existed = access(path, F_OK) == 0;
	_cleanup_close_ int fd =
		open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return log_error_errno(-errno, "journal '%s'", path);
	/* A torn last line goes first: written after, the new record would
	 * share its line and every later read would fail there. */
	off_t keep = committed_length(fd);
	struct stat st;
	if (keep < 0 || fstat(fd, &st) < 0)
		return log_error_errno(keep < 0 ? (int)keep : -errno,
				       "journal '%s': cannot read its end", path);
	if (keep < st.st_size) {
		log_warning("journal '%s': removing a last line cut short (%lld bytes)",
			    path, (long long)(st.st_size - keep));
		if (ftruncate(fd, keep) < 0)
			return log_error_errno(-errno, "journal '%s': cannot remove the cut-short line",
					       path);
	}
	size_t len = strlen(line);
	line[len] = '\n';
	r = write_all(fd, line, len + 1);
	line[len] = '\0';
	if (r < 0) {
		/* Leave no fragment behind: this run is lost, no other. */
		if (ftruncate(fd, keep) < 0)
			log_warning("journal '%s': cannot remove the partial line: %s",
				    path, strerror(errno));
		return log_error_errno(r, "journal '%s': cannot append run %u of '%s'",
				       path, run->index, run->cell.id);
	}
	if (fsync(fd) < 0)
		return log_error_errno(-errno, "journal '%s': fsync", path);
	if (!existed && (r = fsync_parent(path)) < 0)
		return log_error_errno(r, "journal '%s': fsync of its directory",
				       path);
	return 0;
}

void journal_release(struct journal *j)
{
	for (size_t i = 0; i < j->n_runs; i++)
		journal_run_release(&j->runs[i]);
	free(j->runs);
	j->runs = NULL;
	j->n_runs = 0;
}

int journal_read(const char *path, struct journal *ret)
{
	struct journal j = {0};
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;

	if (!f) {
		if (errno != ENOENT)
			return log_error_errno(-errno, "journal '%s'", path);
		*ret = j;
		return 0;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		bool complete = len > 0 && line[len - 1] == '\n';
		if (complete)
			line[--len] = '\0';
		if (len == 0)
			continue;
		/* A record is committed by its newline: without one (the last
		 * line, cut short) it is ignored even when it parses, as
		 * journal_append removes it before it writes. */
		if (!complete) {
			log_warning("journal '%s': line %u was cut short (interrupted run), ignored",
				    path, lineno);
			break;
		}
		struct journal_run run;
		if (len > JOURNAL_LINE_MAX ||
		    journal_run_from_json(line, &run) < 0) {
			journal_release(&j);
			return log_error_code(-EBADMSG, "journal '%s': line %u is not a journal record",
					      path, lineno);
		}
		struct journal_run *grown =
			realloc(j.runs, (j.n_runs + 1) * sizeof *grown);
		if (!grown) {
			journal_run_release(&run);
			journal_release(&j);
			return -ENOMEM;
		}
		j.runs = grown;
		j.runs[j.n_runs++] = run;
	}
	*ret = j;
	return 0;
}

bool journal_has_run(const struct journal *j, const char *cell_id,
		     unsigned index)
{
	for (size_t i = 0; i < j->n_runs; i++)
		if (j->runs[i].index == index &&
		    strcmp(j->runs[i].cell.id, cell_id) == 0)
			return true;
	return false;
}
