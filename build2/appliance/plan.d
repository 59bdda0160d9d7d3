build2/appliance/plan.o: appliance/plan.c appliance/plan.h \
 appliance/profile.h storage/backend.h lib/names.h lib/cleanup.h \
 appliance/keys.h lib/log.h
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
appliance/keys.h:
lib/log.h:
