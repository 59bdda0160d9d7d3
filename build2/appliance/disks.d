build2/appliance/disks.o: appliance/disks.c appliance/disks.h \
 lib/cleanup.h storage/safety.h appliance/sysfs.h
appliance/disks.h:
lib/cleanup.h:
storage/safety.h:
appliance/sysfs.h:
