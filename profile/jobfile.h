/* [workload] fio_job: a user's fio job file, checked when the profile is
 * loaded so that a kit never carries one that does anything on the lab
 * server but I/O to its target, or one its guests cannot run.  The kit
 * fills in the target and the fio knobs through environment variables
 * (fio expands ${NAME} in a job file; lib/guestproto.h lists them) and
 * gives every job its fio settings on fio's command line (lib/fioargs.h),
 * which a job overrides only by setting the option itself.  Builder-side
 * only (libprofile-build.a): it runs fio. */
#ifndef BUILDAPP_JOBFILE_H
#define BUILDAPP_JOBFILE_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"

#define JOBFILE_MAX_BYTES (64 * 1024)

/* Checks the job file PATH against profile P ([workload] fio_target and
 * the fio knobs), first on its own (jobscan.h: the options it may have,
 * with their real line numbers), then with FIO --parse-only, given the
 * kit's settings as the guests give them, once per level of each swept
 * knob (the others at their first level).  Returns 0, or -EINVAL with
 * one line in WHY that names the file and, where there is one, its line
 * (fio's own message passed through), or another negative errno with WHY
 * (the file or fio cannot be read or run). */
int jobfile_check(const char *path, const struct profile *p, const char *fio,
		  char *why, size_t why_len);

/* Whether FIO (fio --enghelp) has every engine of [workload]
 * fio_ioengine (auto: psync and libaio).  Returns 0, or -EINVAL (or the
 * errno of a fio that does not run) with WHY naming the engine. */
int jobfile_check_engines(const struct profile *p, const char *fio, char *why,
			  size_t why_len);

/* [workload] fio_steadystate: a spec fio takes (our reading of it, then
 * FIO --parse-only with the kit's settings), with a duration that fits in
 * fio_runtime.  Returns 0, or -EINVAL with WHY; a fio that cannot be run
 * is not asked. */
int jobfile_check_steadystate(const struct profile *p, const char *fio, char *why,
			      size_t why_len);

/* Writes to F what each fio job of P will do: its direct, fsync, runtime,
 * ramp and steady state, and where each comes from (the profile's key or
 * the job file's line); the built-in job's when there is no job file.
 * Returns 0 or -EIO. */
int jobfile_describe(const struct profile *p, FILE *f);

#endif
