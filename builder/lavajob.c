/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lavajob.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "cmdline.h"
#include "command.h"
#include "extents.h"
#include "log.h"
#include "planner.h"
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
/* What LAVA does after the test action: power off, collect. */
#define FINALIZE_MINUTES 5
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
		int r = extents_sha256(path, ret->sha256[i]);
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

/* The limits of the plan, in seconds: the whole sweep, as
 * boot-appliance.sh's limit; and the longest LAVA's monitor may wait for
 * its next matching line (docs/lab.md, "Timeouts").  The longest wait is
 * the first, from the start line to the first run's case: boot,
 * provisioning, then a run, which the kit's own watchdog ends after its
 * [guest] timeout and [appliance] stall_timeout, with a fail case and the
 * end line, before LAVA's deadline. */
struct limits {
	unsigned long long sweep, deadline;
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
	unsigned long long stall = p->appliance.stall_timeout;
	ret->sweep = BOOT_MARGIN_SECONDS + runs * run;
	ret->deadline = BOOT_MARGIN_SECONDS + p->guest.timeout +
			(stall > RUN_MARGIN_SECONDS ? stall : RUN_MARGIN_SECONDS);
	plan_release(&plan);
	return 0;
}

/* What every job of the kit has: name, timeouts, metadata, the boot's and
 * the monitor's actions after DEPLOY; SERVER's tags (NULL: none). */
static json_object *job_new(const struct lavajob_spec *s, const char *device_type,
			    const struct lavajob_server *server, const struct limits *l,
			    json_object *context, json_object *deploy, json_object *boot)
{
	json_object *job = json_object_new_object(), *t = json_object_new_object();
	json_object *actions = json_object_new_array(), *meta = json_object_new_object();
	char name[256];

	snprintf(name, sizeof name, "buildapp kit %s (%s%s%s)", s->profile->appliance.name,
		 device_type, server ? " on " : "", server ? server->tags[0] : "");
	add_str(job, "job_name", name);
	add_str(job, "device_type", device_type);
	add_str(job, "priority", "medium");
	add_str(job, "visibility", "public");
	/* Every action's timeout within the job's. */
	unsigned long long boot_m = to_minutes(l->deadline), test_m = to_minutes(l->sweep);
	json_object_object_add(t, "job",
			       minutes(DEPLOY_MINUTES + boot_m + test_m + FINALIZE_MINUTES));
	json_object_object_add(t, "connection", minutes(boot_m));
	json_object_object_add(job, "timeouts", t);
	if (server) {
		json_object *tags = json_object_new_array();
		for (size_t i = 0; i < server->n_tags; i++)
			json_object_array_add(tags, json_object_new_string(server->tags[i]));
		json_object_object_add(job, "tags", tags);
	}
	/* Which kit this is: the manifest `buildapp verify` checks it against. */
	add_str(meta, "buildapp.kit", s->profile->appliance.name);
	add_str(meta, "buildapp.version", BUILDAPP_VERSION);
	add_str(meta, "buildapp.manifest_sha256", s->manifest_sha256);
	if (server && server->disk[0])
		add_str(meta, "buildapp.disk", server->disk);
	json_object_object_add(job, "metadata", meta);
	json_object_object_add(job, "context", context);

	json_object_object_add(deploy, "timeout", minutes(DEPLOY_MINUTES));
	add_action(actions, "deploy", deploy);
	/* The boot's timeout is also how long the monitor waits for its
	 * next matching line (the console's pexpect timeout is set when the
	 * boot opens it: lava_dispatcher's ShellCommand). */
	json_object_object_add(boot, "timeout", minutes(boot_m));
	add_action(actions, "boot", boot);
	json_object *test = json_object_new_object(), *monitors = json_object_new_array();
	json_object *m = json_object_new_object();
	add_str(m, "name", "buildapp-sweep");
	add_str(m, "start", SWEEPLINES_TAG " start");
	add_str(m, "end", SWEEPLINES_TAG " end");
	add_str(m, "pattern", CASE_PATTERN);
	json_object_array_add(monitors, m);
	json_object_object_add(test, "timeout", minutes(test_m));
	json_object_object_add(test, "monitors", monitors);
	add_action(actions, "test", test);
	json_object_object_add(job, "actions", actions);
	return job;
}

/* The kit's command line into BUF without CMDLINE_END, which ends the
 * words a job adds to it. */
static void without_end(const char *cmdline, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *w = cmdline; *w;) {
		size_t k = strcspn(w, " ");
		if (k && !(k == strlen(CMDLINE_END) && strncmp(w, CMDLINE_END, k) == 0) &&
		    n + k + 2 < len)
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

static bool is_tag_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

size_t lavajob_x86_args(const char *disk, char *buf, size_t len)
{
	int n = snprintf(buf, len, "quiet initrd=initrd%s%s " CMDLINE_END,
			 *disk ? " buildapp.disk=" : "", disk);
	return n < 0 ? 0 : (size_t)n;
}

int lavajob_parse_server(const char *arg, struct lavajob_server *ret, char *why, size_t len)
{
	struct lavajob_server sv = {.n_tags = 0};
	const char *eq = strchr(arg, '=');
	char args[LAVAJOB_X86_ARGS_MAX * 2];

	for (const char *t = arg;; t++) {
		size_t k = strcspn(t, ",=");
		if (k == 0 || k >= LAVAJOB_TAG_MAX) {
			snprintf(why, len, "a device tag of 1 to %d characters before each ',' "
				 "and the '='", LAVAJOB_TAG_MAX - 1);
			return -EINVAL;
		}
		for (size_t i = 0; i < k; i++)
			if (!is_tag_char(t[i])) {
				snprintf(why, len, "a LAVA device tag has letters, digits, '-' "
					 "and '_' only");
				return -EINVAL;
			}
		if (sv.n_tags == LAVAJOB_TAGS_MAX) {
			snprintf(why, len, "at most %d tags", LAVAJOB_TAGS_MAX);
			return -EINVAL;
		}
		snprintf(sv.tags[sv.n_tags++], LAVAJOB_TAG_MAX, "%.*s", (int)k, t);
		t += k;
		if (*t != ',')
			break;
	}
	if (eq) {
		const char *d = eq + 1;
		if (!*d || strlen(d) >= sizeof sv.disk) {
			snprintf(why, len, "no disk identity after '='");
			return -EINVAL;
		}
		for (const char *p = d; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '"' || *p == '\'' ||
			    *p == '\\') {
				snprintf(why, len, "a disk identity (by-id name, serial or WWN) "
					 "has no white space, control character, quote or "
					 "backslash: it rides on the kernel command line");
				return -EINVAL;
			}
		snprintf(sv.disk, sizeof sv.disk, "%s", d);
	}
	size_t n = lavajob_x86_args(sv.disk, args, sizeof args);
	if (n > LAVAJOB_X86_ARGS_MAX) {
		snprintf(why, len, "the x86 job's kernel arguments would be %zu characters, "
			 "more than the %d that leave room on the line typed at iPXE's prompt "
			 "(255 characters at most) for LAVA's own: name the disk by a shorter "
			 "identity (its serial or WWN)", n, LAVAJOB_X86_ARGS_MAX);
		return -EINVAL;
	}
	*ret = sv;
	return 0;
}

/* The x86 job for SERVER (NULL: the job of any server of the type, as
 * the profile's disk says) as NAME.  Its kernel arguments are few: iPXE
 * is typed them (LAVA's `set extraargs` line), and Debian 12's iPXE
 * keeps 255 characters of a typed line; the kit's settings are in its
 * plan.  LAVA's `use_bootscript` would type less, but lava-dispatcher
 * 2023.01 (Debian 12) writes the script where its chain line does not
 * look for it. */
static int x86_job(const struct lavajob_spec *s, const struct fetched *f,
		   const struct limits *l, const struct lavajob_server *server,
		   const char *name)
{
	json_object *deploy = json_object_new_object(), *boot = json_object_new_object();
	json_object *context = json_object_new_object();
	json_object *ramdisk = resource(s, f, FILE_INITRD);
	_cleanup_(json_object_putp) json_object *job = NULL;
	char args[LAVAJOB_X86_ARGS_MAX * 2];

	lavajob_x86_args(server ? server->disk : "", args, sizeof args);
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
	job = job_new(s, "x86", server, l, context, deploy, boot);
	return write_job(s, name,
			 "LAVA job: this kit on a server of device type x86 (TFTP, iPXE); docs/lab.md",
			 job);
}

/* The blank disk under test of the qemu job: a qcow2 as large as the
 * profile's storage needs on a disk (volumes_disk_size, as `buildapp
 * provision` makes it), and 1 GiB more. */
static int blank_disk(const struct lavajob_spec *s)
{
	char path[4096], size[32];
	uint64_t need;
	int r = volumes_disk_size(s->profile, &need);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return log_error_code(-EINVAL, "the storage of '%s' fits no disk",
				      s->profile->appliance.name);
	snprintf(size, sizeof size, "%" PRIu64 "G", (need >> 30) + 2);
	snprintf(path, sizeof path, "%s/lava-disk.qcow2", s->netboot);
	r = command_run((char *[]){"qemu-img", "create", "-q", "-f", "qcow2", path, size, NULL},
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
	char words[4096];
	without_end(s->cmdline, words, sizeof words);
	snprintf(arg, sizeof arg, "-kernel {kernel} -append \"%s%s%s%s " CMDLINE_END "\"", words,
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
	job = job_new(s, "qemu", NULL, l, context, deploy, boot);
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
		r = x86_job(&s, &f, &l, NULL, "lava-x86.yaml");
	for (size_t i = 0; r == 0 && i < s.n_servers; i++) {
		char name[LAVAJOB_TAG_MAX + 32];
		snprintf(name, sizeof name, "lava-x86-%s.yaml", s.servers[i].tags[0]);
		r = x86_job(&s, &f, &l, &s.servers[i], name);
	}
	if (r == 0)
		r = qemu_job(&s, &f, &l);
	return r;
}
