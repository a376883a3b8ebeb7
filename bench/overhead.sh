#!/bin/bash
# overhead.sh [-v] — what counting costs, side by side with gcov (--coverage), in one run:
#
#   1. instructions executed (valgrind's callgrind: deterministic, whatever else the machine does)
#      by the plain, the roi and the gcov build of real programs (zlib's minigzip and libiberty's
#      C++ demangler, both from Debian's gcc-12-source; two long kernels of bench/programs) and of
#      the calibration corpus's kernels (contrib/calibration/kernel-*.c) built for the host and
#      called in a loop until each runs some 5 million instructions, at -O0 and -O2;
#   2. the exit of a trivial program: instructions, and wall time a process over 1,000 processes;
#   3. compile time of large translation units, plain, roi and gcov;
#   4. roi estimate's time and memory on generated programs of 50k, 100k and 200k counters
#      (bench/many-counters.sh), text and JSON;
#   5. roi transfer on the demangler;
#   6. the thread-safe mode (-fplugin-arg-roi-atomic: each thread counts in its own copy of the
#      counters), user + system CPU beside the default mode's, on the real programs and on eight
#      threads calling into one unit at once (bench/programs/threads.c), and their counts;
#   7. AVR firmware (ATmega32U4 in simavr): cycles and flash, counted / plain, of the corpus's
#      kernels at -O0 and -Os with 32- and 16-bit counters, and what one increment costs.
#
# Figures are printed, never asserted: the goals are in the issues, the last run is quoted in
# docs/testing.md. -v also prints every kernel's row; --avr runs section 7 alone (some ten minutes
# where the whole run takes an hour), to measure a change to the AVR counter code.
set -e
verbose= avr_only=
for arg; do
	case $arg in
	-v) verbose=t ;;
	--avr) avr_only=t ;;
	*) echo "usage: overhead.sh [-v] [--avr]" >&2; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
plugin=$top/build/host/roi.so
lib=$top/build/host/libroi.a
roi=$top/build/bin/roi
work=$top/build/bench
mkdir -p "$work" && cd "$work"

ratio () { echo "scale=4; $1 / $2" | bc; }

if [ -z "$avr_only" ]; then
tarball=$(ls /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz 2>/dev/null || true)
if [ -z "$tarball" ]; then
	echo "overhead.sh: install gcc-12-source (sh contrib/install-deps.sh bench)" >&2
	exit 1
fi
src=$work/gcc-12.2.0
if [ ! -f "$src/zlib/test/minigzip.c" ] || [ ! -f "$src/libiberty/xexit.c" ]; then
	tar xf "$tarball" gcc-12.2.0/zlib gcc-12.2.0/include gcc-12.2.0/libiberty
fi

# instructions PROGRAM [ARG...]: instructions executed, from callgrind's summary line; the
# program reads $input (default: nothing), its output is dropped.
instructions () {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" <"${input:-/dev/null}" >/dev/null 2>callgrind.err
	awk '/Collected :/ { print $NF }' callgrind.err
}

# A row: NAME OPT PLAIN ROI GCOV.
header () {
	printf '%-22s %-4s %12s %12s %12s %7s %7s %10s %10s\n' program opt plain roi gcov roi/pl gcov/pl roi-pl gcov-pl
}
row () {
	printf '%-22s %-4s %12d %12d %12d %7.2f %7.2f %10d %10d\n' "$1" "$2" "$3" "$4" "$5" \
		"$(ratio "$4" "$3")" "$(ratio "$5" "$3")" $(($4 - $3)) $(($5 - $3))
}

# Ratios kept for the geometric means: logs summed per set (kernels -O0, ..., all -O2).
declare -A logsum count
keep () {       # SET PLAIN ROI GCOV
	logsum[$1.roi]=$(echo "scale=10; ${logsum[$1.roi]:-0} + l($3 / $2)" | bc -l)
	logsum[$1.gcov]=$(echo "scale=10; ${logsum[$1.gcov]:-0} + l($4 / $2)" | bc -l)
	count[$1]=$((${count[$1]:-0} + 1))
}
geomean () {    # SET WHAT
	printf '%.3f' "$(echo "e(${logsum[$1.$2]} / ${count[$1]})" | bc -l)"
}

# build OPT NAME SOURCE... [-- FLAGS]: plain/NAME, roi/NAME and gcov/NAME.
build () {
	local opt=$1 name=$2 flags=()
	shift 2
	local srcs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in /*) srcs+=("$1") ;; *) srcs+=("$work/$1") ;; esac
		shift
	done
	[ "${1:-}" = -- ] && shift && flags=("$@")
	mkdir -p plain roi gcov
	gcc "$opt" "${flags[@]}" "${srcs[@]}" -o "plain/$name"
	gcc "$opt" "${flags[@]}" -fplugin="$plugin" "${srcs[@]}" "$lib" -o "roi/$name"
	(cd gcov && gcc "$opt" "${flags[@]}" --coverage "${srcs[@]}" -o "$name")
}

# measure NAME ARG...: the three builds' instructions, each run afresh (no profile, no .gcda
# before it), standard input from $input when set.
measure () {
	local name=$1 p r g
	shift
	p=$(instructions "plain/$name" "$@")
	rm -f run.roi
	r=$(ROI_OUTPUT=$work/run.roi instructions "roi/$name" "$@")
	find gcov -name '*.gcda' -delete
	g=$(instructions "gcov/$name" "$@")
	echo "$p $r $g"
}

echo "== instructions executed (callgrind), plain / roi / gcov"
header

# Real programs: zlib's minigzip compressing and expanding 1 MiB of libiberty's sources; the
# demangler on the mangled names of its own test file; two kernels of bench/programs.
zsrcs=""
for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees \
	uncompr zutil; do
	zsrcs="$zsrcs $src/zlib/$f.c"
done
cat "$src"/libiberty/*.c | head -c 1048576 >text.in
grep '^_Z' "$src/libiberty/testsuite/demangle-expected" >names.txt
dflags="-w -DSTANDALONE_DEMANGLER -DHAVE_STRING_H -DHAVE_STDLIB_H -DHAVE_LIMITS_H -I$src/include"
dsrcs="$src/libiberty/cp-demangle.c $src/libiberty/dyn-string.c $src/libiberty/xmalloc.c $src/libiberty/xexit.c"
for opt in -O0 -O2; do
	# shellcheck disable=SC2086
	build "$opt" minigzip $zsrcs "$src/zlib/test/minigzip.c" -- -w -DHAVE_UNISTD_H -DHAVE_STDARG_H -I"$src/zlib"
	plain/minigzip -c <text.in >text.gz
	read -r p1 r1 g1 < <(input=text.in measure minigzip -c)
	read -r p2 r2 g2 < <(input=text.gz measure minigzip -d -c)
	row "zlib minigzip" "$opt" $((p1 + p2)) $((r1 + r2)) $((g1 + g2))
	keep "real$opt" $((p1 + p2)) $((r1 + r2)) $((g1 + g2))
	# shellcheck disable=SC2086
	build "$opt" demangle $dsrcs -- $dflags
	read -r p r g < <(input=names.txt measure demangle)
	row "libiberty demangler" "$opt" "$p" "$r" "$g"
	keep "real$opt" "$p" "$r" "$g"
	for k in crc32 sort; do
		build "$opt" "$k" "$top/bench/programs/$k.c"
		read -r p r g < <(measure "$k")
		row "bench/programs/$k" "$opt" "$p" "$r" "$g"
		keep "real$opt" "$p" "$r" "$g"
	done
done

# The corpus's kernels, each main renamed (by a wrapper that includes it) and called REPEAT times
# (argv[1]) by a driver.
cat >driver.c <<'EOF'
#include <stdlib.h>
int kernel_main(void);
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	for (long i = 0; i < n; i++)
		kernel_main();
	return 0;
}
EOF
printf 'int main(void) { return 0; }\n' >trivial.c
gcc -O2 trivial.c -o trivial-plain
base=$(instructions ./trivial-plain)
for opt in -O0 -O2; do
	for k in "$top"/contrib/calibration/kernel-*.c; do
		name=$(basename "$k" .c)
		printf '#define main kernel_main\n#include "%s"\n' "$k" >"$name.c"
		build "$opt" "$name" driver.c "$work/$name.c" -- -w
		# some 5 million instructions of kernel work a run, whatever one call costs
		once=$(( ($(instructions "plain/$name" 10) - base) / 10 ))
		repeat=$(( once > 0 ? (5000000 + once - 1) / once : 1 ))
		read -r p r g < <(measure "$name" "$repeat")
		[ -n "$verbose" ] && row "$name" "$opt" "$p" "$r" "$g"
		keep "kernels$opt" "$p" "$r" "$g"
	done
	echo "kernels $opt: ${count[kernels$opt]} of contrib/calibration, geometric mean roi/plain $(geomean "kernels$opt" roi), gcov/plain $(geomean "kernels$opt" gcov)"
done
for opt in -O0 -O2; do
	echo "real programs $opt: geometric mean roi/plain $(geomean "real$opt" roi), gcov/plain $(geomean "real$opt" gcov)"
done

# ---- 2. the exit of a trivial program ----
echo
echo "== exit of a trivial program (int main(void) { return 0; }), -O2"
build -O2 trivial trivial.c
rm -f run.roi
find gcov -name '*.gcda' -delete
p=$(instructions plain/trivial)
r1=$(ROI_OUTPUT=$work/run.roi instructions roi/trivial)
r2=$(ROI_OUTPUT=$work/run.roi instructions roi/trivial)
g1=$(instructions gcov/trivial)
g2=$(instructions gcov/trivial)
printf 'instructions: plain %d; roi %d (%+d), merging into its profile %d (%+d); gcov %d (%+d), merging %d (%+d)\n' \
	"$p" "$r1" $((r1 - p)) "$r2" $((r2 - p)) "$g1" $((g1 - p)) "$g2" $((g2 - p))
# wall time: 1,000 processes in a row, each merging into one profile (a test suite's case)
wall () {
	local t
	t=$( { TIMEFORMAT=%R; time (for _ in $(seq 1000); do "$@" >/dev/null 2>&1; done); } 2>&1)
	echo "$t"
}
rm -f run.roi
tp=$(wall plain/trivial)
tr=$(ROI_OUTPUT=$work/run.roi wall roi/trivial)
ts=$(ROI_OUTPUT=$work/run.roi ROI_FSYNC=1 wall roi/trivial)
tg=$(wall gcov/trivial)
printf '1,000 processes: plain %.2fs, roi %.2fs, roi with ROI_FSYNC=1 %.2fs, gcov %.2fs (%+.2f ms, %+.2f ms, %+.2f ms a process)\n' \
	"$tp" "$tr" "$ts" "$tg" "$(echo "$tr - $tp" | bc)" "$(echo "$ts - $tp" | bc)" "$(echo "$tg - $tp" | bc)"

# ---- 3. compile time ----
echo
echo "== compile time, user + system seconds, best of three"
best () {
	local best= t
	for _ in $(seq "${tries:-3}"); do
		t=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }')
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}
compile_row () {       # LABEL FLAGS...
	local label=$1 p r g
	shift
	p=$(best gcc "$@" -c -o compiled.o)
	r=$(best gcc -fplugin="$plugin" "$@" -c -o compiled.o)
	g=$(best gcc --coverage "$@" -c -o compiled.o)
	printf '%-50s plain %6.2fs  roi %6.2fs (%+5.1f%%)  gcov %6.2fs (%+5.1f%%)\n' "$label" "$p" "$r" \
		"$(echo "($r - $p) * 100 / $p" | bc -l)" "$g" "$(echo "($g - $p) * 100 / $p" | bc -l)"
}
for opt in -O0 -O2; do
	compile_row "libiberty/cp-demangle.c (6,700 lines) $opt" "$opt" -w -DHAVE_STRING_H -DHAVE_STDLIB_H \
		-I"$src/include" "$src/libiberty/cp-demangle.c"
	compile_row "zlib/deflate.c (2,200 lines) $opt" "$opt" -w -I"$src/zlib" "$src/zlib/deflate.c"
done
sh "$top/bench/many-counters.sh" 12500 2 >many.c
tries=1 compile_row "many-counters.sh 12500 2 ($(wc -l <many.c | tr -d ' ') lines) -O0, 1 run" -O0 many.c

# ---- 4. roi estimate on many blocks ----
# (the blocks are what a counter per block counted, the counters what the plugin counts on edges)
echo
echo "== roi estimate on generated programs (bench/many-counters.sh, -O0): best of three, max RSS"
for functions in 6250 12500 25000; do
	sh "$top/bench/many-counters.sh" "$functions" 2 >many.c
	gcc -O0 -fplugin="$plugin" many.c "$lib" -o many
	rm -f many.roi
	./many
	counters=$(awk '/^fn / { n += $5 } END { print n }' many.roi)
	blocks=$("$roi" ops many | awk '/ blocks$/ { n += $(NF - 1) } END { print n }')
	for mode in text json; do
		flag=
		[ "$mode" = json ] && flag=--json
		secs=$(best "$roi" estimate $flag many many.roi)
		kib=$( { /usr/bin/time -f %M "$roi" estimate $flag many many.roi >/dev/null; } 2>&1)
		printf '%6d functions, %7d blocks, %6d counters, %-4s: %5.2fs, %4d MiB\n' "$functions" "$blocks" "$counters" \
			"$mode" "$secs" $(((kib + 1023) / 1024))
	done
done
# The floor: cJSON alone parsing the last one's metadata whole (bench/cjson-parse.c).
gcc -O2 "$top/bench/cjson-parse.c" -lcjson -o cjson-parse
objcopy --dump-section .roi.meta=many.meta many /dev/null
printf '%d blocks, %d MiB of metadata: %s\n' "$blocks" $(($(wc -c <many.meta) / 1048576)) "$(./cjson-parse many.meta)"

# ---- 5. roi transfer on a large real program ----
# The demangler (c++filt's, 2963 blocks at -O2, one function of 904) built at -O0 and -O2 with
# the plugin, run on the mangled names of its own test file; the -O0 run's counts transferred
# onto the -O2 build, against the -O2 run's own.
echo
echo "== roi transfer"
for opt in -O0 -O2; do
	# shellcheck disable=SC2086
	gcc $opt -g $dflags -fplugin="$plugin" $dsrcs "$lib" -o "demangle$opt"
	rm -f "demangle$opt.roi"
	"./demangle$opt" <names.txt >/dev/null
done
seconds=$(best "$roi" transfer -o transferred.roi ./demangle-O2 ./demangle-O0 demangle-O0.roi)
"$roi" transfer -o transferred.roi ./demangle-O2 ./demangle-O0 demangle-O0.roi |
	sed -n 's/.*: \([0-9]* of [0-9]* source locations matched\).*/\1/p' >matched.txt
ops () { "$roi" estimate --json ./demangle-O2 "$1" 2>/dev/null | jq .total.ops; }
t=$(ops transferred.roi) r=$(ops demangle-O2.roi)
printf 'transfer demangler -O0 -> -O2: %.2fs, %s; %s operations transferred, %s counted (%+.1f%%)\n' \
	"$seconds" "$(cat matched.txt)" "$t" "$r" "$(echo "($t - $r) * 100 / $r" | bc -l)"

# ---- 6. the thread-safe mode ----
# user + system seconds of plain, roi and roi -fplugin-arg-roi-atomic builds, best of five runs of
# each (a run of a short program repeated to some tenths of a second).
echo
echo "== thread-safe mode (-fplugin-arg-roi-atomic), user + system seconds, best of five"
cpu () {        # REPEAT PROGRAM [ARG...]: the best of five of REPEAT runs, stdin from $input
	local n=$1 best= t
	shift
	for _ in 1 2 3 4 5; do
		t=$( { TIMEFORMAT='%U %S'; time (for _ in $(seq "$n"); do "$@" <"${input:-/dev/null}" >/dev/null 2>&1; done); } 2>&1 |
			awk '{ print $1 + $2 }')
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}
printf '%-22s %-4s %8s %8s %8s %7s %7s %9s\n' program opt plain roi atomic roi/pl atom/pl atom/roi
declare -A tlog tcount
thread_row () {    # NAME OPT REPEAT BINARY-NAME [ARG...]
	local name=$1 opt=$2 n=$3 bin=$4 p r a
	shift 4
	p=$(cpu "$n" "plain/$bin" "$@")
	r=$(ROI_OUTPUT=$work/cpu.roi cpu "$n" "roi/$bin" "$@")
	a=$(ROI_OUTPUT=$work/cpu-atomic.roi cpu "$n" "atomic/$bin" "$@")
	printf '%-22s %-4s %7.2fs %7.2fs %7.2fs %7.2f %7.2f %9.2f\n' "$name" "$opt" "$p" "$r" "$a" \
		"$(ratio "$r" "$p")" "$(ratio "$a" "$p")" "$(ratio "$a" "$r")"
	tlog[$opt]=$(echo "scale=10; ${tlog[$opt]:-0} + l($a / $r)" | bc -l)
	tcount[$opt]=$((${tcount[$opt]:-0} + 1))
}
mkdir -p atomic
for opt in -O0 -O2; do
	# shellcheck disable=SC2086
	build "$opt" minigzip $zsrcs "$src/zlib/test/minigzip.c" -- -w -DHAVE_UNISTD_H -DHAVE_STDARG_H -I"$src/zlib"
	# shellcheck disable=SC2086
	gcc "$opt" -w -DHAVE_UNISTD_H -DHAVE_STDARG_H -I"$src/zlib" -fplugin="$plugin" -fplugin-arg-roi-atomic \
		$zsrcs "$src/zlib/test/minigzip.c" "$lib" -o atomic/minigzip
	input=text.in thread_row "zlib minigzip -c" "$opt" 10 minigzip -c
	# shellcheck disable=SC2086
	build "$opt" demangle $dsrcs -- $dflags
	# shellcheck disable=SC2086
	gcc "$opt" $dflags -fplugin="$plugin" -fplugin-arg-roi-atomic $dsrcs "$lib" -o atomic/demangle
	input=names.txt thread_row "libiberty demangler" "$opt" 100 demangle
	for k in crc32 sort; do
		build "$opt" "$k" "$top/bench/programs/$k.c"
		gcc "$opt" -fplugin="$plugin" -fplugin-arg-roi-atomic "$top/bench/programs/$k.c" "$lib" -o "atomic/$k"
		thread_row "bench/programs/$k" "$opt" 20 "$k"
	done
	build "$opt" threads "$top/bench/programs/threads.c" -- -pthread
	gcc "$opt" -pthread -fplugin="$plugin" -fplugin-arg-roi-atomic "$top/bench/programs/threads.c" "$lib" \
		-o atomic/threads
	thread_row "8 threads (threads.c)" "$opt" 1 threads
	# mix() is called 8 x 10,000,000 times: so many times counted in the thread-safe mode
	rm -f exact.roi racy.roi
	ROI_OUTPUT=$work/exact.roi atomic/threads >/dev/null
	ROI_OUTPUT=$work/racy.roi roi/threads >/dev/null
	calls () { "$roi" estimate --json "$1" "$2" 2>/dev/null | jq '[.functions[] | select(.name == "mix") | .calls] | add'; }
	echo "8 threads $opt: mix() called 80000000 times, counted $(calls atomic/threads exact.roi) thread-safe," \
		"$(calls roi/threads racy.roi) in the default mode"
done
for opt in -O0 -O2; do
	printf 'thread-safe / default mode %s: geometric mean %.3f over %d programs\n' "$opt" \
		"$(echo "e(${tlog[$opt]} / ${tcount[$opt]})" | bc -l)" "${tcount[$opt]}"
done

fi # (sections 1 to 6)

# ---- 7. AVR firmware ----
# The corpus's kernels built for the ATmega32U4 plain and counted (32- and 16-bit counters), run
# in simavr: exact cycles (from reset to the stop, the start-up's clearing of the counters
# included) and flash (.text + .data).
[ -z "$avr_only" ] && echo
echo "== AVR (ATmega32U4, simavr): the $(ls "$top"/contrib/calibration/kernel-*.c | wc -l) kernels of contrib/calibration, counted / plain"
avr_plugin=$top/build/avr/roi.so
mcu=atmega32u4
mkdir -p avr
avr_cycles () {  # ELF [ARG...]
	"$roi" run --json --target avr --mcu $mcu "$@" | jq .cycles
}
flash () { avr-size -A "$1" | awk '$1 == ".text" || $1 == ".data" { n += $2 } END { print n }'; }
declare -A alog acount aworst
for opt in -O0 -Os; do
	for k in "$top"/contrib/calibration/kernel-*.c; do
		name=$(basename "$k" .c)
		avr-gcc -mmcu=$mcu "$opt" "$k" -o "avr/$name-plain.elf"
		avr-gcc -mmcu=$mcu "$opt" -fplugin="$avr_plugin" "$k" -o "avr/$name-32.elf"
		avr-gcc -mmcu=$mcu "$opt" -fplugin="$avr_plugin" -fplugin-arg-roi-counter-bits=16 "$k" -o "avr/$name-16.elf"
		p=$(avr_cycles --cycles-only "avr/$name-plain.elf")
		pf=$(flash "avr/$name-plain.elf")
		for bits in 32 16; do
			c=$(avr_cycles -o "avr/$name-$bits.roi" "avr/$name-$bits.elf")
			f=$(flash "avr/$name-$bits.elf")
			for what in cycles flash; do
				if [ $what = cycles ]; then r=$(ratio "$c" "$p"); else r=$(ratio "$f" "$pf"); fi
				key=$opt.$bits.$what
				alog[$key]=$(echo "scale=10; ${alog[$key]:-0} + l($r)" | bc -l)
				acount[$key]=$((${acount[$key]:-0} + 1))
				if [ -z "${aworst[$key]:-}" ] || [ "$(echo "$r > ${aworst[$key]%% *}" | bc)" = 1 ]; then
					aworst[$key]="$r $name"
				fi
			done
			if [ -n "$verbose" ]; then
				printf '%-28s %-4s %2d-bit  cycles %8d / %8d  flash %6d / %6d\n' "$name" "$opt" "$bits" \
					"$c" "$p" "$f" "$pf"
			fi
		done
	done
	for bits in 32 16; do
		for what in cycles flash; do
			key=$opt.$bits.$what
			printf '%s %2d-bit counters, %-6s: geometric mean %.3f, worst %.2f (%s)\n' "$opt" "$bits" "$what" \
				"$(echo "e(${alog[$key]} / ${acount[$key]})" | bc -l)" "${aworst[$key]%% *}" "${aworst[$key]#* }"
		done
	done
done
# One increment: f() is one counted block, whose counter counts its calls; main calls it 1,000
# times in a row, in one block of its own (two counters, run once). The counted build's cycles
# beyond the plain one's, a call, and f's bytes beyond its plain bytes; and the bytes of the
# carry routine, once in a firmware.
{
	echo 'volatile unsigned char v;'
	echo '__attribute__((noinline)) void f(void) { v = 1; }'
	echo 'int main(void)'
	echo '{'
	for _ in $(seq 1000); do echo '	f();'; done
	echo '	return 0;'
	echo '}'
} >inc.c
fsize () { printf '%d\n' "0x$(avr-nm -S "$1" | awk -v f="${2:-f}" '$4 == f { print $2 }')"; }
for opt in -O0 -Os; do
	avr-gcc -mmcu=$mcu "$opt" inc.c -o avr/inc-plain.elf
	p=$(avr_cycles --cycles-only avr/inc-plain.elf)
	for bits in 32 16; do
		avr-gcc -mmcu=$mcu "$opt" -fplugin="$avr_plugin" -fplugin-arg-roi-counter-bits=$bits inc.c -o "avr/inc-$bits.elf"
		c=$(avr_cycles -o avr/inc.roi "avr/inc-$bits.elf")
		# (and once per firmware the routine the increments call where the low byte wraps)
		printf 'one increment, %s, %2d-bit counter: %.2f cycles, %d bytes; the carry routine %d bytes\n' \
			"$opt" "$bits" "$(echo "($c - $p) / 1000" | bc -l)" \
			$(($(fsize "avr/inc-$bits.elf") - $(fsize avr/inc-plain.elf))) \
			"$(fsize "avr/inc-$bits.elf" "__roi_avr_carry${bits}_1")"
	done
done
