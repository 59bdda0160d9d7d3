APPLIANCE_SRCS := appliance/disks.c appliance/hosttune.c appliance/profile.c \
	appliance/sysfs.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,json-c)

# PID 1 of the appliance: static, so it runs from any root.
$(B)/buildapp-init: $(B)/appliance/init.o $(B)/libappliance.a $(STORAGE_ARCHIVES) \
		$(B)/libcommon.a
	$(CC) $(SAN) $(LDFLAGS) -static -o $@ $^
PROGRAMS += $(B)/buildapp-init
