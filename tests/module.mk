# Unit tests: every tests/unit/test_*.c is one cmocka program, linked with
# all of the project's code but builder/main.c.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_PROGRAMS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)
TEST_LINK_OBJS = $(filter-out $(B)/builder/main.o,$(BUILDER_OBJS)) $(BUILDER_ARCHIVES)
TEST_LIBS = $(call pc_libs,cmocka) $(BUILDER_LINK_LIBS)

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(TEST_LINK_OBJS)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)

# What a host crash syncs, and when, seen at the calls themselves.
$(B)/tests/unit/test_crashsteps: LDFLAGS += -Wl,--wrap=fsync -Wl,--wrap=syncfs

# Each fuzz target's saved corpus (tests/fuzz/corpus for the profile
# loader, tests/fuzz/corpus-NAME for the others), replayed as an ordinary
# test.  The profile loader's corpus also takes profiles/ as they are
# (no copies there to drift).
FUZZ_TARGETS := plan results
CHECK_PROGRAMS += $(UNIT_PROGRAMS) $(B)/tests/fuzz/replay-profile
$(B)/tests/fuzz/replay-%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/replay.o \
		$(TEST_LINK_OBJS)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(B)/tests/fuzz/fuzz_$*.o \
		$(B)/tests/fuzz/replay.o $(TEST_LINK_OBJS) $(TEST_LIBS)
CHECK_PROGRAMS += $(FUZZ_TARGETS:%=$(B)/tests/fuzz/replay-%)

# libFuzzer builds of the profile loader, the plan reader and the console
# parser: `make fuzz` runs each for FUZZ_SECONDS (default 60) on its saved
# corpus; what it finds new stays in build-fuzz/corpus-NAME, crashes in
# build-fuzz/NAME-crash-*.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: deps
	$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		SAN='-fsanitize=fuzzer-no-link,address,undefined' CFLAGS='-O1 -g' \
		$(addprefix build-fuzz/fuzz-,profile $(FUZZ_TARGETS))
	set -e; for t in profile $(FUZZ_TARGETS); do \
		c=tests/fuzz/corpus-$$t; [ $$t != profile ] || c="tests/fuzz/corpus profiles"; \
		mkdir -p build-fuzz/corpus-$$t; \
		build-fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-artifact_prefix=build-fuzz/$$t- build-fuzz/corpus-$$t $$c; \
	done

build-fuzz/fuzz-%: $(B)/tests/fuzz/fuzz_%.o $(TEST_LINK_OBJS)
	$(CC) $(SAN) -fsanitize=fuzzer -o $@ $(B)/tests/fuzz/fuzz_$*.o $(TEST_LINK_OBJS) \
		$(filter-out -lcmocka,$(TEST_LIBS))

# Driver of the guest-kit integration test.
$(B)/tests/guestkit-helper: $(B)/tests/helpers/guestkit_helper.o $(TEST_LINK_OBJS)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)
CHECK_PROGRAMS += $(B)/tests/guestkit-helper

# The runs-until-answered rule replayed on recorded journals
# (scripts/bench-replay.sh).
$(B)/tests/replay-helper: $(B)/tests/helpers/replay_helper.o $(TEST_LINK_OBJS)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)
CHECK_PROGRAMS += $(B)/tests/replay-helper


# Builds that must fail and what init must not link
# (tests/build-fail/run.sh, run with the unit tests): the compiler and
# each folder's include paths, as the build has them.
$(B)/tests/build-fail/flags: GNUmakefile tests/module.mk
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@){ \
	  echo "CC='$(CC)'"; \
	  echo "CFLAGS='-D_GNU_SOURCE $(WARNFLAGS) $(CFLAGS) $(call pc_cflags,json-c libxml-2.0)'"; \
	  echo "LIB_INCDIRS='$(LIB_INCDIRS)'"; \
	  echo "STORAGE_INCDIRS='$(STORAGE_INCDIRS)'"; \
	  echo "PROFILE_INCDIRS='$(PROFILE_INCDIRS)'"; \
	  echo "RUNNER_INCDIRS='$(RUNNER_INCDIRS)'"; \
	  echo "REPORT_INCDIRS='$(REPORT_INCDIRS)'"; \
	  echo "APPLIANCE_INCDIRS='$(APPLIANCE_INCDIRS)'"; \
	  echo "BUILDER_INCDIRS='$(BUILDER_INCDIRS)'"; \
	  echo "INIT='$(B)/buildapp-init' BUILDAPP='$(B)/buildapp'"; \
	} > $@.tmp && mv $@.tmp $@
CHECK_PROGRAMS += $(B)/tests/build-fail/flags
# Driver of the WebDAV upload test (tests/integration/upload-webdav.sh).
$(B)/tests/upload-helper: $(B)/tests/helpers/upload_helper.o $(TEST_LINK_OBJS)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)
CHECK_PROGRAMS += $(B)/tests/upload-helper
