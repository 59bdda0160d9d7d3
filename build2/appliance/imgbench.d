build2/appliance/imgbench.o: appliance/imgbench.c appliance/imgbench.h \
 appliance/results.h appliance/profile.h storage/backend.h lib/names.h \
 lib/cleanup.h lib/log.h
appliance/imgbench.h:
appliance/results.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
lib/log.h:
