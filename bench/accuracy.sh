#!/bin/bash
# accuracy.sh — how close roi's estimates come to simavr's exact cycle counts on
# code the model has never seen: for every program of the calibration corpus,
# at each optimisation level, the program is estimated with a model fitted
# without it (leave-one-out, 'roi calibrate --leave-one-out') and compared with
# the cycles simavr measures for the plain firmware (main to exit).
#
# Three columns of estimates:
#   target    counts taken in simavr ('roi run --target avr' of the counted build)
#   host      counts taken on the host (host gcc, same -O), mapped to the target
#             through the model's ABI: the seeds' workflow
#   transfer  counts taken on the host (host gcc -O0 -g), transferred onto the
#             counted firmware by source location ('roi transfer',
#             docs/transfer.md): the firmware is compiled, never run
#
# Figures are printed and written to bench/results/accuracy.json, never
# asserted (README: "Accuracy").
#
#   bash bench/accuracy.sh [OPT...]        default: -O0 -Os
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
roi=$top/build/bin/roi
mcu=atmega32u4
work=$top/build/accuracy
out=${ROI_ACCURACY_JSON:-$top/bench/results/accuracy.json}
opts=${*:--O0 -Os}
mkdir -p "$work"
host0=$work/host-O0
rm -rf "$host0" && mkdir -p "$host0"

rows=$work/rows.txt
: >"$rows"
for opt in $opts; do
	dir=$work/${opt#-}
	rm -rf "$dir" && mkdir -p "$dir/host"
	# the prior: the base model derived nearest the level (contrib/models/README.md)
	base=$top/$(sh "$top/contrib/models/base-model.sh" "$opt")
	"$roi" calibrate --target avr --mcu $mcu --base "$base" "$opt" --work "$dir/elf" \
		--leave-one-out "$dir/loo" -o "$dir/model.json" 2>"$dir/calibrate.log" >&2
	jq -r '.calibration.programs[] | "\(.name) \(.measured_cycles)"' "$dir/model.json" |
	while read -r name measured; do
		# target run: the counted firmware in simavr
		"$roi" run --target avr --mcu $mcu "$dir/elf/$name-count.elf" >/dev/null
		t=$("$roi" estimate --json --model "$dir/loo/$name.json" "$dir/elf/$name-count.elf" \
			"$dir/elf/$name-count.elf.roi" 2>/dev/null | jq .total.cycles)
		# host run: the same source on the host, counts mapped through the ABI
		( cd "$dir/host" &&
		  gcc "$opt" -fplugin="$top/build/host/roi.so" "$top/contrib/calibration/$name.c" \
			"$top/build/host/libroi.a" -o "$name" && "./$name" )
		h=$("$roi" estimate --json --model "$dir/loo/$name.json" "$dir/host/$name" \
			"$dir/host/$name.roi" 2>/dev/null | jq .total.cycles)
		# transfer: the host's -O0 run, its counts carried onto the firmware's blocks
		[ -f "$host0/$name.roi" ] || ( cd "$host0" &&
		  gcc -O0 -g -fplugin="$top/build/host/roi.so" "$top/contrib/calibration/$name.c" \
			"$top/build/host/libroi.a" -o "$name" && "./$name" )
		"$roi" transfer -o "$dir/elf/$name.transfer.roi" "$dir/elf/$name-count.elf" \
			"$host0/$name" "$host0/$name.roi" >>"$dir/transfer.log"
		x=$("$roi" estimate --json --model "$dir/loo/$name.json" "$dir/elf/$name-count.elf" \
			"$dir/elf/$name.transfer.roi" 2>/dev/null | jq .total.cycles)
		echo "${opt#-} $name $measured $t $h $x" >>"$rows"
	done
done

awk -v out="$out" '
function abs(x) { return x < 0 ? -x : x }
{
	opt = $1; e_t = ($4 - $3) / $3; e_h = ($5 - $3) / $3; e_x = ($6 - $3) / $3
	n[opt]++; st[opt] += abs(e_t); sh[opt] += abs(e_h); sx[opt] += abs(e_x)
	if (abs(e_t) > mt[opt]) mt[opt] = abs(e_t)
	if (abs(e_h) > mh[opt]) mh[opt] = abs(e_h)
	if (abs(e_x) > mx[opt]) mx[opt] = abs(e_x)
	if (!(opt in seen)) { seen[opt] = 1; order[++no] = opt }
	line[NR] = sprintf("%-4s %-26s %10d %12.0f %+8.2f%% %12.0f %+8.2f%% %12.0f %+8.2f%%", opt, $2, $3, $4, 100 * e_t, $5, 100 * e_h, $6, 100 * e_x)
	js[NR] = sprintf("{\"opt\":\"%s\",\"program\":\"%s\",\"measured_cycles\":%d,\"target_estimate\":%.1f,\"target_error\":%.5f,\"host_estimate\":%.1f,\"host_error\":%.5f,\"transfer_estimate\":%.1f,\"transfer_error\":%.5f}", opt, $2, $3, $4, e_t, $5, e_h, $6, e_x)
}
END {
	printf "%-4s %-26s %10s %12s %9s %12s %9s %12s %9s\n", "opt", "program", "measured", "target-est", "error", "host-est", "error", "transfer-est", "error"
	for (i = 1; i <= NR; i++) print line[i]
	print ""
	printf "%-4s %9s %13s %13s %13s %13s %14s %13s\n", "opt", "programs", "target mean", "target max", "host mean", "host max", "transfer mean", "transfer max"
	printf "{\"roi_accuracy\":1,\"method\":\"leave-one-out: each program estimated with a model fitted without it\",\"summary\":[" >out
	for (k = 1; k <= no; k++) {
		o = order[k]
		printf "%-4s %9d %12.2f%% %12.2f%% %12.2f%% %12.2f%% %13.2f%% %12.2f%%\n", o, n[o], 100 * st[o] / n[o], 100 * mt[o], 100 * sh[o] / n[o], 100 * mh[o], 100 * sx[o] / n[o], 100 * mx[o]
		printf "%s{\"opt\":\"%s\",\"programs\":%d,\"target_mean_abs_error\":%.5f,\"target_max_abs_error\":%.5f,\"host_mean_abs_error\":%.5f,\"host_max_abs_error\":%.5f,\"transfer_mean_abs_error\":%.5f,\"transfer_max_abs_error\":%.5f}", (k > 1 ? "," : ""), o, n[o], st[o] / n[o], mt[o], sh[o] / n[o], mh[o], sx[o] / n[o], mx[o] >out
	}
	printf "],\"programs\":[" >out
	for (i = 1; i <= NR; i++) printf "%s%s", (i > 1 ? "," : ""), js[i] >out
	printf "]}\n" >out
}' "$rows"
jq . "$out" >"$out.tmp" && mv "$out.tmp" "$out"
echo "written: $out"
