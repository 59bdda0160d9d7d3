build2/tests/unit/test_guestkit.o: tests/unit/test_guestkit.c \
 builder/elfdeps.h builder/guestkit.h appliance/profile.h \
 storage/backend.h lib/names.h builder/kmods.h builder/elfdeps.h
builder/elfdeps.h:
builder/guestkit.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/kmods.h:
builder/elfdeps.h:
