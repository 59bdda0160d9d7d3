/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "timings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "jsonget.h"
#include "log.h"
#include "monotonic.h"

#define TIMINGS_FILE "timings.json"
#define TIMINGS_VERSION 1

static const char *const phase_names[_TIMING_MAX] = {
	[TIMING_KIT] = "kit",
	[TIMING_PROVISION] = "provision",
	[TIMING_LIBVIRT] = "libvirt",
	[TIMING_CHECK_BOOT] = "check_boot",
	[TIMING_RESET] = "reset",
	[TIMING_PAGE_CACHE] = "page_cache",
	[TIMING_GUEST_START] = "guest_start",
	[TIMING_GUEST_STOP] = "guest_stop",
	[TIMING_GUEST_OTHER] = "guest_other",
	[TIMING_GUEST] = "guest",
	[TIMING_HOST_WORK] = "host_workload",
	[TIMING_RUNNER] = "runner",
};


void timings_init(struct timings *t)
{
	memset(t, 0, sizeof(*t));
	t->start = monotonic_seconds();
	t->start_time = (int64_t)time(NULL);
}

void timings_add_since(struct timings *t, enum timing_phase p, double since)
{
	t->phase[p] += monotonic_seconds() - since;
}

static double finite_or_0(double v)
{
	return isfinite(v) && v > 0 ? v : 0;
}

void timings_add_run(struct timings *t, const struct journal_run *run)
{
	const struct journal_phases *ph = &run->phases;
	double reset = finite_or_0(ph->reset), drop = finite_or_0(ph->page_cache),
	       work = finite_or_0(ph->workload), boot = finite_or_0(run->boot_seconds),
	       start = finite_or_0(ph->guest_start), stop = finite_or_0(ph->guest_stop);

	t->runs++;
	t->phase[TIMING_RESET] += reset;
	t->phase[TIMING_PAGE_CACHE] += drop;
	if (isfinite(run->boot_seconds)) {
		double other = work - boot - start - stop;
		t->phase[TIMING_GUEST] += boot;
		t->phase[TIMING_GUEST_START] += start;
		t->phase[TIMING_GUEST_STOP] += stop;
		t->phase[TIMING_GUEST_OTHER] += other > 0 ? other : 0;
	} else {
		t->phase[TIMING_HOST_WORK] += work;
	}
	double rest = finite_or_0(ph->total) - reset - drop - work;
	t->phase[TIMING_RUNNER] += rest > 0 ? rest : 0;
}

static double measured(const struct timings *t)
{
	return t->phase[TIMING_GUEST] + t->phase[TIMING_HOST_WORK];
}

static json_object *session_json(const struct timings *t, double wall)
{
	json_object *o = json_object_new_object(), *ph = json_object_new_object();
	double accounted = 0;
	char start[32];
	struct tm tm;
	time_t st = (time_t)t->start_time;

	if (!o || !ph) {
		json_object_put(o);
		json_object_put(ph);
		return NULL;
	}
	if (!gmtime_r(&st, &tm) || !strftime(start, sizeof(start), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(start, sizeof(start), "unknown");
	for (int p = 0; p < _TIMING_MAX; p++) {
		json_object_object_add(ph, phase_names[p], jsonget_new_number(t->phase[p]));
		accounted += t->phase[p];
	}
	/* Summary, report and what no phase names (a signal's wait...). */
	json_object_object_add(ph, "other",
			       jsonget_new_number(wall > accounted ? wall - accounted : 0));
	json_object_object_add(o, "started", json_object_new_string(start));
	json_object_object_add(o, "runs", json_object_new_int64(t->runs));
	json_object_object_add(o, "wall_seconds", jsonget_new_number(wall));
	json_object_object_add(o, "measured_seconds", jsonget_new_number(measured(t)));
	json_object_object_add(o, "phases", ph);
	return o;
}

/* One line of the breakdown: "reset 12.1 s (3%)". */
static void log_breakdown(const struct timings *t, double wall)
{
	char line[1024];
	size_t at = 0;
	double accounted = 0;

	for (int p = 0; p < _TIMING_MAX && at < sizeof(line); p++) {
		accounted += t->phase[p];
		if (t->phase[p] < 0.05)
			continue;
		int n = snprintf(line + at, sizeof(line) - at, "%s%s %.1f s", at ? ", " : "",
				 phase_names[p], t->phase[p]);
		at += n > 0 ? (size_t)n : 0;
	}
	if (at < sizeof(line))
		snprintf(line + at, sizeof(line) - at, "%sother %.1f s", at ? ", " : "",
			 wall > accounted ? wall - accounted : 0);
	log_info("sweep time: %s", line);
}

int timings_write(const char *dir, const struct timings *t)
{
	_cleanup_(json_object_putp) json_object *o = NULL;
	json_object *sessions = NULL, *s;
	double wall = monotonic_seconds() - t->start, all_wall = 0, all_measured = 0;
	int r;

	/* A damaged file costs the earlier sessions' figures, not the sweep. */
	if (timings_read(dir, &o) < 0 || !o ||
	    !json_object_object_get_ex(o, "sessions", &sessions) ||
	    !json_object_is_type(sessions, json_type_array)) {
		json_object_put(o);
		o = json_object_new_object();
		sessions = json_object_new_array();
		if (!o || !sessions || json_object_object_add(o, "sessions", sessions) < 0) {
			json_object_put(sessions);
			return log_error_errno(-ENOMEM, "timings");
		}
	}
	s = session_json(t, wall);
	if (!s || json_object_array_add(sessions, s) < 0) {
		json_object_put(s);
		return log_error_errno(-ENOMEM, "timings");
	}
	for (size_t i = 0; i < json_object_array_length(sessions); i++) {
		json_object *x = json_object_array_get_idx(sessions, i);
		double w = NAN, m = NAN;
		if (jsonget_number(x, "wall_seconds", &w) && jsonget_number(x, "measured_seconds", &m) &&
		    isfinite(w) && isfinite(m)) {
			all_wall += w;
			all_measured += m;
		}
	}
	double eff = all_wall > 0 ? all_measured / all_wall : NAN;
	json_object_object_add(o, "version", json_object_new_int(TIMINGS_VERSION));
	json_object_object_add(o, "wall_seconds", jsonget_new_number(all_wall));
	json_object_object_add(o, "measured_seconds", jsonget_new_number(all_measured));
	json_object_object_add(o, "efficiency", jsonget_new_number(eff));
	r = atomicfile_write(dir, TIMINGS_FILE, jsonget_write_pretty, o);
	if (isfinite(eff))
		log_info("sweep efficiency: %.2f (%.0f s measuring in %.0f s of wall "
			 "time, %u run%s this session)",
			 eff, all_measured, all_wall, t->runs, t->runs == 1 ? "" : "s");
	log_breakdown(t, wall);
	return r;
}

int timings_read(const char *dir, json_object **ret)
{
	char path[PATH_MAX];
	unsigned version = 0;

	*ret = NULL;
	snprintf(path, sizeof(path), "%s/" TIMINGS_FILE, dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	_cleanup_(json_object_putp) json_object *o = json_object_from_file(path);
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !jsonget_uint(o, "version", &version) || version != TIMINGS_VERSION) {
		log_error("'%s': not a timings.json of version %d", path, TIMINGS_VERSION);
		return -EBADMSG;
	}
	*ret = TAKE_PTR(o);
	return 0;
}
