build2/appliance/bench.o: appliance/bench.c appliance/bench.h \
 appliance/plan.h appliance/profile.h storage/backend.h lib/names.h \
 appliance/sweep.h storage/storage.h storage/backend.h appliance/vm.h \
 appliance/domain.h lib/cleanup.h lib/log.h appliance/volumes.h \
 storage/recipe.h storage/storage.h
appliance/bench.h:
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
appliance/sweep.h:
storage/storage.h:
storage/backend.h:
appliance/vm.h:
appliance/domain.h:
lib/cleanup.h:
lib/log.h:
appliance/volumes.h:
storage/recipe.h:
storage/storage.h:
