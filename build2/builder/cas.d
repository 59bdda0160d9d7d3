build2/builder/cas.o: builder/cas.c builder/cas.h lib/cleanup.h
builder/cas.h:
lib/cleanup.h:
