# SPDX-License-Identifier: GPL-2.0
# ioctl-registry: one flat Makefile.  `make` builds everything, `make check` tests it.
# Local overrides go in config.mak (not committed).  V=1 shows full commands.

-include config.mak

PYTHON   ?= /usr/bin/python3
# The Python programs are modules of one package, generator/ioctltools, run
# as `$(PYTHON) -m ioctltools.<module>`: the package's parent on PYTHONPATH.
export PYTHONPATH := $(CURDIR)/generator
PY_PKG   := generator/ioctltools
PY_BASE  := $(addprefix $(PY_PKG)/,__init__.py model_reader.py jsoncache.py)
CC       ?= gcc
CFLAGS   ?= -O2 -g
WARN      = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
YAML_CFLAGS := $(shell pkg-config --cflags yaml-0.1 2>/dev/null)
YAML_LIBS   := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)

B        := build
# Caches shared by the clones of this machine (tests/lib/rcache.sh's root).
CACHE_ROOT := $(or $(IOCTLREG_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ioctl-registry)
# The C objects through ccache when it is installed, in CACHE_ROOT/ccache
# as tests/lib/rcache.sh keeps it, so that a fresh clone compiles nothing
# (20 s of the first make): paths relative to the clone (CCACHE_BASEDIR,
# the debug info's directory "."), so that another clone's objects match.
# Not with CACHE=0 or a CC of one's own.  Set on the compiler's command
# only: the suites' own ccache settings stay theirs (tests/lib/rcache.sh).
ifneq ($(CACHE),0)
ifeq ($(origin CC),default)
ifneq ($(shell command -v ccache 2>/dev/null),)
CC := CCACHE_DIR='$(or $(CCACHE_DIR),$(CACHE_ROOT)/ccache)' CCACHE_BASEDIR='$(CURDIR)' \
	ccache $(CC) '-fdebug-prefix-map=$(CURDIR)=.'
endif
endif
endif
KVER     := 6.1
KSRC_TAR ?= /usr/src/linux-source-$(KVER).tar.xz
KSRC     := $(B)/linux-source-$(KVER)
MODEL    := $(B)/model.json
SPEC     := spec
# Names below spec/ follow ioctlgen's grammar (rule spec-name: ASCII letters,
# digits, '_', '.', '-'): only such names are ever pasted into a recipe or a
# make variable, so a name holding '$(...)', ';', quotes or spaces runs
# nothing; ioctlgen reports the others when it reads the tree.
SPEC_NAME_OK = LC_ALL=C grep -x '[A-Za-z0-9_./-]*'
SPEC_FILES := $(shell find $(SPEC) -name '*.yaml' | $(SPEC_NAME_OK) | LC_ALL=C sort)

# A long step says it is still running, every 5 s (tools/still-running).
STILL := tools/still-running

ifeq ($(V),1)
Q =
quiet = @:
else
Q = @
quiet = @printf '  %-7s %s\n'
endif

.PHONY: all deps check clean distclean sizes model render patches verify docs audit serve bench fuzz tree headers use-tree uapi lib install exports driver-test import-internal
.DELETE_ON_ERROR:

# Plain `make` (the author's edit -> make -> prompt) runs the
# stages after the model two at a time: render, the series, the audits and
# the site read the model and write apart.  A -j on the command line wins
# (make -j1: one at a time); other goals keep make's default.
PLAIN_MAKE := $(if $(TREE)$(filter-out all,$(MAKECMDGOALS)),,yes)
JOBS ?= 2
ifeq ($(PLAIN_MAKE),yes)
MAKEFLAGS += -j$(JOBS)
endif

# What an author's edit needs: the headers, the series, the site and the
# lookup table (ioctlgen decode).  The consumers' tables and libioctlreg
# are `make exports` and `make lib` (make check tests both).  After the
# model, the longest chain first (the audits, then the site).
all: deps $(B)/ioctlgen $(MODEL) docs $(B)/patches.stamp $(B)/render.stamp $(B)/ioctl.table
	@echo
	@echo "Registry model:  $(MODEL)"
	@echo "Rendered site:   file://$(CURDIR)/$(B)/site/index.html  (or: make serve)"
	@echo "For consumers:   make exports (strace, syzkaller, Go, Rust, JSON), make lib"
# The other stages wait for what the site reads: make holds the next job
# slot for the next target of this list it can start, so without this the
# site (9 of a fresh clone's 17 CPU-s) started last, after them all.
ifeq ($(PLAIN_MAKE),yes)
$(B)/patches.stamp $(B)/render.stamp: | $(B)/audit/.stamp $(B)/layouts.json
endif

deps:
	$(Q)tools/install-deps

# ---------------------------------------------------------------- ioctlgen
LIB_SRC  := $(filter-out generator/cli/%,$(wildcard generator/*.c))
CLI_SRC  := $(wildcard generator/cli/*.c)
LIB_OBJ  := $(LIB_SRC:generator/%.c=$(B)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:generator/cli/%.c=$(B)/obj/cli/%.o)
REG_SRC  := $(filter-out libioctlreg/builtin.c,$(wildcard libioctlreg/*.c))
REG_OBJ  := $(REG_SRC:libioctlreg/%.c=$(B)/obj/ioctlreg/%.o)

$(B)/obj/%.o: generator/%.c
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(WARN) $(CFLAGS) $(YAML_CFLAGS) -Igenerator -Ilibioctlreg -MMD -MP -c -o $@ $<

# with the table's reader: table.c opens a table it made (table_open_registry)
$(B)/libioctlgen.a: $(LIB_OBJ) $(REG_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/ioctlgen: $(CLI_OBJ) $(B)/libioctlreg-core.a $(B)/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(YAML_LIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# ---------------------------------------------------------------- libioctlreg
# The lookup table (`ioctlgen table`, after the model: its sizes measured
# first) and the library that reads it (libioctlreg/, docs/guide/libioctlreg.rst).
# ioctlgen links the reader alone (libioctlreg-core.a, the layout code from
# libioctlgen.a); the installed libioctlreg.a and .so carry the table too
# (table-data.S) and export the ioctlreg_* names only.
$(B)/ioctl.table: $(B)/ioctlgen $(MODEL)
	$(quiet) TABLE $@
	$(Q)$(B)/ioctlgen table $(SPEC) -o $@

REG_PIC  := $(REG_SRC:libioctlreg/%.c=$(B)/lib/obj/%.o) $(B)/lib/obj/builtin.o $(B)/lib/obj/layout.o
REG_FLAGS = $(WARN) $(CFLAGS) -fvisibility=hidden -Ilibioctlreg -Igenerator -MMD -MP
REG_SOVER := 1
PREFIX   ?= /usr/local

$(B)/obj/ioctlreg/%.o: libioctlreg/%.c
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(REG_FLAGS) -c -o $@ $<

$(B)/libioctlreg-core.a: $(REG_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/lib/obj/%.o: libioctlreg/%.c
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(REG_FLAGS) -fPIC -c -o $@ $<

$(B)/lib/obj/layout.o: generator/layout.c
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(REG_FLAGS) -fPIC -c -o $@ $<

$(B)/lib/obj/table-data.o: libioctlreg/table-data.S $(B)/ioctl.table
	@mkdir -p $(@D)
	$(quiet) AS $@
	$(Q)$(CC) -c -DIOCTLREG_TABLE='"$(CURDIR)/$(B)/ioctl.table"' -o $@ $<

# One object, its hidden names made local: a program linking the static
# library sees the ioctlreg_* names only.
$(B)/lib/libioctlreg.a: $(REG_PIC) $(B)/lib/obj/table-data.o
	$(quiet) AR $@
	$(Q)ld -r -o $(B)/lib/ioctlreg-all.o $^ && objcopy --localize-hidden $(B)/lib/ioctlreg-all.o && \
		rm -f $@ && ar rcs $@ $(B)/lib/ioctlreg-all.o

$(B)/lib/libioctlreg.so.$(REG_SOVER): $(REG_PIC) $(B)/lib/obj/table-data.o
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS) -shared -Wl,-soname,libioctlreg.so.$(REG_SOVER) -Wl,-z,defs -o $@ $^

lib: $(B)/lib/libioctlreg.a $(B)/lib/libioctlreg.so.$(REG_SOVER)

# Its unit tests (tests/lookup/run), on any table; the kernel's own _IOC
# macros give the expected numbers.
$(B)/test-ioctlreg: tests/lookup/test-ioctlreg.c $(B)/libioctlreg-core.a $(B)/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CC) $(WARN) -D_ISOC11_SOURCE $(CFLAGS) -Itests/unit/uapi-6.1 -Ilibioctlreg -o $@ $^

# make install PREFIX=/usr DESTDIR=/tmp/stage: the header, both libraries,
# libioctlreg.pc and the table file (for ioctlreg_open()).
install: lib
	$(quiet) INSTALL $(DESTDIR)$(PREFIX)
	$(Q)install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/share/ioctlreg
	$(Q)install -m 644 libioctlreg/ioctlreg.h $(DESTDIR)$(PREFIX)/include/
	$(Q)install -m 644 $(B)/lib/libioctlreg.a $(DESTDIR)$(PREFIX)/lib/
	$(Q)install -m 755 $(B)/lib/libioctlreg.so.$(REG_SOVER) $(DESTDIR)$(PREFIX)/lib/
	$(Q)ln -sf libioctlreg.so.$(REG_SOVER) $(DESTDIR)$(PREFIX)/lib/libioctlreg.so
	$(Q)install -m 644 $(B)/ioctl.table $(DESTDIR)$(PREFIX)/share/ioctlreg/ioctl.table
	$(Q)sed 's|@PREFIX@|$(PREFIX)|' libioctlreg/libioctlreg.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/libioctlreg.pc

-include $(REG_OBJ:.o=.d) $(REG_PIC:.o=.d)

# Unit test programs link the library.
$(B)/test-%: tests/unit/test-%.c $(B)/libioctlgen.a
	$(quiet) LD $@
	$(Q)$(CC) $(WARN) $(CFLAGS) -Igenerator -Ilibioctlreg -o $@ $< $(B)/libioctlgen.a $(YAML_LIBS)

UNIT_PROGS := $(patsubst tests/unit/test-%.c,$(B)/test-%,$(wildcard tests/unit/test-*.c))

# ---------------------------------------------------------------- model
# The lint in the model checks ioctl-number.rst's rows against the real tree.
# Quiet unless something is wrong: errors in full, the warnings as one line
# counted by rule, and in full only the warnings of the entries of the spec
# files that differ from the last commit (what the user just changed, as
# tools/changed-entries finds them).  V=1 or `build/ioctlgen
# check` prints every warning.
MODEL_REPORT = $(if $(Q),--summary $$(tools/changed-entries $(SPEC) | sed 's/^/--full /'))
# The stages' commands and where each version's inputs and outputs are:
# generator/ioctltools/pipeline.py, which tools/use-tree and
# tests/verify/run run too.  Make makes what a stage reads first.
PIPELINE = $(PYTHON) -m ioctltools.pipeline --spec $(SPEC) --build $(B)

# Measured first, before the model: the header specs that name a type
# spec/sizes does not hold yet (a new command's new struct) and the edited
# ones that define types of their own (a changed struct keeps its name), as
# `ioctlgen check --to-measure` lists them.  Only their probes are compiled
# (`make sizes ONLY=...`), merged into spec/sizes, so an edit costs seconds
# even with a cold cache; measure-sizes says what each file gained or lost.
MEASURE_FIRST = $(PIPELINE) to-measure
# The list of every name below spec/, rewritten only when it changes: a
# deleted header spec makes the model out of date too, and so does a new
# name ioctlgen refuses (a dot file, a name outside the grammar).  The names
# go from find to the file as data, never through the recipe's text.
SPEC_LIST := $(B)/spec-files.list
$(SPEC_LIST): FORCE
	@mkdir -p $(B)
	@find $(SPEC) | LC_ALL=C sort | cmp -s - $@ || find $(SPEC) | LC_ALL=C sort >$@

FORCE:
.PHONY: FORCE

$(MODEL): $(B)/ioctlgen $(SPEC_FILES) $(SPEC_LIST) $(KSRC)/.extracted
	$(Q)only=$$($(MEASURE_FIRST)); \
	if [ -n "$$only" ]; then \
		echo "  SIZES   measured first, new or edited types:" $$only; \
		$(MAKE) -s sizes ONLY="$$only"; \
	fi
	$(quiet) MODEL $@
	$(Q)$(B)/ioctlgen model $(MODEL_REPORT) --tree $(KSRC) $(SPEC) -o $@

model: $(MODEL)

# ---------------------------------------------------------------- kernel trees
# Extracted from Debian's linux-source packages; never committed.  KVER is
# the tree the model, the series and verify use; KVERS every tree Debian
# ships that the registry is to describe (6.12 beside 6.1).  Each tree is
# extracted once per machine into the cache outside the clone and linked
# here, read only, with the directory of its exported UAPI: tools/kernel-tree.
# With CACHE=0 a linked tree is extracted into $(B) again.  KVER is the
# oldest known version, whose exports are $(B)/uapi, another's
# $(B)/uapi-<version> (pipeline.py's Where.of, which names the targets the
# recipes make: a rule here that disagrees makes "No rule to make target").
KVERS := 6.1 6.12
UAPI_OF = $(if $(filter $(KVER),$(1)),$(B)/uapi,$(B)/uapi-$(1))
ifeq ($(CACHE),0)
$(foreach v,$(KVERS),$(if $(shell [ -L $(B)/linux-source-$(v) ] && echo y),\
	$(eval $(B)/linux-source-$(v)/.extracted: FORCE)))
endif
$(KSRC)/.extracted: $(KSRC_TAR)
	$(Q)tools/kernel-tree $< $(KSRC) $(call UAPI_OF,$(KVER))

$(B)/linux-source-%/.extracted: /usr/src/linux-source-%.tar.xz
	$(Q)tools/kernel-tree $< $(@D) $(call UAPI_OF,$*)

tree: $(KVERS:%=$(B)/linux-source-%/.extracted)

# Plain `make` runs two jobs at once (JOBS, above): the packages first.
ifeq ($(PLAIN_MAKE),yes)
$(LIB_OBJ) $(CLI_OBJ) $(REG_OBJ) $(REG_PIC) $(KVERS:%=$(B)/linux-source-%/.extracted): | deps
endif

# UAPI headers as `make headers_install` exports them, per kernel ARCH.
# HDRINST TREE,OBJDIR,ARCH,DEST: every ARCH of a tree shares one Kbuild
# object directory (UAPI/.kobj, in the cache beside the tree as the exports
# are: a second clone exports nothing), one ARCH at a time (flock, which
# also serialises the makes of two clones): its usr/include keeps the
# include/uapi headers already exported, so the next ARCH's headers_install
# runs scripts/headers_install.sh on its own asm/ headers only (9 CPU-s ->
# 1).  Kbuild's if_changed redoes a file whose source path changed and
# removes what this ARCH does not export: each export is what a
# headers_install of its own gives (verify step 2 checks x86's, made last).
# The directory starts anew when the tree was extracted again.  Under the
# lock, an export another make finished meanwhile is not made again (nor
# announced).
define HDRINST
	$(Q)mkdir -p $(dir $(2)) && $(STILL) HDRINST $(4) flock $(2).lock sh -c '[ $(4)/.done -nt $(1)/.extracted ] && exit; \
		$(if $(Q),echo "  HDRINST $(4)";) rm -rf $(4) && \
		{ [ $(2)/.tree -nt $(1)/.extracted ] || { rm -rf $(2) && mkdir -p $(2) && touch $(2)/.tree; }; } && \
		tools/headers-install $(1) $(CURDIR)/$(2) $(3) $(CURDIR)/$(4) >/dev/null && touch $(4)/.done'
endef
$(B)/uapi/%/.done: $(KSRC)/.extracted
	$(call HDRINST,$(KSRC),$(B)/uapi/.kobj,$*,$(B)/uapi/$*)

headers: $(B)/uapi/x86/.done

# The other trees' exported UAPI: $(B)/uapi-<version>/<arch>.
define uapi_of_version
$(B)/uapi-$(1)/%/.done: $(B)/linux-source-$(1)/.extracted
	$$(call HDRINST,$(B)/linux-source-$(1),$(B)/uapi-$(1)/.kobj,$$*,$(B)/uapi-$(1)/$$*)
endef
$(foreach v,$(filter-out $(KVER),$(KVERS)),$(eval $(call uapi_of_version,$(v))))

# ---------------------------------------------------------------- sizes
# Remeasure every argument type with the real compilers (see tools/measure-sizes)
# against the headers of each kernel ARCH named in abis.yaml, each version
# the registry knows against its own tree's exports (spec/sizes/<abi>.yaml
# for the oldest, spec/sizes/<version>/<abi>.yaml).  They read the registry
# through `ioctlgen dump`, which needs no sizes; so do the lists of exports.
# UAPI_TARGETS: every known version's export of every ARCH (make uapi's order).
UAPI_TARGETS = $$($(PIPELINE) targets uapi)
ABI_HEADERS = $(MAKE) -s $$($(PIPELINE) --version $(KVER) targets uapi)
# Only new or changed probes are compiled (a cache keyed by content in
# $(B)/sizes/cache, cache-<version> for another version than the oldest;
# generator/ioctltools/probecache.py).  NEW_HEADERS=DIR: the
# rendered `new: true` headers as DIR/<path>, instead of measure-sizes' own text.
# ONLY="spec files": measure only these headers' probes, merged into spec/sizes.
# The kernel-internal headers are measured in kernel context on the trees
# generator/ioctltools/kconf.py names, one per version and base ABI, each
# configured once (tinyconfig prepare0) in the cache outside the clone and
# linked as $(B)/kconf-<version>-<ABI>; made only when ONLY names a
# kernel-internal header or is empty (kcontext targets).
KCONTEXT_TREES = $$($(PYTHON) -m ioctltools.kcontext targets $(SPEC) $(B) $(ONLY))
$(B)/kconf-%/.done: $(PY_PKG)/kconf.py
	$(quiet) KCONFIG $(@D)
	$(Q)$(MAKE) -s $(B)/linux-source-$(firstword $(subst -, ,$*))/.extracted && \
		$(PYTHON) -m ioctltools.kcontext configure $(SPEC) $* $(B)

# No trees (ONLY names no kernel-internal header): no make without a goal
# (its default, everything).
sizes: $(B)/ioctlgen
	$(Q)t="$(KCONTEXT_TREES)"; [ -z "$$t" ] || $(MAKE) -s -j2 $$t
	$(Q)$(MAKE) -s -j2 $(UAPI_TARGETS)
	$(Q)$(PIPELINE) sizes $(if $(NEW_HEADERS),--new-headers $(NEW_HEADERS)) \
		$(foreach f,$(ONLY),--only $(f))

# Import every ioctl command of the exported UAPI of each ARCH into
# spec/headers and spec/left-out.txt (tools/import-uapi), merged with what
# the registry already says, and the magic-code table of ioctl-number.rst
# into spec/magic.yaml (tools/import-ioctl-number): each known version's
# tree, oldest first, so that what a newer tree adds is `since:` it and
# what it no longer has `removed:` in it (spec/left-out-<version>.txt for
# any but the oldest).  New argument types need `make sizes` after.
import: $(B)/ioctlgen
	$(Q)$(MAKE) -s -j2 $(UAPI_TARGETS)
	$(Q)$(PIPELINE) import

# The kernel-internal headers tools/import-uapi reads (--internal): the 6.1
# tree's include/<path>, preprocessed and compiled in kernel context on the
# configured tree kcontext.py names for 6.1 (x86_64), their specs marked
# `kernel-internal: true`, what they do not register in
# spec/left-out-internal.txt.  (The older kernel-internal specs were written
# before this step and are kept as they are.)
INTERNAL_IMPORT = media/v4l2-subdev.h media/v4l2-ioctl.h media/v4l2-common.h \
	media/i2c/adv7842.h media/i2c/bt819.h media/i2c/saa6588.h media/drv-intf/exynos-fimc.h \
	linux/platform_data/media/si4713.h net/nfc/nci_core.h linux/hid-roccat.h \
	linux/map_benchmark.h sound/pcm.h linux/blktrace_api.h xen/interface/xen-mca.h linux/falloc.h
import-internal: $(B)/ioctlgen
	$(Q)$(MAKE) -s $(B)/kconf-6.1-x86_64/.done
	$(Q)tools/import-uapi --version 6.1 --uapi $(B)/uapi --tree $(B)/linux-source-6.1 --spec $(SPEC) \
		--left-out $(SPEC)/left-out-internal.txt \
		$$($(PYTHON) -m ioctltools.kcontext args $(SPEC) 6.1 $(B) x86_64) \
		$(foreach h,$(INTERNAL_IMPORT),--internal $(h))

# ---------------------------------------------------------------- render / patches / verify
# build/render mirrors the kernel paths of every generated file (KVER's tree);
# generated-patches/<version>/ is the series against each pristine tree
# (tools/make-patches; build/patches-work, build/patches-work-<version>).
RENDER := $(B)/render
# What each step reads besides the model, so that `make` with nothing changed
# does nothing; `make render` and `make patches` always run.
# The renderers' modules (the package's others, but PY_BASE, are the tools')
PY_RENDER   := $(PY_BASE) $(wildcard $(addprefix $(PY_PKG)/,escape.py export*.py render*.py \
	rst_table.py site_*.py table_reader.py))
RENDER_DEPS := $(PY_RENDER) $(shell find templates/kernel -type f)
PATCH_DEPS  := $(RENDER_DEPS) $(PY_PKG)/make_patches.py $(wildcard templates/patches/*)

render $(B)/render.stamp: $(MODEL) $(KSRC)/.extracted $(RENDER_DEPS)
	$(quiet) RENDER $(RENDER)
	$(Q)$(PYTHON) -m ioctltools.render -q -m $(MODEL) --version $(KVER) -k $(KSRC) -o $(RENDER) \
		--cache $(B)/render-cache.pickle
	$(Q)touch $(B)/render.stamp

# One series per known version, against its own tree: generated-patches/<version>/.
# KVER's shares the render cache with render.py, which `make` runs beside it:
# the cache is written whole and renamed, its entries keyed by all they are
# made from.  (A job per version cost more CPU, a second make, than it saved.)
patches $(B)/patches.stamp: $(MODEL) $(KVERS:%=$(B)/linux-source-%/.extracted) $(PATCH_DEPS)
	$(Q)$(PIPELINE) patches -m $(MODEL) $(if $(FORCE),--force)
	$(Q)touch $(B)/patches.stamp

# Apply generated-patches/<version>/ to a copy of each tree, build, boot in
# QEMU (tests/verify/run VERSION), the newest first; VERSION=6.1 only one.
verify: $(MODEL) $(B)/patches.stamp
	$(Q)$(PIPELINE) $(if $(VERSION),--version $(VERSION)) verify -m $(MODEL)

# `make TREE=/path/to/linux`: the registry on a kernel tree of one's own (an
# unpacked source or a git checkout, only read): import, check, patches and
# verify of its version in build/tree/<name>/ (tools/use-tree), never
# writing spec/ or generated-patches/.  TREE_VERIFY=0 stops before verify;
# VERIFY_ARCHES="arm64 ..." adds cross-built layouts to its x86_64 boot.
ifneq ($(TREE),)
.DEFAULT_GOAL := use-tree
endif
use-tree: deps $(B)/ioctlgen
	$(Q)[ -n "$(TREE)" ] || { echo "make use-tree: TREE=/path/to/linux is needed" >&2; exit 2; }
	$(Q)$(PYTHON) -m ioctltools.usetree $(if $(filter 0,$(TREE_VERIFY)),--no-verify) "$(TREE)"

# `make driver-test DRIVER=dir`: a driver of one's own booted in QEMU with
# the series applied (tools/driver-test: a tinyconfig x86_64 kernel in
# build/driver-test/<version>/, the driver as its module, the user program
# of dir printing its results as TAP).  VERSION=6.12 for the other tree.
driver-test: $(if $(DRIVER),$(B)/ioctlgen $(B)/patches.stamp)
	$(Q)[ -n "$(DRIVER)" ] || { echo "make driver-test: DRIVER=dir is needed (Kbuild, the module's .c, one *_test.c)" >&2; exit 2; }
	$(Q)nice -n 10 tools/driver-test $(if $(VERSION),--version $(VERSION)) "$(DRIVER)"

# ---------------------------------------------------------------- exports
# The registry in its consumers' formats, from the lookup table decode
# answers from, read through libioctlreg (ioctlgen table --dump):
# $(B)/exports/<consumer>/ (generator/ioctltools/export.py; docs/exports/*.rst).
# `make exports` writes every one, `make exports-strace` (syzkaller, go,
# rust, data) one.
EXPORTERS   := strace syzkaller go rust data
EXPORT_DEPS := $(PY_BASE) $(PY_PKG)/export.py $(wildcard $(PY_PKG)/export_*.py) \
	$(PY_PKG)/renderlib.py $(PY_PKG)/table_reader.py $(B)/ioctl.table $(B)/ioctlgen

$(B)/exports/.stamp: $(EXPORT_DEPS)
	$(quiet) EXPORT $(B)/exports
	$(Q)$(STILL) EXPORT $(B)/exports $(PYTHON) -m ioctltools.export -t $(B)/ioctl.table --ioctlgen $(B)/ioctlgen -o $(B)/exports
	$(Q)touch $@

exports: $(B)/exports/.stamp

$(EXPORTERS:%=exports-%): exports-%: $(B)/ioctl.table $(B)/ioctlgen
	$(quiet) EXPORT $(B)/exports/$*
	$(Q)$(PYTHON) -m ioctltools.export -t $(B)/ioctl.table --ioctlgen $(B)/ioctlgen -o $(B)/exports --only $*
.PHONY: $(EXPORTERS:%=exports-%)

# ---------------------------------------------------------------- docs
# The browsable registry: the model through templates/site/ plus the pages of
# docs/ (not docs/dev/) into $(B)/site-src, then Sphinx, warnings as errors,
# into $(B)/site (generator/ioctltools/render_site.py does both).
PORT      ?= 8000
SITE_DEPS := $(PY_RENDER) $(wildcard templates/site/*) \
	$(shell find -L docs -type f ! -path 'docs/dev/*') \
	$(shell find $(SPEC)/schema -name '*.json' | $(SPEC_NAME_OK))

# The free codes page: ioctlgen's answer, as `ioctlgen free --json` gives it.
$(B)/free.json: $(MODEL)
	$(quiet) FREE $@
	$(Q)$(B)/ioctlgen free --json --spec $(SPEC) >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(B)/site/.stamp: $(MODEL) $(B)/ioctl.table $(B)/free.json $(B)/ioctlgen $(SITE_DEPS) $(B)/audit/.stamp $(B)/layouts.json
	$(quiet) SITE $(B)/site
	$(Q)$(STILL) SITE $(B)/site $(PYTHON) -m ioctltools.render_site --model $(MODEL) --src $(B)/site-src \
		--html $(B)/site --ioctlgen $(B)/ioctlgen --audit $(B)/audit --free $(B)/free.json \
		--layouts $(B)/layouts.json --table $(B)/ioctl.table $(if $(Q),>/dev/null)
	$(Q)touch $@

docs: $(B)/site/.stamp
	@echo "Site: file://$(CURDIR)/$(B)/site/index.html"

# The consumers' tables Debian ships, audited: build/audit/*.json,
# the site's "Where the tools disagree" (tools/audit-debian).
AUDIT_DEPS := tools/audit tools/audit-debian $(PY_BASE) $(filter-out $(PY_RENDER),$(wildcard $(PY_PKG)/*.py)) \
	$(wildcard spec/consumers/*.txt) $(wildcard tests/fixtures/consumers/*)
# Every consumer in one job, one process: the model is read and its views
# built once (a job per consumer cost 1.2 CPU-s after an edit, this 0.5).
# The JSON of a consumer no longer audited goes (tools/audit-debian).
$(B)/audit/.stamp: $(MODEL) $(B)/ioctlgen $(AUDIT_DEPS)
	$(quiet) AUDIT $(B)/audit
	$(Q)tools/audit-debian $(B)/ioctlgen $(MODEL) $(B)/audit
	$(Q)touch $@

audit: $(B)/audit/.stamp

# The struct layout view: the registry's structs and unions as
# every ABI's compiler lays them out (tools/measure-layouts), on the ABIs
# whose ARCH's headers are exported: x86's always, every ARCH's after
# `make uapi` (make check) in this clone or another of the machine (the
# exports are the cache's, tools/kernel-tree); the page lists the others
# as not measured.
$(B)/layouts.json: $(MODEL) $(PY_BASE) $(addprefix $(PY_PKG)/,measure_layouts.py layouts.py cc.py) \
		$(B)/uapi/x86/.done $(wildcard $(B)/uapi/*/.done)
	$(quiet) LAYOUTS $@
	$(Q)tools/measure-layouts $(MODEL) $(B)/uapi $@

serve: docs
	@echo "Serving $(B)/site on http://127.0.0.1:$(PORT)/  (Ctrl-C stops)"
	$(Q)exec $(PYTHON) -m http.server --bind 127.0.0.1 --directory $(B)/site $(PORT)

# ---------------------------------------------------------------- bench / fuzz
# `make bench` prints medians (tests/bench/run); `make fuzz FUZZ_TIME=600` fuzzes
# load+check+model with libFuzzer, growing tests/fuzz/corpus (tests/fuzz/run).
CLANG     ?= clang-14
FUZZ_TIME ?= 600
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
BENCH_SRC := $(wildcard tests/bench/*.c)

# Then the verify of both trees warm (tests/verify/bench; VERIFY_BENCH="cold
# warm" times a cold one first) and a cold make check in a fresh clone
# (tests/bench/cold-check, about 35 minutes, and its CPU time).  VERIFY_BENCH=0 skips both.
VERIFY_BENCH ?= warm
bench: $(B)/ioctlgen $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%) $(MODEL) $(B)/patches.stamp
	$(Q)$(ABI_HEADERS)
	$(Q)tests/bench/run
	$(Q)if [ "$(VERIFY_BENCH)" != 0 ]; then tests/verify/bench $(VERIFY_BENCH) && tests/bench/cold-check; fi

$(B)/bench/%: tests/bench/%.c $(B)/libioctlreg-core.a $(B)/libioctlgen.a
	@mkdir -p $(@D)
	$(quiet) LD $@
	$(Q)$(CC) $(WARN) $(CFLAGS) -Igenerator -Ilibioctlreg -o $@ $< $(B)/libioctlreg-core.a \
		$(B)/libioctlgen.a $(YAML_LIBS)

# make fuzz and the sanitizers' builds
include $(dir $(firstword $(MAKEFILE_LIST)))tests/instrumented.mk

# ---------------------------------------------------------------- check
# The suites run two at a time (tests/run) and only read the trees and their
# exported UAPI, the lookup table and libioctlreg: all are made first, two jobs at once once the packages
# are there (the trees unpack while ioctlgen compiles; the model is made
# while the headers are exported).
# Their set-up is timed for tests/run's closing budget table.  Results of
# suites and expensive steps are kept outside the clone
# (tests/lib/rcache.sh: ~/.cache/ioctl-registry); CACHE=0 ignores them.
check: deps
	$(Q)mkdir -p $(B) && /usr/bin/time -f '%e %U %S' -o $(B)/check-setup.time \
		sh -c '$(MAKE) -s -j2 $(B)/ioctlgen $(UNIT_PROGS) $(B)/test-ioctlreg $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%) tree && \
		       $(MAKE) -s -j2 $(MODEL) uapi && $(MAKE) -s lib'
	$(Q)CHECK_PREP=$(B)/check-setup.time tests/run

# Every known tree, extracted, and its UAPI exported for every ARCH of the
# ABIs ($(B)/uapi for KVER's tree, $(B)/uapi-<version> for another's).  A
# tree's ARCHes go one at a time (HDRINST), so the list alternates between
# trees, which -j2 exports side by side; x86 last, after the others.
uapi: $(B)/ioctlgen
	$(Q)$(MAKE) -s tree $(UAPI_TARGETS)

# Everything the build made: all of $(B) but the kernel tree unpacked from
# Debian's tarball (an input, never modified; distclean removes it too) and
# the links to its exports in the cache (tools/kernel-tree: only a new
# extraction links them again), and Python's byte-code caches.  Nothing of
# the cache goes (rm -rf removes a link, not what it points to).
# generated-patches/ is committed: it stays.
clean:
	[ ! -d $(B) ] || find $(B) -mindepth 1 -maxdepth 1 ! -name 'linux-source-*' \
		! \( -type l -name 'uapi*' \) -exec rm -rf {} +
	find generator tools tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(B)
