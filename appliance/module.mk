APPLIANCE_SRCS := appliance/profile.c appliance/keys.c appliance/plan.c \
	appliance/stats.c appliance/domain.c appliance/vm.c appliance/journal.c \
	appliance/jsonget.c appliance/summary.c
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
