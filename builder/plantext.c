#include "plantext.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "hostcrash.h"
#include "jobfile.h"
#include "keys.h"
#include "parse.h"
#include "questions.h"

static void write_profile_text(const struct profile *p, FILE *f)
{
	char buf[PROFILE_STR_MAX];
	const char *section = "";

	fprintf(f, "Resolved profile (%s, after includes and defaults):\n", p->path);
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		if (!keys_stored(k))
			continue;
		if (strcmp(section, k->section) != 0) {
			section = k->section;
			fprintf(f, "  [%s]\n", section);
		}
		fprintf(f, "    %s = %s\n", k->name, keys_format(p, k, buf, sizeof(buf)));
	}
}

static void write_cache_table(const struct plan *plan, FILE *f)
{
	fprintf(f, "\nCache modes in this plan (QEMU flags and what they mean on the host):\n");
	fprintf(f, "  %-13s %-10s %-7s %-9s %-22s %-22s %s\n", "mode", "writeback",
		"direct", "no-flush", "host write cache", "host page cache",
		"flushes honoured");
	for (int m = 0; m < _CACHE_MAX; m++) {
		if (!(plan->profile.guest.cache & AXIS_BIT(m)))
			continue;
		struct cache_flags fl = cache_mode_flags(m);
		struct plan_cache_row row = plan_cache_row(m);
		fprintf(f, "  %-13s %-10s %-7s %-9s %-22s %-22s %s\n", cache_mode_name(m),
			fl.writeback ? "on" : "off", fl.direct ? "on" : "off",
			fl.no_flush ? "on" : "off", row.host_write_cache,
			row.host_page_cache, row.flushes_honoured ? "yes" : "no");
	}
}

static void write_cell_row(FILE *f, const char *num, const struct plan_cell *c)
{
	char l2[32], after[PLAN_CELL_ID_MAX + 1] = "", work[64];

	/* The fio knobs the sweep varies: the id's words after the workload. */
	snprintf(work, sizeof(work), "/%s/", workload_kind_name(c->workload));
	const char *knobs = strstr(c->id, work);
	if (knobs)
		snprintf(after, sizeof(after), " %s", knobs + strlen(work));
	for (char *s = after; *s; s++)
		if (*s == '/')
			*s = ' ';
	if (c->l2_cache < 0)
		snprintf(l2, sizeof(l2), "-");
	else if (c->l2_cache == 0)
		snprintf(l2, sizeof(l2), "default");
	else
		format_size((uint64_t)c->l2_cache, l2, sizeof(l2));
	fprintf(f, "  %5s  %-9s %-6s %-8s %-8s %-12s %-8s %-6s %s%s\n", num,
		backend_name(c->backend), image_format_name(c->format),
		plan_cell_prealloc_name(c), l2,
		(int)c->cache < 0 ? "-" : cache_mode_name(c->cache),
		(int)c->aio < 0 ? "-" : aio_mode_name(c->aio),
		c->host ? "host" : c->bus < 0 ? "-" : disk_bus_name(c->bus),
		workload_kind_name(c->workload), after);
}

/* The cells of PLAN at axis AXIS's LEVEL, as the matrix numbers them,
 * into BUF ("2, 4"); returns how many. */
static size_t cells_at(const struct plan *plan, const char *axis, const char *level,
		       char *buf, size_t size)
{
	size_t n = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_cells; i++) {
		if (!plan_cell_at(&plan->cells[i], axis, level))
			continue;
		n++;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%zu",
						 used ? ", " : "", i + 1);
	}
	return n;
}

/* [report] compare: what the report answers first, and from which cells. */
static void write_questions(const struct plan *plan, FILE *f)
{
	struct questions qs;
	char why[256], text[3 * QUESTION_WORD_MAX + 16], a[256], b[256];

	if (questions_parse(plan->profile.report.compare, &qs, why, sizeof(why)) < 0 || !qs.n)
		return;
	fprintf(f, "\nComparisons this profile asks for ([report] compare), answered first");
	if (profile_sweep_adds_runs(&plan->profile.sweep))
		fprintf(f, "; each is given runs until its 95%% interval is within +/- %g "
			"points (target_ci), at most %u a cell (max_runs)",
			plan->profile.sweep.target_ci, plan->profile.sweep.max_runs);
	fprintf(f, ":\n");
	for (size_t i = 0; i < qs.n; i++) {
		const struct question *q = &qs.q[i];
		question_text(q, text, sizeof(text));
		size_t na = cells_at(plan, q->axis, q->level, a, sizeof(a));
		size_t nb = cells_at(plan, q->axis, q->reference, b, sizeof(b));
		fprintf(f, "  %s%s: cell%s %s against cell%s %s\n", text,
			*q->metric ? "" : " (each workload's primary metric)", na == 1 ? "" : "s",
			a, nb == 1 ? "" : "s", b);
	}
}

int plantext_write(const struct plan *plan, FILE *f)
{
	const struct profile_sweep *s = &plan->profile.sweep;
	char num[24];
	int col = 0;

	size_t durable = 0;
	unsigned crashes = profile_cell_runs(s, WORKLOAD_DURABILITY);

	for (size_t i = 0; i < plan->n_cells; i++)
		durable += plan->cells[i].workload == WORKLOAD_DURABILITY;
	write_profile_text(&plan->profile, f);
	write_cache_table(plan, f);
	jobfile_describe(&plan->profile, f);
	if (durable && crashes != s->runs)
		fprintf(f, "\nMatrix: %zu cells: %zu x %u runs, %zu durability cell%s x %u runs "
			"(durability_runs) = %zu runs", plan->n_cells, plan->n_cells - durable,
			s->runs, durable, durable == 1 ? "" : "s", crashes, plan->n_runs);
	else
		fprintf(f, "\nMatrix: %zu cells x %u runs = %zu runs", plan->n_cells, s->runs,
			plan->n_runs);
	/* The durability cells' crashes are planned: target_ci adds none. */
	const char *speed = durable ? " speed" : "";
	if (profile_sweep_adds_runs(s) && *plan->profile.report.compare)
		fprintf(f, " (then up to %u per%s cell of each comparison below until its "
			"95%% interval is within +/- %g points)", s->max_runs, speed, s->target_ci);
	else if (profile_sweep_adds_runs(s))
		fprintf(f, " (up to %u per%s cell until the 95%% CI is within %g%%)",
			s->max_runs, speed, s->target_ci);
	fprintf(f, "\n  %5s  %-9s %-6s %-8s %-8s %-12s %-8s %-6s %s\n", "cell", "backend",
		"format", "prealloc", "l2", "cache", "aio", "bus", "workload");
	for (size_t i = 0; i < plan->n_cells; i++) {
		snprintf(num, sizeof(num), "%zu", i + 1);
		write_cell_row(f, num, &plan->cells[i]);
	}
	for (size_t i = 0; i < plan->n_cells; i++)
		if (plan->cells[i].host) {
			fprintf(f, "  (host cells: an LV as it is; an image file through a "
				   "loop device %s)\n",
				profile_host_cells_direct(&plan->profile)
					? "with direct I/O, past the host's page cache, as "
					  "the guests of cache none or directsync"
					: "and the host's page cache, as the guests of "
					  "these cache modes");
			break;
		}
	if (plan->n_excluded) {
		fprintf(f, "\nLeft out (%zu cells that cannot run):\n", plan->n_excluded);
		for (size_t i = 0; i < plan->n_excluded; i++)
			fprintf(f, "  %s: %s\n", plan->excluded[i].cell.id,
				plan->excluded[i].reason);
	}
	write_questions(plan, f);
	char cost[1024];
	if (hostcrash_plan_cost(plan, cost, sizeof(cost)) > 0)
		fprintf(f, "\nThis plan holds %s.\n", cost);
	fprintf(f, "\nRun order (%s", sweep_order_name(s->order));
	if (s->order == ORDER_INTERLEAVED)
		fprintf(f, ", seed %" PRIu64, s->seed);
	fprintf(f, "), as cell.run:\n ");
	for (size_t i = 0; i < plan->n_runs; i++) {
		int n = fprintf(f, " %u.%u", plan->runs[i].cell + 1, plan->runs[i].index + 1);
		col += n;
		if (col > 70 && i + 1 < plan->n_runs) {
			fprintf(f, "\n ");
			col = 0;
		}
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
