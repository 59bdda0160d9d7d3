/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "netup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "log.h"
#include "sysfs.h"

#define BUSYBOX "/usr/bin/busybox"
#define DHCP_SCRIPT "/run/buildapp-dhcp.sh"

/* What udhcpc runs with the lease in its environment: the address, the
 * default route and the resolver.  busybox alone, no other shell. */
static const char dhcp_script[] =
	"#!" BUSYBOX " sh\n"
	"bb=" BUSYBOX "\n"
	"case \"$1\" in\n"
	"deconfig) $bb ip addr flush dev \"$interface\"; $bb ip link set \"$interface\" up ;;\n"
	"bound|renew)\n"
	"  $bb ip addr flush dev \"$interface\"\n"
	"  $bb ip addr add \"$ip/${mask:-24}\" dev \"$interface\"\n"
	"  for r in $router; do $bb ip route add default via \"$r\" dev \"$interface\"; break; done\n"
	"  : > /etc/resolv.conf\n"
	"  for d in $dns; do echo \"nameserver $d\" >> /etc/resolv.conf; done ;;\n"
	"esac\n"
	"exit 0\n";

int netup_is_ethernet(const char *sys_net, const char *name)
{
	char path[PATH_MAX], type[16];

	if (name[0] == '.' || strcmp(name, "lo") == 0)
		return 0;
	snprintf(path, sizeof path, "%s/%s/type", sys_net, name);
	return sysfs_read(path, type, sizeof type) == 0 && strcmp(type, "1") == 0;
}

static int write_script(char *reason, size_t len)
{
	_cleanup_close_ int fd = open(DHCP_SCRIPT, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	size_t n = sizeof dhcp_script - 1;
	if (fd < 0 || write(fd, dhcp_script, n) != (ssize_t)n) {
		snprintf(reason, len, "writing %s: %s", DHCP_SCRIPT, strerror(errno));
		return -errno;
	}
	return 0;
}

int netup_dhcp(const char *sys_net, unsigned wait_seconds, char ifname[NETUP_IF_MAX],
	       char *reason, size_t len)
{
	int r = write_script(reason, len);
	bool seen = false;

	if (r < 0)
		return r;
	mkdir("/etc", 0755);
	for (unsigned t = 0; t <= wait_seconds * 4; t++) {
		struct dirent **names = NULL;
		int n = scandir(sys_net, &names, NULL, alphasort);
		r = -1;
		for (int i = 0; i < n; i++) {
			const char *name = names[i]->d_name;
			if (r != 0 && strlen(name) < NETUP_IF_MAX && netup_is_ethernet(sys_net, name)) {
				seen = true;
				char ifc[NETUP_IF_MAX];
				memcpy(ifc, name, strlen(name) + 1);
				command_run((char *[]){BUSYBOX, "ip", "link", "set", ifc, "up", NULL},
					    NULL, 1);
				/* Five discovers two seconds apart, then give up. */
				r = command_run((char *[]){BUSYBOX, "udhcpc", "-i", ifc, "-n", "-q", "-f",
							   "-t", "5", "-T", "2", "-s", DHCP_SCRIPT,
							   NULL},
						NULL, 1);
				if (r == 0) {
					snprintf(ifname, NETUP_IF_MAX, "%s", ifc);
					log_info("network: %s configured by DHCP", ifc);
				}
			}
			free(names[i]);
		}
		free(names);
		if (r == 0 && seen)
			return 0;
		if (seen)
			break;
		usleep(250 * 1000);
	}
	snprintf(reason, len, "%s", seen ? "no DHCP lease on the Ethernet interface"
					 : "no Ethernet interface (no network driver for this NIC?)");
	return seen ? -EHOSTUNREACH : -ENODEV;
}
