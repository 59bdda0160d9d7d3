build2/builder/cmd_provision.o: builder/cmd_provision.c lib/cleanup.h \
 builder/commands.h storage/gfsexec.h storage/recipe.h storage/storage.h \
 storage/backend.h lib/names.h builder/loader.h appliance/profile.h \
 storage/backend.h lib/log.h storage/native.h lib/parse.h \
 storage/recipe.h appliance/volumes.h appliance/profile.h \
 storage/storage.h
lib/cleanup.h:
builder/commands.h:
storage/gfsexec.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
builder/loader.h:
appliance/profile.h:
storage/backend.h:
lib/log.h:
storage/native.h:
lib/parse.h:
storage/recipe.h:
appliance/volumes.h:
appliance/profile.h:
storage/storage.h:
