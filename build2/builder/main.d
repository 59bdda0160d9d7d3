build2/builder/main.o: builder/main.c builder/commands.h lib/log.h
builder/commands.h:
lib/log.h:
