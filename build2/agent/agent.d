build2/agent/agent.o: appliance/agent/agent.c appliance/agent/agent.h \
 appliance/guestproto.h
appliance/agent/agent.h:
appliance/guestproto.h:
