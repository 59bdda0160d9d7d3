APPLIANCE_SRCS := appliance/profile.c appliance/stats.c appliance/domain.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,json-c libxml-2.0) -lm

# libxml2 keeps its headers in a subfolder.
XML_CFLAGS = $(call pc_cflags,libxml-2.0)
$(B)/appliance/domain.o $(B)/tests/unit/test_domain.o: ALL_CFLAGS += $(XML_CFLAGS)
