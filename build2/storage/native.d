build2/storage/native.o: storage/native.c storage/native.h \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h \
 lib/cleanup.h lib/log.h storage/tool.h
storage/native.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
lib/log.h:
storage/tool.h:
