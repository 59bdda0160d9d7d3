build2/builder/repro.o: builder/repro.c builder/repro.h lib/log.h \
 lib/parse.h
builder/repro.h:
lib/log.h:
lib/parse.h:
