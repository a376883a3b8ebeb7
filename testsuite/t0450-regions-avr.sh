#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='region hooks in simavr: cycle-exact region times

The simavr port (runtime/ports/roi-region-simavr.c) signals each enter and
exit through GPIOR0; roi run stamps every signal with the simulator cycle
counter. A region that runs 100 nops per call must measure exactly 100 cycles
per call more than an empty one: the rest is the constant cost of the hooks.'
. "$(dirname "$0")/test-lib.sh"

cat >regs.c <<'CEOF'
static void __attribute__((noinline)) empty(void) { __asm__ volatile (""); }
static void __attribute__((noinline)) hundred(void)
{
	__asm__ volatile (".rept 100\n\tnop\n.endr");
}
int main(void)
{
	for (unsigned char i = 0; i < 3; i++) {
		empty();
		hundred();
	}
	return 0;
}
CEOF
printf 'hooks include function empty\nhooks include function hundred\n' >f.txt

# region_total PROFILE INDEX: "CALLS TOTAL UNIT" of a region line
region_total () {
	awk -v i="$2" '$1 == "region" && $3 == i { print $4, $5, $6 }' "$1"
}

for O in -O0 -Os; do
	test_expect_success "at $O: 3 calls each, exactly 100 cycles per call apart" '
		avr-gcc -mmcu=atmega32u4 -Os -c "$ROI_SRC/runtime/ports/roi-region-simavr.c" -o port.o &&
		avr-gcc -mmcu=atmega32u4 '"$O"' -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-filter=f.txt \
			-c regs.c -o regs.o &&
		avr-gcc -mmcu=atmega32u4 regs.o port.o -o regs.elf &&
		"$ROI" run --target avr --mcu atmega32u4 regs.elf &&
		# the metadata numbers the regions in function order: empty, hundred
		set -- $(region_total regs.elf.roi 0) &&
		test_equal 3 "$1" && test_equal cycles "$3" && empty=$2 &&
		set -- $(region_total regs.elf.roi 1) &&
		test_equal 3 "$1" && hundred=$2 &&
		test_equal 300 $((hundred - empty)) "100 nops x 3 calls"
	'
done

# main_to_end ELF: simavr cycles from main's first instruction to the stop
main_to_end () {
	"$ROI" run --target avr --mcu atmega32u4 --json "$1" | jq '.cycles - .main_cycle'
}
hook_line () { sed -n "s/^$1 \([0-9.]*\) cycles$/\1/p" "$2"; }

test_expect_success 'roi run measures the hook cost: what the hooks add to the run, per pair' '
	# the same program without hooks: what is left of the difference is 6 pairs of hooks
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" -c regs.c -o plain.o &&
	avr-gcc -mmcu=atmega32u4 plain.o port.o -o plain.elf &&
	cost=$(hook_line hook-cost regs.elf.roi) && test -n "$cost" &&
	pairs=$(awk "\$1 == \"region\" { n += \$4 } END { print n }" regs.elf.roi) &&
	test_equal 6 "$pairs" &&
	test_equal "$(main_to_end regs.elf)" \
		"$(jq -n "$(main_to_end plain.elf) + $pairs * $cost")" "hooked = plain + pairs x hook-cost"
'

test_expect_success 'an empty region measures exactly hook-inside per call' '
	inside=$(hook_line hook-inside regs.elf.roi) &&
	set -- $(region_total regs.elf.roi 0) &&
	test_equal "$2" "$(jq -n "$1 * $inside")"
'

test_expect_success 'roi report shows the measured cycles beside the estimate' '
	"$ROI" report --model "$ROI_SRC/models/atmega32u4-Os.json" regs.elf >report &&
	# calls, ops, the estimate (cycles, energy), then measured, hook calls, overhead and the
	# net time: 3 calls x 100 nops, exactly
	grep -E "^  hundred +function +3 +[0-9]+ +[0-9.]+ +[0-9.]+ [pnum]?J .* [0-9]+ cycles +3 +[0-9]+ cycles +300 cycles" \
		report
'

test_expect_success 'the Timer1 port for hardware builds warning-free and links with the hooked program' '
	avr-gcc -mmcu=atmega32u4 -Os -Wall -Wextra -Werror -c "$ROI_SRC/runtime/ports/roi-region-timer1.c" -o timer1.o &&
	avr-gcc -mmcu=atmega32u4 regs.o timer1.o -o regs-timer1.elf &&
	avr-nm regs-timer1.elf >syms &&
	test_grep " T __roi_region_enter$" syms &&
	test_grep " T __vector_20$" syms
'

test_expect_success 'a hook naming no region is an error, not a wrong report' '
	cat >stray.c <<-CEOF &&
	#include <avr/io.h>
	int main(void) { GPIOR1 = 0x34; GPIOR2 = 0x12; GPIOR0 = 1; return 0; }
	CEOF
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-filter=f.txt stray.c -o stray.elf &&
	test_must_fail "$ROI" run --target avr --mcu atmega32u4 stray.elf 2>err &&
	test_grep "region hooks ran, but the roi metadata lists no regions" err
'

test_expect_success 'hooks of a callee are subtracted exactly: the caller'"'"'s net is its time without them' '
	cat >callee.c <<-\EOF &&
	static void __attribute__((noinline)) hundred(void)
	{
		__asm__ volatile (".rept 100\n\tnop\n.endr");
	}
	static void __attribute__((noinline)) outer(void)
	{
		for (unsigned char i = 0; i < 3; i++)
			hundred();
	}
	int main(void) { outer(); outer(); return 0; }
	EOF
	printf "hooks include function outer\nhooks include function hundred\n" >both.txt &&
	printf "hooks include function outer\n" >outer.txt &&
	for f in both outer; do
		avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-filter=$f.txt \
			callee.c port.o -o callee-$f.elf &&
		"$ROI" run --target avr --mcu atmega32u4 callee-$f.elf >/dev/null &&
		"$ROI" report --json callee-$f.elf >report-$f.json || return 1
	done &&
	# outer, entered twice, ran 6 pairs of hundred'"'"'s hooks inside
	test_equal "2 6" "$(awk "\$1 == \"region\" && \$4 == 2 { print \$4, \$7 }" callee-both.elf.roi)" &&
	net () { jq "[.. | objects | select(.id? == \"outer\" and .kind? == \"function\") | .region.net][0]" "$1"; } &&
	test_equal "$(net report-outer.json)" "$(net report-both.json)" "outer net, hundred hooked or not"
'

# A build that only times: no function counted, one hooked. hundred() runs 3 x 2 times; each call is
# its 100 nops plus its call and return, whatever the counters would cost, since there are none.
test_expect_success 'a hooks-only build (count exclude function glob:*) runs and is timed' '
	printf "count exclude function glob:*\nhooks include function hundred\n" >only.txt &&
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-filter=only.txt \
		callee.c port.o -o only.elf &&
	test_equal 0 "$("$ROI" ops --json only.elf | jq ".functions | length")" "counted functions" &&
	"$ROI" run --target avr --mcu atmega32u4 only.elf >out &&
	test_equal 6 "$(awk "\$1 == \"region\" { print \$4 }" only.elf.roi)" "calls of hundred" &&
	"$ROI" report only.elf >report &&
	test_grep "^  hundred  *function .* 6  .*not counted (filter)" report
'

test_done
