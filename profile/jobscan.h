/* A fio job file read the way fio reads it (fio 3.33: sections in order,
 * each job a copy of the [global] options before it, an inline ';' or
 * '#' starting a comment), against the options a job file may have: those
 * that shape the I/O on its target, and no other (docs/plan.md lists them
 * and why the others are left out).  What it learns of each job is what
 * the checks against the profile (jobfile.c) and `buildapp plan` need.
 * Builder-side only (libprofile-build.a). */
#ifndef BUILDAPP_JOBSCAN_H
#define BUILDAPP_JOBSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "guestproto.h"

#define JOBSCAN_MAX_JOBS 8

/* The variables the kit sets (lib/guestproto.h), as an index. */
#define JOBSCAN_VAR_ITEM(name, doc) JOBVAR_##name,
enum jobscan_var { GUESTPROTO_JOB_VARS(JOBSCAN_VAR_ITEM) _JOBVAR_MAX };
#undef JOBSCAN_VAR_ITEM

/* The options of a job the kit has a say in too. */
enum jobscan_knob {
	JOBKNOB_DIRECT,     /* direct, or buffered (its opposite: kept as direct) */
	JOBKNOB_FSYNC,      /* fsync */
	JOBKNOB_RUNTIME,    /* runtime, timeout */
	JOBKNOB_TIME_BASED, /* time_based */
	JOBKNOB_RAMP,       /* ramp_time */
	JOBKNOB_NUMJOBS,
	JOBKNOB_IOENGINE,
	JOBKNOB_IODEPTH,
	JOBKNOB_RW,         /* rw, readwrite */
	JOBKNOB_SS,         /* steadystate, ss */
	JOBKNOB_SS_DUR,     /* ss_dur, steadystate_duration: 0 turns it off */
	_JOBKNOB_MAX
};

/* One such option as a job has it, from its own section or a [global]
 * before it. */
struct jobscan_setting {
	unsigned line;  /* 0: the file does not set it */
	int var;        /* the variable it is (${BUILDAPP_...}), or -1 */
	char value[48]; /* as written (cut), "1" for a bare boolean */
};

struct jobscan_job {
	char name[GUESTPROTO_JOB_NAME_MAX + 1];
	unsigned line;        /* of its [name] */
	unsigned group;       /* fio's groupid, from 0 */
	bool target;          /* filename= or directory= the kit fills in */
	bool group_reporting; /* set for it */
	bool new_group;       /* stonewall, wait_for_previous or new_group */
	bool unreported;      /* stats=0: runs, reports nothing (a prefill) */
	char flushes[96];     /* fdatasync, end_fsync... as written, or "" */
	struct jobscan_setting knob[_JOBKNOB_MAX];
};

struct jobscan {
	struct jobscan_job jobs[JOBSCAN_MAX_JOBS];
	size_t n_jobs;
	bool used[_JOBVAR_MAX]; /* the variables the file names */
};

/* Reads TEXT, the job file PATH (for messages), into *RET.  DEVICE:
 * fio runs on the disk itself (no work directory).  Returns 0, or -EINVAL
 * with one line in WHY: "'PATH' line N: OPTION: ..." (N counts every
 * line, blank ones too). */
int jobscan_text(const char *path, const char *text, bool device, struct jobscan *ret,
		 char *why, size_t why_len);

/* Writes "'PATH' line LINE: " (no line when 0) and FMT's text into WHY;
 * returns -EINVAL, for `return jobscan_refuse(...)`. */
int jobscan_refuse(char *why, size_t why_len, const char *path, unsigned line,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The engines a job file may name (NULL-terminated): those that read and
 * write the target with the kernel's own calls. */
extern const char *const jobscan_engines[];

#endif
