build2/builder/cmd_kit.o: builder/cmd_kit.c builder/cas.h lib/cleanup.h \
 builder/commands.h appliance/guestcmdline.h appliance/profile.h \
 storage/backend.h lib/names.h builder/guestimage.h appliance/profile.h \
 builder/guestkit.h builder/loader.h lib/log.h lib/parse.h
builder/cas.h:
lib/cleanup.h:
builder/commands.h:
appliance/guestcmdline.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
builder/guestimage.h:
appliance/profile.h:
builder/guestkit.h:
builder/loader.h:
lib/log.h:
lib/parse.h:
