/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "reference.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "cleanup.h"
#include "jsonget.h"
#include "names.h"
#include "parse.h"
#include "plan.h"
#include "reference_data.h"
#include "reftable.h"

/* ---- the model (docs/report.md) ------------------------------------------ */

/* The metric names the report model carries: those of the journal
 * (runner/results.c, summary.h), one place to change if the model
 * renames them. */
#define M_BOOT "boot_to_shutdown"
#define M_DD "dd_mbps"
#define M_BENCH "bench_seconds"
#define M_FIO_READ "fio_read_iops"
#define M_FIO_WRITE "fio_write_iops"
static const char *const bonnie_metrics[] = {
	"bonnie_putc",	     "bonnie_block_write", "bonnie_rewrite",
	"bonnie_getc",	     "bonnie_block_read",  "bonnie_seeks",
};
#define N_BONNIE 6

/* Whether CELL ran on the lab server itself, no guest involved: the host
 * baseline cells carry the axis "guest" = false (the journal's boolean,
 * which reads as "false"; "no" too); a guest cell has true, "yes" or no
 * such axis. */
static bool cell_on_host(const struct model_cell *cell)
{
	const char *g = reftable_axis(cell, "guest");
	return g && (strcmp(g, "false") == 0 || strcmp(g, "no") == 0);
}

static bool cell_in_guest(const struct model_cell *cell)
{
	return !cell_on_host(cell);
}

static void note_if_empty(struct reftable_out *o, size_t n, const char *what)
{
	char text[256];
	if (n)
		return;
	snprintf(text, sizeof text, "This report has no %s cells: nothing "
		 "measured to set beside the study.", what);
	reftable_note(o, text);
}

/* ---- what the studies' configuration columns say about a cell ----------- */

/* The image as kvm-perf names it: its format, and the backend when that
 * is not a file of that format ("raw on lvm"). */
static void image_type(const struct model_cell *cell, char *buf, size_t len)
{
	const char *fmt = reftable_axis(cell, "format");
	const char *be = reftable_axis(cell, "backend");
	if (!fmt)
		fmt = "-";
	if (be && strcmp(be, fmt) != 0)
		snprintf(buf, len, "%s on %s", fmt, be);
	else
		snprintf(buf, len, "%s", fmt);
}

/* kvm-perf's prealloc yes/no: qcow2 with preallocated metadata is its
 * "yes"; the other preallocations say which. */
static const char *prealloc_yes_no(const struct model_cell *cell)
{
	const char *p = reftable_axis(cell, "preallocation");
	if (!p || strcmp(p, "off") == 0 || strcmp(p, "sparse") == 0)
		return "no";
	if (strcmp(p, "metadata") == 0)
		return "yes";
	if (strcmp(p, "falloc") == 0)
		return "yes (falloc)";
	return "yes (full)";
}

/* bonnie-qcow2-vs-raw's configuration: "qcow2+virtio", "raw(file)+ide";
 * a host cell is the study's native row, named as the study names it (the
 * raw file's filesystem is the host's), with the backend when another. */
static void bonnie_config(const struct model_cell *cell, char *buf, size_t len)
{
	const char *fmt = reftable_axis(cell, "format");
	const char *be = reftable_axis(cell, "backend");
	const char *bus = reftable_axis(cell, "bus");
	if (!fmt)
		fmt = "-";
	if (cell_on_host(cell)) {
		if (be && strcmp(be, "raw") == 0)
			snprintf(buf, len, "native I/O on host filesystem");
		else
			snprintf(buf, len, "native I/O on host filesystem (%s)",
				 be ? be : "-");
		return;
	}
	if (be && strcmp(be, "qcow2") == 0)
		snprintf(buf, len, "qcow2+%s", bus ? bus : "-");
	else if (be && strcmp(be, "raw") == 0)
		snprintf(buf, len, "raw(file)+%s", bus ? bus : "-");
	else
		snprintf(buf, len, "%s(%s)+%s", fmt, be ? be : "-",
			 bus ? bus : "-");
}

/* ---- kvm-perf-2011 ------------------------------------------------------- */

static int by_write_mean(const void *a, const void *b)
{
	const struct reftable_row *x = a, *y = b;
	double mx = reftable_mean(x->cell[1]), my = reftable_mean(y->cell[1]);
	bool fx = isfinite(mx), fy = isfinite(my);
	if (fx != fy)
		return fx ? -1 : 1;
	if (fx && mx != my)
		return mx < my ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "mean +/- half-width" as the study printed it. */
static void kvm_interval(const struct model_cell *cell, char *buf, size_t len)
{
	double m = reftable_mean(cell), h = reftable_half_width(cell);
	if (!isfinite(m))
		snprintf(buf, len, "-");
	else if (!isfinite(h))
		snprintf(buf, len, "%.6f (n=%u)", m, reftable_n(cell));
	else
		snprintf(buf, len, "%.6f +/- %.6f", m, h);
}

static int layout_kvm_perf(const struct model *report, struct reftable_out *o)
{
	static const struct reftable_source src[] = {
		{"tarball-read", M_BOOT}, {"tarball-write", M_BOOT}};
	static const char *const shown[] = {"backend", "format", "preallocation",
					    "cache", "aio", "bus", NULL};
	_cleanup_(reftable_releasep) struct reftable t = {0};
	int r = reftable_gather(report, src, 2, NULL, &t);
	if (r < 0)
		return r;
	reftable_sort(&t, by_write_mean);
	reftable_columns(o, "type", "cache", "aio", "if", "prealloc", "runs",
			 "reads mean +/- CI", "writes mean +/- CI", NULL);
	for (size_t i = 0; i < t.n; i++) {
		struct reftable_row *row = &t.rows[i];
		char c[8][REFTABLE_CELL_MAX];
		image_type(row->any, c[0], sizeof c[0]);
		reftable_label_extra(&t, row, shown, c[0], sizeof c[0]);
		snprintf(c[1], sizeof c[1], "%s", reftable_axis_or(row->any, "cache"));
		snprintf(c[2], sizeof c[2], "%s", reftable_axis_or(row->any, "aio"));
		snprintf(c[3], sizeof c[3], "%s", reftable_axis_or(row->any, "bus"));
		snprintf(c[4], sizeof c[4], "%s", prealloc_yes_no(row->any));
		unsigned nr = reftable_n(row->cell[0]), nw = reftable_n(row->cell[1]);
		if (nr == nw || !row->cell[0] || !row->cell[1])
			snprintf(c[5], sizeof c[5], "%u", row->cell[0] ? nr : nw);
		else
			snprintf(c[5], sizeof c[5], "%u/%u", nr, nw);
		kvm_interval(row->cell[0], c[6], sizeof c[6]);
		kvm_interval(row->cell[1], c[7], sizeof c[7]);
		reftable_add_row(o, c, 8);
	}
	reftable_note_coverage(o, 5, "type, cache, aio, if and prealloc");
	reftable_note(o, "The study's qed images have no counterpart: there "
			 "is no qed backend here.");
	reftable_note(o, "Measured: seconds from VM start to shutdown "
			 "(boot_to_shutdown) of the tarball-read (reads) and "
			 "tarball-write (writes) cells, mean +/- the half-width "
			 "of the report's 95% interval; the study's type is the "
			 "image format (on an ext4 file), here the format and "
			 "the backend when it is not a file of that format; "
			 "prealloc yes is qcow2 metadata preallocation.");
	note_if_empty(o, t.n, "tarball-read or tarball-write");
	return 0;
}

/* ---- bonnie-qcow2-vs-raw ------------------------------------------------- */

/* bonnie++ prints K/sec as integers, seeks with one decimal below 1000. */
static void bonnie_value(const struct model_cell *cell, size_t metric, char *buf,
			 size_t len)
{
	double m = reftable_mean(cell);
	if (!isfinite(m))
		snprintf(buf, len, "-");
	else if (metric == N_BONNIE - 1 && m < 1000)
		snprintf(buf, len, "%.1f", m);
	else
		snprintf(buf, len, "%.0f", m);
}

static int by_bonnie_config(const void *a, const void *b)
{
	const struct reftable_row *x = a, *y = b;
	bool hx = cell_on_host(x->any), hy = cell_on_host(y->any);
	if (hx != hy)
		return hx ? 1 : -1;
	int c = strcmp(reftable_axis_or(x->any, "backend"),
		       reftable_axis_or(y->any, "backend"));
	if (!c)
		c = strcmp(reftable_axis_or(x->any, "bus"),
			   reftable_axis_or(y->any, "bus"));
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int layout_bonnie(const struct model *report, struct reftable_out *o)
{
	struct reftable_source src[N_BONNIE];
	static const char *const shown[] = {"backend", "format", "bus", "guest",
					    NULL};
	for (size_t i = 0; i < N_BONNIE; i++)
		src[i] = (struct reftable_source){"bonnie", bonnie_metrics[i]};
	_cleanup_(reftable_releasep) struct reftable t = {0};
	int r = reftable_gather(report, src, N_BONNIE, NULL, &t);
	if (r < 0)
		return r;
	reftable_sort(&t, by_bonnie_config);
	reftable_columns(o, "config", "runs", "per-chr write K/sec",
			 "block write K/sec", "rewrite K/sec", "per-chr read K/sec",
			 "block read K/sec", "seeks /sec", NULL);
	for (size_t i = 0; i < t.n; i++) {
		struct reftable_row *row = &t.rows[i];
		char c[2 + N_BONNIE][REFTABLE_CELL_MAX];
		bonnie_config(row->any, c[0], sizeof c[0]);
		reftable_label_extra(&t, row, shown, c[0], sizeof c[0]);
		snprintf(c[1], sizeof c[1], "%u", reftable_n(row->any));
		for (size_t m = 0; m < N_BONNIE; m++)
			bonnie_value(row->cell[m], m, c[2 + m], sizeof c[2 + m]);
		reftable_add_row(o, c, 2 + N_BONNIE);
	}
	reftable_note_coverage(o, 1, "config");
	reftable_note(o, "Measured: the means of the bonnie cells' bonnie++ "
			 "CSV columns (K/sec as bonnie++ prints them, 1024 "
			 "bytes; no unit conversion); %CP is not recorded; a "
			 "host baseline cell is the study's native row.");
	note_if_empty(o, t.n, "bonnie");
	return 0;
}

/* ---- cache-modes-lvm ----------------------------------------------------- */

static int cache_mode_of(const char *name)
{
	return name ? name_table_lookup(&cache_mode_names, name) : -1;
}

/* The study's row order; modes it did not run (directsync) after. */
static int study_cache_rank(const char *name)
{
	static const char *const order[] = {"writethrough", "none", "writeback",
					    "unsafe"};
	for (int i = 0; name && i < 4; i++)
		if (strcmp(order[i], name) == 0)
			return i;
	return 4;
}

static int by_study_cache(const void *a, const void *b)
{
	const struct reftable_row *x = a, *y = b;
	int rx = study_cache_rank(reftable_axis(x->any, "cache"));
	int ry = study_cache_rank(reftable_axis(y->any, "cache"));
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* bonnie++ K/sec as the study's whole MB/s (MiB: 1024 K). */
static void mb_per_s(const struct model_cell *cell, const char *suffix, char *buf,
		     size_t len)
{
	double m = reftable_mean(cell);
	if (!isfinite(m))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%s", m / 1024, suffix);
}

static int layout_cache_modes(const struct model *report, struct reftable_out *o)
{
	static const struct reftable_source src[] = {
		{"bonnie", "bonnie_block_write"}, {"bonnie", "bonnie_block_read"}};
	static const char *const shown[] = {"cache", "guest", NULL};
	_cleanup_(reftable_releasep) struct reftable t = {0};
	int r = reftable_gather(report, src, 2, cell_in_guest, &t);
	if (r < 0)
		return r;
	reftable_sort(&t, by_study_cache);
	reftable_columns(o, "cache mode", "host disk write cache",
			 "host page cache", "applied cache flags",
			 "write (seq block) MB/s", "read (seq block) MB/s", NULL);
	for (size_t i = 0; i < t.n; i++) {
		struct reftable_row *row = &t.rows[i];
		char c[6][REFTABLE_CELL_MAX];
		int mode = cache_mode_of(reftable_axis(row->any, "cache"));
		snprintf(c[0], sizeof c[0], "%s", reftable_axis_or(row->any, "cache"));
		reftable_label_extra(&t, row, shown, c[0], sizeof c[0]);
		bool page = false;
		if (mode >= 0) {
			struct plan_cache_row cr = plan_cache_row(mode);
			snprintf(c[1], sizeof c[1], "%s", cr.host_write_cache);
			snprintf(c[2], sizeof c[2], "%s", cr.host_page_cache);
			page = !cache_mode_flags(mode).direct;
		} else {
			snprintf(c[1], sizeof c[1], "-");
			snprintf(c[2], sizeof c[2], "-");
		}
		unsigned mis = row->any->cache_mismatches, n = reftable_n(row->any);
		if (mis)
			snprintf(c[3], sizeof c[3], "differed in %u runs", mis);
		else
			snprintf(c[3], sizeof c[3], "as the mode asks (%u runs)", n);
		mb_per_s(row->cell[0], "", c[4], sizeof c[4]);
		mb_per_s(row->cell[1], page ? " (page cache)" : "", c[5], sizeof c[5]);
		reftable_add_row(o, c, 6);
	}
	reftable_note_coverage(o, 1, "cache mode");
	reftable_note(o, "Measured: the host columns say what the cache "
			 "mode's QEMU flags (cache.writeback, cache.direct, "
			 "cache.no-flush) mean on the host, as the plan's "
			 "cache_modes table words it; applied cache flags: "
			 "whether the flags QEMU reported for each run were the "
			 "mode's. MB/s: the bonnie cells' block write and "
			 "block read means, K/sec / 1024, rounded as the study "
			 "printed them; (page cache): the mode reads through the "
			 "host page cache (cache.direct off).");
	note_if_empty(o, t.n, "bonnie");
	return 0;
}

/* ---- qcow2-l2-cache ------------------------------------------------------ */

/* Bytes of a size string ("1M", "512K", "8388608"); 0 when it is none. */
static double size_bytes(const char *s)
{
	uint64_t v;
	return parse_size(s, &v) == 0 ? (double)v : 0;
}

static bool is_qcow2(const struct model_cell *cell)
{
	const char *f = reftable_axis(cell, "format");
	return f && strcmp(f, "qcow2") == 0;
}

static int by_l2_cache(const void *a, const void *b)
{
	const struct reftable_row *x = a, *y = b;
	bool qx = is_qcow2(x->any), qy = is_qcow2(y->any);
	if (qx != qy)
		return qx ? -1 : 1;
	/* Sizes ascending, as the study went from the old default to the
	 * new; QEMU's own default (no size) last. */
	double sx = size_bytes(reftable_axis(x->any, "l2_cache"));
	double sy = size_bytes(reftable_axis(y->any, "l2_cache"));
	if (sx != sy)
		return sx == 0 ? 1 : sy == 0 ? -1 : sx < sy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The L2 cache column: the size as the profile, the cell ids and the
 * report's axes write it (the journal records l2_cache in bytes, 16384;
 * they say 16K: format_size), and the image range it covers at QEMU's
 * default 64 KiB clusters (8 bytes of L2 table per cluster). */
static void l2_cache_label(const struct model_cell *cell, char *buf, size_t len)
{
	const char *v = reftable_axis(cell, "l2_cache");
	double b = size_bytes(v);
	char size[32];
	if (!is_qcow2(cell))
		snprintf(buf, len, "-");
	else if (!v || b == 0)
		snprintf(buf, len, "%s", v ? v : "QEMU default");
	else {
		snprintf(buf, len, "%s (covers %g GiB)",
			 format_size((uint64_t)b, size, sizeof size),
			 b / 8 * 65536 / (1024.0 * 1024 * 1024));
	}
}

/* IOPS the way fio prints them: at most 4 digits, then k, M. */
static void fio_iops(const struct model_cell *cell, char *buf, size_t len)
{
	double v = reftable_mean(cell);
	static const char suffix[] = "kMG";
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v < 9999.5) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	int s = 0;
	v /= 1000;
	while (v >= 9999.5 && s < 2) {
		v /= 1000;
		s++;
	}
	int digits = v >= 1000 ? 4 : v >= 100 ? 3 : v >= 10 ? 2 : 1;
	int dec = digits >= 3 ? 0 : 3 - digits;
	snprintf(buf, len, "%.*f%c", dec, v, suffix[s]);
}

static int layout_qcow2_l2_cache(const struct model *report, struct reftable_out *o)
{
	static const struct reftable_source src[] = {{"qemu-img-bench", M_BENCH},
						     {"fio", M_FIO_READ},
						     {"fio", M_FIO_WRITE}};
	static const char *const shown[] = {"backend", "format", "l2_cache",
					    "preallocation", "guest", NULL};
	/* qemu-img bench runs on the host (its cells have no bus), fio in a
	 * guest: the study's row is the image and its L2 cache, both
	 * tools' figures in it. */
	static const char *const not_the_row[] = {"bus", NULL};
	_cleanup_(reftable_releasep) struct reftable t = {0};
	int r = reftable_gather_ignoring(report, src, 3, cell_in_guest,
					 not_the_row, &t);
	if (r < 0)
		return r;
	reftable_sort(&t, by_l2_cache);
	reftable_columns(o, "image", "L2 cache", "qemu-img bench s",
			 "fio read IOPS", "fio write IOPS", NULL);
	for (size_t i = 0; i < t.n; i++) {
		struct reftable_row *row = &t.rows[i];
		char c[5][REFTABLE_CELL_MAX];
		image_type(row->any, c[0], sizeof c[0]);
		reftable_label_extra(&t, row, shown, c[0], sizeof c[0]);
		l2_cache_label(row->any, c[1], sizeof c[1]);
		double s = reftable_mean(row->cell[0]);
		if (isfinite(s))
			snprintf(c[2], sizeof c[2], "%.3f", s);
		else
			snprintf(c[2], sizeof c[2], "-");
		fio_iops(row->cell[1], c[3], sizeof c[3]);
		fio_iops(row->cell[2], c[4], sizeof c[4]);
		reftable_add_row(o, c, 5);
	}
	reftable_note(o, "Measured: qemu-img bench seconds (the qemu-img-bench "
			 "cells' bench_seconds, 3 decimals as qemu-img printed "
			 "them) and fio IOPS (the fio cells' read and write IOPS "
			 "for the profile's [workload] fio_rw, abbreviated as fio "
			 "prints them) per L2 cache size; the range a size covers "
			 "assumes 64 KiB clusters (1M covers 8 GiB: the old "
			 "default); cells without an l2_cache value (raw, or "
			 "qcow2 with QEMU's own default) have none.");
	note_if_empty(o, t.n, "qemu-img-bench or fio");
	return 0;
}

/* ---- guest-vs-host ------------------------------------------------------- */

/* dd's MB/s: three significant digits ("15.1", "196"). */
static void dd_value(const struct model_cell *cell, size_t metric, char *buf, size_t len)
{
	(void)metric;
	double v = reftable_mean(cell);
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 99.95)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.*f", v >= 9.995 ? 1 : 2, v);
}

/* A ratio to two significant digits, as one says "10x slower". */
static void ratio(double r, char *buf, size_t len)
{
	if (r >= 9.95)
		snprintf(buf, len, "%.0fx", r);
	else if (r >= 0.995)
		snprintf(buf, len, "%.1fx", r);
	else
		snprintf(buf, len, "%.2gx", r);
}

/* The host baseline row of GUEST: the same storage (backend and format)
 * on the same lab server. */
static const struct reftable_row *host_row(const struct reftable *hosts,
					   const struct reftable_row *guest)
{
	static const char *const same[] = {"backend", "format"};
	for (size_t i = 0; i < hosts->n; i++) {
		const struct model_cell *h = hosts->rows[i].any;
		bool ok = strcmp(reftable_host(h), reftable_host(guest->any)) == 0;
		for (size_t k = 0; ok && k < 2; k++)
			ok = strcmp(reftable_axis_or(h, same[k]),
				    reftable_axis_or(guest->any, same[k])) == 0;
		if (ok)
			return &hosts->rows[i];
	}
	return NULL;
}

static int layout_guest_vs_host(const struct model *report, struct reftable_out *o)
{
	static const struct {
		const char *measure, *unit;
	} measures[1 + N_BONNIE] = {
		{"dd bs=4096 to a file", "MB/s"},
		{"bonnie++ per-chr write", "K/sec"}, {"bonnie++ block write", "K/sec"},
		{"bonnie++ rewrite", "K/sec"},	     {"bonnie++ per-chr read", "K/sec"},
		{"bonnie++ block read", "K/sec"},    {"bonnie++ seeks", "/sec"},
	};
	static const char *const shown[] = {"backend", "format", "bus", "guest",
					    NULL};
	struct reftable_source src[1 + N_BONNIE] = {{"dd", M_DD}};
	for (size_t i = 0; i < N_BONNIE; i++)
		src[1 + i] = (struct reftable_source){"bonnie", bonnie_metrics[i]};
	_cleanup_(reftable_releasep) struct reftable guests = {0};
	_cleanup_(reftable_releasep) struct reftable hosts = {0};
	int r = reftable_gather(report, src, 1 + N_BONNIE, cell_in_guest, &guests);
	if (r < 0 ||
	    (r = reftable_gather(report, src, 1 + N_BONNIE, cell_on_host, &hosts)) < 0)
		return r;
	reftable_columns(o, "measure", "unit", "configuration", "guest", "host",
			 "host/guest", NULL);
	for (size_t i = 0; i < guests.n; i++) {
		const struct reftable_row *g = &guests.rows[i];
		const struct reftable_row *h = host_row(&hosts, g);
		for (size_t m = 0; m < 1 + N_BONNIE; m++) {
			if (!g->cell[m])
				continue;
			char c[6][REFTABLE_CELL_MAX];
			snprintf(c[0], sizeof c[0], "%s", measures[m].measure);
			snprintf(c[1], sizeof c[1], "%s", measures[m].unit);
			bonnie_config(g->any, c[2], sizeof c[2]);
			reftable_label_extra(&guests, g, shown, c[2], sizeof c[2]);
			const struct model_cell *hc = h ? h->cell[m] : NULL;
			if (m == 0) {
				dd_value(g->cell[m], 0, c[3], sizeof c[3]);
				dd_value(hc, 0, c[4], sizeof c[4]);
			} else {
				bonnie_value(g->cell[m], m - 1, c[3], sizeof c[3]);
				bonnie_value(hc, m - 1, c[4], sizeof c[4]);
			}
			double gv = reftable_mean(g->cell[m]), hv = reftable_mean(hc);
			if (isfinite(gv) && isfinite(hv) && gv > 0)
				ratio(hv / gv, c[5], sizeof c[5]);
			else
				snprintf(c[5], sizeof c[5], "-");
			reftable_add_row(o, c, 6);
		}
	}
	reftable_note(o, "Measured: the means of the dd cells' dd_mbps "
			 "(10^6 bytes per second, as dd prints MB/s, three "
			 "significant digits) and of the bonnie cells' bonnie++ "
			 "columns, guest cells beside the host baseline cell of "
			 "the same backend (no guest: the cell's guest axis is false). The "
			 "dd workload writes a file, so the study's row for dd "
			 "to the raw device has no measured counterpart.");
	if (!hosts.n)
		reftable_note(o, "This report has no host baseline cells "
				 "([workload] host_baseline): the host column "
				 "is empty.");
	note_if_empty(o, guests.n, "dd or bonnie");
	return 0;
}

/* ---- the studies --------------------------------------------------------- */

static const struct study {
	const char *name;
	int (*measure)(const struct model *report, struct reftable_out *o);
} studies[] = {
	{"kvm-perf-2011", layout_kvm_perf},
	{"bonnie-qcow2-vs-raw", layout_bonnie},
	{"qcow2-l2-cache", layout_qcow2_l2_cache},
	{"guest-vs-host", layout_guest_vs_host},
	{"cache-modes-lvm", layout_cache_modes},
};

static const struct study *study_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof studies / sizeof studies[0]; i++)
		if (strcmp(studies[i].name, name) == 0)
			return &studies[i];
	return NULL;
}

static const char *study_json(const char *name)
{
	for (size_t i = 0; i < n_reference_data; i++)
		if (strcmp(reference_data[i].name, name) == 0)
			return reference_data[i].json;
	return NULL;
}

bool reference_known(const char *name)
{
	return study_find(name) && study_json(name);
}

static void copy_member(json_object *from, const char *key, json_object *to)
{
	json_object *v = NULL;
	json_object_object_get_ex(from, key, &v);
	json_object_object_add(to, key, json_object_get(v));
}

int reference_build(const char *name, const struct model *report, double equivalence,
		    json_object **ret)
{
	const struct study *s = study_find(name);
	const char *text = s ? study_json(name) : NULL;
	if (!text)
		return -ENOENT;
	_cleanup_(json_object_putp) json_object *data = json_tokener_parse(text);
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	if (!data || !o)
		return -ENOMEM;

	json_object_object_add(o, "study", json_object_new_string(name));
	copy_member(data, "title", o);
	copy_member(data, "source", o);
	copy_member(data, "layout", o);
	json_object *published = json_object_new_object();
	copy_member(data, "columns", published);
	copy_member(data, "rows", published);
	json_object_object_add(o, "published", published);

	json_object *notes = json_object_new_array(), *dn;
	if (json_object_object_get_ex(data, "notes", &dn))
		for (size_t i = 0; i < json_object_array_length(dn); i++)
			json_object_array_add(
				notes, json_object_get(json_object_array_get_idx(dn, i)));
	struct reftable_out out = {
		.columns = json_object_new_array(),
		.rows = json_object_new_array(),
		.notes = notes,
		.published = published,
	};
	json_object *measured = json_object_new_object();
	json_object_object_add(measured, "columns", out.columns);
	json_object_object_add(measured, "rows", out.rows);
	json_object_object_add(o, "measured", measured);
	json_object_object_add(o, "notes", notes);
	int r = s->measure(report, &out);
	if (r < 0)
		return r;
	json_object *claims = NULL, *verdicts;
	json_object_object_get_ex(data, "claims", &claims);
	r = claims_judge(claims, report, equivalence, &verdicts);
	if (r < 0)
		return r;
	json_object_object_add(o, "verdicts", verdicts);
	*ret = TAKE_PTR(o);
	return 0;
}

int reference_write_text(json_object *ref, FILE *f)
{
	json_object *t, *notes;
	const char *study = jsonget_string(ref, "study");
	const char *title = jsonget_string(ref, "title");
	const char *source = jsonget_string(ref, "source");

	fprintf(f, "== %s: %s ==\nsource: %s\n\npublished:\n",
		study ? study : "?", title ? title : "", source ? source : "-");
	if (json_object_object_get_ex(ref, "published", &t) &&
	    reftable_write_text(t, "  ", f) < 0)
		return -EIO;
	fputs("\nmeasured here:\n", f);
	if (json_object_object_get_ex(ref, "measured", &t) &&
	    reftable_write_text(t, "  ", f) < 0)
		return -EIO;
	if (json_object_object_get_ex(ref, "notes", &notes) &&
	    json_object_array_length(notes)) {
		fputs("\nnotes:\n", f);
		for (size_t i = 0; i < json_object_array_length(notes); i++)
			fprintf(f, "- %s\n",
				json_object_get_string(
					json_object_array_get_idx(notes, i)));
	}
	json_object *verdicts;
	if (json_object_object_get_ex(ref, "verdicts", &verdicts) &&
	    json_object_array_length(verdicts)) {
		fputs("\nverdicts (docs/results.md, \"Verdicts\"):\n", f);
		for (size_t i = 0; i < json_object_array_length(verdicts); i++) {
			json_object *v = json_object_array_get_idx(verdicts, i), *cmp;
			fprintf(f, "- %s\n  %s\n", jsonget_string(v, "claim") ?: "?",
				jsonget_string(v, "verdict") ?: "?");
			if (json_object_object_get_ex(v, "comparisons", &cmp))
				for (size_t k = 0; k < json_object_array_length(cmp); k++)
					fprintf(f, "  from: %s\n",
						json_object_get_string(
							json_object_array_get_idx(cmp, k)));
		}
	}
	return ferror(f) ? -EIO : 0;
}
