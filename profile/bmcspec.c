/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bmcspec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "uploadurl.h"

bool bmcspec_is_redfish(const char *bmc)
{
	return strcmp(bmc, BMCSPEC_IPMI) != 0;
}

/* Whether PATH (after the authority) names a ComputerSystem or nothing:
 * "", "/", "/redfish/v1[/]", "/redfish/v1/Systems/ID[/]". */
static bool good_path(const char *path)
{
	static const char root[] = "/redfish/v1", systems[] = BMCSPEC_SYSTEMS "/";
	size_t n;

	if (!*path || strcmp(path, "/") == 0)
		return true;
	if (strncmp(path, root, sizeof(root) - 1) == 0 &&
	    (!path[sizeof(root) - 1] || strcmp(path + sizeof(root) - 1, "/") == 0))
		return true;
	if (strncmp(path, systems, sizeof(systems) - 1) != 0)
		return false;
	path += sizeof(systems) - 1;
	n = strcspn(path, "/");
	return n > 0 && (!path[n] || strcmp(path + n, "/") == 0);
}

int bmcspec_check(const char *bmc, char *reason, size_t len)
{
	const char *rest;

	if (!bmcspec_is_redfish(bmc))
		return 0;
	if (uploadurl_check_text(bmc, BMCSPEC_URL_MAX, reason, len) < 0)
		return -EINVAL;
	if (strncmp(bmc, "http://", 7) == 0) {
		snprintf(reason, len, "'%.64s': Redfish's Basic authentication over http:// would "
			 "give the BMC's password to the network: https:// only", bmc);
		return -EINVAL;
	}
	if (strncmp(bmc, "https://", 8) != 0) {
		snprintf(reason, len, "'%.64s' is neither ipmi (in-band) nor a Redfish endpoint's "
			 "https:// URL", bmc);
		return -EINVAL;
	}
	rest = bmc + 8;
	size_t host = strcspn(rest, "/?#");
	if (memchr(rest, '@', host)) {
		snprintf(reason, len, "must not carry credentials (user:password@): the profile "
			 "is in the kit's plan and manifest and on its console; put "
			 "USER:PASSWORD in a file named by [host] bmc_credentials");
		return -EINVAL;
	}
	if (host == 0 || rest[0] == ':') {
		snprintf(reason, len, "'%.64s' names no host", bmc);
		return -EINVAL;
	}
	if (strpbrk(rest + host, "?#") || !good_path(rest + host)) {
		snprintf(reason, len, "'%.64s': a Redfish endpoint is https://HOST[:PORT] or "
			 "https://HOST[:PORT]" BMCSPEC_SYSTEMS "/ID, with no query or fragment",
			 bmc);
		return -EINVAL;
	}
	return 0;
}

void bmcspec_split(const char *bmc, char base[BMCSPEC_URL_MAX], char system[BMCSPEC_URL_MAX])
{
	const char *rest = strstr(bmc, "://");
	size_t host;

	rest = rest ? rest + 3 : bmc;
	host = strcspn(rest, "/");
	snprintf(base, BMCSPEC_URL_MAX, "%.*s", (int)(rest + host - bmc), bmc);
	const char *path = rest + host;
	if (strncmp(path, BMCSPEC_SYSTEMS "/", sizeof(BMCSPEC_SYSTEMS)) != 0) {
		system[0] = '\0';
		return;
	}
	size_t n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	snprintf(system, BMCSPEC_URL_MAX, "%.*s", (int)n, path);
}

int bmcspec_read_credentials(const char *path, char user[BMCSPEC_USER_MAX],
			     char password[BMCSPEC_PASSWORD_MAX], char *reason, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[BMCSPEC_USER_MAX + BMCSPEC_PASSWORD_MAX + 4];

	if (!f) {
		int e = errno;
		snprintf(reason, len, "'%s': %s", path, strerror(e));
		return -e;
	}
	if (!fgets(line, sizeof(line), f)) {
		snprintf(reason, len, "'%s' is empty: it must hold USER:PASSWORD on one line", path);
		return -EINVAL;
	}
	size_t n = strlen(line);
	if (n && line[n - 1] == '\n')
		line[--n] = '\0';
	else if (!feof(f)) {
		explicit_bzero(line, sizeof(line));
		snprintf(reason, len, "'%s': its line is longer than %zu characters", path,
			 sizeof(line) - 2);
		return -EINVAL;
	}
	if (n && line[n - 1] == '\r')
		line[--n] = '\0';
	bool control = false;
	for (size_t i = 0; i < n; i++)
		control |= (unsigned char)line[i] < ' ' || line[i] == 0x7f;
	char *colon = strchr(line, ':');
	const char *bad = control ? "a control character in its line"
			  : !colon || colon == line ? "no USER:PASSWORD on its first line"
			  : (size_t)(colon - line) >= BMCSPEC_USER_MAX ? "a user name too long"
			  : strlen(colon + 1) >= BMCSPEC_PASSWORD_MAX ? "a password too long"
			  : NULL;
	if (!bad) {
		snprintf(user, BMCSPEC_USER_MAX, "%.*s", (int)(colon - line), line);
		snprintf(password, BMCSPEC_PASSWORD_MAX, "%s", colon + 1);
	}
	explicit_bzero(line, sizeof(line));
	if (bad) {
		snprintf(reason, len, "'%s': %s (it must hold USER:PASSWORD on one line)", path,
			 bad);
		return -EINVAL;
	}
	return 0;
}
