build2/tests/unit/test_profile.o: tests/unit/test_profile.c \
 appliance/keys.h lib/names.h appliance/profile.h storage/backend.h \
 builder/loader.h appliance/profile.h lib/log.h builder/planner.h \
 appliance/plan.h
appliance/keys.h:
lib/names.h:
appliance/profile.h:
storage/backend.h:
builder/loader.h:
appliance/profile.h:
lib/log.h:
builder/planner.h:
appliance/plan.h:
