build2/appliance/init.o: appliance/init.c lib/cleanup.h lib/command.h \
 appliance/disks.h appliance/hosttune.h appliance/profile.h \
 storage/backend.h lib/names.h lib/log.h appliance/bench.h \
 appliance/plan.h appliance/sweep.h storage/storage.h storage/backend.h \
 appliance/vm.h appliance/domain.h appliance/keys.h lib/parse.h \
 appliance/sysfs.h
lib/cleanup.h:
lib/command.h:
appliance/disks.h:
appliance/hosttune.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/log.h:
appliance/bench.h:
appliance/plan.h:
appliance/sweep.h:
storage/storage.h:
storage/backend.h:
appliance/vm.h:
appliance/domain.h:
appliance/keys.h:
lib/parse.h:
appliance/sysfs.h:
