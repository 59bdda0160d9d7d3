build2/builder/cmd_build.o: builder/cmd_build.c storage/backend.h \
 lib/names.h builder/commands.h builder/kit.h appliance/profile.h \
 builder/loader.h lib/log.h
storage/backend.h:
lib/names.h:
builder/commands.h:
builder/kit.h:
appliance/profile.h:
builder/loader.h:
lib/log.h:
