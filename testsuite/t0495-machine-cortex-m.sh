#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi estimate --price machine on Cortex-M: the instructions the Thumb code runs

No cycle-exact Cortex-M simulator is at hand, so the cycles (the Cortex-M4
TRM'"'"'s timings) are not checked; what can be checked is the number of
instructions the priced blocks run: QEMU, single-stepping the plain firmware
with its execution log, names the function of every instruction it runs, and
those from main'"'"'s first instruction until the start-up code runs again are
the count to meet. On these corpus programs (kernels of integer and float
arithmetic, loops, conditional execution in IT blocks, a loop whose arms are
IT blocks with a piece of its latch amid them, a literal pool, -O0 code
aligned with the block-lines build'"'"'s, jump tables, hoisted and shrink-wrapped
code, copied tests) the estimate'"'"'s instruction count is QEMU'"'"'s exactly;
bench/machine.sh gives the whole corpus.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

HERE=$ROI_SRC/contrib/cortex-m/mps2-an386
CORPUS=$ROI_SRC/contrib/calibration
arm_cc () {
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 "$@"
}
arm_link () {
	arm_cc "$@" startup.o -T "$HERE/mps2-an386.ld" -nostartfiles --specs=nano.specs --specs=rdimon.specs
}
# builds NAME OPT SRC: NAME-plain.elf, NAME.elf (counted, run in QEMU for its counts), NAME-blocks.elf
builds () {
	arm_link "$2" -g "$3" -o "$1-plain.elf" &&
	arm_link "$2" -g -fplugin="$ROI_BUILD/arm/roi.so" "$3" -o "$1.elf" &&
	arm_link "$2" -g -fplugin="$ROI_BUILD/arm/roi.so" -fplugin-arg-roi-block-lines "$3" -o "$1-blocks.elf" &&
	"$ROI" run --target cortex-m --machine mps2-an386 "$1.elf" >/dev/null
}
# qemu_main_insns ELF: the instructions QEMU runs from main's entry until the start-up code
# (Reset_Handler) runs again, counted in its execution log, one translation block per instruction
qemu_main_insns () {
	timeout 120 qemu-system-arm -M mps2-an386 -display none -serial none -monitor none -parallel none \
		-semihosting-config enable=on,target=native -singlestep -d exec,nochain -D "$1.log" -kernel "$1" &&
	awk '/^Trace/ { if ($NF == "main") m = 1; else if (m && $NF == "Reset_Handler") { print n; exit } if (m) n++ }' "$1.log" &&
	rm -f "$1.log"
}

test_expect_success 'the start-up code' '
	arm_cc -O2 -g -c "$HERE/startup.c" -o startup.o
'

# kernel-crc8 -O2 and micro-minmax -Os: a loop whose if-converted arms (IT blocks) have a piece
# of its latch scheduled amid them. Then, by what they need of the flow:
# - -O0 code aligned with the block-lines build's, which has a nop where a line changes and a
#   branch over a jump where the plain build branches, and repeats the same loads of the same
#   locals: kernel-calendar, kernel-bsd-sum, kernel-hash32 at -O0;
# - a switch's jump through a table (LDR PC at -O0 and -O1, TBB at -Os) to the targets its table
#   lists: micro-switch;
# - a loop's set-up hoisted after the code before it, then a jump to the loop: micro-add-sub -O1,
#   kernel-crc16-ccitt -O1; a join's jump after one arm, which the other jumps past:
#   kernel-blur3x3 -O0;
# - a prologue moved past the first test (shrink-wrapping): kernel-crc32 -O1 (cbz; push),
#   kernel-quicksort -O1 (blt to the push past an early bx lr);
# - tests without code of their own whose arms are IT blocks, in one straight line:
#   kernel-binary-search -O2, kernel-kalman-float -O2, micro-compare-branch -Os;
# - a test the compiler copied into one arm, its exits shared by the copies: micro-struct -O2;
# - a join's first instructions under an arm's line: micro-bool -O2;
# - -O0 nops in a row before a join that jumps reach: kernel-state-machine -O0
for prog in kernel-crc8:-O0 kernel-isqrt:-O0 kernel-gcd:-O2 kernel-fir-q15:-O2 micro-float-div:-O2 micro-int64:-O2 \
	    kernel-crc8:-O2 micro-minmax:-Os \
	    kernel-calendar:-O0 kernel-bsd-sum:-O0 kernel-hash32:-O0 micro-switch:-O0 micro-switch:-O1 micro-switch:-Os \
	    micro-add-sub:-O1 kernel-crc16-ccitt:-O1 kernel-blur3x3:-O0 kernel-crc32:-O1 kernel-quicksort:-O1 \
	    kernel-binary-search:-O2 kernel-kalman-float:-O2 micro-compare-branch:-Os micro-struct:-O2 \
	    micro-bool:-O2 kernel-state-machine:-O0; do
	name=${prog%:*} opt=${prog#*:}
	test_expect_success "$name at $opt: the instructions QEMU runs from main" '
		builds $name$opt $opt "$CORPUS/$name.c" &&
		"$ROI" estimate --json --price machine --firmware $name$opt-plain.elf --block-lines $name$opt-blocks.elf \
			$name$opt.elf >est.json &&
		test_equal "$(qemu_main_insns $name$opt-plain.elf)" "$(jq .total.instructions est.json)" &&
		test_equal 0 "$(jq .total.unpriced_calls est.json)"
	'
done

# a loop inside one counted block, of a constant count: a byte-aligned struct initialised from a
# constant, copied at -Os by a loop the compiler expands inline (add.w r8, r3, #32; L: ldr; ldr;
# stmia.w lr!, {r0, r1}; adds r3, #8; cmp r3, r8; bne L): four trips, not the 36 bytes its block
# counts
test_expect_success 'a copy loop of a constant count inside one block, at -Os' '
	cat >copy.c <<-\EOF &&
	#include <stdint.h>

	struct fifo {
		uint8_t buf[32];
		uint8_t head, tail, count, dropped;
	};

	volatile uint8_t in_seed = 7;
	volatile uint32_t sink;

	int main(void)
	{
		uint32_t acc = 0;

		for (uint8_t r = 0; r < 20; r++) {
			struct fifo rx = {{1, 2, 3}, 0, 0, 0, 0};

			rx.buf[r & 31] = in_seed;
			rx.head = r;
			acc += rx.buf[(r + 1) & 31] + rx.buf[r & 31] + rx.head;
		}
		sink = acc;
		return 0;
	}
	EOF
	builds copy-Os -Os copy.c &&
	"$ROI" estimate --json --price machine --firmware copy-Os-plain.elf --block-lines copy-Os-blocks.elf \
		copy-Os.elf >est.json &&
	test_equal 1 "$(jq .machine.loops_counted est.json)" &&
	test_equal "$(qemu_main_insns copy-Os-plain.elf)" "$(jq .total.instructions est.json)"
'

# code GCC shares between blocks: at -Os cross-jumping gives the switch's cases of crossjump.c one
# copy of "bl push; cbz", under one case's line; each use is the entering case's (639 instructions
# before, against QEMU's 621)
test_expect_success 'code two cases share after cross-jumping, at -Os: the instructions QEMU runs from main' '
	cp "$TEST_DIRECTORY/programs/crossjump.c" . &&
	builds crossjump-Os -Os crossjump.c &&
	# (the compiler did cross-jump: two of the cases branch to the one call of push)
	call=$(arm-none-eabi-objdump -d crossjump-Os-plain.elf | sed -n "/<main>:/,/^\$/p" |
		awk "/bl.*<push>/ { sub(/:.*/, \"\", \$1); print \$1 }") &&
	test_equal 2 "$(arm-none-eabi-objdump -d crossjump-Os-plain.elf | grep -c "b\.n.*	$call <main")" &&
	"$ROI" estimate --json --price machine --firmware crossjump-Os-plain.elf --block-lines crossjump-Os-blocks.elf \
		crossjump-Os.elf >est.json &&
	# (three entries into shared code: cases 1 and 2 into the call, the default into "sp = 0")
	test_equal 3 "$(jq .machine.shared_entries est.json)" &&
	test_equal 22 "$(jq ".functions[] | select(.name == \"push\") | .calls" est.json)" &&
	test_equal 0 "$(jq .machine.flow_off est.json)" &&
	test_equal "$(qemu_main_insns crossjump-Os-plain.elf)" "$(jq .total.instructions est.json)"
'

test_expect_success 'the text says no cycle-exact simulator checks the Cortex-M cycles' '
	"$ROI" estimate --price machine --firmware kernel-gcd-O2-plain.elf --block-lines kernel-gcd-O2-blocks.elf \
		kernel-gcd-O2.elf >out &&
	test_grep "^pricing   machine code of kernel-gcd-O2-plain.elf, Cortex-M4 (TRM timings); blocks from kernel-gcd-O2-blocks.elf$" out &&
	test_grep "^note      no cycle-exact Cortex-M simulator checks these cycles; the instruction count is checked against QEMU.s (docs/machine.md)$" out &&
	jq -e ".machine.cycle_exact_check == false" est.json >/dev/null
'

test_expect_success 'an AVR model for a Cortex-M firmware is an error' '
	status 1 "$ROI" estimate --price machine --firmware kernel-gcd-O2-plain.elf --block-lines kernel-gcd-O2-blocks.elf \
		--model "$ROI_SRC/models/atmega32u4.json" kernel-gcd-O2.elf &&
	test_grep "^roi: $ROI_SRC/models/atmega32u4.json: a model of ATmega32U4 (avr), kernel-gcd-O2.elf is built for arm-none-eabi: price it with a model of its part$" err
'

test_done
