build2/builder/cmd_image.o: builder/cmd_image.c builder/commands.h \
 builder/image.h storage/backend.h lib/names.h builder/fsimage.h \
 lib/log.h lib/parse.h builder/repro.h
builder/commands.h:
builder/image.h:
storage/backend.h:
lib/names.h:
builder/fsimage.h:
lib/log.h:
lib/parse.h:
builder/repro.h:
