/* The libvirt domain of one benchmark run: a lean transient guest booted
 * straight into a kernel and initramfs, with the disk under test as its
 * only disk.  Built from a plain struct so callers need no XML. */
#ifndef BUILDAPP_DOMAIN_H
#define BUILDAPP_DOMAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile.h"

#define DOMAIN_DISK_SERIAL "buildapp-test"

/* Everything one run's guest needs.  Strings are borrowed, not owned. */
struct vm_spec {
	const char *name;    /* unique per run, e.g. "buildapp-r17" */
	const char *kernel;  /* direct kernel boot */
	/* The firmware QEMU starts first (<loader type='rom'>: -bios), such
	 * as domain_guest_firmware's; NULL: QEMU's own (SeaBIOS). */
	const char *firmware;
	const char *initrd;
	const char *cmdline; /* " panic=-1" is added unless it sets panic= */
	uint64_t memory;     /* bytes */
	unsigned vcpus;
	const char *disk;    /* image file or block device under test */
	enum image_format format;
	enum cache_mode cache;
	enum aio_mode aio;
	enum disk_bus bus;
	/* <metadata_cache><max_size>, which libvirt passes as the qcow2
	 * node's cache-size (qcow2cache.h), bytes; 0: QEMU's default */
	uint64_t metadata_cache;
	const char *serial;  /* disk serial; NULL: DOMAIN_DISK_SERIAL */
	const char *console_log; /* the guest's serial console goes here */
	unsigned timeout;    /* seconds; 0: none (used by vm_run) */
	/* vm_run: track what the guest writes to the disk (dirtymap.h); the
	 * guest is told to halt, not power off, so QEMU outlives it. */
	bool track_writes;
	/* <readonly/>: QEMU opens the disk read-only and the guest cannot
	 * write it (virtio and SCSI: libvirt refuses it on IDE and SATA,
	 * domain_xml -EINVAL). */
	bool read_only;
	/* vm_run: an outcome other than ok is the caller's to report (the
	 * KVM check), not logged as a failed run. */
	bool quiet_failure;
	/* vm_run, for the durability workload: the guest's acknowledgements
	 * are appended to this file as its console shows them (acklog.h);
	 * once CRASH_AFTER are durable, QEMU is killed (SIGKILL).  NULL:
	 * none. */
	const char *ack_log;
	uint64_t crash_after;
	/* Set: the crash at crash_after is the host's, not QEMU's SIGKILL:
	 * called with the acknowledgements made durable, the seconds from
	 * the first to the last and QEMU's pid (which it stops first), it
	 * does not return when the host goes down; it returns a negative
	 * errno (reported) when it cannot, and the run fails with QEMU
	 * killed. */
	int (*crash_host)(void *data, uint64_t acks, double ack_seconds, pid_t qemu);
	void *crash_data;
};

/* Whether a disk on BUS can be read-only (vm_spec.read_only). */
bool domain_read_only_bus(enum disk_bus bus);

/* The domain XML for SPEC, of type kvm when KVM is true, else qemu (TCG).
 * On success *ret_xml is a malloc'd string the caller frees.  Returns 0,
 * -EINVAL for a spec that cannot be expressed (missing path, a string
 * that is not valid UTF-8 or holds control characters, metadata_cache on
 * a raw disk), or -ENOMEM. */
int domain_xml(const struct vm_spec *spec, bool kvm, char **ret_xml);

/* The benchmark guests' firmware: QEMU's qboot (/usr/share/qemu/qboot.rom,
 * a minimal firmware for a direct kernel boot: it skips SeaBIOS's
 * device set-up, 0.5 s of a guest's 7 s boot under one level of TCG)
 * where it is installed, else NULL (SeaBIOS).
 * BUILDAPP_GUEST_FIRMWARE=seabios in the environment: NULL (the baseline
 * of scripts/bench-guestboot.sh). */
const char *domain_guest_firmware(void);

/* The guest device name of the disk on BUS ("vda", "sda", "hda"). */
const char *domain_target_dev(enum disk_bus bus);

#endif
