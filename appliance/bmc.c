/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bmc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "files.h"
#include "log.h"

/* The value after "NAME<blanks>:" on a line of ipmitool's OUT, without
 * its line end, into BUF; false when no line has it. */
static bool field(const char *out, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, name, n) != 0)
			continue;
		const char *p = l + n;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		size_t v = strcspn(p, "\r\n");
		while (v > 0 && (p[v - 1] == ' ' || p[v - 1] == '\t'))
			v--;
		snprintf(buf, len, "%.*s", (int)v, p);
		return true;
	}
	return false;
}

int bmc_parse_chassis_status(const char *out, bool *ret_on, bool *ret_fault)
{
	char v[64];

	if (!field(out, "System Power", v, sizeof(v)))
		return -EBADMSG;
	*ret_on = strcmp(v, "on") == 0;
	*ret_fault = field(out, "Power Control Fault", v, sizeof(v)) && strcmp(v, "true") == 0;
	return 0;
}

int bmc_parse_mc_info(const char *out, char *buf, size_t len)
{
	char version[32], firmware[32];

	if (!field(out, "IPMI Version", version, sizeof(version)))
		return -EBADMSG;
	if (field(out, "Firmware Revision", firmware, sizeof(firmware)))
		snprintf(buf, len, "IPMI %s, firmware %s", version, firmware);
	else
		snprintf(buf, len, "IPMI %s", version);
	return 0;
}

/* Runs ipmitool with ARGS (NULL-terminated, after the program's name),
 * its output in *RET_OUT (the caller frees it).  Returns 0, or a
 * negative errno with WHY the last line ipmitool wrote to stderr. */
static int ipmitool(const char *const *args, unsigned timeout, char **ret_out, char *why,
		    size_t len)
{
	char *argv[8] = {"ipmitool"}, err[] = "/tmp/buildapp-ipmitool.XXXXXX", last[200];
	size_t n = 1;
	struct command_result res = {0};
	int r;

	for (; *args && n < sizeof(argv) / sizeof(argv[0]) - 1; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	_cleanup_close_ int fd = mkstemp(err);
	if (fd < 0) {
		snprintf(why, len, "mkstemp: %s", strerror(errno));
		return -errno;
	}
	struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .max = 64 * 1024,
				 .stderr_path = err, .timeout = timeout};
	r = command_spawn(argv, &o, &res);
	bool said = files_last_line(err, last, sizeof(last));
	unlink(err);
	if (r == 0) {
		*ret_out = res.out;
		return 0;
	}
	free(res.out);
	char cmd[128];
	command_describe(argv, cmd, sizeof(cmd));
	if (said)
		snprintf(why, len, "'%.100s': %.150s", cmd, last);
	else if (r > 0)
		snprintf(why, len, "'%s' failed with exit status %d", cmd, r);
	else
		snprintf(why, len, "'%s': %s", cmd,
			 r == -ETIME ? "no answer within its time" : strerror(-r));
	return r > 0 ? -EIO : r;
}

int bmc_check(struct bmc *ret, char *why, size_t len)
{
	_cleanup_free_ char *info = NULL, *status = NULL;
	char version[96], detail[256];
	bool on, fault;
	int r;

	/* ipmi_si is the one the coldplug loaded where ACPI or SMBIOS names
	 * a BMC; ipmi_devintf has no device to be loaded for. */
	command_run((char *[]){"modprobe", "-q", "ipmi_si", NULL}, NULL, 1);
	command_run((char *[]){"modprobe", "-q", "ipmi_devintf", NULL}, NULL, 1);
	for (int i = 0; i < 50 && access(BMC_DEVICE, F_OK) < 0; i++)
		usleep(100 * 1000);
	if (access(BMC_DEVICE, F_OK) < 0) {
		snprintf(why, len, "no BMC answers in-band: %s is absent after loading ipmi_si "
			 "and ipmi_devintf (no BMC, or its system interface is turned off "
			 "in the BMC's settings)", BMC_DEVICE);
		return -ENODEV;
	}
	r = ipmitool((const char *[]){"mc", "info", NULL}, 60, &info, detail, sizeof(detail));
	if (r == 0)
		r = bmc_parse_mc_info(info, version, sizeof(version));
	if (r < 0) {
		snprintf(why, len, "the BMC does not answer Get Device ID: %s",
			 r == -EBADMSG ? "no IPMI version in its answer" : detail);
		return r;
	}
	r = ipmitool((const char *[]){"chassis", "status", NULL}, 60, &status, detail,
		     sizeof(detail));
	if (r == 0)
		r = bmc_parse_chassis_status(status, &on, &fault);
	if (r < 0) {
		snprintf(why, len, "the BMC (%s) does not answer Get Chassis Status: %s", version,
			 r == -EBADMSG ? "no system power in its answer" : detail);
		return r;
	}
	if (!on) {
		snprintf(why, len, "the BMC (%s) reads this server's chassis power off while "
			 "it runs: it does not control this server's power", version);
		return -EOPNOTSUPP;
	}
	if (fault) {
		snprintf(why, len, "the BMC (%s) reports a power control fault", version);
		return -EIO;
	}
	snprintf(ret->what, sizeof(ret->what), "in-band IPMI (%s): %s, chassis power on",
		 BMC_DEVICE, version);
	return 0;
}

int bmc_power_cycle(unsigned wait_seconds, char *why, size_t len)
{
	_cleanup_free_ char *out = NULL;
	char detail[256];
	int r;

	r = ipmitool((const char *[]){"chassis", "power", "cycle", NULL}, 60, &out, detail,
		     sizeof(detail));
	if (r < 0) {
		snprintf(why, len, "the BMC refused the power cycle: %s", detail);
		return r;
	}
	/* A BMC answers first, then cuts the power: this process ends here. */
	sleep(wait_seconds);
	snprintf(why, len, "the BMC took the power cycle, but the power did not go within %u s",
		 wait_seconds);
	return -ETIMEDOUT;
}
