#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi stack: frames, worst-case depth from each root, RAM margin, against simavr

The plugin records each function'"'"'s stack use, GCC'"'"'s own figure: it must be what
-fstack-usage writes for the same function (avr-gcc and arm-none-eabi-gcc, -O0
and -Os). roi stack adds the frames up along the call graph it reads from the
machine code; on programs whose deepest path is known by construction (a chain
of calls with local arrays, a timer interrupt that fires while the deepest
function waits for it) the worst case is the peak simavr measures, counted by
a helper of its own (simavr/sp-peak.c: the stack pointer before every
instruction, no roi code). Recursion, an indirect call, a naked function and
alloca make a depth a lower bound and say so.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
ARM_PLUGIN=$ROI_BUILD/arm/roi.so
MCU=atmega32u4

# the measuring helper, built against libsimavr alone
cc -O2 -Wall -Wextra $(pkg-config --cflags simavr 2>/dev/null || echo -I/usr/include/simavr) \
	"$TEST_DIRECTORY/simavr/sp-peak.c" -o sp-peak -lsimavr -lelf || exit 1

# stack_json ELF: roi stack --json, kept in ELF.json
stack_json () { "$ROI" stack --json "$1" >"$1.json"; }
# depth NAME ELF: the static depth of a function (after stack_json ELF)
depth () { jq --arg n "$1" '.functions[] | select(.name == $n) | .depth' "$2.json"; }
# root NAME ELF: the depth of a root
root () { jq --arg n "$1" '.roots[] | select(.root == $n) | .depth' "$2.json"; }
# peak NAME FILE: a figure of sp-peak's output
peak () { sed -n "s/^$1 //p" "$2"; }
# carry_frame ELF: the stack the counters' carry routine takes (gcc-plugin/roi-counters-avr.cc),
# read here from its code: the registers it pushes and the 2-byte return address. Every counted
# function calls it (where a counter's low byte wraps), so roi stack puts it at the bottom of
# every counted path; in the runs below no counter carries at the deepest moment, and simavr's
# peaks are below roi's figures by it, once per counted path (main's and the handler's).
carry_frame () {
	echo $(($(avr-objdump -d "$1" | sed -n "/<__roi_avr_carry32_1>:$/,/ret$/p" | grep -c "	push	") + 2))
}

# su_vs_meta CC OBJCOPY OPT SRC...: for every function of every SRC, the line of GCC's .su
# file ("NAME BYTES KIND") and the metadata's figure in the same form.
su_vs_meta () {
	cc=$1 objcopy=$2 opt=$3
	shift 3
	for src in "$@"; do
		b=$(basename "$src" .c)
		$cc -$opt -fstack-usage -fplugin="$plugin" -c "$src" -o "$b.o" || return 1
		# "FILE:LINE:COL:NAME<tab>BYTES<tab>KIND": a clone is NAME.isra in the .su, NAME.isra.0 as a symbol
		sed 's/^.*:\([^:	]*\)	\([0-9]*\)	\(.*\)$/\1 \2 \3/' "$b.su" | sort >>su.txt
		$objcopy --dump-section .roi.meta=meta.bin "$b.o" /dev/null &&
		tr '\0' '\n' <meta.bin | jq -r '.functions[] |
			"\(.name) \(.stack) \(if .stack_dynamic == "bounded" then "dynamic,bounded"
				elif .stack_dynamic == "unbounded" then "dynamic" else "static" end)"' |
			sort >>meta.txt || return 1
	done
}

test_expect_success 'the metadata holds what -fstack-usage says, function by function (AVR, -O0 and -Os)' '
	plugin=$AVR_PLUGIN &&
	for opt in O0 Os; do
		rm -f su.txt meta.txt &&
		su_vs_meta "avr-gcc -mmcu=$MCU" avr-objcopy $opt $(sed "s|^|$ROI_SRC/contrib/calibration/|; s|$|.c|" \
			"$ROI_SRC/contrib/calibration/SUBSET") &&
		test_cmp su.txt meta.txt &&
		test $(wc -l <su.txt) -ge 8 || return 1
	done
'

test_expect_success 'and for Cortex-M (arm-none-eabi-gcc), whose figure has the link register and padding' '
	plugin=$ARM_PLUGIN &&
	for opt in O0 Os; do
		rm -f su.txt meta.txt &&
		su_vs_meta "arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb" arm-none-eabi-objcopy $opt \
			$(sed "s|^|$ROI_SRC/contrib/calibration/|; s|$|.c|" "$ROI_SRC/contrib/calibration/SUBSET") &&
		test_cmp su.txt meta.txt || return 1
	done &&
	# at -O0 a function pushes r7, and lr when it calls, and keeps 8-byte alignment: what
	# "saved" and "frame" alone do not give
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O0 -fplugin="$ARM_PLUGIN" -c \
		"$ROI_SRC/contrib/calibration/micro-call.c" -o mc.o &&
	arm-none-eabi-objcopy --dump-section .roi.meta=meta.bin mc.o /dev/null &&
	test $(tr "\0" "\n" <meta.bin | jq "[.functions[] | select(.stack != 4 * .saved + .frame)] | length") -gt 0
'

# A chain main > a > b > c, each with a local array (10, 20, 40 bytes); c enables the timer 0
# overflow interrupt and waits for it: its handler, which calls g (6 bytes), runs while the
# stack is at its deepest, and only then. plain_leaf (12 bytes) is compiled without roi: its
# frame is read from its code. The indexes are masks, not remainders, so that no libgcc routine
# runs below c. noinline and noclone keep the names simavr's helper looks up.
cp "$TEST_DIRECTORY/programs/stack-chain.c" chain.c &&
cp "$TEST_DIRECTORY/programs/stack-plain.c" plain.c || exit 1

for opt in O0 Os; do
	test_expect_success "a chain and an interrupt at -$opt: the worst case is the peak simavr measures" '
		avr-gcc -mmcu=$MCU -$opt -c plain.c -o plain-$opt.o &&
		avr-gcc -mmcu=$MCU -$opt -fstack-usage -fplugin="$AVR_PLUGIN" chain.c plain-$opt.o -o chain-$opt.elf &&
		./sp-peak chain-$opt.elf $MCU a b c g __vector_23 >peak-$opt &&
		stack_json chain-$opt.elf &&
		# the deepest path is the chain (and a carry in c), the interrupt on top of it
		test_equal "main a b c __roi_avr_carry32_1" \
			"$(jq -r ".roots[] | select(.root == \"main\") | .path | join(\" \")" chain-$opt.elf.json)" &&
		test_equal "__vector_23 g" "$(jq -r ".roots[] | select(.root == \"__vector_23\") | .path[0:2] | join(\" \")" \
			chain-$opt.elf.json)" &&
		test_equal "main __vector_23 true" "$(jq -r "[.worst.main, .worst.interrupt, .worst.complete] | join(\" \")" \
			chain-$opt.elf.json)" &&
		carry=$(carry_frame chain-$opt.elf) &&
		test_equal 5 $carry "the carry routine'"'"'s frame" &&
		test_equal "$(($(peak main peak-$opt) + 2 * carry))" "$(jq .worst.depth chain-$opt.elf.json)" "worst case" &&
		test_equal "$(($(peak __vector_23 peak-$opt) + carry))" "$(root __vector_23 chain-$opt.elf)" "the handler" &&
		test_equal "$(($(peak g peak-$opt) + carry))" "$(depth g chain-$opt.elf)" "g" &&
		# each function of the chain was running when the interrupt came: its measured peak is
		# its own depth and the handler'"'"'s
		isr=$(root __vector_23 chain-$opt.elf) &&
		for f in a b c; do
			test_equal "$(($(peak $f peak-$opt) + 2 * carry))" "$(($(depth $f chain-$opt.elf) + isr))" "$f" || return 1
		done &&
		# frames by construction: a local array, the return address (2 bytes on this part)
		test $(jq ".functions[] | select(.name == \"c\") | .frame" chain-$opt.elf.json) -ge 42 &&
		test $(jq ".functions[] | select(.name == \"b\") | .frame" chain-$opt.elf.json) -ge 22 &&
		test $(jq ".functions[] | select(.name == \"a\") | .frame" chain-$opt.elf.json) -ge 12 &&
		# the frames of counted functions are the .su figures, plain_leaf'"'"'s is read from its code
		test_equal "$(sed -n "s/.*:c	\([0-9]*\)	static/\1/p" chain.su)" \
			"$(jq ".functions[] | select(.name == \"c\") | .frame" chain-$opt.elf.json)" "c in chain.su" &&
		test_equal "code" "$(jq -r ".functions[] | select(.name == \"plain_leaf\") | .frame_from" chain-$opt.elf.json)" &&
		test $(jq ".functions[] | select(.name == \"plain_leaf\") | .frame" chain-$opt.elf.json) -ge 14
	'
done

test_expect_success 'the text: frames, paths, the roots, the worst case' '
	"$ROI" stack chain-O0.elf >out &&
	test_grep "^program   chain-O0.elf (avr, 2-byte return addresses)$" out &&
	test_grep "^  c  *[0-9][0-9]*  gcc  *[0-9][0-9]*  c > __roi_avr_carry32_1$" out &&
	test_grep "^  main  *[0-9][0-9]*  gcc  *$(depth main chain-O0.elf)  main > a > b > c > __roi_avr_carry32_1$" out &&
	test_grep "^  __roi_avr_carry32_1  *5  code  *5  __roi_avr_carry32_1$" out &&
	test_grep "^  plain_leaf  *[0-9][0-9]*  code  " out &&
	test_grep "^  worst  *$(jq .worst.depth chain-O0.elf.json)  main at its deepest, __vector_23 on top$" out
'

# The ATmega32U4's 2560 bytes of SRAM at 0x0100 (its datasheet): the stack from 0x0aff down, the
# data from 0x0100 up to __bss_end (the linker's symbol); what is left at the deepest is the margin.
test_expect_success 'RAM: the part'"'"'s size from the ELF, .data and .bss, the counters, the margin' '
	end=$(printf "%d" 0x$(avr-nm chain-O0.elf | sed -n "s/^0080\([0-9a-f]*\) [BbD] __bss_end$/\1/p")) &&
	worst=$(jq .worst.depth chain-O0.elf.json) &&
	test_equal "256 2560 $MCU" "$(jq -r "[.ram.start, .ram.size, .ram.part] | join(\" \")" chain-O0.elf.json)" &&
	test_equal "$end" "$(jq .ram.data_end chain-O0.elf.json)" "end of .bss" &&
	test_equal $((0xb00 - end)) "$(jq .ram.free chain-O0.elf.json)" "free" &&
	test_equal $((0xb00 - end - worst)) "$(jq .ram.margin chain-O0.elf.json)" "margin" &&
	counters=$(avr-nm -S chain-O0.elf | awk "/__roi_c_/ { n += strtonum(\"0x\" \$2) } END { print n }") &&
	test_equal "$counters" "$(jq .ram.counters chain-O0.elf.json)" "counters" &&
	"$ROI" stack chain-O0.elf >out &&
	test_grep "^margin    $((0xb00 - end - worst)) bytes$" out
'

# Flags: recursion (sum calls itself n times, n read at run time), a call through a pointer, a
# naked function (no frame figure from GCC) and alloca (its size is the run'"'"'s).
cat >flags.c <<'EOF'
#include <alloca.h>

#define KEEP __attribute__((noinline, noclone))

volatile unsigned char sink, n = 5;

KEEP unsigned sum(unsigned char k)
{
	volatile unsigned char pad[8];
	pad[k % 8] = k;
	return k ? pad[k % 8] + sum(k - 1) : 0;
}

KEEP void leaf(void)
{
	volatile unsigned char buf[30];
	buf[n % 30] = n;
	sink = buf[n % 30];
}

void (*volatile hook)(void) = leaf;

KEEP void scratch(void)
{
	volatile unsigned char *p = alloca(n);
	p[0] = n;
	sink = p[0];
}

__attribute__((naked, noinline)) void bare(void)
{
	__asm__ volatile("ret");
}

int main(void)
{
	sink = sum(n);
	hook();
	scratch();
	bare();
	return 0;
}
EOF

test_expect_success 'recursion, an indirect call, a naked function and alloca: flagged, never 0' '
	avr-gcc -mmcu=$MCU -O0 -fplugin="$AVR_PLUGIN" flags.c -o flags.elf 2>err &&
	! grep warning err &&
	stack_json flags.elf &&
	test_equal "recursive indirect unknown dynamic" "$(jq -r ".roots[0].flags | join(\" \")" flags.elf.json)" &&
	test_equal false "$(jq .roots[0].complete flags.elf.json)" &&
	test_equal "recursive" "$(jq -r ".functions[] | select(.name == \"sum\") | .flags | join(\" \")" flags.elf.json)" &&
	test_equal "null unknown" "$(jq -r ".functions[] | select(.name == \"bare\") | \"\\(.frame) \\(.flags | join(\" \"))\"" flags.elf.json)" &&
	test_equal "dynamic" "$(jq -r ".functions[] | select(.name == \"scratch\") | .flags | join(\" \")" flags.elf.json)" &&
	test_equal "false" "$(jq ".functions[] | select(.name == \"leaf\") | .reached" flags.elf.json)" &&
	"$ROI" stack flags.elf >out &&
	test_grep "^  main  *>= [0-9]*  main > sum > __roi_avr_carry32_1  *recursive, indirect call, unknown frame, dynamic allocation$" out &&
	test_grep "^  bare  *?  -  *>= 5  bare > __roi_avr_carry32_1  *unknown frame: " out &&
	test_grep "^margin    <= " out &&
	# the run goes deeper than the lower bound: sum recursed 5 times
	./sp-peak flags.elf $MCU sum >peak &&
	test $(peak sum peak) -gt $(depth sum flags.elf)
'

test_expect_success 'a host program: calls from the metadata, recursion flagged, no RAM' '
	roi_link rec "$ROI_SRC/testsuite/programs/recursion.c" &&
	stack_json rec &&
	test_equal "x86-64 metadata null" "$(jq -r "[.arch, .calls, .ram] | map(tostring) | join(\" \")" rec.json)" &&
	jq -e ".roots[] | select(.root == \"main\") | .flags | index(\"recursive\")" rec.json &&
	"$ROI" stack rec >out &&
	test_grep "^RAM       not known" out
'

test_expect_success 'the dot graph: the worst path, and a run'"'"'s calls and cycles on the edges' '
	"$ROI" run --target avr --mcu $MCU chain-O0.elf >out &&
	"$ROI" stack --format dot --model "$ROI_SRC/models/atmega32u4-O0.json" chain-O0.elf chain-O0.elf.roi >g.dot &&
	head -1 g.dot | grep "^digraph \"chain-O0.elf\" {$" &&
	tail -1 g.dot | grep "^}$" &&
	n=$(jq "[.functions[] | .name] | index(\"a\")" chain-O0.elf.json) &&
	m=$(jq "[.functions[] | .name] | index(\"b\")" chain-O0.elf.json) &&
	grep "^	n$n -> n$m \[label=\"1 call\\\\n[0-9]* cycles\", color=red, penwidth=2\];$" g.dot &&
	grep "^	n$n \[label=\"a\" + \"\\\\nframe [0-9]* B, depth [0-9]* B\"\];$" g.dot &&
	"$ROI" stack --format dot chain-O0.elf >plain.dot &&
	! grep "call" plain.dot
'

test_expect_success 'usage and bad input' '
	fails 2 "^roi stack: missing PROGRAM" "$ROI" stack &&
	fails 2 "^roi stack: --format takes text, json or dot, not .svg." "$ROI" stack --format svg chain-O0.elf &&
	fails 2 "^roi stack: a PROFILE is for the dot graph" "$ROI" stack chain-O0.elf chain-O0.elf.roi &&
	fails 2 "^roi stack: --model prices a run: name its PROFILE" "$ROI" stack --format dot --model m.json chain-O0.elf &&
	echo "not an elf" >junk &&
	fails 1 "^roi: junk: not an ELF file$" "$ROI" stack junk
'

test_done
