build2/builder/fsimage.o: builder/fsimage.c builder/fsimage.h \
 lib/cleanup.h lib/log.h lib/command.h
builder/fsimage.h:
lib/cleanup.h:
lib/log.h:
lib/command.h:
