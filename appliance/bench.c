#include "bench.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "log.h"
#include "volumes.h"

/* The boot check's guest: the kit's kernel on the first volume. */
static struct vm_spec check_spec(const struct profile *p,
				 const struct bench_inputs *in,
				 const struct storage_volume *vol,
				 const char *console)
{
	return (struct vm_spec){
		.name = "buildapp-check",
		.kernel = in->kernel,
		.initrd = in->initrd,
		.cmdline = "console=ttyS0",
		.memory = p->guest.memory,
		.vcpus = 1,
		.disk = vol->path,
		.format = vol->format,
		.cache = CACHE_UNSAFE,
		.aio = AIO_THREADS,
		.bus = BUS_VIRTIO,
		.console_log = console,
	};
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

/* rm -rf PATH: the libvirt state of this run. */
static void remove_tree(const char *path)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0)
		log_warning("could not remove %s: %s", path, strerror(errno));
}

int bench_run(const struct bench_inputs *in, struct sweep_outcome *ret)
{
	const struct plan *plan = in->plan;
	const struct profile *p = &plan->profile;
	_cleanup_free_ struct recipe *rec = calloc(1, sizeof(*rec));
	char statedir[] = "/var/tmp/buildapp-run-XXXXXX";
	char console[PATH_MAX], mountpoint[PATH_MAX];
	struct vm_host *host = NULL;
	struct sweep_outcome out;
	bool provisioned = false;
	int r;

	if (!rec)
		return -ENOMEM;
	if (!mkdtemp(statedir))
		return log_error_errno(errno, "mkdtemp: %s", strerror(errno));
	snprintf(mountpoint, sizeof(mountpoint), "%s/volumes", statedir);
	snprintf(console, sizeof(console), "%s/check.log", statedir);
	r = mkdir(mountpoint, 0755) < 0 ? -errno : 0;
	if (r >= 0) {
		r = volumes_provision(p, in->target, mountpoint, rec);
		provisioned = r >= 0;
	}
	if (r >= 0)
		r = vm_host_open(in->uri, statedir, in->accel, &host);
	if (r >= 0) {
		struct vm_spec check = check_spec(p, in, &rec->volumes[0], console);
		r = vm_host_check_boot(host, &check, 60);
	}
	if (r >= 0) {
		log_info("sweep: %zu runs of %zu cells, %s guests", plan->n_runs,
			 plan->n_cells, vm_host_kvm(host) ? "KVM" : "TCG");
		struct sweep_env env = {
			.plan = plan,
			.kernel = in->kernel,
			.initrd = in->initrd,
			.pristine = in->pristine,
			.volumes = rec->volumes,
			.n_volumes = rec->n_volumes,
			.results_dir = in->results_dir,
			.host = host,
		};
		r = sweep_run(&env, &out);
	}
	vm_host_close(host);
	if (provisioned)
		volumes_release(rec);
	remove_tree(statedir);
	if (r < 0)
		return r;
	log_info("sweep done: %zu runs made, %zu already there, %zu failed",
		 out.made, out.skipped, out.failed);
	*ret = out;
	return 0;
}

