#include "kvmboot.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "dirs.h"
#include "kernel.h"
#include "log.h"

bool kvmboot_probe(const char *kernel, unsigned timeout)
{
	char seconds[16], *out = NULL;
	bool boots;

	if (access("/dev/kvm", R_OK | W_OK) < 0)
		return false;
	snprintf(seconds, sizeof(seconds), "%u", timeout);
	char *argv[] = {
		"timeout", "--kill-after=5", seconds,
		"qemu-system-x86_64", "-accel", "kvm", "-M", "q35", "-m", "256",
		"-nodefaults", "-display", "none", "-no-reboot",
		"-serial", "stdio", "-monitor", "none",
		"-kernel", (char *)kernel,
		"-append", "console=ttyS0 panic=-1 root=/dev/nonexistent",
		NULL,
	};
	command_capture(argv, NULL, 1 << 20, &out);
	boots = out && strstr(out, "Kernel panic");
	free(out);
	return boots;
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

void kvmboot_remember(bool kvm)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	const char *file = cache_file(path, sizeof(path));

	if (!file || (size_t)snprintf(tmp, sizeof(tmp), "%s.%d", file, (int)getpid()) >= sizeof(tmp))
		return;
	/* XDG_RUNTIME_DIR may name a directory nobody has made yet. */
	if (dirs_make(cache_dir(), 0755) < 0)
		return;
	FILE *f = fopen(tmp, "we");
	if (!f)
		return;
	int ok = fputs(kvm ? "kvm\n" : "tcg\n", f) >= 0;
	if (fclose(f) != 0 || !ok || rename(tmp, file) < 0)
		unlink(tmp);
}

bool kvmboot_host_usable(void)
{
	static int cached = -1;
	const char *env = getenv("BUILDAPP_ACCEL");
	char kernel[PATH_MAX], version[256];

	if (env && strcmp(env, "kvm") == 0)
		return true;
	if (env && strcmp(env, "tcg") == 0)
		return false;
	if (cached >= 0)
		return cached;
	if (access("/dev/kvm", R_OK | W_OK) < 0)
		return (cached = 0);
	cached = kvmboot_cached();
	if (cached >= 0)
		return cached;
	log_info("checking that KVM boots a kernel here (at most %d s)",
		 KVMBOOT_TIMEOUT_SECONDS);
	cached = kernel_default(kernel, sizeof(kernel), version, sizeof(version)) == 0 &&
		 kvmboot_probe(kernel, KVMBOOT_TIMEOUT_SECONDS);
	if (!cached)
		log_info("KVM does not boot a kernel here: using TCG");
	kvmboot_remember(cached);
	return cached;
}
