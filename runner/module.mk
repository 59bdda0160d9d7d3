# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/runner/%.o: INCDIRS = $(RUNNER_INCDIRS)

# The runner: a run from its reset to its journal line (libvirt domains
# and runs, dirty bitmaps, host-native runs' block traces and resets, the
# guest's command line and results, host-side qemu-img bench), the sweep
# over a plan with its ETA and timings, the journal and the summary;
# bench.c is one sweep on this host, for the appliance's init and
# `buildapp run`.  It writes results, never the report (report/).
RUNNER_SRCS := runner/sweep.c runner/sweep_host.c runner/sweep_crash.c runner/bench.c runner/vm.c runner/domain.c \
	runner/acklog.c runner/durability.c runner/hostcrash.c runner/crashsteps.c runner/crashfacts.c \
	runner/volreset.c runner/volrecord.c runner/dirtymap.c runner/blocktrace.c runner/volumes.c runner/runstate.c \
	runner/eta.c runner/timings.c runner/imgbench.c runner/qcow2cache.c \
	runner/guestcmdline.c runner/pvhkernel.c runner/journal.c runner/results.c \
	runner/summary.c runner/sweeplines.c
$(B)/librunner.a: $(RUNNER_SRCS:%.c=$(B)/%.o)
RUNNER_LIBS = $(call pc_libs,libxml-2.0 libvirt libvirt-qemu liblzma) -lpthread

# What a program of the runner links, below it first.
# The storage core only: no libguestfs (programs that use it put
# libstorage-guestfs.a first).
RUNNER_ARCHIVES = $(B)/librunner.a $(B)/libprofile.a $(B)/libstorage.a $(B)/libcommon.a
RUNNER_LINK_LIBS = $(RUNNER_LIBS) $(STORAGE_CORE_LIBS) $(COMMON_LIBS)

# XML_CFLAGS: lib/module.mk.
$(B)/runner/domain.o $(B)/tests/unit/test_domain.o: ALL_CFLAGS += $(XML_CFLAGS)

# Driver of the libvirt integration test (tests/integration/vm-run.sh).
$(B)/tests/integration/vm-run: $(B)/tests/integration/vm_run.o \
		$(RUNNER_ARCHIVES)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(RUNNER_LINK_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/vm-run

# Driver of the fast reset test (tests/integration/fast-reset.sh): a
# tracked guest run and both resets.
$(B)/tests/integration/fast-reset: $(B)/tests/integration/fast_reset.o \
		$(RUNNER_ARCHIVES)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $^ $(RUNNER_LINK_LIBS)
CHECK_PROGRAMS += $(B)/tests/integration/fast-reset
