build2/storage/tool.o: storage/tool.c storage/tool.h lib/cleanup.h \
 lib/log.h
storage/tool.h:
lib/cleanup.h:
lib/log.h:
