build2/appliance/volumes.o: appliance/volumes.c appliance/volumes.h \
 appliance/profile.h storage/backend.h lib/names.h storage/recipe.h \
 storage/storage.h storage/backend.h storage/storage.h lib/log.h \
 storage/native.h storage/recipe.h storage/safety.h storage/tool.h
appliance/volumes.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
storage/storage.h:
lib/log.h:
storage/native.h:
storage/recipe.h:
storage/safety.h:
storage/tool.h:
