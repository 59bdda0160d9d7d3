build2/builder/cmd_plan.o: builder/cmd_plan.c builder/commands.h \
 appliance/keys.h lib/names.h appliance/profile.h storage/backend.h \
 builder/loader.h appliance/profile.h lib/log.h builder/planner.h \
 appliance/plan.h
builder/commands.h:
appliance/keys.h:
lib/names.h:
appliance/profile.h:
storage/backend.h:
builder/loader.h:
appliance/profile.h:
lib/log.h:
builder/planner.h:
appliance/plan.h:
