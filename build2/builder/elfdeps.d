build2/builder/elfdeps.o: builder/elfdeps.c builder/elfdeps.h \
 lib/cleanup.h lib/log.h
builder/elfdeps.h:
lib/cleanup.h:
lib/log.h:
