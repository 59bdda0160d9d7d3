/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The studies' tables (report/reference.c): each published table as
 * typed in from the study (row and column counts, spot checks, and every
 * number against the study's own text in tests/unit/data), and the
 * measured table made from a hand-made report model in each study's
 * layout and order. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "reference.h"

#include "kvmperf.h"
#include "testfile.h"

static const char *const studies[] = {"kvm-perf-2011", "bonnie-qcow2-vs-raw",
				      "qcow2-l2-cache", "guest-vs-host",
				      "cache-modes-lvm"};

/* ---- a report model, by hand --------------------------------------------- */

static json_object *member_array(json_object *o, const char *key)
{
	json_object *a;
	if (!json_object_object_get_ex(o, key, &a)) {
		a = json_object_new_array();
		json_object_object_add(o, key, a);
	}
	return a;
}

/* The entry of ARR whose KEY is NAME, made when missing. */
static json_object *named(json_object *arr, const char *key, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);
		json_object *v;
		if (json_object_object_get_ex(e, key, &v) &&
		    strcmp(json_object_get_string(v), name) == 0)
			return e;
	}
	json_object *e = json_object_new_object();
	json_object_object_add(e, key, json_object_new_string(name));
	json_object_array_add(arr, e);
	return e;
}

/* Adds to MODEL a cell of WORKLOAD/METRIC on HOST with AXES (JSON text),
 * n, mean and interval half-width HALF (NAN: no interval). */
static void add_cell(json_object *model, const char *host, const char *workload,
		     const char *metric, const char *axes, unsigned n,
		     double mean, double half, unsigned mismatches)
{
	json_object *w = named(member_array(model, "workloads"), "workload", workload);
	json_object *m = named(member_array(w, "metrics"), "name", metric);
	char text[1024];
	snprintf(text, sizeof text,
		 "{\"id\": \"x\", \"host\": \"%s\", \"axes\": %s, \"n\": %u, "
		 "\"mean\": %.17g, \"cache_mismatches\": %u}",
		 host, axes, n, mean, mismatches);
	json_object *c = json_tokener_parse(text);
	assert_non_null(c);
	if (isfinite(half)) {
		json_object_object_add(c, "ci_low", json_object_new_double(mean - half));
		json_object_object_add(c, "ci_high", json_object_new_double(mean + half));
	} else {
		json_object_object_add(c, "ci_low", NULL);
		json_object_object_add(c, "ci_high", NULL);
	}
	json_object_array_add(member_array(m, "cells"), c);
}

/* Study STUDY's tables from MODEL (the hand-made cells above, read as
 * report.json's form: the header a model has is added when missing). */
static json_object *build(const char *study, json_object *model)
{
	json_object *ref = NULL;
	struct model *m = NULL;
	if (!json_object_object_get_ex(model, "format", NULL)) {
		json_object_object_add(model, "format", json_object_new_string("buildapp-report"));
		json_object_object_add(model, "version", json_object_new_int(1));
	}
	member_array(model, "workloads");
	assert_int_equal(model_from_json(model, &m), 0);
	assert_int_equal(reference_build(study, m, 0, &ref), 0);
	model_free(m);
	assert_non_null(ref);
	return ref;
}

static json_object *table(json_object *ref, const char *which)
{
	json_object *t, *rows;
	assert_true(json_object_object_get_ex(ref, which, &t));
	assert_true(json_object_object_get_ex(t, "rows", &rows));
	return rows;
}

static size_t n_columns(json_object *ref, const char *which)
{
	json_object *t, *cols;
	assert_true(json_object_object_get_ex(ref, which, &t));
	assert_true(json_object_object_get_ex(t, "columns", &cols));
	return json_object_array_length(cols);
}

static const char *item(json_object *rows, size_t r, size_t c)
{
	json_object *row = json_object_array_get_idx(rows, r);
	assert_non_null(row);
	json_object *v = json_object_array_get_idx(row, c);
	assert_non_null(v);
	return json_object_get_string(v);
}

/* Checks ROWS against EXPECT: N rows of NCOLS strings, NULL for any. */
static void assert_rows(json_object *rows, size_t ncols,
			const char *const *expect, size_t n)
{
	assert_int_equal(json_object_array_length(rows), n);
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < ncols; c++)
			if (expect[r * ncols + c])
				assert_string_equal(item(rows, r, c),
						    expect[r * ncols + c]);
}

/* All notes of REF joined, to look for a phrase. */
static void notes_text(json_object *ref, char *buf, size_t len)
{
	json_object *notes;
	size_t used = 0;
	buf[0] = '\0';
	assert_true(json_object_object_get_ex(ref, "notes", &notes));
	for (size_t i = 0; i < json_object_array_length(notes) && used < len; i++)
		used += snprintf(buf + used, len - used, "%s\n",
				 json_object_get_string(json_object_array_get_idx(notes, i)));
}

/* ---- names --------------------------------------------------------------- */

static void test_known(void **state)
{
	(void)state;
	for (size_t i = 0; i < 5; i++)
		assert_true(reference_known(studies[i]));
	assert_false(reference_known("kvm-perf"));
	assert_false(reference_known(""));
	assert_false(reference_known(NULL));
	json_object *ref = NULL;
	struct model empty = {0};
	assert_int_equal(reference_build("no-such-study", &empty, 0, &ref), -ENOENT);
	assert_null(ref);
}

/* ---- the published tables ------------------------------------------------ */

static void test_published_shapes(void **state)
{
	(void)state;
	/* Rows and columns as the studies print them: kvm-perf's 82
	 * configurations; bonnie's five bonnie++ lines of 15 fields from
	 * config to seeks %CP; cache-modes' 4 modes of Table 1 + Table 2;
	 * the L2 cache bug's old/new/raw; LP 550409's dd and bonnie++ lines. */
	static const size_t rows[] = {82, 5, 3, 8, 4}, cols[] = {8, 15, 6, 4, 5};
	json_object *model = json_object_new_object();
	for (size_t i = 0; i < 5; i++) {
		json_object *ref = build(studies[i], model);
		json_object *p = table(ref, "published");
		assert_int_equal(json_object_array_length(p), rows[i]);
		assert_int_equal(n_columns(ref, "published"), cols[i]);
		for (size_t r = 0; r < rows[i]; r++)
			assert_int_equal(json_object_array_length(
						 json_object_array_get_idx(p, r)),
					 cols[i]);
		json_object *v;
		assert_true(json_object_object_get_ex(ref, "study", &v));
		assert_string_equal(json_object_get_string(v), studies[i]);
		const char *keys[] = {"title", "source", "layout"};
		for (size_t k = 0; k < 3; k++) {
			assert_true(json_object_object_get_ex(ref, keys[k], &v));
			assert_true(strlen(json_object_get_string(v)) > 3);
		}
		/* Nothing measured in an empty model, and a note says so. */
		assert_int_equal(json_object_array_length(table(ref, "measured")), 0);
		char notes[8192];
		notes_text(ref, notes, sizeof notes);
		assert_non_null(strstr(notes, "nothing measured"));
		json_object_put(ref);
	}
	json_object_put(model);
}

static json_object *published(const char *study)
{
	json_object *model = json_object_new_object();
	json_object *ref = build(study, model);
	json_object_put(model);
	return ref;
}

/* Numbers of the published tables, each as the study's text prints it. */
static void test_published_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *study;
		size_t row, col;
		const char *text;
	} spot[] = {
		/* First row: qcow2 unsafe native virtio prealloc yes. */
		{"kvm-perf-2011", 0, 0, "qcow2"},
		{"kvm-perf-2011", 0, 5, "10"},
		{"kvm-perf-2011", 0, 6, "70.062400 +/- 1.439401"},
		{"kvm-perf-2011", 0, 7, "214.186900 +/- 4.513276"},
		{"kvm-perf-2011", 81, 7, "1153.282400 +/- 600.007495"},
		{"bonnie-qcow2-vs-raw", 0, 0, "qcow2+ide"},
		{"bonnie-qcow2-vs-raw", 0, 5, "53081"},  /* block write K/sec */
		{"bonnie-qcow2-vs-raw", 3, 7, "20930"},  /* raw+virtio rewrite */
		{"bonnie-qcow2-vs-raw", 3, 11, "658254"}, /* block read */
		{"bonnie-qcow2-vs-raw", 4, 2, "16G"},
		{"bonnie-qcow2-vs-raw", 4, 13, "421.1"}, /* native seeks */
		{"cache-modes-lvm", 0, 0, "writethrough"},
		{"cache-modes-lvm", 0, 1, "no"},
		{"cache-modes-lvm", 0, 3, "35"},
		{"cache-modes-lvm", 0, 4, "2337 (page cache)"},
		{"cache-modes-lvm", 1, 4, "103"},
		{"cache-modes-lvm", 3, 0, "unsafe"},
		{"cache-modes-lvm", 3, 3, "54"},
		{"qcow2-l2-cache", 0, 2, "20.913"},
		{"qcow2-l2-cache", 0, 3, "1085"},
		{"qcow2-l2-cache", 1, 2, "1.571"},
		{"qcow2-l2-cache", 1, 3, "24.3k"},
		{"qcow2-l2-cache", 2, 0, "raw"},
		{"qcow2-l2-cache", 2, 2, "2.572"},
		{"guest-vs-host", 0, 2, "15.1"},
		{"guest-vs-host", 0, 3, "196"},
		{"guest-vs-host", 1, 2, "24.7"},
		{"guest-vs-host", 6, 2, "500392"},
		{"guest-vs-host", 6, 3, "114159"},
		{"guest-vs-host", 7, 3, "262.1"},
	};
	for (size_t i = 0; i < sizeof spot / sizeof spot[0]; i++) {
		json_object *ref = published(spot[i].study);
		assert_string_equal(item(table(ref, "published"), spot[i].row,
					 spot[i].col),
				    spot[i].text);
		json_object_put(ref);
	}
}

/* Every row of kvm-perf's table against the study's own text. */
static void test_kvm_perf_against_raw(void **state)
{
	(void)state;
	assert_int_equal(load_study(NULL), 0);
	json_object *ref = published("kvm-perf-2011");
	json_object *p = table(ref, "published");
	assert_int_equal(json_object_array_length(p), n_cells);
	for (size_t i = 0; i < n_cells; i++) {
		char n[16];
		assert_string_equal(item(p, i, 0), cells[i].type);
		assert_string_equal(item(p, i, 1), cells[i].cache);
		assert_string_equal(item(p, i, 2), cells[i].aio);
		assert_string_equal(item(p, i, 3), cells[i].iface);
		assert_string_equal(item(p, i, 4), cells[i].prealloc);
		assert_int_equal(cells[i].n[READS], cells[i].n[WRITES]);
		snprintf(n, sizeof n, "%zu", cells[i].n[READS]);
		assert_string_equal(item(p, i, 5), n);
		assert_string_equal(item(p, i, 6), cells[i].interval[READS]);
		assert_string_equal(item(p, i, 7), cells[i].interval[WRITES]);
	}
	json_object_put(ref);
}


/* The word after the next MARK in TEXT from *POS (NULL: the start), which
 * moves past it; copied to BUF, up to a space, comma or ')'. */
static const char *next_after(const char *text, const char *mark,
			      const char **pos, char *buf, size_t len)
{
	const char *p = strstr(*pos ? *pos : text, mark);
	assert_non_null(p);
	p += strlen(mark);
	size_t n = strcspn(p, " ,)\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	*pos = p;
	return buf;
}

/* bonnie-qcow2-vs-raw: every field of its five bonnie++ lines. */
static void test_bonnie_against_text(void **state)
{
	(void)state;
	char *text = read_data("bonnie-qcow2-vs-raw-2010.txt");
	json_object *ref = published("bonnie-qcow2-vs-raw");
	json_object *p = table(ref, "published");
	size_t row = 0;
	char *lines;
	for (char *line = strtok_r(text, "\n", &lines); line;
	     line = strtok_r(NULL, "\n", &lines)) {
		if (strncmp(line, "entropy.be", 10) != 0 &&
		    strncmp(line, "serwer3.itcoms.", 15) != 0)
			continue;
		/* The post's first lines space their fields with U+00A0. */
		static const char spaces[] = " \xc2\xa0";
		size_t col = 1;
		char *save;
		for (char *w = strtok_r(line, spaces, &save); w;
		     w = strtok_r(NULL, spaces, &save))
			assert_string_equal(item(p, row, col++), w);
		assert_int_equal(col, 15);
		row++;
	}
	assert_int_equal(row, 5);
	json_object_put(ref);
	free(text);
}

/* guest-vs-host: dd's MB/s in the order printed (guest file, guest
 * device, host file) and bonnie++'s CSV lines of the guest and the host. */
static void test_guest_vs_host_against_text(void **state)
{
	(void)state;
	char *text = read_data("slow-guest-disk-lp550409.txt");
	json_object *ref = published("guest-vs-host");
	json_object *p = table(ref, "published");
	char w[32];
	const char *pos = NULL;
	static const size_t dd_row[] = {0, 1, 0}, dd_col[] = {2, 2, 3};
	for (size_t i = 0; i < 3; i++) {
		next_after(text, " s, ", &pos, w, sizeof w);
		assert_string_equal(item(p, dd_row[i], dd_col[i]), w);
	}
	/* 1.03c: name,size, then six (value, %CP); 1.96: seven fields first. */
	const char *csv[2] = {strstr(text, "\nwebtest,1G,"),
			      strstr(text, "\n1.96,1.96,octillion,")};
	static const size_t first[2] = {2, 7};
	for (size_t g = 0; g < 2; g++) {
		assert_non_null(csv[g]);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)strcspn(csv[g] + 1, "\n"),
			 csv[g] + 1);
		char *f[64], *save = line;
		size_t n = 0;
		for (char *x; n < 64 && (x = strsep(&save, ","));)
			f[n++] = x;
		for (size_t m = 0; m < 6; m++)
			assert_string_equal(item(p, 2 + m, 2 + g), f[first[g] + 2 * m]);
	}
	json_object_put(ref);
	free(text);
}

/* qcow2-l2-cache: qemu-img bench's seconds in the order run (old qcow2,
 * raw, new qcow2) and fio's IOPS (comment 8: the fixed build's randwrite,
 * randread, randrw, then the old build's). */
static void test_qcow2_l2_cache_against_text(void **state)
{
	(void)state;
	char *text = read_data("qcow2-l2-cache-rhbz1656507.txt");
	json_object *ref = published("qcow2-l2-cache");
	json_object *p = table(ref, "published");
	char w[32], r[32];
	const char *pos = NULL;
	static const size_t bench_row[] = {0, 2, 1};
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(item(p, bench_row[i], 2),
				    next_after(text, "Run completed in ", &pos, w, sizeof w));
	/* fio lines in order: write, read (randread), read + write (randrw). */
	pos = strstr(text, "In qemu-kvm-2.12.0-52");
	for (size_t build = 0; build < 2; build++) {
		size_t row = build == 0 ? 1 : 0;
		assert_string_equal(item(p, row, 4),
				    next_after(text, "write: IOPS=", &pos, w, sizeof w));
		assert_string_equal(item(p, row, 3),
				    next_after(text, "read: IOPS=", &pos, w, sizeof w));
		next_after(text, "read: IOPS=", &pos, r, sizeof r);
		next_after(text, "write: IOPS=", &pos, w, sizeof w);
		char rw[80];
		snprintf(rw, sizeof rw, "%s/%s", r, w);
		assert_string_equal(item(p, row, 5), rw);
	}
	json_object_put(ref);
	free(text);
}

/* cache-modes-lvm: Table 1's and Table 2's rows, cell for cell. */
static void test_cache_modes_against_text(void **state)
{
	(void)state;
	char *text = read_data("cache-modes-lvm-2013.txt");
	json_object *ref = published("cache-modes-lvm");
	json_object *p = table(ref, "published");
	size_t seen = 0;
	const char *t2 = strstr(text, "Table 2");
	assert_non_null(t2);
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *f[8], *save = line;
		size_t n = 0;
		if (line[0] != '|' || strstr(line, "---") || strstr(line, "cache mode"))
			continue;
		for (char *x; n < 8 && (x = strsep(&save, "|"));) {
			while (*x == ' ')
				x++;
			size_t len = strlen(x);
			while (len && x[len - 1] == ' ')
				x[--len] = '\0';
			f[n++] = x;
		}
		assert_int_equal(n, 5); /* "", mode, two values, "" */
		size_t row = seen % 4, col = line >= t2 ? 3 : 1;
		assert_string_equal(item(p, row, 0), f[1]);
		assert_string_equal(item(p, row, col), f[2]);
		assert_string_equal(item(p, row, col + 1), f[3]);
		seen++;
	}
	assert_int_equal(seen, 8);
	json_object_put(ref);
	free(text);
}

/* ---- the measured tables ------------------------------------------------- */

#define QCOW2_META "{\"backend\": \"qcow2\", \"format\": \"qcow2\", \"preallocation\": \"metadata\", \"cache\": \"unsafe\", \"aio\": \"native\", \"bus\": \"virtio\"}"
#define RAW_WB "{\"backend\": \"raw\", \"format\": \"raw\", \"preallocation\": \"sparse\", \"cache\": \"writeback\", \"aio\": \"threads\", \"bus\": \"virtio\"}"
#define LVM_NONE "{\"backend\": \"lvm\", \"format\": \"raw\", \"preallocation\": null, \"cache\": \"none\", \"aio\": \"native\", \"bus\": \"ide\"}"

static void test_kvm_perf_measured(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	/* Written in an order that is not the write-time order. */
	add_cell(model, "lab-7", "tarball-write", "boot_to_shutdown", RAW_WB, 5, 300.25, 12.5, 0);
	add_cell(model, "lab-7", "tarball-read", "boot_to_shutdown", RAW_WB, 5, 70.5, 1.25, 0);
	add_cell(model, "lab-7", "tarball-read", "boot_to_shutdown", LVM_NONE, 5, 77.0, 0.5, 0);
	add_cell(model, "lab-7", "tarball-write", "boot_to_shutdown", LVM_NONE, 4, 500.0, NAN, 0);
	add_cell(model, "lab-7", "tarball-write", "boot_to_shutdown", QCOW2_META, 10, 214.1869, 4.513276, 0);
	add_cell(model, "lab-7", "tarball-read", "boot_to_shutdown", QCOW2_META, 10, 70.0624, 1.439401, 0);
	/* Not this study's. */
	add_cell(model, "lab-7", "fio", "fio_read_iops", RAW_WB, 5, 1000, 10, 0);

	json_object *ref = build("kvm-perf-2011", model);
	/* Sorted by mean write time. */
	static const char *const want[] = {
		"qcow2", "unsafe", "native", "virtio", "yes", "10",
		"70.062400 +/- 1.439401", "214.186900 +/- 4.513276",
		"raw", "writeback", "threads", "virtio", "no", "5",
		"70.500000 +/- 1.250000", "300.250000 +/- 12.500000",
		"raw on lvm", "none", "native", "ide", "no", "5/4",
		"77.000000 +/- 0.500000", "500.000000 (n=4)"};
	assert_int_equal(n_columns(ref, "measured"), 8);
	assert_rows(table(ref, "measured"), 8, want, 3);
	char notes[8192];
	notes_text(ref, notes, sizeof notes);
	/* qcow2 unsafe native virtio yes and raw writeback threads virtio
	 * no are published configurations; "raw on lvm" is not. */
	assert_non_null(strstr(notes, "2 of 82 published rows"));
	assert_non_null(strstr(notes, "qed"));
	json_object_put(ref);

	/* A second host: its rows say which host they are. */
	add_cell(model, "lab-8", "tarball-write", "boot_to_shutdown", RAW_WB, 5, 100, 1, 0);
	ref = build("kvm-perf-2011", model);
	static const char *const two_hosts[4 * 8] = {
		[0] = "raw (host=lab-8)", [6] = "-", [8] = "qcow2 (host=lab-7)"};
	assert_rows(table(ref, "measured"), 8, two_hosts, 4);
	json_object_put(ref);
	json_object_put(model);
}

static void add_bonnie(json_object *model, const char *axes, const double v[6])
{
	static const char *const names[] = {"bonnie_putc",	 "bonnie_block_write",
					    "bonnie_rewrite",	 "bonnie_getc",
					    "bonnie_block_read", "bonnie_seeks"};
	for (size_t i = 0; i < 6; i++)
		if (!isnan(v[i]))
			add_cell(model, "lab-7", "bonnie", names[i], axes, 5, v[i], v[i] / 20, 0);
}

#define QCOW2_VIRTIO "{\"backend\": \"qcow2\", \"format\": \"qcow2\", \"preallocation\": \"off\", \"cache\": \"none\", \"aio\": \"native\", \"bus\": \"virtio\"}"
#define RAW_IDE "{\"backend\": \"raw\", \"format\": \"raw\", \"preallocation\": \"sparse\", \"cache\": \"none\", \"aio\": \"native\", \"bus\": \"ide\"}"
/* As the journal has them: a host baseline cell's guest is false, its
 * cache, aio and bus null. */
#define RAW_HOST "{\"backend\": \"raw\", \"format\": \"raw\", \"preallocation\": \"sparse\", \"cache\": null, \"aio\": null, \"bus\": null, \"l2_cache\": null, \"guest\": false}"

static void test_bonnie_measured(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	add_bonnie(model, RAW_HOST, (double[]){75336, 89196.4, 34498, 46891, 99439, 421.14});
	add_bonnie(model, RAW_IDE, (double[]){74111, 86947, 66292, 50945, 347763, 5892.3});
	add_bonnie(model, QCOW2_VIRTIO, (double[]){58859, 76112, 74583, 52058, 546065, NAN});
	json_object *ref = build("bonnie-qcow2-vs-raw", model);
	/* The study's order: qcow2, raw, then native on the host; seeks
	 * with one decimal below 1000, as bonnie++ prints them. */
	static const char *const want[] = {
		"qcow2+virtio", "5", "58859", "76112", "74583", "52058", "546065", "-",
		"raw(file)+ide", "5", "74111", "86947", "66292", "50945", "347763", "5892",
		"native I/O on host filesystem", "5", "75336", "89196", "34498", "46891",
		"99439", "421.1"};
	assert_int_equal(n_columns(ref, "measured"), 8);
	assert_rows(table(ref, "measured"), 8, want, 3);
	char notes[8192];
	notes_text(ref, notes, sizeof notes);
	/* The host row counts as the study's native row. */
	assert_non_null(strstr(notes, "3 of 5 published rows"));
	assert_non_null(strstr(notes, "qcow2+ide"));
	assert_null(strstr(notes, "native I/O on host filesystem"));
	json_object_put(ref);
	json_object_put(model);
}

#define LVM_CACHE(mode) "{\"backend\": \"lvm\", \"format\": \"raw\", \"preallocation\": null, \"cache\": \"" mode "\", \"aio\": \"threads\", \"bus\": \"virtio\"}"

static void test_cache_modes_measured(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	/* K/sec: 55296 = 54 MiB/s, 2311168 = 2257 MiB/s. */
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", LVM_CACHE("unsafe"), 5, 55296, 100, 0);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_read", LVM_CACHE("unsafe"), 5, 2311168, 100, 0);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", LVM_CACHE("none"), 5, 50176, 100, 2);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_read", LVM_CACHE("none"), 5, 105472, 100, 2);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", LVM_CACHE("writethrough"), 5, 35840, 100, 0);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", RAW_HOST, 5, 99999, 100, 0);
	json_object *ref = build("cache-modes-lvm", model);
	/* The study's order of modes; the host cell has no cache mode and
	 * is not a row of this table. */
	static const char *const want[] = {
		"writethrough", "no", "yes", "as the mode asks (5 runs)", "35", "-",
		"none", "yes", "no", "differed in 2 runs", "49", "103",
		"unsafe", "used, flushes ignored", "used, flushes ignored",
		"as the mode asks (5 runs)", "54", "2257 (page cache)"};
	assert_int_equal(n_columns(ref, "measured"), 6);
	assert_rows(table(ref, "measured"), 6, want, 3);
	char notes[8192];
	notes_text(ref, notes, sizeof notes);
	assert_non_null(strstr(notes, "3 of 4 published rows"));
	assert_non_null(strstr(notes, "not in this report: writeback"));
	json_object_put(ref);
	json_object_put(model);
}

/* As the journal has them: l2_cache in bytes; qemu-img bench (on the
 * host) has no bus, fio (in a guest) has one. */
#define QCOW2_L2(bytes, bus) "{\"backend\": \"qcow2\", \"format\": \"qcow2\", \"preallocation\": \"off\", \"cache\": \"none\", \"aio\": \"native\", \"bus\": " bus ", \"l2_cache\": " bytes ", \"guest\": true}"
#define BENCH_L2(bytes) QCOW2_L2(bytes, "null")
#define FIO_L2(bytes) QCOW2_L2(bytes, "\"virtio\"")
#define RAW_BENCH "{\"backend\": \"raw\", \"format\": \"raw\", \"preallocation\": \"sparse\", \"cache\": \"none\", \"aio\": \"native\", \"bus\": null}"

static void test_qcow2_l2_cache_measured(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	add_cell(model, "lab-7", "qemu-img-bench", "bench_seconds", RAW_BENCH, 3, 2.5724, 0.1, 0);
	add_cell(model, "lab-7", "qemu-img-bench", "bench_seconds", BENCH_L2("8388608"), 3, 1.5712, 0.1, 0);
	add_cell(model, "lab-7", "qemu-img-bench", "bench_seconds", BENCH_L2("1048576"), 3, 20.9128, 0.1, 0);
	add_cell(model, "lab-7", "fio", "fio_read_iops", FIO_L2("1048576"), 3, 1085.2, 10, 0);
	add_cell(model, "lab-7", "fio", "fio_read_iops", FIO_L2("8388608"), 3, 24312, 10, 0);
	json_object *ref = build("qcow2-l2-cache", model);
	/* One row per image and L2 cache with both tools' figures; sizes
	 * ascending and written as the profile does, raw last, as the study
	 * went old, new, raw; IOPS abbreviated as fio prints them. */
	static const char *const want[] = {
		"qcow2", "1M (covers 8 GiB)", "20.913", "1085", "-",
		"qcow2", "8M (covers 64 GiB)", "1.571", "24.3k", "-",
		"raw", "-", "2.572", "-", "-"};
	assert_int_equal(n_columns(ref, "measured"), 5);
	assert_rows(table(ref, "measured"), 5, want, 3);
	json_object_put(ref);
	json_object_put(model);
}

#define RAW_GUEST "{\"backend\": \"raw\", \"format\": \"raw\", \"preallocation\": \"sparse\", \"cache\": \"none\", \"aio\": \"native\", \"bus\": \"virtio\", \"l2_cache\": null, \"guest\": true}"
#define LVM_GUEST "{\"backend\": \"lvm\", \"format\": \"raw\", \"preallocation\": null, \"cache\": \"none\", \"aio\": \"native\", \"bus\": \"virtio\"}"

static void test_guest_vs_host_measured(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	add_cell(model, "lab-7", "dd", "dd_mbps", RAW_GUEST, 5, 15.06, 0.5, 0);
	add_cell(model, "lab-7", "dd", "dd_mbps", RAW_HOST, 5, 196.4, 3, 0);
	add_cell(model, "lab-7", "dd", "dd_mbps", LVM_GUEST, 5, 24.66, 0.5, 0);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", RAW_GUEST, 5, 11505, 100, 0);
	add_cell(model, "lab-7", "bonnie", "bonnie_block_write", RAW_HOST, 5, 76547, 100, 0);
	json_object *ref = build("guest-vs-host", model);
	/* raw: dd and block write beside its host cell; lvm: dd, and no
	 * host cell for it.  dd's MB/s to three significant digits. */
	static const char *const want[] = {
		"dd bs=4096 to a file", "MB/s", "raw(file)+virtio", "15.1", "196", "13x",
		"bonnie++ block write", "K/sec", "raw(file)+virtio", "11505", "76547", "6.7x",
		"dd bs=4096 to a file", "MB/s", "raw(lvm)+virtio", "24.7", "-", "-"};
	assert_int_equal(n_columns(ref, "measured"), 6);
	assert_rows(table(ref, "measured"), 6, want, 3);
	json_object_put(ref);

	/* Without host cells the notes say why the host column is empty. */
	json_object *guests_only = json_object_new_object();
	add_cell(guests_only, "lab-7", "dd", "dd_mbps", LVM_GUEST, 5, 24.66, 0.5, 0);
	ref = build("guest-vs-host", guests_only);
	char notes[8192];
	notes_text(ref, notes, sizeof notes);
	assert_non_null(strstr(notes, "no host baseline cells"));
	json_object_put(ref);
	json_object_put(guests_only);
	json_object_put(model);
}

static void test_write_text(void **state)
{
	(void)state;
	json_object *model = json_object_new_object();
	add_cell(model, "lab-7", "tarball-write", "boot_to_shutdown", QCOW2_META, 10, 214.1869, 4.513276, 0);
	json_object *ref = build("kvm-perf-2011", model);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(reference_write_text(ref, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "== kvm-perf-2011: First round of kvm performance tests =="));
	assert_non_null(strstr(text, "\npublished:\n  type "));
	/* Columns aligned: the header's "cache" above each row's. */
	const char *h = strstr(text, "  type ");
	const char *r = strstr(text, "\n  qcow2 ");
	assert_non_null(h);
	assert_non_null(r);
	assert_int_equal(strstr(h, "cache") - h, strstr(r + 1, "unsafe") - (r + 1));
	assert_non_null(strstr(text, "\nmeasured here:\n"));
	assert_non_null(strstr(text, "214.186900 +/- 4.513276\n"));
	assert_non_null(strstr(text, "214.186900 +/- 4.513276\n\nnotes:\n- "));
	free(text);
	json_object_put(ref);
	json_object_put(model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_published_shapes),
		cmocka_unit_test(test_published_numbers),
		cmocka_unit_test(test_kvm_perf_against_raw),
		cmocka_unit_test(test_bonnie_against_text),
		cmocka_unit_test(test_guest_vs_host_against_text),
		cmocka_unit_test(test_qcow2_l2_cache_against_text),
		cmocka_unit_test(test_cache_modes_against_text),
		cmocka_unit_test(test_kvm_perf_measured),
		cmocka_unit_test(test_bonnie_measured),
		cmocka_unit_test(test_cache_modes_measured),
		cmocka_unit_test(test_qcow2_l2_cache_measured),
		cmocka_unit_test(test_guest_vs_host_measured),
		cmocka_unit_test(test_write_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
