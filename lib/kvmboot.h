/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether KVM is used on this host: decided here and only here, for
 * libguestfs' launches (the builder) and libvirt's guests (the runner).
 *
 * /dev/kvm can open, create VMs and run a few instructions on hosts where a
 * kernel then hangs (nested virtualization without the features it needs).
 * libguestfs would pick KVM there and wait forever, so the answer comes
 * from booting a kernel, kept until the host reboots. */
#ifndef BUILDAPP_KVMBOOT_H
#define BUILDAPP_KVMBOOT_H

#include <stdbool.h>

/* How long the probe's kernel may take to reach its panic under KVM. */
#define KVMBOOT_TIMEOUT_SECONDS 20

/* BUILDAPP_ACCEL, the user's word over every probe: its one reader. */
enum kvmboot_accel {
	KVMBOOT_ACCEL_AUTO, /* unset, empty or "auto" */
	KVMBOOT_ACCEL_KVM,
	KVMBOOT_ACCEL_TCG,
};
/* Returns the enum kvmboot_accel, or -EINVAL after reporting a value that
 * is none of auto, kvm, tcg. */
int kvmboot_env_accel(void);

/* True when this host is itself a guest of QEMU's TCG (CPUID's hypervisor
 * leaf says "TCGTCGTCGTCG"): a virtual lab server.  Its KVM is TCG's
 * emulation of SVM, where a nested guest never finished a run and KVM
 * VMs made and destroyed now and then wedge the kernel (docs/testing.md):
 * kvmboot_decide answers TCG there. */
bool kvmboot_host_emulated(void);

/* True when this process can really use KVM: /dev/kvm opens, and a VM
 * with one vCPU runs a few real-mode instructions (the node alone proves
 * nothing in containers and nested guests).  Not proof that a Linux guest
 * boots: a broken nested KVM passes this and still hangs a kernel. */
bool kvmboot_dev_usable(void);

enum kvmboot_answer {
	KVMBOOT_TCG,
	KVMBOOT_KVM,
	KVMBOOT_KVM_UNCHECKED, /* usable, but no kernel was booted under it yet */
};
/* The one rule: BUILDAPP_ACCEL=kvm|tcg when set; else TCG on a host
 * emulated by TCG (kvmboot_host_emulated) or where kvmboot_dev_usable()
 * is false; else the answer kept for this host boot
 * (kvmboot_cached); else KVMBOOT_KVM_UNCHECKED: the caller boots a kernel
 * its own way (kvmboot_probe, or the runner's check through libvirt) and
 * keeps the answer (kvmboot_remember).  Returns the enum kvmboot_answer
 * or -EINVAL (BUILDAPP_ACCEL, reported). */
int kvmboot_decide(void);

/* True when KERNEL, booted under qemu -accel ACCEL without a root,
 * reaches its "Kernel panic" on the serial console within TIMEOUT
 * seconds.  qemu-system-x86_64 is looked up in PATH. */
bool kvmboot_boots(const char *kernel, const char *accel, unsigned timeout);

/* True when KERNEL, booted under qemu -accel kvm without a root, reaches
 * its "Kernel panic" on the serial console within TIMEOUT seconds (a
 * second or two where KVM works): kvmboot_boots after kvmboot_dev_usable,
 * without starting qemu when that is false. */
bool kvmboot_probe(const char *kernel, unsigned timeout);

/* Whether this host's libguestfs launches use KVM: kvmboot_decide(), with
 * kvmboot_probe() on the newest kernel in /boot when it is unchecked (the
 * answer is kept).  Returns 1, 0, or -EINVAL (BUILDAPP_ACCEL, reported). */
int kvmboot_host_usable(void);

/* The answer kept until the host reboots, in $XDG_RUNTIME_DIR/buildapp-kvm
 * (or /run/buildapp-kvm as root): 1 KVM boots a kernel here, 0 it does
 * not, -1 not known.  The runner's own boot check reads and keeps it too,
 * so one slow answer is paid once per host boot. */
int kvmboot_cached(void);
void kvmboot_remember(bool kvm);

#endif
