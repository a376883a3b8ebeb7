#!/bin/sh
# stm32-qemu.sh — the derived STM32F401RE model set beside the instructions QEMU executes, on
# every program of the calibration corpus at -O0 (the level the model was derived for).
#
# QEMU is no cycle-exact Cortex-M4, but it counts instructions exactly (icount, 'roi run
# --target cortex-m --cycles-only' on the plain firmware), and a Cortex-M4 takes at least one
# cycle per instruction. So an estimate below a program's instruction count is certainly wrong,
# and the estimated cycles per instruction (CPI) of ordinary code should lie between 1 and about
# 2 (loads 2, taken branches 2-4, most else 1). Each program's count is of main to _exit: the count
# of an empty main (start-up, newlib's exit) is taken off.
#
# Figures are printed and written to bench/results/stm32-qemu.json, never asserted
# (README: "Calibrated models and accuracy").
#
#   sh bench/stm32-qemu.sh
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
roi=$top/build/bin/roi
model=$top/models/stm32f401re.json
cm=$top/contrib/cortex-m/mps2-an386
work=$top/build/stm32-qemu
out=${ROI_STM32_JSON:-$top/bench/results/stm32-qemu.json}
opt=-O0
arch="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
ld="-T $cm/mps2-an386.ld -nostartfiles --specs=nano.specs --specs=rdimon.specs"

for f in "$roi" "$top/build/arm/roi.so"; do
	[ -e "$f" ] || { echo "stm32-qemu.sh: $f is missing (make all arm)" >&2; exit 2; }
done
rm -rf "$work" && mkdir -p "$work"
cd "$work"
# shellcheck disable=SC2086  # arch and ld are word lists
arm-none-eabi-gcc $arch $opt -c "$cm/startup.c" -o startup.o

# plain SRC: main-to-_exit instructions of the plain firmware, before the empty main's are taken off
plain () {
	# shellcheck disable=SC2086
	arm-none-eabi-gcc $arch $opt "$1" startup.o $ld -o plain.elf &&
		"$roi" run --target cortex-m --cycles-only --json plain.elf | jq .instructions
}
# estimate SRC: the model's cycles for the counted firmware's profile
estimate () {
	rm -f count.elf        # make would take the last program's firmware for up to date
	make -s -f "$cm/Makefile" ROI="$roi" ROI_PLUGIN="$top/build/arm/roi.so" OUT=count.elf OPT=$opt SRC="$1" &&
		"$roi" run --target cortex-m count.elf >/dev/null &&
		"$roi" estimate --json --model "$model" count.elf 2>/dev/null | jq .total.cycles
}

echo "int main(void) { return 0; }" >empty.c
base_i=$(plain empty.c)
base_c=$(estimate empty.c)
rows=rows.txt
: >"$rows"
for src in "$top"/contrib/calibration/*.c; do
	name=$(basename "$src" .c)
	i=$(plain "$src")
	c=$(estimate "$src")
	echo "$name $((i - base_i)) $(jq -n "$c - $base_c")" >>"$rows"
done

jq -R -s --arg opt "$opt" --arg model "models/stm32f401re.json" \
	--arg compiler "$(arm-none-eabi-gcc --version | head -n 1)" '
	[split("\n")[] | select(length > 0) | split(" ")
	 | {program: .[0], instructions: (.[1] | tonumber), estimated_cycles: (.[2] | tonumber)}
	 | .cpi = (.estimated_cycles / .instructions)] as $p
	| ($p | map(.cpi) | sort) as $s
	| {roi_stm32_qemu: 1,
	   method: "estimated cycles (the model) per instruction QEMU executed, main to _exit, plain firmware on mps2-an386 (Cortex-M4)",
	   model: $model, opt: $opt, compiler: $compiler,
	   summary: {programs: ($p | length), median_cpi: $s[($s | length) / 2 | floor],
	             min_cpi: $s[0], max_cpi: $s[-1],
	             below_one_instruction_per_cycle: [$p[] | select(.cpi < 1) | .program],
	             above_two: [$p[] | select(.cpi > 2) | .program]},
	   programs: $p}' "$rows" >"$out"

printf '%-26s %12s %12s %6s\n' program instructions est-cycles CPI
jq -r '.programs[] | [.program, .instructions, .estimated_cycles, (.cpi * 100 | round / 100)] | @tsv' "$out" |
	awk -F'\t' '{ printf "%-26s %12d %12.0f %6.2f\n", $1, $2, $3, $4 }'
jq -r '.summary | "\(.programs) programs: CPI median \(.median_cpi * 100 | round / 100), min \(.min_cpi * 100 | round / 100), max \(.max_cpi * 100 | round / 100); below 1 (impossible on a Cortex-M4): \(.below_one_instruction_per_cycle | length); above 2: \(.above_two | length)"' "$out"
echo "stm32-qemu: written to $out"
