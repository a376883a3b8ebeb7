#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi run --target avr: a counted firmware whose stack runs into its counters

The counters of a counted build take RAM that the plain build leaves to the
stack. On an ATmega88 (1 KiB of RAM at 0x0100-0x04ff, the stack from 0x04ff
down), a firmware whose stack nearly fills the RAM runs plain, but the stack of
its counted build runs into the counters, whose updates then overwrite a
return address: simavr ran it off the end of the flash. roi run says instead
that the stack reached the counters, how many bytes are missing and what to do.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so

# bits() tests 30 bits of v, each "if" three counted blocks at -O0: its test, its then-arm and the
# edge from the test past the arm, which the plugin splits (a critical edge); then the join after
# the last one and the return block: 92 blocks. main: its entry, the loop's test and body, the
# block after the loop and the return block: 5. 97 counters: 388 bytes of 32-bit counters, 194 of
# 16-bit ones, at 0x0100 followed by sink's 64 bytes: .bss ends at 0x02c4 (0x0202 with 16 bits).
# At its deepest, in bits, the stack holds main's return address (2 bytes), its saved frame
# pointer (2), its frame (buf and i: BUF + 2), bits' return address (2), its saved frame pointer
# (2) and its frame (v and n: 4): BUF + 14 bytes, the lowest at 0x0500 - BUF - 14.
{
	echo "volatile unsigned char sink[64];"
	echo "static unsigned __attribute__((noinline)) bits(unsigned v)"
	echo "{"
	echo "	unsigned n = 0;"
	i=0
	while [ $i -lt 30 ]; do
		echo "	if (v & $((1 << (i % 16)))u) n++;"
		i=$((i + 1))
	done
	echo "	return n;"
	echo "}"
	echo "int main(void)"
	echo "{"
	echo "	volatile unsigned char buf[BUF];"
	echo "	for (unsigned i = 0; i < BUF; i++)"
	echo "		buf[i] = i;"
	echo "	sink[0] = bits(buf[3]);"
	echo "	return 0;"
	echo "}"
} >stack.c

# firmware OUT BUF BITS: stack.c with a BUF-byte buffer and BITS-bit counters.
firmware () {
	avr-gcc -mmcu=atmega88 -O0 -DBUF="$2" -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-counter-bits="$3" \
		stack.c -o "$1"
}
roi_avr () { "$ROI" run --target avr --mcu atmega88 "$@"; }

# BUF 700: the lowest stack byte is 0x0500 - 714 = 0x0236, 0x02c4 - 0x0236 = 142 bytes below the
# end of .bss and into the counters (which end at 0x0284); the stack pointer went down to 0x0235.
test_expect_success 'a stack that runs into the counters: one line, the bytes missing, what to do' '
	firmware deep.elf 700 32 &&
	test_equal 008002c4 "$(avr-nm deep.elf | sed -n "s/ B __bss_end\$//p")" ".bss by hand" &&
	test_must_fail roi_avr deep.elf >out 2>err &&
	test_equal 1 "$(wc -l <err | tr -d " ")" "lines on stderr" &&
	test_grep "^roi: deep.elf: the stack ran into the counters: the atmega88 is at least 142 bytes of RAM short for this counted build (the stack grew down to 0x0235, .data and .bss end at 0x02c4, the counters take 388 bytes); count with 16-bit counters (-fplugin-arg-roi-counter-bits=16), fewer functions (-fplugin-arg-roi-filter=FILE), or time a build without the plugin (roi run --cycles-only)$" err &&
	test ! -f deep.elf.roi &&
	# the plain build (sink alone in .bss) has room: --cycles-only times it
	avr-gcc -mmcu=atmega88 -O0 -DBUF=700 stack.c -o plain.elf &&
	roi_avr --cycles-only plain.elf >out &&
	test_grep "^plain.elf: stopped after [0-9]* cycles" out
'

# BUF 580: the lowest stack byte is 0x0500 - 594 = 0x02ae, in sink, 22 bytes below the end of
# .bss and above the counters: they still hold the counts.
test_expect_success 'a stack that runs into .bss but not the counters: a warning, and the profile' '
	firmware bss.elf 580 32 &&
	roi_avr bss.elf >out 2>err &&
	test_grep "^roi: warning: bss.elf: the stack grew into .data and .bss, 22 bytes below their end at 0x02c4 (down to 0x02ad): the data this counted build computed with may not be the plain build.s$" err &&
	"$ROI" estimate --json bss.elf >bss.json &&
	test_equal 1 "$(fn_calls bss.json bits)"
'

# 16-bit counters, BUF 700: .bss ends at 0x0202, below the stack'"'"'s 0x0236. buf is stored 700 times.
test_expect_success 'with 16-bit counters it fits, and runs to its end as before' '
	firmware narrow.elf 700 16 &&
	roi_avr narrow.elf >out 2>err &&
	test_grep "^narrow.elf: stopped after [0-9]* cycles" out &&
	! grep "stack" err &&
	"$ROI" estimate --json narrow.elf >narrow.json &&
	test_equal 700 "$(jq "[.ops[] | select(.kind == \"store\" and .access == \"array\" and .volatile) | .count] | add" narrow.json)" &&
	test_equal 1 "$(fn_calls narrow.json bits)"
'

test_done
