/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model of docs/report.md as C structures: what report.json
 * holds, read by the renderers through members the compiler checks
 * instead of string keys.  A model owns everything it points to (strings,
 * arrays, the JSON documents it keeps) and is freed by model_free. */
#ifndef BUILDAPP_MODEL_H
#define BUILDAPP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cleanup.h"

struct json_object;

/* A cell's value of one axis, typed as the plan writes it (a name, a
 * yes/no, a size in bytes, or null for an axis the cell does not have). */
enum model_value_kind {
	MODEL_VALUE_NULL,
	MODEL_VALUE_STRING,
	MODEL_VALUE_BOOL,
	MODEL_VALUE_INT,
};

struct model_axis_value {
	char *axis;
	enum model_value_kind kind;
	char *string;	/* MODEL_VALUE_STRING */
	bool boolean;	/* MODEL_VALUE_BOOL */
	int64_t integer; /* MODEL_VALUE_INT */
	/* The value as its JSON text reads (l2_cache's bytes in digits,
	 * true/false), NULL for null. */
	char *text;
};

/* One ok run's value of a cell's metric. */
struct model_run {
	unsigned index;
	double value;
	bool first;
};

/* A ratio of geometric means with its interval (NAN: none). */
struct model_ratio {
	double ratio, low, high;
};

/* A cell against the same cell of the --baseline bundle. */
struct model_cell_baseline {
	struct model_ratio r;
	bool worse;
};

/* One crash of a durability cell (one of its ok runs that acknowledged
 * records), with what the journal recorded of its host's crash. */
struct model_crash {
	unsigned index;
	double lost, acknowledged, fraction;
	bool has_host_crash; /* the journal's host_crash (docs/results.md) */
	char *mechanism, *fallback, *disk_write_cache; /* NULL: null */
	char *bmc; /* a power cut's BMC and how it was asked; NULL: none */
	double dirty_kib, writeback_kib;	       /* NAN: null */
	/* The steps before the trigger, each the seconds from the crash
	 * point to its end (runner/crashsteps.h); NAN: null. */
	double qemu_stopped_seconds, writeback_stopped_seconds;
	double results_synced_seconds, facts_read_seconds;
	double to_kernel_seconds, to_sweep_seconds;    /* NAN: null */
};

/* What a durability cell's crashes lost, the crash as its unit
 * (lib/crashloss.h): on the cells of its workload's "lost" metric. */
struct model_loss {
	char *crash; /* "guest" or "host" */
	unsigned crashes, lost_any;
	double low, high; /* of lost_any of crashes, exact 95% */
	/* of the crashes' fractions of acknowledged records lost; the
	 * mean's interval NAN below 10 crashes */
	double median, min, max, mean, mean_low, mean_high;
	struct model_crash *runs;
	size_t n_runs;
};

struct model_cell {
	char *id, *host;
	struct model_axis_value *axes;
	size_t n_axes;
	char *group, *label, *display;
	unsigned n;
	double mean, sd, ci_low, ci_high; /* NAN: null */
	bool too_few_runs;
	struct model_run *runs;
	size_t n_runs;
	unsigned failed, cache_mismatches;
	bool has_baseline;
	struct model_cell_baseline baseline;
	struct model_loss *loss; /* NULL: not a loss (see struct model_loss) */
};

/* An axis held by a comparison, at the level both cells have. */
struct model_held {
	char *axis, *level;
};

struct model_comparison {
	char *axis, *level, *reference;
	struct model_held *held;
	size_t n_held;
	/* Axes only one side has (raw has no l2_cache), at that side's
	 * level: the sentence's "l2_cache=16K". */
	struct model_held *at;
	size_t n_at;
	bool pooled;
	unsigned strata;
	struct model_ratio r;
	double df;
	unsigned n_level, n_reference;
	bool shown, better;
	/* A pair with a side that has no ok run ("measured": false). */
	bool unmeasured;
	/* No run varied at the resolution the values were recorded to
	 * (compare.h's no_spread): no interval, not shown.  RESOLUTION is
	 * that resolution (0.001: milliseconds of seconds), NAN when the
	 * values show none. */
	bool no_spread;
	double resolution;
	/* Pooled: its pairs were shown to go different ways (one better,
	 * one worse; or one against the mean's way), so it is not shown and
	 * gives no answer ("settings_disagree"). */
	bool disagree;
	char *sentence;
};

/* One side of a loss comparison: its crashes that lost, with their
 * interval, and the range of the crashes' fractions lost. */
struct model_loss_side {
	unsigned crashes, lost_any;
	double low, high, min, max;
};

/* A level's loss against its reference's, the crash as the unit: the
 * crashes that lost on either side compared by an exact test (Boschloo's;
 * pooled, the pairs as the strata of an exact conditional test, their
 * sides L and R then empty) (docs/results.md, "Loss by crash"). */
struct model_loss_comparison {
	char *axis, *level, *reference;
	char *crash; /* "host", "guest" */
	struct model_held *held, *at; /* as a model_comparison's */
	size_t n_held, n_at;
	bool pooled;
	unsigned strata;
	struct model_loss_side l, r;
	/* "Boschloo's exact test"; pooled, "exact Mantel-Haenszel test"
	 * (lib/crashloss.h) */
	char *test;
	double p;     /* two-sided; NAN: no answer (DISAGREE) */
	bool shown;   /* p <= 0.05 */
	/* Pooled: the pairs' own directions differ (one setting's level
	 * lost in more crashes, another's reference), so no answer is given
	 * over them. */
	bool disagree;
	/* Not shown, a pair: the fewest crashes a side that would show a
	 * difference at these proportions; 0: none would; 1001: more than
	 * 1000.  Not estimated pooled. */
	unsigned resolve;
	char *sentence;
};

/* A server whose results stand out from the others' (report_rack.c). */
struct model_outlier {
	char *host, *cell, *workload, *metric;
	double mean, ci_low, ci_high;
	unsigned others;
	double others_mean, others_ci_low, others_ci_high;
	bool worse;
	char *sentence;
};

struct model_metric {
	char *name, *unit;
	bool lower_is_better;
	struct model_cell *cells;
	size_t n_cells;
	struct model_comparison *comparisons;
	size_t n_comparisons;
	struct model_outlier *outliers;
	size_t n_outliers;
	/* The "lost" metric of a durability workload: each level's loss
	 * against its reference's (report_loss.c). */
	struct model_loss_comparison *loss_comparisons;
	size_t n_loss_comparisons;
};

struct model_workload {
	char *name;
	struct model_metric *metrics;
	size_t n_metrics;
};

/* The sweep's measuring time over its wall time (timings.json). */
struct model_efficiency {
	double ratio, measured_seconds, wall_seconds;
	unsigned sessions;
};

struct model_host {
	char *label, *source;
	/* The bundle's host.json as it was read (a reference), or NULL. */
	struct json_object *info;
	unsigned runs, failed;
	/* The runs its plan.json holds (total_runs); 0: no plan in the bundle. */
	unsigned planned;
	bool has_efficiency;
	struct model_efficiency efficiency;
};

/* A profile key whose value differs from the first bundle's plan's. */
struct model_plan_difference {
	char *host, *key, *value, *reference_value;
};

struct model_axis {
	char *name;
	char **levels;
	size_t n_levels;
	char *reference;
};

struct model_failure {
	char *host, *cell, *status, *message;
	unsigned index;
	char *console_log; /* NULL: no console log kept */
};

/* A cell metric significantly worse than the baseline's. */
struct model_worse {
	struct model_ratio r;
	char *host, *cell, *metric;
};

struct model {
	char *format; /* "buildapp-report" */
	unsigned version;
	double confidence;
	char *title, *method;
	char **headlines;
	size_t n_headlines;
	/* The first n_asked headlines answer the profile's [report] compare
	 * (its questions, in its order); the others are every other axis's. */
	size_t n_asked;
	struct model_workload *workloads;
	size_t n_workloads;
	struct model_plan_difference *plan_differences;
	size_t n_plan_differences;
	struct model_host *hosts;
	size_t n_hosts;
	struct model_axis *axes;
	size_t n_axes;
	struct model_failure *failures;
	size_t n_failures;
	struct model_outlier *outliers;
	size_t n_outliers;
	bool has_baseline;
	char *baseline_source;
	struct model_worse *worse;
	size_t n_worse;
	/* The studies' tables (reference.c's form), a reference, or NULL. */
	struct json_object *references;
};

/* The model O (report.json's form, docs/report.md) as structures, a new
 * one in *RET; members O leaves out read as empty (NULL, NAN, 0, false).
 * Returns 0, -EINVAL when O is not a model of format "buildapp-report"
 * version 1 with a list of workloads, or -ENOMEM. */
int model_from_json(struct json_object *o, struct model **ret);

/* M as report.json holds it (docs/report.md): a new tree in *RET, whose
 * member order and number forms are report.json's.  Returns 0 or -ENOMEM. */
int model_to_json(const struct model *m, struct json_object **ret);

/* A cell's axis values from AXES, an object of a plan cell's members
 * (plan_cell_to_json's form), into a new array in *RET (N of them), and
 * back into a new object.  Return 0 or -ENOMEM; NULL when out of memory. */
int model_axes_from_json(struct json_object *axes, struct model_axis_value **ret, size_t *n);
struct json_object *model_axes_to_json(const struct model_axis_value *axes, size_t n);

/* The loss members of the model: a cell's "loss" and a metric's
 * "loss_comparisons" as report.json holds them (model_json.c), read back
 * (model.c; a new loss in *RET, NULL for none or null), and freed (NULL
 * is nothing to do).  Return NULL, or set *OOM, when out of memory. */
struct json_object *model_loss_to_json(const struct model_loss *l);
void model_loss_from_json(struct json_object *o, struct model_loss **ret, bool *oom);
void model_loss_free(struct model_loss *l);
struct json_object *model_loss_comparisons_to_json(const struct model_loss_comparison *c,
						   size_t n);
struct model_loss_comparison *model_loss_comparisons_from_json(struct json_object *a,
								size_t *n, bool *oom);
void model_loss_comparisons_free(struct model_loss_comparison *c, size_t n);
/* HELD[0..N) as an {axis: level} object (a new reference), read back
 * from O into *RET (N of them; *OOM set when out of memory), and freed. */
struct json_object *model_held_to_json(const struct model_held *held, size_t n);
void model_held_from_json(struct json_object *o, struct model_held **ret, size_t *n,
			  bool *oom);
void model_held_free(struct model_held *held, size_t n);

/* Cell C as the tables of its crashes name it: its group and label
 * ("raw / unsafe"), a label "-" (an axis it does not have) left out,
 * into BUF of SIZE bytes. */
void model_cell_name(const struct model_cell *c, char *buf, size_t size);

/* Whether L counts power cuts: its crash is "power" (crashloss_unit():
 * "cut", "cuts"). */
bool model_loss_cuts(const struct model_loss *l);

/* Whether M's loss counts power cuts: every cell with a loss does
 * (model_loss_cuts); false without any. */
bool model_metric_cuts(const struct model_metric *m);

/* The steps before a crash's trigger, in their order: step I's name
 * ("QEMU stopped"), and crash C's seconds from its crash point to the
 * step's end (NAN: not on record). */
#define MODEL_CRASH_STEPS 4
const char *model_crash_step_name(size_t i);
double model_crash_step_seconds(const struct model_crash *c, size_t i);

/* Crash C's steps before its trigger, each at its time from the crash
 * point ("QEMU stopped at 12.0 ms, writeback stopped at 13.0 ms, RESULTS
 * synced at 41.0 ms, facts read at 43.0 ms"), the ones on record, into
 * BUF of SIZE bytes.  False, BUF "", when none is. */
bool model_crash_steps(const struct model_crash *c, char *buf, size_t size);

/* One more zeroed entry of SIZE bytes at the end of the array *ARRAY (N
 * of them, counted): a pointer to it, or NULL when out of memory.  Earlier
 * pointers into the array no longer hold. */
void *model_push(void *array, size_t *n, size_t size);
#define MODEL_PUSH(arr, n) ((__typeof__(&(arr)[0]))model_push(&(arr), &(n), sizeof((arr)[0])))
/* A copy of S added to the string array *ARRAY (N of them).  Returns 0 or
 * -ENOMEM. */
int model_push_string(char ***array, size_t *n, const char *s);
/* Frees the N strings of S and S. */
void model_strings_free(char **s, size_t n);

/* Frees M and all it owns; NULL is nothing to do. */
void model_free(struct model *m);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct model, model_free)

#endif
