/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The five published studies of the reference set, their tables shipped
 * as data (typed in from the studies, each with its source), and the
 * measured table of a report laid out as the study laid out its own. */
#ifndef BUILDAPP_REFERENCE_H
#define BUILDAPP_REFERENCE_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;
struct model;

/* True when NAME is a shipped study: kvm-perf-2011, bonnie-qcow2-vs-raw,
 * qcow2-l2-cache, guest-vs-host, cache-modes-lvm. */
bool reference_known(const char *name);

/* The "references" entry of docs/report.md for study NAME: its published
 * table and the measured one, made from REPORT's cells (model.h), in the
 * study's own layout, and the verdict on each of its claims from REPORT's
 * comparisons (claims.h), EQUIVALENCE the profile's bound for claims of
 * closeness as a fraction (0: none stated).  *ret is a new reference.
 * Returns 0, -ENOENT for an unknown study, -EINVAL for a claim of the
 * shipped data that is not of its form, or -ENOMEM. */
int reference_build(const char *name, const struct model *report, double equivalence,
		    struct json_object **ret);

/* REF (an object made by reference_build) as text to F: its title and
 * source, the published and the measured tables with aligned columns, its
 * notes and its verdicts.  Returns 0 or -EIO. */
int reference_write_text(struct json_object *ref, FILE *f);

#endif
