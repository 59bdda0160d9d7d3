build2/builder/initramfs.o: builder/initramfs.c builder/initramfs.h \
 lib/cleanup.h lib/log.h
builder/initramfs.h:
lib/cleanup.h:
lib/log.h:
