/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A result bundle read back: a results directory's journal (checked to
 * be whole and of this version), its summary, each summary cell's runs in
 * run index order, host.json, plan.json and timings.json, and the label
 * the report gives its host. */
#ifndef BUILDAPP_BUNDLE_H
#define BUILDAPP_BUNDLE_H

#include <stddef.h>

#include <json.h>

#include "journal.h"
#include "summary.h"

#define BUNDLE_LABEL_MAX 64

/* The journal's runs of one summary cell, in run index order. */
struct bundle_runs {
	const struct journal_run **runs;
	size_t n;
	unsigned first_position;
};

struct bundle {
	const char *dir;
	char label[BUNDLE_LABEL_MAX];
	struct journal j;
	struct summary s;
	struct bundle_runs *cr; /* one per s.cells */
	json_object *host;   /* host.json, or NULL */
	json_object *plan;   /* plan.json, or NULL */
	json_object *timings; /* timings.json (timings.h), or NULL */
};


/* Reads the bundle in DIR (borrowed: it must outlive *RET) into *RET.
 * Bad input (not a directory, no runs, a journal cut short or of another
 * version, a bad line, host.json, plan.json or timings.json) is reported and is
 * -EINVAL; else 0 or -ENOMEM.  Release with bundle_release, also after a
 * failure. */
int bundle_load(const char *dir, struct bundle *ret);
void bundle_release(struct bundle *b);

/* The ok values of METRIC in the runs R into V (room for r->n), their
 * run indexes into IDX when not NULL; returns how many. */
size_t bundle_values(const struct bundle_runs *r, const char *metric, double *v,
		     unsigned *idx);

#endif
