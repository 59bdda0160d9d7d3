build2/builder/kit.o: builder/kit.c builder/kit.h appliance/profile.h \
 storage/backend.h lib/names.h appliance/bench.h appliance/plan.h \
 appliance/profile.h appliance/sweep.h storage/storage.h \
 storage/backend.h appliance/vm.h appliance/domain.h lib/cleanup.h \
 lib/command.h builder/gfs.h builder/hostroot.h builder/fsimage.h \
 builder/guestimage.h builder/guestkit.h builder/image.h appliance/keys.h \
 lib/log.h builder/planner.h appliance/plan.h builder/repro.h \
 builder/tempfiles.h builder/tools.h
builder/kit.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
appliance/bench.h:
appliance/plan.h:
appliance/profile.h:
appliance/sweep.h:
storage/storage.h:
storage/backend.h:
appliance/vm.h:
appliance/domain.h:
lib/cleanup.h:
lib/command.h:
builder/gfs.h:
builder/hostroot.h:
builder/fsimage.h:
builder/guestimage.h:
builder/guestkit.h:
builder/image.h:
appliance/keys.h:
lib/log.h:
builder/planner.h:
appliance/plan.h:
builder/repro.h:
builder/tempfiles.h:
builder/tools.h:
