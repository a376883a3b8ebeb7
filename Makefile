# roi — GCC-plugin toolkit: count typed atomic operations, estimate cycles and energy.
#
#   make            build the host plugin, runtime and the roi command
#   make avr / arm  build roi.so for avr-gcc / arm-none-eabi-gcc (all-targets: all three)
#   make demo       install what is missing, build, count and estimate the matrix example
#   make check      install what is missing, build, run the test suite (TAP, prove),
#                   then the runtime and estimator tests again under ASan and UBSan
#   make check-torture  GCC's gcc.c-torture/execute tests with and without the plugin
#   make check-torture-avr  the same with avr-gcc and the avr plugin, run in simavr
#   make check-csmith N=500  N random programs from csmith (seeds 1..N) at -O0/1/2/s,
#                   with and without the plugin, and roi gcov-check on each
#   make check-asan the runtime and estimator tests under ASan and UBSan only
#   make fuzz FUZZ_SECONDS=60  libFuzzer on every reader of outside data (fuzz/), each
#                   target FUZZ_SECONDS in turn; fails on any crash, leak or sanitizer report
#   make bench      overhead benchmark (figures printed, not asserted)
#   make bench-accuracy  leave-one-out estimate errors against simavr, -O0 and -Os; machine-code
#                   pricing's (--price machine) at -O0, -O1, -O2, -Os, and on Cortex-M its
#                   instructions against QEMU's; the same on bench/programs/outside
#   make bench-measured  roi run --measured against simavr's count and the counters, the corpus
#   make bench-stm32  the derived STM32F401RE model beside QEMU's instruction counts
#   make bench-stack  roi stack's worst case against simavr's peak on the corpus, -O0 and -Os
#   make models     calibrate models/atmega32u4-O{0,1,2,s}.json on contrib/calibration
#   make install    PREFIX=/usr/local DESTDIR=  everything under DESTDIR/PREFIX; make uninstall
#   make install-plugins  also into the compilers' own plugin folders (-fplugin=roi by name)
#   make man        the manual pages, from each command's --help (help2man)
#
# The data flow is the directory layout: gcc-plugin/ (compile) → runtime/ (run)
# → estimator/ and models/ (estimate).

# make's built-in default 'cc' would do, but the plugin must match the compiler
# whose plugin headers it is built with: name it.
ifeq ($(origin CC),default)
CC       := gcc
endif
ifeq ($(origin CXX),default)
CXX      := g++
endif
PREFIX   ?= /usr/local
VERSION  := $(shell cat VERSION)
DESTDIR  ?=
BUILD    := build

CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -O2 -g -D_GNU_SOURCE
PLUGIN_CXXFLAGS := -std=gnu++14 -fPIC -fno-rtti -O2 -g -Wall -Wextra \
                   -Wno-unused-parameter -Werror -DROI_VERSION='"$(VERSION)"'

AVR_CC   ?= avr-gcc
ARM_CC   ?= arm-none-eabi-gcc

# The plugin is built once per compiler it loads into, with that compiler's own plugin headers.
# GCC 5's headers (avr-gcc) predate C++14 and use string macros glued to literals; the code is
# the same, only the dialect differs.
PLUGIN_TARGETS    := host avr arm
host_PLUGIN_DIR   := $(shell $(CC) -print-file-name=plugin)
avr_PLUGIN_DIR    := $(shell $(AVR_CC) -print-file-name=plugin 2>/dev/null)
arm_PLUGIN_DIR    := $(shell $(ARM_CC) -print-file-name=plugin 2>/dev/null)
host_PLUGIN_FLAGS := $(PLUGIN_CXXFLAGS)
avr_PLUGIN_FLAGS  := $(subst gnu++14,gnu++11,$(PLUGIN_CXXFLAGS)) -Wno-literal-suffix
arm_PLUGIN_FLAGS  := $(PLUGIN_CXXFLAGS)
HOST_PLUGIN_DIR   := $(host_PLUGIN_DIR)
AVR_PLUGIN_DIR    := $(avr_PLUGIN_DIR)
ARM_PLUGIN_DIR    := $(arm_PLUGIN_DIR)

# Sources: every file of each folder and of the folders below it (the estimator's rooms).
# Shared sources (one format, one implementation) are included by a file of each side:
# gcc-plugin/*.c and *.def by the plugin and the estimator, runtime/*-io.c by the runtime and
# the estimator; they are headers to make.
PLUGIN_SRC  := $(wildcard gcc-plugin/*.cc)
PLUGIN_HDR  := $(wildcard gcc-plugin/*.h gcc-plugin/*.def gcc-plugin/*.c) runtime/roi-crc32.h
RUNTIME_SRC := $(wildcard runtime/*.c)
RUNTIME_HDR := $(wildcard runtime/*.h)
ROI_SRC     := $(wildcard estimator/*.c estimator/*/*.c)
ROI_HDR     := $(wildcard estimator/*.h estimator/*/*.h) $(PLUGIN_HDR) $(RUNTIME_HDR) $(RUNTIME_SRC)

HOST_PLUGIN := $(BUILD)/host/roi.so
AVR_PLUGIN  := $(BUILD)/avr/roi.so
ARM_PLUGIN  := $(BUILD)/arm/roi.so
HOST_LIB    := $(BUILD)/host/libroi.a
ROI_BIN     := $(BUILD)/bin/roi

.PHONY: all avr arm all-targets deps deps-all demo check check-torture check-torture-avr check-csmith check-asan bench-accuracy bench-measured bench-stm32 bench-stack fuzz fuzz-build bench man install uninstall install-plugins uninstall-plugins clean
all: $(HOST_PLUGIN) $(HOST_LIB) $(ROI_BIN)
avr: $(AVR_PLUGIN)
arm: $(ARM_PLUGIN)
all-targets: all avr arm

deps:
	@sh contrib/install-deps.sh host

deps-all:
	@sh contrib/install-deps.sh host avr arm

# ---- compile: the plugin, once per compiler ----
define plugin_rules
$(BUILD)/$(1)/plugin/%.o: gcc-plugin/%.cc $(PLUGIN_HDR)
	@mkdir -p $$(@D)
	$$(CXX) $$($(1)_PLUGIN_FLAGS) -I$$($(1)_PLUGIN_DIR)/include -c $$< -o $$@

$(BUILD)/$(1)/roi.so: $(PLUGIN_SRC:gcc-plugin/%.cc=$(BUILD)/$(1)/plugin/%.o)
	$$(CXX) -shared -o $$@ $$^
endef
$(foreach t,$(PLUGIN_TARGETS),$(eval $(call plugin_rules,$(t))))

# ---- run and estimate: the host runtime and the roi command, in every build below ----
# simavr is linked in: 'roi run --target avr' simulates the firmware itself.
SIMAVR_CFLAGS := $(shell pkg-config --cflags simavr 2>/dev/null)
ROI_CPPFLAGS  := -Iestimator $(SIMAVR_CFLAGS) -DROI_PREFIX='"$(PREFIX)"' -DROI_VERSION='"$(VERSION)"'
ROI_LIBS      := -lcjson -ldw -lelf -lsimavr -lm

# runtime_rules DIR CC FLAGS, estimator_rules DIR CC FLAGS: the objects of the runtime and of
# the estimator under DIR, compiled by CC with FLAGS (the normal build, ASan, the fuzzers).
define runtime_rules
$(1)/host/runtime/%.o: runtime/%.c $(RUNTIME_HDR)
	@mkdir -p $$(@D)
	$(2) $(3) -fPIC -c $$< -o $$@

$(1)/host/libroi.a: $(RUNTIME_SRC:runtime/%.c=$(1)/host/runtime/%.o)
	rm -f $$@
	ar rcs $$@ $$^
endef

define estimator_rules
$(1)/estimator/%.o: estimator/%.c $(ROI_HDR)
	@mkdir -p $$(@D)
	$(2) $(3) $(ROI_CPPFLAGS) -c $$< -o $$@
endef

$(eval $(call runtime_rules,$(BUILD),$(CC),$(CFLAGS_COMMON)))
$(eval $(call estimator_rules,$(BUILD),$(CC),$(CFLAGS_COMMON)))

$(ROI_BIN): $(ROI_SRC:estimator/%.c=$(BUILD)/estimator/%.o)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(ROI_LIBS)

# ---- the README's two commands ----
demo: deps
	@$(MAKE) --no-print-directory all
	@sh contrib/examples/demo.sh

check: deps-all
	@sh contrib/install-deps.sh torture csmith
	@$(MAKE) --no-print-directory all-targets
	prove -f testsuite/t[0-9]*.sh
	@$(MAKE) --no-print-directory check-asan

bench: deps-all
	@sh contrib/install-deps.sh bench
	@$(MAKE) --no-print-directory all avr
	@bash bench/overhead.sh

# ---- calibration: models fitted to simavr's cycle counts of contrib/calibration ----
CALIBRATED_MODELS := $(foreach o,0 1 2 s,models/atmega32u4-O$(o).json)
models: deps-all
	@$(MAKE) --no-print-directory all avr
	@for o in 0 1 2 s; do \
		base=$$(sh contrib/models/base-model.sh $$o) || exit 1; \
		$(ROI_BIN) calibrate --target avr --mcu atmega32u4 --base $$base -O$$o \
			--corpus contrib/calibration \
			-o models/atmega32u4-O$$o.json 2>$(BUILD)/models-O$$o.log || \
			{ tail -1 $(BUILD)/models-O$$o.log >&2; exit 1; }; \
	done

# Leave-one-out: each program estimated with a model fitted without it; then machine-code pricing,
# which fits nothing. The tables are printed; bench/results/accuracy.json and machine.json keep them.
bench-accuracy: deps-all
	@$(MAKE) --no-print-directory all avr arm
	@bash bench/accuracy.sh -O0 -Os
	@bash bench/machine.sh -O0 -O1 -O2 -Os
	@ROI_MACHINE_CORPUS=bench/programs/outside ROI_MACHINE_LIBS=-lm ROI_MACHINE_WORK=$(BUILD)/machine-outside \
		ROI_MACHINE_JSON=bench/results/machine-outside.json bash bench/machine.sh -O0 -O1 -O2 -Os

# roi run --measured on the corpus at -O0, -O1, -O2 and -Os: the lines against simavr's count, the
# blocks against the counted build's counters. bench/results/measured.json and .txt keep the table.
bench-measured: deps-all
	@$(MAKE) --no-print-directory all avr
	@bash bench/measured.sh -O0 -O1 -O2 -Os

# The corpus at -O0 on mps2-an386 (Cortex-M4) in QEMU: estimated cycles per executed instruction.
# bench/results/stm32-qemu.json keeps the table.
bench-stm32: deps-all
	@$(MAKE) --no-print-directory all arm
	@sh bench/stm32-qemu.sh

# The corpus at -O0 and -Os: roi stack's worst case against the peak simavr measures, and the
# metadata's stack figures against -fstack-usage. bench/results/stack.json keeps the table.
bench-stack: deps-all
	@$(MAKE) --no-print-directory all avr arm
	@bash bench/stack.sh -O0 -Os

# ---- GCC's own execute tests: all of them, at -O0 and -O2, plus roi gcov-check ----
# (t0500 runs every 8th in make check.) The summary is bench/results/torture.json.
check-torture: deps
	@sh contrib/install-deps.sh torture
	@$(MAKE) --no-print-directory all
	sh testsuite/torture/run.sh --gcov all --blocks --json bench/results/torture.json $(BUILD)/torture/work

# The same tests on an ATmega1284P in simavr, at -O0 and -O2 (t0505 runs every 8th in
# make check). The summary is bench/results/torture-avr.json.
check-torture-avr: deps
	@sh contrib/install-deps.sh torture avr
	@$(MAKE) --no-print-directory all avr
	sh testsuite/torture/run.sh --target avr --blocks --json bench/results/torture-avr.json $(BUILD)/torture/avr-work

# ---- random programs: csmith's, seeds 1..N, at -O0, -O1, -O2 and -Os ----
# (t0520 runs seeds 1..12 in make check.) Disagreements are saved under
# testsuite/regressions/; the summary is bench/results/csmith.json.
N ?= 500
check-csmith: deps
	@sh contrib/install-deps.sh csmith
	@$(MAKE) --no-print-directory all
	sh testsuite/csmith/run.sh --count $(N) --blocks --json bench/results/csmith.json $(BUILD)/csmith/work

# ---- the runtime and the estimator under AddressSanitizer and UBSan ----
# A separate build: build-asan/host/libroi.a and build-asan/bin/roi. The runtime
# tests link the sanitized libroi.a (CC carries the flags to the link); the
# estimator tests run the sanitized roi on programs built with the plain plugin
# and runtime (test-lib.sh takes ROI from the environment). Every report aborts
# the process (abort_on_error), which the tests see; ASan's and LSan's reports
# are also written under build-asan/reports/, which must stay empty, so that a
# report in a command whose status a test ignores fails check-asan too. (UBSan's
# go to stderr only: GCC 12's combined runtime ignores its log_path.)
ASAN_BUILD  := build-asan
ASAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer
# Without -Werror: GCC's manual advises against combining it with sanitizers,
# which make warnings misfire (base/arena.c's vsnprintf(NULL, 0, ...) becomes a
# "null format string"); the normal build keeps the warnings honest.
ASAN_CFLAGS := $(filter-out -Werror,$(CFLAGS_COMMON)) $(ASAN_FLAGS)
ASAN_LIB    := $(ASAN_BUILD)/host/libroi.a
ASAN_BIN    := $(ASAN_BUILD)/bin/roi
SAN_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1
SAN_ENV     := ASAN_OPTIONS=$(SAN_OPTIONS):detect_leaks=1:log_path=$(CURDIR)/$(ASAN_BUILD)/reports/report \
               UBSAN_OPTIONS=$(SAN_OPTIONS) \
               LSAN_OPTIONS=suppressions=$(CURDIR)/testsuite/lsan-suppressions.txt:print_suppressions=0
# A test script says that it runs again under ASan with a line "# asan: runtime" (it links the
# sanitized libroi.a) or "# asan: estimator" (it runs the sanitized roi).
ASAN_RUNTIME_TESTS   := $(shell grep -l '^\# asan: runtime' testsuite/t[0-9]*.sh)
ASAN_ESTIMATOR_TESTS := $(shell grep -l '^\# asan: estimator' testsuite/t[0-9]*.sh)

$(eval $(call runtime_rules,$(ASAN_BUILD),$(CC),$(ASAN_CFLAGS)))
$(eval $(call estimator_rules,$(ASAN_BUILD),$(CC),$(ASAN_CFLAGS)))

$(ASAN_BIN): $(ROI_SRC:estimator/%.c=$(ASAN_BUILD)/estimator/%.o)
	@mkdir -p $(@D)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(ROI_LIBS)

check-asan: deps-all
	@$(MAKE) --no-print-directory all-targets $(ASAN_LIB) $(ASAN_BIN)
	rm -rf $(ASAN_BUILD)/reports && mkdir -p $(ASAN_BUILD)/reports
	$(SAN_ENV) ROI_BUILD=$(CURDIR)/$(ASAN_BUILD) ROI_PLUGIN=$(CURDIR)/$(HOST_PLUGIN) CC="$(CC) $(ASAN_FLAGS)" prove -f $(ASAN_RUNTIME_TESTS)
	$(SAN_ENV) ROI=$(CURDIR)/$(ASAN_BIN) prove -f $(ASAN_ESTIMATOR_TESTS)
	@if [ -n "$$(ls $(ASAN_BUILD)/reports)" ]; then \
		cat $(ASAN_BUILD)/reports/*; \
		echo "check-asan: sanitizer reports in $(ASAN_BUILD)/reports/"; exit 1; fi

# ---- fuzzing: libFuzzer (clang) on every reader of outside data, fuzz/*.c ----
# profile, meta (.roi.meta records, then everything that uses them), model, budget, elf (libelf
# access and the runners' ELF checks and counter search), avr_elf (simavr loading a
# firmware) and filter (the plugin's filter file reader, compiled outside GCC). The
# estimator is built again with clang, ASan and UBSan; seed corpora come from the
# test programs (fuzz/seeds.sh); build/fuzz/corpus/ grows from run to run.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := profile meta model budget elf avr_elf filter measured
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CC      := clang
FUZZ_CXX     := clang++
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# (the metadata's checksums are not checked in this build: estimator/input/meta.c)
FUZZ_CFLAGS  := -std=c11 -Wall -Wextra -O1 -g -D_GNU_SOURCE -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $(FUZZ_SAN)
FUZZ_OBJS    := $(filter-out $(FUZZ_DIR)/obj/estimator/main.o,$(ROI_SRC:estimator/%.c=$(FUZZ_DIR)/obj/estimator/%.o))
# Objects of a pattern chain, which make would otherwise delete after each link.
.SECONDARY: $(FUZZ_OBJS)

$(eval $(call estimator_rules,$(FUZZ_DIR)/obj,$(FUZZ_CC),$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link))

$(FUZZ_DIR)/fuzz-%: fuzz/%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Iestimator $(SIMAVR_CFLAGS) \
		-DFUZZ_MODEL='"$(CURDIR)/models/stm32f401re.json"' $< $(FUZZ_OBJS) -o $@ $(ROI_LIBS)

# GCC's headers as system headers: their own warnings are not ours.
$(FUZZ_DIR)/fuzz-filter: fuzz/filter.cc gcc-plugin/roi-filter.cc gcc-plugin/roi-util.cc $(PLUGIN_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CXX) -std=gnu++14 -fno-rtti -Wall -Wextra -Wno-unused-parameter -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
		-isystem $(HOST_PLUGIN_DIR)/include $< -o $@ -lcjson

fuzz-build: all $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
	sh fuzz/seeds.sh $(FUZZ_DIR)/seeds

fuzz: deps-all
	@sh contrib/install-deps.sh fuzz
	@$(MAKE) --no-print-directory all-targets
	@$(MAKE) --no-print-directory fuzz-build
	sh fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_DIR) $(FUZZ_TARGETS)

# ---- install, as GNU does: everything under $(DESTDIR)$(PREFIX) ----
# The plugins go to PREFIX/lib/roi/plugin/TARGET/roi.so (-fplugin=PATH, or pkg-config's Cflags);
# into the compilers' own plugin folders, where -fplugin=roi finds them by name, only when asked:
# make install-plugins. roi finds its models, corpus and plugins from where it lies (PREFIX/bin),
# so DESTDIR staging copies and a PREFIX other than the build's work too.
bindir     := $(PREFIX)/bin
libdir     := $(PREFIX)/lib
includedir := $(PREFIX)/include
datadir    := $(PREFIX)/share/roi
mandir     := $(PREFIX)/share/man/man1
plugindir  := $(libdir)/roi/plugin
cmakedir   := $(libdir)/cmake/roi
pcdir      := $(libdir)/pkgconfig
MAN_PAGES   = $(wildcard $(BUILD)/man/*.1)
# What install puts under DATADIR, from where in the tree (the one list uninstall removes).
DATA_FILES := models/README.md $(wildcard models/*.json) \
              $(wildcard contrib/calibration/*.c) contrib/calibration/SUBSET contrib/calibration/README.md \
              contrib/make/roi.mk contrib/cmake/roi.cmake contrib/cmake/avr-toolchain.cmake \
              $(wildcard runtime/ports/*.c) $(wildcard contrib/cortex-m/mps2-an386/*)

man: $(BUILD)/man/roi.1
$(BUILD)/man/roi.1: $(ROI_BIN) contrib/man.sh
	sh contrib/man.sh $(ROI_BIN) $(BUILD)/man

install: all man
	@set -e; for f in $(DATA_FILES); do \
		case $$f in \
		contrib/calibration/*) d=calibration/$${f#contrib/calibration/} ;; \
		contrib/cortex-m/*) d=cortex-m/$${f#contrib/cortex-m/} ;; \
		contrib/*) d=$${f#contrib/} ;; \
		runtime/ports/*) d=ports/$${f#runtime/ports/} ;; \
		*) d=$$f ;; esac; \
		install -d $$(dirname $(DESTDIR)$(datadir)/$$d) && install -m 644 $$f $(DESTDIR)$(datadir)/$$d; done
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) $(DESTDIR)$(mandir) \
	           $(DESTDIR)$(cmakedir) $(DESTDIR)$(pcdir)
	install -m 755 $(ROI_BIN) $(DESTDIR)$(bindir)/roi
	install -m 644 $(HOST_LIB) $(DESTDIR)$(libdir)/libroi.a
	install -m 644 runtime/roi.h $(DESTDIR)$(includedir)/roi.h
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(mandir)/
	@set -e; for t in $(PLUGIN_TARGETS); do \
		if [ -f $(BUILD)/$$t/roi.so ]; then \
			install -d $(DESTDIR)$(plugindir)/$$t && \
			install -m 755 $(BUILD)/$$t/roi.so $(DESTDIR)$(plugindir)/$$t/roi.so; fi; done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' contrib/pkgconfig/roi.pc.in \
		>$(DESTDIR)$(pcdir)/roi.pc
	sed -e 's|@VERSION@|$(VERSION)|' contrib/cmake/roiConfig.cmake.in >$(DESTDIR)$(cmakedir)/roiConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|' contrib/cmake/roiConfigVersion.cmake.in \
		>$(DESTDIR)$(cmakedir)/roiConfigVersion.cmake

uninstall:
	rm -f $(DESTDIR)$(bindir)/roi $(DESTDIR)$(libdir)/libroi.a $(DESTDIR)$(includedir)/roi.h \
	      $(DESTDIR)$(pcdir)/roi.pc $(DESTDIR)$(mandir)/roi.1 $(DESTDIR)$(mandir)/roi-*.1
	rm -rf $(DESTDIR)$(datadir) $(DESTDIR)$(libdir)/roi $(DESTDIR)$(cmakedir)
	@# the standard folders too, where roi was all they held
	-rmdir -p $(DESTDIR)$(bindir) $(DESTDIR)$(includedir) $(DESTDIR)$(mandir) $(DESTDIR)$(pcdir) \
	          $(DESTDIR)$(libdir)/cmake 2>/dev/null

# Into each compiler's own plugin folder, so that -fplugin=roi finds the plugin by its name.
install-plugins: all
	@set -e; for t in $(PLUGIN_TARGETS); do \
		case $$t in host) dir='$(host_PLUGIN_DIR)' ;; avr) dir='$(avr_PLUGIN_DIR)' ;; arm) dir='$(arm_PLUGIN_DIR)' ;; esac; \
		if [ -f $(BUILD)/$$t/roi.so ] && [ -n "$$dir" ]; then \
			echo "install $(BUILD)/$$t/roi.so $(DESTDIR)$$dir/roi.so"; \
			install -d $(DESTDIR)$$dir && install -m 755 $(BUILD)/$$t/roi.so $(DESTDIR)$$dir/roi.so; fi; done

uninstall-plugins:
	rm -f $(DESTDIR)$(host_PLUGIN_DIR)/roi.so $(if $(avr_PLUGIN_DIR),$(DESTDIR)$(avr_PLUGIN_DIR)/roi.so) \
	      $(if $(arm_PLUGIN_DIR),$(DESTDIR)$(arm_PLUGIN_DIR)/roi.so)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) testsuite/trash
