build2/tests/unit/test_imgbench.o: tests/unit/test_imgbench.c \
 appliance/imgbench.h appliance/results.h appliance/profile.h \
 storage/backend.h lib/names.h
appliance/imgbench.h:
appliance/results.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
