# storage/: backend names and recipes (core, no external library) and the
# executors.  The appliance links the core; buildapp links everything.
STORAGE_SRCS := storage/backend.c
$(B)/libstorage.a: $(STORAGE_SRCS:%.c=$(B)/%.o)
STORAGE_ARCHIVES = $(B)/libstorage.a
STORAGE_LIBS =
