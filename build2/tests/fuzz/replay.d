build2/tests/fuzz/replay.o: tests/fuzz/replay.c
