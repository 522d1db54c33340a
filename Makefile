# Thin wrapper around CMake. Run `make help` for the list of targets.
# Requires GNU make and bash.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build
MAKEFLAGS += --no-print-directory

# Extra arguments for `make play` / `make bench`, e.g. make play ARGS="--rules 4x4"
ARGS ?=

BUILD_DIR   := build
ASAN_DIR    := build-asan
RELEASE_DIR := build-release
FUZZ_DIR    := build-fuzz
DEB_DIR     := build-deb
JOBS        := 2

# `make` and `make play` install only what builds and runs ttt: their build has the tests when cmocka is there.
BUILD_CONFIG := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTTT_BUILD_TESTS=AUTO
ifeq ($(CI),true)
BUILD_CONFIG += -DTTT_WERROR=ON
endif
CHECK_CONFIG   := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTTT_WERROR=ON -DTTT_BUILD_TESTS=ON
ASAN_CONFIG    := -DCMAKE_BUILD_TYPE=Debug -DTTT_SANITIZE=ON -DTTT_WERROR=ON -DTTT_BUILD_TESTS=ON
RELEASE_CONFIG := -DCMAKE_BUILD_TYPE=Release -DTTT_BUILD_TESTS=AUTO
# The Debian package: installed under /usr (so the library goes to Debian's multiarch directory); no tests.
DEB_CONFIG     := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr -DTTT_BUILD_TESTS=OFF
FUZZ_CC        := $(shell command -v clang 2>/dev/null || echo clang)
FUZZ_CONFIG    := -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTTT_FUZZ=ON -DTTT_BUILD_TESTS=OFF

# `make fuzz`: seconds per harness, and one harness (NAME of tests/fuzz/fuzz_NAME.c) or all of them.
FUZZ_TIME ?= 60
FUZZ      ?=
# `make check`: seconds per harness, after replaying its seed corpus.
CHECK_FUZZ_TIME := 3

SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

FORMAT_DIRS := src include tests bench
# Evaluated only when a format recipe runs. Lists tracked *and* untracked
# (non-ignored) files when in a git work tree, otherwise uses find.
FORMAT_FILES = $(wildcard $(shell \
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files --cached --others --exclude-standard -- \
			$(foreach d,$(FORMAT_DIRS),'$(d)/*.c' '$(d)/*.h'); \
	else \
		find $(FORMAT_DIRS) -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null; \
	fi))

# $(call configure,DIR,CMAKE-ARGS)
# Configures DIR if it has no CMakeCache.txt yet, or if one of the -DNAME=VALUE
# settings in CMAKE-ARGS differs from the cache. cmake's status chatter goes to
# DIR/configure.log (shown on failure); warnings and errors still reach stderr.
define configure
	@need=0; \
	if [[ ! -f $(1)/CMakeCache.txt ]]; then need=1; else \
		for a in $(2); do \
			kv=$${a#-D}; k=$${kv%%=*}; v=$${kv#*=}; \
			grep -qxE "$$k(:[A-Z]+)?=$$v" $(1)/CMakeCache.txt || need=1; \
		done; \
	fi; \
	if (( need )); then \
		mkdir -p $(1); \
		cmake -S . -B $(1) $(2) >$(1)/configure.log || { cat $(1)/configure.log; exit 1; }; \
	fi
endef

# $(call cmbuild,DIR[,EXTRA])
# Builds DIR; the always-printed "Built target X" lines are filtered out so a
# no-op build prints nothing.
define cmbuild
	@cmake --build $(1) -j$(JOBS) $(2) -- --no-print-directory | { grep --line-buffered -v '^\[ *[0-9]*%\] Built target ' || true; }
endef

.PHONY: all help setup setup-deb setup-test deb build play check check-release check-asan check-signature check-fuzz fuzz fuzz-build format verify-frontier \
	format-check bench clean

all: build

help:
	@echo "make [build]        install the build packages (scripts/setup.sh build), configure and build $(BUILD_DIR)/"
	@echo "make play ARGS=...  build, then run ./$(BUILD_DIR)/ttt play ARGS"
	@echo "make check          install the test tools too (scripts/setup.sh test); -Werror build + tests,"
	@echo "                    ASan/UBSan build + tests, fuzz harnesses briefly, format check"
	@echo "make deb            a Debian package in $(DEB_DIR)/: the command, the libraries, headers, ttt.pc, the"
	@echo "                    Python package, man page and bash completion (sudo apt install ./$(DEB_DIR)/ttt_*.deb)"
	@echo "make format         clang-format -i all C sources"
	@echo "make format-check   check formatting only"
	@echo "make bench ARGS=... Release build in $(RELEASE_DIR)/, run ./$(RELEASE_DIR)/ttt bench ARGS"
	@echo "make verify-frontier  Release build, then certificates of 7x7k5, 6x6k5, 6x6k4, 6x5k4, 5x5k4 and"
	@echo "                    misere 5x5k4 written and verified, with their figures (bench/verify/frontier.sh)"
	@echo "make fuzz           clang libFuzzer build in $(FUZZ_DIR)/, run every tests/fuzz/ harness FUZZ_TIME s"
	@echo "                    (default 60); FUZZ=name runs one (e.g. make fuzz FUZZ=web_api FUZZ_TIME=600)"
	@echo "make clean          remove build directories"

# What builds and runs ttt (compiler, CMake, the -dev libraries); setup-test adds what the tests use.
setup:
	@bash scripts/setup.sh build

setup-deb:
	@bash scripts/setup.sh deb

setup-test:
	@bash scripts/setup.sh test

build: setup
	$(call configure,$(BUILD_DIR),$(BUILD_CONFIG))
	$(call cmbuild,$(BUILD_DIR))

play: build
	@exec ./$(BUILD_DIR)/ttt play $(ARGS)

deb: setup-deb
	$(call configure,$(DEB_DIR),$(DEB_CONFIG))
	$(call cmbuild,$(DEB_DIR))
	@cd $(DEB_DIR) && rm -f ttt_*.deb && cpack -G DEB >cpack.log 2>&1 || { cat cpack.log; exit 1; }
	@ls $(DEB_DIR)/ttt_*.deb

check: setup-test
	@echo "== release build + tests"
	@$(MAKE) check-release
	@echo "== sanitizer build (ASan+UBSan) + tests"
	@$(MAKE) check-asan
	@echo "== bench signature: the same in the debug, sanitizer and release builds, and the newest Bench: trailer"
	@$(MAKE) check-signature
	@echo "== fuzz harnesses: seed corpora, then fuzzing (scripts/fuzz.sh: CHECK_SECONDS, at least $(CHECK_FUZZ_TIME) s each)"
	@$(MAKE) check-fuzz
	@echo "== format"
	@$(MAKE) format-check
	@echo "== all checks passed"

# Helpers for `make check` (no setup step of their own).
check-release:
	$(call configure,$(BUILD_DIR),$(CHECK_CONFIG))
	$(call cmbuild,$(BUILD_DIR))
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

check-asan:
	$(call configure,$(ASAN_DIR),$(ASAN_CONFIG))
	$(call cmbuild,$(ASAN_DIR))
	@cd $(ASAN_DIR) && $(SAN_ENV) ctest --output-on-failure -j$(JOBS)

# `ttt bench` bounds every item by nodes, never by time, so its signature (the total node count) must not
# depend on the build. A difference means undefined behaviour or a time-dependent search. In a git checkout
# it must also be the newest `Bench: N` trailer of git log: a change to the signature says so in its commit.
check-signature:
	$(call configure,$(RELEASE_DIR),$(RELEASE_CONFIG))
	$(call cmbuild,$(RELEASE_DIR),--target ttt_cli)
	@bash scripts/check-signature.sh $(BUILD_DIR)/ttt $(RELEASE_DIR)/ttt "$(SAN_ENV) $(ASAN_DIR)/ttt"

# The libFuzzer harnesses (tests/fuzz/fuzz_*.c), built by clang with ASan+UBSan in $(FUZZ_DIR)/.
fuzz-build:
	$(call configure,$(FUZZ_DIR),$(FUZZ_CONFIG))
	$(call cmbuild,$(FUZZ_DIR),--target fuzz_all)

check-fuzz: fuzz-build
	@bash scripts/fuzz.sh --check $(FUZZ_DIR) $(CHECK_FUZZ_TIME)

fuzz: setup-test fuzz-build
	@bash scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_TIME) $(FUZZ)

format:
	@files="$(FORMAT_FILES)"; [[ -z "$$files" ]] || clang-format -i $$files

format-check:
	@files="$(FORMAT_FILES)"; [[ -z "$$files" ]] || clang-format --dry-run --Werror $$files

bench: setup
	$(call configure,$(RELEASE_DIR),$(RELEASE_CONFIG))
	$(call cmbuild,$(RELEASE_DIR),--target ttt_cli)
	@exec ./$(RELEASE_DIR)/ttt bench $(ARGS)

verify-frontier: setup
	$(call configure,$(RELEASE_DIR),$(RELEASE_CONFIG))
	$(call cmbuild,$(RELEASE_DIR),--target ttt_cli)
	@exec bench/verify/frontier.sh ./$(RELEASE_DIR)/ttt $(ARGS)

clean:
	@rm -rf $(BUILD_DIR) $(ASAN_DIR) $(RELEASE_DIR) $(FUZZ_DIR) $(DEB_DIR)
