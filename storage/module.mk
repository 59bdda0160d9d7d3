# storage/: backend names, recipes, the native executor, safety checks and
# pristine reset (libstorage.a: json-c, libblkid, no libguestfs, linked by
# the appliance), and the libguestfs executor (libstorage-guestfs.a,
# linked into buildapp only).
STORAGE_SRCS := storage/backend.c storage/storage.c storage/recipe.c \
	storage/tool.c storage/native.c
STORAGE_GUESTFS_SRCS :=
$(B)/libstorage.a: $(STORAGE_SRCS:%.c=$(B)/%.o)
STORAGE_ARCHIVES = $(B)/libstorage.a
STORAGE_LIBS = $(call pc_libs,json-c blkid)
