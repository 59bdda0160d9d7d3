/* Parsing what a benchmark guest printed on its console (the protocol of
 * docs/guest-protocol.md) into named metrics.  fio's JSON and bonnie++'s
 * CSV arrive raw and are decoded here, on the host. */
#ifndef BUILDAPP_RESULTS_H
#define BUILDAPP_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* A fio job file's 8 jobs of 24 metrics each (reads and writes: iops,
 * bw, clat and lat means and 3 percentiles each; sync latency's mean and
 * 3 percentiles), and a few more. */
#define RESULTS_MAX_METRICS 256
#define RESULTS_NAME_MAX 64
#define RESULTS_UNIT_MAX 16
#define RESULTS_ERROR_MAX 512
/* A METRIC line's name is cut to this (with the NUL). */
#define RESULTS_LINE_NAME_MAX 48

/* One measured value, as a run's results hold it and as the journal
 * (journal.h) records it. */
struct result_metric {
	char name[RESULTS_NAME_MAX]; /* "fio_write_iops", "reset_seconds"... */
	double value;                /* NAN: not measured (null in JSON) */
	char unit[RESULTS_UNIT_MAX]; /* "s", "KiB/s", "IOPS", "us"... */
};

/* What a tool said beside its numbers (fio's "note: ..." lines), kept
 * as the run's messages: at most this many, each cut to this size. */
#define RESULTS_NOTES_MAX 8
#define RESULTS_NOTE_MAX 200
#define RESULTS_STEADY_MAX 8

/* fio's steadystate= of one job: whether it was reached.  PREFIX names
 * the job as its metrics do ("fio", "fio_randread"). */
struct result_steady {
	char prefix[RESULTS_NAME_MAX];
	bool attained;
};

struct results {
	bool begun;      /* a BEGIN line was seen: the agent started */
	bool ended;      /* an END line was seen */
	int status;      /* END status=N; -1 without END */
	char kernel[64]; /* guest kernel release from BEGIN */
	char error[RESULTS_ERROR_MAX]; /* first ERROR line, or the parser's */
	size_t n_metrics;
	struct result_metric metrics[RESULTS_MAX_METRICS];
	size_t n_notes; /* distinct, in the order said */
	char notes[RESULTS_NOTES_MAX][RESULTS_NOTE_MAX];
	size_t n_steady;
	struct result_steady steady[RESULTS_STEADY_MAX];
};

/* Parses the console log TEXT (LEN bytes, need not be NUL-terminated) of
 * a run of KIND.  Lines not tagged BUILDAPP: (kernel messages, carriage
 * returns) are ignored.  Fills *ret in every case, so a failed run still
 * has its error.  Returns 0 when the guest ended with status 0 and the
 * workload's metrics were found; -ENODATA when the guest never printed
 * END (crash, timeout), -EIO when it reported a failure, -EBADMSG when
 * its output could not be decoded. */
int results_parse(const char *text, size_t len, enum workload_kind kind,
		  struct results *ret);

/* The metric NAME in R, or NULL. */
const struct result_metric *results_find(const struct results *r,
					 const char *name);
/* The first of the N METRICS called NAME, or NULL: results_find's and
 * journal_run_metric's lookup. */
const struct result_metric *results_metric_find(const struct result_metric *metrics,
						size_t n, const char *name);

/* Adds a metric; returns -ENOSPC when R is full. Used by the parser and
 * by host-side workloads (qemu-img bench). */
int results_add(struct results *r, const char *name, double value,
		const char *unit);

/* Keeps NOTE (a line a tool printed) among R's notes, once; a note past
 * the last that fits is dropped, and the last kept says so. */
void results_add_note(struct results *r, const char *note);

/* Decoders of the raw tool outputs, exposed for tests.  fio's are given
 * its whole stdout: the JSON object is the one that starts at a line
 * "{", and fio's other lines ("note: ...") are kept as notes. */
int results_parse_fio_json(const char *out, struct results *r);
/* A fio job file's output (the "fio-jobs" frame): each job's metrics,
 * named by it: fio_JOB_read_iops...  (Clones are one job; the profile's
 * check refuses a reporting group of several jobs.) */
int results_parse_fio_jobs(const char *out, struct results *r);
int results_parse_bonnie_csv(const char *csv, struct results *r);

#endif
