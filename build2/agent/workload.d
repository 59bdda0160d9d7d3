build2/agent/workload.o: appliance/agent/workload.c \
 appliance/agent/agent.h appliance/guestproto.h
appliance/agent/agent.h:
appliance/guestproto.h:
