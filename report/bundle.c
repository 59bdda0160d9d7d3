/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bundle.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "hostjson.h"
#include "timings.h"
#include "jsonget.h"
#include "log.h"
#include "sha256.h"

/* The journal checks `journal_read` leaves to its callers: a report of a
 * journal cut short or of another version would silently leave runs
 * out, so both are refused with their own message. */
static int check_journal(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return log_error_code(-EINVAL, "report: '%s': no results (%s)", path,
				      strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0 && len <= 1)
		;
	if (len < 0)
		return log_error_code(-EINVAL, "report: '%s': no results (the journal holds no run)",
				      path);
	_cleanup_(json_object_putp) json_object *o = json_tokener_parse(line);
	json_object *v;
	if (o && json_object_object_get_ex(o, "version", &v) &&
	    json_object_get_int(v) != JOURNAL_VERSION)
		return log_error_code(-EINVAL, "report: journal '%s' is version %d; this buildapp reads version %d",
				      path, json_object_get_int(v), JOURNAL_VERSION);
	if (fseek(f, -1, SEEK_END) < 0 || fgetc(f) != '\n')
		return log_error_code(-EINVAL, "report: journal '%s' is truncated: its last line is cut short (the sweep was interrupted)",
				      path);
	return 0;
}

static int cmp_run_ptr(const void *a, const void *b)
{
	const struct journal_run *x = *(const struct journal_run *const *)a,
				 *y = *(const struct journal_run *const *)b;
	int c = strcmp(x->cell.id, y->cell.id);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Hands each summary cell its runs (sorted by id, then index, once). */
static int bundle_group_runs(struct bundle *b)
{
	_cleanup_free_ const struct journal_run **all =
		calloc(b->j.n_runs ? b->j.n_runs : 1, sizeof *all);
	if (!all || !(b->cr = calloc(b->s.n_cells ? b->s.n_cells : 1, sizeof *b->cr)))
		return -ENOMEM;
	for (size_t i = 0; i < b->j.n_runs; i++)
		all[i] = &b->j.runs[i];
	qsort(all, b->j.n_runs, sizeof *all, cmp_run_ptr);
	for (size_t i = 0; i < b->j.n_runs;) {
		size_t k = i;
		while (k < b->j.n_runs && strcmp(all[k]->cell.id, all[i]->cell.id) == 0)
			k++;
		for (size_t c = 0; c < b->s.n_cells; c++) {
			if (strcmp(b->s.cells[c].cell.id, all[i]->cell.id) != 0)
				continue;
			struct bundle_runs *cr = &b->cr[c];
			if (!(cr->runs = calloc(k - i, sizeof *cr->runs)))
				return -ENOMEM;
			cr->n = k - i;
			cr->first_position = UINT32_MAX;
			for (size_t r = i; r < k; r++) {
				cr->runs[r - i] = all[r];
				if (all[r]->position < cr->first_position)
					cr->first_position = all[r]->position;
			}
			break;
		}
		i = k;
	}
	return 0;
}

void bundle_release(struct bundle *b)
{
	if (b->cr)
		for (size_t i = 0; i < b->s.n_cells; i++)
			free(b->cr[i].runs);
	free(b->cr);
	summary_release(&b->s);
	journal_release(&b->j);
	json_object_put(b->host);
	json_object_put(b->plan);
	json_object_put(b->timings);
	memset(b, 0, sizeof *b);
}

/* An uploaded bundle carries SHA256SUMS (upload.h): every file it lists
 * must be there with that hash, or the bundle is not what was sent. */
static int check_sums(const char *dir)
{
	_cleanup_free_ char *path = NULL, *line = NULL;
	size_t cap = 0;

	if (asprintf(&path, "%s/SHA256SUMS", dir) < 0)
		return -ENOMEM;
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		char want[65], got[65], file[4096];
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) < 67 || line[64] != ' ' || line[65] != ' ' || strstr(line, "..") ||
		    line[66] == '/')
			return log_error_code(-EINVAL, "report: '%s': not a sha256sum line: '%.80s'",
					       path, line);
		memcpy(want, line, 64);
		want[64] = '\0';
		snprintf(file, sizeof file, "%s/%s", dir, line + 66);
		_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || sha256_fd_hex(fd, NULL, 0, got) < 0 || strcmp(want, got) != 0)
			return log_error_code(-EINVAL, "report: '%s': %s %s its SHA256SUMS (an upload cut short or damaged)",
					       dir, line + 66, fd < 0 ? "is missing, listed in" : "does not match");
	}
	return 0;
}

int bundle_load(const char *dir, struct bundle *b)
{
	_cleanup_free_ char *journal = NULL, *plan = NULL;
	struct stat st;
	int r;

	b->dir = dir;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return log_error_code(-EINVAL, "report: '%s': not a results directory", dir);
	if (asprintf(&journal, "%s/runs.jsonl", dir) < 0 ||
	    asprintf(&plan, "%s/plan.json", dir) < 0)
		return -ENOMEM;
	if ((r = check_sums(dir)) < 0 || (r = check_journal(journal)) < 0)
		return r;
	if (journal_read(journal, &b->j) < 0)
		return -EINVAL; /* reported, naming the line */
	if ((r = summary_build(&b->j, &b->s)) < 0 || (r = bundle_group_runs(b)) < 0)
		return r;
	if (hostjson_read(dir, &b->host) < 0 || timings_read(dir, &b->timings) < 0)
		return -EINVAL;
	if (access(plan, F_OK) == 0 && !(b->plan = json_object_from_file(plan)))
		return log_error_code(-EINVAL, "report: '%s': not a plan (%s)", plan,
				      json_util_get_last_err());
	/* The host's name (hostjson_label), else the directory's. */
	if (hostjson_label(b->host, b->label, sizeof b->label))
		return 0;
	_cleanup_free_ char *copy = strdup(dir);
	if (!copy)
		return -ENOMEM;
	snprintf(b->label, sizeof b->label, "%s", basename(copy));
	return 0;
}


size_t bundle_values(const struct bundle_runs *cr, const char *metric, double *v,
		     unsigned *idx)
{
	size_t n = 0;
	for (size_t i = 0; i < cr->n; i++) {
		double x = summary_run_value(cr->runs[i], metric);
		if (strcmp(cr->runs[i]->status, "ok") != 0 || !isfinite(x))
			continue;
		if (idx)
			idx[n] = cr->runs[i]->index;
		v[n++] = x;
	}
	return n;
}

