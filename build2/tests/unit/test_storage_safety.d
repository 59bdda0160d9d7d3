build2/tests/unit/test_storage_safety.o: tests/unit/test_storage_safety.c \
 storage/safety.h
storage/safety.h:
