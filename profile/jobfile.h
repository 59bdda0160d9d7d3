/* [workload] fio_job: a user's fio job file, checked when the profile is
 * loaded so that a kit never carries one its guests cannot run.  The kit
 * fills in the target and the fio knobs through environment variables
 * (fio expands ${NAME} in a job file; lib/guestproto.h lists them), so
 * the file must name its target through them and nothing the guest does
 * not have.  Builder-side only (libprofile-build.a): it runs fio. */
#ifndef BUILDAPP_JOBFILE_H
#define BUILDAPP_JOBFILE_H

#include <stddef.h>

#include "profile.h"

#define JOBFILE_MAX_BYTES (64 * 1024)
/* Each job reports up to 12 metrics (results.h counts them). */
#define JOBFILE_MAX_JOBS 8
/* A job's name is part of its metrics' names (fio_NAME_read_iops). */
#define JOBFILE_NAME_MAX 32

/* Checks the job file PATH against profile P ([workload] fio_target and
 * the fio knobs it sweeps), then runs FIO --parse-only on it once per
 * level of each swept knob (the others at their first level).  Returns 0,
 * or -EINVAL with one line in WHY that names the file and, where there is
 * one, its line (fio's own message passed through), or another negative
 * errno with WHY (the file or fio cannot be read or run). */
int jobfile_check(const char *path, const struct profile *p, const char *fio,
		  char *why, size_t why_len);

/* Whether FIO (fio --enghelp) has every engine of [workload]
 * fio_ioengine (auto: psync and libaio).  Returns 0, or -EINVAL (or the
 * errno of a fio that does not run) with WHY naming the engine. */
int jobfile_check_engines(const struct profile *p, const char *fio, char *why,
			  size_t why_len);

#endif
