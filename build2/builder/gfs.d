build2/builder/gfs.o: builder/gfs.c builder/gfs.h lib/cleanup.h lib/log.h \
 builder/tempfiles.h
builder/gfs.h:
lib/cleanup.h:
lib/log.h:
builder/tempfiles.h:
