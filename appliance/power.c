/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "power.h"

#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bmc.h"
#include "bmcspec.h"
#include "log.h"
#include "netup.h"
#include "sweep.h"
#include "watchdog.h"

/* How long after the BMC took the power cycle the server may still be up
 * before the cut is called failed. */
#define CUT_WAIT_SECONDS 60

static int ipmi_cycle(void *data, char *why, size_t len)
{
	(void)data;
	return bmc_power_cycle(CUT_WAIT_SECONDS, why, len);
}

static int redfish_cycle(void *data, char *why, size_t len)
{
	const struct power *p = data;
	return redfish_power_cycle(&p->rf, CUT_WAIT_SECONDS, why, len);
}

/* The durability cells of PLAN, "cell, cell", into BUF. */
static void cells_text(const struct plan *plan, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_cells && used < len; i++)
		if (plan->cells[i].workload == WORKLOAD_DURABILITY)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 plan->cells[i].id);
}

/* Whether the BMC can cut this server's power: P->cut.via, or the reason
 * into P->cut.refused.  Returns 0 or a negative errno. */
static int check(struct power *p, const struct profile_host *h)
{
	char why[sizeof(p->cut.refused)];
	int r;

	if (!p->redfish) {
		struct bmc b;
		r = bmc_check(&b, why, sizeof(why));
		if (r == 0)
			snprintf(p->cut.via, sizeof(p->cut.via), "%.200s: chassis power cycle",
				 b.what);
	} else {
		char ifname[NETUP_IF_MAX];
		watchdog_mark(0, "bringing the network up for the BMC's Redfish (DHCP)");
		r = netup_dhcp("/sys/class/net", 20, ifname, why, sizeof(why));
		if (r < 0) {
			char net[sizeof(why)];
			snprintf(net, sizeof(net), "%s", why);
			snprintf(why, sizeof(why), "no network to reach the BMC's Redfish (%.60s): "
				 "%.300s", h->bmc, net);
		}
		if (r >= 0)
			r = redfish_open(&p->rf, h->bmc, BENCH_KIT_BMC_CREDENTIALS,
					 access(BENCH_KIT_BMC_CA, R_OK) == 0 ? BENCH_KIT_BMC_CA : NULL,
					 why, sizeof(why));
		watchdog_mark(0, "asking the BMC (%s) whether it can power-cycle this server",
			      p->rf.what);
		if (r >= 0)
			r = redfish_check(&p->rf, why, sizeof(why));
		if (r == 0)
			snprintf(p->cut.via, sizeof(p->cut.via),
				 "%.200s: ComputerSystem.Reset PowerCycle", p->rf.what);
	}
	if (r < 0)
		snprintf(p->cut.refused, sizeof(p->cut.refused), "%s", why);
	return r;
}

void power_prepare(struct power *p, const struct plan *plan, const char *results_dir)
{
	const struct profile *prof = &plan->profile;
	char cost[1024], cells[384];
	size_t planned, left;

	memset(p, 0, sizeof(*p));
	if (plan->n_cells == 0 || prof->workload.crash != CRASH_POWER ||
	    (planned = hostcrash_plan_cost(plan, cost, sizeof(cost))) == 0)
		return;
	p->redfish = bmcspec_is_redfish(prof->host.bmc);
	left = sweep_host_crashes_left(plan, results_dir);
	cells_text(plan, cells, sizeof(cells));
	if (left == 0) {
		snprintf(p->state, sizeof(p->state), "all %zu made (cells %.300s)", planned, cells);
		log_info("power cuts: all %zu of this plan's are made: the BMC is not asked", planned);
		return;
	}
	watchdog_mark(0, "asking the BMC (%s) whether it can power-cycle this server",
		      p->redfish ? prof->host.bmc : "in-band IPMI");
	if (check(p, &prof->host) == 0) {
		p->cut.cycle = p->redfish ? redfish_cycle : ipmi_cycle;
		p->cut.data = p;
		snprintf(p->state, sizeof(p->state),
			 "%zu planned, %zu left to make, through the BMC: %.300s", planned, left,
			 p->cut.via);
		log_info("power cuts: this plan's %zu (the durability runs of %s, crash = power; "
			 "%zu left to make) go through the BMC, %s: each cuts the power after the "
			 "run's crash point and comes back by a cold boot, the server's POST",
			 planned, cells, left, p->cut.via);
		return;
	}
	snprintf(p->state, sizeof(p->state), "not made: %.400s (%zu planned, %zu left: the runs "
		 "of %.200s, journaled failed with this reason)", p->cut.refused, planned, left,
		 cells);
	log_error("power cuts: the BMC cannot cut this server's power: %s. This plan's %zu "
		  "power-cut runs left to make (the durability runs of %s, crash = power) are "
		  "not made, each journaled failed with this reason; its %zu other runs are",
		  p->cut.refused, left, cells, plan->n_runs - planned);
}

void power_write_report(const struct power *p, FILE *f)
{
	if (p->state[0])
		fprintf(f, "power_cuts: %s\n", p->state);
}

void power_release(struct power *p)
{
	redfish_close(&p->rf);
}
