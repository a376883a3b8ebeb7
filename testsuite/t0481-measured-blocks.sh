#!/bin/sh
test_description='roi run --measured: block counts where the optimisers moved the blocks'"'"' code

The plain firmware is run in simavr and each instruction is given to its
counted block through the block-lines build; a block'"'"'s count is how often
the run entered it. Where -Os and -O2 lay a block'"'"'s code out other than
one straight piece (a loop'"'"'s test made of a skip over the loop'"'"'s own
jump out; a latch'"'"'s step placed before the loop'"'"'s body and labelled with
the block before the loop; a loop of one statement inside its block), the counts are checked by hand from the C and
against the counters of a build counted per block, run in simavr.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
MCU=atmega32u4

# builds OUT OPT SRC: OUT-plain.elf, OUT-blocks.elf (the block-lines build), OUT-count.elf and
# OUT-bcount.elf, counted with a counter per block (the same blocks: its profile holds their counts).
builds () {
	avr-gcc -mmcu=$MCU "$2" -gdwarf-2 "$3" -o "$1-plain.elf" &&
	avr-gcc -mmcu=$MCU "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-lines "$3" \
		-o "$1-blocks.elf" &&
	avr-gcc -mmcu=$MCU "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" "$3" -o "$1-count.elf" &&
	avr-gcc -mmcu=$MCU "$2" -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-counters "$3" \
		-o "$1-bcount.elf"
}
# measure OUT: the plain firmware measured through the block-lines build (OUT-plain.elf.measured),
# and the build counted per block run (OUT-bcount.elf.roi).
measure () {
	"$ROI" run --target avr --mcu $MCU --measured --blocks "$1-blocks.elf" --counted "$1-count.elf" \
		"$1-plain.elf" >/dev/null &&
	"$ROI" run --target avr --mcu $MCU "$1-bcount.elf" >/dev/null
}
# same_counts OUT: every block's measured count is the counted build's ("unit/index/block count"),
# but the value counters' (null: not measured).
same_counts () {
	jq -r '.blocks.functions[] | .unit as $u | .index as $f | .counts | to_entries[] |
		select(.value != null) | "\($u)/\($f)/\(.key) \(.value)"' "$1-plain.elf.measured" |
		sort >measured.blocks &&
	awk '$1 == "fn" { for (i = 6; i <= NF; i++) print $2 "/" $3 "/" i - 6, $i }' "$1-bcount.elf.roi" |
		sort | join - measured.blocks | cut -d" " -f1,2 >counted.blocks &&
	test_cmp counted.blocks measured.blocks
}
# block OUT FUNCTION LINE: the measured count of FUNCTION's block whose only line is LINE (the
# counted build's metadata names each block's lines).
block () {
	b=$(avr-objcopy --dump-section .roi.meta=meta.bin "$1-count.elf" /dev/null &&
	    tr '\0' '\n' <meta.bin | jq -r --arg f "$2" --argjson l "$3" 'select(.functions) |
		.functions[] | select(.asm == $f) | .blocks | to_entries[] |
		select(.value.lines == [[0, $l]]) | .key') &&
	jq -r --arg f "$2" --argjson b "$b" '.blocks.functions[] | select(.asm == $f) | .counts[$b]' \
		"$1-plain.elf.measured"
}
line_of () { grep -n -F "$2" "$1" | cut -d: -f1; }

# -Os makes the loop's test one skip over the loop's own jump out (sbrc r22, 0; rjmp out): the
# block ran whether the skip skipped or not, and the body after the jump is the loop's other
# block. 8, 12, 1, 96, 40 and 7 end in 3, 2, 0, 5, 3 and 0 zero bits: 13 shifts, 19 tests.
cat >ctz.c <<'EOF'
#include <stdint.h>
volatile uint32_t in[6] = {8, 12, 1, 96, 40, 7};
volatile uint32_t sink;
__attribute__((noinline)) static uint32_t odd_part(uint32_t b)
{
	while ((b & 1) == 0)            /* test */
		b >>= 1;                /* shift */
	return b;
}
int main(void)
{
	for (uint8_t i = 0; i < 6; i++)
		sink += odd_part(in[i]);
	return 0;
}
EOF

test_expect_success 'a loop whose test skips over its own jump out: by hand and by the counters' '
	builds ctz -Os ctz.c &&
	avr-objdump -d ctz-plain.elf | grep -A12 "<odd_part>:" >odd_part.s &&
	test_grep "sbrc" odd_part.s &&
	measure ctz &&
	test_equal 13 "$(block ctz odd_part $(line_of ctz.c "/* shift */"))" "the shifts" &&
	test_equal 19 "$(block ctz odd_part $(line_of ctz.c "/* test */"))" "the tests" &&
	same_counts ctz
'

# -O2 places the phase step of the first loop (ph + 37, the latch'"'"'s) before the loop'"'"'s body,
# where the block before the loop has the same step: the body'"'"'s jump back lands on it, which
# the line table gives the block before the loop, and falls into the body. The body runs 32 times.
cat >latch.c <<'EOF'
#include <stdint.h>
volatile uint8_t in_phase = 17;
volatile uint32_t sink;
int main(void)
{
	uint8_t buf[32];
	uint32_t wide[32];
	uint8_t ph = in_phase;

	for (uint8_t i = 0; i < 32; i++) {
		ph = (uint8_t) (ph + 37u);
		buf[i] = (uint8_t) (ph ^ (i << 1));
		wide[i] = ((uint32_t) ph << 16 | (uint32_t) i << 8 | (uint8_t) ~ph) & 0xffffffUL;
	}
	for (uint8_t i = 0; i < 32; i++)
		sink += buf[i] + wide[i];
	return 0;
}
EOF

test_expect_success 'a latch'"'"'s step placed before the loop'"'"'s body: by hand and by the counters' '
	builds latch -O2 latch.c &&
	measure latch &&
	test_equal 32 "$(jq -r ".blocks.functions[] | select(.asm == \"main\") | .counts[1]" \
		latch-plain.elf.measured)" "the first loop'"'"'s body" &&
	avr-objcopy --dump-section .roi.meta=meta.bin latch-count.elf /dev/null &&
	test_equal "[[0,10],[0,11],[0,12],[0,13]]" "$(tr "\0" "\n" <meta.bin | jq -c "select(.functions) |
		.functions[0].blocks[1].lines")" "block 1 is the first loop'"'"'s body" &&
	same_counts latch
'

# -Os shifts by two bits in a loop of its own inside the shift'"'"'s block ("ldi r20, 2; 1: lsr;
# ror; ror; ror; dec r20; brne 1b"): its jump back is no new execution of the block, as the
# block loops only through the test'"'"'s block, whose code did not run. 1 << 30 falls below
# 1000 after 11 shifts, below 5 after 14, below 70000 after 7: 32 shifts, 35 tests.
cat >shift.c <<'EOF'
#include <stdint.h>
volatile uint32_t in[3] = {1000, 5, 70000};
volatile uint32_t sink;
__attribute__((noinline)) static uint32_t top_bit(uint32_t n)
{
	uint32_t bit = 1UL << 30;

	while (bit > n)                 /* test */
		bit >>= 2;              /* shift */
	return bit;
}
int main(void)
{
	for (uint8_t i = 0; i < 3; i++)
		sink += top_bit(in[i]);
	return 0;
}
EOF

test_expect_success 'a loop of one statement inside its block (a shift by two): by hand and by the counters' '
	builds shift -Os shift.c &&
	avr-objdump -d shift-plain.elf | grep -A24 "<top_bit>:" >top_bit.s &&
	test_grep "dec" top_bit.s &&
	measure shift &&
	test_equal 32 "$(block shift top_bit $(line_of shift.c "/* shift */"))" "the shifts" &&
	test_equal 35 "$(block shift top_bit $(line_of shift.c "/* test */"))" "the tests" &&
	same_counts shift
'

# -Os in kernel-tokenizer (the corpus): inside a quote, "if (*p == quote) quote = 0;" leaves
# two blocks without instructions between the test and the loop's latch, one per arm (the
# assignment is a copy on its edge, merged with the same copy before the loop and given that
# block's line). The code takes different jumps, but the line table names neither block: the
# run cannot tell them apart, and the profile says which counts are the choice it took. The
# two blocks' counts add up to the counted build's all the same.
test_expect_success 'two ways the code does not tell apart: both blocks flagged, together as counted' '
	builds tok -Os "$ROI_SRC/contrib/calibration/kernel-tokenizer.c" &&
	"$ROI" run --target avr --mcu $MCU --measured --blocks tok-blocks.elf --counted tok-count.elf \
		tok-plain.elf >out &&
	"$ROI" run --target avr --mcu $MCU tok-bcount.elf >/dev/null &&
	test_grep "had another as short: 2 blocks'"'"' counts are the choice taken, not the code'"'"'s (\"ambiguous\")" out &&
	jq -r ".blocks.functions[] | select(.asm == \"main\") | .ambiguous | to_entries[] |
		select(.value > 0) | .key" tok-plain.elf.measured >flagged &&
	test_equal "6 14" "$(echo $(cat flagged))" "the flagged blocks of main" &&
	measured=$(jq "[.blocks.functions[] | select(.asm == \"main\") | .counts[6, 14]] | add" \
		tok-plain.elf.measured) &&
	counted=$(awk "\$1 == \"fn\" && \$3 == 3 { print \$(6 + 6) + \$(6 + 14) }" tok-bcount.elf.roi) &&
	test_equal "$counted" "$measured" "blocks 6 and 14 together"
'

# -O1 in kernel-time-convert (the corpus): the copy of the digits, most significant first, is a
# loop of one block through an empty latch; the instructions after its branch back are its block's
# too (GCC gives the next statement's first move the loop's location). The branch back lands on
# the block's head and begins its next execution all the same.
test_expect_success 'a loop whose branch back is not the last of its block'"'"'s code: as counted' '
	builds time -O1 "$ROI_SRC/contrib/calibration/kernel-time-convert.c" &&
	measure time &&
	same_counts time
'

# -Os cross-jumps the cases of crossjump.c (testsuite/programs): cases 1 and 2 jump into case 3's
# "call push; test; pushed++", under case 3's lines, and the default into the "sp = 0" of the
# way out when the stack is full. That code runs for the case that entered it: cases 1 and 2
# push 9 and 7 times (the program's opcodes 1 and 2, by hand), and every block as the counters
# say; before, the cases jumping in lost their counts to case 3 (0, 0 and 22 for 9, 7 and 6).
test_expect_success 'code the cases share after cross-jumping: each case'"'"'s count, by hand and by the counters' '
	cp "$TEST_DIRECTORY/programs/crossjump.c" . &&
	builds xjump -Os crossjump.c &&
	call=$(avr-objdump -d xjump-plain.elf | sed -n "/<main>:/,/^\$/p" |
		awk "/call.*<push>/ { sub(/:.*/, \"\", \$1); print \$1 }") &&
	test_equal 2 "$(avr-objdump -d xjump-plain.elf | grep -c "rjmp.*; 0x$call ")" "jumps into the shared call" &&
	measure xjump &&
	test_equal 9 "$(block xjump main $(line_of crossjump.c "if (!push(acc + in))"))" "case 1" &&
	test_equal 7 "$(block xjump main $(line_of crossjump.c "if (!push(acc ^ 0x5a))"))" "case 2" &&
	same_counts xjump
'

test_done
