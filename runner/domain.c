/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "domain.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>

#include "cleanup.h"
#include "xmlwrite.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(xmlTextWriter, xmlFreeTextWriter)
DEFINE_TRIVIAL_CLEANUP_FUNC(xmlBuffer, xmlBufferFree)

const char *domain_target_dev(enum disk_bus bus)
{
	switch (bus) {
	case BUS_VIRTIO:
		return "vda";
	case BUS_IDE:
		return "hda";
	case BUS_SCSI:
	case BUS_SATA:
	default:
		return "sda";
	}
}

/* libvirt takes any UTF-8 text, but XML 1.0 cannot carry most control
 * characters even escaped: refuse them instead of writing a document
 * libvirt would reject with a less helpful message. */
static bool text_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 && *p != '\t')
			return false;
	return xmlCheckUTF8((const xmlChar *)s);
}

static int write_os(xmlTextWriterPtr w, const struct vm_spec *spec)
{
	_cleanup_free_ char *cmdline = NULL;

	/* A guest that panics must not sit in the panic loop until the
	 * timeout: panic=-1 makes it reboot at once, and on_reboot=destroy
	 * ends the domain, so a crash costs seconds, not the whole timeout. */
	if (asprintf(&cmdline, "%s%s", spec->cmdline ? spec->cmdline : "",
		     spec->cmdline && strstr(spec->cmdline, "panic=")
			     ? ""
			     : " panic=-1") < 0)
		return -ENOMEM;

	XW(xmlwrite_start(w, "os"));
	XW(xmlwrite_start(w, "type"));
	XW(xmlwrite_attr(w, "arch", "x86_64"));
	/* q35 has no IDE controller: IDE disks get the i440fx machine. */
	XW(xmlwrite_attr(w, "machine", spec->bus == BUS_IDE ? "pc" : "q35"));
	XW(xmlTextWriterWriteString(w, BAD_CAST "hvm"));
	XW(xmlwrite_end(w));
	if (spec->firmware) {
		XW(xmlwrite_start(w, "loader"));
		XW(xmlwrite_attr(w, "type", "rom"));
		XW(xmlTextWriterWriteString(w, BAD_CAST spec->firmware));
		XW(xmlwrite_end(w));
	}
	XW(xmlwrite_element(w, "kernel", spec->kernel));
	XW(xmlwrite_element(w, "initrd", spec->initrd));
	XW(xmlwrite_element(w, "cmdline", cmdline));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_disk(xmlTextWriterPtr w, const struct vm_spec *spec)
{
	struct stat st;
	bool block = stat(spec->disk, &st) == 0 && S_ISBLK(st.st_mode);

	XW(xmlwrite_start(w, "disk"));
	XW(xmlwrite_attr(w, "type", block ? "block" : "file"));
	XW(xmlwrite_attr(w, "device", "disk"));
	XW(xmlwrite_start(w, "driver"));
	XW(xmlwrite_attr(w, "name", "qemu"));
	XW(xmlwrite_attr(w, "type", image_format_name(spec->format)));
	XW(xmlwrite_attr(w, "cache", cache_mode_name(spec->cache)));
	XW(xmlwrite_attr(w, "io", aio_mode_name(spec->aio)));
	if (spec->metadata_cache > 0) {
		char bytes[32];
		snprintf(bytes, sizeof bytes, "%llu",
			 (unsigned long long)spec->metadata_cache);
		XW(xmlwrite_start(w, "metadata_cache"));
		XW(xmlwrite_start(w, "max_size"));
		XW(xmlwrite_attr(w, "unit", "bytes"));
		XW(xmlTextWriterWriteString(w, BAD_CAST bytes));
		XW(xmlwrite_end(w));
		XW(xmlwrite_end(w));
	}
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "source"));
	XW(xmlwrite_attr(w, block ? "dev" : "file", spec->disk));
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "target"));
	XW(xmlwrite_attr(w, "dev", domain_target_dev(spec->bus)));
	XW(xmlwrite_attr(w, "bus", disk_bus_name(spec->bus)));
	XW(xmlwrite_end(w));
	if (spec->read_only) {
		XW(xmlwrite_start(w, "readonly"));
		XW(xmlwrite_end(w));
	}
	XW(xmlwrite_element(w, "serial", spec->serial ? spec->serial : DOMAIN_DISK_SERIAL));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_devices(xmlTextWriterPtr w, const struct vm_spec *spec)
{
	XW(xmlwrite_start(w, "devices"));
	XW(write_disk(w, spec));
	if (spec->bus == BUS_SCSI) {
		/* libvirt's default SCSI controller is the LSI one; the
		 * virtio one is what a KVM user means by "scsi". */
		XW(xmlwrite_start(w, "controller"));
		XW(xmlwrite_attr(w, "type", "scsi"));
		XW(xmlwrite_attr(w, "model", "virtio-scsi"));
		XW(xmlwrite_end(w));
	}
	/* Lean: no USB, no balloon; no graphics means no video, and no
	 * interface means no network. */
	XW(xmlwrite_start(w, "controller"));
	XW(xmlwrite_attr(w, "type", "usb"));
	XW(xmlwrite_attr(w, "model", "none"));
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "serial"));
	XW(xmlwrite_attr(w, "type", "file"));
	XW(xmlwrite_start(w, "source"));
	XW(xmlwrite_attr(w, "path", spec->console_log));
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "target"));
	XW(xmlwrite_attr(w, "port", "0"));
	XW(xmlwrite_end(w));
	XW(xmlwrite_end(w));
	XW(xmlwrite_start(w, "memballoon"));
	XW(xmlwrite_attr(w, "model", "none"));
	XW(xmlwrite_end(w));
	/* pvpanic: a guest that loads the driver reports its panic. */
	XW(xmlwrite_start(w, "panic"));
	XW(xmlwrite_attr(w, "model", "isa"));
	XW(xmlwrite_end(w));
	XW(xmlwrite_end(w));
	return 0;
}

static int write_domain(xmlTextWriterPtr w, const struct vm_spec *spec,
			bool kvm)
{
	char num[32];

	XW(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	XW(xmlwrite_start(w, "domain"));
	XW(xmlwrite_attr(w, "type", kvm ? "kvm" : "qemu"));
	XW(xmlwrite_element(w, "name", spec->name));
	XW(xmlwrite_start(w, "memory"));
	XW(xmlwrite_attr(w, "unit", "bytes"));
	snprintf(num, sizeof num, "%llu", (unsigned long long)spec->memory);
	XW(xmlTextWriterWriteString(w, BAD_CAST num));
	XW(xmlwrite_end(w));
	snprintf(num, sizeof num, "%u", spec->vcpus);
	XW(xmlwrite_element(w, "vcpu", num));
	XW(write_os(w, spec));
	XW(xmlwrite_start(w, "features"));
	XW(xmlwrite_start(w, "acpi")); /* poweroff needs ACPI to end the domain */
	XW(xmlwrite_end(w));
	XW(xmlwrite_end(w));
	if (kvm) {
		XW(xmlwrite_start(w, "cpu"));
		XW(xmlwrite_attr(w, "mode", "host-passthrough"));
		XW(xmlwrite_end(w));
	}
	XW(xmlwrite_element(w, "on_poweroff", "destroy"));
	XW(xmlwrite_element(w, "on_reboot", "destroy"));
	XW(xmlwrite_element(w, "on_crash", "destroy"));
	XW(write_devices(w, spec));
	XW(xmlwrite_end(w));
	XW(xmlTextWriterEndDocument(w));
	return 0;
}

bool domain_read_only_bus(enum disk_bus bus)
{
	return bus == BUS_VIRTIO || bus == BUS_SCSI;
}

int domain_xml(const struct vm_spec *spec, bool kvm, char **ret_xml)
{
	if (!text_ok(spec->name) || !text_ok(spec->kernel) ||
	    !text_ok(spec->initrd) || !text_ok(spec->disk) ||
	    !text_ok(spec->console_log) ||
	    (spec->cmdline && *spec->cmdline && !text_ok(spec->cmdline)) ||
	    (spec->serial && !text_ok(spec->serial)) ||
	    (spec->firmware && !text_ok(spec->firmware)))
		return -EINVAL;
	if (spec->memory < 1024 * 1024 || spec->vcpus == 0 ||
	    (unsigned)spec->format >= _IMAGE_FORMAT_MAX ||
	    (unsigned)spec->cache >= _CACHE_MAX ||
	    (unsigned)spec->aio >= _AIO_MAX || (unsigned)spec->bus >= _BUS_MAX)
		return -EINVAL;
	if (spec->metadata_cache > 0 && spec->format != IMAGE_FORMAT_QCOW2)
		return -EINVAL;
	if (spec->read_only && !domain_read_only_bus(spec->bus))
		return -EINVAL;

	_cleanup_(xmlBufferFreep) xmlBufferPtr buf = xmlBufferCreate();
	if (!buf)
		return -ENOMEM;
	_cleanup_(xmlFreeTextWriterp) xmlTextWriterPtr w =
		xmlNewTextWriterMemory(buf, 0);
	if (!w)
		return -ENOMEM;
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	int r = write_domain(w, spec, kvm);
	/* A writer into memory fails for want of memory. */
	if (r < 0)
		return r == -EIO ? -ENOMEM : r;
	if (xmlTextWriterFlush(w) < 0)
		return -ENOMEM;
	char *xml = strdup((const char *)xmlBufferContent(buf));
	if (!xml)
		return -ENOMEM;
	*ret_xml = xml;
	return 0;
}

const char *domain_guest_firmware(void)
{
	static const char qboot[] = "/usr/share/qemu/qboot.rom";
	const char *env = getenv("BUILDAPP_GUEST_FIRMWARE");

	if (env && strcmp(env, "seabios") == 0)
		return NULL;
	return access(qboot, R_OK) == 0 ? qboot : NULL;
}
