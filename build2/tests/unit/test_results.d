build2/tests/unit/test_results.o: tests/unit/test_results.c lib/cleanup.h \
 appliance/guestcmdline.h appliance/profile.h storage/backend.h \
 lib/names.h appliance/imgbench.h appliance/results.h appliance/results.h
lib/cleanup.h:
appliance/guestcmdline.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
appliance/imgbench.h:
appliance/results.h:
appliance/results.h:
