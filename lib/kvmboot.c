/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kvmboot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "command.h"
#include "dirs.h"
#include "kernel.h"
#include "log.h"

/* Runs "mov al, 0x42; out 0x10, al; hlt" in a real-mode vCPU: KVM is
 * usable when that comes back as the port write and the halt. */
static bool kvm_run_probe(int kvm, int vm)
{
	static const unsigned char code[] = {0xb0, 0x42, 0xe6, 0x10, 0xf4};
	const size_t page = 0x1000;
	bool ok = false;

	unsigned char *mem = mmap(NULL, page, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return false;
	memcpy(mem, code, sizeof code);
	struct kvm_userspace_memory_region region = {
		.guest_phys_addr = page,
		.memory_size = page,
		.userspace_addr = (uintptr_t)mem,
	};
	_cleanup_close_ int vcpu = -1;
	int run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0 ||
	    (vcpu = ioctl(vm, KVM_CREATE_VCPU, 0)) < 0 || run_size <= 0)
		goto out;
	struct kvm_run *run = mmap(NULL, (size_t)run_size,
				   PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		goto out;
	struct kvm_sregs sregs;
	struct kvm_regs regs = {.rip = page, .rflags = 2};
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		goto unmap;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0 ||
	    ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
		goto unmap;
	if (ioctl(vcpu, KVM_RUN, 0) < 0 || run->exit_reason != KVM_EXIT_IO ||
	    run->io.port != 0x10 ||
	    *((unsigned char *)run + run->io.data_offset) != 0x42)
		goto unmap;
	ok = ioctl(vcpu, KVM_RUN, 0) == 0 && run->exit_reason == KVM_EXIT_HLT;
unmap:
	munmap(run, (size_t)run_size);
out:
	munmap(mem, page);
	return ok;
}

static bool kvm_probe(void)
{
	_cleanup_close_ int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (ioctl(fd, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
		return false;
	_cleanup_close_ int vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm < 0)
		return false;
	return kvm_run_probe(fd, vm);
}

bool kvmboot_host_emulated(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13];

	/* The hypervisor bit, then its vendor leaf. */
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return false;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	return strcmp(vendor, "TCGTCGTCGTCG") == 0;
#else
	return false;
#endif
}

bool kvmboot_dev_usable(void)
{
	/* Not cached: a few ioctls, and the device may come and go
	 * (modprobe kvm_intel, a container's /dev). */
	return kvm_probe();
}

int kvmboot_env_accel(void)
{
	const char *env = getenv("BUILDAPP_ACCEL");

	if (!env || !*env || strcmp(env, "auto") == 0)
		return KVMBOOT_ACCEL_AUTO;
	if (strcmp(env, "kvm") == 0)
		return KVMBOOT_ACCEL_KVM;
	if (strcmp(env, "tcg") == 0)
		return KVMBOOT_ACCEL_TCG;
	return log_error_code(-EINVAL,
			       "BUILDAPP_ACCEL='%s': unknown value; one of: auto, kvm, tcg",
			       env);
}

bool kvmboot_boots(const char *kernel, const char *accel, unsigned timeout)
{
	char *argv[] = {
		"qemu-system-x86_64", "-accel", (char *)accel, "-M", "q35", "-m", "256",
		"-nodefaults", "-display", "none", "-no-reboot",
		"-serial", "stdio", "-monitor", "none",
		"-kernel", (char *)kernel,
		"-append", "console=ttyS0 panic=-1 root=/dev/nonexistent",
		NULL,
	};
	struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .max = 1 << 20,
				 .timeout = timeout};
	struct command_result res = {0};

	command_spawn(argv, &o, &res);
	bool boots = res.out && strstr(res.out, "Kernel panic");
	free(res.out);
	return boots;
}

bool kvmboot_probe(const char *kernel, unsigned timeout)
{
	return kvmboot_dev_usable() && kvmboot_boots(kernel, "kvm", timeout);
}

static const char *cache_dir(void)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	if (!dir || !*dir)
		dir = geteuid() == 0 ? "/run" : NULL;
	return dir;
}

static const char *cache_file(char *buf, size_t len)
{
	const char *dir = cache_dir();

	if (!dir || (size_t)snprintf(buf, len, "%s/buildapp-kvm", dir) >= len)
		return NULL;
	return buf;
}

int kvmboot_cached(void)
{
	char path[PATH_MAX], word[8] = "";
	const char *file = cache_file(path, sizeof(path));
	_cleanup_(fclosep) FILE *f = file ? fopen(file, "re") : NULL;

	if (!f || !fgets(word, sizeof(word), f))
		return -1;
	if (strcmp(word, "kvm\n") == 0)
		return 1;
	return strcmp(word, "tcg\n") == 0 ? 0 : -1;
}

static int write_answer(const void *kvm, FILE *f)
{
	return fputs(*(const bool *)kvm ? "kvm\n" : "tcg\n", f) < 0 ? -EIO : 0;
}

void kvmboot_remember(bool kvm)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	const char *file = cache_file(path, sizeof(path));

	/* A temporary of its own (.PID): two builds may probe at once. */
	if (!file || (size_t)snprintf(tmp, sizeof(tmp), "%s.%d", file, (int)getpid()) >= sizeof(tmp))
		return;
	/* XDG_RUNTIME_DIR may name a directory nobody has made yet. */
	if (dirs_make(cache_dir(), 0755) < 0)
		return;
	if (atomicfile_write_tmp(tmp, write_answer, &kvm) == 0 && rename(tmp, file) < 0)
		unlink(tmp);
}

int kvmboot_decide(void)
{
	int accel = kvmboot_env_accel();

	if (accel < 0)
		return accel;
	if (accel == KVMBOOT_ACCEL_KVM)
		return KVMBOOT_KVM;
	if (accel == KVMBOOT_ACCEL_TCG || kvmboot_host_emulated() || !kvmboot_dev_usable())
		return KVMBOOT_TCG;
	switch (kvmboot_cached()) {
	case 1:
		return KVMBOOT_KVM;
	case 0:
		return KVMBOOT_TCG;
	default:
		return KVMBOOT_KVM_UNCHECKED;
	}
}

int kvmboot_host_usable(void)
{
	static int answer = -1;
	char kernel[PATH_MAX], version[256];
	int r = kvmboot_decide();

	if (r < 0)
		return r;
	if (r != KVMBOOT_KVM_UNCHECKED)
		return r == KVMBOOT_KVM;
	if (answer >= 0)
		return answer;
	log_info("checking that KVM boots a kernel here (at most %d s)",
		 KVMBOOT_TIMEOUT_SECONDS);
	answer = kernel_default(kernel, sizeof(kernel), version, sizeof(version)) == 0 &&
		 kvmboot_probe(kernel, KVMBOOT_TIMEOUT_SECONDS);
	if (!answer)
		log_info("KVM does not boot a kernel here: using TCG");
	kvmboot_remember(answer);
	return answer;
}
