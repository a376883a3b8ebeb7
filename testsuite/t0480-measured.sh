#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi run --measured: a firmware as it ships, every cycle on a line

A plain firmware (no plugin, -g) is run in simavr and each of its cycles is
given to a source line, a function and a call site; code without lines
(libgcc, avr-libc) goes to the line that called it. The figures are checked
against simavr itself: its total (roi run --cycles-only), and the cycles
between two labels in the code (roi run --cycles-only --stop-at LABEL), which
bracket the instructions of the lines between them; against the instruction
set manual for asm statements; and, for the counted blocks (through the
block-lines build), against the counters of a build counted per block or by hand.'
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
# at ELF LABEL: simavr's cycles when the PC first reaches LABEL.
at () { "$ROI" run --json --target avr --mcu $MCU --cycles-only --stop-at "$2" "$1" | jq .cycles; }
measure () { "$ROI" run --target avr --mcu $MCU --measured "$@"; }
# line_of SRC TEXT: the number of the line of SRC that holds TEXT.
line_of () { grep -n -F "$2" "$1" | cut -d: -f1; }
# mline M FILE LINE FIELD: a line's cycles, library or inclusive in the measured profile M.
mline () {
	jq --arg f "$2" --argjson l "$3" --arg k "$4" \
	   '[.lines[] | select(.file != null and (.file | endswith("/" + $f)) and .line == $l) | .[$k]] | add // 0' "$1"
}

# The local labels (no .global: no function of the symbol table) bracket what lies between
# them: at -O0 GCC lays out a function's lines in order, each asm statement where it is.
cat >lines.c <<'EOF'
#include <stdlib.h>
#define MARK(x) __asm__ volatile(#x ":")
volatile unsigned char a[16] = {3, 8, 5, 6, 7, 1, 0, 9, 2, 4, 11, 13, 10, 12, 15, 14};
volatile unsigned num = 1000, d = 7, q;
volatile long r;
int main(void)
{
	MARK(straight);
	__asm__ volatile("nop\n\tnop\n\tnop");                               /* three */
	__asm__ volatile("ldi r24, 7\n\tmov r25, r24" ::: "r24", "r25");      /* two */
	MARK(loop);
	for (unsigned char i = 0; i < 16; i++)                          /* for */
		if (a[i] & 1)                                           /* if */
			__asm__ volatile("nop\n\tnop");                 /* arm */
	MARK(divide);
	q = num / d;                                                    /* divide */
	MARK(parse);
	r = strtol("-12345", 0, 10);                                    /* strtol */
	MARK(end);
	return 0;
}
EOF

test_expect_success 'the lines add up to simavr'"'"'s count of the plain firmware, and it says so' '
	builds lines -O0 lines.c &&
	"$ROI" run --json --target avr --mcu $MCU --cycles-only lines-plain.elf >plain.json &&
	measure lines-plain.elf >out 2>err &&
	test_equal "$(jq .cycles plain.json)" "$(jq .cycles lines-plain.elf.measured)" "total" &&
	test_equal "$(jq .cycles plain.json)" "$(jq "[.lines[].cycles] | add" lines-plain.elf.measured)" \
		"lines added up" &&
	test_grep "^lines-plain.elf: stopped after $(jq .cycles plain.json) cycles .*; measured profile lines-plain.elf.measured$" out &&
	test_grep "every one on a line" out &&
	test_equal exit "$(jq -r .stop lines-plain.elf.measured)" "stop" &&
	test_equal true "$(jq .complete lines-plain.elf.measured)" "complete"
'

# AVRe+ (ATmega32U4): nop, ldi and mov take one cycle each. 8 of the 16 values are odd.
test_expect_success 'a straight line and a loop with a data-dependent branch, by hand and by simavr' '
	test_equal 3 "$(mline lines-plain.elf.measured lines.c $(line_of lines.c "/* three */") cycles)" \
		"three nops" &&
	test_equal 2 "$(mline lines-plain.elf.measured lines.c $(line_of lines.c "/* two */") cycles)" "ldi, mov" &&
	test_equal "$(($(at lines-plain.elf loop) - $(at lines-plain.elf straight)))" 5 "simavr: straight" &&
	test_equal 16 "$(mline lines-plain.elf.measured lines.c $(line_of lines.c "/* arm */") cycles)" \
		"the branch'"'"'s arm: 8 x 2 nops" &&
	for_=$(line_of lines.c "/* for */") && if_=$(line_of lines.c "/* if */") &&
	loop=$(( $(mline lines-plain.elf.measured lines.c $for_ cycles) + $(mline lines-plain.elf.measured lines.c $if_ cycles) + 16 )) &&
	test_equal "$(($(at lines-plain.elf divide) - $(at lines-plain.elf loop)))" $loop "simavr: the loop"
'

test_expect_success 'a libgcc division and avr-libc'"'"'s strtol on the line that called them' '
	div=$(line_of lines.c "/* divide */") && parse=$(line_of lines.c "/* strtol */") &&
	test_equal "$(($(at lines-plain.elf parse) - $(at lines-plain.elf divide)))" \
		"$(mline lines-plain.elf.measured lines.c $div cycles)" "simavr: the division line" &&
	test_equal "$(($(at lines-plain.elf end) - $(at lines-plain.elf parse)))" \
		"$(mline lines-plain.elf.measured lines.c $parse cycles)" "simavr: the strtol line" &&
	# the routines, by their symbols, charged to those lines: all of their cycles
	udiv=$(jq "[.functions[] | select(.name == \"__udivmodhi4\") | .self] | add" lines-plain.elf.measured) &&
	test_equal "$udiv" "$(mline lines-plain.elf.measured lines.c $div library)" "the division'"'"'s library" &&
	test_equal "$udiv" "$(jq --argjson l $div "[.library[] | select(.routine == \"__udivmodhi4\" and .line == \$l) | .cycles] | add" lines-plain.elf.measured)" "__udivmodhi4 on the division line" &&
	test_equal false "$(jq "[.functions[] | select(.name == \"strtol\") | .lines] | .[0]" lines-plain.elf.measured)" \
		"strtol has no lines" &&
	test "$(mline lines-plain.elf.measured lines.c $parse library)" -gt 500 &&
	test_equal "$(jq "[.library[] | select(.line == $parse) | .cycles] | add" lines-plain.elf.measured)" \
		"$(mline lines-plain.elf.measured lines.c $parse library)" "the routines under strtol"
'

# counted_blocks PROFILE: "unit index block count" per counter of a profile counted per block, sorted.
counted_blocks () {
	awk '$1 == "fn" { for (i = 6; i <= NF; i++) print $2, $3, i - 6, $i }' "$1" | sort
}
# measured_blocks MEASURED: the same of a measured profile's blocks, a value counter's count "value".
measured_blocks () {
	jq -r '.blocks.functions[] | .unit as $u | .index as $f | .counts | to_entries[] |
		"\($u) \($f) \(.key) \(.value // "value")"' "$1" | sort
}
# same_counts MEASURED PROFILE: every block but the value counters (not measured) the same.
same_counts () {
	measured_blocks "$1" >measured.all &&
	counted_blocks "$2" >counted.all &&
	sed -n "s/ value\$/ /p" measured.all >values &&
	sed "/ value\$/d" measured.all >measured.blocks &&
	if test -s values; then grep -v -F -f values counted.all >counted.blocks; else cp counted.all counted.blocks; fi &&
	test_cmp counted.blocks measured.blocks
}

test_expect_success 'the block-lines build: the counted blocks'"'"' counts are the counted build'"'"'s' '
	builds loopos -Os lines.c &&
	measure --blocks loopos-blocks.elf --counted loopos-count.elf loopos-plain.elf >out &&
	"$ROI" run --target avr --mcu $MCU loopos-bcount.elf >/dev/null &&
	same_counts loopos-plain.elf.measured loopos-bcount.elf.roi &&
	test_equal 7 "$(wc -l <measured.blocks)" "blocks: all but the division'"'"'s value counter" &&
	test_grep "^blocks    7 counted blocks of 1 function measured through" out
'


test_expect_success 'at -O0 the block-lines build is not the plain one: its own run gives the blocks' '
	builds loop0 -O0 lines.c &&
	measure --blocks loop0-blocks.elf --counted loop0-count.elf loop0-plain.elf >out &&
	"$ROI" run --target avr --mcu $MCU loop0-bcount.elf >/dev/null &&
	same_counts loop0-plain.elf.measured loop0-bcount.elf.roi &&
	test_grep "(in its own run: its code is not the plain build.s)" out &&
	test "$(jq .blocks.run_cycles loop0-plain.elf.measured)" -ne "$(jq .cycles loop0-plain.elf.measured)"
'

# One function, two call sites with ten and ninety iterations: a report that shares the
# function's cost out per call (gprof) gives both lines the same; the measured figures are each
# line's own, as simavr counts the cycles between the labels around it.
cat >sites.c <<'EOF'
#define MARK(x) __asm__ volatile(#x ":")
volatile unsigned v = 7;
volatile unsigned long sink;
__attribute__((noinline)) static unsigned work(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += i ^ v;
	return s;
}
int main(void)
{
	MARK(first);
	sink = work(10);
	MARK(second);
	sink += work(90);
	MARK(done);
	return 0;
}
EOF

# site M LINE: the inclusive cycles of the calls of work on LINE.
site () {
	jq --argjson l "$2" '[.call_sites[] | select(.callee == "work" and .line == $l) | .inclusive] | add' "$1"
}
# fn M NAME FIELD: a function's figure in the measured profile M.
fn () { jq --arg n "$2" --arg k "$3" '[.functions[] | select(.name == $n) | .[$k]] | add' "$1"; }

test_expect_success 'one function called from two sites: inclusive cycles per call site' '
	builds sites -O0 sites.c &&
	measure --blocks sites-blocks.elf --counted sites-count.elf sites-plain.elf >out &&
	l1=$(line_of sites.c "work(10)") && l2=$(line_of sites.c "work(90)") &&
	i1=$(($(at sites-plain.elf second) - $(at sites-plain.elf first))) &&
	i2=$(($(at sites-plain.elf done) - $(at sites-plain.elf second))) &&
	test_equal $i1 "$(mline sites-plain.elf.measured sites.c $l1 inclusive)" "simavr: the first line" &&
	test_equal $i2 "$(mline sites-plain.elf.measured sites.c $l2 inclusive)" "simavr: the second line" &&
	s1=$(site sites-plain.elf.measured $l1) && s2=$(site sites-plain.elf.measured $l2) &&
	test_equal $i1 $((s1 + $(mline sites-plain.elf.measured sites.c $l1 cycles))) "site 1 and its line" &&
	test_equal $i2 $((s2 + $(mline sites-plain.elf.measured sites.c $l2 cycles))) "site 2 and its line" &&
	test_equal $((s1 + s2)) "$(fn sites-plain.elf.measured work inclusive)" "work, inclusive" &&
	test_equal 2 "$(fn sites-plain.elf.measured work calls)" "calls" &&
	test $((s2 * 2)) -gt $((s1 * 15))
'

# report_line JSON LINE FIELD: a line row's figure in roi report's JSON.
report_line () {
	jq --argjson l "$2" "[.. | objects | select(.kind? == \"line\" and .line == \$l) | $3] | .[0]" "$1"
}

test_expect_success 'roi report: the estimates as they were, the measured cycles beside them' '
	model="$ROI_SRC/models/atmega32u4-O0.json" &&
	"$ROI" run --target avr --mcu $MCU sites-count.elf >/dev/null &&
	"$ROI" report --json --model "$model" sites-count.elf >plain-report.json &&
	"$ROI" report --json --model "$model" --measured-profile sites-plain.elf.measured sites-count.elf >report.json &&
	jq "del(.measured) | del(.. | .measured?)" report.json >without.json &&
	jq . plain-report.json >plain.json &&
	test_cmp plain.json without.json &&
	l1=$(line_of sites.c "work(10)") && l2=$(line_of sites.c "work(90)") &&
	e1=$(report_line report.json $l1 .cycles) && e2=$(report_line report.json $l2 .cycles) &&
	# gprof: both lines carry half of work'"'"'s cost, within their own operations of each other
	test "$(echo "$e1 $e2" | awk "{d = \$1 - \$2; print (d < 0 ? -d : d) < 50}")" = 1 &&
	m1=$(report_line report.json $l1 .measured.cycles) && m2=$(report_line report.json $l2 .measured.cycles) &&
	test_equal "$(($(at sites-plain.elf second) - $(at sites-plain.elf first)))" $m1 "measured, line 1" &&
	test_equal "$(($(at sites-plain.elf done) - $(at sites-plain.elf second)))" $m2 "measured, line 2" &&
	test_equal "$(site sites-plain.elf.measured $l1)" "$(report_line report.json $l1 ".measured.call_sites[0].cycles")" \
		"the call site" &&
	"$ROI" report --model "$model" --measured-profile sites-plain.elf.measured sites-count.elf >report.txt &&
	test_grep "measured cycles  measured calls" report.txt &&
	test_grep "^measured  sites-plain.elf.measured: [0-9]* cycles of .*sites-plain.elf in simavr (atmega32u4)" report.txt &&
	test_grep "sites.c:$l1 .* $m1  .*work: measured [0-9]* cycles a call here" report.txt
'

test_expect_success 'roi estimate and roi budget: measured beside the estimate, labelled' '
	model="$ROI_SRC/models/atmega32u4-O0.json" &&
	"$ROI" estimate --model "$model" --measured-profile sites-plain.elf.measured sites-count.elf >est.txt &&
	test_grep "^functions (measured: cycles of its own instructions" est.txt &&
	test_grep "^measured  [0-9]* cycles in main, its calls included" est.txt &&
	"$ROI" estimate --json --measured-profile sites-plain.elf.measured sites-count.elf >est.json &&
	test_equal "$(($(fn sites-plain.elf.measured work self) + $(fn sites-plain.elf.measured work library)))" \
		"$(jq "[.functions[] | select(.name == \"work\") | .measured_cycles] | add" est.json)" "work" &&
	printf "function work cycles per call <= 100cycles\n" >budgets.txt &&
	test_must_fail "$ROI" budget check --budgets budgets.txt --model "$model" --measured \
		--measured-profile sites-plain.elf.measured --json sites-count.elf >budget.json &&
	test_equal "$(fn sites-plain.elf.measured work inclusive | awk "{print \$1 / 2}")" \
		"$(jq ".results[0].measured" budget.json)" "work per call" &&
	test_equal measured "$(jq -r ".results[0].checked" budget.json)" "checked" &&
	test_equal FAIL "$(jq -r ".results[0].status" budget.json)" "status"
'

test_expect_success 'without a run of the counted build, the counts of the measured blocks' '
	rm -f sites-count.elf.roi &&
	"$ROI" estimate --json --measured-profile sites-plain.elf.measured sites-count.elf >est.json 2>err &&
	test_equal 2 "$(fn_calls est.json work)" "work" &&
	test_equal sites-plain.elf.measured "$(jq -r .profile est.json)" "where the counts are from"
'

# The regions of the counted build's filter (docs/regions.md): its hooks are not in the plain
# build, whose run measures them: a function from its calls to its returns, a loop from the way
# into it to the way out (through the blocks). The hooked counted build's own run counts the same
# entries.
test_expect_success 'the regions of a filter, measured in the plain firmware' '
	printf "hooks include function work\nhooks include loop sites.c:7\n" >hooks.txt &&
	builds sitesos -Os sites.c &&
	avr-gcc -mmcu=$MCU -Os -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-filter=hooks.txt sites.c \
		"$ROI_SRC/runtime/ports/roi-region-simavr.c" -o hooked-count.elf &&
	measure --blocks sitesos-blocks.elf --counted hooked-count.elf -o regions.measured sitesos-plain.elf >out &&
	"$ROI" run --target avr --mcu $MCU hooked-count.elf >/dev/null &&
	"$ROI" report --json hooked-count.elf >hooked.json &&
	for r in work work:7; do
		test_equal "$(jq --arg r $r "[.. | objects | select(.region?.name == \$r) | .region.calls] | .[0]" hooked.json)" \
			"$(jq --arg r $r "[.regions[] | select(.name == \$r) | .calls] | .[0]" regions.measured)" "$r: calls" || return 1
	done &&
	test_equal "$(fn regions.measured work inclusive)" \
		"$(jq "[.regions[] | select(.name == \"work\") | .cycles] | .[0]" regions.measured)" "work: cycles" &&
	test "$(jq "[.regions[] | select(.name == \"work:7\") | .cycles] | .[0]" regions.measured)" -lt \
		"$(fn regions.measured work inclusive)" &&
	test_grep "^  work:7  *loop  *2  *[0-9]*\$" out
'

# A firmware whose main loop never returns: stopped at a symbol's fifth hit, or at the limit.
cat >forever.c <<'EOF'
volatile unsigned char ticks;
__attribute__((noinline)) void tick(void)
{
	ticks++;
}
int main(void)
{
	for (;;)
		tick();
}
EOF

# At -Os tick is lds, subi, sts and ret, all on the line of its statement (no prologue, no epilogue):
# 2 + 1 + 2 + 4 cycles (the instruction set manual, AVRe+ with a 16-bit PC).
test_expect_success 'for (;;): stopped when the PC reaches tick the fifth time' '
	avr-gcc -mmcu=$MCU -Os -gdwarf-2 forever.c -o forever.elf &&
	avr-objdump -d --no-show-raw-insn forever.elf | sed -n "/<tick>:/,/^\$/p" | awk -F"\t" "NF > 1 {print \$2}" >tick.ops &&
	printf "lds\nsubi\nsts\nret\n" >tick.expected &&
	test_cmp tick.expected tick.ops &&
	measure --stop-at tick:5 forever.elf >out &&
	test_equal "$(at forever.elf tick:5)" "$(jq .cycles forever.elf.measured)" "simavr" &&
	test_equal symbol "$(jq -r .stop forever.elf.measured)" "stop" &&
	test_equal tick:5 "$(jq -r .stop_symbol forever.elf.measured)" "its symbol" &&
	test_equal "$(jq .cycles forever.elf.measured)" "$(jq "[.lines[].cycles] | add" forever.elf.measured)" "lines" &&
	test_equal 5 "$(fn forever.elf.measured tick calls)" "calls" &&
	test_equal 36 "$(mline forever.elf.measured forever.c 4 cycles)" "ticks++ and the return, 4 times" &&
	test_grep ", at tick:5; measured profile forever.elf.measured\$" out
'

test_expect_success 'at the cycle limit: what was measured, and a warning that says so' '
	measure --max-cycles 5000 --json forever.elf >out.json 2>err &&
	test_grep "^roi: warning: forever.elf: no stop after 5000 cycles (--max-cycles): measured up to there\$" err &&
	test_equal limit "$(jq -r .stop_reason out.json)" "stop reason" &&
	test_equal false "$(jq .complete forever.elf.measured)" "complete" &&
	cycles=$(jq .cycles forever.elf.measured) &&
	test $cycles -ge 5000 && test $cycles -lt 5010 &&
	test_equal $cycles "$(jq "[.lines[].cycles] | add" forever.elf.measured)" "lines" &&
	measure --max-cycles 5000 forever.elf >out.txt 2>/dev/null &&
	test_grep "stopped at the cycle limit: the figures up to there" out.txt
'

test_expect_success 'progress on stderr with --progress' '
	measure --progress --max-cycles 4000000 forever.elf >/dev/null 2>err &&
	test_grep "^roi run: forever.elf: [0-9.]* M cycles ([0-9]*% of --max-cycles)\$" err
'

# t0415's firmware, with its BUF of 876: bits() tests 30 bits of v = buf[3] = 3; the masks
# 1 << (i % 16) for i = 0, 1, 16 and 17 are 1 and 2, the bits set: four of the 30 then-arms run.
# The counted build's stack runs into its counters on an ATmega88; the plain build and the
# block-lines build, which have none, fit.
{
	echo "volatile unsigned char sink[64];"
	echo "static unsigned __attribute__((noinline)) bits(unsigned v)"
	echo "{"
	echo "	unsigned n = 0;"
	i=0
	while [ $i -lt 30 ]; do
		echo "	if (v & $((1 << (i % 16)))u) n++; /* bit $i */"
		i=$((i + 1))
	done
	echo "	return n;"
	echo "}"
	echo "int main(void)"
	echo "{"
	echo "	volatile unsigned char buf[876];"
	echo "	for (unsigned i = 0; i < 876; i++)"
	echo "		buf[i] = i; /* body */"
	echo "	sink[0] = bits(buf[3]);"
	echo "	return 0;"
	echo "}"
} >stack.c

# blocks_on META FUNCTION LINE: the counter indices of FUNCTION's blocks with operations on LINE.
blocks_on () {
	jq -c --arg f "$2" --argjson l "$3" '[.[0].functions[] | select(.name == $f) | .blocks | to_entries[] |
		select([.value.ops[]? | select(.[2] == $l)] | length > 0) | .key]' "$1"
}
# count_of M ASM INDICES: the measured counts of those blocks, added up.
count_of () {
	jq --arg f "$2" --argjson b "$3" '[.blocks.functions[] | select(.asm == $f) | .counts as $c | $b[] | $c[.]] | add' "$1"
}

test_expect_success 'a firmware whose counted build does not fit the part, measured in simulation' '
	avr-gcc -mmcu=atmega88 -O0 -gdwarf-2 stack.c -o stack-plain.elf &&
	avr-gcc -mmcu=atmega88 -O0 -gdwarf-2 -fplugin="$AVR_PLUGIN" -fplugin-arg-roi-block-lines stack.c -o stack-blocks.elf &&
	avr-gcc -mmcu=atmega88 -O0 -gdwarf-2 -fplugin="$AVR_PLUGIN" stack.c -o stack-count.elf &&
	test_must_fail "$ROI" run --target avr --mcu atmega88 stack-count.elf 2>err &&
	test_grep "the stack ran into the counters" err &&
	"$ROI" run --target avr --mcu atmega88 --measured --blocks stack-blocks.elf --counted stack-count.elf \
		stack-plain.elf >out &&
	test_equal "$("$ROI" run --json --target avr --mcu atmega88 --cycles-only stack-plain.elf | jq .cycles)" \
		"$(jq "[.lines[].cycles] | add" stack-plain.elf.measured)" "lines" &&
	avr-objcopy --dump-section .roi.meta=meta.bin stack-count.elf /dev/null &&
	tr "\0" "\n" <meta.bin | jq -s . >meta.json &&
	# a bit'"'"'s line has its test (run once) and its arm (once when the bit is set)
	for bit in 0 1 2 15 16 17 29; do
		blocks=$(blocks_on meta.json bits $(line_of stack.c "/* bit $bit */")) &&
		case $bit in 0|1|16|17) want=2 ;; *) want=1 ;; esac &&
		test_equal $want "$(count_of stack-plain.elf.measured bits "$blocks")" "the blocks of bit $bit" || return 1
	done &&
	test_equal 876 "$(count_of stack-plain.elf.measured main "$(blocks_on meta.json main $(line_of stack.c "/* body */"))")" \
		"the loop body"
'

test_expect_success 'what is wrong, in one line each' '
	test_must_fail "$ROI" run --target avr --mcu $MCU --measured --blocks lines-blocks.elf lines-plain.elf 2>err &&
	test_grep "^roi run: --blocks needs --counted COUNTED.elf" err &&
	test_must_fail "$ROI" run --target avr --mcu $MCU --measured lines-blocks.elf 2>err &&
	test_grep "^roi: lines-blocks.elf: a block-lines build (its line table names counted blocks, not source lines): give the plain build as FIRMWARE and this one as --blocks\$" err &&
	avr-gcc -mmcu=$MCU -O0 lines.c -o nodebug.elf &&
	test_must_fail "$ROI" run --target avr --mcu $MCU --measured nodebug.elf 2>err &&
	test_grep "^roi: nodebug.elf: no DWARF line table: compile it with -gdwarf-2 (avr-gcc 5.4 writes STABS for a bare -g)\$" err &&
	test_must_fail "$ROI" run --target avr --mcu $MCU --stop-at no_such_symbol --cycles-only lines-plain.elf 2>err &&
	test_grep "^roi: lines-plain.elf: no symbol no_such_symbol\$" err &&
	jq ".cycles += 1" lines-plain.elf.measured >bad.measured &&
	test_must_fail "$ROI" estimate --measured-profile bad.measured lines-count.elf 2>err &&
	test_grep "^roi: bad.measured: its lines add up to [0-9]* cycles, not its total [0-9]*\$" err
'

test_done
