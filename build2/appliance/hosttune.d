build2/appliance/hosttune.o: appliance/hosttune.c appliance/hosttune.h \
 appliance/profile.h storage/backend.h lib/names.h lib/cleanup.h \
 lib/command.h lib/log.h appliance/sysfs.h
appliance/hosttune.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
lib/command.h:
lib/log.h:
appliance/sysfs.h:
