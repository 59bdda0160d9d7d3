build2/lib/command.o: lib/command.c lib/command.h lib/cleanup.h
lib/command.h:
lib/cleanup.h:
