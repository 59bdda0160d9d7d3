#include "lavajob.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "command.h"
#include "kit.h"
#include "log.h"
#include "planner.h"
#include "recipe.h"
#include "sweeplines.h"
#include "volumes.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

/* How long a server may take, as scripts/boot-appliance.sh derives it
 * from the plan (the same two margins: tests/e2e/lava-job.sh holds them
 * together): firmware, kernel, provisioning, summary and power-off; and
 * what a run costs beyond its guest's [guest] timeout. */
#define BOOT_MARGIN_SECONDS 900
#define RUN_MARGIN_SECONDS 120
/* Fetching the kernel and the initrd (a few hundred MiB) to the
 * dispatcher. */
#define DEPLOY_MINUTES 10
/* The qemu job's virtual server: the appliance's root unpacks into RAM. */
#define QEMU_MEMORY_MIB 3072
#define QEMU_DUT_SERIAL "BUILDAPP-DUT"

/* The monitor of the sweep's result lines: LAVA's named groups
 * (lava_dispatcher/actions/test/monitor.py).  The unit is followed by a
 * space or the line's end, so a line still arriving never matches with
 * its unit cut short. */
#define CASE_PATTERN                                                                       \
	SWEEPLINES_TAG " case=(?P<test_case_id>\\S+) result=(?P<result>pass|fail|skip)"     \
		       "(?: measurement=(?P<measurement>\\S+))? units=(?P<units>\\S*)[ \\r\\n]"

int lavajob_check_url(const char *url, char *why, size_t len)
{
	static const char *const schemes[] = {"http://", "https://", LAVAJOB_FILE_SCHEME};
	size_t n = 0;

	for (size_t i = 0; i < sizeof schemes / sizeof schemes[0] && !n; i++)
		if (strncmp(url, schemes[i], strlen(schemes[i])) == 0)
			n = strlen(schemes[i]);
	if (!n) {
		snprintf(why, len, "not an http://, https:// or file:// URL");
		return -EINVAL;
	}
	if (!url[n]) {
		snprintf(why, len, "no host or path after the scheme");
		return -EINVAL;
	}
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '"' || *p == '\'') {
			snprintf(why, len, "a URL has no white space, control character or quote");
			return -EINVAL;
		}
	return 0;
}

static json_object *minutes(unsigned long long m)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "minutes", json_object_new_int64((int64_t)(m ? m : 1)));
	return o;
}

static unsigned long long to_minutes(unsigned long long seconds)
{
	return (seconds + 59) / 60;
}

static void add_str(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, json_object_new_string(value));
}

/* One action of the job's list: {"KIND": BODY}. */
static void add_action(json_object *actions, const char *kind, json_object *body)
{
	json_object *a = json_object_new_object();
	json_object_object_add(a, kind, body);
	json_object_array_add(actions, a);
}

/* The files the jobs fetch, each hashed once: LAVA checks what it
 * fetched against the kit. */
enum { FILE_KERNEL, FILE_INITRD, FILE_DISK, _FILE_MAX };
static const char *const file_names[_FILE_MAX] = {"vmlinuz", "initrd", "lava-disk.qcow2"};
struct fetched {
	char sha256[_FILE_MAX][65];
};

static int hash_files(const struct lavajob_spec *s, struct fetched *ret)
{
	for (int i = 0; i < _FILE_MAX; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", s->netboot, file_names[i]);
		int r = kit_file_sha256(path, ret->sha256[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* {"url": the directory's URL + the file's name, "sha256sum": ...}. */
static json_object *resource(const struct lavajob_spec *s, const struct fetched *f, int file)
{
	char url[4096];
	json_object *o = json_object_new_object();

	snprintf(url, sizeof url, "%s%s", s->url, file_names[file]);
	add_str(o, "url", url);
	add_str(o, "sha256sum", f->sha256[file]);
	return o;
}

/* The limits of the plan, in seconds: the whole sweep and the longest a
 * console may stay silent (one run). */
struct limits {
	unsigned long long sweep, silence;
};

static int plan_limits(const struct profile *p, struct limits *ret)
{
	struct plan plan;
	int r = planner_build(p, &plan);
	if (r < 0)
		return log_error_errno(r, "cannot make the plan");
	unsigned most = p->sweep.max_runs > p->sweep.runs ? p->sweep.max_runs : p->sweep.runs;
	unsigned long long runs = (unsigned long long)plan.n_cells * most;
	unsigned long long run = (unsigned long long)p->guest.timeout + RUN_MARGIN_SECONDS;
	ret->sweep = BOOT_MARGIN_SECONDS + runs * run;
	ret->silence = run > BOOT_MARGIN_SECONDS ? run : BOOT_MARGIN_SECONDS;
	plan_release(&plan);
	return 0;
}

/* What every job of the kit has: name, timeouts, the boot's and the
 * monitor's actions after DEPLOY. */
static json_object *job_new(const struct lavajob_spec *s, const char *device_type,
			    const struct limits *l, json_object *context, json_object *deploy,
			    json_object *boot)
{
	json_object *job = json_object_new_object(), *t = json_object_new_object();
	json_object *actions = json_object_new_array(), *meta = json_object_new_object();
	char name[256];

	snprintf(name, sizeof name, "buildapp kit %s (%s)", s->profile->appliance.name,
		 device_type);
	add_str(job, "job_name", name);
	add_str(job, "device_type", device_type);
	add_str(job, "priority", "medium");
	add_str(job, "visibility", "public");
	json_object_object_add(t, "job", minutes(DEPLOY_MINUTES + to_minutes(l->sweep)));
	json_object_object_add(t, "connection", minutes(to_minutes(l->silence)));
	json_object_object_add(job, "timeouts", t);
	add_str(meta, "buildapp.kit", s->profile->appliance.name);
	json_object_object_add(job, "metadata", meta);
	json_object_object_add(job, "context", context);

	json_object_object_add(deploy, "timeout", minutes(DEPLOY_MINUTES));
	add_action(actions, "deploy", deploy);
	/* The boot's timeout is also how long the monitor waits for the
	 * next line (the console's pexpect timeout is set when the boot
	 * opens it: lava_dispatcher's ShellCommand): a run's length. */
	json_object_object_add(boot, "timeout", minutes(to_minutes(l->silence)));
	add_action(actions, "boot", boot);
	json_object *test = json_object_new_object(), *monitors = json_object_new_array();
	json_object *m = json_object_new_object();
	add_str(m, "name", "buildapp-sweep");
	add_str(m, "start", SWEEPLINES_TAG " start");
	add_str(m, "end", SWEEPLINES_TAG " end");
	add_str(m, "pattern", CASE_PATTERN);
	json_object_array_add(monitors, m);
	json_object_object_add(test, "timeout", minutes(to_minutes(l->sweep)));
	json_object_object_add(test, "monitors", monitors);
	add_action(actions, "test", test);
	json_object_object_add(job, "actions", actions);
	return job;
}

/* The kit's command line without its console= words: the device
 * dictionary knows the server's serial console, and the template adds
 * it (x86.jinja2's console_device). */
static void without_consoles(const char *cmdline, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *w = cmdline; *w;) {
		size_t k = strcspn(w, " ");
		if (k && strncmp(w, "console=", 8) != 0 && n + k + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)k, w);
		w += k;
		w += strspn(w, " ");
	}
}

static int write_job(const struct lavajob_spec *s, const char *name, const char *comment,
		     json_object *job)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", s->netboot, name);
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	const char *text = json_object_to_json_string_ext(
		job, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!f || !text || fprintf(f, "# %s\n%s\n", comment, text) < 0 || fflush(f) != 0)
		return log_error_errno(-errno, "'%s'", path);
	return 0;
}

static int x86_job(const struct lavajob_spec *s, const struct fetched *f,
		   const struct limits *l)
{
	json_object *deploy = json_object_new_object(), *boot = json_object_new_object();
	json_object *context = json_object_new_object();
	json_object *ramdisk = resource(s, f, FILE_INITRD);
	_cleanup_(json_object_putp) json_object *job = NULL;
	char args[4096], upload[PROFILE_STR_MAX + 32] = "";

	without_consoles(s->cmdline, args, sizeof args);
	if (*s->profile->appliance.upload)
		snprintf(upload, sizeof upload, " buildapp.upload=%s", s->profile->appliance.upload);
	strncat(args, upload, sizeof args - strlen(args) - 1);
	add_str(context, "extra_kernel_args", args);
	add_str(deploy, "to", "tftp");
	json_object_object_add(deploy, "kernel", resource(s, f, FILE_KERNEL));
	/* The initrd as the kit made it: no LAVA overlay or modules
	 * packed into it (the appliance runs no LAVA test shell). */
	json_object_object_add(ramdisk, "install_overlay", json_object_new_boolean(0));
	json_object_object_add(ramdisk, "install_modules", json_object_new_boolean(0));
	json_object_object_add(deploy, "ramdisk", ramdisk);
	add_str(boot, "method", "ipxe");
	add_str(boot, "commands", "ramdisk");
	job = job_new(s, "x86", l, context, deploy, boot);
	return write_job(s, "lava-x86.yaml",
			 "LAVA job: this kit on a server of device type x86 (TFTP, iPXE); docs/lab.md",
			 job);
}

/* The blank disk under test of the qemu job: a qcow2 as large as the
 * profile's storage needs on a disk, and 1 GiB more. */
static int blank_disk(const struct lavajob_spec *s)
{
	struct storage_target t = {.kind = STORAGE_TARGET_DISK, .device = "/dev/nvme0n1",
				   .mountpoint = "/mnt"};
	struct storage_spec spec;
	_cleanup_free_ struct recipe *rc = calloc(1, sizeof *rc);
	char path[4096], size[32];

	if (!rc)
		return -ENOMEM;
	volumes_spec_from_profile(s->profile, &spec);
	if (recipe_build(&spec, &t, rc) < 0)
		return log_error_code(-EINVAL, "the storage of '%s' fits no disk",
				      s->profile->appliance.name);
	uint64_t gib = (rc->disk_size >> 30) + 2;
	snprintf(size, sizeof size, "%" PRIu64 "G", gib);
	snprintf(path, sizeof path, "%s/lava-disk.qcow2", s->netboot);
	int r = command_run((char *[]){"qemu-img", "create", "-q", "-f", "qcow2", path, size, NULL},
			    NULL, 1);
	if (r != 0)
		return log_error_code(r < 0 ? r : -EIO, "qemu-img create of '%s' failed", path);
	return 0;
}

static int qemu_job(const struct lavajob_spec *s, const struct fetched *f,
		    const struct limits *l)
{
	json_object *deploy = json_object_new_object(), *boot = json_object_new_object();
	json_object *context = json_object_new_object(), *images = json_object_new_object();
	json_object *kernel = resource(s, f, FILE_KERNEL), *initrd = resource(s, f, FILE_INITRD);
	json_object *disk = resource(s, f, FILE_DISK);
	_cleanup_(json_object_putp) json_object *job = NULL;
	char arg[8192];

	/* The virtual server's only disk is the one under test, whatever
	 * the profile names for a real server's. */
	bool auto_disk = strcmp(s->profile->host.disk, "auto") == 0;
	snprintf(arg, sizeof arg, "-kernel {kernel} -append \"%s%s%s%s\"", s->cmdline,
		 auto_disk ? "" : " buildapp.disk=auto",
		 *s->profile->appliance.upload ? " buildapp.upload=" : "",
		 s->profile->appliance.upload);
	add_str(kernel, "image_arg", arg);
	add_str(initrd, "image_arg", "-initrd {initrd}");
	add_str(disk, "image_arg", "-drive if=none,id=dut,format=qcow2,file={disk} "
					   "-device nvme,drive=dut,serial=" QEMU_DUT_SERIAL);
	json_object_object_add(images, "kernel", kernel);
	json_object_object_add(images, "initrd", initrd);
	json_object_object_add(images, "disk", disk);
	add_str(deploy, "to", "tmpfs");
	json_object_object_add(deploy, "images", images);
	add_str(boot, "method", "qemu");
	add_str(boot, "media", "tmpfs");
	add_str(context, "arch", "amd64");
	json_object_object_add(context, "memory", json_object_new_int(QEMU_MEMORY_MIB));
	json_object *extra = json_object_new_array();
	json_object_array_add(extra, json_object_new_string("-smp 2"));
	json_object_object_add(context, "extra_options", extra);
	job = job_new(s, "qemu", l, context, deploy, boot);
	return write_job(s, "lava-qemu.yaml",
			 "LAVA job: this kit on a virtual server of device type qemu; docs/lab.md",
			 job);
}

int lavajob_write(const struct lavajob_spec *spec)
{
	struct lavajob_spec s = *spec;
	_cleanup_free_ char *out = NULL;
	char url[4096];
	struct limits l;
	int r;

	/* The netboot directory's URL, ending in '/' as the names follow. */
	if (!s.url) {
		out = realpath(s.outdir, NULL);
		if (!out)
			return log_error_errno(-errno, "'%s'", s.outdir);
		snprintf(url, sizeof url, LAVAJOB_FILE_SCHEME "%s/%s.netboot/", out,
			 s.profile->appliance.name);
	} else {
		snprintf(url, sizeof url, "%s%s", s.url,
			 s.url[strlen(s.url) - 1] == '/' ? "" : "/");
	}
	s.url = url;
	r = plan_limits(s.profile, &l);

	if (r == 0)
		r = blank_disk(&s);
	struct fetched f;
	if (r == 0)
		r = hash_files(&s, &f);
	if (r == 0)
		r = x86_job(&s, &f, &l);
	if (r == 0)
		r = qemu_job(&s, &f, &l);
	return r;
}
