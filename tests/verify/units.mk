# SPDX-License-Identifier: GPL-2.0
# Compile generated units in parallel and incrementally (tests/verify/run):
#   make -f tests/verify/units.mk SRC=DIR OUT=DIR MODE=-S|-c STEMS="..." \
#        FLAGS="..." CC="..."
# OUT/<stem>.s (MODE=-S) or OUT/<stem>.o (MODE=-c) from SRC/<stem>.c; the
# compiler's messages go to OUT/<stem>.err; a unit that fails leaves no
# output.  Dependencies come from -MMD, so a changed header recompiles.
SUFFIX  := $(if $(filter -S,$(MODE)),s,o)
TARGETS := $(STEMS:%=$(OUT)/%.$(SUFFIX))

all: $(TARGETS)

$(OUT)/%.$(SUFFIX): $(SRC)/%.c $(OUT)/flags
	@$(CC) $(FLAGS) $(MODE) -MMD -MP -MF $(@:.$(SUFFIX)=.d) -o $@ $< \
		>$(@:.$(SUFFIX)=.err) 2>&1 || { rm -f $@; exit 1; }

# Rebuild everything when the command line changes.
$(OUT)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(FLAGS) $(MODE)' | cmp -s - $@ || echo '$(CC) $(FLAGS) $(MODE)' >$@

FORCE:
.PHONY: all FORCE
.DELETE_ON_ERROR:
-include $(TARGETS:.$(SUFFIX)=.d)
