build2/tests/unit/test_journal.o: tests/unit/test_journal.c \
 appliance/journal.h appliance/plan.h appliance/profile.h \
 storage/backend.h lib/names.h
appliance/journal.h:
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
