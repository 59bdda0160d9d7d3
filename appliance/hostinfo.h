/* host.json: what a bundle says about the host its sweep ran on (CPU,
 * memory, the disk under test and its write cache, kernel, QEMU and
 * libvirt versions, KVM or TCG, the kit and the plan), documented in
 * docs/report.md.  Written into the results directory when a sweep
 * starts, read back by the report. */
#ifndef BUILDAPP_HOSTINFO_H
#define BUILDAPP_HOSTINFO_H

struct json_object;

/* Reads DIR/host.json into *ret (a new reference; NULL when the file does
 * not exist).  Returns 0, or -EBADMSG for a file that is not a host.json
 * (reported). */
int hostinfo_read(const char *dir, struct json_object **ret);

#endif
