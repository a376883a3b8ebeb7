#!/bin/sh
# run-one.sh EXECDIR WORKDIR GCOV TEST LEVEL
#
# One gcc.c-torture/execute test at one -O level, built and run without the
# plugin and with it (and, when GCOV is "gcov", built with --coverage and the
# plugin and checked by 'roi gcov-check'; GCOV "" does not). The test and level
# come last for xargs. Prints one line:
#
#   TEST -OLEVEL PLAIN ROI ICE PROFILE ESTIMATE GCOV
#
#   PLAIN, ROI  pass | compile | run (the program failed) | timeout
#   ICE         ice when the compiler crashed with the plugin loaded, else -
#   PROFILE     yes when the run with the plugin left a sealed profile, no, or -
#   ESTIMATE    ok when 'roi estimate' reads the program and its profile, fail,
#               or - when there is no profile
#   GCOV        agree | disagree | compile | run | timeout, or - when not asked
#   BLOCKS      same when a build counted per block (-fplugin-arg-roi-block-counters)
#               gives the same counts (every C operation's, every function's calls)
#               as the build counted on edges, differ, known (listed with its reason in
#               testsuite/torture-blocks-known.txt), or - when not asked
#               (TORTURE_BLOCKS=1) or either did not run
#
# TEST is a path under EXECDIR: "pr12345.c", "ieee/fp-cmp-1.c", "builtins/abs.c".
# What is kept: WORKDIR/LEVEL/TEST/ holds the logs of a test that did not pass
# cleanly; it is removed otherwise.
#
# Uses ROI_PLUGIN, ROI_LIB and ROI from the environment (test-lib.sh's names),
# and TORTURE_CC, the compiler (default gcc: the one the plugin was built for).
#
# TORTURE_TARGET=avr builds for an AVR (TORTURE_MCU, default atmega1284p:
# 128 KiB flash, 16 KiB RAM) with avr-gcc and the avr plugin, and runs in
# simavr through roi run: the plain firmware with --cycles-only, the counted one
# for its profile. A test passes when it reaches exit with status 0 (abort() is
# _exit(1), docs/run.md); it times out after AVR_MAX_CYCLES simulated cycles
# (default 5*10^8; the counted firmware, slower by its counters, gets 4 times
# as many). dg selectors naming avr-*-* apply instead of x86_64's; there is no
# gcov on the target.
#
# The options follow GCC's own harness (execute.exp, ieee/ieee.exp,
# builtins/builtins.exp), for x86_64-linux-gnu:
# - every test gets -w and is linked with -lm;
# - dg-options and dg-additional-options of the source are added; one with a
#   target selector only when the selector names x86_64-*-* (and not ia32)
#   or is "fpic";
# - dg-add-options adds nothing on this target (stack_size: no limit; ieee:
#   only for alpha, sh and rx); every dg-require-effective-target of the
#   execute tests holds here, and no dg-skip-if or dg-xfail-if selects
#   x86_64-linux at -O0 or -O2;
# - ieee/ tests get -fno-inline, builtins/ tests the flags of builtins.exp and
#   are linked with their -lib.c and lib/main.c;
# - a .x file's unconditional "lappend/set additional_flags" lines are
#   applied; its conditional blocks (skips and xfails for other targets, for
#   -flto, for freestanding) select nothing here and are ignored.

execdir=$1 workdir=$2 want_gcov=$3 test=$4 level=$5
target=${TORTURE_TARGET:-host}
MCU=${TORTURE_MCU:-atmega1284p}
AVR_MAX_CYCLES=${AVR_MAX_CYCLES:-500000000}
if [ "$target" = avr ]; then
	CC="${TORTURE_CC:-avr-gcc} -mmcu=$MCU"
	want_gcov=
	selector='avr-[*]-[*]'
else
	CC=${TORTURE_CC:-gcc}
	selector='x86_64-[*]-[*]'
fi
COMPILE_TIMEOUT=${COMPILE_TIMEOUT:-300}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}

src=$execdir/$test
name=${test%.c}
dir=$workdir/O$level/$name
rm -rf "$dir"
mkdir -p "$dir" || exit 1

# dg_flags FILE: the options its dg-options and dg-additional-options add here.
dg_flags () {
	sed -n 's/.*{ *dg-\(additional-\)\{0,1\}options *//p' "$1" | awk -v sel="$selector" '
	{
		if (substr($0, 1, 1) == "\"") {            # "FLAGS" [{ target SEL }] }
			rest = substr($0, 2); i = index(rest, "\"")
			flags = substr(rest, 1, i - 1); rest = substr(rest, i + 1)
		} else if (substr($0, 1, 1) == "{") {     # { "FLAGS" } }
			i = index($0, "}")
			flags = substr($0, 2, i - 2); rest = substr($0, i + 1)
			gsub(/"/, "", flags)
		} else next
		if (rest ~ /target/ && !((rest ~ sel && rest !~ /ia32/) || rest ~ /target fpic/))
			next
		printf "%s ", flags
	}'
}

# x_flags FILE: additional_flags a .x file sets or adds unconditionally.
x_flags () {
	[ -f "$1" ] || return 0
	sed -n 's/^\(lappend\|set\) additional_flags //p' "$1" | tr -d '"'
}

case $test in
ieee/*)     dirflags="-fno-inline" ;;
builtins/*) dirflags="-fno-tree-dse -fno-tree-loop-distribute-patterns -fno-tracer -fno-ipa-ra -fno-inline-functions" ;;
*)          dirflags= ;;
esac
xflags=$(x_flags "$execdir/$name.x")
# "set additional_flags" replaces the directory's flags.
if grep -q '^set additional_flags' "$execdir/$name.x" 2>/dev/null; then
	dirflags=
fi
flags="-w -O$level $dirflags $xflags $(dg_flags "$src")"
sources=$src
case $test in
builtins/*) sources="$src $execdir/$name-lib.c $execdir/builtins/lib/main.c" ;;
esac

# build OUT MODE: compile $sources into OUT, MODE plain, roi (with the plugin) or
# gcov (with the plugin and --coverage); log in OUT.cc; exit status.
build () {
	case $2 in
	plain) pre='' lib='' ;;
	roi)   pre=-fplugin=$ROI_PLUGIN lib=$ROI_LIB ;;
	blocks) pre="-fplugin=$ROI_PLUGIN -fplugin-arg-roi-block-counters" lib=$ROI_LIB ;;
	gcov)  pre="--coverage -fplugin=$ROI_PLUGIN" lib=$ROI_LIB ;;
	esac
	[ "$target" = avr ] && lib=     # runtime=none: the counters are all the firmware has
	# shellcheck disable=SC2086  # flags and sources are word lists
	timeout "$COMPILE_TIMEOUT" $CC $pre $flags $sources $lib -lm -o "$1" >"$1.cc" 2>&1
}

# run OUT: run OUT in $dir; pass, run or timeout.
run () {
	if [ "$target" = avr ]; then
		run_avr "$@"
		return
	fi
	(cd "$dir" && timeout "$RUN_TIMEOUT" "$1" >"$1.out" 2>&1)
	case $? in
	0)   echo pass ;;
	124) echo timeout ;;
	*)   echo run ;;
	esac
}

# run_avr OUT: OUT in simavr; pass (exit with status 0), run (another status,
# a sleep, a crash) or timeout. The counted firmware leaves $ROI_OUTPUT.
run_avr () {
	elf=$1
	case $1 in
	*/plain) set -- --cycles-only --max-cycles "$AVR_MAX_CYCLES" "$1" ;;
	*)       set -- --output "$ROI_OUTPUT" --max-cycles $((AVR_MAX_CYCLES * 4)) "$1" ;;
	esac
	timeout "$RUN_TIMEOUT" "$ROI" run --target avr --mcu "$MCU" --json "$@" >"$dir/run.json" 2>"$dir/run.err"
	case $? in
	0)   if [ "$(jq -r '"\(.stop_reason) \(.exit_status)"' "$dir/run.json")" = "exit 0" ]; then
		     echo pass
	     else
		     echo run
	     fi ;;
	124) echo timeout ;;
	*)   if grep -q 'no stop after' "$dir/run.err"; then echo timeout; else echo run; fi ;;
	esac
	mv "$dir/run.json" "$elf.json"
	mv "$dir/run.err" "$elf.err"
	return 0
}

# outcome OUT MODE: build and run; pass, compile, run or timeout.
outcome () {
	out=$1
	if build "$@"; then
		run "$out"
	elif [ $? -eq 124 ]; then
		echo timeout
	else
		echo compile
	fi
}

plain=$(outcome "$dir/plain" plain)

ROI_OUTPUT=$dir/roi.roi
export ROI_OUTPUT
roi=$(outcome "$dir/roi" roi)
ice=-
if grep -qi 'internal compiler error\|terminated program\|killed by signal\|segmentation fault' "$dir/roi.cc"; then
	ice=ice
fi
profile=- estimate=-
if [ "$roi" = pass ]; then
	if tail -n 1 "$ROI_OUTPUT" 2>/dev/null | grep -q '^end '; then
		profile=yes
		if "$ROI" estimate --json "$dir/roi" "$ROI_OUTPUT" >"$dir/estimate.out" 2>&1; then
			estimate=ok
		else
			estimate=fail
		fi
	else
		profile=no
	fi
fi

gcov=-
if [ "$want_gcov" = gcov ] && [ "$plain" = pass ]; then
	mkdir "$dir/gcov"
	ROI_OUTPUT=$dir/gcov/prog.roi
	gcov=$(outcome "$dir/gcov/prog" gcov)
	if [ "$gcov" = pass ]; then
		if (cd "$dir/gcov" && "$ROI" gcov-check prog >check.out 2>&1); then
			gcov=agree
		else
			gcov=disagree
		fi
	fi
fi

# counts ESTIMATE: what ran (testsuite/counts.jq)
counts () { jq -S -f "$(dirname "$0")/../counts.jq" "$1"; }
blocks=-
if [ "${TORTURE_BLOCKS:-}" = 1 ] && [ "$estimate" = ok ]; then
	ROI_OUTPUT=$dir/blocks.roi
	if [ "$(outcome "$dir/blocks" blocks)" = pass ] &&
	   "$ROI" estimate --json "$dir/blocks" "$ROI_OUTPUT" >"$dir/blocks-estimate.out" 2>&1; then
		if [ "$(counts "$dir/estimate.out")" = "$(counts "$dir/blocks-estimate.out")" ]; then
			blocks=same
		elif grep -q "^$test $target -O$level " "$(dirname "$0")/../torture-blocks-known.txt"; then
			blocks=known
		else
			blocks=differ
		fi
	fi
fi

echo "$test -O$level $plain $roi $ice $profile $estimate $gcov $blocks"
if [ "$plain" = pass ] && [ "$roi" = pass ] && [ "$ice" = - ] && [ "$profile" = yes ] &&
   [ "$estimate" = ok ] && { [ "$gcov" = - ] || [ "$gcov" = agree ]; } && [ "$blocks" != differ ]; then
	rm -rf "$dir"
fi
exit 0
