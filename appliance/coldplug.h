/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Coldplug, as udev does it at boot without udev: modprobe for every
 * modalias in sysfs. */
#ifndef BUILDAPP_COLDPLUG_H
#define BUILDAPP_COLDPLUG_H

#include <stddef.h>

/* Loads the modules for the devices present, again for the devices those
 * modules reveal (virtio_pci shows virtio devices), until nothing new. */
void coldplug_run(void);

/* How many distinct device aliases coldplug_run has seen since the boot. */
size_t coldplug_aliases(void);

#endif
