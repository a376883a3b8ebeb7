#!/bin/sh
test_description='roi estimate --price machine: float conversions priced by their normalisation passes

An integer-to-float or float-to-integer conversion of at most 32 bits is a
library routine on AVR (avr-libc'"'"'s __floatsisf, __floatunsisf, __fixsfsi,
__fixunssfsi) that normalises its result in passes that depend on the
operand'"'"'s magnitude. The plugin counts them (the value counter "norm",
docs/formats.md), an asm on AVR, an expression on the host; the machine
pricing prices each routine by the model'"'"'s slope over them. Here the
operands are of chosen magnitudes and the passes are derived by hand from
their leading zeros and exponents; the estimate is held against simavr'"'"'s
exact cycles of the plain firmware.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
MODELS=$ROI_SRC/models

# Passes by hand, per round:
#  int to float, of |x| with n significant bits: n - 24 above 24 bits, else (-n) & 7
#    (shifts left to the top of its top byte), 0 for 0:
#    0 -> 0; 5 (n 3) -> 5; -300 (n 9) -> 7; 1000000 (n 20) -> 4; -16777215 (n 24) -> 0;
#    100000000 (n 27) -> 3: 19 for __floatsisf; 3000000000 (n 32) -> 8, 4096 (n 13) -> 3: 11
#    for __floatunsisf;
#  float to int, of the biased exponent e: d / 8 + d % 8 for d = 150 - e from e = 127 to 150,
#    e - 150 above, 0 below:
#    0.75 (e 126) -> 0; 1.5 (e 127, d 23) -> 2 + 7; 300.25 (e 135, d 15) -> 1 + 7;
#    123456 (e 143, d 7) -> 7; -5e8 (e 155) -> 5: 29 for __fixsfsi; 3e9 (e 158) -> 8,
#    40000 (e 142, d 8) -> 1: 9 for __fixunssfsi.
# Ten rounds: 190, 110, 290 and 90.
cat >fconv.c <<'EOF'
#include <stdint.h>
volatile int32_t ints[6] = {0, 5, -300, 1000000L, -16777215L, 100000000L};
volatile uint32_t uints[2] = {3000000000UL, 4096};
volatile float floats[5] = {0.75f, 1.5f, 300.25f, 123456.0f, -5.0e8f};
volatile float ufloats[2] = {3.0e9f, 40000.0f};
volatile float f;
volatile int32_t i;
volatile uint32_t u;
int main(void)
{
	for (uint8_t r = 0; r < 10; r++) {
		for (uint8_t k = 0; k < 6; k++)
			f = (float) ints[k];
		for (uint8_t k = 0; k < 2; k++)
			f = (float) uints[k];
		for (uint8_t k = 0; k < 5; k++)
			i = (int32_t) floats[k];
		for (uint8_t k = 0; k < 2; k++)
			u = (uint32_t) ufloats[k];
	}
	return 0;
}
EOF
cat >want <<'EOF'
["__fixsfsi",50,290,"value"]
["__fixunssfsi",20,90,"value"]
["__floatsisf",60,190,"value"]
["__floatunsisf",20,110,"value"]
EOF

# builds NAME OPT: NAME-plain.elf, NAME.elf (counted) and NAME-blocks.elf
builds () {
	avr-gcc -mmcu=atmega32u4 "$2" fconv.c -o "$1-plain.elf" &&
	avr-gcc -mmcu=atmega32u4 "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-machine-values fconv.c -o "$1.elf" &&
	avr-gcc -mmcu=atmega32u4 "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-lines \
		fconv.c -o "$1-blocks.elf"
}
# machine NAME OPT PROFILE: the machine estimate of NAME with PROFILE, JSON
machine () {
	"$ROI" estimate --json --price machine --firmware "$1-plain.elf" --block-lines "$1-blocks.elf" \
		--model "$MODELS/atmega32u4-${2#-}.json" "$1.elf" "$3"
}
routines () {
	jq -c '.routines[] | [.routine, .calls, .value, .priced_by]' "$1" | sort
}
simavr_cycles () {
	"$ROI" run --target avr --mcu atmega32u4 --cycles-only --json "$1" | jq ".cycles - .main_cycle"
}
# within EST SIM PERCENT
within () {
	jq -n -e "(($1) - ($2)) / ($2) | fabs * 100 <= $3" >/dev/null ||
	{ echo "estimate $1 against simavr's $2: more than $3 % off" >&2; return 1; }
}

for opt in -O0 -O2 -Os; do
	test_expect_success "the passes counted in simavr at $opt are those by hand; within 0.5 % of simavr" '
		builds fc$opt $opt &&
		"$ROI" run --target avr --mcu atmega32u4 -o fc$opt.roi fc$opt.elf >/dev/null &&
		machine fc$opt $opt fc$opt.roi >est.json &&
		routines est.json >got &&
		test_cmp want got &&
		within "$(jq .total.cycles est.json)" "$(simavr_cycles fc$opt-plain.elf)" 0.5
	'
done

# Narrower integers: the AVR asm reads the operand in its own 8 or 16 bits. By hand, per round:
# int16_t -32768 (|x| 2^15, n 16) -> 0, -1 (n 1) -> 7, 300 (n 9) -> 7: 14; uint8_t 0 -> 0, 1 -> 7,
# 200 (n 8) -> 0: 7; uint16_t 65535 (n 16) -> 0, 256 (n 9) -> 7: 7; int8_t -128 (n 8) -> 0, -3
# (n 2) -> 6: 6. Ten rounds; the value counters end the profile in the order of their statements.
cat >narrow.c <<'EOF'
#include <stdint.h>
volatile int16_t s16[3] = {-32768, -1, 300};
volatile uint8_t u8[3] = {0, 1, 200};
volatile uint16_t u16[2] = {65535u, 256};
volatile int8_t s8[2] = {-128, -3};
volatile float f;
int main(void)
{
	for (uint8_t r = 0; r < 10; r++) {
		for (uint8_t k = 0; k < 3; k++)
			f = (float) s16[k];
		for (uint8_t k = 0; k < 3; k++)
			f = (float) u8[k];
		for (uint8_t k = 0; k < 2; k++)
			f = (float) u16[k];
		for (uint8_t k = 0; k < 2; k++)
			f = (float) s8[k];
	}
	return 0;
}
EOF

test_expect_success 'the passes of 8- and 16-bit integers, signed and not, counted in simavr, are those by hand' '
	avr-gcc -mmcu=atmega32u4 -O0 -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-machine-values narrow.c -o narrow.elf &&
	"$ROI" run --target avr --mcu atmega32u4 -o narrow.roi narrow.elf >/dev/null &&
	test_equal "140 70 70 60" "$(grep "^fn" narrow.roi | awk "{ print \$(NF - 3), \$(NF - 2), \$(NF - 1), \$NF }")"
'

# With 16-bit counters, which saturate, the AVR counters are no asms: the passes are the
# expression other targets count them by, here the form without a clz instruction (Cortex-M0+'s:
# five comparisons, no table and no libgcc call).
test_expect_success 'the passes by the expression without clz (16-bit counters) are those by hand' '
	avr-gcc -mmcu=atmega32u4 -Os -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-machine-values -fplugin-arg-roi-counter-bits=16 \
		fconv.c -o fc16.elf &&
	! avr-objdump -d fc16.elf | grep -q "call.*__clz" &&
	"$ROI" run --target avr --mcu atmega32u4 -o fc16.roi fc16.elf >/dev/null &&
	"$ROI" estimate --json --price machine --firmware fc-Os-plain.elf --block-lines fc-Os-blocks.elf \
		--model "$MODELS/atmega32u4-Os.json" fc16.elf fc16.roi >est.json &&
	routines est.json >got &&
	test_cmp want got
'

# The host counts the same passes by its own expression (x86-64: __builtin_clz), carried onto the
# firmware by roi transfer. (Only the passes: roi transfer gives the loops of two trips 40 runs of
# their body where simavr counts 20, a miss of its own, not of the passes.)
test_expect_success 'the passes counted on the host, transferred onto the firmware, are those by hand' '
	gcc -O0 -g -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-machine-values fconv.c "$ROI_LIB" -o fconv-host && ./fconv-host &&
	"$ROI" transfer -o fc-t.roi fc-Os.elf fconv-host fconv-host.roi >/dev/null &&
	machine fc-Os -Os fc-t.roi >est.json &&
	jq -c ".routines[] | [.routine, .value, .priced_by]" est.json | sort >got &&
	jq -c "[.[0], .[2], .[3]]" want >want-values &&
	test_cmp want-values got
'

# Cortex-M4 counts them by clz and the tables (__roi_norm_int, __roi_norm_float): the profile of
# the counted firmware run in QEMU ends with the four value counters, in the order of their
# statements at -O0 (the profile's format, docs/formats.md).
test_expect_success 'the passes counted on Cortex-M4 (clz, QEMU) are those by hand' '
	make -s -f "$ROI_SRC/contrib/cortex-m/mps2-an386/Makefile" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" \
		ROI_FLAGS=-fplugin-arg-roi-machine-values OUT=fc-m4.elf OPT=-O0 SRC=fconv.c &&
	arm-none-eabi-objdump -d fc-m4.elf | grep -q "clz" &&
	"$ROI" run --target cortex-m --machine mps2-an386 -o fc-m4.roi fc-m4.elf >/dev/null &&
	test_equal "190 110 290 90" "$(grep "^fn" fc-m4.roi | awk "{ print \$(NF - 3), \$(NF - 2), \$(NF - 1), \$NF }")"
'

test_expect_success 'without -fplugin-arg-roi-machine-values no conversion is counted' '
	gcc -O0 -fplugin="$ROI_PLUGIN" -c fconv.c -o plain-meta.o &&
	meta_json plain-meta.o >pm.json &&
	test_equal 0 "$(jq "[.[0].ops[] | select(.kind == \"norm\")] | length" pm.json)" "norm rows"
'

# The per-operation estimate prices a conversion by its conv row (the routine on typical
# operands): the passes are no operation of it, where the model has no entry for them.
test_expect_success 'the per-operation estimate leaves the passes out of its operations' '
	"$ROI" estimate --json --model "$MODELS/atmega32u4-Os.json" fc-Os.elf fc-Os.roi >ops.json &&
	test_equal 0 "$(op_count ops.json norm)" "norm operations" &&
	test_equal 0 "$(jq .total.unmodelled_ops ops.json)" "unmodelled operations"
'

test_done
