# Shared by builder and appliance: the typed profile and plan, statistics,
# libvirt runs, the journal and summary, the guest protocol (command line,
# console parser), host-side qemu-img bench, the sweep, the appliance's
# disk discovery and host tuning.
APPLIANCE_SRCS := appliance/profile.c appliance/keys.c appliance/plan.c \
	appliance/stats.c appliance/domain.c appliance/vm.c appliance/journal.c \
	appliance/jsonget.c appliance/summary.c \
	appliance/guestcmdline.c appliance/results.c appliance/imgbench.c \
	appliance/sweep.c appliance/volumes.c appliance/bench.c \
	appliance/disks.c appliance/hosttune.c appliance/sysfs.c \
	appliance/qcow2cache.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,json-c libxml-2.0 libvirt libvirt-qemu) \
	-lpthread -lm

# libxml2 keeps its headers in a subfolder.
XML_CFLAGS = $(call pc_cflags,libxml-2.0)
$(B)/appliance/domain.o $(B)/tests/unit/test_domain.o: ALL_CFLAGS += $(XML_CFLAGS)

# Driver of the libvirt integration test (tests/integration/vm-run.sh).
$(B)/tests/integration/vm-run: $(B)/tests/integration/vm_run.o \
		$(B)/libappliance.a $(STORAGE_ARCHIVES) $(B)/libcommon.a
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(APPLIANCE_LIBS) $(STORAGE_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/vm-run

# The guest agent: PID 1 of the benchmark guest, linked statically so the
# initramfs needs no C library.  Built without sanitizers (they do not
# link statically) and without the project's libraries.
AGENT_SRCS := appliance/agent/agent.c appliance/agent/workload.c
AGENT_OBJS := $(AGENT_SRCS:appliance/agent/%.c=$(B)/agent/%.o)
$(B)/agent/%.o: appliance/agent/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -D_GNU_SOURCE -Iappliance $(WARNFLAGS) $(CFLAGS) \
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
