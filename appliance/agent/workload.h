/* The workloads of the guest agent, each on the disk under test mounted
 * at agent_mnt (or, for fio with buildapp.fio_target=device, the disk
 * itself).  Timed workloads print METRIC lines; fio and bonnie++ print
 * their raw output, which the host parses (runner/results.c). */
#ifndef BUILDAPP_WORKLOAD_H
#define BUILDAPP_WORKLOAD_H

#include <stdbool.h>

/* Runs workload KIND; returns 0 or -1 after printing an error. */
int workload_run(const char *kind);
/* Whether workload KIND runs on the disk itself, nothing mounted on it
 * (fio with buildapp.fio_target=device). */
bool workload_on_device(const char *kind);

#endif
