/* The guest agent: PID 1 of the benchmark guest (main.c), its workloads
 * (workload.c) and what they share (agent.c: this header).  Statically
 * linked and free of the project's libraries but a few of lib/'s (libc
 * only): it runs in a bare initramfs.  The protocol it speaks is
 * docs/guest-protocol.md (lib/guestproto.h). */
#ifndef BUILDAPP_AGENT_H
#define BUILDAPP_AGENT_H

#include <stdint.h>

/* Where the disk under test is mounted: AGENT_MNT in the guest; the
 * directory given with --host when the runner runs the agent on the host
 * itself (a host-native baseline cell, docs/guest-protocol.md). */
#define AGENT_MNT "/mnt"
extern const char *agent_mnt;
/* The disk under test's device in the guest (/dev/vda...); NULL on the
 * host, where the runner mounted the guest's filesystem. */
extern const char *agent_disk;

/* Console output: each call writes one whole line with one write(2), so
 * kernel messages can only fall between lines. */
void agent_line(const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void agent_metric(const char *name, double value, const char *unit);
/* Prints an ERROR line and returns -1, for `return agent_error(...)`. */
int agent_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Keeps W when it is a buildapp.KEY=VALUE word (split in place).  Returns
 * 0, or -1 after printing an error (too many). */
int agent_add_param(char *w);
/* Keeps the buildapp.KEY=VALUE words of /proc/cmdline.  Returns 0 or -1
 * after printing an error. */
int agent_read_cmdline(void);
/* buildapp.KEY=VALUE from the kernel command line; NULL when absent. */
const char *agent_param(const char *key);
/* The numeric value of KEY, or DEF when absent.  Bad numbers are errors:
 * returns -1 after printing one. */
int agent_param_u64(const char *key, uint64_t def, uint64_t *ret);

/* Runs ARGV (absolute path) and waits.  With FRAME non-NULL, its stdout
 * is captured and printed as a RAW-BEGIN FRAME / RAW / RAW-END block;
 * otherwise stdout goes to the console.  Returns the exit status (0..255),
 * or -1 after printing an error. */
int agent_run(const char *const *argv, const char *frame);
/* The same, with ENV_EXTRA ("NAME=value", NULL-terminated, at most 15)
 * added to the tools' environment. */
int agent_run_env(const char *const *argv, const char *frame, char *const *env_extra);

#endif
