build2/tests/integration/storage_native.o: \
 tests/integration/storage_native.c lib/log.h storage/native.h \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h \
 storage/recipe.h storage/tool.h
lib/log.h:
storage/native.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
storage/recipe.h:
storage/tool.h:
