/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel command line that tells the guest agent what to run. */
#ifndef BUILDAPP_GUESTCMDLINE_H
#define BUILDAPP_GUESTCMDLINE_H

#include "plan.h"
#include "profile.h"

/* What every guest's command line starts with.  Alone, it boots the
 * guest kit to its agent, which prints its BEGIN line, finds no workload
 * and powers off: the KVM check (vm_host_check_boot). */
extern const char guestcmdline_base[];

/* Builds the guest kernel command line for one run of KIND with the
 * workload parameters of P (console on ttyS0, quiet, the agent's
 * buildapp.* parameters).  Returns 0 and a malloc'd string in *ret (the
 * caller frees it), -EINVAL for a host-side kind (qemu-img-bench) or
 * -ENOMEM. */
int guestcmdline_build(const struct profile *p, enum workload_kind kind,
		       char **ret);
/* The same for one run of CELL: its fio knobs where the sweep varies
 * them (plan_cell_fio). */
int guestcmdline_build_cell(const struct profile *p, const struct plan_cell *cell,
			    char **ret);

#endif
