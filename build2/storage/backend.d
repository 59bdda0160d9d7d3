build2/storage/backend.o: storage/backend.c storage/backend.h lib/names.h
storage/backend.h:
lib/names.h:
