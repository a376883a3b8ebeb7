#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi run --target avr: firmware in simavr, counters read from its SRAM

The seed matrix example is built with avr-gcc and the AVR plugin (runtime=none),
run in libsimavr as an ATmega32U4, and its profile estimated. The counts that
do not depend on type widths are those of t0200: 60 multiplications, 97 loop
comparisons feeding 97 branches, 75 volatile stores and 60 volatile loads of
m3 (at -Os too), main entered once.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
avr_cc () { avr-gcc -mmcu=atmega32u4 "$@"; }
roi_avr () { "$ROI" run --target avr --mcu atmega32u4 "$@"; }
# avr_unit ELF: its (one unit's) .roi.meta record as JSON.
avr_unit () {
	avr-objcopy --dump-section .roi.meta="$1.meta" "$1" /dev/null &&
	tr "\0" "\n" <"$1.meta" | jq -s ".[0]"
}
# cycles_of OUT: the cycle count in a 'roi run' text line.
cycles_of () { sed -n 's/.*: stopped after \([0-9][0-9]*\) cycles (.*/\1/p' "$1"; }
volatile_count () {
	jq --arg k "$2" '[.ops[] | select(.kind == $k and .volatile == true) | .count] | add // 0' "$1"
}

test_expect_success 'matrix at -O0 runs to its exit and leaves a profile next to the ELF' '
	mkdir fw &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" "$EXAMPLES/matrix/matrix.c" -o fw/matrix.elf &&
	roi_avr fw/matrix.elf >out &&
	test_grep "^fw/matrix.elf: stopped after [0-9]* cycles ([0-9.]* [mun]*s at 16 MHz); profile fw/matrix.elf.roi$" out &&
	test -f fw/matrix.elf.roi &&
	test_grep "^program $(pwd)/fw/matrix.elf$" fw/matrix.elf.roi &&
	test_grep "^runs 1$" fw/matrix.elf.roi
'

test_expect_success 'the -O0 counts are those derived by hand' '
	"$ROI" estimate --json fw/matrix.elf >est.json &&
	test_equal 60 "$(op_count est.json mul)" &&
	cmp=$(( $(op_count est.json lt) + $(op_count est.json le) )) &&
	test_equal 97 "$cmp" "loop comparisons" &&
	test_equal 97 "$(op_count est.json br)" &&
	test_equal 75 "$(volatile_count est.json store)" &&
	test_equal 60 "$(volatile_count est.json load)" &&
	test_equal 1 "$(fn_calls est.json main)"
'

test_expect_success 'at -Os the volatile accesses survive exactly: 75 stores, 60 loads' '
	avr_cc -Os -fplugin="$AVR_PLUGIN" "$EXAMPLES/matrix/matrix.c" -o matrix-os.elf &&
	roi_avr matrix-os.elf >out-os &&
	"$ROI" estimate --json matrix-os.elf >est-os.json &&
	test_equal 75 "$(volatile_count est-os.json store)" &&
	test_equal 60 "$(volatile_count est-os.json load)" &&
	test_equal 1 "$(fn_calls est-os.json main)" &&
	test "$(cycles_of out-os)" -lt "$(cycles_of out)"
'

test_expect_success 'the cycle count is exact: the same every run, and the limit it just fits in' '
	c=$(cycles_of out) &&
	test "$c" -gt 0 &&
	roi_avr fw/matrix.elf >again &&
	test_equal "$c" "$(cycles_of again)" "second run" &&
	roi_avr --max-cycles "$c" fw/matrix.elf &&
	test_must_fail roi_avr --max-cycles $((c - 1)) fw/matrix.elf 2>err &&
	test_grep "^roi: fw/matrix.elf: no stop after $((c - 1)) cycles (--max-cycles)" err
'

test_expect_success 'counting costs cycles: the plugin-built matrix is slower than a plain one' '
	# The plain matrix is linked with one counted unit that never runs, so
	# that roi accepts it; its counters add a few bytes to clear at start-up.
	echo "int roi_unused(int x) { return x + 1; }" >unused.c &&
	avr_cc -O0 -c "$EXAMPLES/matrix/matrix.c" -o plain.o &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" -c unused.c -o unused.o &&
	avr_cc plain.o unused.o -o plain.elf &&
	roi_avr plain.elf >out-plain &&
	test "$(cycles_of out-plain)" -lt "$(cycles_of out)"
'

test_expect_success '--json, --output and --freq' '
	roi_avr --json --freq 8000000 -o m.roi fw/matrix.elf >run.json &&
	test -f m.roi &&
	test_equal "\"fw/matrix.elf\" \"atmega32u4\" 8000000 \"exit\" \"m.roi\"" \
		"$(jq -c -r "[.elf, .mcu, .freq_hz, .stop_reason, .profile] | map(tojson) | join(\" \")" run.json)" &&
	test_equal "$(cycles_of out)" "$(jq .cycles run.json)" &&
	test_equal true "$(jq ".seconds == .cycles / 8000000 and .saturated == []" run.json)"
'

test_expect_success 'sleep with interrupts off ends the run too' '
	cat >sleep.c <<-\EOF &&
	#include <avr/interrupt.h>
	#include <avr/sleep.h>
	volatile int x;
	int main(void) { for (int i = 0; i < 10; i++) x += i; cli(); sleep_enable(); sleep_cpu(); return 0; }
	EOF
	avr_cc -O0 -fplugin="$AVR_PLUGIN" sleep.c -o sleep.elf &&
	roi_avr --json sleep.elf >sleep.json &&
	test_equal "\"sleep\"" "$(jq .stop_reason sleep.json)" &&
	"$ROI" estimate --json sleep.elf >sleep-est.json &&
	test_equal 10 "$(op_count sleep-est.json store i16 var)"
'

test_expect_success 'interrupts and sleep: 10 Timer0 overflows at clk/64 take 10 x 16384 cycles' '
	cat >timer.c <<-\EOF &&
	#include <avr/interrupt.h>
	#include <avr/io.h>
	#include <avr/sleep.h>
	volatile unsigned char ticks;
	ISR(TIMER0_OVF_vect) { ticks++; }
	int main(void)
	{
		TCCR0B = _BV(CS01) | _BV(CS00);
		TIMSK0 = _BV(TOIE0);
		sei();
		while (ticks < 10) { sleep_enable(); sleep_cpu(); }
		return 0;
	}
	EOF
	avr_cc -Os -fplugin="$AVR_PLUGIN" timer.c -o timer.elf &&
	roi_avr timer.elf >out-timer &&
	c=$(cycles_of out-timer) &&
	test "$c" -ge 163840 && test "$c" -lt 180224 &&
	"$ROI" estimate --json timer.elf >timer.json &&
	test_equal 10 "$(fn_calls timer.json __vector_23)" &&
	test_equal 1 "$(fn_calls timer.json main)"
'

# On AVR a block counter is bumped through r0 a byte at a time, the next byte only on a carry
# (roi-counters-avr.cc): 70000 = 0x11170 turns of the loop carry into the second and third bytes,
# and the counts must still be exact, at -Os as at -O0 and with 64-bit counters. No other
# register is touched: the loop's code is the plain build's plus the increments. (The bound is
# volatile: GCC does not know the turns, and the loop keeps its increments, where it would add
# them once on the way in; t0405.)
test_expect_success 'the increments through r0 carry exactly: 70000 turns, 32- and 64-bit counters' '
	cat >carry.c <<-\EOF &&
	volatile unsigned char x;
	volatile unsigned long n = 70000;
	int main(void) { for (unsigned long i = 0; i < n; i++) x++; return 0; }
	EOF
	for opt in -O0 -Os; do
		for bits in 32 64; do
			avr_cc $opt -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits=$bits carry.c \
				-o carry$opt$bits.elf &&
			roi_avr carry$opt$bits.elf >/dev/null &&
			"$ROI" estimate --json carry$opt$bits.elf >carry.json 2>/dev/null &&
			test_equal 70000 "$(jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" carry.json)" &&
			counters=$(avr_unit carry$opt$bits.elf | jq ".functions[0].edges | length") &&
			# each counter: its low byte incremented inline, the carry a call of the routine
			# that increments the other bytes (one copy for the firmware)
			avr-objdump -d carry$opt$bits.elf >carry.dis &&
			test_equal $counters "$(grep -c "call.*<__roi_avr_carry${bits}_1>$" carry.dis)" &&
			test_equal $((counters + bits / 8 - 1)) "$(grep -c "inc	r0" carry.dis)" || return 1
		done
	done
'

# The 16-bit increment is an asm too (two bytes through r0, the high one only when the low one
# wraps, 253 times in 65000 turns), which saturates where the high byte wraps as well. (A
# volatile bound, as above.)
test_expect_success 'the 16-bit increments carry exactly: 65000 turns' '
	cat >carry16.c <<-\EOF &&
	volatile unsigned char x;
	volatile unsigned long n = 65000;
	int main(void) { for (unsigned long i = 0; i < n; i++) x++; return 0; }
	EOF
	for opt in -O0 -Os; do
		avr_cc $opt -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits=16 carry16.c -o carry16$opt.elf &&
		roi_avr carry16$opt.elf >/dev/null &&
		"$ROI" estimate --json carry16$opt.elf >carry16.json 2>err &&
		! test -s err &&
		test_equal 65000 "$(jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" carry16.json)" &&
		counters=$(avr_unit carry16$opt.elf | jq ".functions[0].edges | length") &&
		avr-objdump -d carry16$opt.elf >carry16.dis &&
		test_equal $counters "$(grep -c "call.*<__roi_avr_carry16_1>$" carry16.dis)" &&
		test_equal $((counters + 1)) "$(grep -c "inc	r0" carry16.dis)" || return 1
	done
'

test_expect_success '16-bit counters stick at 65535 and are reported as lower bounds' '
	cat >sat.c <<-\EOF &&
	volatile unsigned char x;
	int main(void) { for (unsigned long i = 0; i < 70000; i++) x++; return 0; }
	EOF
	avr_cc -O0 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits=16 sat.c -o sat.elf &&
	roi_avr --json sat.elf >sat.json 2>err &&
	test_grep "^roi: warning: [0-9]* counters* of function main saturated at 65535: counts are lower bounds$" err &&
	test_equal "\"main\"" "$(jq ".saturated[0].function" sat.json)" &&
	test_grep " 65535" sat.elf.roi
'

test_expect_success 'not an AVR ELF: a clear error' '
	echo "int main(void) { return 0; }" >host.c &&
	gcc host.c -o host &&
	test_must_fail roi_avr host 2>err &&
	test_grep "^roi: host: an x86-64 ELF, not AVR (--target avr)$" err
'

test_expect_success 'an AVR ELF built without the plugin: a clear error' '
	avr_cc -O0 "$EXAMPLES/matrix/matrix.c" -o noplugin.elf &&
	test_must_fail roi_avr noplugin.elf 2>err &&
	test_grep "^roi: noplugin.elf: no roi metadata" err
'

test_expect_success 'a counter array missing from the symbol table, or of the wrong size' '
	sym=$(avr-nm fw/matrix.elf | sed -n "s/.* b \(__roi_c_.*_0\)$/\1/p") &&
	avr-objcopy -N "$sym" fw/matrix.elf nosym.elf &&
	test_must_fail roi_avr nosym.elf 2>err &&
	test_grep "^roi: nosym.elf: no symbol $sym (the counters of function main)$" err &&
	# the metadata of a counter per block (same unit and blocks, more counters) on the firmware
	# that counts edges
	avr_cc -O0 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-counters "$EXAMPLES/matrix/matrix.c" -o blocks.elf &&
	avr-objcopy --dump-section .roi.meta=blocks-meta.bin blocks.elf /dev/null &&
	avr-objcopy --update-section .roi.meta=blocks-meta.bin fw/matrix.elf mixed.elf &&
	test_must_fail roi_avr mixed.elf 2>err &&
	test_grep "^roi: mixed.elf: counter array $sym of function main has [0-9]* bytes, expected [0-9]* ([0-9]* blocks of 32 bits)$" err
'

test_expect_success 'a firmware that never stops hits --max-cycles' '
	echo "int main(void) { for (;;); }" >forever.c &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" forever.c -o forever.elf &&
	test_must_fail roi_avr --max-cycles 100000 forever.elf 2>err &&
	test_grep "^roi: forever.elf: no stop after 100000 cycles (--max-cycles); the firmware may loop forever$" err &&
	test ! -f forever.elf.roi
'

test_expect_success 'a crashing firmware names the PC; simavr stays quiet otherwise' '
	cat >badwrite.c <<-\EOF &&
	int main(void) { *(volatile char *)0x1000 = 1; return 0; }
	EOF
	avr_cc -O0 -fplugin="$AVR_PLUGIN" badwrite.c -o badwrite.elf &&
	# simavr makes the stray write after reporting it: it must land in simavr'"'"'s memory, not
	# in roi'"'"'s heap, every time (it crashed roi in about every other run)
	for i in 1 2 3 4 5 6 7 8; do
		test_must_fail roi_avr badwrite.elf >out-crash 2>err &&
		test_grep "^roi: badwrite.elf: the firmware crashed at PC 0x[0-9a-f]* after [0-9]* cycles (simavr: .*out of ram)$" err &&
		test_equal 1 "$(wc -l <err)" &&
		test ! -s out-crash || return 1
	done
'

test_expect_success 'bad options: unknown MCU (exit 1), missing --mcu or unknown target (exit 2)' '
	test_must_fail roi_avr --mcu atmega9999 fw/matrix.elf 2>err &&
	test_grep "^roi: unknown MCU .atmega9999. (simavr knows atmega128, .*atmega" err &&
	rc=0 && "$ROI" run --target avr fw/matrix.elf 2>err || rc=$? &&
	test_equal 2 $rc "exit status" && test_grep "missing --mcu" err &&
	rc=0 && "$ROI" run --target arm --mcu x fw/matrix.elf 2>err || rc=$? &&
	test_equal 2 $rc "exit status" && test_grep "unknown target .arm." err &&
	rc=0 && roi_avr --max-cycles 0 fw/matrix.elf 2>err || rc=$? &&
	test_equal 2 $rc "exit status"
'

test_expect_success '--cycles-only: a hand-counted firmware takes exactly 17 cycles' '
	cat >hand.S <<-\EOF &&
		.text
		.global main
	main:
		nop                 ; 1 cycle
		ldi r16, 5          ; 1
	1:	dec r16             ; 1, five times
		brne 1b             ; 2 when taken (4 times), 1 when not (once)
		cli                 ; 1: 1 + 1 + 5 + 9 + 1 = 17
	2:	rjmp 2b             ; the stop, as avr-libc ends exit()
	EOF
	avr-gcc -mmcu=atmega32u4 -nostartfiles -nostdlib hand.S -o hand.elf &&
	"$ROI" run --target avr --mcu atmega32u4 --cycles-only hand.elf >out &&
	test_grep "stopped after 17 cycles" out &&
	! test -e hand.elf.roi
'

test_expect_success '--cycles-only: the plain matrix takes fewer cycles than the counted one' '
	avr-gcc -mmcu=atmega32u4 -O0 "$EXAMPLES/matrix/matrix.c" -o plain-O0.elf &&
	avr-gcc -mmcu=atmega32u4 -O0 -fplugin="$ROI_BUILD/avr/roi.so" "$EXAMPLES/matrix/matrix.c" -o counted-O0.elf &&
	plain=$("$ROI" run --target avr --mcu atmega32u4 --cycles-only --json plain-O0.elf | jq .cycles) &&
	counted=$("$ROI" run --target avr --mcu atmega32u4 --json counted-O0.elf | jq .cycles) &&
	test "$plain" -gt 0 && test "$plain" -lt "$counted" &&
	test_must_fail "$ROI" run --target avr --mcu atmega32u4 --cycles-only --output x.roi plain-O0.elf 2>err &&
	test_grep "^roi run: --cycles-only goes without --output" err
'

test_expect_success 'the exit status: main'"'"'s return value, exit()'"'"'s argument, abort()' '
	cat >status.c <<-\EOF &&
	#include <stdlib.h>
	volatile int how;
	int main(void)
	{
		if (how == 1)
			exit(-300);
		if (how == 2)
			abort();
		return how == 0 ? 42 : 0;
	}
	EOF
	avr_cc -O2 -fplugin="$AVR_PLUGIN" status.c -o status.elf &&
	roi_avr --json status.elf >st.json 2>err &&
	test_equal "\"exit\" 42" "$(jq -r "[(.stop_reason | tojson), .exit_status] | join(\" \")" st.json)" &&
	test_grep "^roi: warning: status.elf: the firmware exited with status 42$" err &&
	# how = 1 and 2 in the firmware'"'"'s .data: the same code, other values
	for how in 1 2; do
		sed "s/^volatile int how;/volatile int how = $how;/" status.c >status$how.c &&
		avr_cc -O2 status$how.c -o status$how.elf &&
		"$ROI" run --target avr --mcu atmega32u4 --cycles-only --json status$how.elf >st$how.json 2>/dev/null ||
		return 1
	done &&
	test_equal -300 "$(jq .exit_status st1.json)" "exit(-300)" &&
	test_equal 1 "$(jq .exit_status st2.json)" "abort()" &&
	roi_avr --json fw/matrix.elf >m.json 2>err &&
	test_equal 0 "$(jq .exit_status m.json)" &&
	! test -s err &&
	test_equal null "$(jq .exit_status sleep.json)" "a sleep has no status"
'

test_expect_success 'a .mmcu section (simavr'"'"'s firmware settings): run, but no trace file is written' '
	mkdir -p inc/simavr/avr &&
	cp /usr/include/simavr/avr/avr_mcu_section.h inc/simavr/avr/ &&
	cat >mmcu.c <<-\EOF &&
	#include <avr/io.h>
	#include <simavr/avr/avr_mcu_section.h>
	AVR_MCU(16000000, "atmega32u4");
	AVR_MCU_VCD_FILE("trace.vcd", 1000);
	const struct avr_mmcu_vcd_trace_t trace[] _MMCU_ = { { AVR_MCU_VCD_SYMBOL("PORTB"), .what = (void *)&PORTB, } };
	volatile int x;
	int main(void) { for (int i = 0; i < 10; i++) { x += i; PORTB = i; } return 0; }
	EOF
	avr_cc -O1 -Iinc -fplugin="$AVR_PLUGIN" mmcu.c -o mmcu.elf &&
	avr-objdump -h mmcu.elf | grep -q " \.mmcu " &&
	roi_avr mmcu.elf &&
	! test -e trace.vcd && ! test -e gtkwave_trace.vcd
'

# mmcu_with NAME BYTES: mmcu.elf with its .mmcu section replaced by BYTES (printf's escapes).
mmcu_with () {
	printf "$2" >"$1.bin" &&
	avr-objcopy -R .mmcu --add-section .mmcu="$1.bin" mmcu.elf "$1.elf"
}

test_expect_success '.mmcu records simavr would read or write out of bounds are refused' '
	mmcu_with past "\002\004\000\044\364\000\001\010ab" &&
	test_must_fail roi_avr past.elf 2>err &&
	test_grep "^roi: past.elf: damaged ELF file: section [0-9]*: the .mmcu record at offset 6 runs past the end of the section$" err &&
	mmcu_with nonul "\001\012atmega32u4" &&
	test_must_fail roi_avr nonul.elf 2>err &&
	test_grep "record at offset 0 is a string without its NUL$" err &&
	mmcu_with short "\002\002\000\044" &&
	test_must_fail roi_avr short.elf 2>err &&
	test_grep "record at offset 0 is a number shorter than 4 bytes$" err &&
	t="\016\010\377\045\000PB00\000" &&
	mmcu_with traces "$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t$t" &&
	test_must_fail roi_avr traces.elf 2>err &&
	test_grep "record at offset 320 is a trace beyond simavr'"'"'s 32$" err
'

test_expect_success 'a header whose section name index simavr would take as is (SHN_XINDEX)' '
	# valid ELF: the index moves to section 0'"'"'s sh_link; simavr 1.6 reads the raw
	# header and crashes on the NULL names
	cp mmcu.elf xindex.elf &&
	shoff=$(od -An -tu4 -j32 -N4 xindex.elf | tr -d " ") &&
	idx=$(od -An -tu2 -j50 -N2 xindex.elf | tr -d " ") &&
	printf "$(printf "\\\\%03o\\\\%03o\\\\000\\\\000" $((idx & 255)) $((idx >> 8)))" |
		dd of=xindex.elf bs=1 seek=$((shoff + 24)) conv=notrunc status=none &&
	printf "\377\377" | dd of=xindex.elf bs=1 seek=50 conv=notrunc status=none &&
	avr-readelf -S xindex.elf >/dev/null &&
	test_must_fail roi_avr xindex.elf 2>err &&
	test_grep "^roi: xindex.elf: damaged ELF file: its header names section 65535 as the section name table, which is $idx$" err
'

# programs/values.c by hand: 23 bits shifted, 27 bytes set, 23 copied, 27 measured by strlen, 16 + 44
# passes of the 64-bit shift routine, 2 x 10 alignment passes of __addsf3 and __subsf3 (t0240 has
# the host's).
test_expect_success 'value counters in simavr: the sums of shift amounts and lengths by hand' '
	for opt in -O0 -Os; do
		avr_cc $opt -fplugin="$ROI_BUILD/avr/roi.so" "$TEST_DIRECTORY/programs/values.c" -o values.elf &&
		roi_avr values.elf >/dev/null &&
		"$ROI" estimate --json values.elf >values.json &&
		test_equal 103 "$(op_count values.json steps)" "$opt bits shifted, 64-bit and float passes" &&
		test_equal 60 "$(op_count values.json steps u64)" "$opt 64-bit passes" &&
		test_equal 20 "$(op_count values.json steps f32)" "$opt float alignment passes" &&
		test_equal 27 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memset\") | .count] | add" values.json)" &&
		test_equal 23 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memcpy\") | .count] | add" values.json)" &&
		test_equal 27 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"strlen\") | .count] | add" values.json)" ||
		return 1
	done
'

# programs/divisions.c by hand, in avr's 16-bit int: 16-bit quotients of 5 (a16 / b16), 7 (s16 %
# t16, in magnitude) and 3 (a16 % c16) one bits, 32-bit ones of 32, 7 and 15 (x / d with x % d,
# one call when optimising, two at -O0), three turns. The steps are counted by the plugin's copies
# of __udivmodhi4 and __udivmodsi4, which the signed routines call: the program checks every
# quotient and remainder and exits 0 only if all are right.
test_expect_success 'the division routines count the steps that subtract: quotients'"'"' 1 bits by hand' '
	for opt in -O0 -Os -O2; do
	for bits in 32 16; do
		avr_cc $opt -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits=$bits \
			"$TEST_DIRECTORY/programs/divisions.c" -o div.elf &&
		roi_avr div.elf >out 2>err &&
		test_cmp /dev/null err &&
		"$ROI" estimate --json div.elf >div.json &&
		test_equal 45 "$(op_count div.json qbits u16)" "$opt $bits-bit counters: 16-bit quotient bits" &&
		if test "$opt" = -O0; then want=207; else want=162; fi &&
		test_equal $want "$(op_count div.json qbits u32)" "$opt $bits-bit counters: 32-bit quotient bits" ||
		return 1
	done
	done
'

cat >divconst.c <<\CEOF
#include <stdint.h>
volatile uint16_t v16 = 50000, one = 1;
volatile uint32_t sink;
int main(void)
{
	uint32_t acc = 0;
	for (uint16_t i = 0; i < 4100; i++)
		acc += (uint16_t) (v16 / 10) + (uint16_t) (0xffffu / one);
	sink = acc;
	return acc != 4100UL * (5000 + 65535);
}
CEOF

# At -O0 avr-gcc divides a 16-bit value by a constant with a reciprocal multiply: no division
# routine runs, so the v16 / 10 has no steps, whichever the counters' width (16-bit counters once
# counted the quotient's 1 bits in GIMPLE, 5000 = 0x1388: 5 a turn). 0xffff / one takes 16
# subtracting steps, 4100 x 16 = 65600 in all, which a 16-bit counter saturates at 65535.
test_expect_success 'quotient bits are the routine'"'"'s steps at every counter width; 16 bits saturate' '
	avr_cc -O0 -fplugin="$AVR_PLUGIN" divconst.c -o divconst32.elf &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits=16 divconst.c -o divconst16.elf &&
	test_equal 1 "$(avr-objdump -d divconst32.elf | grep -c "call.*<__udivmodhi4>")" \
		"call sites of __udivmodhi4: the variable divisor only" &&
	roi_avr divconst32.elf >/dev/null && "$ROI" estimate --json divconst32.elf >d32.json &&
	roi_avr divconst16.elf >/dev/null 2>err16 && "$ROI" estimate --json divconst16.elf >d16.json 2>>err16 &&
	test_equal 65600 "$(op_count d32.json qbits u16)" "32-bit counters" &&
	test_equal 65535 "$(op_count d16.json qbits u16)" "16-bit counters, saturated" &&
	test_grep "saturated" err16
'

cat >prologue.c <<\CEOF
#include <stdint.h>
struct blob { uint8_t b[12]; };
volatile uint64_t in64 = 5;
volatile uint8_t in8 = 9;
struct blob g1, g2;
static uint64_t mix(uint64_t a, uint64_t b) { return a * 31 + (b >> 3); }
static uint8_t leaf(uint8_t x) { return (uint8_t) (x + 1); }
static void copy(void) { g1 = g2; }
int main(void)
{
	uint64_t r = mix(in64, in64);
	uint8_t i, s = 0;
	for (i = 0; i < 3; i++) {
		copy();
		s = (uint8_t) (s + leaf(in8));
	}
	return (int) (r + s) - 190;
}
CEOF

# What each function saves and allocates, by avr-gcc's own account: the pushes of callee-saved
# registers (r2-r17, r28, r29) before "prologue: function" in its assembly, and the "frame size"
# comment after it. The same flags compile the same code, so -S and -c agree. mix (64-bit
# arithmetic) saves the most; main calls copy and leaf 3 times each.
test_expect_success 'saved registers and frame sizes are those of the prologue avr-gcc writes' '
	for opt in -O0 -Os; do
		avr_cc $opt -fno-inline -fplugin="$AVR_PLUGIN" -S prologue.c -o prologue$opt.s &&
		avr_cc $opt -fno-inline -fplugin="$AVR_PLUGIN" prologue.c -o prologue$opt.elf &&
		awk "/^[a-z_]*:\$/ { f = substr(\$1, 1, length(\$1) - 1); n = 0; pro = 1 }
		     pro && /^\tpush r([2-9]|1[0-7]|2[89])\$/ { n++ }
		     /prologue: function/ { pro = 0 }
		     /frame size = / { print f, n, \$5 }" prologue$opt.s | sort >want$opt &&
		avr_unit prologue$opt.elf | jq -r ".functions[] | \"\(.asm) \(.saved) \(.frame)\"" |
			sort >got$opt &&
		test_cmp want$opt got$opt || return 1
	done &&
	test_grep "^mix " want-O0 && test $(sed -n "s/^mix \([0-9]*\) .*/\1/p" want-O0) -ge 16
'

test_expect_success 'the estimate counts them once per call, and a struct copy per byte' '
	roi_avr prologue-O0.elf >/dev/null &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-O0.json" prologue-O0.elf >pro.json &&
	saves=0 frames=0 &&
	while read -r f n size; do
		c=$(fn_calls pro.json $f) &&
		saves=$((saves + c * n)) &&
		if test "$size" -gt 0; then frames=$((frames + c)); fi || return 1
	done <want-O0 &&
	test_equal "$saves" "$(op_count pro.json save)" &&
	test_equal "$frames" "$(op_count pro.json frame)" &&
	test_equal 36 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == null) | .count] | add" pro.json)" \
		"3 copies of 12 bytes"
'

# A frame below 8 bytes is made with pushes and freed with a pop per byte, so its size is the
# operation's operand. leaf's frame at -O0 is its parameter's byte (want-O0 says 1), made by
# "push __zero_reg__" (2 cycles), pointed at by "in r28"/"in r29" (1 each) and freed by
# "pop __tmp_reg__" (2): 6 cycles a call in the derived model. The 32 bytes of mix and the 10 of
# main move the stack pointer: "in" twice, "sbiw" (2), SREG saved around "cli" and three "out"
# (5) in the prologue, "adiw" (2) and the same 5 in the epilogue, 16 cycles whatever the size.
test_expect_success 'a small frame is priced by its size: leaf 1 byte, 6 cycles a call' '
	test_grep "^leaf [0-9]* 1\$" want-O0 && test_grep "^mix [0-9]* 32\$" want-O0 &&
	test_grep "^main [0-9]* 10\$" want-O0 &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4.json" prologue-O0.elf >base.json &&
	test_equal 3 "$(fn_calls base.json leaf)" && test_equal 1 "$(fn_calls base.json mix)" &&
	test_equal 5 "$(op_count base.json frame)" &&
	test_equal $((3 * 6 + 2 * 16)) "$(jq "[.ops[] | select(.kind == \"frame\") | .cycles] | add" base.json)"
'

cat >narrow.c <<\CEOF
#include <stdint.h>
volatile uint32_t in32 = 0x12345678;
volatile uint16_t out;
int main(void)
{
	uint32_t x = in32;
	uint8_t lo = (uint8_t) x;
	uint16_t mid = (uint16_t) x;
	out = (uint16_t) (lo + mid + (uint16_t) (x >> 8));
	return 0;
}
CEOF

# At -O0 every use of a variable reads its frame slot, but a conversion to a narrower type reads
# only the bytes it keeps: lo and mid read 1 and 2 bytes of x, the shift all 4. The frame loads'
# bytes (1 + 2 for the narrowings, 1 + 2 for lo and mid, 4 for x) are the "ldd rN,Y+k" avr-gcc
# writes: 10.
test_expect_success 'at -O0 a narrowed variable is read in the narrow width, as avr-gcc does' '
	avr_cc -O0 -S narrow.c -o narrow.s &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" narrow.c -o narrow.elf &&
	roi_avr narrow.elf >/dev/null &&
	"$ROI" estimate --json narrow.elf >narrow.json &&
	test_equal 10 "$(grep -c "ldd r[0-9]*,Y+" narrow.s)" "by hand" &&
	test_equal 10 "$(jq "[.ops[] | select(.kind == \"load\" and .access == \"frame\") |
		.count * (.type | ltrimstr(\"u\") | ltrimstr(\"i\") | tonumber / 8)] | add" narrow.json)"
'

cat >spill.c <<\CEOF
#include <stdint.h>
volatile uint32_t in32 = 12345;
volatile uint32_t out32;
int main(void)
{
	uint32_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7;
	uint8_t i;
	for (i = 0; i < 10; i++) {
		uint32_t x = in32;
		a += x; b ^= x; c += a; d ^= b; e += c ^ d; f += e; g ^= f + x;
	}
	out32 = a + b + c + d + e + f + g;
	return 0;
}
CEOF

# Eight live 32-bit values and a loop do not fit the ATmega32U4's registers at -Os: avr-gcc parks
# some in stack slots. No variable has its address taken and there is no array, so every ldd/std
# through Y in the assembly moves one byte of a spill slot: their number is the bytes of the
# "spills" rows. The loop body's spill traffic runs 10 times.
test_expect_success 'spill-slot traffic: the bytes avr-gcc moves through Y, per block and line' '
	avr_cc -Os -fplugin="$AVR_PLUGIN" -S spill.c -o spill.s &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" spill.c -o spill.elf &&
	avr_unit spill.elf | jq ".functions[0].spills" >spills.json &&
	test_equal "$(grep -cE "^	(ldd|std)	?.*Y\+" spill.s)" "$(jq "map(.[3]) | add" spills.json)" &&
	test $(jq "map(.[3]) | add" spills.json) -gt 0 &&
	roi_avr spill.elf >/dev/null &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-Os.json" spill.elf >spill-est.json &&
	loop=$(jq "[.[] | select(.[2] >= 9 and .[2] <= 10) | .[3]] | add" spills.json) &&
	rest=$(jq "[.[] | select(.[2] < 9 or .[2] > 10) | .[3]] | add // 0" spills.json) &&
	test_equal "$((loop * 10 + rest))" "$(op_count spill-est.json spill)"
'

# micro-compare-branch at -O1, a counter per block (the profile's counts are the blocks'): line 30
# is the first loop's "for"; when it ends, avr-gcc sets the second loop nest's hits, misses and
# index to 0 there and stores one of them in a stack slot out of ldd's reach, before it jumps into
# the nest: a spill and a far access on line 30, once a run. Between them and the jump lies an
# address the outer loop uses, hoisted out of it: it was expanded in the loop's block, which runs
# ten times, but the spill runs where it lies, with the block whose counter opens that code.
test_expect_success 'a spill runs with the block whose code it lies in, not with the insns moved there' '
	avr_cc -O1 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-counters \
		"$ROI_SRC/contrib/calibration/micro-compare-branch.c" -o hoist.elf &&
	roi_avr hoist.elf >/dev/null &&
	avr_unit hoist.elf | jq -r ".functions[0] | .spills + .far | .[] | select(.[2] == 30) | .[0]" >hoist.blocks &&
	test_equal 2 "$(wc -l <hoist.blocks | tr -d " ")" "a spill and a far access on line 30" &&
	for b in $(cat hoist.blocks); do
		test_equal 1 "$(awk -v b=$b "/^fn / { print \$(6 + b) }" hoist.elf.roi)" "block $b" || return 1
	done
'

cat >far.c <<\CEOF
extern void use(unsigned char *p, unsigned char *q);
unsigned char far_slots(void)
{
	unsigned char buf[100];
	unsigned char x;

	use(buf, &x);
	return x + buf[99];
}
void use(unsigned char *p, unsigned char *q) { p[99] = 7; *q = 5; }
int main(void) { return far_slots() != 12; }
CEOF

# buf takes Y+1..Y+100 and x Y+101: reading buf[99] and x, out of ldd'"'"'s reach (Y+63), avr-gcc
# brackets each with an adjustment of Y there and back (adiw/sbiw r28): two far accesses, and
# besides them only the prologue and the epilogue move Y. Run once, the estimate has them twice.
test_expect_success 'frame accesses beyond Y+63: the far ones avr-gcc moves Y for' '
	avr_cc -Os -fno-inline -fplugin="$AVR_PLUGIN" far.c -o far.elf &&
	avr_unit far.elf | jq "[.functions[] | select(.name == \"far_slots\") | .far[] | .[3]] | add" >far.n &&
	test_equal 2 "$(cat far.n)" &&
	avr-objdump -d far.elf | sed -n "/<far_slots>:/,/ret$/p" >far.dis &&
	test_equal $((2 + 2 * 2)) "$(grep -cE "(subi|adiw|sbiw)	r28" far.dis)" &&
	roi_avr far.elf >/dev/null &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-Os.json" far.elf >far-est.json &&
	test_equal 2 "$(op_count far-est.json far)"
'

cat >far-member.c <<\CEOF
struct big { unsigned char pad[70]; unsigned int a; unsigned char b; };
extern void fill(struct big *s);
unsigned int far_members(void)
{
	struct big s;

	fill(&s);
	return s.a + s.b + s.pad[2];
}
void fill(struct big *s) { s->a = 1000; s->b = 7; s->pad[2] = 3; }
int main(void) { return far_members() != 1010; }
CEOF

# At -O0 s.a and s.b lie past Y+63: avr-gcc computes each one's address into Z (movw, subi,
# sbci, movw) and loads through it; s.pad[2] is in reach (ldd Y+3): two far accesses, as many
# as the subi/sbci pairs on r24:r25 in far_members.
test_expect_success 'members of a local past Y+63, reached through a computed address, are far' '
	avr_cc -O0 -fno-inline -fplugin="$AVR_PLUGIN" far-member.c -o far-member.elf &&
	avr_unit far-member.elf |
	jq "[.functions[] | select(.name == \"far_members\") | .far[] | .[3]] | add" >far-member.n &&
	avr-objdump -d far-member.elf | sed -n "/<far_members>:/,/ret$/p" >far-member.dis &&
	test_equal 2 "$(grep -cE "sbci	r25" far-member.dis)" &&
	test_equal 2 "$(cat far-member.n)" &&
	roi_avr far-member.elf >/dev/null
'

cat >adjust.c <<\CEOF
#include <stdint.h>
struct rec { uint8_t tag; uint16_t when; uint8_t id; };
struct rec a[4] = {{1, 100, 7}, {2, 200, 8}, {3, 300, 9}, {4, 400, 10}};
__attribute__((noinline)) void copy(struct rec *to, const struct rec *from)
{
	to->when = from->when;
	to->id = from->id;
	to->tag = from->tag;
}
int main(void) { copy(&a[0], &a[3]); return a[0].when != 400; }
CEOF

# Two pointers live at once: avr-gcc puts one in Z (std Z+q) and the other in X, which has no
# displacement: it moves X to from->when and back around the load (adiw, ld X+, ld X, sbiw), and
# to from->id and back; from->tag is at X itself. Every adiw and sbiw of r26 in copy is such a
# move: their number is the "adjust" rows', and the run counts each once.
test_expect_success 'accesses through X at a displacement: the moves of X avr-gcc brackets them with' '
	avr_cc -Os -fplugin="$AVR_PLUGIN" adjust.c -o adjust.elf &&
	avr-objdump -d adjust.elf | sed -n "/<copy>:/,/ret$/p" >adjust.dis &&
	moves=$(grep -cE "(adiw|sbiw)	r26" adjust.dis) &&
	test $moves -gt 0 &&
	avr_unit adjust.elf | jq "[.functions[] | select(.name == \"copy\") | .adjust[] | .[3]] | add" >adjust.n &&
	test_equal $moves "$(cat adjust.n)" &&
	roi_avr adjust.elf >/dev/null &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-Os.json" adjust.elf >adjust-est.json &&
	test_equal $moves "$(op_count adjust-est.json adjust)"
'

cat >jumps.c <<\CEOF
#include <stdint.h>
volatile uint8_t in = 3;
volatile uint16_t out;
int main(void)
{
	uint16_t acc = 0;
	uint8_t i, x = in;

	for (i = 0; i < 10; i++) {
		if (i & 1)
			acc += i;
		else
			acc -= x;
		switch (i) {
		case 0: acc += 3; break;
		case 1: acc ^= 5; break;
		case 2: acc += x; break;
		case 3: acc -= 7; break;
		case 4: acc ^= x; break;
		case 5: acc += 11; break;
		case 6: acc -= x; break;
		case 7: acc += 13; break;
		default: acc ^= 17; break;
		}
		switch (x) {
		case 1: acc += 1; break;
		case 3: acc += 3; break;
		default: acc -= 1; break;
		}
	}
	out = acc;
	return 0;
}
CEOF

# At -O0 avr-gcc ends a block with an rjmp where the block after it is not its successor: the
# loop's entry to its condition (once), the then-arm past its else (i odd: 5 times), every case of
# the first switch but the default laid out last (i = 0 to 7: 8 times), every case of the second
# but its default (x = 3: 10 times): 24. The second switch's decision tree jumps to its default on
# one path through it: part of the switch, not a block's jump. Every other rjmp to a label in the
# assembly (not the long form of a branch, "brXX .+2") is in a "jumps" row.
test_expect_success 'jumps: the rjmp avr-gcc ends blocks with, and how often they run' '
	avr_cc -O0 -fplugin="$AVR_PLUGIN" -S jumps.c -o jumps.s &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" jumps.c -o jumps.elf &&
	avr_unit jumps.elf >unit.json &&
	rjmps=$(awk "/^\tbr[a-z][a-z] \.\+2/ { long = 1; next }
		/^\trjmp \.L/ && !long { n++ } { long = 0 } END { print n }" jumps.s) &&
	test_equal $((rjmps - 1)) "$(jq "[.functions[0].jumps[][3]] | add" unit.json)" &&
	roi_avr jumps.elf >/dev/null &&
	"$ROI" estimate --json jumps.elf >jumps.json &&
	test_equal 24 "$(op_count jumps.json jump)" "by hand"
'

cat >odd-sum.c <<\CEOF
#include <stdint.h>
uint16_t odd_sum(const uint8_t *a, uint8_t n)
{
	uint16_t s = 0;

	for (uint8_t i = 0; i < n; i++)
		if (a[i] & 1)
			s += a[i];
	return s;
}
CEOF

# Optimising, the loop's latch holds nothing but its counter and a jump back to the test: a
# forwarder that the uncounted code does not have. There the then-arm (line 8), which falls into
# the latch, ends with that jump itself, and an even element's branch goes straight to the test
# (a skip and an rjmp: a branch, not a block's jump). The rows name the uncounted code's jumps.
test_expect_success 'optimising, a jump the counters alone keep is not counted; the one it stands for is' '
	avr_cc -Os -S odd-sum.c -o odd-sum.s &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" -c odd-sum.c -o odd-sum.o &&
	jumps=$(awk "/^\t(br[a-z][a-z] \.\+2|sbrs|sbrc|sbis|sbic|cpse)/ { skip = 1; next }
		/^\trjmp \.L/ && !skip { n++ } /^\t[a-z]/ { skip = 0 } END { print n }" odd-sum.s) &&
	test_equal 1 "$jumps" &&
	avr_unit odd-sum.o >odd-sum.json &&
	test_equal "[[8,1]]" "$(jq -c "[.functions[0].jumps[] | [.[2], .[3]]]" odd-sum.json)"
'

cat >skip-arm.c <<\CEOF
#include <stdint.h>
uint8_t page[64];
void fill(uint8_t x)
{
	for (uint8_t i = 0; i < 64; i++) {
		x = (uint8_t) (x * 5u + 1u);
		page[i] = (x & 0x70u) ? x : 0;
	}
}
CEOF

# Uncounted, the then-arm of the ?: is one move that a branch skips: fill has no rjmp. Counted,
# the edge that skips the arm has a counter of its own, laid out after the arm, and the arm jumps
# over it to the store: a jump over nothing but a counter update, which the rows leave out.
test_expect_success 'optimising, a jump over nothing but counter updates is not counted' '
	avr_cc -Os -S skip-arm.c -o skip-arm.s &&
	test_equal 0 "$(grep -c "^	rjmp" skip-arm.s)" &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" -S skip-arm.c -o skip-arm-counted.s &&
	test $(grep -c "^	rjmp" skip-arm-counted.s) -gt 0 &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" -c skip-arm.c -o skip-arm.o &&
	avr_unit skip-arm.o >skip-arm.json &&
	test_equal "[]" "$(jq -c ".functions[0].jumps" skip-arm.json)"
'

# avr-gcc 5.4 runs no dead code elimination after the loop optimisers: at -Os kernel-conv2d's
# final GIMPLE keeps pointer additions that ivopts rewrote and nothing uses any more, which RTL
# deletes. They are no operations: the ptradd operations are the pointer additions of the raw dump
# less those whose name no other statement mentions.
test_expect_success 'optimising, a statement whose value nothing uses is not an operation' '
	avr_cc -Os -fdump-tree-optimized-raw -fplugin="$AVR_PLUGIN" \
		-c "$ROI_SRC/contrib/calibration/kernel-conv2d.c" -o conv2d.o &&
	dump=$(ls kernel-conv2d.c.*optimized) &&
	grep "gimple_assign <pointer_plus_expr" "$dump" |
		sed "s/.*pointer_plus_expr, \([^,]*\),.*/\1/" >sums &&
	: >dead &&
	while read n; do
		test $(grep gimple_ "$dump" | grep -c "[ ,<(]$n[,> )]") -gt 1 || echo $n >>dead
	done <sums &&
	test $(wc -l <dead) -gt 0 &&
	avr_unit conv2d.o >conv2d.json &&
	test_equal $(($(wc -l <sums) - $(wc -l <dead))) \
		"$(jq "[.ops as \$o | .functions[0].blocks[].ops[] | select(\$o[.[0]].kind == \"ptradd\") | .[3]] | add" conv2d.json)"
'

# avr-gcc 5.4's IPA-SRA makes sum4 of micro-call a version with its body at once (sum4.isra.0,
# an artificial declaration whose origin is sum4): the user's code, counted, and called once per
# round of main's loop, ROUNDS = 200 times.
test_expect_success 'a function GCC 5 versions with its body (IPA-SRA) is counted' '
	avr_cc -Os -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-verbose \
		"$ROI_SRC/contrib/calibration/micro-call.c" -o call-isra.elf 2>notes &&
	! grep "not counting" notes &&
	roi_avr call-isra.elf >/dev/null &&
	"$ROI" estimate --json call-isra.elf >call-isra.json &&
	test_equal 200 "$(jq ".functions[] | select(.name == \"sum4.isra.0\") | .calls" call-isra.json)"
'

# avr-gcc 5.4 makes a jump table of a switch from 7 cases on (avr_case_values_threshold): the
# first switch (8 cases and the default, 9 labels) is one, read through __tablejump2__; the second
# (3 labels) is a decision tree. The table's block is in "tables", and its switch is priced as the
# model's "table" entry, the other as the plain one: 10 runs of each.
test_expect_success 'a switch expanded as a jump table takes the operand "table"' '
	test_equal 1 "$(grep -c "__tablejump2__" jumps.s)" &&
	jq -c "[.ops as \$o | .functions[0].blocks | to_entries[] |
		select(any(.value.ops[]; \$o[.[0]].kind == \"switch\" and \$o[.[0]].cases == 9)) | .key]" \
		unit.json >want &&
	jq -c ".functions[0].tables" unit.json >got &&
	test_cmp want got &&
	model="$ROI_SRC/models/atmega32u4.json" &&
	table=$(jq "[.costs[] | select(.kind == \"switch\" and .operand == \"table\") | .cycles][0]" "$model") &&
	tree=$(jq "[.costs[] | select(.kind == \"switch\" and .operand == null) | .cycles][0]" "$model") &&
	test "$table" != "$tree" &&
	"$ROI" estimate --json --model "$model" jumps.elf >priced.json &&
	jq -e "([.ops[] | select(.kind == \"switch\") | .cycles] | add) - (10 * $table + 10 * $tree) |
		fabs < 1e-6" priced.json
'

cat >divmod.c <<\CEOF
#include <stdint.h>
volatile uint32_t in32 = 4000000000u;
volatile uint16_t in16 = 40000u;
volatile uint8_t digits[10];
volatile uint32_t out32;
int main(void)
{
	uint32_t x = in32;
	uint8_t n = 0;
	uint16_t a = in16, b = (uint16_t) (in16 / 3u);

	while (x) {
		digits[n++] = (uint8_t) (x % 10);
		x = x / 10;
	}
	out32 = (uint32_t) a * b;
	return 0;
}
CEOF

# At -Os avr-gcc computes a quotient and a remainder of the same operands with one call of
# __udivmodsi4, which returns both: the loop calls it once per digit, and the plugin gives the
# second of the pair the operand "paired" (10 digits of 4000000000: 10 times). The product of two
# extended uint16_t is a widening multiply, __umulhisi3, not __mulsi3: operand "widen". At -O0
# each of the pair is a call of its own, and no operand says otherwise.
test_expect_success 'a quotient and remainder share one call, a widened product is half-width' '
	avr_cc -Os -S divmod.c -o divmod.s &&
	test_equal 1 "$(grep -c "call __udivmodsi4" divmod.s)" &&
	test_equal 1 "$(grep -c "call __umulhisi3" divmod.s)" &&
	test_equal 0 "$(grep -c "call __mulsi3" divmod.s)" &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" divmod.c -o divmod.elf &&
	roi_avr divmod.elf >/dev/null &&
	"$ROI" estimate --json divmod.elf >divmod.json &&
	avr_unit divmod.elf | jq -c "[.ops[] | select(.operand == \"paired\" or .operand == \"widen\") |
		[.kind, .type, .operand]]" >got &&
	echo "[[\"div\",\"u32\",\"paired\"],[\"mul\",\"u32\",\"widen\"]]" >want &&
	test_cmp want got &&
	test_equal 10 "$(op_count divmod.json div u32)" &&
	test_equal 10 "$(op_count divmod.json mod u32)" &&
	avr_cc -O0 -fplugin="$AVR_PLUGIN" divmod.c -o divmod0.elf &&
	test_equal 0 "$(avr_unit divmod0.elf | jq "[.ops[] | select(.operand == \"paired\" or
		.operand == \"widen\")] | length")"
'

cat >mix.c <<\CEOF
volatile float in[4];
volatile float out;
__attribute__((noinline)) float mix(float a, float b, float c, float d)
{
	float s = a + b, t = c - d;
	return (s + t) - a + (b + d);
}
int main(void) { out = mix(in[0], in[1], in[2], in[3]); return 0; }
CEOF

# Counting a float add's alignment passes (values.c, above) must not change the code around it:
# on AVR one asm takes the exponents from the operands' registers and adds the passes to the
# counter through __tmp_reg__, with one scratch register, where GIMPLE arithmetic took callee-saved
# registers at -O0 and spilled at -Os. The counted mix saves the registers the plain one pushes,
# and its four adds and two subtracts are counted.
test_expect_success 'a float add'"'"'s count takes none of the registers the program saves' '
	for opt in -O0 -Os; do
		avr_cc $opt -S mix.c -o mix.s &&
		pushes=$(awk "/^mix:/,/ret/" mix.s | grep -c "^	push") &&
		avr_cc $opt -fplugin="$AVR_PLUGIN" mix.c -o mix.elf &&
		test_equal "$pushes" "$(avr_unit mix.elf | jq ".functions[] | select(.name == \"mix\") | .saved")" \
			"$opt registers saved" &&
		roi_avr mix.elf >/dev/null &&
		"$ROI" estimate --json mix.elf >mix.json &&
		test_equal 6 "$(($(op_count mix.json add f32) + $(op_count mix.json sub f32)))" \
			"$opt float adds and subtracts" || return 1
	done
'

# C promotes a shift's amount to int; avr-gcc shifts by its byte. A value counter given the int
# needs it whole in two registers: micro-shift-var's loop-invariant amounts, kept so beside its
# own values, made main spill (65 frame accesses through Y at -Os, 166 at -O2, where the plain
# build has 44), and kernel-time-convert's, int arithmetic (n % 5 * 2), 180 for 172. Given the
# byte the shift takes, the counted build accesses the frame as often as the plain one. So does a
# division's, read where GCC computes the division (micro-div32 at -Os: 82 for 46 when the asm took
# the quotient, which kept it computed where it is written).
frame_accesses () { avr-objdump -d "$1" | awk "/<main>:/,/^\$/" | grep -cE "(ldd|std).*Y\+|(ld|st)[[:space:]].*Y\$|, Y\$"; }
test_expect_success 'a shift amount'"'"'s count takes the byte the shift takes, a division'"'"'s no register' '
	for case in -Os:micro-shift-var -Os:kernel-block-float -Os:kernel-time-convert -O2:kernel-block-float \
		    -Os:micro-div32 -O2:micro-div32 -Os:kernel-itoa -Os:kernel-percent16; do
		opt=${case%%:*} prog=${case#*:} &&
		src="$TEST_DIRECTORY/../contrib/calibration/$prog.c" &&
		avr_cc $opt "$src" -o plain.elf &&
		avr_cc $opt -fplugin="$AVR_PLUGIN" "$src" -o counted.elf &&
		test_equal "$(frame_accesses plain.elf)" "$(frame_accesses counted.elf)" "$opt $prog: frame accesses in main" ||
		return 1
	done
'

# A firmware built for one part and simulated as another crashed or ran wrongly, as if the user's
# code were at fault; avr-libc records the part in .note.gnu.avr.deviceinfo.
test_expect_success 'a firmware built for another part than --mcu is refused, naming both' '
	printf "int main(void) { return 0; }\n" >part.c &&
	avr-gcc -mmcu=atmega328p -O0 -fplugin="$AVR_PLUGIN" part.c -o p328.elf &&
	test_must_fail roi_avr p328.elf 2>err &&
	test_grep "^roi: p328.elf: built for atmega328p (its .note.gnu.avr.deviceinfo), simulated as --mcu atmega32u4: run it with --mcu atmega328p, or build it with -mmcu=atmega32u4$" err &&
	test_must_fail roi_avr --cycles-only p328.elf 2>err &&
	test_grep "built for atmega328p" err &&
	"$ROI" run --target avr --mcu atmega328p p328.elf >out &&
	test_grep "stopped after" out
'


# A model's costs are its part's: a firmware priced with another part's or another architecture's
# model is an error (a host program is priced through the model's ABI: that stays).
test_expect_success 'a model of another part or architecture than the firmware'"'"'s is refused' '
	"$ROI" run --target avr --mcu atmega328p -o p328.roi p328.elf >/dev/null &&
	test_must_fail "$ROI" estimate --model atmega32u4-O0 p328.elf p328.roi 2>err &&
	test_grep "^roi: .*atmega32u4-O0.json: a model of ATmega32U4, p328.elf is built for atmega328p (its .note.gnu.avr.deviceinfo): price it with a model of its part$" err &&
	test_must_fail "$ROI" estimate --model stm32f401re p328.elf p328.roi 2>err &&
	test_grep "^roi: .*stm32f401re.json: a model of STM32F401RE (arm), p328.elf is built for avr: price it with a model of its part$" err &&
	avr-gcc -mmcu=atmega32u4 -O0 -fplugin="$AVR_PLUGIN" part.c -o p32u4.elf &&
	roi_avr -o p32u4.roi p32u4.elf >/dev/null &&
	"$ROI" estimate --model atmega32u4-O0 p32u4.elf p32u4.roi >out &&
	test_grep "^total " out
'

test_done
