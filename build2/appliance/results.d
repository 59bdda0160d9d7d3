build2/appliance/results.o: appliance/results.c appliance/results.h \
 appliance/profile.h storage/backend.h lib/names.h lib/cleanup.h \
 appliance/guestproto.h
appliance/results.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
appliance/guestproto.h:
