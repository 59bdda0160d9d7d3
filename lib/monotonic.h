/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seconds on CLOCK_MONOTONIC: for durations (a reset, a phase, a
 * timeout), never for dates.  Used on both sides and in the guest. */
#ifndef BUILDAPP_MONOTONIC_H
#define BUILDAPP_MONOTONIC_H

double monotonic_seconds(void);

#endif
