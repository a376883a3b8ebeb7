#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='the matrix and FIR examples counted on ATmega32U4 (simavr) and Cortex-M4 (QEMU)

Counts taken on the target must match the hand derivations (see
t0200-matrix.sh and contrib/examples/fir/fir.c) and, where the program does
not depend on type widths, the host run of the same source at the same -O.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

ARM_FLAGS="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
M4=$ROI_SRC/contrib/cortex-m/mps2-an386

# build_run TARGET EXAMPLE OPT: firmware built with the plugin, run, estimated to EXAMPLE-TARGET-OPT.json
build_run () {
	elf=$2-$1$3.elf
	case $1 in
	avr)
		avr-gcc -mmcu=atmega32u4 $3 -fplugin="$ROI_BUILD/avr/roi.so" "$EXAMPLES/$2/$2.c" -o $elf &&
		"$ROI" run --target avr --mcu atmega32u4 $elf >$elf.run ;;
	arm)
		arm-none-eabi-gcc $ARM_FLAGS $3 -c "$M4/startup.c" -o startup.o &&
		arm-none-eabi-gcc $ARM_FLAGS $3 -fplugin="$ROI_BUILD/arm/roi.so" "$EXAMPLES/$2/$2.c" startup.o \
			-T "$M4/mps2-an386.ld" -nostartfiles --specs=nano.specs --specs=rdimon.specs -o $elf &&
		"$ROI" run --target cortex-m --machine mps2-an386 $elf >$elf.run ;;
	esac &&
	"$ROI" estimate --json $elf >$2-$1$3.json
}

volatile_stores () {
	jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" "$1"
}

test_expect_success 'host runs at -O0' '
	roi_link matrix -O0 "$EXAMPLES/matrix/matrix.c" && ./matrix &&
	"$ROI" estimate --json matrix >matrix-host-O0.json &&
	roi_link fir -O0 "$EXAMPLES/fir/fir.c" && ./fir &&
	"$ROI" estimate --json fir >fir-host-O0.json
'

for target in avr arm; do
	test_expect_success "$target: matrix and fir at -O0 and -Os run to completion" '
		build_run $target matrix -O0 && build_run $target matrix -Os &&
		build_run $target fir -O0 && build_run $target fir -Os &&
		test_grep "stopped" matrix-$target-O0.elf.run
	'

	test_expect_success "$target: hand-derived counts at -O0" '
		test_equal 60 "$(op_count matrix-$target-O0.json mul)" &&
		test_equal 97 "$(op_count matrix-$target-O0.json br)" &&
		test_equal 75 "$(volatile_stores matrix-$target-O0.json)" &&
		test_equal 904 "$(op_count fir-$target-O0.json mul i32)" "the Q15 products are 32-bit on both" &&
		test_equal 1 "$(fn_calls fir-$target-O0.json fir)"
	'

	test_expect_success "$target: at -Os the volatile accesses survive exactly" '
		test_equal 75 "$(volatile_stores matrix-$target-Os.json)" &&
		test_equal 64 "$(volatile_stores fir-$target-Os.json)"
	'

	test_expect_success "$target: branches and multiplies agree with the host run at -O0" '
		for ex in matrix fir; do
			test_equal "$(op_count $ex-host-O0.json br)" "$(op_count $ex-$target-O0.json br)" "$ex br" &&
			test_equal "$(op_count $ex-host-O0.json mul)" "$(op_count $ex-$target-O0.json mul)" "$ex mul" ||
			return 1
		done
	'
done

test_done
