/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host.json: /proc/cpuinfo parsing from a fixture, what is collected on
 * this host (against uname, sysconf, sysfs and sha256sum, asked
 * independently), the kit's identity, the file written atomically and
 * read back, and files that are not a host.json. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>
#include <json.h>

#include "hostinfo.h"
#include "hostjson.h"
#include "jsonget.h"
#include "keys.h"
#include "plan.h"
#include "testfile.h"

static const char cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"model name\t: AMD EPYC 7302 16-Core Processor\n"
	"flags\t\t: fpu vme processor_trace\n"
	"\n"
	"processor\t: 1\n"
	"model name\t: AMD EPYC 7302 16-Core Processor\n"
	"processors_extra: 7\n";

static void parse_cpuinfo(void **state)
{
	char model[64];
	(void)state;

	assert_int_equal(hostinfo_parse_cpuinfo(cpuinfo, model, sizeof(model)), 2);
	assert_string_equal(model, "AMD EPYC 7302 16-Core Processor");
	assert_int_equal(hostinfo_parse_cpuinfo("", model, sizeof(model)), 0);
	assert_string_equal(model, "");
	/* Truncated to the buffer, never past it. */
	assert_int_equal(hostinfo_parse_cpuinfo(cpuinfo, model, 8), 2);
	assert_string_equal(model, "AMD EPY");
}

/* What `sh -c CMD` prints, first line. */
static void shell_line(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(buf, (int)len, p));
	buf[strcspn(buf, " \n")] = '\0';
	assert_int_equal(pclose(p), 0);
}

static void kit_sha256(void **state)
{
	char dir[] = "/tmp/test-hostinfo-kit.XXXXXX", hex[65], want[128], cmd[256];
	(void)state;

	assert_non_null(mkdtemp(dir));
	write_file(dir, "plan.json", "{\"plan\": 1}\n");
	write_file(dir, "vmlinuz", "kernel");
	write_file(dir, "initrd.img", "initrd");
	assert_int_equal(hostinfo_kit_sha256(dir, hex), -ENOENT);
	write_file(dir, "disk.qcow2", "disk");
	assert_int_equal(hostinfo_kit_sha256(dir, hex), 0);
	/* What docs/report.md says a person can check it with. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && sha256sum plan.json vmlinuz initrd.img disk.qcow2 | sha256sum", dir);
	shell_line(cmd, want, sizeof(want));
	assert_string_equal(hex, want);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void collect_here(void **state)
{
	struct plan plan = {0};
	json_object *info = NULL, *v, *disk;
	char want[128], cmd[256], path[] = "/tmp/test-hostinfo-plan.XXXXXX";
	struct utsname u;
	(void)state;

	assert_int_equal(keys_set_defaults(&plan.profile), 0);
	plan.profile.sweep.seed = 42;
	struct hostinfo_inputs in = {.plan = &plan, .target = "/tmp", .kvm = false,
				     .qemu_version = "7.2.19", .libvirt_version = ""};
	assert_int_equal(hostinfo_collect(&in, &info), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(jsonget_string(info, "kernel"), u.release);
	assert_true(json_object_object_get_ex(info, "cpus", &v));
	assert_int_equal(json_object_get_int64(v), sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(jsonget_string(info, "accel"), "tcg");
	assert_string_equal(jsonget_string(info, "qemu_version"), "7.2.19");
	/* Unknown is null, not "". */
	assert_true(json_object_object_get_ex(info, "libvirt_version", &v));
	assert_null(v);
	/* A directory target has no disk; `buildapp run` no kit. */
	assert_true(json_object_object_get_ex(info, "disk", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(info, "kit", &v));
	assert_null(v);
	assert_string_equal(jsonget_string(info, "firmware"),
			    access("/sys/firmware/efi", F_OK) == 0 ? "uefi" : "bios");
	json_object *p;
	assert_true(json_object_object_get_ex(info, "plan", &p));
	assert_true(json_object_object_get_ex(p, "seed", &v));
	assert_int_equal(json_object_get_int64(v), 42);
	/* The plan's hash is sha256sum's of what plan_write_json prints. */
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_int_equal(plan_write_json(&plan, f), 0);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
	shell_line(cmd, want, sizeof(want));
	unlink(path);
	assert_string_equal(jsonget_string(p, "sha256"), want);
	json_object_put(info);

	/* A block device: its whole disk, as sysfs describes it. */
	const char *const devs[] = {"/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/loop0"};
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		struct stat st;
		if (stat(devs[i], &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		in.target = devs[i];
		assert_int_equal(hostinfo_collect(&in, &info), 0);
		assert_true(json_object_object_get_ex(info, "disk", &disk));
		assert_non_null(disk);
		assert_string_equal(jsonget_string(disk, "name"), devs[i] + 5);
		snprintf(cmd, sizeof(cmd), "cat /sys/block/%s/queue/logical_block_size",
			 devs[i] + 5);
		shell_line(cmd, want, sizeof(want));
		assert_true(json_object_object_get_ex(disk, "logical_sector_bytes", &v));
		assert_int_equal(json_object_get_int64(v), atoll(want));
		/* No host tuning: neither what was asked nor what was read. */
		assert_true(json_object_object_get_ex(disk, "write_cache_read_back", &v));
		assert_null(v);
		json_object_put(info);
		break;
	}
	plan_release(&plan);
}

static void write_and_read(void **state)
{
	char dir[] = "/tmp/test-hostinfo.XXXXXX", cmd[128];
	json_object *back = NULL;
	(void)state;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(hostjson_read(dir, &back), 0);
	assert_null(back);
	json_object *info = json_tokener_parse(
		"{\"version\": 1, \"hostname\": \"lab-7\", \"disk\": null, \"cpus\": 32}");
	assert_int_equal(hostinfo_write(dir, info), 0);
	assert_int_equal(hostjson_read(dir, &back), 0);
	assert_true(json_object_equal(info, back));
	json_object_put(back);
	json_object_put(info);
	/* Nothing but host.json is left. */
	snprintf(cmd, sizeof(cmd), "test \"$(ls -A %s)\" = host.json", dir);
	assert_int_equal(system(cmd), 0);

	const char *bad[] = {"{\"version\": 2}", "[1, 2]", "{\"version\": 1", "", "{}"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(dir, "host.json", bad[i]);
		back = NULL;
		assert_int_equal(hostjson_read(dir, &back), -EBADMSG);
		assert_null(back);
	}
	/* A directory that cannot be written: an error, no file. */
	assert_int_equal(hostinfo_write("/nonexistent-dir", info = json_object_new_object()),
			 -ENOENT);
	json_object_put(info);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The server's identity: DMI (placeholders are none), the boot time and
 * the bundle's name from them, in a fake /sys/class/dmi/id and /proc. */
static void server_identity(void **state)
{
	char dmi[] = "/tmp/test-hostinfo-dmi.XXXXXX", proc[] = "/tmp/test-hostinfo-proc.XXXXXX";
	char name[HOSTINFO_BUNDLE_MAX], cmd[128];
	struct hostinfo_server s;
	struct plan plan = {0};
	json_object *info = NULL, *srv;
	(void)state;

	assert_non_null(mkdtemp(dmi));
	assert_non_null(mkdtemp(proc));
	write_file(dmi, "product_serial", "SRV 0042/A\n");
	write_file(dmi, "product_uuid", "00000000-0000-0000-0000-000000000000\n");
	write_file(dmi, "sys_vendor", "To Be Filled By O.E.M.\n");
	hostinfo_read_dmi(dmi, &s);
	assert_string_equal(s.serial, "SRV 0042/A");
	assert_string_equal(s.uuid, "");
	assert_string_equal(s.vendor, "");
	assert_string_equal(s.product, ""); /* no file */

	assert_int_equal(hostinfo_parse_btime("cpu 1 2 3\nbtime 1764599100\nprocesses 9\n"),
			 1764599100LL);
	assert_int_equal(hostinfo_parse_btime("cpu 1\n"), 0);

	/* Parts sanitized, '_' between them; 2025-12-01T14:25:00Z. */
	assert_int_equal(hostinfo_bundle_name("ci-smoke", &s, "lab", "DISK_1", "wwn", "sda",
					      1764599100LL, name, sizeof name), 0);
	assert_string_equal(name, "ci-smoke_SRV-0042-A_DISK-1_20251201T142500Z");
	/* No serial: the UUID, then the hostname (not a placeholder one);
	 * no disk serial: the WWID, the name. */
	struct hostinfo_server u = {.uuid = "4c4c4544-0042"};
	assert_int_equal(hostinfo_bundle_name("p", &u, "lab", "", "naa.5000", "sda", 0, name,
					      sizeof name), 0);
	assert_string_equal(name, "p_4c4c4544-0042_naa.5000_noboottime");
	struct hostinfo_server none;
	memset(&none, 0, sizeof none);
	assert_int_equal(hostinfo_bundle_name("p", &none, "(none)", NULL, NULL, NULL, 0, name,
					      sizeof name), 0);
	assert_string_equal(name, "p_unknown_nodisk_noboottime");
	assert_int_equal(hostinfo_bundle_name("p", &none, "lab-7", NULL, NULL, "sdb", 0, name,
					      sizeof name), 0);
	assert_string_equal(name, "p_lab-7_sdb_noboottime");
	/* Too small: an error and nothing half-made. */
	assert_int_equal(hostinfo_bundle_name("ci-smoke", &s, "lab", "D", NULL, NULL, 0, name,
					      12), -ENAMETOOLONG);
	assert_string_equal(name, "");

	/* host.json: server, boot time, bundle name and label. */
	write_file(proc, "stat", "cpu 1\nbtime 1764599100\n");
	assert_int_equal(keys_set_defaults(&plan.profile), 0);
	snprintf(plan.profile.appliance.name, sizeof plan.profile.appliance.name, "ci-smoke");
	struct hostinfo_inputs in = {.plan = &plan, .target = "/tmp", .dmi_dir = dmi,
				     .proc_dir = proc};
	assert_int_equal(hostinfo_collect(&in, &info), 0);
	assert_true(json_object_object_get_ex(info, "server", &srv));
	assert_string_equal(jsonget_string(srv, "serial"), "SRV 0042/A");
	assert_true(json_object_object_get_ex(srv, "uuid", &srv));
	assert_null(srv);
	assert_string_equal(jsonget_string(info, "boot_time"), "2025-12-01T14:25:00Z");
	assert_string_equal(jsonget_string(info, "bundle"),
			    "ci-smoke_SRV-0042-A_nodisk_20251201T142500Z");
	assert_string_equal(jsonget_string(info, "label"), "SRV-0042-A_nodisk");
	/* The report's label: the DMI serial, before the hostname. */
	char label[64];
	json_object_object_add(info, "hostname", json_object_new_string("lab-7"));
	assert_true(hostjson_label(info, label, sizeof label));
	assert_string_equal(label, "SRV 0042/A");
	json_object_put(info);
	assert_false(hostjson_label(NULL, label, sizeof label));
	assert_string_equal(label, "");
	plan_release(&plan);
	snprintf(cmd, sizeof cmd, "rm -r %s %s", dmi, proc);
	assert_int_equal(system(cmd), 0);
}

/* hostjson_label's order: DMI product and serial, the disk under test's
 * model and serial, the hostname, the DMI UUID, host.json's label; never
 * a placeholder or an "unknown" server. */
static void host_label(void **state)
{
	static const struct {
		const char *json, *label;
	} cases[] = {
		{"{\"server\": {\"product\": \"PowerEdge R650\", \"serial\": \"7XK2\"},"
		 " \"disk\": {\"model\": \"QEMU HARDDISK\", \"serial\": \"D1\"}, \"hostname\": \"lab\"}",
		 "PowerEdge R650 7XK2"},
		{"{\"server\": {\"product\": \"Not Specified\", \"serial\": \"7XK2\"}}", "7XK2"},
		/* The lab server of issue 21: QEMU's DMI has a product, no serial. */
		{"{\"hostname\": \"(none)\", \"label\": \"unknown_BUILDAPP-DUT-0001\","
		 " \"server\": {\"product\": \"Standard PC (i440FX + PIIX, 1996)\", \"serial\": null,"
		 " \"uuid\": null}, \"disk\": {\"model\": \"QEMU HARDDISK\", \"serial\": \"BUILDAPP-DUT-0001\"}}",
		 "QEMU HARDDISK BUILDAPP-DUT-0001"},
		{"{\"disk\": {\"model\": null, \"serial\": \"D1\"}, \"hostname\": \"lab\"}", "D1"},
		{"{\"server\": {\"serial\": \"To Be Filled By O.E.M.\"},"
		 " \"disk\": {\"serial\": \"\"}, \"hostname\": \"lab-7\"}", "lab-7"},
		{"{\"server\": {\"uuid\": \"4c4c4544-0042\"}, \"hostname\": \"localhost\"}",
		 "4c4c4544-0042"},
		{"{\"hostname\": \"(none)\", \"label\": \"SRV-A_DISK\"}", "SRV-A_DISK"},
		{"{\"hostname\": \"(none)\", \"label\": \"unknown_nodisk\"}", NULL},
		{"{}", NULL},
	};
	char label[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_object *info = json_tokener_parse(cases[i].json);
		assert_non_null(info);
		assert_int_equal(hostjson_label(info, label, sizeof label), cases[i].label != NULL);
		assert_string_equal(label, cases[i].label ? cases[i].label : "");
		json_object_put(info);
	}
	/* Cut to the buffer, never past it. */
	json_object *info = json_tokener_parse(cases[0].json);
	assert_true(hostjson_label(info, label, 8));
	assert_string_equal(label, "PowerEd");
	json_object_put(info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_cpuinfo),
		cmocka_unit_test(kit_sha256),
		cmocka_unit_test(collect_here),
		cmocka_unit_test(server_identity),
		cmocka_unit_test(host_label),
		cmocka_unit_test(write_and_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
