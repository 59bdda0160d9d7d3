/* SPDX-License-Identifier: GPL-2.0-or-later */
/* [host] bmc and its keys: the BMC a kit asks to cut and restore the
 * server's power (crash = power).  "ipmi" is the in-band interface
 * through the kernel's driver; anything else is a Redfish endpoint,
 * https only, whose account is in a file of its own
 * ([host] bmc_credentials), never in the profile: a profile is baked into
 * the kit's plan and manifest and said on the console. */
#ifndef BUILDAPP_BMCSPEC_H
#define BUILDAPP_BMCSPEC_H

#include <stdbool.h>
#include <stddef.h>

#define BMCSPEC_IPMI "ipmi"
#define BMCSPEC_URL_MAX 256
#define BMCSPEC_USER_MAX 128
#define BMCSPEC_PASSWORD_MAX 256
/* The path of a Redfish service's systems collection. */
#define BMCSPEC_SYSTEMS "/redfish/v1/Systems"

/* Whether BMC names a Redfish endpoint (anything but "ipmi"). */
bool bmcspec_is_redfish(const char *bmc);

/* Whether BMC is one a kit takes: "ipmi", or https://HOST[:PORT] with
 * no path (or /redfish/v1) or the path of one ComputerSystem
 * (/redfish/v1/Systems/ID); no user:password@, query or fragment, no
 * space or control character.  Returns 0, or -EINVAL with the reason in
 * REASON. */
int bmcspec_check(const char *bmc, char *reason, size_t len);

/* A Redfish BMC URL (bmcspec_check passed) split: its scheme and
 * authority ("https://10.0.0.5:443") into BASE, and the path of its
 * ComputerSystem into SYSTEM ("" when the URL names none: the service's
 * one system, found through BMCSPEC_SYSTEMS). */
void bmcspec_split(const char *bmc, char base[BMCSPEC_URL_MAX], char system[BMCSPEC_URL_MAX]);

/* Reads the Redfish account in the file PATH: one line USER:PASSWORD
 * (the password may hold ':'), no control characters.  Returns 0, or a
 * negative errno with the reason in REASON; neither the reason nor
 * anything else says what the file holds. */
int bmcspec_read_credentials(const char *path, char user[BMCSPEC_USER_MAX],
			     char password[BMCSPEC_PASSWORD_MAX], char *reason, size_t len);

#endif
