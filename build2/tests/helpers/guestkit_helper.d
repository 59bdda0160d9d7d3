build2/tests/helpers/guestkit_helper.o: tests/helpers/guestkit_helper.c \
 lib/cleanup.h appliance/guestcmdline.h appliance/profile.h \
 storage/backend.h lib/names.h builder/guestimage.h appliance/profile.h \
 builder/guestkit.h lib/log.h appliance/results.h
lib/cleanup.h:
appliance/guestcmdline.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/guestimage.h:
appliance/profile.h:
builder/guestkit.h:
lib/log.h:
appliance/results.h:
