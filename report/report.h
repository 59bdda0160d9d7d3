/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report of one or more result bundles: the model of docs/report.md
 * (per workload and metric the cells with their runs and intervals, the
 * comparisons of every varied axis, failures, hosts, a baseline check and
 * the studies' tables) and its text, CSV and JSON forms.  The HTML form
 * is report_html.h's.  Built from the journals alone, so it can be made
 * again at any time. */
#ifndef BUILDAPP_REPORT_H
#define BUILDAPP_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

struct model;
struct model_host;

enum report_format {
	REPORT_HTML = 1 << 0,
	REPORT_CSV = 1 << 1,
	REPORT_JSON = 1 << 2,
	REPORT_TXT = 1 << 3,
};
#define REPORT_ALL_FORMATS (REPORT_HTML | REPORT_CSV | REPORT_JSON | REPORT_TXT)

struct report_options {
	const char *const *dirs; /* results directories, one per bundle */
	size_t n_dirs;
	const char *baseline_dir; /* NULL: no baseline check */
	const char *reference;    /* a study name (reference.h), or NULL */
	const char *baseline_level; /* "axis:level" ([report] baseline), or NULL */
	const char *compare; /* questions.h's list ([report] compare), or NULL */
};

/* A rack's directory DIR: one that holds no journal itself but bundles
 * in its subdirectories (as collected by uploads) gives their paths,
 * sorted, in *RET (N of them; free each and the array); hidden entries
 * (uploads under way or cut short) are left out.  Any other DIR gives
 * *RET NULL and N 0.  Returns 0 or -ENOMEM. */
int report_rack_expand(const char *dir, char ***ret, size_t *n);

/* Builds the model of the bundles in O into *ret (model.h, a new one the
 * caller frees with model_free).  Reports bad input (no journal, a
 * damaged journal, another version) with the bundle's name and returns
 * -EINVAL for it; else 0 or -ENOMEM. */
int report_build(const struct report_options *o, struct model **ret);

/* True when the model has a cell significantly worse than the baseline. */
bool report_baseline_worse(const struct model *report);

/* Writes the FORMATS of REPORT into DIR (created when missing) as
 * report.html, report.csv, report.json and report.txt, each through a
 * temporary file and rename; on failure none of the new files is left.
 * Returns 0 or a negative errno (reported). */
int report_write(const struct model *report, unsigned formats, const char *dir);

/* The report of the one bundle DIR (a results directory at the end of its
 * sweep, once its summary is written), every format written into DIR
 * itself; asked for by the sweep's callers (the appliance's init,
 * `buildapp run`), and its answers printed to ANSWERS unless NULL, and
 * as result lines (report_write_answer_lines) to RESULT_LINES unless
 * NULL.  A report that cannot be made is reported and warned of: the
 * sweep's results stand without it. */
void report_after_sweep(const char *dir, FILE *answers, FILE *result_lines);

/* One result line per answer of REPORT (runner/sweeplines.h), in the
 * order report_write_answers gives them: pass with the change in
 * percent as the measurement when the answer has one, skip when it has
 * none (a side without runs, a loss answer, whose text gives its
 * numbers); the sentence follows for a reader. */
void report_write_answer_lines(const struct model *report, FILE *f);

/* The answers of REPORT, as report.txt begins: "== Answers ==", the
 * profile's questions' answers first ([report] compare), then the
 * others.  report_after_sweep prints them to the sweep's console. */
void report_write_answers(const struct model *report, FILE *f);
/* Where REPORT's answers were measured: "on SRV-A", "on 3 servers". */
void report_answers_where(const struct model *report, char *buf, size_t size);
/* Whether HOST's journal holds fewer runs than its plan (a sweep stopped
 * before its end: the server powered off, a stick pulled, a timeout);
 * if so, the sentence that says so, in BUF (BUF may be NULL with SIZE 0). */
bool report_host_unfinished(const struct model_host *host, char *buf, size_t size);

#endif
