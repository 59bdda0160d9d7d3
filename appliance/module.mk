# SPDX-License-Identifier: GPL-2.0-or-later
# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/appliance/%.o: INCDIRS = $(APPLIANCE_INCDIRS)

# What PID 1 of the lab server does (buildapp-init): find the disk under
# test and RESULTS, set the host's write and page cache, bring the network
# up, fetch the kit's kernel from the ESP, record the host (host.json),
# run the sweep (runner/) and ask for the report (report/), upload the
# bundle; and the benchmark guest's PID 1 beside it (agent/).
APPLIANCE_SRCS := appliance/disks.c appliance/hosttune.c appliance/hostinfo.c \
	appliance/netup.c appliance/kitkernel.c appliance/upload.c appliance/hwwatch.c \
	appliance/bmc.c appliance/redfish.c appliance/power.c appliance/coldplug.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,libcurl)
APPLIANCE_ARCHIVES = $(B)/libappliance.a $(REPORT_ARCHIVES)
APPLIANCE_LINK_LIBS = $(APPLIANCE_LIBS) $(REPORT_LINK_LIBS)

# The guest agent: PID 1 of the benchmark guest, linked statically so the
# initramfs needs no C library.  Built without sanitizers (they do not
# link statically) and without the project's libraries, except the
# runner and its signal policy (lib/command.c, lib/signals.c, lib/log.c,
# lib/monotonic.c, lib/records.c, lib/fioargs.c: libc only), compiled again for it.
AGENT_SRCS := appliance/agent/main.c appliance/agent/agent.c appliance/agent/workload.c
AGENT_LIB_SRCS := lib/command.c lib/signals.c lib/log.c lib/monotonic.c \
	lib/records.c lib/fioargs.c
AGENT_OBJS := $(AGENT_SRCS:appliance/agent/%.c=$(B)/agent/%.o) \
	$(AGENT_LIB_SRCS:lib/%.c=$(B)/agent/lib/%.o)
$(B)/agent/%.o: appliance/agent/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -D_GNU_SOURCE -Ilib $(WARNFLAGS) $(CFLAGS) \
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
$(B)/buildapp-init: $(B)/appliance/init.o $(B)/appliance/init_report.o \
		$(B)/appliance/init_bundle.o $(APPLIANCE_ARCHIVES)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LINK_LIBS)
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
