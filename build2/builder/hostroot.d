build2/builder/hostroot.o: builder/hostroot.c builder/hostroot.h \
 builder/fsimage.h lib/cleanup.h lib/command.h builder/gfs.h \
 builder/initramfs.h lib/log.h builder/tempfiles.h
builder/hostroot.h:
builder/fsimage.h:
lib/cleanup.h:
lib/command.h:
builder/gfs.h:
builder/initramfs.h:
lib/log.h:
builder/tempfiles.h:
