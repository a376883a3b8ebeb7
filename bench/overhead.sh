#!/bin/bash
# overhead.sh — what counting costs: instructions executed (valgrind's
# callgrind: deterministic, whatever else the machine does) by the plain
# build, the roi build and the gcov (--coverage) build of each program, at -O0
# and -O2; and the compile time of a large real translation unit with and
# without the plugin.  Figures are printed, never asserted: goals live in
# the README, regressions are read off this table.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
plugin=$top/build/host/roi.so
lib=$top/build/host/libroi.a
work=$top/build/bench
mkdir -p "$work" && cd "$work"

# The seed's two examples, the test programs with the most control flow, and
# two kernels long enough that the per-block cost shows through the fixed cost
# of start-up and of writing the profile at exit.
programs="$top/contrib/examples/matrix/matrix.c $top/contrib/examples/fir/fir.c"
for p in shortcircuit switch recursion; do
	programs="$programs $top/testsuite/programs/$p.c"
done
programs="$programs $top/bench/programs/crc32.c $top/bench/programs/sort.c"
if [ -d "$top/contrib/calibration" ]; then
	programs="$programs $(ls "$top"/contrib/calibration/*.c 2>/dev/null)"
fi

# instructions PROGRAM: instructions executed, from callgrind's summary line.
instructions () {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "./$1" 2>&1 >/dev/null |
		awk '/Collected :/ { print $NF }'
}

printf '%-14s %-4s %12s %12s %12s %7s %7s %10s %10s\n' program opt plain roi gcov roi/pl gcov/pl "roi-pl" "gcov-pl"
for src in $programs; do
	name=$(basename "$src" .c)
	for opt in -O0 -O2; do
		gcc $opt "$src" -o plain
		gcc $opt -fplugin="$plugin" "$src" "$lib" -o counted
		gcc $opt --coverage "$src" -o gcov
		p=$(instructions plain)
		r=$(ROI_OUTPUT=/dev/null instructions counted)
		g=$(instructions gcov)
		rm -f ./*.gcda
		printf '%-14s %-4s %12d %12d %12d %7.2f %7.2f %10d %10d\n' "$name" "$opt" "$p" "$r" "$g" \
			"$(echo "$r / $p" | bc -l)" "$(echo "$g / $p" | bc -l)" $((r - p)) $((g - p))
	done
done

# Compile time: libiberty's C++ demangler (7000 lines of C) from Debian's
# gcc-12-source, best of five runs each, user + system seconds.
tarball=$(ls /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz 2>/dev/null || true)
if [ -z "$tarball" ]; then
	echo "compile time: skipped (install gcc-12-source for the large translation unit)"
	exit 0
fi
if [ ! -f gcc-12.2.0/libiberty/xexit.c ]; then
	tar xf "$tarball" gcc-12.2.0/libiberty/cp-demangle.c gcc-12.2.0/libiberty/cp-demangle.h gcc-12.2.0/include \
		gcc-12.2.0/libiberty/dyn-string.c gcc-12.2.0/libiberty/xmalloc.c gcc-12.2.0/libiberty/xexit.c \
		gcc-12.2.0/libiberty/testsuite/demangle-expected
fi
best () {
	local best=
	for _ in 1 2 3 4 5; do
		local t
		t=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }')
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}
cd gcc-12.2.0/libiberty
for opt in -O0 -O2; do
	flags="$opt -DHAVE_STRING_H -DHAVE_STDLIB_H -I../include -c cp-demangle.c -o /dev/null"
	plain=$(best gcc $flags)
	counted=$(best gcc -fplugin="$plugin" $flags)
	printf 'compile cp-demangle.c %s: plain %.2fs, roi %.2fs (%+.1f%%)\n' "$opt" "$plain" "$counted" \
		"$(echo "($counted - $plain) * 100 / $plain" | bc -l)"
done

# roi transfer on a large real program: the demangler (c++filt's, 2963 blocks at -O2, one
# function of 904) built at -O0 and -O2 with the plugin, run on the mangled names of its own
# test file; the -O0 run's counts transferred onto the -O2 build, against the -O2 run's own.
flags="-g -w -DSTANDALONE_DEMANGLER -DHAVE_STRING_H -DHAVE_STDLIB_H -DHAVE_LIMITS_H -I../include"
srcs="cp-demangle.c dyn-string.c xmalloc.c xexit.c"
grep '^_Z' testsuite/demangle-expected >names.txt
for opt in -O0 -O2; do
	gcc $opt $flags -fplugin="$plugin" $srcs "$lib" -o "demangle$opt"
	rm -f "demangle$opt.roi"
	"./demangle$opt" <names.txt >/dev/null
done
roi=$top/build/bin/roi
seconds=$(best "$roi" transfer -o transferred.roi ./demangle-O2 ./demangle-O0 demangle-O0.roi)
"$roi" transfer -o transferred.roi ./demangle-O2 ./demangle-O0 demangle-O0.roi | sed -n 's/.*: \([0-9]* of [0-9]* source locations matched\).*/\1/p' >matched.txt
ops () { "$roi" estimate --json ./demangle-O2 "$1" 2>/dev/null | jq .total.ops; }
t=$(ops transferred.roi) r=$(ops demangle-O2.roi)
printf 'transfer demangler -O0 -> -O2: %.2fs, %s; %s operations transferred, %s counted (%+.1f%%)\n' \
	"$seconds" "$(cat matched.txt)" "$t" "$r" "$(echo "($t - $r) * 100 / $r" | bc -l)"
