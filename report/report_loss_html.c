/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.html's loss by crash: a durability workload's "lost" metric
 * drawn and tabled with the crash as its unit (docs/results.md, "Loss by
 * crash"): a bar per cell at the share of its crashes that lost any
 * acknowledged record, whiskers at that share's exact interval, a dot
 * per crash at its own share of acknowledged records lost; each crash
 * with what its host's crash left on record; each loss comparison. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "crashloss.h"
#include "htmltext.h"
#include "report_chart.h"
#include "report_loss_html.h"
#include "stats.h"

bool report_loss_html_wanted(const struct model_metric *m)
{
	for (size_t i = 0; i < m->n_cells; i++)
		if (m->cells[i].loss)
			return true;
	return false;
}

/* The cells of M as the chart draws them by crash, in percent, into VIEW
 * (its cells and their runs owned by the caller through loss_view_free). */
static int loss_view(const struct model_metric *m, struct model_metric *view)
{
	*view = *m;
	view->unit = (char *)"%";
	view->n_outliers = 0;
	if (!(view->cells = calloc(m->n_cells ? m->n_cells : 1, sizeof *view->cells)))
		return -ENOMEM;
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_loss *l = m->cells[i].loss;
		struct model_cell *c = &view->cells[i];
		*c = m->cells[i];
		c->runs = NULL;
		c->n_runs = 0;
		c->has_baseline = false;
		if (!l || !l->crashes) {
			c->mean = c->ci_low = c->ci_high = NAN;
			continue;
		}
		c->n = l->crashes;
		c->mean = 100.0 * l->lost_any / l->crashes;
		c->ci_low = 100 * l->low;
		c->ci_high = 100 * l->high;
		c->too_few_runs = false;
		if (l->n_runs && !(c->runs = calloc(l->n_runs, sizeof *c->runs)))
			return -ENOMEM;
		c->n_runs = l->n_runs;
		for (size_t k = 0; k < l->n_runs; k++)
			c->runs[k] = (struct model_run){.index = l->runs[k].index,
							.value = 100 * l->runs[k].fraction,
							.first = k == 0};
	}
	return 0;
}

static void loss_view_free(struct model_metric *view)
{
	for (size_t i = 0; view->cells && i < view->n_cells; i++)
		free(view->cells[i].runs);
	free(view->cells);
}

/* V KiB (whole) or seconds, or "unknown". */
static void amount(double v, bool kib, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "unknown");
	else if (kib)
		snprintf(buf, size, "%.0f KiB", v);
	else
		snprintf(buf, size, "%g s", v);
}

/* X's steps before its trigger, compact as its column heads them:
 * "12.0 / 13.0 / 41.0 / 43.0 ms", "?" for one not on record; "unknown"
 * for none. */
static void steps(const struct model_crash *x, char *buf, size_t size)
{
	size_t len = 0, known = 0;

	for (size_t i = 0; i < MODEL_CRASH_STEPS && len < size; i++) {
		double s = model_crash_step_seconds(x, i);
		int n = isnan(s) ? snprintf(buf + len, size - len, "%s?", i ? " / " : "")
				 : snprintf(buf + len, size - len, "%s%.1f", i ? " / " : "",
					    1000 * s);
		len += n > 0 ? (size_t)n : 0;
		known += !isnan(s);
	}
	if (known)
		snprintf(buf + len, len < size ? size - len : 0, " ms");
	else
		snprintf(buf, size, "unknown");
}

static int crash_row(xmlTextWriterPtr w, const struct model_crash *x)
{
	char buf[512], pc[24];

	XW(xmlwrite_start(w, "tr"));
	snprintf(buf, sizeof buf, "%u", x->index);
	XW(htmltext_element(w, "td", "num", buf));
	snprintf(buf, sizeof buf, "%.0f of %.0f", x->lost, x->acknowledged);
	XW(htmltext_element(w, "td", "num", buf));
	crashloss_percent(x->fraction, pc, sizeof pc);
	snprintf(buf, sizeof buf, "%s%%", pc);
	XW(htmltext_element(w, "td", "num", buf));
	if (!x->has_host_crash) {
		XW(xmlwrite_start(w, "td"));
		XW(xmlwrite_attr(w, "colspan", "7"));
		XW(xmlwrite_attr(w, "class", "unknown"));
		XW(htmltext_text(w, "not recorded"));
		XW(xmlwrite_end_full(w));
		return xmlwrite_end_full(w) < 0 ? -EIO : 0;
	}
	snprintf(buf, sizeof buf, "%s%s%s%s%s", x->mechanism ? x->mechanism : "?",
		 x->fallback ? " (kexec not used: " : "", x->fallback ? x->fallback : "",
		 x->bmc ? " (" : "", x->bmc ? x->bmc : "");
	if (x->bmc)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ")");
	if (x->fallback)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ")");
	XW(htmltext_element(w, "td", NULL, buf));
	amount(x->dirty_kib, true, buf, sizeof buf);
	XW(htmltext_element(w, "td", "num", buf));
	amount(x->writeback_kib, true, buf, sizeof buf);
	XW(htmltext_element(w, "td", "num", buf));
	XW(htmltext_element(w, "td", NULL,
			      x->disk_write_cache ? x->disk_write_cache : "unknown"));
	steps(x, buf, sizeof buf);
	XW(htmltext_element(w, "td", "num", buf));
	amount(x->to_kernel_seconds, false, buf, sizeof buf);
	XW(htmltext_element(w, "td", "num", buf));
	amount(x->to_sweep_seconds, false, buf, sizeof buf);
	XW(htmltext_element(w, "td", "num", buf));
	return xmlwrite_end_full(w) < 0 ? -EIO : 0;
}

