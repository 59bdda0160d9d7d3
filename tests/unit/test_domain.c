/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Domain XML: parsed back with libxml2 and checked with XPath. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "domain.h"

static struct vm_spec base_spec(void)
{
	return (struct vm_spec){
		.name = "buildapp-r1",
		.kernel = "/boot/vmlinuz",
		.initrd = "/tmp/kit/initrd.img",
		.cmdline = "console=ttyS0 buildapp.workload=fio",
		.memory = 512ull << 20,
		.vcpus = 2,
		.disk = "/var/tmp/disk under test.qcow2",
		.format = IMAGE_FORMAT_QCOW2,
		.cache = CACHE_UNSAFE,
		.aio = AIO_THREADS,
		.bus = BUS_VIRTIO,
		.console_log = "/tmp/results/run-1.log",
	};
}

static xmlDocPtr parse(const struct vm_spec *spec, bool kvm)
{
	char *xml = NULL;
	assert_int_equal(domain_xml(spec, kvm, &xml), 0);
	xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "dom.xml", NULL,
				      XML_PARSE_NONET);
	free(xml);
	assert_non_null(doc);
	return doc;
}

/* The string value of XPath EXPR, or "" (caller frees). */
static char *xpath(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	assert_non_null(o);
	xmlChar *s = xmlXPathCastToString(o);
	char *r = strdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return r;
}

#define assert_xpath(doc, expr, want)                                          \
	do {                                                                   \
		char *_v = xpath(doc, expr);                                   \
		assert_string_equal(_v, want);                                 \
		free(_v);                                                      \
	} while (0)

/* The guests' firmware, when given: a ROM QEMU starts with -bios. */
static void test_firmware(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.firmware = "/usr/share/qemu/qboot.rom";
	xmlDocPtr doc = parse(&spec, false);
	assert_xpath(doc, "/domain/os/loader", "/usr/share/qemu/qboot.rom");
	assert_xpath(doc, "/domain/os/loader/@type", "rom");
	xmlFreeDoc(doc);
	char *xml = NULL;
	spec.firmware = "/a\nb";
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	assert_null(xml);
}

/* A disk the guest only reads: <readonly/>, on the buses libvirt allows
 * it on; IDE and SATA refused. */
static void test_read_only_disk(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.read_only = true;
	xmlDocPtr doc = parse(&spec, false);
	assert_xpath(doc, "count(/domain/devices/disk/readonly)", "1");
	xmlFreeDoc(doc);
	spec.bus = BUS_SCSI;
	doc = parse(&spec, false);
	assert_xpath(doc, "count(/domain/devices/disk/readonly)", "1");
	xmlFreeDoc(doc);
	static const enum disk_bus refused[] = {BUS_IDE, BUS_SATA};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *xml = NULL;
		spec.bus = refused[i];
		assert_false(domain_read_only_bus(spec.bus));
		assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
		assert_null(xml);
	}
}

static void test_full_domain(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.metadata_cache = 4 << 20;
	xmlDocPtr doc = parse(&spec, false);
	assert_xpath(doc, "string(/domain/@type)", "qemu");
	assert_xpath(doc, "/domain/name", "buildapp-r1");
	assert_xpath(doc, "/domain/memory", "536870912");
	assert_xpath(doc, "/domain/memory/@unit", "bytes");
	assert_xpath(doc, "/domain/vcpu", "2");
	assert_xpath(doc, "/domain/os/type/@machine", "q35");
	assert_xpath(doc, "/domain/os/kernel", "/boot/vmlinuz");
	assert_xpath(doc, "/domain/os/initrd", "/tmp/kit/initrd.img");
	assert_xpath(doc, "count(/domain/os/loader)", "0");
	assert_xpath(doc, "/domain/os/cmdline",
		     "console=ttyS0 buildapp.workload=fio panic=-1");
	assert_xpath(doc, "count(/domain/features/acpi)", "1");
	assert_xpath(doc, "/domain/on_crash", "destroy");
	assert_xpath(doc, "/domain/on_reboot", "destroy");
	assert_xpath(doc, "count(/domain/devices/disk)", "1");
	assert_xpath(doc, "/domain/devices/disk/@type", "file");
	assert_xpath(doc, "/domain/devices/disk/driver/@name", "qemu");
	assert_xpath(doc, "/domain/devices/disk/driver/@type", "qcow2");
	assert_xpath(doc, "/domain/devices/disk/driver/@cache", "unsafe");
	assert_xpath(doc, "/domain/devices/disk/driver/@io", "threads");
	assert_xpath(doc,
		     "/domain/devices/disk/driver/metadata_cache/max_size",
		     "4194304");
	assert_xpath(doc,
		     "/domain/devices/disk/driver/metadata_cache/max_size/@unit",
		     "bytes");
	assert_xpath(doc, "/domain/devices/disk/source/@file",
		     "/var/tmp/disk under test.qcow2");
	assert_xpath(doc, "/domain/devices/disk/target/@bus", "virtio");
	assert_xpath(doc, "/domain/devices/disk/target/@dev", "vda");
	assert_xpath(doc, "/domain/devices/disk/serial", DOMAIN_DISK_SERIAL);
	assert_xpath(doc, "count(/domain/devices/disk/readonly)", "0");
	assert_xpath(doc, "/domain/devices/serial/@type", "file");
	assert_xpath(doc, "/domain/devices/serial/source/@path",
		     "/tmp/results/run-1.log");
	/* lean */
	assert_xpath(doc, "/domain/devices/controller[@type='usb']/@model",
		     "none");
	assert_xpath(doc, "/domain/devices/memballoon/@model", "none");
	assert_xpath(doc,
		     "count(/domain/devices/interface | /domain/devices/video |"
		     " /domain/devices/graphics)",
		     "0");
	assert_xpath(doc, "count(/domain/cpu)", "0");
	xmlFreeDoc(doc);
}

static void test_kvm_ide_block(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.bus = BUS_IDE;
	spec.format = IMAGE_FORMAT_RAW;
	spec.cache = CACHE_DIRECTSYNC;
	spec.aio = AIO_NATIVE;
	spec.disk = "/dev/null"; /* a device node: not a file source */
	spec.cmdline = "console=ttyS0 panic=10";
	xmlDocPtr doc = parse(&spec, true);
	assert_xpath(doc, "string(/domain/@type)", "kvm");
	assert_xpath(doc, "/domain/cpu/@mode", "host-passthrough");
	assert_xpath(doc, "/domain/os/type/@machine", "pc");
	assert_xpath(doc, "/domain/os/cmdline", "console=ttyS0 panic=10");
	assert_xpath(doc, "/domain/devices/disk/target/@bus", "ide");
	assert_xpath(doc, "/domain/devices/disk/target/@dev", "hda");
	assert_xpath(doc, "/domain/devices/disk/driver/@type", "raw");
	assert_xpath(doc, "/domain/devices/disk/driver/@cache", "directsync");
	assert_xpath(doc, "/domain/devices/disk/driver/@io", "native");
	assert_xpath(doc, "count(/domain/devices/disk/driver/metadata_cache)",
		     "0");
	xmlFreeDoc(doc);
}

static void test_scsi_sata(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.bus = BUS_SCSI;
	spec.aio = AIO_IO_URING;
	xmlDocPtr doc = parse(&spec, false);
	assert_xpath(doc, "/domain/devices/controller[@type='scsi']/@model",
		     "virtio-scsi");
	assert_xpath(doc, "/domain/devices/disk/target/@dev", "sda");
	assert_xpath(doc, "/domain/devices/disk/driver/@io", "io_uring");
	xmlFreeDoc(doc);
	spec.bus = BUS_SATA;
	doc = parse(&spec, false);
	assert_xpath(doc, "/domain/devices/disk/target/@bus", "sata");
	assert_xpath(doc, "count(/domain/devices/controller[@type='scsi'])",
		     "0");
	xmlFreeDoc(doc);
}

/* Markup in any string stays text: nothing can inject elements. */
static void test_escaping(void **state)
{
	(void)state;
	struct vm_spec spec = base_spec();
	spec.name = "a<b>&'\"c";
	spec.disk = "/tmp/x'/><source file='/etc/shadow'/>.img";
	spec.cmdline = "quiet </cmdline><kernel>/evil</kernel> a&b";
	spec.serial = "S&<>";
	xmlDocPtr doc = parse(&spec, false);
	assert_xpath(doc, "/domain/name", "a<b>&'\"c");
	assert_xpath(doc, "count(/domain/devices/disk/source)", "1");
	assert_xpath(doc, "/domain/devices/disk/source/@file",
		     "/tmp/x'/><source file='/etc/shadow'/>.img");
	assert_xpath(doc, "/domain/os/cmdline",
		     "quiet </cmdline><kernel>/evil</kernel> a&b panic=-1");
	assert_xpath(doc, "count(/domain/os/kernel)", "1");
	assert_xpath(doc, "/domain/devices/disk/serial", "S&<>");
	xmlFreeDoc(doc);
}

static void test_invalid(void **state)
{
	(void)state;
	char *xml = NULL;
	struct vm_spec spec = base_spec();
	spec.name = "bad\001name";
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	spec = base_spec();
	spec.disk = "\xff\xfe";
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	spec = base_spec();
	spec.kernel = NULL;
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	spec = base_spec();
	spec.format = IMAGE_FORMAT_RAW;
	spec.metadata_cache = 1 << 20;
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	spec = base_spec();
	spec.vcpus = 0;
	assert_int_equal(domain_xml(&spec, false, &xml), -EINVAL);
	assert_null(xml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_domain),
		cmocka_unit_test(test_read_only_disk),
		cmocka_unit_test(test_firmware),
		cmocka_unit_test(test_kvm_ide_block),
		cmocka_unit_test(test_scsi_sata),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
