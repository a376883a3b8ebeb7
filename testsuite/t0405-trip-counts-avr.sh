#!/bin/sh
test_description='firmware: a loop whose trips GCC computes counted once per entry, exact

The loops of programs/trips.c built with avr-gcc, run in simavr as an ATmega32U4: where
GCC knows how often a loop'"'"'s latch runs, its counter is added that count on the way in by
an asm (gcc-plugin/roi-counters-avr.cc) and the loop carries none. Every count must be
what a counter per block gives and what the C semantics give, with 32- and 16-bit
counters, an 8- and a 16-bit amount, and a 16-bit counter that saturates.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
P=$TEST_DIRECTORY/programs
avr_cc () { avr-gcc -mmcu=atmega32u4 -fplugin="$AVR_PLUGIN" "$@"; }
roi_avr () { "$ROI" run --target avr --mcu atmega32u4 "$@" >/dev/null; }
volatile_stores () {
	jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add // 0" "$1"
}
lines () {
	jq -r '.files[].lines[] | "\(.line_number) \(.count) \([.branches[].count] | join(","))"' "$1"
}
line_count () {
	jq --argjson l "$2" '[.files[].lines[] | select(.line_number == $l) | .count] | add // 0' "$1"
}
fn_asm () {
	avr-objdump -d --no-show-raw-insn "$1" | awk "/<$2>:/,/^\$/"
}

# programs/trips.c by hand: the stores of each loop's body (lines 19, 25, 31, 37, 43, 62), 385
# in all; with a counter per block, the same count of every line and branch.
test_expect_success 'every count is the one of a counter per block and the one by hand' '
	for opt in -O0 -Os; do
		for bits in 32 16; do
			for mode in edges blocks; do
				flag= &&
				if [ $mode = blocks ]; then flag=-fplugin-arg-roi-block-counters; fi &&
				avr_cc $opt -fplugin-arg-roi-counter-bits=$bits $flag "$P/trips.c" -o $mode.elf &&
				roi_avr $mode.elf &&
				"$ROI" report --format gcov-json $mode.elf >$mode.json &&
				lines $mode.json >$mode.lines || return 1
			done &&
			test_cmp blocks.lines edges.lines &&
			"$ROI" estimate --json edges.elf >edges-est.json &&
			test_equal 385 "$(volatile_stores edges-est.json)" "$opt $bits-bit stores" &&
			for want in 19:10 25:7 31:4 37:100 43:259 62:4; do
				test_equal ${want#*:} "$(line_count edges.json ${want%:*})" \
					"$opt $bits-bit line ${want%:*}" || return 1
			done || return 1
		done
	done
'

# At -Os GCC knows the trips of constant (a constant), upto (n, 16 bits), range (a pointer
# difference), wrap (8 bits) and branchy (8, whose sides keep one counter); from_one'"'"'s
# n - 1 is none where n <= 1, which it cannot add without a test.
test_expect_success 'at -Os the loops whose trips GCC computes carry no counter; the one with a break does' '
	avr_cc -Os "$P/trips.c" -o os.elf &&
	for fn in constant upto range wrap; do
		fn_asm os.elf $fn >$fn.s &&
		test_grep "__roi_c_" $fn.s &&
		in_loops $fn.s >$fn.in && ! test -s $fn.in || return 1
	done &&
	# one counter in branchy'"'"'s loop, for one side of the branch: its low byte (the carry
	# into the other three is a call of a routine that reads its address)
	fn_asm os.elf branchy >branchy.s &&
	in_loops branchy.s | sed -n "s/.*<\(__roi_c_[^>]*\)>.*/\1/p" | sort -u >branchy.in &&
	test_equal 1 "$(wc -l <branchy.in | tr -d " ")" "bytes of counters in branchy'"'"'s loop" &&
	fn_asm os.elf with_break >with_break.s &&
	in_loops with_break.s >with_break.in && test -s with_break.in
'

cat >sat.c <<'EOF'
volatile unsigned char sink;
__attribute__((noinline)) void upto(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink = i;
}
int main(void)
{
	upto(300);
	upto(65000);
#ifdef MORE
	upto(300);
#endif
	return 0;
}
EOF

# By hand: sink = i runs 300 + 65000 = 65300 times, 65600 with MORE; a 16-bit counter holds the
# first (the add of 65000 carries into the high byte) and stops at 65535 on the second, which
# roi then shows with a warning.
test_expect_success 'a 16-bit amount carries, and saturates a 16-bit counter as its increments do' '
	for opt in -O0 -Os; do
		for bits in 32 16; do
			avr_cc $opt -fplugin-arg-roi-counter-bits=$bits sat.c -o sat.elf &&
			roi_avr sat.elf &&
			"$ROI" report --format gcov-json sat.elf >sat.json 2>err &&
			test_equal 65300 "$(line_count sat.json 5)" "$opt $bits-bit" &&
			avr_cc $opt -fplugin-arg-roi-counter-bits=$bits -DMORE sat.c -o more.elf &&
			roi_avr more.elf &&
			"$ROI" report --format gcov-json more.elf >more.json 2>err || return 1
			if [ $bits = 16 ]; then
				test_equal 65535 "$(line_count more.json 5)" "$opt $bits-bit, more" &&
				test_grep "saturated at 65535" err || return 1
			else
				test_equal 65600 "$(line_count more.json 5)" "$opt $bits-bit, more" || return 1
			fi
		done
	done &&
	avr_cc -Os -fplugin-arg-roi-verbose -c sat.c -o sat.o 2>notes &&
	test_grep "of .upto. added once per entry of the loop" notes
'

test_done
