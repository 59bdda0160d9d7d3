build2/storage/storage.o: storage/storage.c storage/storage.h \
 storage/backend.h lib/names.h lib/cleanup.h lib/log.h storage/tool.h
storage/storage.h:
storage/backend.h:
lib/names.h:
lib/cleanup.h:
lib/log.h:
storage/tool.h:
