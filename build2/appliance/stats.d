build2/appliance/stats.o: appliance/stats.c appliance/stats.h
appliance/stats.h:
