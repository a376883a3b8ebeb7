#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi ops --size: what counting costs a firmware in RAM and code'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'matrix for ATmega32U4, with and without the plugin' '
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" "$EXAMPLES/matrix/matrix.c" -o counted.elf &&
	avr-gcc -mmcu=atmega32u4 -Os "$EXAMPLES/matrix/matrix.c" -o plain.elf &&
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-counter-bits=16 \
		"$EXAMPLES/matrix/matrix.c" -o narrow.elf
'

# A counter per counted edge and per value counter (docs/formats.md, "Counted edges"), as the
# metadata lists them; their RAM is the counter array's size in the symbol table.
test_expect_success 'counter RAM is 4 bytes per counter, 2 with 16-bit counters' '
	avr-objcopy --dump-section .roi.meta=meta.bin counted.elf /dev/null &&
	counters=$(tr "\000" "\n" <meta.bin |
		jq -s "[.[].functions[] | (.edges | length) + ([.blocks[] | select(.value)] | length)] | add") &&
	test_equal "$counters" "$("$ROI" ops --json counted.elf | jq "[.functions[].counters] | add")" &&
	bytes=$(avr-nm -S counted.elf | sed -n "s/^[0-9a-f]* \([0-9a-f]*\) b __roi_c_.*/\1/p") &&
	test_equal $((counters * 4)) $((0x$bytes)) &&
	"$ROI" ops --size counted.elf >size &&
	test_grep "^counters  1 arrays, $counters counters, $((counters * 4)) bytes of RAM" size &&
	"$ROI" ops --size narrow.elf >size16 &&
	test_grep "$((counters * 2)) bytes of RAM" size16
'

test_expect_success 'added code bytes agree with avr-size' '
	"$ROI" ops --size --baseline plain.elf counted.elf >size &&
	with=$(avr-size counted.elf | awk "NR == 2 { print \$1 }") &&
	without=$(avr-size plain.elf | awk "NR == 2 { print \$1 }") &&
	test_grep "the increments added $((with - without)) bytes" size
'

test_expect_success '--baseline alone is a usage error' '
	test_must_fail "$ROI" ops --baseline plain.elf counted.elf 2>err &&
	test_grep "goes with --size" err
'

test_done
