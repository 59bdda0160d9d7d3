build2/builder/tempfiles.o: builder/tempfiles.c builder/tempfiles.h \
 lib/command.h
builder/tempfiles.h:
lib/command.h:
