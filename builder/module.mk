# SPDX-License-Identifier: GPL-2.0-or-later
# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/builder/%.o: INCDIRS = $(BUILDER_INCDIRS)

BUILDER_SRCS := builder/main.c builder/commands.c \
	builder/cmd_plan.c builder/cmd_kernel.c builder/cmd_provision.c builder/cmd_kit.c \
	builder/cmd_run.c builder/cmd_build.c builder/cmd_hostroot.c \
	builder/cmd_image.c builder/cmd_results.c builder/cmd_verify.c builder/cmd_report.c \
	builder/cas.c builder/elfdeps.c builder/kmods.c builder/guestkit.c \
	builder/guestimage.c builder/fsimage.c builder/gfs.c builder/hostroot.c builder/icustub.c \
	builder/image.c builder/initramfs.c builder/kit.c builder/kitmanifest.c builder/lavajob.c builder/rootsizes.c builder/progress.c builder/extents.c builder/repro.c \
	builder/tempfiles.c builder/tools.c builder/plantext.c builder/licenses.c
BUILDER_OBJS := $(BUILDER_SRCS:%.c=$(B)/%.o)
BUILDER_LIBS = $(call pc_libs,libguestfs libarchive libzstd libcrypto json-c libkmod libelf blkid)

# Every stage below, with the profile's builder half and the storage's
# libguestfs executor.
BUILDER_ARCHIVES = $(B)/libprofile-build.a $(B)/libstorage-guestfs.a $(APPLIANCE_ARCHIVES)
BUILDER_LINK_LIBS = $(PROFILE_BUILD_LIBS) $(STORAGE_LIBS) $(APPLIANCE_LINK_LIBS) $(BUILDER_LIBS)

$(B)/buildapp: $(BUILDER_OBJS) $(BUILDER_ARCHIVES)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(BUILDER_LINK_LIBS)

PROGRAMS += $(B)/buildapp
