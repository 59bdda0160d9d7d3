build2/storage/safety.o: storage/safety.c storage/safety.h lib/cleanup.h \
 lib/log.h
storage/safety.h:
lib/cleanup.h:
lib/log.h:
