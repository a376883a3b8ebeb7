#!/bin/sh
test_description='roi estimate --price machine: the branches GCC makes inside one statement, by "taken"

avr-gcc expands a minimum or maximum as a compare and a jump over a move,
and a signed division or remainder by 2^k as a jump over the fix-up a
negative dividend needs: a branch inside one counted block that no block
count decides. The plugin counts how often each such arm ran (a value
counter "taken", docs/formats.md) and the machine pricing takes the arm'"'"'s
count from it instead of splitting the branch half and half. The counters
are checked against counts derived by hand from the C and its data; the
estimate against simavr'"'"'s cycle count of the plain firmware, exactly.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
MODELS=$ROI_SRC/models
# builds NAME OPT SRC: NAME-plain.elf, NAME.elf (counted with -fplugin-arg-roi-machine-values, run in
# simavr: NAME.elf.roi) and NAME-blocks.elf
builds () {
	avr-gcc -mmcu=atmega32u4 "$2" "$3" -o "$1-plain.elf" &&
	avr-gcc -mmcu=atmega32u4 "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-machine-values \
		"$3" -o "$1.elf" &&
	avr-gcc -mmcu=atmega32u4 "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-lines \
		"$3" -o "$1-blocks.elf" &&
	"$ROI" run --target avr --mcu atmega32u4 "$1.elf" >/dev/null
}
simavr_cycles () {
	"$ROI" run --target avr --mcu atmega32u4 --cycles-only --json "$1" | jq ".cycles - .main_cycle"
}
machine () {
	"$ROI" estimate --json --price machine --firmware "$1-plain.elf" --block-lines "$1-blocks.elf" \
		--model "$2" "$1.elf"
}
# value_counters PROFILE N: the last N counters of the profile's one function, in the order of the
# statements they measure (the value counters follow the block counters, docs/formats.md)
value_counters () {
	sed -n "s/^fn .*/&/p" "$1" | tr " " "\n" | tail -n "$2" | paste -sd " "
}

# lo = MIN (v, lo): the result shares lo's register, so GCC moves v in where v < lo; the counter
# counts v < lo, strictly (a tie keeps lo): 5 (from 100), -3, -8 (the second -8 ties), -12: 4.
# hi = MAX (v, hi): v > hi, 5 (from -100), 12 (the second 12 ties): 2.
# v / 4 and v % 8: v < 0 for -3, -8, -8, -1, -12: 5 each.
cat >minmax.c <<'EOF'
#include <stdint.h>
volatile int16_t in[12] = {5, -3, 12, 7, -8, -8, 3, 12, 9, -1, -12, 4};
volatile int16_t out;
int main(void)
{
	int16_t lo = 100, hi = -100, q = 0;
	for (uint8_t i = 0; i < 12; i++) {
		int16_t v = in[i];
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		q += v / 4 + v % 8;
	}
	out = lo + hi + q;
	return 0;
}
EOF

# a 32-bit dividend (the asm's sbrs on its top byte): v < 0 for -5 and -65536: 2 of 8, not the
# even split's 4; MIN (c, 100), a constant operand (the asm's ldi into a scratch register), its
# result a fresh value: 100 moved in where 100 < c: 200, 255 and 250: 3.
cat >wide.c <<'EOF'
#include <stdint.h>
volatile int32_t in32[8] = {100000, -5, 70000, 70000, 3, 1, 65536, -65536};
volatile uint8_t in8[8] = {10, 200, 30, 31, 255, 0, 7, 250};
volatile int32_t o32;
volatile uint8_t o8;
int main(void)
{
	int32_t acc = 0;
	uint8_t sat = 0;
	for (uint8_t i = 0; i < 8; i++) {
		int32_t v = in32[i];
		acc += v / 16;
		uint8_t c = in8[i];
		sat += c > 100 ? 100 : c;
	}
	o32 = acc;
	o8 = sat;
	return 0;
}
EOF

for opt in -O0 -O1; do
	model=$MODELS/atmega32u4-${opt#-}.json

	test_expect_success "minimum, maximum, signed / 4 and % 8 at $opt: the counts derived from the C" '
		builds minmax$opt $opt minmax.c &&
		test_equal "4 2 5 5" "$(value_counters minmax$opt.elf.roi 4)"
	'

	test_expect_success "minimum, maximum, signed / 4 and % 8 at $opt: simavr's cycles exactly" '
		machine minmax$opt $model >est.json &&
		test_equal "$(simavr_cycles minmax$opt-plain.elf)" "$(jq .total.cycles est.json)" &&
		test_equal "4 0" "$(jq -r "[.machine.branches_counted, .machine.branches_split_evenly] | @tsv" est.json | tr "\t" " ")"
	'

	test_expect_success "a 32-bit dividend and a minimum with a constant at $opt: counts and cycles exact" '
		builds wide$opt $opt wide.c &&
		test_equal "2 3" "$(value_counters wide$opt.elf.roi 2)" &&
		machine wide$opt $model >est.json &&
		test_equal "$(simavr_cycles wide$opt-plain.elf)" "$(jq .total.cycles est.json)" &&
		test_equal 2 "$(jq .machine.branches_counted est.json)"
	'
done

test_expect_success 'the text says how many branches the value counters decided' '
	"$ROI" estimate --price machine --firmware minmax-O1-plain.elf --block-lines minmax-O1-blocks.elf \
		--model "$MODELS/atmega32u4-O1.json" minmax-O1.elf >out &&
	test_grep "^counts .* 4 branches inside a block counted by value counters, 0 split half and half" out
'

test_expect_success 'a "taken" counter is no operation: the per-operation estimate neither lists nor misses it' '
	"$ROI" estimate --json --model "$MODELS/atmega32u4-O1.json" minmax-O1.elf >ops.json &&
	test_equal 0 "$(jq "[.ops[] | select(.kind == \"taken\")] | length" ops.json)" &&
	test_equal 0 "$(jq ".unmodelled | length" ops.json)" &&
	"$ROI" ops minmax-O1.elf >ops.txt &&
	test_grep "min i16" ops.txt &&
	! grep taken ops.txt
'

test_expect_success 'without -fplugin-arg-roi-machine-values nothing is counted and the arms are split' '
	avr-gcc -mmcu=atmega32u4 -O1 -gdwarf-2 -fplugin="$AVR_PLUGIN" minmax.c -o plain-count.elf &&
	avr-objcopy -O binary -j .roi.meta --set-section-flags .roi.meta=alloc plain-count.elf plain.meta &&
	avr-objcopy -O binary -j .roi.meta --set-section-flags .roi.meta=alloc minmax-O1.elf counted.meta &&
	test_equal 4 "$(grep -ao "\"kind\":\"taken\"" counted.meta | wc -l)" &&
	! grep -a "\"kind\":\"taken\"" plain.meta &&
	"$ROI" run --target avr --mcu atmega32u4 plain-count.elf >/dev/null &&
	"$ROI" estimate --json --price machine --firmware minmax-O1-plain.elf --block-lines minmax-O1-blocks.elf \
		--model "$MODELS/atmega32u4-O1.json" plain-count.elf >split.json &&
	test_equal "0 4" "$(jq -r "[.machine.branches_counted, .machine.branches_split_evenly] | @tsv" split.json | tr "\t" " ")"
'

# clamp (v) at -Os is MAX_EXPR and MIN_EXPR on the firmware, two ifs on the host at -O0: the host
# has no "taken" counter there, and the transfer gives each half its statement's 60 runs, not 0
# (which would say the arm never ran); simavr's own counts, 36 above 10 and 20 below 0 of v =
# -60, -57, ..., 117, say what the transfer cannot know.
cat >clamp.c <<'EOF'
#include <stdint.h>
static __attribute__((noinline)) int16_t clamp(int16_t x)
{
	if (x < 0)
		return 0;
	if (x > 10)
		return 10;
	return x;
}
volatile int16_t sink;
int main(void)
{
	for (int16_t v = -60; v < 120; v += 3)
		sink = clamp(v);
	return 0;
}
EOF

test_expect_success 'roi transfer: a "taken" counter the host build lacks gets half its statement'"'"'s runs' '
	roi_link clamp -O0 -g -fplugin-arg-roi-machine-values clamp.c &&
	./clamp &&
	avr-gcc -mmcu=atmega32u4 -Os -g -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-machine-values clamp.c -o clamp.elf &&
	"$ROI" transfer -o clamp-transfer.roi clamp.elf ./clamp >/dev/null &&
	"$ROI" run --target avr --mcu atmega32u4 -o clamp-run.roi clamp.elf >/dev/null &&
	test_equal "60 36 20" "$(sed -n "s/^fn [0-9a-f]* 0 [0-9a-fx]* 3 //p" clamp-run.roi)" &&
	test_equal "60 30 30" "$(sed -n "s/^fn [0-9a-f]* 0 [0-9a-fx]* 3 //p" clamp-transfer.roi)"
'

test_done
