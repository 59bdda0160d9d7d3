BUILDER_SRCS := builder/loader.c builder/planner.c builder/cmd_plan.c builder/main.c \
	builder/cmd_provision.c \
	builder/cmd_kit.c builder/cmd_run.c \
	builder/cas.c builder/elfdeps.c builder/kmods.c builder/guestkit.c \
	builder/guestimage.c
BUILDER_OBJS := $(BUILDER_SRCS:%.c=$(B)/%.o)
BUILDER_LIBS = $(call pc_libs,libarchive libguestfs libcrypto)

$(B)/buildapp: $(BUILDER_OBJS) $(B)/libappliance.a $(STORAGE_ARCHIVES) $(B)/libcommon.a
	$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(INIPARSER_LIBS) $(APPLIANCE_LIBS) \
		$(STORAGE_LIBS) $(BUILDER_LIBS)

PROGRAMS += $(B)/buildapp
