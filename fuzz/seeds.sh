#!/bin/sh
# seeds.sh OUTDIR — seed corpora for the fuzz targets, made from the test data.
#
# Real inputs, so that the fuzzers start from what roi actually reads and mutate from there:
#   profile/  profiles of test programs, one with region lines and hook costs
#   meta/     their .roi.meta sections (records separated by NUL bytes, as in the ELF)
#   model/    the shipped models (models/*.json)
#   filter/   filter files using every keyword, as the tests write them
#   budget/   budget files: docs/budgets.md's example, every unit and form
#   elf/      the programs themselves: host object files, AVR firmware, an ARM object (linked host
#             programs are left out: at 100 kB they slow the fuzzer down and add nothing the
#             AVR firmware, linked ELF files too, does not have)
#   avr_elf/  the AVR firmware
#   measured/ measured profiles of an AVR firmware (roi run --measured), with and without blocks
# and, for each reader, inputs of the classes it must refuse (issue 27): a key twice or unknown,
# a NUL byte (or \u0000), counts near 2^64, numbers past a model's bounds, nesting past cJSON's.
# Uses build/host (roi.so, libroi.a) and, when built, build/avr and build/arm (make all-targets);
# a cross compiler that is missing only leaves its seeds out.
set -e
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${ROI_BUILD:-$src/build}
out=$1
[ -n "$out" ] || { echo "usage: seeds.sh OUTDIR" >&2; exit 2; }
P=$src/testsuite/programs
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
mkdir -p "$out/profile" "$out/meta" "$out/model" "$out/filter" "$out/budget" "$out/elf" "$out/avr_elf" "$out/measured" \
	"$out/work"
cd "$out/work"

# meta ELF NAME [OBJCOPY]: the .roi.meta section of ELF as a meta seed.
meta () { ${3:-objcopy} --dump-section .roi.meta="$out/meta/$2" "$1" /dev/null; }

printf 'count exclude function twice\nhooks include function main\nhooks include loop %s:18\n' "$P/loops.c" >hooks.txt
cp hooks.txt "$out/filter/hooks"
printf '# every keyword\ncount exclude file glob:*\ncount include file dsp/fir.c\nCOUNT Include ASM f.constprop.0\nhooks include function fir\nhooks exclude function glob:from_[a-z]*\nhooks include loop dsp/fir.c:31\n\n' >"$out/filter/keywords"
printf 'count exclude function foo\r\n\thooks  include   function   bar   # trailing\n' >"$out/filter/spacing"

for opt in O0 O2; do
	for p in loops recursion fnptr switch wide; do
		gcc -$opt -fplugin="$build/host/roi.so" -o $p-$opt "$P/$p.c" "$build/host/libroi.a"
		ROI_OUTPUT=$p-$opt.roi ./$p-$opt >/dev/null
		cp $p-$opt.roi "$out/profile/$p-$opt"
		meta $p-$opt $p-$opt
	done
done
gcc -O0 -fplugin="$build/host/roi.so" -o multi "$P/multi/a.c" "$P/multi/b.c" "$P/multi/main.c" "$build/host/libroi.a"
ROI_OUTPUT=multi.roi ./multi >/dev/null
cp multi.roi "$out/profile/multi"
meta multi multi
# A transferred profile (its "transferred" line): multi's -O0 run onto its -O2 build.
gcc -O2 -g -fplugin="$build/host/roi.so" -o multi2 "$P/multi/a.c" "$P/multi/b.c" "$P/multi/main.c" "$build/host/libroi.a"
"$build/bin/roi" transfer -o multi2.roi multi2 ./multi multi.roi >/dev/null 2>&1
cp multi2.roi "$out/profile/transferred"

# Region lines and hook costs: a filter with hooks on the host runtime.
gcc -O0 -fplugin="$build/host/roi.so" -fplugin-arg-roi-filter=hooks.txt -o hooked "$P/loops.c" "$build/host/libroi.a"
ROI_OUTPUT=hooked.roi ./hooked >/dev/null
cp hooked.roi "$out/profile/hooked"
meta hooked hooked
gcc -O2 -fplugin="$build/host/roi.so" -fplugin-arg-roi-filter=hooks.txt -c -o fnptr.o "$P/fnptr.c"
gcc -O0 -fplugin="$build/host/roi.so" -c -o loops.o "$P/loops.c"
cp fnptr.o loops.o "$out/elf/"

# The budget file of docs/budgets.md, and every unit and form of the grammar.
sed -n '/^# sensor firmware/,/^```/p' "$src/docs/budgets.md" | sed '$d' >"$out/budget/docs"
cat >"$out/budget/units" <<-\EOF
	total cycles <= 2000cycles warn 5%
	TOTAL time per run <= 3 ms
	function fir energy per call <= 1.5mJ warn 35uJ # comment
	function fir time per call <= 100us
	region fir:27 energy <= 40µJ model ../models/atmega32u4.json
	region fir.c:28 time <= 1s warn 10.5%
	total ops <= 0ops
	function isr ops:div <= 0 ops
	function isr ops:mul:u16 <= 904ops
	total energy <= 2nJ
	total energy <= 1J
	total time <= 5ns
	EOF
cp "$src"/models/*.json "$out/model/"
# A small one too: mutations of a short file reach the end of it.
jq '.costs |= .[0:6]' "$src/models/atmega32u4.json" >"$out/model/small.json"

if [ -f "$build/avr/roi.so" ] && command -v avr-gcc >/dev/null; then
	avr-gcc -mmcu=atmega32u4 -O0 -fplugin="$build/avr/roi.so" -o loops-avr.elf "$P/loops.c"
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$build/avr/roi.so" -fplugin-arg-roi-filter=hooks.txt \
		-o hooked-avr.elf "$P/loops.c" "$src/runtime/ports/roi-region-simavr.c"
	# measured profiles: the plain build, and with the block-lines and counted builds' blocks
	avr-gcc -mmcu=atmega32u4 -Os -gdwarf-2 -o loops-plain.elf "$P/loops.c"
	avr-gcc -mmcu=atmega32u4 -Os -gdwarf-2 -fplugin="$build/avr/roi.so" -fplugin-arg-roi-block-lines \
		-o loops-blocks.elf "$P/loops.c"
	avr-gcc -mmcu=atmega32u4 -Os -gdwarf-2 -fplugin="$build/avr/roi.so" -o loops-count.elf "$P/loops.c"
	"$build/bin/roi" run --target avr --mcu atmega32u4 --measured -o "$out/measured/lines" loops-plain.elf >/dev/null
	"$build/bin/roi" run --target avr --mcu atmega32u4 --measured --blocks loops-blocks.elf \
		--counted loops-count.elf -o "$out/measured/blocks" loops-plain.elf >/dev/null
	jq '.cycles += 1' "$out/measured/lines" >"$out/measured/sum"
	jq '.lines[0].colour = 1' "$out/measured/lines" >"$out/measured/unknown"
	jq '.cycles = 18446744073709551615' "$out/measured/lines" >"$out/measured/huge"
	cp loops-avr.elf hooked-avr.elf "$out/elf/"
	cp loops-avr.elf hooked-avr.elf "$out/avr_elf/"
	meta hooked-avr.elf hooked-avr avr-objcopy
	# simavr's .mmcu settings, a parser of its own in simavr's ELF reader
	mkdir -p simavr/avr
	cp /usr/include/simavr/avr/avr_mcu_section.h simavr/avr/
	cat >mmcu.c <<-\EOF
	#include <avr/io.h>
	#include <simavr/avr/avr_mcu_section.h>
	AVR_MCU(16000000, "atmega32u4");
	AVR_MCU_VCD_FILE("trace.vcd", 1000);
	AVR_MCU_SIMAVR_CONSOLE(&GPIOR1);
	const struct avr_mmcu_vcd_trace_t trace[] _MMCU_ = { { AVR_MCU_VCD_SYMBOL("PORTB"), .what = (void *)&PORTB, } };
	int main(void) { PORTB = 1; return 0; }
	EOF
	avr-gcc -mmcu=atmega32u4 -Os -I. -fplugin="$build/avr/roi.so" -o mmcu-avr.elf mmcu.c
	cp mmcu-avr.elf "$out/avr_elf/"
fi
if [ -f "$build/arm/roi.so" ] && command -v arm-none-eabi-gcc >/dev/null; then
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O1 -fplugin="$build/arm/roi.so" -c -o loops-arm.o "$P/loops.c"
	cp loops-arm.o "$out/elf/"
fi

# What must be refused, one of each class, next to what must be read.
crc32 () { gzip -c | tail -c 8 | head -c 4 | od -An -tx1 | awk '{ print $4 $3 $2 $1 }'; }
reseal () { sed '/^end /d' "$1" >body && sed "$2" body >body.new && echo "end $(grep -c '^fn ' body.new) $(crc32 <body.new)" >>body.new && cat body.new; }
reseal loops-O0.roi 's/^\(fn [^ ]* [0-9]* [^ ]* [0-9]*\) [0-9]*/\1 18446744073709551615/' >"$out/profile/count-max"
reseal loops-O0.roi 's/^\(fn [^ ]* [0-9]* [^ ]* [0-9]* [0-9]*\) [0-9]*/\1 9223372036854775808/' >"$out/profile/count-half"
sed 's/"static":false,/&"static":true,/' "$out/meta/loops-O0" >"$out/meta/duplicate-key"
sed 's/"jumps":/"jumpz":/' "$out/meta/loops-O0" >"$out/meta/unknown-key"
sed 's/"saved":\([0-9]*\)/"saved":\1,"saved":\1/' "$out/meta/hooked" >"$out/meta/duplicate-saved"
sed '0,/"clock_hz": [0-9]*/s//&, "clock_hz": 1/' "$out/model/small.json" >"$out/model/duplicate-key.json"
jq '.costs += [.costs[0]]' "$out/model/small.json" >"$out/model/duplicate-entry.json"
jq '.costs[0].cycles = 1e308 | .costs[1].energy_j = 1e300' "$out/model/small.json" >"$out/model/huge-costs.json"
jq '.costs[0].type = "i99" | .colour = "red"' "$out/model/small.json" >"$out/model/unknown.json"
sed 's/"part": "\([^"]*\)"/"part": "\1\\u0000x"/' "$out/model/small.json" >"$out/model/escaped-nul.json"
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "["; for (i = 0; i < 1001; i++) printf "]" }' >"$out/model/deep.json"
printf 'total ops <= 1000000ops\n\0\nfunction main ops <= 1ops\n' >"$out/budget/nul"
printf 'total ops:add:i99 <= 0ops\ntotal ops:add:i24 <= 0ops\ntotal ops <= 1%0400dops\n' 0 >"$out/budget/types-and-digits"
printf 'count exclude function foo\0bar\nhooks include function main\n' >"$out/filter/nul"
cd "$out" && rm -rf work
