build2/builder/cmd_results.o: builder/cmd_results.c builder/commands.h \
 builder/gfs.h lib/cleanup.h builder/image.h storage/backend.h \
 lib/names.h builder/fsimage.h lib/log.h
builder/commands.h:
builder/gfs.h:
lib/cleanup.h:
builder/image.h:
storage/backend.h:
lib/names.h:
builder/fsimage.h:
lib/log.h:
