build2/builder/planner.o: builder/planner.c builder/planner.h \
 appliance/plan.h appliance/profile.h storage/backend.h lib/names.h \
 lib/cleanup.h
builder/planner.h:
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
