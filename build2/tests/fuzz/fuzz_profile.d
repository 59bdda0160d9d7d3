build2/tests/fuzz/fuzz_profile.o: tests/fuzz/fuzz_profile.c \
 builder/loader.h appliance/profile.h storage/backend.h lib/names.h \
 lib/log.h builder/planner.h appliance/plan.h appliance/profile.h
builder/loader.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/log.h:
builder/planner.h:
appliance/plan.h:
appliance/profile.h:
