build2/tests/unit/test_storage_spec.o: tests/unit/test_storage_spec.c \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h \
 appliance/volumes.h appliance/profile.h storage/backend.h \
 storage/storage.h
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
appliance/volumes.h:
appliance/profile.h:
storage/backend.h:
storage/storage.h:
