build2/lib/log.o: lib/log.c lib/log.h
lib/log.h:
