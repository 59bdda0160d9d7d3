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
#include "jsonget.h"
#include "log.h"
#include "report_model.h"
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

static json_object *outlier_json(const struct mcells *m, const struct server_runs *s,
				 const struct stats *mine, const struct stats *rest,
				 size_t others)
{
	bool higher = mine->mean > rest->mean;
	bool worse = m->lower ? higher : !higher;
	char text[512];
	json_object *o = json_object_new_object();

	json_object_object_add(o, "host", json_object_new_string(s->c->b->label));
	json_object_object_add(o, "cell", json_object_new_string(sc_of(s->c)->cell.id));
	json_object_object_add(o, "workload", json_object_new_string(m->workload));
	json_object_object_add(o, "metric", json_object_new_string(m->metric));
	json_object_object_add(o, "mean", jsonget_new_number(mine->mean));
	json_object_object_add(o, "ci_low", jsonget_new_number(mine->mean - mine->ci95));
	json_object_object_add(o, "ci_high", jsonget_new_number(mine->mean + mine->ci95));
	json_object_object_add(o, "others", json_object_new_int64((int64_t)others));
	json_object_object_add(o, "others_mean", jsonget_new_number(rest->mean));
	json_object_object_add(o, "others_ci_low", jsonget_new_number(rest->mean - rest->ci95));
	json_object_object_add(o, "others_ci_high", jsonget_new_number(rest->mean + rest->ci95));
	json_object_object_add(o, "worse", json_object_new_boolean(worse));
	snprintf(text, sizeof text,
		 "server %s stands out: %s %s (%s) %.4g [%.4g, %.4g] %s, the other %zu "
		 "servers %.4g [%.4g, %.4g] %s, %s",
		 s->c->b->label, m->workload, m->metric, sc_of(s->c)->cell.id, mine->mean,
		 mine->mean - mine->ci95, mine->mean + mine->ci95, m->unit, others, rest->mean,
		 rest->mean - rest->ci95, rest->mean + rest->ci95, m->unit, worse ? "worse" : "better");
	json_object_object_add(o, "sentence", json_object_new_string(text));
	return o;
}

/* Server K of S (N servers) against the others: the outlier object when
 * its 95% interval does not overlap the 95% interval of the mean of the
 * others' means (each server counted once, so the spread between servers
 * is what its interval measures, not the runs' spread within one), else
 * NULL. */
static json_object *stands_out(const struct mcells *m, const struct server_runs *s,
			       size_t n, size_t k)
{
	_cleanup_free_ double *rest = malloc(n * sizeof *rest);
	struct stats mine, one, others;
	size_t used = 0;

	if (!rest)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (i != k && stats_compute(s[i].v, s[i].n, &one) == 0)
			rest[used++] = one.mean;
	if (stats_compute(s[k].v, s[k].n, &mine) < 0 || stats_compute(rest, used, &others) < 0 ||
	    used < 2)
		return NULL;
	if (mine.mean - mine.ci95 <= others.mean + others.ci95 &&
	    others.mean - others.ci95 <= mine.mean + mine.ci95)
		return NULL;
	return outlier_json(m, &s[k], &mine, &others, used);
}

json_object *report_rack_outliers(struct builder *bd, const struct mcells *m)
{
	json_object *out = json_object_new_array();
	if (!out || bd->n_bundles < RACK_MIN_SERVERS)
		return out;
	struct server_runs *s = calloc(m->n ? m->n : 1, sizeof *s);
	if (!s)
		return out;
	for (size_t i = 0; i < m->n; i++) {
		const char *id = sc_of(m->c[i])->cell.id;
		bool seen = false;
		for (size_t x = 0; x < i && !seen; x++)
			seen = strcmp(sc_of(m->c[x])->cell.id, id) == 0;
		if (seen)
			continue;
		size_t n = gather(m, id, s);
		for (size_t k = 0; n >= RACK_MIN_SERVERS && k < n; k++) {
			json_object *o = stands_out(m, s, n, k);
			if (!o)
				continue;
			json_object_array_add(bd->headlines,
					      json_object_get(json_object_object_get(o, "sentence")));
			json_object_array_add(bd->outliers, json_object_get(o));
			json_object_array_add(out, o);
		}
		for (size_t k = 0; k < n; k++)
			free(s[k].v);
	}
	free(s);
	return out;
}
