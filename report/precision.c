#include "precision.h"

#include <errno.h>
#include <math.h>
#include <sys/types.h>
#include <string.h>

#include "cleanup.h"
#include "log.h"
#include "model.h"
#include "plan.h"
#include "questions.h"
#include "report.h"

bool precision_too_wide(double low, double high, double target, double *half)
{
	/* Half the interval's width, in points of the percentage change. */
	*half = 100.0 * (high - low) / 2;
	return !isfinite(*half) || *half > target;
}

/* Whether question Q asks comparison C of metric M (workload W's X-th
 * metric), as report_cmp.c's asks() picks them: its metric, else the
 * workload's primary (first) one. */
static bool asks(const struct question *q, const struct model_workload *w, size_t x,
		 const struct model_comparison *c)
{
	if (!question_asks_metric(q, w->metrics[x].name, x == 0))
		return false;
	return strcmp(q->axis, c->axis) == 0 && strcmp(q->level, c->level) == 0 &&
	       strcmp(q->reference, c->reference) == 0;
}

/* Whether plan cell P is one of comparison C's cells: at one of its two
 * levels, and at each level it holds. */
static bool in_comparison(const struct plan_cell *p, const struct model_comparison *c)
{
	if (!plan_cell_at(p, c->axis, c->level) && !plan_cell_at(p, c->axis, c->reference))
		return false;
	for (size_t h = 0; h < c->n_held; h++)
		if (!plan_cell_at(p, c->held[h].axis, c->held[h].level))
			return false;
	return true;
}

/* C's cells (those of metric M with a run journaled) into WANT. */
static void want_cells(const struct plan *plan, const struct model_metric *m,
		       const struct model_comparison *c, bool *want)
{
	for (size_t i = 0; i < m->n_cells; i++) {
		ssize_t k = plan_cell_find(plan, m->cells[i].id);
		if (k >= 0 && in_comparison(&plan->cells[k], c))
			want[k] = true;
	}
}

int precision_cells_wanting_runs(const struct plan *plan, const char *dir, bool *want)
{
	const double target = plan->profile.sweep.target_ci;
	_cleanup_(model_freep) struct model *model = NULL;
	struct questions qs;
	char why[256];
	int r, open = 0;

	memset(want, 0, plan->n_cells * sizeof(*want));
	if (questions_parse(plan->profile.report.compare, &qs, why, sizeof(why)) < 0)
		return log_error_code(-EINVAL, "[report] compare: %s", why);
	struct report_options o = {
		.dirs = &dir,
		.n_dirs = 1,
		.compare = plan->profile.report.compare,
	};
	r = report_build(&o, &model);
	if (r < 0)
		return r;
	for (size_t q = 0; q < qs.n; q++) {
		char text[256];
		question_text(&qs.q[q], text, sizeof(text));
		for (size_t w = 0; w < model->n_workloads; w++) {
			const struct model_workload *wl = &model->workloads[w];
			for (size_t x = 0; x < wl->n_metrics; x++) {
				const struct model_metric *m = &wl->metrics[x];
				for (size_t i = 0; i < m->n_comparisons; i++) {
					const struct model_comparison *c = &m->comparisons[i];
					if (!asks(&qs.q[q], wl, x, c))
						continue;
					double half;
					if (!precision_too_wide(c->r.low, c->r.high, target, &half))
						continue;
					if (isfinite(half))
						log_info("%s (%s, %s): interval +/- %.1f points "
							 "wide, target %g: more runs",
							 text, wl->name, m->name, half, target);
					else if (c->no_spread)
						log_info("%s (%s, %s): no run varied at the "
							 "metric's resolution, so no interval: "
							 "more runs (a finer resolution would "
							 "answer sooner)",
							 text, wl->name, m->name);
					else
						log_info("%s (%s, %s): no interval yet: more runs",
							 text, wl->name, m->name);
					want_cells(plan, m, c, want);
					open++;
				}
			}
		}
	}
	return open;
}
