build2/tests/integration/storage_safety.o: \
 tests/integration/storage_safety.c lib/log.h storage/safety.h
lib/log.h:
storage/safety.h:
