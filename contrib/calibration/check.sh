#!/bin/sh
# check.sh [PROGRAM.c...] — checks calibration programs against the rules of README.md
# (default: every program of this directory), one line each: cycles at -O0 and -Os, then
# "ok" or what is wrong.  Needs the host and AVR builds (make all avr).  Checked:
#   - warning-free with avr-gcc and gcc (-std=c99 -Wall -Wextra -Wpedantic -Wshadow)
#   - between 20,000 and 1,000,000 AVR cycles at -O0 and at -Os, and reaches its exit
#   - the roi plugin builds run: in simavr (roi run, roi estimate) and on the host (exit 0)
#   - the sink's final value is the same on the host (-O0 with UBSan, -O2) and on the AVR
#     (-O0, -Os): catches code whose meaning depends on int's width
#   - no skip instruction followed by an ADIW/SBIW that simavr 1.6 takes for a two-word
#     instruction (github.com/buserror/simavr/pull/361): its cycles would be wrong
# Works serially in ROI_CHECK_DIR (default: a new directory under /tmp, removed if all is well).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${ROI_BUILD:-$top/build}
roi=$build/bin/roi
mcu=atmega32u4
warn="-std=c99 -Wall -Wextra -Wpedantic -Wshadow"
work=${ROI_CHECK_DIR:-}
[ -n "$work" ] || { work=$(mktemp -d /tmp/roi-calib-check.XXXXXX) && scratch=1; }
mkdir -p "$work"

for f in "$roi" "$build/avr/roi.so" "$build/host/roi.so" "$build/host/libroi.a"; do
	[ -e "$f" ] || { echo "check.sh: $f is missing: run make all avr" >&2; exit 2; }
done

# The harness: main calls the program's main (renamed calib_main) and prints the sink
# in hex, on the host with putchar, on the AVR through simavr's console register.
section=/usr/include/simavr/avr/avr_mcu_section.h
mkdir -p "$work/inc/simavr/avr"
[ -r "$section" ] && cp "$section" "$work/inc/simavr/avr/"
cat >"$work/harness.c" <<'EOF'
#include <stdint.h>
extern volatile uint32_t sink;
int calib_main(void);
#ifdef __AVR__
#include <avr/io.h>
#include <simavr/avr/avr_mcu_section.h>
AVR_MCU_SIMAVR_CONSOLE(&GPIOR0);
#define END '\r'
static void put(char c) { GPIOR0 = (uint8_t)c; }
#else
#include <stdio.h>
#define END '\n'
static void put(char c) { putchar(c); }
#endif
int main(void)
{
	uint32_t v;
	int8_t i;

	if (calib_main() != 0)
		put('E');
	v = sink;
	for (i = 28; i >= 0; i -= 4)
		put((char)((v >> i & 15) < 10 ? '0' + (v >> i & 15) : 'a' - 10 + (v >> i & 15)));
	put(END);
#ifdef __AVR__
	__asm__ volatile("cli\n\tsleep");	/* simavr stops here */
#endif
	return 0;
}
EOF
gcc -O0 -c "$work/harness.c" -o "$work/harness-host.o"
if [ -r "$section" ]; then
	avr-gcc -mmcu=$mcu -Os -I"$work/inc" -c "$work/harness.c" -o "$work/harness-avr.o" &&
	# not allocated: simavr 1.6 would load .data after it, shifted
	avr-objcopy --set-section-flags .mmcu=contents,readonly "$work/harness-avr.o"
fi

# skip_bug ELF: lists the skip + ADIW/SBIW pairs simavr 1.6 mis-skips
skip_bug () {
	avr-objdump -d "$1" | awk -F'\t' '
	function hex(s,   i, n) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
	/^[0-9a-f]+ <.*>:$/ { prev = ""; next }
	NF >= 3 && $1 ~ /^ *[0-9a-f]+:$/ {
		split($2, b, " "); w = hex(b[2]) * 256 + hex(b[1]); mn = $3; gsub(/ /, "", mn)
		k = w % 16; top7 = int(w / 512)
		if (prev ~ /^(cpse|sbrc|sbrs|sbic|sbis)$/ && top7 == 75 && k >= 12)	# 0x96xx/0x97xx
			{ a = $1; gsub(/[ :]/, "", a); printf "%s at %s; ", prev " + " mn " " $4, a }
		prev = mn
	}'
}

cycles () {	# cycles ELF: simavr cycles to the stop, or nothing
	"$roi" run --target avr --mcu $mcu --cycles-only --max-cycles 50000000 "$1" 2>/dev/null |
		sed -n 's/.*after \([0-9]*\) cycles.*/\1/p'
}

[ $# -gt 0 ] || set -- "$here"/*.c
start=$(pwd)
status=0
for src in "$@"; do
	case $src in /*) ;; *) src=$start/$src ;; esac
	name=$(basename "$src" .c)
	d=$work/$name
	problems=
	rm -rf "$d" && mkdir -p "$d"
	cd "$d" || exit 2
	grep '^[[:space:]]*#[[:space:]]*include' "$src" |
		grep -v '<stdint.h>\|<stdbool.h>\|<string.h>\|<stdlib.h>' >/dev/null &&
		problems="$problems; includes beyond stdint/stdbool/string/stdlib"
	for o in O0 Os; do
		avr-gcc -mmcu=$mcu -$o $warn "$src" -o $o.elf 2>$o.log || problems="$problems; avr-gcc -$o fails"
		[ -s $o.log ] && problems="$problems; avr-gcc -$o warns"
	done
	for o in O0 O2; do
		gcc -$o $warn "$src" -o host-$o 2>host-$o.log || problems="$problems; gcc -$o fails"
		[ -s host-$o.log ] && problems="$problems; gcc -$o warns"
	done
	c0=$(cycles O0.elf)
	cs=$(cycles Os.elf)
	for c in "${c0:-0}" "${cs:-0}"; do
		[ "$c" -ge 20000 ] && [ "$c" -le 1000000 ] || problems="$problems; cycles out of 20k..1M"
	done
	ram=$(avr-size -A O0.elf | awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { print s + 0 }')
	[ "$ram" -le 1024 ] || problems="$problems; .data+.bss is $ram bytes"
	bad=$(skip_bug O0.elf; skip_bug Os.elf)
	[ -z "$bad" ] || problems="$problems; simavr mis-skip: $bad"

	# the plugin builds
	if avr-gcc -mmcu=$mcu -O0 -fplugin="$build/avr/roi.so" "$src" -o counted.elf 2>counted.log &&
	   "$roi" run --target avr --mcu $mcu counted.elf >counted.run 2>&1 &&
	   "$roi" estimate counted.elf >counted.est 2>&1; then
		bad=$(skip_bug counted.elf)
		[ -z "$bad" ] || problems="$problems; simavr mis-skip in the counted build: $bad"
	else
		problems="$problems; the counted AVR build fails (see $d/counted.*)"
	fi
	gcc -O0 -fplugin="$build/host/roi.so" "$src" "$build/host/libroi.a" -o counted-host 2>counted-host.log &&
		./counted-host && [ -s counted-host.roi ] || problems="$problems; the counted host build fails"

	# the sink, host against AVR
	h0=$(gcc -O0 -fsanitize=undefined -fno-sanitize-recover=all -Dmain=calib_main "$src" \
		"$work/harness-host.o" -o sink-h0 2>/dev/null && ./sink-h0 2>sink-h0.log) || h0="UBSan:$(head -c 200 sink-h0.log)"
	h2=$(gcc -O2 -Dmain=calib_main "$src" "$work/harness-host.o" -o sink-h2 && ./sink-h2)
	sums="$h0 $h2"
	if [ -e "$work/harness-avr.o" ]; then
		for o in O0 Os; do
			avr-gcc -mmcu=$mcu -$o -Dmain=calib_main -c "$src" -o sink-$o.o &&
			avr-gcc -mmcu=$mcu "$work/harness-avr.o" sink-$o.o -o sink-$o.elf &&
			sums="$sums $(timeout 120 simavr -m $mcu sink-$o.elf 2>&1 | sed -n 's/^O:\([0-9a-fE]*\).*/\1/p')"
		done
	else
		problems="$problems; (no $section: host/AVR sink comparison skipped)"
	fi
	[ "$(echo "$sums" | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ] || problems="$problems; sinks differ (host -O0 -O2, avr -O0 -Os): $sums"

	result=ok
	[ -z "$problems" ] || { result="FAIL:${problems#;}"; status=1; }
	printf '%-24s O0 %8s  Os %8s  %s\n' "$name" "${c0:--}" "${cs:--}" "$result"
done
if [ $status -eq 0 ] && [ -n "${scratch:-}" ]; then
	rm -rf "$work"
else
	echo "check.sh: the builds are in $work" >&2
fi
exit $status
