/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's BMC, for the power cuts of durability runs: whether it can
 * cut and restore this server's power, asked before the sweep, and the
 * power cycle itself.  In-band IPMI through the kernel's driver: ipmi_si
 * finds the BMC's system interface (KCS, BT; ipmi_ssif for SMBus) in
 * ACPI or SMBIOS, ipmi_devintf makes /dev/ipmi0, and ipmitool talks to
 * it there, with no network and no password. */
#ifndef BUILDAPP_BMC_H
#define BUILDAPP_BMC_H

#include <stdbool.h>
#include <stddef.h>

#define BMC_TEXT_MAX 256
#define BMC_DEVICE "/dev/ipmi0"

struct bmc {
	/* What the BMC said of itself, for the console and the record:
	 * "in-band IPMI (/dev/ipmi0): IPMI 2.0, firmware 9.08, chassis
	 * power on" */
	char what[BMC_TEXT_MAX];
};

/* Whether the BMC can power-cycle this server: its system interface
 * there (the drivers loaded), Get Device ID and Get Chassis Status
 * answered, the chassis power on and no power control fault (a BMC whose
 * chassis reads off while this server runs does not control its power).
 * Returns 0 with *RET filled, or a negative errno with WHY (LEN bytes)
 * saying why not in a sentence. */
int bmc_check(struct bmc *ret, char *why, size_t len);

/* Has the BMC cut this server's power and restore it (Chassis Control,
 * power cycle).  Returns only when the power did not go: within
 * WAIT_SECONDS of the BMC's answer, or the BMC refused (its completion
 * code, said in WHY); a negative errno. */
int bmc_power_cycle(unsigned wait_seconds, char *why, size_t len);

/* From `ipmitool chassis status` OUT: whether the chassis power is on
 * and whether the BMC reports a power control fault.  Returns 0, or
 * -EBADMSG for output without a "System Power" line. */
int bmc_parse_chassis_status(const char *out, bool *ret_on, bool *ret_fault);

/* From `ipmitool mc info` OUT: "IPMI 2.0, firmware 9.08" into BUF.
 * Returns 0, or -EBADMSG without an "IPMI Version" line. */
int bmc_parse_mc_info(const char *out, char *buf, size_t len);

#endif
