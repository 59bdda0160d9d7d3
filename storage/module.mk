# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/storage/%.o: INCDIRS = $(STORAGE_INCDIRS)

# storage/: backend names, recipes, the native executor, safety checks and
# pristine reset (libstorage.a: json-c and libblkid, no libguestfs; the
# appliance links it), and the libguestfs executor
# (libstorage-guestfs.a, linked into buildapp only).
STORAGE_SRCS := storage/backend.c storage/storage.c storage/recipe.c \
	storage/tool.c storage/native.c storage/safety.c storage/written.c \
	storage/layoutmark.c
STORAGE_GUESTFS_SRCS := storage/gfsexec.c storage/gfshandle.c
$(B)/libstorage.a: $(STORAGE_SRCS:%.c=$(B)/%.o)
$(B)/libstorage-guestfs.a: $(STORAGE_GUESTFS_SRCS:%.c=$(B)/%.o)
# Order matters for static linking: the guestfs executor uses the core.
STORAGE_ARCHIVES = $(B)/libstorage-guestfs.a $(B)/libstorage.a
STORAGE_LIBS = $(call pc_libs,libguestfs json-c blkid libnbd)
# What appliance-side programs link: no libguestfs.
STORAGE_CORE_LIBS = $(call pc_libs,json-c blkid libnbd)

# Drivers of the storage integration tests (tests/integration/storage-*.sh).
# The native and safety ones link the core only, as the appliance does.
$(B)/tests/integration/storage_native $(B)/tests/integration/storage_safety: \
		$(B)/tests/integration/%: $(B)/tests/integration/%.o \
		$(B)/libstorage.a $(B)/libcommon.a
	$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(STORAGE_CORE_LIBS) $(COMMON_LIBS)
$(B)/tests/integration/storage_guestfs: $(B)/tests/integration/storage_guestfs.o \
		$(STORAGE_ARCHIVES) $(B)/libcommon.a
	$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(STORAGE_LIBS) $(COMMON_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/storage_native \
	$(B)/tests/integration/storage_safety $(B)/tests/integration/storage_guestfs
