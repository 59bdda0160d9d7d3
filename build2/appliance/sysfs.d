build2/appliance/sysfs.o: appliance/sysfs.c appliance/sysfs.h \
 lib/cleanup.h
appliance/sysfs.h:
lib/cleanup.h:
