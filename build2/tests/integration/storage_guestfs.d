build2/tests/integration/storage_guestfs.o: \
 tests/integration/storage_guestfs.c lib/cleanup.h storage/gfsexec.h \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h \
 lib/log.h storage/recipe.h storage/tool.h
lib/cleanup.h:
storage/gfsexec.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
lib/log.h:
storage/recipe.h:
storage/tool.h:
