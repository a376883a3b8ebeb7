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

# bits() tests 30 bits of v, each "if" three blocks at -O0: its test, its then-arm and the edge
# from the test past the arm, which the plugin splits (a critical edge); then the join after the
# last one and the return block: 92 blocks, each with one successor but the 30 tests (two), 122
# edges and the function's entry. The counters go on the edges off a spanning tree of the blocks
# and the entry and exit as one vertex (docs/formats.md, "Counted edges"): 123 - 93 + 1 = 31, one
# per "if" and one for the calls. main: its entry, the loop's test and body, the block after the
# loop, which calls bits, and the return block: 5 blocks, 7 edges with the entry, and one more from
# the call, which may not return: 8 - 6 + 1 = 3 counters. 34 counters: 136 bytes of 32-bit
# counters, 68 of 16-bit ones, at 0x0100 followed by sink's 64 bytes: .bss ends at 0x01c8 (0x0184
# with 16 bits).
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

# BUF 876: the lowest stack byte is 0x0500 - 890 = 0x0186, 0x01c8 - 0x0186 = 66 bytes below the
# end of .bss and into the counters (which end at 0x0188); the stack pointer went down to 0x0185.
test_expect_success 'a stack that runs into the counters: one line, the bytes missing, what to do' '
	firmware deep.elf 876 32 &&
	test_equal 008001c8 "$(avr-nm deep.elf | sed -n "s/ B __bss_end\$//p")" ".bss by hand" &&
	test_must_fail roi_avr deep.elf >out 2>err &&
	test_equal 1 "$(wc -l <err | tr -d " ")" "lines on stderr" &&
	test_grep "^roi: deep.elf: the stack ran into the counters: the atmega88 is at least 66 bytes of RAM short for this counted build (the stack grew down to 0x0185, .data and .bss end at 0x01c8, the counters take 136 bytes); count with 16-bit counters (-fplugin-arg-roi-counter-bits=16), fewer functions (-fplugin-arg-roi-filter=FILE), or time a build without the plugin (roi run --cycles-only)$" err &&
	test ! -f deep.elf.roi &&
	# the plain build (sink alone in .bss) has room: --cycles-only times it
	avr-gcc -mmcu=atmega88 -O0 -DBUF=876 stack.c -o plain.elf &&
	roi_avr --cycles-only plain.elf >out &&
	test_grep "^plain.elf: stopped after [0-9]* cycles" out
'

# BUF 832: the lowest stack byte is 0x0500 - 846 = 0x01b2, in sink, 22 bytes below the end of
# .bss and above the counters: they still hold the counts.
test_expect_success 'a stack that runs into .bss but not the counters: a warning, and the profile' '
	firmware bss.elf 832 32 &&
	roi_avr bss.elf >out 2>err &&
	test_grep "^roi: warning: bss.elf: the stack grew into .data and .bss, 22 bytes below their end at 0x01c8 (down to 0x01b1): the data this counted build computed with may not be the plain build.s$" err &&
	"$ROI" estimate --json bss.elf >bss.json &&
	test_equal 1 "$(fn_calls bss.json bits)"
'

# 16-bit counters, BUF 876: .bss ends at 0x0184, below the stack'"'"'s 0x0186. buf is stored 876 times.
test_expect_success 'with 16-bit counters it fits, and runs to its end as before' '
	firmware narrow.elf 876 16 &&
	roi_avr narrow.elf >out 2>err &&
	test_grep "^narrow.elf: stopped after [0-9]* cycles" out &&
	! grep "stack" err &&
	"$ROI" estimate --json narrow.elf >narrow.json &&
	test_equal 876 "$(jq "[.ops[] | select(.kind == \"store\" and .access == \"array\" and .volatile) | .count] | add" narrow.json)" &&
	test_equal 1 "$(fn_calls narrow.json bits)"
'

test_done
