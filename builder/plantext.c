/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plantext.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bmcspec.h"
#include "cleanup.h"
#include "hostcrash.h"
#include "jobfile.h"
#include "keys.h"
#include "parse.h"
#include "planner.h"
#include "questions.h"
#include "volumes.h"

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
	int modes[AXIS_MASK_BITS];
	size_t n = AXIS_LISTED(plan->profile.guest.cache, modes);

	for (size_t i = 0; i < n; i++) {
		enum cache_mode m = (enum cache_mode)modes[i];
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

/* The levels of one axis over a plan's cells, as the report names them
 * (plan_cell_axis_text: "-" where a cell has none). */
#define AXIS_TEXT_MAX 64
struct axis_levels {
	const char *name;
	size_t n, real; /* levels, and those not "-" */
	char (*text)[AXIS_TEXT_MAX]; /* of each level */
	size_t *of;                  /* each cell's level */
};

static int axis_levels_make(const struct plan *plan, const char *name, struct axis_levels *ret)
{
	char buf[AXIS_TEXT_MAX];
	size_t cells = plan->n_cells ? plan->n_cells : 1;

	*ret = (struct axis_levels){.name = name};
	ret->text = calloc(cells, sizeof(*ret->text));
	ret->of = calloc(cells, sizeof(*ret->of));
	if (!ret->text || !ret->of)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_cells; i++) {
		const char *t = plan_cell_axis_text(&plan->cells[i], name, buf, sizeof(buf));
		size_t l = 0;
		while (l < ret->n && strcmp(ret->text[l], t) != 0)
			l++;
		if (l == ret->n) {
			snprintf(ret->text[ret->n++], AXIS_TEXT_MAX, "%s", t);
			ret->real += strcmp(t, "-") != 0;
		}
		ret->of[i] = l;
	}
	return 0;
}

static void axis_levels_release(struct axis_levels *a)
{
	free(a->text);
	free(a->of);
}

/* Whether every cell's level of A gives its level of B (backend gives
 * format). */
static bool decides(const struct plan *plan, const struct axis_levels *a,
		    const struct axis_levels *b)
{
	_cleanup_free_ size_t *seen = malloc((a->n ? a->n : 1) * sizeof(*seen));

	if (!seen)
		return false;
	for (size_t l = 0; l < a->n; l++)
		seen[l] = SIZE_MAX;
	for (size_t i = 0; i < plan->n_cells; i++) {
		size_t *s = &seen[a->of[i]];
		if (*s != SIZE_MAX && *s != b->of[i])
			return false;
		*s = b->of[i];
	}
	return true;
}

/* The reference of axis A (plan_axis(I)) as the report picks it, into
 * REF: "host" for the guest axis, else the first level the profile lists
 * (plan_axis_key) that a cell has, else the first a cell has. */
static void axis_reference(const struct plan *plan, size_t i, const struct axis_levels *a,
			   char *ref, size_t len)
{
	const struct key_def *k = plan_axis_key(i);
	char listed[PROFILE_STR_MAX];

	for (size_t l = 0; l < a->n; l++)
		if (strcmp(a->text[l], "-") != 0) {
			snprintf(ref, len, "%s", a->text[l]);
			break;
		}
	for (size_t l = 0; strcmp(a->name, "guest") == 0 && l < a->n; l++)
		if (strcmp(a->text[l], "host") == 0)
			snprintf(ref, len, "host");
	if (!k)
		return;
	keys_format(&plan->profile, k, listed, sizeof(listed));
	for (char *save = NULL, *t = strtok_r(listed, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		for (size_t l = 0; l < a->n; l++)
			if (strcmp(a->text[l], t) == 0) {
				snprintf(ref, len, "%s", t);
				return;
			}
}

/* The reference level of each axis the plan compares: the other levels
 * are compared with it, [report] compare's questions as asked.  An axis
 * whose levels go one to one with an earlier one's is not compared on
 * its own, nor format, which follows backend (a qcow2 image is only
 * ever on the qcow2 backend). */
static int write_references(const struct plan *plan, FILE *f)
{
	struct axis_levels axes[32];
	size_t n = 0;
	const char *name;
	char ref[AXIS_TEXT_MAX];
	bool any = false;
	int r = 0;

	for (; n < 32 && (name = plan_axis(n)); n++)
		if ((r = axis_levels_make(plan, name, &axes[n])) < 0) {
			n++;
			goto out;
		}
	for (size_t a = 0; a < n; a++) {
		bool same = false;
		for (size_t j = 0; j < a && !same; j++)
			same = axes[j].real > 1 && decides(plan, &axes[j], &axes[a]) &&
			       decides(plan, &axes[a], &axes[j]);
		if (axes[a].real < 2 || same || strcmp(axes[a].name, "format") == 0)
			continue;
		if (!any)
			fprintf(f, "\nReference levels (each axis's first listed level, the "
				   "host for guests: the other levels are compared with it, "
				   "the questions of [report] compare as asked):\n");
		any = true;
		axis_reference(plan, a, &axes[a], ref, sizeof(ref));
		fprintf(f, "  %s: %s\n", axes[a].name, ref);
	}
	if (any && *plan->profile.report.baseline)
		fprintf(f, "  but [report] baseline = %s: that level, on its axis\n",
			plan->profile.report.baseline);
out:
	for (size_t a = 0; a < n; a++)
		axis_levels_release(&axes[a]);
	return r;
}

/* What the lab server must have and give before its sweep can end: the
 * disk under test, memory, boots, and what is known of the time. */
static void write_server_needs(const struct plan *plan, FILE *f)
{
	const struct profile *p = &plan->profile;
	char size[32], memory[32], cost[1024];
	uint64_t disk;
	size_t guests = 0, crashes = hostcrash_plan_cost(plan, cost, sizeof(cost));
	size_t most = planner_max_runs(p);

	for (size_t i = 0; i < plan->n_cells; i++)
		guests += !plan->cells[i].host &&
			  plan->cells[i].workload != WORKLOAD_QEMU_IMG_BENCH;
	fprintf(f, "\nWhat the lab server must give:\n");
	if (volumes_disk_size(p, &disk) == 0)
		fprintf(f, "  disk under test: at least %s (%" PRIu64 " bytes): the "
			   "backends as `buildapp provision --dry-run` lays them out; what "
			   "the disk held is lost\n",
			format_size(disk, size, sizeof(size)), disk);
	format_size(p->guest.memory, memory, sizeof(memory));
	if (guests)
		fprintf(f, "  memory: %s for each guest ([guest] memory), one guest at a "
			   "time, beside QEMU's own and the kit's root, which runs from RAM "
			   "(its size: the built kit's initrd; scripts/boot-appliance.sh gives "
			   "a virtual lab server 3 GiB)\n", memory);
	else
		fprintf(f, "  memory: no guest (qemu-img bench and host-native runs "
			   "only): the kit's root, which runs from RAM (its size: the built "
			   "kit's initrd), and QEMU's block layer\n");
	/* Each time the sweep takes the server down is a boot more: a host
	 * crash, or a power cut and its cold boot. */
	bool power = p->workload.crash == CRASH_POWER;
	fprintf(f, "  boots: %zu: the kit's own (through the firmware)", 1 + crashes);
	if (crashes && power)
		fprintf(f, " and the %zu power cut%s above, each a cold boot with the server's "
			   "POST", crashes, crashes == 1 ? "" : "s");
	else if (crashes)
		fprintf(f, " and the %zu host crash%s above", crashes, crashes == 1 ? "" : "es");
	fprintf(f, "\n");
	if (crashes && power && bmcspec_is_redfish(p->host.bmc))
		fprintf(f, "  BMC: a Redfish service at %s that lists PowerCycle among the "
			   "ResetType values of its ComputerSystem.Reset, reached over the network "
			   "DHCP gives, with the account of [host] bmc_credentials; checked at boot, "
			   "and where it cannot cut the power the power-cut runs are not made "
			   "(docs/kit.md, \"Power cuts\")\n", p->host.bmc);
	else if (crashes && power)
		fprintf(f, "  BMC: one that answers in-band IPMI through the kernel's driver "
			   "(ipmi_si, /dev/ipmi0) and controls the server's power (chassis power "
			   "cycle); checked at boot, and where it cannot cut the power the "
			   "power-cut runs are not made (docs/kit.md, \"Power cuts\")\n");
	fprintf(f, "  time: %zu runs", plan->n_runs);
	if (most > plan->n_runs)
		fprintf(f, " (up to %zu with [sweep] target_ci)", most);
	fprintf(f, ", each given up as failed after %u s ([guest] timeout); how long "
		   "they take is the server's, not known before it runs them. Once it "
		   "runs, the console says before each run 'run N/%zu: cell ... "
		   "(elapsed H:MM:SS, ETA H:MM:SS)': the time left, from the runs of "
		   "each workload timed so far (one not yet timed is counted apart)\n",
		p->guest.timeout, plan->n_runs);
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
	if (write_references(plan, f) < 0)
		return -ENOMEM;
	write_questions(plan, f);
	char cost[1024];
	if (hostcrash_plan_cost(plan, cost, sizeof(cost)) > 0)
		fprintf(f, "\nThis plan holds %s.\n", cost);
	write_server_needs(plan, f);
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
