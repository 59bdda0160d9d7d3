# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/appliance/%.o: INCDIRS = $(APPLIANCE_INCDIRS)

# Shared by builder and appliance: the typed profile and plan, statistics,
# libvirt runs, the journal and summary, the guest protocol (command line,
# console parser), host-side qemu-img bench, the sweep, the appliance's
# disk discovery and host tuning, the studies' published tables.
APPLIANCE_SRCS := appliance/profile.c appliance/keys.c appliance/plan.c \
	appliance/stats.c appliance/compare.c appliance/domain.c appliance/vm.c appliance/dirtymap.c appliance/volreset.c appliance/journal.c \
	appliance/jsonget.c appliance/summary.c \
	appliance/guestcmdline.c appliance/results.c appliance/imgbench.c \
	appliance/sweep.c appliance/eta.c appliance/timings.c appliance/volumes.c appliance/bench.c appliance/runstate.c \
	appliance/disks.c appliance/hosttune.c appliance/sysfs.c appliance/qcow2cache.c \
	appliance/bundle.c appliance/report.c appliance/report_cmp.c appliance/report_rack.c appliance/report_text.c appliance/report_html.c \
	appliance/report_chart.c appliance/hostinfo.c appliance/reference.c appliance/reftable.c \
	appliance/upload.c appliance/netup.c appliance/kitkernel.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o) \
	$(B)/appliance/reference_data.o

# The studies' published tables, built into the program (reference_data.h):
# each appliance/reference/NAME.json becomes a NUL-terminated char array.
REFERENCE_JSON := $(sort $(wildcard appliance/reference/*.json))
$(B)/appliance/reference_data.c: $(REFERENCE_JSON) appliance/module.mk
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@){ \
	  echo '/* Generated from the JSON files of appliance/reference: do not edit. */'; \
	  echo '#include "reference_data.h"'; \
	  for f in $(REFERENCE_JSON); do \
	    echo "static const unsigned char d_$$(basename $$f .json | tr -c 'a-z0-9\n' _)[] = {"; \
	    xxd -i < $$f; echo ', 0};'; \
	  done; \
	  echo 'const struct reference_data reference_data[] = {'; \
	  for f in $(REFERENCE_JSON); do n=$$(basename $$f .json); \
	    echo "	{\"$$n\", (const char *)d_$$(echo $$n | tr -c 'a-z0-9\n' _)},"; \
	  done; \
	  echo '};'; \
	  echo 'const size_t n_reference_data = sizeof(reference_data) / sizeof(reference_data[0]);'; \
	} > $@.tmp && mv $@.tmp $@
$(B)/appliance/reference_data.o: $(B)/appliance/reference_data.c appliance/reference_data.h
	$(call quiet,CC,$<)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
APPLIANCE_LIBS = $(call pc_libs,json-c libxml-2.0 libvirt libvirt-qemu libcrypto libcurl) \
	-lpthread -lm

# libxml2 keeps its headers in a subfolder.
XML_CFLAGS = $(call pc_cflags,libxml-2.0)
$(B)/appliance/domain.o $(B)/tests/unit/test_domain.o: ALL_CFLAGS += $(XML_CFLAGS)
$(B)/appliance/report_html.o $(B)/appliance/report_chart.o \
	$(B)/tests/unit/test_report_html.o: ALL_CFLAGS += $(XML_CFLAGS)

# Driver of the libvirt integration test (tests/integration/vm-run.sh).
$(B)/tests/integration/vm-run: $(B)/tests/integration/vm_run.o \
		$(B)/libappliance.a $(STORAGE_ARCHIVES) $(B)/libcommon.a
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LIBS) $(STORAGE_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/vm-run

# Driver of the fast reset test (tests/integration/fast-reset.sh): a
# tracked guest run and both resets.
$(B)/tests/integration/fast-reset: $(B)/tests/integration/fast_reset.o \
		$(B)/libappliance.a $(STORAGE_ARCHIVES) $(B)/libcommon.a
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LIBS) $(STORAGE_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/fast-reset

# The guest agent: PID 1 of the benchmark guest, linked statically so the
# initramfs needs no C library.  Built without sanitizers (they do not
# link statically) and without the project's libraries, except the
# runner and its signal policy (lib/command.c, lib/signals.c, lib/log.c,
# lib/monotonic.c: libc only), compiled again for it.
AGENT_SRCS := appliance/agent/agent.c appliance/agent/workload.c
AGENT_LIB_SRCS := lib/command.c lib/signals.c lib/log.c lib/monotonic.c
AGENT_OBJS := $(AGENT_SRCS:appliance/agent/%.c=$(B)/agent/%.o) \
	$(AGENT_LIB_SRCS:lib/%.c=$(B)/agent/lib/%.o)
$(B)/agent/%.o: appliance/agent/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -D_GNU_SOURCE -Iappliance -Ilib $(WARNFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<
$(B)/agent/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -D_GNU_SOURCE -Ilib $(WARNFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<
$(B)/buildapp-agent: $(AGENT_OBJS)
	$(call quiet,LD,$@)$(CC) -static $(LDFLAGS) -o $@ $^
PROGRAMS += $(B)/buildapp-agent
# guestkit_build() finds it in LIBEXECDIR once installed.
INSTALL_EXTRA += install -m 755 $(B)/buildapp-agent \
	$(DESTDIR)$(LIBEXECDIR)/buildapp-agent;

# PID 1 of the appliance.  It runs the sweep through libvirt, so it links
# libvirt, libxml2, json-c and libblkid dynamically: the appliance's root
# is made of the packages that carry them.  No libguestfs, no iniparser.
$(B)/buildapp-init: $(B)/appliance/init.o $(B)/libappliance.a $(B)/libstorage.a \
		$(B)/libcommon.a
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LIBS) \
		$(STORAGE_CORE_LIBS)
PROGRAMS += $(B)/buildapp-init
# kit_build() finds it in LIBEXECDIR once installed.
INSTALL_EXTRA += install -m 755 $(B)/buildapp-init \
	$(DESTDIR)$(LIBEXECDIR)/buildapp-init;

# The host root's ICU data library, empty (builder/icustub.c): data
# only, from the installed ICU's headers, linked against nothing.
$(B)/icudata-stub.so: appliance/icudata_stub.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(WARNFLAGS) $(CFLAGS) $(call pc_cflags,icu-uc) \
		-shared -fPIC -nostdlib -o $@ $<
PROGRAMS += $(B)/icudata-stub.so
INSTALL_EXTRA += install -m 755 $(B)/icudata-stub.so \
	$(DESTDIR)$(LIBEXECDIR)/icudata-stub.so;

# Driver of the report.html test (tests/integration/report-html.sh).
$(B)/tests/integration/report-html-render: \
		$(B)/tests/integration/report_html_render.o $(B)/libappliance.a \
		$(B)/libcommon.a
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/report-html-render
