build2/builder/guestkit.o: builder/guestkit.c builder/guestkit.h \
 appliance/profile.h storage/backend.h lib/names.h builder/cas.h \
 lib/cleanup.h builder/elfdeps.h appliance/guestproto.h builder/kmods.h \
 lib/log.h
builder/guestkit.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/cas.h:
lib/cleanup.h:
builder/elfdeps.h:
appliance/guestproto.h:
builder/kmods.h:
lib/log.h:
