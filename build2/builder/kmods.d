build2/builder/kmods.o: builder/kmods.c builder/kmods.h builder/elfdeps.h \
 lib/cleanup.h lib/log.h
builder/kmods.h:
builder/elfdeps.h:
lib/cleanup.h:
lib/log.h:
