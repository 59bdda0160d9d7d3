build2/builder/guestimage.o: builder/guestimage.c builder/guestimage.h \
 appliance/profile.h storage/backend.h lib/names.h builder/cas.h \
 lib/cleanup.h appliance/guestproto.h lib/log.h lib/parse.h
builder/guestimage.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/cas.h:
lib/cleanup.h:
appliance/guestproto.h:
lib/log.h:
lib/parse.h:
