build2/tests/unit/test_plan.o: tests/unit/test_plan.c appliance/keys.h \
 lib/names.h appliance/profile.h storage/backend.h builder/loader.h \
 appliance/profile.h builder/planner.h appliance/plan.h
appliance/keys.h:
lib/names.h:
appliance/profile.h:
storage/backend.h:
builder/loader.h:
appliance/profile.h:
builder/planner.h:
appliance/plan.h:
