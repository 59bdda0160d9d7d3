/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The answers as result lines for a lab's engine (runner/sweeplines.h):
 * one case per answer of report.txt's "== Answers ==", in its order. */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "sweeplines.h"

/* Whether headline TEXT is SENTENCE, or SENTENCE with a loss answer
 * joined to it ("; after a host crash ...": results.md). */
static bool says(const char *text, const char *sentence)
{
	size_t n = strlen(sentence);
	return strncmp(text, sentence, n) == 0 &&
	       (text[n] == '\0' || strncmp(text + n, "; after a ", 10) == 0);
}

/* The comparison whose sentence headline TEXT says, or NULL (a loss
 * answer of its own, a question not compared, a rack's outlier). */
static const struct model_comparison *comparison_of(const struct model *mo, const char *text,
						    const char **ret_metric)
{
	for (size_t w = 0; w < mo->n_workloads; w++)
		for (size_t m = 0; m < mo->workloads[w].n_metrics; m++) {
			const struct model_metric *mm = &mo->workloads[w].metrics[m];
			for (size_t c = 0; c < mm->n_comparisons; c++)
				if (mm->comparisons[c].sentence &&
				    says(text, mm->comparisons[c].sentence)) {
					*ret_metric = mm->name;
					return &mm->comparisons[c];
				}
		}
	return NULL;
}

/* A comparison's case id, the same on every server of a kit (the levels
 * compared and held, not the answer's place, which a side without runs
 * changes): answer/AXIS:LEVEL-vs-REFERENCE/METRIC, then /pooled or the
 * axes held as /AXIS=LEVEL,... */
static void case_id(const struct model_comparison *c, const char *metric, char *buf,
		    size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "answer/%s:%s-vs-%s/%s", c->axis, c->level,
				    c->reference, metric);
	if (c->pooled && n < len)
		n += (size_t)snprintf(buf + n, len - n, "/pooled");
	for (size_t i = 0; i < c->n_held && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? "," : "/", c->held[i].axis,
				      c->held[i].level);
	for (size_t i = 0; i < c->n_at && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i || c->n_held ? "," : "/",
				      c->at[i].axis, c->at[i].level);
}

void report_write_answer_lines(const struct model *mo, FILE *f)
{
	for (size_t i = 0; i < mo->n_headlines; i++) {
		const char *text = mo->headlines[i], *metric = NULL;
		const struct model_comparison *c = comparison_of(mo, text, &metric);
		char id[512];

		if (!c) {
			snprintf(id, sizeof id, "answer/%zu", i + 1);
			sweeplines_case(f, id, "skip", NAN, "", text);
			continue;
		}
		case_id(c, metric, id, sizeof id);
		/* The change in percent, as the sentence says it. */
		bool measured = !c->unmeasured && isfinite(c->r.ratio);
		sweeplines_case(f, id, measured ? "pass" : "skip",
				measured ? (c->r.ratio - 1) * 100 : NAN, "%", text);
	}
}
