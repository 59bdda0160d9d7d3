# Host-side guest protocol: the kernel command line for a run, the parser
# of the guest's console output, the host-side qemu-img bench workload.
APPLIANCE_SRCS := appliance/profile.c appliance/keys.c appliance/plan.c \
	appliance/guestcmdline.c \
	appliance/results.c appliance/imgbench.c
$(B)/libappliance.a: $(APPLIANCE_SRCS:%.c=$(B)/%.o)
APPLIANCE_LIBS = $(call pc_libs,json-c)

# The guest agent: PID 1 of the benchmark guest, linked statically so the
# initramfs needs no C library.  Built without sanitizers (they do not
# link statically) and without the project's libraries.
AGENT_SRCS := appliance/agent/agent.c appliance/agent/workload.c
AGENT_OBJS := $(AGENT_SRCS:appliance/agent/%.c=$(B)/agent/%.o)
$(B)/agent/%.o: appliance/agent/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -D_GNU_SOURCE -Iappliance $(WARNFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<
$(B)/buildapp-agent: $(AGENT_OBJS)
	$(call quiet,LD,$@)$(CC) -static $(LDFLAGS) -o $@ $^
PROGRAMS += $(B)/buildapp-agent
# guestkit_build() finds it in LIBEXECDIR once installed.
INSTALL_EXTRA += install -m 755 $(B)/buildapp-agent \
	$(DESTDIR)$(LIBEXECDIR)/buildapp-agent;
