/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A study's published claims (the "claims" of report/reference/NAME.json,
 * docs/report.md) judged on a report's comparisons by verdict.h's rules:
 * each claim names the comparison that tests it (workload, metric, axis,
 * level against reference, and the axes held at a level), and what it
 * says of it (lower, higher, by at least a factor, equivalent, or an
 * order of several levels). */
#ifndef BUILDAPP_CLAIMS_H
#define BUILDAPP_CLAIMS_H

struct json_object;
struct model;

/* The verdict on each claim of CLAIMS (a study's "claims" array; NULL:
 * none) from REPORT's comparisons, EQUIVALENCE the profile's bound as a
 * fraction (0: none stated): a new array in *RET of {claim, outcome,
 * verdict, comparisons}.  Returns 0, -EINVAL for a claim that is not of
 * the form docs/report.md gives (a bug in the shipped data), or -ENOMEM. */
int claims_judge(struct json_object *claims, const struct model *report,
		 double equivalence, struct json_object **ret);

#endif
