# SPDX-License-Identifier: GPL-2.0-or-later
# Headers of this folder only (GNUmakefile).
$(B)/lib/%.o: INCDIRS = $(LIB_INCDIRS)

# What every stage uses and that knows no profile word: logging, parsing,
# cleanup, the command runner and its signal policy, files, sha256,
# json-c and sysfs readers, statistics, the guest protocol's names, the
# libxml2 writer's calls.
LIB_SRCS := lib/log.c lib/names.c lib/parse.c lib/command.c lib/dirs.c \
	lib/kernel.c lib/kvmboot.c lib/atomicfile.c lib/owner.c lib/signals.c \
	lib/files.c lib/sha256.c lib/monotonic.c lib/reaper.c lib/jsonget.c \
	lib/sysfs.c lib/stats.c lib/crashloss.c lib/xmlwrite.c lib/records.c \
	lib/watchdog.c lib/hwwatchdog.c lib/fioargs.c
$(B)/libcommon.a: $(LIB_SRCS:%.c=$(B)/%.o)
COMMON_LIBS = $(call pc_libs,json-c libcrypto libxml-2.0) -lm

# libxml2 keeps its headers in a subfolder: what includes them, here and
# in the folders above (runner/domain.c, report's HTML), needs its cflags.
XML_CFLAGS = $(call pc_cflags,libxml-2.0)
$(B)/lib/xmlwrite.o: ALL_CFLAGS += $(XML_CFLAGS)
