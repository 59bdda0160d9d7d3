/* Whether KVM really boots a Linux guest on this host.
 *
 * /dev/kvm can open, create VMs and run a few instructions on hosts where a
 * kernel then hangs (nested virtualization without the features it needs).
 * libguestfs would pick KVM there and wait forever, so the builder asks
 * this before every launch. */
#ifndef BUILDAPP_KVMBOOT_H
#define BUILDAPP_KVMBOOT_H

#include <stdbool.h>

/* How long the probe's kernel may take to reach its panic under KVM. */
#define KVMBOOT_TIMEOUT_SECONDS 20

/* True when KERNEL, booted under qemu -accel kvm without a root, reaches
 * its "Kernel panic" on the serial console within TIMEOUT seconds (a
 * second or two where KVM works).  False without a usable /dev/kvm. */
bool kvmboot_probe(const char *kernel, unsigned timeout);

/* Whether this host's launches should use KVM: BUILDAPP_ACCEL=kvm|tcg when
 * set; else the answer kept for this host boot (kvmboot_cached); else
 * kvmboot_probe() on the newest kernel in /boot, whose answer is kept. */
bool kvmboot_host_usable(void);

/* The answer kept until the host reboots, in $XDG_RUNTIME_DIR/buildapp-kvm
 * (or /run/buildapp-kvm as root): 1 KVM boots a kernel here, 0 it does
 * not, -1 not known.  The runner's own boot check reads and keeps it too,
 * so one slow answer is paid once per host boot. */
int kvmboot_cached(void);
void kvmboot_remember(bool kvm);

#endif
