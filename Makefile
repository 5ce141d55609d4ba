# xq-tools build.  `make` builds bin/ and runs the main job on corpus/;
# `make check` builds and runs every test.  See README.md.
#
# Two builds: `make` (and install, bench) builds the tools users run, with
# optimisation and without assert()s, into build/ and bin/; `make check`
# builds its own copy with assert()s on (the library's internal
# cross-checks are part of the tests) into build-check/.  The asserted
# build runs about twice the instructions of the other (masters: 325 M
# against 167 M on the first 7 MB), which is why users do not get it.
#
# Layout conventions (so that adding a file never needs a Makefile edit):
#   src/lib/*.c          -> build/libxq.a        (the core library)
#   src/tools/xq-*.c     -> bin/xq-*             (one main() per tool)
#   tests/unit/test_*.c  -> build/tests/test_*   (cmocka, linked with libxq.a)
#   tests/cli/*.sh       -> command-line tests, run by tests/run-cli.sh

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
BIN     ?= bin
# -O3: 1.5% fewer instructions than -O2 on the master games, no worse in
# callgrind's cache and branch model; -march=native measured no faster
# (and valgrind cannot run its instructions)
OPT     ?= -O3 -g -DNDEBUG
# the tests' build (make check, make unit): asserts on
CHECK_OPT ?= -O2 -g
PKGS     = libxml-2.0 zlib
DEBPKGS  = libxml2-dev zlib1g-dev libcmocka-dev pkg-config
# Only for tests, installed when possible: an independent rules engine for
# the differential test, GNU parallel for the map-reduce recipe test, groff
# and man for the manual page tests
# (tests that need them skip with a message without them).
TESTPKGS = fairy-stockfish parallel groff-base man-db

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# The tools do not link libxml2 (it maps ICU, libstdc++, liblzma... at
# every start, ~3 ms): src/lib/xml_lib.c dlopen()s it by its SONAME the
# first time an XML record is read (dlopen is in libc from glibc 2.34 on;
# elsewhere add DL_LIBS=-ldl).  Its headers still give the types.  Tests and
# fuzz targets link it as needed (test_write calls it for RELAX NG).
ZLIB_LIBS  = $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)
XML2_LIBS  = $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
DL_LIBS   ?=
# SONAME of the libxml2.so the linker would take (pkg-config's libdir
# first), else libxml2 2.x's; only xml_lib.o is compiled with it.
XML2_SO     = $(firstword $(wildcard $(shell pkg-config --variable=libdir libxml-2.0 2>/dev/null)/libxml2.so) \
                $(shell $(CC) -print-file-name=libxml2.so 2>/dev/null))
OBJDUMP    ?= objdump
XML2_SONAME = $(or $(shell $(OBJDUMP) -p $(XML2_SO) 2>/dev/null | awk '$$1 == "SONAME" {print $$2; exit}'),libxml2.so.2)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN    = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Isrc/lib $(PKG_CFLAGS) -MMD -MP
LDLIBS  = $(ZLIB_LIBS) $(DL_LIBS) -lpthread
TEST_LIBS = -Wl,--as-needed $(XML2_LIBS) -Wl,--no-as-needed

LIB_SRC   = $(wildcard src/lib/*.c)
LIB_OBJ   = $(LIB_SRC:src/lib/%.c=$(BUILD)/lib/%.o)
TOOL_SRC  = $(wildcard src/tools/xq-*.c)
TOOL_HELP = $(filter-out $(TOOL_SRC),$(wildcard src/tools/*.c))
TOOL_HOBJ = $(TOOL_HELP:src/tools/%.c=$(BUILD)/tools/%.o)
TOOLS     = $(TOOL_SRC:src/tools/%.c=$(BIN)/%)
UNIT_SRC  = $(wildcard tests/unit/test_*.c)
UNIT_BIN  = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SHARED   ?= $(abspath ../shared)

.PHONY: all deps test-deps run check check-run unit unit-run cli asan bench pgo fuzz install uninstall clean FORCE
# keep the objects make builds on the way to a tool (no "rm build/tools/*.o")
.SECONDARY:
.DEFAULT_GOAL := run

all: deps $(TOOLS)

# The main job: validate every record bundled in corpus/.
run: all
	@echo "xq-validate corpus/*.pgn"
	@bin/xq-validate corpus/*.pgn; st=$$?; \
	  if [ $$st -eq 2 ]; then exit 2; fi; \
	  echo "(exit status $$st: 0 all valid, 1 findings; corpus/ holds broken games on purpose)"

# The libraries the build needs (pkg-config names); cmocka only for tests.
BUILD_PCS = libxml-2.0 zlib
TEST_PCS  = cmocka

# deps: the build's libraries.  Found by pkg-config (any system), nothing is
# done; else on Debian, as root, the missing -dev packages are installed
# with apt-get, and otherwise the message says what to install.
# NO_DEPS=1 skips the check (a packager's build, a system without
# pkg-config: then CFLAGS/LDLIBS must find the libraries).
# test-deps: the same for cmocka, and (root on Debian) the tools some
# tests use (TESTPKGS; without them those tests skip with a message).
deps:
	@$(MAKE_DEPS) "$(BUILD_PCS)" "$(DEBPKGS_BUILD)"

test-deps:
	@$(MAKE_DEPS) "$(BUILD_PCS) $(TEST_PCS)" "$(DEBPKGS)"
	@[ -n "$(NO_DEPS)" ] || [ "$$(id -u)" != 0 ] || ! command -v dpkg >/dev/null 2>&1 || \
	for p in $(TESTPKGS); do \
	  if ! dpkg -s $$p >/dev/null 2>&1; then \
	    echo "installing (tests only): $$p"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$p >/dev/null 2>&1 || \
	      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$p) >/dev/null 2>&1 || \
	      echo "could not install $$p; its tests will be skipped"; \
	  fi; \
	done

DEBPKGS_BUILD = $(filter-out libcmocka-dev,$(DEBPKGS))
# $(MAKE_DEPS) "PKG-CONFIG NAMES" "DEBIAN PACKAGES"
MAKE_DEPS = NO_DEPS="$(NO_DEPS)" sh tests/deps.sh

# The compiler and flags of the last build in $(BUILD): a change (make
# CC=clang, OPT=-O0 ...) rebuilds everything, an unchanged line touches
# nothing (the file keeps its time).
FLAGS_FILE = $(BUILD)/flags.txt
FLAGS_NOW  = $(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS)
$(FLAGS_FILE): FORCE
	@$(shell mkdir -p $(@D))$(file >$@.new,$(FLAGS_NOW))if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi
# The SHARED path the unit tests were built with (compiled into them as
# XQ_SHARED): another path rebuilds them, and only them.
SHARED_FILE = $(BUILD)/shared.txt
$(SHARED_FILE): FORCE
	@$(shell mkdir -p $(@D))$(file >$@.new,$(SHARED))if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi

FORCE:

$(BUILD)/libxq.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(BUILD)/lib/%.o: src/lib/%.c $(FLAGS_FILE) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_DEFS) -c $< -o $@

$(BUILD)/lib/xml_lib.o: LIB_DEFS = -DXQ_LIBXML2_SONAME='"$(XML2_SONAME)"'

$(BUILD)/tools/%.o: src/tools/%.c $(FLAGS_FILE) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc/tools -c $< -o $@

$(BIN)/%: $(BUILD)/tools/%.o $(TOOL_HOBJ) $(BUILD)/libxq.a $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(TOOL_HOBJ) $(BUILD)/libxq.a $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libxq.a $(FLAGS_FILE) $(SHARED_FILE) | test-deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DXQ_SHARED='"$(SHARED)"' $< $(BUILD)/libxq.a $(CMOCKA_LIBS) $(LDLIBS) $(TEST_LIBS) -o $@

# make pgo's training games (tests/train_games.c), built with the tests too
# so that it keeps building (tests/cli/train.sh reads what it writes)
$(BUILD)/train_games: tests/train_games.c $(BUILD)/libxq.a $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libxq.a $(LDLIBS) -o $@

cli: all

# The tests' build: build-check/ with CHECK_OPT, unless BUILD is given on the
# command line (make asan, or a private build: then BIN and OPT or CFLAGS
# are the caller's too, and OPT defaults to CHECK_OPT)
ifeq ($(origin BUILD),command line)
CHECK_VARS = OPT="$(if $(filter command line,$(origin OPT)),$(OPT),$(CHECK_OPT))"
else
CHECK_VARS = BUILD=build-check BIN=build-check/bin OPT="$(CHECK_OPT)"
endif

unit check:
	@$(MAKE) --no-print-directory $(CHECK_VARS) $@-run

unit-run: test-deps $(UNIT_BIN)

# Every unit test binary, then every command-line test; one closing summary line.
check-run: test-deps $(TOOLS) $(UNIT_BIN) $(BUILD)/train_games
	@SHARED=$(SHARED) BUILD=$(BUILD) BIN=$(BIN) sh tests/run-all.sh $(UNIT_BIN)

asan:
	$(MAKE) BUILD=build-asan BIN=build-asan/bin CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" check

# libFuzzer targets tests/fuzz/fuzz_*.c, built with clang into build-fuzz/,
# each run for FUZZ_SECONDS after its saved crashers (tests/fuzz/run.sh).
FUZZ_SECONDS ?= 30
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SRC   = $(wildcard tests/fuzz/fuzz_*.c)

fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="$(FUZZ_FLAGS)" $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%)
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(BUILD)/libxq.a $(FLAGS_FILE) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $< $(BUILD)/libxq.a $(LDLIBS) $(XML2_LIBS) -o $@

# the build users run (make, make install)
bench: pgo
	@SHARED=$(SHARED) BIN=$(BIN) BUILD_KIND="make pgo" sh tests/bench.sh

# pgo: the tools of bin/ built again by gcc with profile feedback
# (-fprofile-use): compiled instrumented in $(PGO_BUILD), run over games
# that tests/train_games.c makes (random legal games in Chinese notation,
# Big5 and UTF-8, with repetitions and repeated records: no data from
# outside the repository, the same on every run), then compiled there
# again with the profile, and copied to $(BIN).  The layout it gives
# cuts first-level instruction-cache misses by a sixth and instructions by
# 2-3% on the master games (callgrind).  gcc only.  Both builds keep
# -Werror.
PGO_BUILD = $(BUILD)/pgo
PGO_PROF  = $(abspath $(PGO_BUILD))/profile
PGO_GEN   = -fprofile-generate=$(PGO_PROF) -fprofile-update=prefer-atomic
PGO_USE   = -fprofile-use=$(PGO_PROF) -fprofile-partial-training -Wno-missing-profile
pgo: all $(BUILD)/train_games
	@if $(CC) --version 2>/dev/null | grep -qi clang; then echo "make pgo: needs gcc, not $(CC)"; exit 2; fi
	rm -rf $(PGO_PROF)
	@$(MAKE) --no-print-directory BUILD=$(PGO_BUILD) BIN=$(PGO_BUILD)/bin OPT="$(OPT) $(PGO_GEN)" \
	  LDFLAGS="$(LDFLAGS) $(PGO_GEN)" all
	$(BUILD)/train_games 6000 big5 > $(PGO_BUILD)/train-big5.pgn
	$(BUILD)/train_games 2000 > $(PGO_BUILD)/train-utf8.pgn
	@for f in $(PGO_BUILD)/train-big5.pgn $(PGO_BUILD)/train-utf8.pgn; do \
	  $(PGO_BUILD)/bin/xq-validate -q -j1 $$f; $(PGO_BUILD)/bin/xq-validate -j2 --report json $$f; \
	  $(PGO_BUILD)/bin/xq-parse $$f; $(PGO_BUILD)/bin/xq-stats -j1 $$f; \
	  $(PGO_BUILD)/bin/xq-convert -j1 --to xml $$f; $(PGO_BUILD)/bin/xq-convert -j1 -n iccs $$f; \
	done >/dev/null 2>&1; true
	@$(MAKE) --no-print-directory BUILD=$(PGO_BUILD) BIN=$(PGO_BUILD)/bin OPT="$(OPT) $(PGO_USE)" all
	cp $(PGO_BUILD)/bin/xq-* $(BIN)/

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	for m in man/*.1; do [ -f "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man1/; done; true
	for m in man/*.7; do [ -f "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man7/; done; true

uninstall:
	rm -f $(TOOLS:$(BIN)/%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -f $(patsubst man/%,$(DESTDIR)$(PREFIX)/share/man/man1/%,$(wildcard man/*.1))
	rm -f $(patsubst man/%,$(DESTDIR)$(PREFIX)/share/man/man7/%,$(wildcard man/*.7))

clean:
	rm -rf build build-check build-asan build-bench build-fuzz bin

-include $(LIB_OBJ:.o=.d) $(TOOL_HOBJ:.o=.d) $(TOOL_SRC:src/tools/%.c=$(BUILD)/tools/%.d)
