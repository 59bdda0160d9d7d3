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

#define W(call)                                                                \
	do {                                                                   \
		if ((call) < 0)                                                \
			return -ENOMEM;                                        \
	} while (0)

static int start(xmlTextWriterPtr w, const char *element)
{
	return xmlTextWriterStartElement(w, BAD_CAST element);
}

static int attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}

static int end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w);
}

static int element(xmlTextWriterPtr w, const char *name, const char *text)
{
	return xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST text);
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

	W(start(w, "os"));
	W(start(w, "type"));
	W(attr(w, "arch", "x86_64"));
	/* q35 has no IDE controller: IDE disks get the i440fx machine. */
	W(attr(w, "machine", spec->bus == BUS_IDE ? "pc" : "q35"));
	W(xmlTextWriterWriteString(w, BAD_CAST "hvm"));
	W(end(w));
	W(element(w, "kernel", spec->kernel));
	W(element(w, "initrd", spec->initrd));
	W(element(w, "cmdline", cmdline));
	W(end(w));
	return 0;
}

static int write_disk(xmlTextWriterPtr w, const struct vm_spec *spec)
{
	struct stat st;
	bool block = stat(spec->disk, &st) == 0 && S_ISBLK(st.st_mode);

	W(start(w, "disk"));
	W(attr(w, "type", block ? "block" : "file"));
	W(attr(w, "device", "disk"));
	W(start(w, "driver"));
	W(attr(w, "name", "qemu"));
	W(attr(w, "type", image_format_name(spec->format)));
	W(attr(w, "cache", cache_mode_name(spec->cache)));
	W(attr(w, "io", aio_mode_name(spec->aio)));
	if (spec->metadata_cache > 0) {
		char bytes[32];
		snprintf(bytes, sizeof bytes, "%llu",
			 (unsigned long long)spec->metadata_cache);
		W(start(w, "metadata_cache"));
		W(start(w, "max_size"));
		W(attr(w, "unit", "bytes"));
		W(xmlTextWriterWriteString(w, BAD_CAST bytes));
		W(end(w));
		W(end(w));
	}
	W(end(w));
	W(start(w, "source"));
	W(attr(w, block ? "dev" : "file", spec->disk));
	W(end(w));
	W(start(w, "target"));
	W(attr(w, "dev", domain_target_dev(spec->bus)));
	W(attr(w, "bus", disk_bus_name(spec->bus)));
	W(end(w));
	W(element(w, "serial", spec->serial ? spec->serial : DOMAIN_DISK_SERIAL));
	W(end(w));
	return 0;
}

static int write_devices(xmlTextWriterPtr w, const struct vm_spec *spec)
{
	W(start(w, "devices"));
	W(write_disk(w, spec));
	if (spec->bus == BUS_SCSI) {
		/* libvirt's default SCSI controller is the LSI one; the
		 * virtio one is what a KVM user means by "scsi". */
		W(start(w, "controller"));
		W(attr(w, "type", "scsi"));
		W(attr(w, "model", "virtio-scsi"));
		W(end(w));
	}
	/* Lean: no USB, no balloon; no graphics means no video, and no
	 * interface means no network. */
	W(start(w, "controller"));
	W(attr(w, "type", "usb"));
	W(attr(w, "model", "none"));
	W(end(w));
	W(start(w, "serial"));
	W(attr(w, "type", "file"));
	W(start(w, "source"));
	W(attr(w, "path", spec->console_log));
	W(end(w));
	W(start(w, "target"));
	W(attr(w, "port", "0"));
	W(end(w));
	W(end(w));
	W(start(w, "memballoon"));
	W(attr(w, "model", "none"));
	W(end(w));
	/* pvpanic: a guest that loads the driver reports its panic. */
	W(start(w, "panic"));
	W(attr(w, "model", "isa"));
	W(end(w));
	W(end(w));
	return 0;
}

static int write_domain(xmlTextWriterPtr w, const struct vm_spec *spec,
			bool kvm)
{
	char num[32];

	W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W(start(w, "domain"));
	W(attr(w, "type", kvm ? "kvm" : "qemu"));
	W(element(w, "name", spec->name));
	W(start(w, "memory"));
	W(attr(w, "unit", "bytes"));
	snprintf(num, sizeof num, "%llu", (unsigned long long)spec->memory);
	W(xmlTextWriterWriteString(w, BAD_CAST num));
	W(end(w));
	snprintf(num, sizeof num, "%u", spec->vcpus);
	W(element(w, "vcpu", num));
	W(write_os(w, spec));
	W(start(w, "features"));
	W(start(w, "acpi")); /* poweroff needs ACPI to end the domain */
	W(end(w));
	W(end(w));
	if (kvm) {
		W(start(w, "cpu"));
		W(attr(w, "mode", "host-passthrough"));
		W(end(w));
	}
	W(element(w, "on_poweroff", "destroy"));
	W(element(w, "on_reboot", "destroy"));
	W(element(w, "on_crash", "destroy"));
	W(write_devices(w, spec));
	W(end(w));
	W(xmlTextWriterEndDocument(w));
	return 0;
}

int domain_xml(const struct vm_spec *spec, bool kvm, char **ret_xml)
{
	if (!text_ok(spec->name) || !text_ok(spec->kernel) ||
	    !text_ok(spec->initrd) || !text_ok(spec->disk) ||
	    !text_ok(spec->console_log) ||
	    (spec->cmdline && *spec->cmdline && !text_ok(spec->cmdline)) ||
	    (spec->serial && !text_ok(spec->serial)))
		return -EINVAL;
	if (spec->memory < 1024 * 1024 || spec->vcpus == 0 ||
	    (unsigned)spec->format >= _IMAGE_FORMAT_MAX ||
	    (unsigned)spec->cache >= _CACHE_MAX ||
	    (unsigned)spec->aio >= _AIO_MAX || (unsigned)spec->bus >= _BUS_MAX)
		return -EINVAL;
	if (spec->metadata_cache > 0 && spec->format != IMAGE_FORMAT_QCOW2)
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
	if (r < 0)
		return r;
	if (xmlTextWriterFlush(w) < 0)
		return -ENOMEM;
	char *xml = strdup((const char *)xmlBufferContent(buf));
	if (!xml)
		return -ENOMEM;
	*ret_xml = xml;
	return 0;
}
