#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi run --target cortex-m: firmware under qemu-system-arm, counters read over its gdbstub

The seed matrix example is built for the QEMU machine mps2-an386 (Cortex-M4) with the
start-up code and linker script in contrib/cortex-m/mps2-an386/, newlib and
rdimon semihosting, and the ARM plugin (runtime=none). roi stops it at _exit,
reads the counters and writes the profile. The counts that do not depend on
type widths are those of t0200: 60 multiplications, 97 loop comparisons feeding
97 branches, 75 volatile stores and 60 volatile loads of m3 (at -Os too), main
entered once. The instruction count is the QEMU icount, checked on a firmware
small enough to count by hand.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

CM_MAKEFILE=$ROI_SRC/contrib/cortex-m/mps2-an386/Makefile
# cm_build OUT OPT SRC...: a firmware through the example Makefile.
cm_build () {
	out=$1 opt=$2
	shift 2
	make -s -f "$CM_MAKEFILE" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" OUT="$out" OPT="$opt" SRC="$*"
}
roi_cm () { "$ROI" run --target cortex-m --machine mps2-an386 "$@"; }
# insns_of OUT: the instruction count in a 'roi run' text line.
insns_of () { sed -n 's/.* after \([0-9][0-9]*\) instructions (QEMU icount, not cycles); .*/\1/p' "$1"; }
volatile_count () {
	jq --arg k "$2" '[.ops[] | select(.kind == $k and .volatile == true) | .count] | add // 0' "$1"
}
# no_qemu_for ELF: no QEMU is left running this firmware.
no_qemu_for () {
	if pgrep -f "qemu-system-arm .*$1" >&2; then
		echo "a QEMU for $1 is still running" >&2
		return 1
	fi
}

test_expect_success 'matrix at -O0 runs to _exit and leaves a profile next to the ELF' '
	mkdir fw &&
	cm_build fw/matrix.elf -O0 "$EXAMPLES/matrix/matrix.c" &&
	roi_cm fw/matrix.elf >out &&
	test_grep "^fw/matrix.elf: stopped at _exit(0) after [0-9]* instructions (QEMU icount, not cycles); profile fw/matrix.elf.roi$" out &&
	test_equal 1 "$(wc -l <out)" &&
	test_grep "^program $(pwd)/fw/matrix.elf$" fw/matrix.elf.roi &&
	test_grep "^runs 1$" fw/matrix.elf.roi
'

test_expect_success 'the -O0 counts are those derived by hand' '
	"$ROI" estimate --json fw/matrix.elf fw/matrix.elf.roi >est.json &&
	test_equal 60 "$(op_count est.json mul)" &&
	cmp=$(( $(op_count est.json lt) + $(op_count est.json le) )) &&
	test_equal 97 "$cmp" "loop comparisons" &&
	test_equal 97 "$(op_count est.json br)" &&
	test_equal 75 "$(volatile_count est.json store)" &&
	test_equal 60 "$(volatile_count est.json load)" &&
	test_equal 1 "$(fn_calls est.json main)"
'

test_expect_success 'at -Os the volatile accesses survive exactly: 75 stores, 60 loads' '
	cm_build matrix-os.elf -Os "$EXAMPLES/matrix/matrix.c" &&
	roi_cm matrix-os.elf >out-os &&
	"$ROI" estimate --json matrix-os.elf >est-os.json &&
	test_equal 75 "$(volatile_count est-os.json store)" &&
	test_equal 60 "$(volatile_count est-os.json load)" &&
	test_equal 1 "$(fn_calls est-os.json main)" &&
	test "$(insns_of out-os)" -lt "$(insns_of out)"
'

test_expect_success 'the instruction count is the same every run' '
	n=$(insns_of out) &&
	test "$n" -gt 0 &&
	roi_cm fw/matrix.elf >again &&
	test_equal "$n" "$(insns_of again)" "second run"
'

test_expect_success 'the instruction count is exact on a firmware counted by hand' '
	# Reset_Handler: 1 + 10 x 2 (the loop) + 1 instructions, then _exit,
	# where roi stops before its first instruction: 22. The counted C
	# function never runs; it gives the firmware roi metadata.
	cat >tiny.S <<-\EOF &&
		.syntax unified
		.thumb
		.section .vectors, "a"
		.word 0x20001000
		.word Reset_Handler
		.text
		.global Reset_Handler, _exit
		.thumb_func
	Reset_Handler:
		movs r1, #10
	1:	subs r1, #1
		bne 1b
		movs r0, #0
		.thumb_func
	_exit:
		ldr r1, =0x20026	@ ADP_Stopped_ApplicationExit
		movs r0, #0x18		@ SYS_EXIT
		bkpt 0xab
	EOF
	echo "int roi_unused(int x) { return x + 1; }" >unused.c &&
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O0 -fplugin="$ROI_BUILD/arm/roi.so" -nostdlib \
		-T "$ROI_SRC/contrib/cortex-m/mps2-an386/mps2-an386.ld" tiny.S unused.c -o tiny.elf &&
	roi_cm tiny.elf >out-tiny &&
	test_equal 22 "$(insns_of out-tiny)"
'

test_expect_success 'a firmware that ends QEMU itself, not through _exit: no counters, a clear error' '
	cat >own.S <<-\EOF &&
		.syntax unified
		.thumb
		.section .vectors, "a"
		.word 0x20001000
		.word Reset_Handler
		.text
		.global Reset_Handler, _exit
		.thumb_func
	Reset_Handler:
		ldr r1, =0x20026	@ ADP_Stopped_ApplicationExit
		movs r0, #0x18		@ SYS_EXIT
		bkpt 0xab
		.thumb_func
	_exit:
		b _exit
	EOF
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O0 -fplugin="$ROI_BUILD/arm/roi.so" -nostdlib \
		-T "$ROI_SRC/contrib/cortex-m/mps2-an386/mps2-an386.ld" own.S unused.c -o own.elf &&
	test_must_fail roi_cm own.elf 2>err &&
	test_grep "^roi: own.elf: the firmware ended (status 0) without calling _exit: no counters to read$" err &&
	test ! -f own.elf.roi
'

test_expect_success 'the DWT region port builds warning-free and a hooked firmware runs to its end' '
	cat >work.c <<-\EOF &&
	static int __attribute__((noinline)) work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }
	int main(void) { int t = 0; for (int k = 0; k < 5; k++) t += work(10 + k); return t != 2645; }
	EOF
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -Wall -Wextra -Werror \
		-c "$ROI_SRC/runtime/ports/roi-region-dwt.c" -o dwt.o &&
	printf "hooks include function work\n" >f.txt &&
	make -s -f "$CM_MAKEFILE" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" ROI_FLAGS=-fplugin-arg-roi-filter=f.txt \
		OUT=work.elf OPT=-O0 SRC="work.c dwt.o" &&
	arm-none-eabi-objdump -d work.elf >work.s &&
	test_grep "bl.*<__roi_region_exit>" work.s &&
	roi_cm work.elf >out &&
	# exit status 0: the sums of squares 285 + 385 + 506 + 650 + 819 came out right with the hooks
	test_grep "stopped at _exit(0)" out &&
	test_equal 5 "$("$ROI" estimate --json work.elf | jq ".functions[] | select(.name == \"work\") | .calls")"
'

test_expect_success '--json and --output; semihosting output reaches stdout, the exit status is reported' '
	cat >hello.c <<-\EOF &&
	#include <stdio.h>
	int main(void) { printf("hello from the firmware\n"); return 3; }
	EOF
	cm_build hello.elf -O0 hello.c &&
	roi_cm --json -o h.roi hello.elf >run.json 2>err &&
	test -f h.roi &&
	test_equal "hello from the firmware" "$(head -n 1 run.json)" &&
	sed 1d run.json >doc.json &&
	test_equal "\"hello.elf\" \"mps2-an386\" 3 \"exit\" \"h.roi\" []" \
		"$(jq -c -r "[.elf, .machine, .exit_status, .stop_reason, .profile, .saturated] | map(tojson) | join(\" \")" doc.json)" &&
	test "$(jq .instructions doc.json)" -gt 0 &&
	test_grep "^roi: warning: hello.elf: the firmware exited with status 3$" err
'

test_expect_success '64-bit counters read the same; 16-bit ones stick at 65535 and are reported' '
	make -s -f "$CM_MAKEFILE" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" OUT=m64.elf SRC="$EXAMPLES/matrix/matrix.c" \
		ROI_FLAGS=-fplugin-arg-roi-counter-bits=64 &&
	roi_cm m64.elf >/dev/null &&
	grep "^fn " fw/matrix.elf.roi | cut -d" " -f5- >expect &&
	grep "^fn " m64.elf.roi | cut -d" " -f5- >actual &&
	test_cmp expect actual &&
	cat >sat.c <<-\EOF &&
	volatile unsigned char x;
	int main(void) { for (unsigned long i = 0; i < 70000; i++) x++; return 0; }
	EOF
	make -s -f "$CM_MAKEFILE" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" OUT=sat.elf SRC=sat.c \
		ROI_FLAGS=-fplugin-arg-roi-counter-bits=16 &&
	roi_cm --json sat.elf >sat.json 2>err &&
	test_grep "^roi: warning: [0-9]* counters* of function main saturated at 65535: counts are lower bounds$" err &&
	test_equal "\"main\"" "$(jq ".saturated[0].function" sat.json)" &&
	test_grep " 65535" sat.elf.roi
'

test_expect_success 'a fault stops through the start-up code: status 128 + exception number' '
	echo "int main(void) { return *(volatile int *)0x70000000; }" >fault.c &&
	cm_build fault.elf -O0 fault.c &&
	roi_cm fault.elf >out-fault 2>err &&
	test_grep "^fault.elf: stopped at _exit(131) after" out-fault &&
	test_grep "^fault: exception 03$" err
'

test_expect_success 'not an ARM ELF (x86-64, AVR) or an object file: a clear error, no QEMU' '
	echo "int main(void) { return 0; }" >host.c &&
	gcc host.c -o host &&
	test_must_fail roi_cm host 2>err &&
	test_grep "^roi: host: an x86-64 ELF, not 32-bit little-endian ARM (--target cortex-m)$" err &&
	avr-gcc -mmcu=atmega32u4 -O0 "$EXAMPLES/matrix/matrix.c" -o avr.elf &&
	test_must_fail roi_cm avr.elf 2>err &&
	test_grep "^roi: avr.elf: an AVR ELF, not 32-bit little-endian ARM (--target cortex-m)$" err &&
	test_must_fail roi_cm fw/matrix.elf.startup.o 2>err &&
	test_grep "^roi: fw/matrix.elf.startup.o: an object file, not a linked firmware$" err &&
	test_equal 1 "$(wc -l <err)" &&
	no_qemu_for "$(pwd)"
'

test_expect_success 'an ARM ELF built without the plugin: a clear error' '
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O0 \
		"$EXAMPLES/matrix/matrix.c" fw/matrix.elf.startup.o \
		-T "$ROI_SRC/contrib/cortex-m/mps2-an386/mps2-an386.ld" -nostartfiles \
		--specs=nano.specs --specs=rdimon.specs -o noplugin.elf &&
	test_must_fail roi_cm noplugin.elf 2>err &&
	test_grep "^roi: noplugin.elf: no roi metadata (was it compiled with -fplugin=roi?)$" err &&
	test_equal 1 "$(wc -l <err)"
'

test_expect_success 'the STM32F401RE model is for this compiler: no warning (its version has a date); an AVR model is refused' '
	"$ROI" estimate --model "$ROI_SRC/models/stm32f401re.json" fw/matrix.elf >est 2>err &&
	! test -s err &&
	test_must_fail "$ROI" estimate --model "$ROI_SRC/models/atmega32u4-O0.json" fw/matrix.elf >est 2>err &&
	test_grep "^roi: .*atmega32u4-O0.json: a model of ATmega32U4 (avr), fw/matrix.elf is built for arm-none-eabi: price it with a model of its part$" err
'

test_expect_success '--cycles-only: a firmware without roi, its instructions and status only' '
	# tiny.S alone: the 22 instructions counted by hand above, no metadata needed
	arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -nostdlib \
		-T "$ROI_SRC/contrib/cortex-m/mps2-an386/mps2-an386.ld" tiny.S -o tiny-plain.elf &&
	roi_cm --cycles-only tiny-plain.elf >out-plain &&
	test_equal "tiny-plain.elf: stopped at _exit(0) after 22 instructions (QEMU icount, not cycles)" "$(cat out-plain)" &&
	! test -e tiny-plain.elf.roi &&
	roi_cm --cycles-only --json noplugin.elf >plain.json &&
	test_equal "0 null" "$(jq -r "[.exit_status, .profile] | map(tojson) | join(\" \")" plain.json)" &&
	roi_cm fw/matrix.elf >out-counted &&
	test "$(jq .instructions plain.json)" -lt "$(insns_of out-counted)" &&
	! test -e noplugin.elf.roi
'

test_expect_success 'a counter array missing from the symbol table of a linked function' '
	sym=$(arm-none-eabi-nm fw/matrix.elf | sed -n "s/.* b \(__roi_c_.*_0\)$/\1/p") &&
	arm-none-eabi-objcopy -N "$sym" fw/matrix.elf nosym.elf &&
	test_must_fail roi_cm nosym.elf 2>err &&
	test_grep "^roi: nosym.elf: no symbol $sym (the counters of function main)$" err
'

test_expect_success 'a function dropped by --gc-sections is left out of the profile' '
	cat >gc.c <<-\EOF &&
	int roi_dropped(int x) { return x * 3; }
	int main(void) { return 0; }
	EOF
	make -s -f "$CM_MAKEFILE" ROI_PLUGIN="$ROI_BUILD/arm/roi.so" OUT=gc.elf SRC=gc.c \
		CFLAGS="-O0 -ffunction-sections -fdata-sections -Wl,--gc-sections" &&
	! arm-none-eabi-nm gc.elf | grep -q roi_dropped &&
	roi_cm gc.elf >out-gc &&
	test_equal 1 "$(grep -c "^fn " gc.elf.roi)"
'

test_expect_success 'a firmware that never stops hits --max-seconds; QEMU is stopped' '
	echo "volatile int x; int main(void) { for (;;) x++; }" >forever.c &&
	cm_build forever.elf -O0 forever.c &&
	test_must_fail roi_cm --max-seconds 1 "$(pwd)/forever.elf" 2>err &&
	test_grep "^roi: $(pwd)/forever.elf: no stop after 1 s (--max-seconds); the firmware may loop forever$" err &&
	test_equal 1 "$(wc -l <err)" &&
	test ! -f forever.elf.roi &&
	no_qemu_for "$(pwd)/forever.elf"
'

test_expect_success 'bad options: exit 2' '
	rc=0 && roi_cm --mcu atmega32u4 fw/matrix.elf 2>err || rc=$? &&
	test_equal 2 $rc "exit status" && test_grep "--mcu is not an option of --target cortex-m" err &&
	rc=0 && roi_cm --max-seconds soon fw/matrix.elf 2>err || rc=$? &&
	test_equal 2 $rc "exit status" && test_grep "--max-seconds .soon. is not a number" err &&
	rc=0 && roi_cm 2>err || rc=$? &&
	test_equal 2 $rc "exit status" && test_grep "missing FIRMWARE" err
'

test_expect_success 'no QEMU of this script is left running' '
	no_qemu_for "$(pwd)"
'

test_done
