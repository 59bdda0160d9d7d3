/* The kit's fio settings as fio's own options: what every job of a run
 * gets unless it sets the option itself.  One mapping for the three
 * places that need it: the guest agent (from the kernel command line),
 * the profile's job-file check (fio --parse-only with the same options)
 * and `buildapp plan` (what each job will do).  libc only: the statically
 * linked agent has it too. */
#ifndef BUILDAPP_FIOARGS_H
#define BUILDAPP_FIOARGS_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many options, each at most FIOARGS_LEN bytes with the NUL. */
#define FIOARGS_MAX 10
#define FIOARGS_LEN 96
/* A steadystate spec: "iops_slope:0.1%" and the like. */
#define FIOARGS_SS_MAX 48

struct fioargs {
	bool direct;          /* direct=1: O_DIRECT */
	unsigned fsync;       /* fsync every N writes; 0: none */
	unsigned runtime;     /* seconds, time_based; 0: until the size is done */
	unsigned ramp;        /* ramp_time: seconds run before fio measures */
	char ss[FIOARGS_SS_MAX]; /* fio's steadystate= spec; "": none */
	unsigned ss_dur;      /* ss_dur: the window steady state is judged over */
	unsigned ss_ramp;     /* ss_ramp: seconds before the window starts */
};

/* Fills OUT with A as fio's global options ("--direct=1", ...), those at
 * fio's own default left out, and "--lat_percentiles=1" (total latency's
 * percentiles beside completion latency's).  Returns how many. */
size_t fioargs_globals(const struct fioargs *a, char out[][FIOARGS_LEN]);

/* Whether SPEC is a steadystate spec fio takes: iops, iops_slope, bw or
 * bw_slope, a colon, a number not below 0, an optional '%' (fio's
 * str_steadystate_cb; fio takes a negative number, which no run ever
 * meets).  On false, WHY (if not NULL) says what is wrong. */
bool fioargs_steadystate_ok(const char *spec, char *why, size_t why_len);

#endif
