build2/appliance/sweep.o: appliance/sweep.c appliance/sweep.h \
 appliance/plan.h appliance/profile.h storage/backend.h lib/names.h \
 storage/storage.h storage/backend.h appliance/vm.h appliance/domain.h \
 lib/cleanup.h appliance/guestcmdline.h appliance/imgbench.h \
 appliance/results.h appliance/journal.h lib/log.h appliance/summary.h \
 appliance/stats.h
appliance/sweep.h:
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
storage/storage.h:
storage/backend.h:
appliance/vm.h:
appliance/domain.h:
lib/cleanup.h:
appliance/guestcmdline.h:
appliance/imgbench.h:
appliance/results.h:
appliance/journal.h:
lib/log.h:
appliance/summary.h:
appliance/stats.h:
