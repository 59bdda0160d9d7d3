/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test driver for runner/vm.c: runs one guest through the vm API and
 * prints the result as key=value words on one line, for the shell tests.
 * Usage: vm-run [--uri URI] --statedir DIR --kernel F --initrd F --disk F
 *        --log F [--name N] [--cache MODE] [--aio MODE] [--bus BUS]
 *        [--format raw|qcow2] [--memory MiB] [--timeout S] [--cmdline S]
 *        [--accel auto|kvm|tcg] [--check-boot SECONDS]
 *        [--ack-log F --crash-after N]
 * With --ack-log, the result line has acks= and killed=, and the
 * result's message (if any) follows on a line "message: ...". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "signals.h"
#include "names.h"
#include "vm.h"

static int lookup(const struct name_table *t, const char *what,
		  const char *name)
{
	int v = name_table_lookup(t, name);
	if (v < 0) {
		log_error("unknown %s '%s'", what, name);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"uri", required_argument, NULL, 'u'},
		{"statedir", required_argument, NULL, 's'},
		{"kernel", required_argument, NULL, 'k'},
		{"initrd", required_argument, NULL, 'i'},
		{"disk", required_argument, NULL, 'd'},
		{"log", required_argument, NULL, 'l'},
		{"name", required_argument, NULL, 'n'},
		{"cache", required_argument, NULL, 'c'},
		{"aio", required_argument, NULL, 'a'},
		{"bus", required_argument, NULL, 'b'},
		{"format", required_argument, NULL, 'f'},
		{"memory", required_argument, NULL, 'm'},
		{"timeout", required_argument, NULL, 't'},
		{"cmdline", required_argument, NULL, 'C'},
		{"accel", required_argument, NULL, 'A'},
		{"check-boot", required_argument, NULL, 'K'},
		{"ack-log", required_argument, NULL, 'L'},
		{"crash-after", required_argument, NULL, 'N'},
		{NULL, 0, NULL, 0},
	};
	const char *uri = NULL, *statedir = NULL;
	enum vm_accel accel = VM_ACCEL_AUTO;
	unsigned check_boot = 0;
	struct vm_spec spec = {
		.name = "buildapp-test",
		.cmdline = "console=ttyS0",
		.memory = 256ull << 20,
		.vcpus = 1,
		.format = IMAGE_FORMAT_RAW,
		.cache = CACHE_UNSAFE,
		.aio = AIO_THREADS,
		.bus = BUS_VIRTIO,
		.timeout = 120,
	};
	int c;

	log_set_program("vm-run");
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'u': uri = optarg; break;
		case 's': statedir = optarg; break;
		case 'k': spec.kernel = optarg; break;
		case 'i': spec.initrd = optarg; break;
		case 'd': spec.disk = optarg; break;
		case 'l': spec.console_log = optarg; break;
		case 'n': spec.name = optarg; break;
		case 'C': spec.cmdline = optarg; break;
		case 'K': check_boot = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'L': spec.ack_log = optarg; break;
		case 'N': spec.crash_after = strtoull(optarg, NULL, 10); break;
		case 'A':
			accel = lookup(&vm_accel_names, "accel", optarg);
			break;
		case 'c':
			spec.cache = lookup(&cache_mode_names, "cache", optarg);
			break;
		case 'a':
			spec.aio = lookup(&aio_mode_names, "aio", optarg);
			break;
		case 'b':
			spec.bus = lookup(&disk_bus_names, "bus", optarg);
			break;
		case 'f':
			spec.format = lookup(&image_format_names, "format", optarg);
			break;
		case 'm': spec.memory = strtoull(optarg, NULL, 10) << 20; break;
		case 't': spec.timeout = (unsigned)strtoul(optarg, NULL, 10); break;
		default: return 2;
		}
	}

	struct vm_host *h;
	if (vm_host_open(uri, statedir, accel, &h) < 0)
		return 1;
	struct vm_result res;
	int r = check_boot ? vm_host_check_boot(h, &spec, check_boot) : 0;
	if (r == 0)
		r = vm_run(h, &spec, &res);
	if (r < 0) {
		vm_host_close(h);
		signals_reraise();
		return 1;
	}
	printf("status=%s seconds=%.3f kvm=%d applied_known=%d writeback=%d "
	       "direct=%d no_flush=%d exists_after=%d log=%s\n",
	       vm_status_name(res.status), res.seconds, res.kvm,
	       res.applied_known, res.applied.writeback, res.applied.direct,
	       res.applied.no_flush, vm_host_has_domain(h, spec.name),
	       res.console_log);
	if (spec.ack_log)
		printf("acks=%llu killed=%d\nmessage: %s\n", (unsigned long long)res.acks,
		       res.killed, res.message);
	vm_host_close(h);
	return 0;
}
