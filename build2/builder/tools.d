build2/builder/tools.o: builder/tools.c builder/tools.h lib/log.h
builder/tools.h:
lib/log.h:
