/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Redfish BMC ([host] bmc = https://...), for the power cuts of
 * crash = power: whether it can power-cycle this server, asked before the
 * sweep, and the power cycle itself (ComputerSystem.Reset with ResetType
 * PowerCycle, DSP0268).  HTTPS only, the certificate verified under the
 * URL's host name, HTTP Basic authentication with the account of
 * [host] bmc_credentials (never logged, never in a message), no redirect
 * followed (it would carry the account elsewhere). */
#ifndef BUILDAPP_REDFISH_H
#define BUILDAPP_REDFISH_H

#include <stdbool.h>
#include <stddef.h>

#include "bmcspec.h"

#define REDFISH_TEXT_MAX 256

struct redfish {
	char base[BMCSPEC_URL_MAX];   /* "https://10.0.0.5" */
	char system[BMCSPEC_URL_MAX]; /* "/redfish/v1/Systems/1"; "": to be found */
	char target[BMCSPEC_URL_MAX]; /* the Reset action's target (a path) */
	char user[BMCSPEC_USER_MAX];
	char password[BMCSPEC_PASSWORD_MAX];
	char ca[256]; /* a PEM file; "": the system's CAs */
	/* For the console and the record, no account in it: "Redfish
	 * https://10.0.0.5/redfish/v1/Systems/1" */
	char what[REDFISH_TEXT_MAX];
};

/* What a ComputerSystem resource says of its power and its Reset. */
struct redfish_system {
	char power_state[16]; /* "On", "Off", ...; "": not said */
	char target[BMCSPEC_URL_MAX]; /* #ComputerSystem.Reset's target; "": none */
	char action_info[BMCSPEC_URL_MAX]; /* its @Redfish.ActionInfo; "": none */
	bool listed;      /* ResetType@Redfish.AllowableValues is there */
	bool power_cycle; /* and holds PowerCycle */
	char values[160]; /* its values, ", " between them */
};

/* Fills RF for the endpoint BMC (bmcspec_check passed), its account read
 * from the file CREDENTIALS, its certificate verified against the PEM
 * file CA (NULL: the system's CAs).  Returns 0, or a negative errno with
 * WHY (LEN bytes) saying it. */
int redfish_open(struct redfish *rf, const char *bmc, const char *credentials, const char *ca,
		 char *why, size_t len);

/* Forgets RF's account.  Accepts a zeroed RF. */
void redfish_close(struct redfish *rf);

/* Whether the BMC can power-cycle this server: its system found (the
 * service's one, when the URL names none), its PowerState On, and
 * PowerCycle among the ResetType values its Reset allows (in the action,
 * or in its ActionInfo).  Fills RF's system, target and what.  Returns 0,
 * or a negative errno with WHY saying why not in a sentence. */
int redfish_check(struct redfish *rf, char *why, size_t len);

/* Asks RF's system for a PowerCycle (redfish_check first).  Returns only
 * when the power did not go: the BMC refused (its status and message in
 * WHY), or the server was still up WAIT_SECONDS after it accepted; a
 * negative errno. */
int redfish_power_cycle(const struct redfish *rf, unsigned wait_seconds, char *why,
			size_t len);

/* From a collection resource's JSON TEXT: its member count into
 * *RET_COUNT and the first member's @odata.id into PATH.  Returns 0 or
 * -EBADMSG. */
int redfish_parse_members(const char *text, char path[BMCSPEC_URL_MAX], size_t *ret_count);

/* From a ComputerSystem's JSON TEXT into *RET.  Returns 0 or -EBADMSG. */
int redfish_parse_system(const char *text, struct redfish_system *ret);

/* From an ActionInfo's JSON TEXT: ResetType's AllowableValues into RET's
 * listed, power_cycle and values.  Returns 0 or -EBADMSG. */
int redfish_parse_action_info(const char *text, struct redfish_system *ret);

#endif
