#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='plugin arguments: every mistake is a compiler error naming it'
. "$(dirname "$0")/test-lib.sh"

cat >prog.c <<'CEOF'
int main(void) { return 0; }
CEOF

test_expect_success 'an unknown argument is an error, not a warning' '
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-bogus -c prog.c 2>err &&
	test_grep "error: unknown option .-fplugin-arg-roi-bogus." err &&
	! test -f prog.o
'

test_expect_success 'a missing value is an error' '
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-counter-bits -c prog.c 2>err &&
	test_grep "error: missing value for option .-fplugin-arg-roi-counter-bits." err
'

test_expect_success 'a bad value is an error naming what is expected' '
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-counter-bits=12 -c prog.c 2>err &&
	test_grep "bad value .12. for .-fplugin-arg-roi-counter-bits.: expected 16, 32 or 64" err &&
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-runtime=cloud -c prog.c 2>err &&
	test_grep "expected host or none" err
'

test_expect_success 'a flag given a value is an error' '
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-atomic=yes -c prog.c 2>err &&
	test_grep "takes no value" err &&
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-block-lines=1 -c prog.c 2>err &&
	test_grep "option .-fplugin-arg-roi-block-lines. takes no value" err
'

test_expect_success 'atomic 16-bit counters are refused' '
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-atomic \
		-fplugin-arg-roi-counter-bits=16 -c prog.c 2>err &&
	test_grep "needs 32- or 64-bit counters" err
'

test_expect_success 'help documents every argument' '
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-help -c prog.c 2>help &&
	for a in counter-bits atomic runtime verbose block-lines help; do
		test_grep "fplugin-arg-roi-$a" help || return 1
	done
'

test_expect_success 'verbose names the functions not counted and why' '
	cat >skip.c <<-CEOF &&
	__attribute__((no_instrument_function)) int quiet(int x) { return x + 1; }
	int loud(int x) { return x + 2; }
	CEOF
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-verbose -c skip.c 2>err &&
	test_grep "not counting .quiet.: no_instrument_function attribute" err &&
	! grep "not counting .loud." err
'

cat >blocks.c <<'CEOF'
volatile unsigned in = 1234, out;
static unsigned digits(unsigned x)
{
	unsigned n = 0;
	do {
		out = x % 10;
		x /= 10;
		n++;
	} while (x);
	return n;
}
int main(void) { out = digits(in) + (in > 100 ? in / 3 : in * 5); return 0; }
CEOF

# block-lines counts nothing and leaves the code as it is, GCC's optimisers do not look at
# locations: the loaded image is the plain build's, byte for byte, with host gcc 12 and avr-gcc
# 5.4 at -O1, -O2 and -Os. Its line table has the lines of the file "roi-block:main", one per
# counted block that has instructions (here with digits inlined: every one up to the last).
test_expect_success 'block-lines: the plain code, with a line table naming the counted blocks' '
	for O in -O1 -O2 -Os; do
		gcc $O -g blocks.c -o plain &&
		gcc $O -g -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-block-lines blocks.c -o blocks &&
		objcopy -O binary -j .text plain plain.bin && objcopy -O binary -j .text blocks blocks.bin &&
		cmp plain.bin blocks.bin &&
		avr-gcc -mmcu=atmega32u4 $O -gdwarf-2 blocks.c -o plain.elf &&
		avr-gcc -mmcu=atmega32u4 $O -gdwarf-2 -fplugin="$ROI_BUILD/avr/roi.so" \
			-fplugin-arg-roi-block-lines blocks.c -o blocks.elf &&
		avr-objcopy -O binary -j .text -j .data plain.elf plain.bin &&
		avr-objcopy -O binary -j .text -j .data blocks.elf blocks.bin &&
		cmp plain.bin blocks.bin || return 1
	done &&
	! avr-objdump -h blocks.elf | grep -q "\.roi\.meta" &&
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" blocks.c -o counted.elf &&
	avr-objcopy --dump-section .roi.meta=meta.bin counted.elf /dev/null &&
	nblocks=$(tr "\0" "\n" <meta.bin | jq -s "[.[0].functions[] | select(.name == \"main\") |
		.blocks[] | select(.value | not)] | length") &&
	avr-objdump --dwarf=decodedline blocks.elf |
		awk "/^roi-block:main / { print \$2 }" | sort -nu >lines &&
	test -s lines &&
	test "$(tail -1 lines)" -le "$nblocks"
'

test_expect_success 'the plugin never changes what a program computes: -O0 to -O3' '
	cat >calc.c <<-CEOF &&
	#include <stdio.h>
	static unsigned h(unsigned x) { return x * 2654435761u >> 7; }
	int main(void) { unsigned s = 0; for (unsigned i = 0; i < 1000; i++) s ^= h(i + s); printf("%u\n", s); return 0; }
	CEOF
	for O in -O0 -O1 -O2 -O3 -Os; do
		gcc $O calc.c -o plain && ./plain >want &&
		gcc $O -fplugin="$ROI_PLUGIN" calc.c "$ROI_LIB" -o counted &&
		ROI_OUTPUT=calc.roi ./counted >got &&
		test_cmp want got || return 1
	done
'

test_expect_success 'the plugin loads into avr-gcc 5.4 and arm-none-eabi-gcc 12 alike' '
	avr-gcc -mmcu=atmega32u4 -fplugin="$ROI_BUILD/avr/roi.so" -c prog.c -o avr.o &&
	avr-objdump -h avr.o | grep -q "\.roi\.meta" &&
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -fplugin="$ROI_BUILD/arm/roi.so" -c prog.c -o arm.o &&
	arm-none-eabi-objdump -h arm.o | grep -q "\.roi\.meta"
'

test_expect_success 'a plugin built for another compiler fails with an error, never a crash' '
	test_must_fail gcc -fplugin="$ROI_BUILD/arm/roi.so" -c prog.c 2>err &&
	test_grep "incompatible gcc/plugin versions: .* was built for GCC 12.2.1, this is GCC 12" err &&
	test_must_fail arm-none-eabi-gcc -fplugin="$ROI_PLUGIN" -c prog.c 2>err &&
	test_grep "incompatible gcc/plugin versions" err &&
	test_must_fail gcc -fplugin="$ROI_BUILD/avr/roi.so" -c prog.c 2>err &&
	test_grep "cannot load plugin" err &&
	test_must_fail avr-gcc -fplugin="$ROI_PLUGIN" -c prog.c 2>err &&
	test_grep "cannot load plugin" err
'

test_done
