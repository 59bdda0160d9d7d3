# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/lib/%.o: INCDIRS = $(LIB_INCDIRS)

LIB_SRCS := lib/log.c lib/names.c lib/parse.c lib/command.c lib/dirs.c \
	lib/kernel.c lib/kvmboot.c lib/atomicfile.c lib/owner.c lib/signals.c \
	lib/files.c lib/sha256.c lib/monotonic.c lib/reaper.c
$(B)/libcommon.a: $(LIB_SRCS:%.c=$(B)/%.o)