/* Per cell its loss in words, then each crash. */
static int crashes_table(xmlTextWriterPtr w, const struct model_metric *m)
{
	bool cuts = model_metric_cuts(m);
	const char *const heads[] = {"run", "lost of acknowledged", "share lost",
				     cuts ? "power cut by" : "host crash by", "dirty at the trigger",
				     "writeback at the trigger", "disk write cache",
				     "QEMU stopped / writeback stopped / RESULTS synced / "
				     "facts read, from the crash point",
				     "to the next kernel", "to the resumed sweep", NULL};
	char buf[1200], name[256];

	XW(htmltext_element(w, "p", "muted",
			      cuts ? "Each cut: what it lost of what was acknowledged, and what "
				     "the cut left on record."
				   : "Each crash: what it lost of what was acknowledged, and what its "
				     "host's crash left on record."));
	XW(htmltext_table_start(w, "crashes", heads));
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		if (!c->loss)
			continue;
		XW(xmlwrite_start(w, "tr"));
		XW(xmlwrite_start(w, "th"));
		XW(xmlwrite_attr(w, "colspan", "10"));
		model_cell_name(c, name, sizeof name);
		snprintf(buf, sizeof buf, "%s on %s, after %s: %s", name, c->host ? c->host : "?",
			 crashloss_after(c->loss->crash), c->display ? c->display : "");
		XW(htmltext_text(w, buf));
		XW(xmlwrite_end_full(w));
		XW(xmlwrite_end_full(w));
		for (size_t k = 0; k < c->loss->n_runs; k++)
			XW(crash_row(w, &c->loss->runs[k]));
	}
	return htmltext_table_end(w);
}

/* "5 of 5 [48%, 100%]" of a comparison's side. */
static void side_text(const struct model_loss_side *s, char *buf, size_t size)
{
	struct crashloss l = {.crashes = s->crashes, .lost_any = s->lost_any, .low = s->low,
			      .high = s->high};
	crashloss_counts_text(&l, true, buf, size);
}

static int comparisons_table(xmlTextWriterPtr w, const struct model_metric *m)
{
	static const char *const heads[] = {"comparison", "crashes that lost", "reference's",
					    "p (exact test)", "difference", NULL};
	char buf[96];

	if (!m->n_loss_comparisons)
		return 0;
	XW(htmltext_table_start(w, "comparisons loss", heads));
	for (size_t i = 0; i < m->n_loss_comparisons; i++) {
		const struct model_loss_comparison *c = &m->loss_comparisons[i];
		XW(xmlwrite_start(w, "tr"));
		XW(xmlwrite_attr(w, "class", c->shown ? "shown" : "not-shown"));
		XW(htmltext_element(w, "td", NULL, c->sentence ? c->sentence : ""));
		if (c->pooled) {
			/* Each setting's crashes, in the sentence: never added. */
			XW(htmltext_element(w, "td", "num", "by setting"));
			XW(htmltext_element(w, "td", "num", "by setting"));
		} else {
			side_text(&c->l, buf, sizeof buf);
			XW(htmltext_element(w, "td", "num", buf));
			side_text(&c->r, buf, sizeof buf);
			XW(htmltext_element(w, "td", "num", buf));
		}
		if (isnan(c->p))
			snprintf(buf, sizeof buf, "none");
		else
			stats_p_text(c->p, 1 - CRASHLOSS_CONFIDENCE, buf, sizeof buf);
		XW(htmltext_element(w, "td", "num", buf));
		XW(htmltext_element(w, "td", c->shown ? "yes" : NULL,
				    c->shown ? "shown" : c->disagree ? "settings disagree"
								     : "none shown"));
		XW(xmlwrite_end_full(w));
	}
	return htmltext_table_end(w);
}

int report_loss_html_write(xmlTextWriterPtr w, const char *workload,
			   const struct model_metric *m, unsigned chart)
{
	struct model_metric view;
	char buf[256];
	int r = loss_view(m, &view);

	if (r < 0) {
		loss_view_free(&view);
		return r;
	}
	if (xmlwrite_start(w, "figure") < 0 || xmlwrite_start(w, "figcaption") < 0) {
		loss_view_free(&view);
		return -EIO;
	}
	bool cuts = model_metric_cuts(m);
	char said[256];
	snprintf(buf, sizeof buf, "%s: loss by %s ", workload, crashloss_unit(cuts, false));
	snprintf(said, sizeof said,
		 "bar: the share of %s that lost any acknowledged write, with its exact 95%% "
		 "interval; dot: each %s's share of its acknowledged records lost",
		 crashloss_unit(cuts, true), crashloss_unit(cuts, false));
	r = htmltext_text(w, buf) < 0 || htmltext_element(w, "span", "better", said) < 0 ||
			    xmlwrite_end_full(w) < 0 || report_chart_write(w, &view, chart, REPORT_CHART_CRASHES) < 0 ||
			    xmlwrite_end_full(w) < 0
		    ? -EIO
		    : 0;
	loss_view_free(&view);
	if (r < 0)
		return r;
	XW(crashes_table(w, m));
	return comparisons_table(w, m);
}
