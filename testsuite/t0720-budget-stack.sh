#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi budget: stack and ram-margin budgets, static figures that fail CI

A firmware whose worst case is known from simavr (a chain of calls, a timer
interrupt on top of the deepest one; t0485 checks the figures themselves):
"total stack", "function NAME stack" and "total ram-margin" budgets pass, warn
and fail against limits set from simavr'"'"'s peak and the part'"'"'s RAM, with no
profile needed; a figure roi can only bound (recursion) fails; every mistake
in the new grammar is one line.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

MCU=atmega32u4
cc -O2 $(pkg-config --cflags simavr 2>/dev/null || echo -I/usr/include/simavr) \
	"$TEST_DIRECTORY/simavr/sp-peak.c" -o sp-peak -lsimavr -lelf || exit 1

cat >fw.c <<'EOF'
#include <avr/interrupt.h>
#include <avr/io.h>

#define KEEP __attribute__((noinline, noclone))

volatile unsigned char sink, ticks;

KEEP void leaf(unsigned char v)
{
	volatile unsigned char buf[48];
	buf[v & 31] = v;
	TIMSK0 = 1 << TOIE0;
	while (!ticks)
		;
	TIMSK0 = 0;
	sink = buf[v & 31];
}

KEEP void mid(unsigned char v)
{
	volatile unsigned char buf[16];
	buf[v & 15] = v;
	leaf(v + 1);
	sink = buf[v & 15];
}

ISR(TIMER0_OVF_vect)
{
	volatile unsigned char buf[4];
	buf[ticks & 3] = ticks;
	ticks = buf[ticks & 3] + 1;
}

#ifdef DEEP
KEEP unsigned char deep(unsigned char k)
{
	volatile unsigned char pad[4];
	pad[k & 3] = k;
	return k ? pad[k & 3] + deep(k - 1) : 0;
}
#endif

int main(void)
{
	TCCR0B = 1 << CS00;
	sei();
	mid(3);
	cli();
#ifdef DEEP
	if (ticks == 0)
		sink = deep(sink);      /* never runs: ticks is 1 */
#endif
	return 0;
}
EOF

check () { "$ROI" budget check "$@"; }

test_expect_success 'setup: the firmware, its peak in simavr, its RAM by hand' '
	avr-gcc -mmcu=$MCU -O0 -DDEEP -fplugin="$ROI_BUILD/avr/roi.so" fw.c -o fw.elf &&
	./sp-peak fw.elf $MCU >peak &&
	test_grep "^main [0-9]*$" peak
'

test_expect_success 'a recursion main never reaches in the run still makes its figure a bound: it fails' '
	echo "total stack <= 2KiB" >b.txt &&
	status 3 check --budgets b.txt fw.elf &&
	test_grep "^  b.txt:1  total stack  *[0-9]* bytes  *2048 bytes  *[0-9.]*%  FAIL  *at least [0-9]* bytes (recursive): roi cannot bound it$" out
'

# The ATmega32U4: 2560 bytes of SRAM at 0x0100 (its datasheet), the stack from 0x0aff down, the
# data up to __bss_end: the margin is what is left between them at the deepest. roi's figures are
# simavr's peak and the frame of the counters' carry routine (gcc-plugin/roi-counters-avr.cc:
# the registers it pushes and its return address, read from its code), which every counted
# function calls where a counter's low byte wraps, at the bottom of main's path and of the
# handler's; none carries in this run.
test_expect_success 'without it: limits at the deepest pass (margin 0), one byte less fails' '
	avr-gcc -mmcu=$MCU -O0 -fplugin="$ROI_BUILD/avr/roi.so" fw.c -o fw2.elf &&
	./sp-peak fw2.elf $MCU __vector_23 >peak2 &&
	carry=$(($(avr-objdump -d fw2.elf | sed -n "/<__roi_avr_carry32_1>:$/,/ret$/p" | grep -c "	push	") + 2)) &&
	test_equal 5 $carry "the carry routine'"'"'s frame" &&
	p2=$(($(sed -n "s/^main //p" peak2) + 2 * carry)) &&
	i2=$(($(sed -n "s/^__vector_23 //p" peak2) + carry)) &&
	e2=$(printf "%d" 0x$(avr-nm fw2.elf | sed -n "s/^0080\([0-9a-f]*\) [BbD] __bss_end$/\1/p")) &&
	m2=$((0xb00 - e2 - p2)) &&
	echo $m2 >m2 &&
	cat >b.txt <<-EOF &&
	# fw2.elf on an ATmega32U4
	total stack <= ${p2}bytes
	function __vector_23 stack <= $i2 B
	total ram-margin >= ${m2}bytes
	EOF
	status 0 check --budgets b.txt fw2.elf &&
	test_grep "^profile   none: every budget is static (stack, ram-margin)$" out &&
	test_grep "^  b.txt:2  total stack  *$p2 bytes  *$p2 bytes  *0.0%  PASS$" out &&
	test_grep "^  b.txt:3  function __vector_23 stack  *$i2 bytes  *$i2 bytes  *0.0%  PASS$" out &&
	test_grep "^  b.txt:4  total ram-margin  *$m2 bytes  *$m2 bytes  *0.0%  PASS$" out &&
	cat >b.txt <<-EOF &&
	total stack <= $((p2 - 1))bytes
	total ram-margin >= $((m2 + 1))bytes
	function leaf stack <= 2KiB warn $((2048 - 100))B
	EOF
	status 3 check --budgets b.txt fw2.elf &&
	test_grep "^  b.txt:1  total stack  *$p2 bytes  *$((p2 - 1)) bytes  *-[0-9.]*%  FAIL  *over by 1 bytes$" out &&
	test_grep "^  b.txt:2  total ram-margin  *$m2 bytes  *$((m2 + 1)) bytes  *-0.0%  FAIL  *short by 1 bytes$" out &&
	test_grep "^  b.txt:3  function leaf stack  *[0-9]* bytes  *2048 bytes  *9[0-9].[0-9]%  PASS$" out &&
	test_grep "^result    FAIL: 3 budgets, 1 pass, 0 warn, 2 fail$" out
'

test_expect_success 'a floor warns within its margin above the limit; JSON and JUnit' '
	m2=$(cat m2) &&
	echo "total ram-margin >= $((m2 - 10))bytes warn $((m2 + 10)) B" >w.txt &&
	status 0 check --budgets w.txt fw2.elf &&
	test_grep "WARN  *below the warning level $((m2 + 10)) bytes$" out &&
	check --json --budgets w.txt --junit w.xml fw2.elf >w.json &&
	test_equal "ram-margin >= bytes null WARN $m2" \
		"$(jq -r ".results[0] | [.quantity, .compare, .unit, .per, .status, .value] | map(tostring) | join(\" \")" w.json)" &&
	test_equal null "$(jq .profile w.json)" &&
	grep "<testcase name=\"total ram-margin\" classname=\"roi.budget.w_txt\">" w.xml &&
	xmllint --noout --schema "$TEST_DIRECTORY/junit.xsd" w.xml
'

test_expect_success 'stack budgets beside run budgets: the run is needed, and read' '
	"$ROI" run --target avr --mcu $MCU fw2.elf >/dev/null &&
	printf "function mid ops:call <= 1ops\nfunction mid stack <= 1KiB\n" >mix.txt &&
	status 0 check --budgets mix.txt fw2.elf &&
	test_grep "^profile   ./fw2.elf.roi, 1 run$" out &&
	test_grep "function mid ops:call per run  *1 ops  *1 ops  *0.0%  PASS" out &&
	test_grep "function mid stack  *[0-9]* bytes  *1024 bytes" out
'

test_expect_success 'mistakes in stack and ram-margin budgets: one line each' '
	cat >bad.txt <<-\EOF &&
	region main:3 stack <= 10bytes
	function main ram-margin >= 10bytes
	total stack per run <= 10bytes
	total ram-margin <= 10bytes
	total stack >= 10bytes
	total stack <= 10ms
	total stack <= 10bytes model m.json
	total ram-margin >= 100bytes warn 50bytes
	EOF
	status 1 check --budgets bad.txt fw2.elf &&
	test_equal 8 "$(wc -l <err | tr -d " ")" "lines on stderr" &&
	test_grep "^roi: bad.txt:1:8: a loop has no stack of its own: limit its function.s (.function NAME stack.) or the total.s$" err &&
	test_grep "^roi: bad.txt:2:10: the RAM margin is the whole program.s: .total ram-margin >= AMOUNT.$" err &&
	test_grep "^roi: bad.txt:3:13: a stack budget has no .per.: it is the deepest the stack gets, not a sum$" err &&
	test_grep "^roi: bad.txt:4:18: expected .>=. and the bytes that must be left (the RAM margin is a floor), got .<=.$" err &&
	test_grep "^roi: bad.txt:5:13: a stack budget is a ceiling: .<=. and the limit (.>=. is for ram-margin)$" err &&
	test_grep "^roi: bad.txt:6:18: a stack limit is in bytes, B or KiB, got .ms. (time)$" err &&
	test_grep "^roi: bad.txt:7:24: a stack budget takes no model: it is read from the program$" err &&
	test_grep "^roi: bad.txt:8:35: the warning level 50 bytes is not above the limit 100 bytes$" err &&
	echo "function nosuch stack <= 1KiB" >missing.txt &&
	fails 1 "^roi: missing.txt:1:10: no function .nosuch. in fw2.elf (names match exactly)$" \
		check --budgets missing.txt fw2.elf
'

test_expect_success 'a host program has no RAM size: a ram-margin budget is an error, not a pass' '
	roi_link host "$ROI_SRC/testsuite/programs/loops.c" &&
	echo "total ram-margin >= 1KiB" >h.txt &&
	fails 1 "^roi: h.txt:1:1: no RAM size in host (roi reads it from an AVR ELF.s .note.gnu.avr.deviceinfo or a Cortex-M vector table)$" \
		check --budgets h.txt host
'

test_done
