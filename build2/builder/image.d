build2/builder/image.o: builder/image.c builder/image.h storage/backend.h \
 lib/names.h builder/fsimage.h lib/cleanup.h builder/gfs.h lib/log.h \
 lib/parse.h builder/repro.h lib/command.h builder/tempfiles.h
builder/image.h:
storage/backend.h:
lib/names.h:
builder/fsimage.h:
lib/cleanup.h:
builder/gfs.h:
lib/log.h:
lib/parse.h:
builder/repro.h:
lib/command.h:
builder/tempfiles.h:
