#!/bin/bash
# machine.sh — how close 'roi estimate --price machine' comes to simavr's exact cycle counts: for
# every program of the calibration corpus, at each optimisation level, the counted blocks are
# priced from the plain firmware's instructions (the AVR instruction set manual's cycles, library
# routines from the model's table, docs/machine.md) and compared with the cycles simavr measures
# for the same plain firmware, main to exit. Nothing is fitted: the instruction timings are the
# manual's, the routines' prices were measured on their own (contrib/models/routines.py).
#
# Two columns of estimates:
#   target    counts taken in simavr ('roi run --target avr' of the counted build)
#   transfer  counts taken on the host (host gcc -O0 -g), transferred onto the counted firmware
#             ('roi transfer'): the firmware is compiled, never run
#
# Cortex-M (the mps2-an386 machine's Cortex-M4): no cycle-exact simulator is at hand, so the
# instructions are checked instead of the cycles: the estimate's instruction count (counts from
# 'roi run --target cortex-m'; newlib's routines by the STM32F401RE model's table, measured in QEMU
# on typical operands) against the instructions QEMU runs from main's entry until the start-up
# code runs again, counted in its single-stepped execution log.
#
# Figures are printed and written to bench/results/machine.json, never asserted.
#
#   bash bench/machine.sh [OPT...]        default: -O0 -O1 -O2 -Os
#   ROI_PROGRAMS='kernel-crc8 micro-div16'  only these programs of the corpus (while working on them)
#   ROI_MACHINE_CORPUS=DIR                  the programs of DIR instead of the corpus (make
#                                           bench-accuracy: bench/programs/outside, programs no figure
#                                           of roi was ever tuned on, linked with -lm, into
#                                           bench/results/machine-outside.json)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
roi=${ROI_BIN:-$top/build/bin/roi}
mcu=atmega32u4
corpus=$(cd "${ROI_MACHINE_CORPUS:-$top/contrib/calibration}" && pwd)
# libraries the programs link with (-lm: avr-libc's float routines replace libgcc's, so not for the
# corpus, whose models were measured without it)
libs=${ROI_MACHINE_LIBS:-}
work=${ROI_MACHINE_WORK:-$top/build/machine}
out=${ROI_MACHINE_JSON:-$top/bench/results/machine.json}
opts=${*:--O0 -O1 -O2 -Os}
mkdir -p "$work"
sources=
for name in ${ROI_PROGRAMS:-}; do sources="$sources $corpus/$name.c"; done
[ -n "$sources" ] || sources=$(ls "$corpus"/kernel-*.c "$corpus"/micro-*.c 2>/dev/null || ls "$corpus"/*.c)
host0=$work/host-O0
rm -rf "$host0" && mkdir -p "$host0"
rows=$work/rows.txt
arm_rows=$work/arm-rows.txt
: >"$rows"
: >"$arm_rows"
avr_cc () { avr-gcc -mmcu=$mcu -gdwarf-2 "$@"; }

for opt in $opts; do
	dir=$work/${opt#-}
	rm -rf "$dir" && mkdir -p "$dir"
	model=$top/models/$mcu-${opt#-}.json
	for src in $sources; do
		name=$(basename "$src" .c)
		e=$dir/$name
		# the firmware as it ships, the counted build (with the branches inside a statement
		# counted: docs/machine.md), and the block-lines build (the plain code, its line table
		# naming each instruction's counted block)
		avr-gcc -mmcu=$mcu "$opt" "$src" $libs -o "$e-plain.elf"
		avr_cc "$opt" -fplugin="$top/build/avr/roi.so" -fplugin-arg-roi-machine-values "$src" $libs -o "$e-count.elf"
		avr_cc "$opt" -fplugin="$top/build/avr/roi.so" -fplugin-arg-roi-block-lines "$src" $libs -o "$e-blocks.elf"
		measured=$("$roi" run --target avr --mcu $mcu --cycles-only --json "$e-plain.elf" |
			jq '.cycles - .main_cycle')
		"$roi" run --target avr --mcu $mcu -o "$e-count.roi" "$e-count.elf" >/dev/null
		price () {
			"$roi" estimate --json --price machine --firmware "$e-plain.elf" --block-lines "$e-blocks.elf" \
				--model "$model" "$e-count.elf" "$1" 2>>"$dir/estimate.log" |
				jq -r '"\(.total.cycles) \(.total.unpriced_calls)"'
		}
		t=$(price "$e-count.roi")
		[ -f "$host0/$name.roi" ] || ( cd "$host0" &&
		  gcc -O0 -g -fplugin="$top/build/host/roi.so" -fplugin-arg-roi-machine-values "$src" "$top/build/host/libroi.a" $libs -o "$name" &&
		  "./$name" >/dev/null )
		"$roi" transfer -o "$e-transfer.roi" "$e-count.elf" "$host0/$name" "$host0/$name.roi" >>"$dir/transfer.log"
		x=$(price "$e-transfer.roi")
		echo "${opt#-} $name $measured $t $x" >>"$rows"
	done
done

# Cortex-M
cm=$top/contrib/cortex-m/mps2-an386
arm_cc () { arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 "$@"; }
arm_link () { arm_cc "$@" "$work/startup.o" -T "$cm/mps2-an386.ld" -nostartfiles --specs=nano.specs --specs=rdimon.specs; }
arm_cc -O2 -g -c "$cm/startup.c" -o "$work/startup.o"
for opt in $opts; do
	dir=$work/arm-${opt#-}
	rm -rf "$dir" && mkdir -p "$dir"
	for src in $sources; do
		name=$(basename "$src" .c)
		e=$dir/$name
		arm_link "$opt" -g "$src" $libs -o "$e-plain.elf"
		arm_link "$opt" -g -fplugin="$top/build/arm/roi.so" -fplugin-arg-roi-machine-values "$src" $libs -o "$e-count.elf"
		arm_link "$opt" -g -fplugin="$top/build/arm/roi.so" -fplugin-arg-roi-block-lines "$src" $libs -o "$e-blocks.elf"
		"$roi" run --target cortex-m --machine mps2-an386 -o "$e-count.roi" "$e-count.elf" >/dev/null
		timeout 600 qemu-system-arm -M mps2-an386 -display none -serial none -monitor none -parallel none \
			-semihosting-config enable=on,target=native -singlestep -d exec,nochain -D "$e.log" \
			-kernel "$e-plain.elf"
		q=$(awk '/^Trace/ { if ($NF == "main") m = 1; else if (m && $NF == "Reset_Handler") { print n; exit } if (m) n++ }' "$e.log")
		rm -f "$e.log"
		x=$("$roi" estimate --json --price machine --firmware "$e-plain.elf" --block-lines "$e-blocks.elf" \
			--model "$top/models/stm32f401re.json" "$e-count.elf" "$e-count.roi" 2>>"$dir/estimate.log" |
			jq -r '"\(.total.instructions) \(.total.unpriced_calls)"') || x="null null"
		echo "${opt#-} $name $q $x" >>"$arm_rows"
	done
done

awk -v out="$out" '
function abs(x) { return x < 0 ? -x : x }
{
	opt = $1; e_t = ($4 - $3) / $3; e_x = ($6 - $3) / $3
	n[opt]++; st[opt] += abs(e_t); sx[opt] += abs(e_x); ut[opt] += $5 > 0; ux[opt] += $7 > 0
	if (abs(e_t) > mt[opt]) { mt[opt] = abs(e_t); wt[opt] = $2 }
	if (abs(e_x) > mx[opt]) { mx[opt] = abs(e_x); wx[opt] = $2 }
	if (!(opt in seen)) { seen[opt] = 1; order[++no] = opt }
	line[NR] = sprintf("%-4s %-26s %10d %12.0f %+8.2f%% %12.0f %+8.2f%%", opt, $2, $3, $4, 100 * e_t, $6, 100 * e_x)
	js[NR] = sprintf("{\"opt\":\"%s\",\"program\":\"%s\",\"measured_cycles\":%d,\"target_estimate\":%.1f,\"target_error\":%.5f,\"target_unpriced_calls\":%d,\"transfer_estimate\":%.1f,\"transfer_error\":%.5f,\"transfer_unpriced_calls\":%d}", opt, $2, $3, $4, e_t, $5, $6, e_x, $7)
}
END {
	printf "%-4s %-26s %10s %12s %9s %12s %9s\n", "opt", "program", "measured", "target-est", "error", "transfer-est", "error"
	for (i = 1; i <= NR; i++) print line[i]
	print ""
	print "machine pricing (--price machine) against simavr, main to exit:"
	printf "%-4s %9s %12s %11s %-24s %14s %12s %s\n", "opt", "programs", "target mean", "target max", "(worst)", "transfer mean", "transfer max", "(worst)"
	printf "{\"roi_machine_accuracy\":1,\"method\":\"each counted block priced from the plain firmware'"'"'s instructions (AVRe/AVRe+ cycles), routines from the model'"'"'s table; against simavr'"'"'s cycles of the plain firmware, main to exit\",\"summary\":[" >out
	for (k = 1; k <= no; k++) {
		o = order[k]
		printf "%-4s %9d %11.2f%% %10.2f%% %-24s %13.2f%% %11.2f%% %s\n", o, n[o], 100 * st[o] / n[o], 100 * mt[o], wt[o], 100 * sx[o] / n[o], 100 * mx[o], wx[o]
		printf "%s{\"opt\":\"%s\",\"programs\":%d,\"target_mean_abs_error\":%.5f,\"target_max_abs_error\":%.5f,\"target_worst\":\"%s\",\"target_with_unpriced\":%d,\"transfer_mean_abs_error\":%.5f,\"transfer_max_abs_error\":%.5f,\"transfer_worst\":\"%s\",\"transfer_with_unpriced\":%d}", (k > 1 ? "," : ""), o, n[o], st[o] / n[o], mt[o], wt[o], ut[o], sx[o] / n[o], mx[o], wx[o], ux[o] >out
	}
	printf "],\"programs\":[" >out
	for (i = 1; i <= NR; i++) printf "%s%s", (i > 1 ? "," : ""), js[i] >out
	printf "]," >out
}' "$rows"
awk -v out="$out" '
function abs(x) { return x < 0 ? -x : x }
{
	opt = $1; n[opt]++
	if (!(opt in seen)) { seen[opt] = 1; order[++no] = opt }
	ok = $4 != "null" && $4 != ""
	if (ok) { d = ($4 - $3) / $3; eq[opt] += $4 == $3; s[opt] += abs(d); if (abs(d) > m[opt]) m[opt] = abs(d); u[opt] += $5 > 0 }
	else failed[opt]++
	js[NR] = sprintf("{\"opt\":\"%s\",\"program\":\"%s\",\"qemu_instructions\":%d,\"estimated_instructions\":%s,\"unpriced_calls\":%s}", opt, $2, $3, ok ? $4 : "null", ok ? $5 : "null")
}
END {
	print ""
	print "Cortex-M4 (mps2-an386): estimated instructions against QEMU'"'"'s, main to exit (no cycle-exact simulator):"
	printf "%-4s %9s %7s %15s %13s %12s %9s\n", "opt", "programs", "equal", "with unpriced", "mean |diff|", "max |diff|", "no estimate"
	printf "\"cortex_m\":{\"method\":\"estimated instructions against QEMU'"'"'s single-stepped execution log, main to exit; cycles unchecked\",\"summary\":[" >>out
	for (k = 1; k <= no; k++) {
		o = order[k]; c = n[o] - failed[o]
		printf "%-4s %9d %7d %15d %12.2f%% %11.2f%% %9d\n", o, n[o], eq[o], u[o], c ? 100 * s[o] / c : 0, 100 * m[o], failed[o]
		printf "%s{\"opt\":\"%s\",\"programs\":%d,\"equal\":%d,\"with_unpriced\":%d,\"mean_abs_diff\":%.5f,\"max_abs_diff\":%.5f,\"no_estimate\":%d}", (k > 1 ? "," : ""), o, n[o], eq[o], u[o], c ? s[o] / c : 0, m[o], failed[o] >>out
	}
	printf "],\"programs\":[" >>out
	for (i = 1; i <= NR; i++) printf "%s%s", (i > 1 ? "," : ""), js[i] >>out
	printf "]}}\n" >>out
}' "$arm_rows"
jq . "$out" >"$out.tmp" && mv "$out.tmp" "$out"
echo "written: $out"
