build2/builder/cmd_run.o: builder/cmd_run.c appliance/bench.h \
 appliance/plan.h appliance/profile.h storage/backend.h lib/names.h \
 appliance/sweep.h storage/storage.h storage/backend.h appliance/vm.h \
 appliance/domain.h builder/cas.h lib/cleanup.h builder/commands.h \
 builder/guestimage.h appliance/profile.h builder/guestkit.h \
 builder/loader.h lib/log.h lib/parse.h builder/planner.h \
 appliance/plan.h storage/recipe.h storage/storage.h storage/tool.h \
 appliance/volumes.h
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
builder/cas.h:
lib/cleanup.h:
builder/commands.h:
builder/guestimage.h:
appliance/profile.h:
builder/guestkit.h:
builder/loader.h:
lib/log.h:
lib/parse.h:
builder/planner.h:
appliance/plan.h:
storage/recipe.h:
storage/storage.h:
storage/tool.h:
appliance/volumes.h:
