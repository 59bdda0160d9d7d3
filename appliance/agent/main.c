/* PID 1 of the benchmark guest: bring up the bare minimum (proc, sys,
 * devtmpfs, the disk drivers), find the disk under test, run the workload
 * the kernel command line names, report on the console and power off,
 * whatever happens.  Or, with --host, the same workload on a host. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"
#include "guestproto.h"
#include "monotonic.h"
#include "workload.h"

#define DISK_WAIT_SECONDS 30

/* Host mode: `buildapp-agent --host DIR WORD...`, the words of the
 * guest's kernel command line as arguments and the disk under test's
 * filesystem already mounted on DIR by the runner.  The workload is the
 * guest's, line for line; only the mounting is not the agent's. */
static int run_on_host(int argc, char **argv)
{
	struct utsname u;

	agent_mnt = argv[2];
	/* The tools' messages go where a guest's go, onto the one output
	 * (the console there), between the tagged lines the runner reads. */
	dup2(STDOUT_FILENO, STDERR_FILENO);
	for (int i = 3; i < argc; i++)
		if (agent_add_param(argv[i]) < 0)
			return -1;
	const char *kind = agent_param("workload");
	uname(&u);
	agent_line(GUESTPROTO_BEGIN, "workload=%s kernel=%s",
		   kind ? kind : "none", u.release);
	if (!kind)
		return agent_error("no " GUESTPROTO_PARAM_PREFIX "workload=");
	agent_line(GUESTPROTO_INFO, "host=%s", agent_mnt);
	int r = workload_run(kind);
	sync();
	return r;
}

static void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return; /* keep what the kernel gave us */
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static int mount_api(void)
{
	static const struct {
		const char *src, *dir, *type;
	} m[] = {
		{"proc", "/proc", "proc"},
		{"sysfs", "/sys", "sysfs"},
		{"devtmpfs", "/dev", "devtmpfs"},
		{"tmpfs", "/tmp", "tmpfs"},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		mkdir(m[i].dir, 0755);
		if (mount(m[i].src, m[i].dir, m[i].type, MS_NOSUID, NULL) < 0 &&
		    errno != EBUSY)
			return agent_error("cannot mount %s: %s", m[i].dir,
					   strerror(errno));
	}
	return 0;
}

/* The kit lists the modules in load order (dependencies first), so a
 * plain finit_module per line is all modprobe would do here: those of
 * the bus the command line names (buildapp.bus=) when the kit has its
 * list, else every disk driver's. */
static int load_modules(void)
{
	const char *bus = agent_param("bus");
	char path[128];
	FILE *f = NULL;

	if (bus && strlen(bus) < 32) {
		snprintf(path, sizeof(path), GUESTPROTO_MODULE_LIST "-%s", bus);
		f = fopen(path, "re");
	}
	if (!f)
		f = fopen(GUESTPROTO_MODULE_LIST, "re");
	if (!f)
		return 0; /* a kernel with the drivers built in */
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		int fd = open(line, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			agent_line(GUESTPROTO_INFO, "module=%s error=%s", line,
				   strerror(errno));
			continue;
		}
		/* EEXIST: built in or loaded; ENODEV: hardware this
		 * machine lacks (crc32c-intel without SSE4.2). */
		if (syscall(SYS_finit_module, fd, "", 0) < 0 &&
		    errno != EEXIST && errno != ENODEV)
			agent_line(GUESTPROTO_INFO, "module=%s error=%s", line,
				   strerror(errno));
		close(fd);
	}
	fclose(f);
	return 0;
}

static bool is_disk_name(const char *n)
{
	return strncmp(n, "vd", 2) == 0 || strncmp(n, "sd", 2) == 0 ||
	       strncmp(n, "hd", 2) == 0 || strncmp(n, "nvme", 4) == 0 ||
	       strncmp(n, "xvd", 3) == 0;
}

/* The guest has exactly one disk, the disk under test, on whatever bus
 * the cell says: wait until the driver has registered it. */
static int wait_disk(char *ret, size_t len)
{
	double deadline = monotonic_seconds() + DISK_WAIT_SECONDS;
	do {
		DIR *d = opendir("/sys/block");
		if (d) {
			struct dirent *e;
			while ((e = readdir(d))) {
				if (!is_disk_name(e->d_name))
					continue;
				snprintf(ret, len, "/dev/%s", e->d_name);
				if (access(ret, F_OK) == 0) {
					closedir(d);
					return 0;
				}
			}
			closedir(d);
		}
		usleep(50 * 1000);
	} while (monotonic_seconds() < deadline);
	return agent_error("no disk appeared in %d seconds",
			   DISK_WAIT_SECONDS);
}

static int run(void)
{
	char disk[300];

	if (mount_api() < 0)
		return -1;
	setup_console();
	if (agent_read_cmdline() < 0)
		return -1;
	const char *kind = agent_param("workload");
	struct utsname u;
	uname(&u);
	agent_line(GUESTPROTO_BEGIN, "workload=%s kernel=%s",
		   kind ? kind : "none", u.release);
	if (!kind)
		return agent_error("no " GUESTPROTO_PARAM_PREFIX
				   "workload= on the kernel command line");
	if (access(GUESTPROTO_KIT_COMPLETE, F_OK) < 0)
		return agent_error("the initramfs is incomplete: the kernel "
				   "could not unpack it all (guest memory "
				   "too small for the guest kit?)");
	load_modules();
	if (wait_disk(disk, sizeof(disk)) < 0)
		return -1;
	agent_line(GUESTPROTO_INFO, "disk=%s", disk);
	agent_disk = disk;
	if (workload_on_device(kind)) {
		int r = workload_run(kind);
		sync();
		return r;
	}
	mkdir(AGENT_MNT, 0755);
	if (mount(disk, AGENT_MNT, "ext4", 0, NULL) < 0)
		return agent_error("cannot mount %s: %s", disk,
				   strerror(errno));
	int r = workload_run(kind);
	sync();
	if (umount(AGENT_MNT) < 0 && r == 0)
		return agent_error("cannot unmount %s: %s", disk,
				   strerror(errno));
	return r;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--host") == 0 && getpid() != 1) {
		/* The outcome is in the END line, as a guest's: exit 0 so
		 * the runner reads what was printed either way. */
		int r = run_on_host(argc, argv);
		agent_line(GUESTPROTO_END, "status=%d", r < 0 ? 1 : 0);
		return 0;
	}
	int r = run();
	agent_line(GUESTPROTO_END, "status=%d", r < 0 ? 1 : 0);
	sync();
	if (getpid() == 1) {
		/* end=halt: the runner reads what this run wrote from QEMU,
		 * which a power-off would end (libvirt stops it at once). */
		const char *end = agent_param("end");
		reboot(end && strcmp(end, "halt") == 0 ? RB_HALT_SYSTEM
						       : RB_POWER_OFF);
		/* Not reached unless poweroff failed: PID 1 must not exit. */
		for (;;)
			pause();
	}
	return r < 0 ? 1 : 0;
}
