/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The appliance's network, for an upload only: the first Ethernet
 * interface that gets a DHCP lease (busybox udhcpc), configured with
 * busybox ip.  Nothing listens on it. */
#ifndef BUILDAPP_NETUP_H
#define BUILDAPP_NETUP_H

#include <stddef.h>

#define NETUP_IF_MAX 32

/* Waits up to WAIT_SECONDS for an Ethernet interface under SYS_NET
 * (/sys/class/net), brings each up in name order and asks DHCP until one
 * gets a lease; its name into IFNAME.  Returns 0, or a negative errno
 * with the reason in REASON. */
int netup_dhcp(const char *sys_net, unsigned wait_seconds, char ifname[NETUP_IF_MAX],
	       char *reason, size_t len);

/* Whether the interface NAME under SYS_NET is Ethernet (type 1) and not
 * the loopback. */
int netup_is_ethernet(const char *sys_net, const char *name);

#endif
