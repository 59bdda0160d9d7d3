build2/storage/gfsexec.o: storage/gfsexec.c storage/gfsexec.h \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h \
 lib/cleanup.h lib/log.h storage/tool.h
storage/gfsexec.h:
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
lib/log.h:
storage/tool.h:
