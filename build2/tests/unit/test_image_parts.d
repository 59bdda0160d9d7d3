build2/tests/unit/test_image_parts.o: tests/unit/test_image_parts.c \
 appliance/disks.h builder/initramfs.h builder/kit.h appliance/profile.h \
 storage/backend.h lib/names.h builder/repro.h
appliance/disks.h:
builder/initramfs.h:
builder/kit.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/repro.h:
