build2/appliance/guestcmdline.o: appliance/guestcmdline.c \
 appliance/guestcmdline.h appliance/profile.h storage/backend.h \
 lib/names.h lib/cleanup.h appliance/guestproto.h
appliance/guestcmdline.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
appliance/guestproto.h:
