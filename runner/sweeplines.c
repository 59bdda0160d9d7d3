/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweeplines.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "jsonget.h"
#include "log.h"

/* Longer than any line these make: a cell id, a number, a sentence. */
#define LINE_MAX_BYTES 2048

/* LINE (a whole line, its newline included) in one write: an engine's
 * pattern matches a line, and a log line written between two pieces of
 * it would break the match. */
static void put_line(FILE *f, const char *line)
{
	fputs(line, f);
	fflush(f);
}

/* Appends S to BUF (LEN, USED so far) with every white space or control
 * character replaced by REPLACEMENT: the grammar's fields are separated
 * by spaces and a line by its end. */
static size_t append_clean(char *buf, size_t len, size_t used, const char *s,
			   char replacement)
{
	for (; *s && used + 1 < len; s++)
		buf[used++] = isspace((unsigned char)*s) || iscntrl((unsigned char)*s)
				      ? replacement
				      : *s;
	buf[used] = '\0';
	return used;
}

static size_t append(char *buf, size_t len, size_t used, const char *s)
{
	int n = snprintf(buf + used, len - used, "%s", s);
	return n < 0 ? used : used + (size_t)n < len ? used + (size_t)n : len - 1;
}

void sweeplines_case(FILE *f, const char *id, const char *result, double value,
		     const char *unit, const char *text)
{
	char line[LINE_MAX_BYTES], number[JSONGET_NUMBER_MAX];
	size_t n = append(line, sizeof line, 0, SWEEPLINES_TAG " case=");

	n = append_clean(line, sizeof line, n, id, '_');
	n = append(line, sizeof line, n, " result=");
	n = append(line, sizeof line, n, result);
	/* The journal's own number text: the value an engine records is
	 * the journal's, to the last digit. */
	if (jsonget_number_text(value, number, sizeof number)) {
		n = append(line, sizeof line, n, " measurement=");
		n = append(line, sizeof line, n, number);
	}
	n = append(line, sizeof line, n, " units=");
	n = append_clean(line, sizeof line, n, unit ? unit : "", '_');
	if (text && *text) {
		n = append(line, sizeof line, n, " ");
		n = append_clean(line, sizeof line, n, text, ' ');
	}
	/* A line cut to the buffer still ends. */
	if (n + 1 >= sizeof line)
		n = sizeof line - 2;
	line[n] = '\n';
	line[n + 1] = '\0';
	put_line(f, line);
}

void sweeplines_start(FILE *f, const char *kit, size_t runs)
{
	char line[LINE_MAX_BYTES];
	size_t n = append(line, sizeof line, 0, SWEEPLINES_TAG " start kit=");

	/* A field is never empty: the next one would read as its value. */
	n = append_clean(line, sizeof line, n, *kit ? kit : "-", '_');
	snprintf(line + n, sizeof line - n, " runs=%zu\n", runs);
	put_line(f, line);
}

/* CELL_ID/run-N, N counted from 1 as the progress lines count. */
static void run_case_id(const char *cell_id, unsigned index, char *buf, size_t len)
{
	snprintf(buf, len, "%s/run-%u", cell_id, index + 1);
}

void sweeplines_run(FILE *f, const struct journal_run *run)
{
	const bool boot_first = run->cell.workload == WORKLOAD_TARBALL_WRITE ||
				run->cell.workload == WORKLOAD_TARBALL_READ;
	const bool ok = strcmp(run->status, "ok") == 0;
	const char *unit = "";
	double value = NAN;
	char id[PLAN_CELL_ID_MAX + 32];

	if (ok && boot_first && isfinite(run->boot_seconds)) {
		value = run->boot_seconds;
		unit = "s";
	} else if (ok && run->n_metrics > 0 && strcmp(run->metrics[0].name, "reset_seconds") != 0) {
		value = run->metrics[0].value;
		unit = run->metrics[0].unit;
	}
	run_case_id(run->cell.id, run->index, id, sizeof id);
	sweeplines_case(f, id, ok ? "pass" : "fail", ok ? value : NAN, unit, NULL);
}

int sweeplines_end(FILE *f, const struct plan *plan, const char *results_dir, bool ok,
		   const char *upload)
{
	char path[4096], id[PLAN_CELL_ID_MAX + 32], line[256];
	struct journal j = {.n_runs = 0};
	size_t failed = 0;

	snprintf(path, sizeof path, "%s/runs.jsonl", results_dir);
	int r = journal_read(path, &j);
	for (size_t i = 0; i < j.n_runs; i++)
		if (strcmp(j.runs[i].status, "ok") != 0)
			failed++;
	/* A planned run with no journal line is a failed case, not a
	 * missing one: an engine counts cases. */
	for (size_t i = 0; r == 0 && i < plan->n_runs; i++) {
		const struct plan_run *pr = &plan->runs[i];
		const char *cell = plan->cells[pr->cell].id;
		if (journal_has_run(&j, cell, pr->index))
			continue;
		run_case_id(cell, pr->index, id, sizeof id);
		sweeplines_case(f, id, "fail", NAN, "", "not made");
		ok = false;
	}
	if (r < 0) {
		log_error_errno(r, "result lines: cannot read '%s'", path);
		ok = false;
	}
	ok = ok && failed == 0;
	sweeplines_case(f, "sweep", ok ? "pass" : "fail", (double)failed, "failed_runs", NULL);
	/* A bundle that did not leave is a lab's failure too. */
	if (strcmp(upload, "none") != 0)
		sweeplines_case(f, "upload", strcmp(upload, "sent") == 0 ? "pass" : "fail", NAN, "",
				NULL);
	ok = ok && strcmp(upload, "failed") != 0;
	snprintf(line, sizeof line, SWEEPLINES_TAG " end result=%s made=%zu failed=%zu upload=%s\n",
		 ok ? "pass" : "fail", j.n_runs, failed, upload);
	put_line(f, line);
	journal_release(&j);
	return r;
}
