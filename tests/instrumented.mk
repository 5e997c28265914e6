# SPDX-License-Identifier: GPL-2.0
# Included by the Makefile (one make, no recursion): the library and ioctlgen
# built again with instrumentation, for `make fuzz` (libFuzzer harnesses,
# tests/fuzz/) and the suite sanitizers (AddressSanitizer and
# UndefinedBehaviorSanitizer, tests/sanitizers/run).  Uses the Makefile's
# B, WARN, CLANG, SAN_FLAGS, LIB_SRC, CLI_SRC, REG_SRC, YAML_* and UNIT_PROGS.

FUZZERS := $(B)/fuzz/fuzz-load $(B)/fuzz/fuzz-types $(B)/fuzz/fuzz-versions $(B)/fuzz/fuzz-grammar
fuzz: $(FUZZERS) $(B)/fuzz/fuzz-selftest
	$(Q)tests/fuzz/run $(FUZZ_TIME)

# The library once with coverage and sanitizers; each harness links it.
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJ := $(LIB_SRC:generator/%.c=$(B)/fuzz/obj/%.o)
$(B)/fuzz/obj/%.o: generator/%.c
	@mkdir -p $(@D)
	$(quiet) FUZZCC $@
	$(Q)$(CLANG) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(YAML_CFLAGS) -Igenerator -Ilibioctlreg \
		-MMD -MP -c -o $@ $<
-include $(FUZZ_LIB_OBJ:.o=.d)

FUZZ_REG_OBJ := $(REG_SRC:libioctlreg/%.c=$(B)/fuzz/obj/ioctlreg/%.o)
$(B)/fuzz/obj/ioctlreg/%.o: libioctlreg/%.c
	@mkdir -p $(@D)
	$(quiet) FUZZCC $@
	$(Q)$(CLANG) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -Ilibioctlreg -Igenerator -MMD -MP -c -o $@ $<

-include $(FUZZ_REG_OBJ:.o=.d)

$(B)/fuzz/libioctlgen.a: $(FUZZ_LIB_OBJ) $(FUZZ_REG_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

FUZZ_LINK = $(CLANG) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(YAML_CFLAGS) -Igenerator -Ilibioctlreg

$(B)/fuzz/fuzz-load: tests/fuzz/fuzz-load.c $(B)/fuzz/libioctlgen.a
	$(quiet) FUZZ $@
	$(Q)$(FUZZ_LINK) -o $@ $< $(B)/fuzz/libioctlgen.a $(YAML_LIBS)

# One loader stage each, beside a fixed small registry (tests/fuzz/fuzz-stage.c).
$(B)/fuzz/fuzz-types: tests/fuzz/fuzz-stage.c $(B)/fuzz/libioctlgen.a
	$(quiet) FUZZ $@
	$(Q)$(FUZZ_LINK) -DSTAGE_FILE='"headers/linux/fuzz.yaml"' -o $@ $< $(B)/fuzz/libioctlgen.a $(YAML_LIBS)

$(B)/fuzz/fuzz-versions: tests/fuzz/fuzz-stage.c $(B)/fuzz/libioctlgen.a
	$(quiet) FUZZ $@
	$(Q)$(FUZZ_LINK) -DSTAGE_FILE='"versions.yaml"' -o $@ $< $(B)/fuzz/libioctlgen.a $(YAML_LIBS)

GRAMMAR_SRC := $(wildcard generator/grammar*.c)
$(B)/fuzz/fuzz-grammar: tests/fuzz/fuzz-grammar.c $(GRAMMAR_SRC) generator/grammar.h generator/grammar_int.h
	@mkdir -p $(@D)
	$(quiet) FUZZ $@
	$(Q)$(CLANG) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -Igenerator -o $@ $< $(GRAMMAR_SRC)

# Crashes, leaks, hangs and runs out of memory on purpose: the runner's own test.
$(B)/fuzz/fuzz-selftest: tests/fuzz/fuzz-selftest.c
	@mkdir -p $(@D)
	$(quiet) FUZZ $@
	$(Q)$(CLANG) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $<

# The same sources under AddressSanitizer and UndefinedBehaviorSanitizer.
ASAN_LIB_OBJ := $(LIB_SRC:generator/%.c=$(B)/asan/obj/%.o)
ASAN_CLI_OBJ := $(CLI_SRC:generator/cli/%.c=$(B)/asan/obj/cli/%.o)

$(B)/asan/obj/%.o: generator/%.c
	@mkdir -p $(@D)
	$(quiet) ASAN $@
	$(Q)$(CLANG) $(WARN) -O1 -g $(SAN_FLAGS) $(YAML_CFLAGS) -Igenerator -Ilibioctlreg -MMD -MP -c -o $@ $<

ASAN_REG_OBJ := $(REG_SRC:libioctlreg/%.c=$(B)/asan/obj/ioctlreg/%.o)
$(B)/asan/obj/ioctlreg/%.o: libioctlreg/%.c
	@mkdir -p $(@D)
	$(quiet) ASAN $@
	$(Q)$(CLANG) $(WARN) -O1 -g $(SAN_FLAGS) -Ilibioctlreg -Igenerator -MMD -MP -c -o $@ $<

$(B)/asan/libioctlgen.a: $(ASAN_LIB_OBJ) $(ASAN_REG_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/asan/ioctlgen: $(ASAN_CLI_OBJ) $(ASAN_REG_OBJ) $(B)/asan/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CLANG) $(SAN_FLAGS) -o $@ $^ $(YAML_LIBS)

$(B)/asan/test-%: tests/unit/test-%.c $(B)/asan/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CLANG) $(WARN) -O1 -g $(SAN_FLAGS) -Igenerator -Ilibioctlreg -o $@ $< $(B)/asan/libioctlgen.a $(YAML_LIBS)

$(B)/asan/test-ioctlreg: tests/lookup/test-ioctlreg.c $(ASAN_REG_OBJ) $(B)/asan/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CLANG) $(WARN) -D_ISOC11_SOURCE -O1 -g $(SAN_FLAGS) -Itests/unit/uapi-6.1 -Ilibioctlreg -o $@ $^

.PHONY: sanitizers
sanitizers: $(B)/asan/ioctlgen $(UNIT_PROGS:$(B)/%=$(B)/asan/%) $(B)/asan/test-ioctlreg

-include $(ASAN_LIB_OBJ:.o=.d) $(ASAN_CLI_OBJ:.o=.d) $(ASAN_REG_OBJ:.o=.d)
