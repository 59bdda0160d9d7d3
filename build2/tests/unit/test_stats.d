build2/tests/unit/test_stats.o: tests/unit/test_stats.c appliance/stats.h \
 tests/unit/kvmperf.h
appliance/stats.h:
tests/unit/kvmperf.h:
