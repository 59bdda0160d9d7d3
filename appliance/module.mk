APPLIANCE_SRCS := appliance/profile.c appliance/keys.c appliance/plan.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,json-c)
