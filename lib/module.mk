# Headers of this folder only (GNUmakefile).
$(B)/lib/%.o: INCDIRS = $(LIB_INCDIRS)

# What every stage uses and that knows no profile word: logging, parsing,
# cleanup, the command runner and its signal policy, files, sha256,
# json-c and sysfs readers, statistics, the guest protocol's names.
LIB_SRCS := lib/log.c lib/names.c lib/parse.c lib/command.c lib/dirs.c \
	lib/kernel.c lib/kvmboot.c lib/atomicfile.c lib/owner.c lib/signals.c \
	lib/files.c lib/sha256.c lib/monotonic.c lib/reaper.c lib/jsonget.c \
	lib/sysfs.c lib/stats.c
$(B)/libcommon.a: $(LIB_SRCS:%.c=$(B)/%.o)
COMMON_LIBS = $(call pc_libs,json-c libcrypto) -lm
