build2/appliance/keys.o: appliance/keys.c appliance/keys.h lib/names.h \
 appliance/profile.h storage/backend.h lib/cleanup.h lib/parse.h
appliance/keys.h:
lib/names.h:
appliance/profile.h:
storage/backend.h:
lib/cleanup.h:
lib/parse.h:
