#!/bin/sh
test_description='firmware: counters that carry across bytes, through the shared carry routine

On AVR a counter update increments (or adds to) the low byte inline, and where it wraps calls a
routine the whole firmware shares (gcc-plugin/roi-counters-avr.cc), which reads the counter'"'"'s
address back from the flash after the call and carries into the higher bytes, or saturates a
16-bit counter. The programs below carry across every byte boundary, by increments and by the
8- and 16-bit amounts a loop entry adds, on an ATmega32U4, on an ATmega1284P with its code past
64 KB (elpm through RAMPZ) and on an ATmega2560 with its code past 128 KB (a 3-byte return
address), at -O0 and -Os, with 32- and 16-bit counters. The counts are derived by hand from the C.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
line_count () {
	jq --argjson l "$2" '[.files[].lines[] | select(.line_number == $l) | .count] | add // 0' "$1"
}

# FAR: the number of 30000-byte tables in flash before the code (avr-libc's linker scripts put
# .progmem ahead of .text), to push the code past 64 KB (3) or 128 KB (5).
cat >carry.c <<'EOF_C'
#include <avr/pgmspace.h>
volatile unsigned char sink;
volatile unsigned long turns = 70000;
volatile unsigned calls = 300;
#define PAD(i) const char pad##i[30000] PROGMEM __attribute__((used)) = { i + 1 };
#if FAR >= 3
PAD(0) PAD(1) PAD(2)
#endif
#if FAR >= 5
PAD(3) PAD(4)
#endif
__attribute__((noinline)) void seventy(void)
{
	sink = 1;
}
__attribute__((noinline)) void three(void)
{
	sink = 2;
}
__attribute__((noinline)) void by8(unsigned char n)
{
	for (unsigned char i = 0; i < n; i++)
		sink = i;
}
__attribute__((noinline)) void by16(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink = i;
}
int main(void)
{
	for (unsigned long i = 0; i < turns; i++)
		seventy();
	for (unsigned i = 0; i < calls; i++) {
		three();
		by8(250);
		by16(260);
	}
	return 0;
}
EOF_C

# By hand: seventy's store (line 14) runs 70000 = 0x11170 times, carrying into the second and
# the third byte; three's (line 18) 300 = 0x12c, into the second; by8's (line 23) 300 x 250 =
# 75000 and by16's (line 28) 300 x 260 = 78000, which at -Os GCC counts by adding 250 (a byte)
# and 260 (two) on each entry of the loop. A 16-bit counter stops at 65535 (and roi says so).
for mcu in atmega32u4:0 atmega1284p:3 atmega2560:5; do
	far=${mcu#*:} mcu=${mcu%:*}
	test_expect_success "$mcu: every count by hand, -O0 and -Os, 32- and 16-bit counters" '
		for opt in -O0 -Os; do
			for bits in 32 16; do
				elf=$mcu$opt$bits.elf &&
				avr-gcc -mmcu=$mcu $opt -DFAR=$far -fplugin="$AVR_PLUGIN" \
					-fplugin-arg-roi-counter-bits=$bits carry.c -o $elf &&
				# the carry is the shared routine'"'"'s, at the code'"'"'s address
				avr-objdump -d $elf >$elf.dis &&
				test $(grep -c "call.*<__roi_avr_carry${bits}_1>$" $elf.dis) -ge 5 &&
				at=$(printf "%d" 0x$(avr-nm $elf | sed -n "s/^\([0-9a-f]*\) T seventy$/\1/p")) &&
				case $far in
				3) test $at -gt $((0x10000)) && grep -q "elpm" $elf.dis ;;
				5) test $at -gt $((0x20000)) && grep -q "elpm" $elf.dis ;;
				*) ! grep -q "elpm" $elf.dis ;;
				esac &&
				"$ROI" run --target avr --mcu $mcu $elf >/dev/null &&
				"$ROI" report --format gcov-json $elf >$elf.json 2>err &&
				test_equal 300 "$(line_count $elf.json 18)" "$opt $bits-bit three" || return 1
				if [ $bits = 32 ]; then
					test_equal 70000 "$(line_count $elf.json 14)" "$opt seventy" &&
					test_equal 75000 "$(line_count $elf.json 23)" "$opt by8" &&
					test_equal 78000 "$(line_count $elf.json 28)" "$opt by16" &&
					! test -s err || return 1
				else
					test_equal 65535 "$(line_count $elf.json 14)" "$opt 16-bit seventy" &&
					test_equal 65535 "$(line_count $elf.json 23)" "$opt 16-bit by8" &&
					test_equal 65535 "$(line_count $elf.json 28)" "$opt 16-bit by16" &&
					test_grep "saturated at 65535" err || return 1
				fi
			done
		done
	'
done

# The routine reads the address from the sts after the call, which the linker'"'"'s relaxation
# (-mrelax: a call in reach becomes an rcall, 2 bytes shorter) does not move.
test_expect_success 'with the linker'"'"'s relaxation the calls are rcalls, and every count the same' '
	for mcu in atmega32u4:0 atmega2560:5; do
		far=${mcu#*:} mcu=${mcu%:*} &&
		avr-gcc -mmcu=$mcu -Os -mrelax -DFAR=$far -fplugin="$AVR_PLUGIN" carry.c -o relax.elf &&
		avr-objdump -d relax.elf >relax.dis &&
		test $(grep -c "rcall.*<__roi_avr_carry32_1>$" relax.dis) -ge 5 &&
		! grep "	call.*<__roi_avr_carry" relax.dis &&
		"$ROI" run --target avr --mcu $mcu relax.elf >/dev/null &&
		"$ROI" report --format gcov-json relax.elf >relax.json &&
		test_equal "70000 300 75000 78000" "$(for l in 14 18 23 28; do line_count relax.json $l; done | tr "\n" " " | sed "s/ $//")" \
			"$mcu" || return 1
	done
'

# The routine saves what it takes: a loop that keeps its values in registers across the carries
# (n is volatile: the loop keeps its counter, whose low byte wraps 3 times in 1000 turns; GCC
# knows nothing of the call, inside an asm) computes what the same C computes on the host with
# the part's widths (unsigned: 16 bits, unsigned long: 32), and the plain build.
cat >regs.c <<'EOF_C'
#include <stdint.h>
volatile uint16_t n = 1000;
int main(void)
{
	uint32_t a = 1, b = 0;
	for (uint16_t i = 0; i < n; i++) {
		b += a ^ i;
		a = a * 3 + (b >> 3);
	}
	return (int)((a ^ b ^ (a >> 15) ^ (b >> 17)) & 0x7fff);
}
EOF_C
test_expect_success 'the values in registers across carries: the host'"'"'s and the plain build'"'"'s' '
	cc -O0 regs.c -o regs-host &&
	{ ./regs-host; want=$?; } &&
	for mcu in atmega32u4 atmega1284p atmega2560; do
		for opt in -O0 -Os; do
			avr-gcc -mmcu=$mcu $opt regs.c -o plain.elf &&
			avr-gcc -mmcu=$mcu $opt -fplugin="$AVR_PLUGIN" regs.c -o counted.elf &&
			avr-objdump -d counted.elf | grep -q "call.*<__roi_avr_carry32_1>$" &&
			"$ROI" run --json --target avr --mcu $mcu --cycles-only plain.elf >p.json 2>/dev/null &&
			"$ROI" run --json --target avr --mcu $mcu counted.elf >c.json 2>/dev/null &&
			"$ROI" report --format gcov-json counted.elf >r.json &&
			test_equal 1000 "$(jq "[.files[].lines[] | select(.line_number == 7) | .count] | add" r.json)" \
				"$mcu $opt turns" &&
			# (an exit status is the low 8 bits on the host)
			test_equal $want "$(($(jq .exit_status p.json) & 255))" "$mcu $opt plain" &&
			test_equal "$(jq .exit_status p.json)" "$(jq .exit_status c.json)" "$mcu $opt counted" || return 1
		done
	done
'

test_done
