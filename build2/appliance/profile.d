build2/appliance/profile.o: appliance/profile.c appliance/profile.h \
 storage/backend.h lib/names.h
appliance/profile.h:
storage/backend.h:
lib/names.h:
