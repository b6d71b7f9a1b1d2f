# pccbench - a boring Makefile.
#   make            build pccbench and reg/libpccreg.a
#   make run        install missing deps, build, start the REPL on `sim`
#   make check      install missing deps, build, run every test
#   make bench      the benchmarks
#   make install PREFIX=/usr/local
#   SANITIZE=address,undefined  V=1  CC=clang
.DEFAULT_GOAL := all

CC ?= gcc
PREFIX ?= /usr/local
PKG_CONFIG ?= pkg-config
VERSION := 0.1.0

ifdef SANITIZE
O ?= build-san
BIN := $(O)/pccbench
LIB := $(O)/libpccreg.a
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
else
O ?= build
BIN := pccbench
LIB := reg/libpccreg.a
SANFLAGS :=
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

WFLAGS := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wshadow -Wno-format-nonliteral
WERROR ?= -Werror
# Recursive (=) so the pkg-config calls run after `make deps` installed them.
# readline and libpci ship .pc files on Debian; a plain -l where they do not.
PKG_MODS := libxml-2.0 json-c libmicrohttpd nlopt yaml-0.1
# libmicrohttpd and nlopt: their headers only; serve metrics and tune
# open them when they run (src/util/lazylib.c), so that the other
# commands' processes start without them and the 12 libraries they bring
# (debian/control names them: dpkg-shlibdeps cannot see them).
PKG_LINKED := libxml-2.0 json-c yaml-0.1
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKG_MODS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKG_LINKED) 2>/dev/null) \
	$(shell $(PKG_CONFIG) --libs libpci 2>/dev/null || echo -lpci) \
	$(shell $(PKG_CONFIG) --libs readline 2>/dev/null || echo -lreadline) \
	$(shell $(PKG_CONFIG) --libs libcrypt 2>/dev/null || echo -lcrypt) -lm
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
CPPFLAGS += -D_GNU_SOURCE -DPCCB_VERSION='"$(VERSION)"' -Ireg -Isrc -Isrc/core -Isrc/util -Ialgos \
	-include reg/banned.h
CFLAGS ?= -O2 -g
# The simulator's event loop and the algorithm models: -O3 is ~5 % faster
# there (bench sim) and changes no result (no fast-math); empty to debug.
HOT_CFLAGS ?= -O3
ALL_CFLAGS = -std=c11 $(WFLAGS) $(WERROR) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) \
	-MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS)

REG_SRC := $(wildcard reg/*.c)
ALGO_SRC := $(wildcard algos/*.c algos/*/*.c)
APP_SRC := $(filter-out src/main.c,$(wildcard src/*.c src/cmd/*.c src/sim/*.c src/tel/*.c src/rec/*.c src/sweep/*.c src/tune/*.c src/profile/*.c src/metrics/*.c src/core/*.c src/util/*.c src/host/*.c))
TEST_SRC := $(wildcard tests/test_*.c)
TOOL_SRC := $(wildcard tests/tools/*.c)

REG_OBJ := $(REG_SRC:%.c=$(O)/%.o)
ALGO_OBJ := $(ALGO_SRC:%.c=$(O)/%.o)
APP_OBJ := $(APP_SRC:%.c=$(O)/%.o)
MAIN_OBJ := $(O)/src/main.o
APP_LIB := $(O)/libpccbapp.a
TESTS := $(TEST_SRC:tests/%.c=$(O)/tests/%)
TOOLS := $(TOOL_SRC:tests/tools/%.c=$(O)/tests/%)
DEPS := $(wildcard $(O)/*/*.d $(O)/*/*/*.d)

.PHONY: all deps run check test-build test-run bench install uninstall deb clean
all: $(BIN) $(LIB)

deps:
	$(Q)scripts/install-deps.sh

$(O)/src/sim/%.o $(ALGO_OBJ): HOT := $(HOT_CFLAGS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(HOT) -c -o $@ $<

$(LIB): $(REG_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(APP_LIB): $(APP_OBJ) $(ALGO_OBJ)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(APP_LIB) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(O)/tests/%: tests/%.c $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -o $@ $< $(APP_LIB) $(LIB) \
		$(ALL_LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS)

$(O)/tests/%: tests/tools/%.c $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) -o $@ $< $(APP_LIB) $(LIB) \
		$(ALL_LDFLAGS) $(PKG_LIBS)

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)./$(BIN) -d sim

test-build: all $(TESTS) $(TOOLS)

check: deps
	$(Q)$(MAKE) --no-print-directory test-build
	$(Q)$(MAKE) --no-print-directory test-run

test-run:
	$(Q)O=$(O) BIN=$(BIN) tests/run-tests.sh $(TESTS)

bench: deps
	$(Q)$(MAKE) --no-print-directory all $(O)/tests/bench_adb $(O)/tests/bench_diag \
		$(O)/tests/bench_hostctr
	$(Q)$(O)/tests/bench_adb
	$(Q)$(O)/tests/bench_diag
	$(Q)$(O)/tests/bench_hostctr
	$(Q)./$(BIN) bench sim all
	$(Q)BIN=./$(BIN) tests/tools/bench-record.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-sweep.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-htsim.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-htsim-ls.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-scale.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-par.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-tune.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-dcqcn.sh
	$(Q)BIN=./$(BIN) tests/tools/bench-startup.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/pccbench/reg
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/pccbench
	install -m 644 reg/ppcc.adb $(DESTDIR)$(PREFIX)/share/pccbench/reg/
	for d in algos/*/; do \
		install -d $(DESTDIR)$(PREFIX)/share/pccbench/$$d && \
		install -m 644 $$d/algo.xml $(DESTDIR)$(PREFIX)/share/pccbench/$$d; \
	done
	install -d $(DESTDIR)$(PREFIX)/share/pccbench/plots
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/pccbench/plots/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 src/pccbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 scripts/pccbench.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pccbench

# What install put there, and the directories it made when now empty.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pccbench \
		$(DESTDIR)$(PREFIX)/share/man/man1/pccbench.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pccbench
	rm -rf $(DESTDIR)$(PREFIX)/share/pccbench

# The Debian package (debian/), built from a copy of this tree in
# $(O)/deb/pccbench (dpkg-buildpackage cleans its tree and writes beside
# it): $(O)/deb/pccbench_VERSION_ARCH.deb, then lintian on it.
DEB_DIR = $(O)/deb
deb:
	$(Q)WITH_DEB=1 scripts/install-deps.sh
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/pccbench
	tar -c --exclude-vcs --exclude='./build*' --exclude=./pccbench \
		--exclude=./reg/libpccreg.a . | tar -x -C $(DEB_DIR)/pccbench
	# a clean environment, as sbuild gives: this make's command line
	# (CC=clang O=... under CI's clang run) reaches recipes through
	# MAKEFLAGS and the environment, and must not reach the package's
	# build
	cd $(DEB_DIR)/pccbench && env -i PATH="$$PATH" HOME="$$HOME" \
		TMPDIR="$${TMPDIR:-/tmp}" \
		DEB_BUILD_OPTIONS="$$DEB_BUILD_OPTIONS" dpkg-buildpackage -us -uc -b
	lintian $(DEB_DIR)/pccbench_$(VERSION)_$$(dpkg --print-architecture).deb

clean:
	rm -rf build build-san build-clang build-fuzz pccbench reg/libpccreg.a

-include $(DEPS)

# ---- the real mstreg on an emulated NIC -----------------------------------
# tests/mstreg-emu/emu.so is LD_PRELOADed into Debian's mstreg (not
# instrumented), so it and the sim firmware it links are built PIC and
# without SANITIZE's flags, in $(O)/emu/.
EMU := $(O)/tests/mstreg-emu.so
EMU_LIB_OBJ := $(addprefix $(O)/emu/,$(REG_SRC:.c=.o) $(ALGO_SRC:.c=.o) \
	src/sim/firmware.o)
EMU_LIBS = $(shell $(PKG_CONFIG) --libs libxml-2.0 json-c 2>/dev/null) -lm

test-build: $(EMU)

$(O)/emu/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (emu)")
	$(Q)$(CC) $(CPPFLAGS) -std=c11 $(WFLAGS) $(WERROR) $(CFLAGS) \
		$(PKG_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(O)/emu/libemu.a: $(EMU_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(EMU): $(O)/emu/tests/mstreg-emu/emu.o $(O)/emu/libemu.a \
		tests/mstreg-emu/emu.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -o $@ $< -Wl,--version-script=tests/mstreg-emu/emu.map \
		$(O)/emu/libemu.a $(EMU_LIBS)

# (the shallower .d files are in DEPS)
-include $(wildcard $(O)/emu/*/*/*/*.d)

# ---- a fake DOCA ----------------------------------------------------------
# tests/fake-doca: libdoca_common.so.2 and libdoca_telemetry.so.2 with
# DOCA's sonames and symbols, for PCCBENCH_DOCA_LIBDIR (tests/e2e/doca.sh).
# Built PIC, without SANITIZE's flags (pccbench dlopens them).  fake-doca:
# DOCA 3.2 (adp_retx, reconfig); fake-doca-old: 3.0 (neither);
# fake-doca-common: libdoca_common only.
FAKE_DOCA_DIRS := $(O)/tests/fake-doca $(O)/tests/fake-doca-old \
	$(O)/tests/fake-doca-common
FAKE_DOCA := $(O)/tests/fake-doca/libdoca_telemetry.so.2 \
	$(O)/tests/fake-doca-old/libdoca_telemetry.so.2 \
	$(addsuffix /libdoca_common.so.2,$(FAKE_DOCA_DIRS))
FAKE_DOCA_CFLAGS = -std=c11 -D_GNU_SOURCE $(WFLAGS) -Wno-missing-prototypes \
	$(WERROR) $(CFLAGS) -fPIC -shared

test-build: $(FAKE_DOCA)

$(O)/tests/fake-doca/libdoca_common.so.2: FAKE_V := 3.2.0
$(O)/tests/fake-doca-old/libdoca_common.so.2: FAKE_V := 3.0.0058
$(O)/tests/fake-doca-common/libdoca_common.so.2: FAKE_V := 3.2.0
$(O)/tests/fake-doca/libdoca_telemetry.so.2: FAKE_D := -DFAKE_DOCA_RETX \
	-DFAKE_DOCA_RECONF

$(O)/tests/%/libdoca_common.so.2: tests/fake-doca/common.c tests/fake-doca/fake.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@ (fake DOCA)")
	$(Q)$(CC) $(FAKE_DOCA_CFLAGS) -DFAKE_DOCA_VER='"$(FAKE_V)"' \
		-Wl,-soname,libdoca_common.so.2 -o $@ $<

$(O)/tests/%/libdoca_telemetry.so.2: tests/fake-doca/telemetry.c \
		tests/fake-doca/fake.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@ (fake DOCA)")
	$(Q)$(CC) $(FAKE_DOCA_CFLAGS) $(FAKE_D) \
		-Wl,-soname,libdoca_telemetry.so.2 -o $@ $<

# ---- a fake ethtool ioctl -------------------------------------------------
# tests/fake-ethtool: an LD_PRELOAD library that answers SIOCETHTOOL for one
# interface as an old kernel does while the driver's set changes
# (tests/e2e/ethtool_change.sh).  PIC, without SANITIZE's flags.
FAKE_ETHTOOL := $(O)/tests/fake-ethtool.so

test-build: $(FAKE_ETHTOOL)

$(FAKE_ETHTOOL): tests/fake-ethtool/ethtool.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@ (fake ethtool)")
	$(Q)$(CC) $(FAKE_DOCA_CFLAGS) -o $@ $<

# ---- fuzzing --------------------------------------------------------------
# make fuzz [FUZZ_S=10]: libFuzzer harnesses (tests/fuzz/fuzz_*.c) built with
# clang into build-fuzz/, the project's sources instrumented with
# -fsanitize=fuzzer-no-link,address,undefined.  tests/fuzz/run.sh first
# replays tests/fuzz/regress/NAME/ and tests/fuzz/corpus/NAME/, then fuzzes
# each harness FUZZ_S seconds on a copy of its corpus; any crash, leak or
# timeout fails.  FUZZ=NAME,... picks harnesses.
FUZZ_CC ?= clang
FUZZ_O ?= build-fuzz
FUZZ_S ?= 10
FUZZ_COMMA := ,
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 $(WFLAGS) -Wno-unused-command-line-argument -O1 -g \
	$(FUZZ_SAN) $(PKG_CFLAGS) -MMD -MP
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_O)/%)
FUZZ_APP_OBJ := $(APP_SRC:%.c=$(FUZZ_O)/%.o) $(ALGO_SRC:%.c=$(FUZZ_O)/%.o)
FUZZ_REG_OBJ := $(REG_SRC:%.c=$(FUZZ_O)/%.o)

.PHONY: fuzz fuzz-build
fuzz: fuzz-build
	$(Q)FUZZ_O=$(FUZZ_O) tests/fuzz/run.sh $(FUZZ_S) $(subst $(FUZZ_COMMA), ,$(FUZZ))

fuzz-build: $(FUZZ_BINS)
.SECONDARY: $(FUZZ_SRC:%.c=$(FUZZ_O)/%.o) $(FUZZ_O)/tests/fuzz/fuzz.o

# the project's code: no -Werror (clang warns where gcc does not)
$(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-c -o $@ $<

$(FUZZ_O)/libpccbapp.a: $(FUZZ_APP_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_O)/libpccreg.a: $(FUZZ_REG_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_O)/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz $(FUZZ_CFLAGS) $(WERROR) \
		-c -o $@ $<

$(FUZZ_O)/fuzz_%: $(FUZZ_O)/tests/fuzz/fuzz_%.o $(FUZZ_O)/tests/fuzz/fuzz.o \
		$(FUZZ_O)/libpccbapp.a $(FUZZ_O)/libpccreg.a
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(PKG_LIBS)

-include $(wildcard $(addprefix $(FUZZ_O)/,src/*.d src/*/*.d reg/*.d \
	algos/*.d algos/*/*.d tests/fuzz/*.d))
