/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A rack's bundles: a directory of bundles collected from many servers
 * (a WebDAV server's upload directory) read as one input, and the servers
 * whose results stand out from the others' (docs/results.md, "Servers
 * that stand out"). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "report_builder.h"
#include "stats.h"

/* The fewest servers among which one can stand out: with two, each
 * interval excludes the other and neither is the odd one. */
#define RACK_MIN_SERVERS 3

static int has_journal(const char *dir, const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s/runs.jsonl", dir, name);
	return access(path, F_OK) == 0;
}

static int skip_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int report_rack_expand(const char *dir, char ***ret, size_t *n)
{
	struct dirent **names = NULL;
	char **out = NULL;
	size_t k = 0;

	*ret = NULL;
	*n = 0;
	if (has_journal(dir, "."))
		return 0;
	/* Hidden entries are uploads under way or cut short (the upload's
	 * temporary name starts with '.'): never read as a bundle. */
	int m = scandir(dir, &names, skip_hidden, alphasort);
	if (m < 0)
		return 0; /* not a directory: bundle_load says what it is */
	out = calloc((size_t)m + 1, sizeof *out);
	for (int i = 0; i < m; i++) {
		if (out && has_journal(dir, names[i]->d_name) &&
		    asprintf(&out[k], "%s/%s", dir, names[i]->d_name) >= 0)
			k++;
		free(names[i]);
	}
	free(names);
	if (!out)
		return -ENOMEM;
	if (k == 0) {
		free(out);
		return 0;
	}
	*ret = out;
	*n = k;
	return 0;
}

struct server_runs {
	const struct rcell *c;
	double *v;
	size_t n;
};

/* Cell ID of metric M on every server that has two ok runs of it. */
static size_t gather(const struct mcells *m, const char *id, struct server_runs *s)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct rcell *c = m->c[i];
		const struct bundle_runs *cr = &c->b->cr[c->i];
		if (strcmp(sc_of(c)->cell.id, id) != 0 || cr->n < 2)
			continue;
		double *v = calloc(cr->n, sizeof *v);
		if (!v)
			break;
		size_t k = bundle_values(cr, m->metric, v, NULL);
		if (k < 2) {
			free(v);
			continue;
		}
		s[n++] = (struct server_runs){.c = c, .v = v, .n = k};
	}
	return n;
}

/* Fills O: server S stands out in M. */
static int outlier_fill(const struct mcells *m, const struct server_runs *s,
			const struct stats *mine, const struct stats *rest, size_t others,
			struct model_outlier *o)
{
	bool higher = mine->mean > rest->mean;
	bool worse = m->lower ? higher : !higher;
	char text[512];

	o->mean = mine->mean;
	o->ci_low = mine->mean - mine->ci95;
	o->ci_high = mine->mean + mine->ci95;
	o->others = (unsigned)others;
	o->others_mean = rest->mean;
	o->others_ci_low = rest->mean - rest->ci95;
	o->others_ci_high = rest->mean + rest->ci95;
	o->worse = worse;
	snprintf(text, sizeof text,
		 "server %s stands out: %s %s (%s) %.4g [%.4g, %.4g] %s, the other %zu "
		 "servers %.4g [%.4g, %.4g] %s, %s",
		 s->c->b->label, m->workload, m->metric, sc_of(s->c)->cell.id, mine->mean,
		 mine->mean - mine->ci95, mine->mean + mine->ci95, m->unit, others, rest->mean,
		 rest->mean - rest->ci95, rest->mean + rest->ci95, m->unit, worse ? "worse" : "better");
	if (!(o->host = strdup(s->c->b->label)) || !(o->cell = strdup(sc_of(s->c)->cell.id)) ||
	    !(o->workload = strdup(m->workload)) || !(o->metric = strdup(m->metric)) ||
	    !(o->sentence = strdup(text)))
		return -ENOMEM;
	return 0;
}

/* A copy of O at the end of the array *ARRAY (N of them). */
static int outlier_copy(const struct model_outlier *o, struct model_outlier **array, size_t *n)
{
	struct model_outlier *c = MODEL_PUSH(*array, *n);

	if (!c)
		return -ENOMEM;
	*c = *o;
	c->host = strdup(o->host);
	c->cell = strdup(o->cell);
	c->workload = strdup(o->workload);
	c->metric = strdup(o->metric);
	c->sentence = strdup(o->sentence);
	return c->host && c->cell && c->workload && c->metric && c->sentence ? 0 : -ENOMEM;
}

/* Server K of S (N servers) against the others: true, with *MINE and
 * *OTHERS (of USED servers), when its 95% interval does not overlap the
 * 95% interval of the mean of the others' means (each server counted
 * once, so the spread between servers is what its interval measures, not
 * the runs' spread within one). */
static bool stands_out(const struct server_runs *s, size_t n, size_t k, struct stats *ret_mine,
		       struct stats *ret_others, size_t *ret_used)
{
	_cleanup_free_ double *rest = malloc(n * sizeof *rest);
	struct stats mine, one, others;
	size_t used = 0;

	if (!rest)
		return false;
	for (size_t i = 0; i < n; i++)
		if (i != k && stats_compute(s[i].v, s[i].n, &one) == 0)
			rest[used++] = one.mean;
	if (stats_compute(s[k].v, s[k].n, &mine) < 0 || stats_compute(rest, used, &others) < 0 ||
	    used < 2)
		return false;
	if (mine.mean - mine.ci95 <= others.mean + others.ci95 &&
	    others.mean - others.ci95 <= mine.mean + mine.ci95)
		return false;
	*ret_mine = mine;
	*ret_others = others;
	*ret_used = used;
	return true;
}

int report_rack_outliers(struct builder *bd, const struct mcells *m, struct model_metric *out)
{
	int r = 0;

	if (bd->n_bundles < RACK_MIN_SERVERS)
		return 0;
	struct server_runs *s = calloc(m->n ? m->n : 1, sizeof *s);
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < m->n && r == 0; i++) {
		const char *id = sc_of(m->c[i])->cell.id;
		bool seen = false;
		for (size_t x = 0; x < i && !seen; x++)
			seen = strcmp(sc_of(m->c[x])->cell.id, id) == 0;
		if (seen)
			continue;
		size_t n = gather(m, id, s);
		for (size_t k = 0; r == 0 && n >= RACK_MIN_SERVERS && k < n; k++) {
			struct stats mine, others;
			size_t used;
			if (!stands_out(s, n, k, &mine, &others, &used))
				continue;
			struct model_outlier *o = MODEL_PUSH(out->outliers, out->n_outliers);
			r = o ? outlier_fill(m, &s[k], &mine, &others, used, o) : -ENOMEM;
			if (r == 0)
				r = model_push_string(&bd->m->headlines, &bd->m->n_headlines,
						      o->sentence);
			if (r == 0)
				r = outlier_copy(o, &bd->m->outliers, &bd->m->n_outliers);
		}
		for (size_t k = 0; k < n; k++)
			free(s[k].v);
	}
	free(s);
	return r;
}
