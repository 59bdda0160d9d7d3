# Unit tests: every tests/unit/test_*.c is one cmocka program, linked with
# all of the project's code but builder/main.c.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_PROGRAMS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)
TEST_LINK_OBJS = $(filter-out $(B)/builder/main.o,$(BUILDER_OBJS)) \
	$(B)/libappliance.a $(STORAGE_ARCHIVES) $(B)/libcommon.a
TEST_LIBS = $(call pc_libs,cmocka) $(INIPARSER_LIBS) $(APPLIANCE_LIBS) \
	$(STORAGE_LIBS) $(BUILDER_LIBS)

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(TEST_LINK_OBJS)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)

# The fuzz target's corpus, replayed as an ordinary test.
$(B)/tests/fuzz/replay-profile: $(B)/tests/fuzz/fuzz_profile.o \
		$(B)/tests/fuzz/replay.o $(TEST_LINK_OBJS)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(B)/tests/fuzz/fuzz_profile.o \
		$(B)/tests/fuzz/replay.o $(TEST_LINK_OBJS) $(TEST_LIBS)

CHECK_PROGRAMS += $(UNIT_PROGRAMS) $(B)/tests/fuzz/replay-profile

# libFuzzer build of the profile loader: `make fuzz` runs it for
# FUZZ_SECONDS (default 60) on the saved corpus.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: deps
	$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		SAN='-fsanitize=fuzzer-no-link,address,undefined' CFLAGS='-O1 -g' \
		build-fuzz/fuzz-profile
	mkdir -p build-fuzz/corpus
	build-fuzz/fuzz-profile -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-artifact_prefix=build-fuzz/ build-fuzz/corpus tests/fuzz/corpus

build-fuzz/fuzz-profile: $(B)/tests/fuzz/fuzz_profile.o $(TEST_LINK_OBJS)
	$(CC) $(SAN) -fsanitize=fuzzer -o $@ $(B)/tests/fuzz/fuzz_profile.o $(TEST_LINK_OBJS) \
		$(filter-out -lcmocka,$(TEST_LIBS))

# Driver of the guest-kit integration test.
$(B)/tests/guestkit-helper: $(B)/tests/helpers/guestkit_helper.o $(TEST_LINK_OBJS)
	$(call quiet,LD,$@)$(CC) $(SAN) $(LDFLAGS) -o $@ $< $(TEST_LINK_OBJS) $(TEST_LIBS)
CHECK_PROGRAMS += $(B)/tests/guestkit-helper

