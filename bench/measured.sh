#!/bin/bash
# measured.sh — 'roi run --measured' against simavr's own count and the counted build's counters,
# on every program of the calibration corpus at each optimisation level:
#
#   lines    the measured profile's per-line cycles, added up, against simavr's cycle count of
#            the same plain firmware ('roi run --cycles-only'): the difference must be 0
#   blocks   the measured profile's block counts (through the block-lines build and the counted
#            build's metadata) against the counters of a build counted per block, whose profile
#            holds the blocks' counts (-fplugin-arg-roi-block-counters), run in simavr ('roi run'):
#            every block but the value counters, which are not measured; the blocks that differ,
#            and of those the ones the profile does not flag "ambiguous" (a count the code decides)
#
# Figures are printed and written to bench/results/measured.json, the table to
# bench/results/measured.txt; never asserted.
#
#   bash bench/measured.sh [OPT...]        default: -O0 -O1 -O2 -Os
#   ROI_PROGRAMS='kernel-crc8 micro-div16'  only these programs of the corpus (while working on them)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
roi=$top/build/bin/roi
plugin=$top/build/avr/roi.so
mcu=atmega32u4
work=$top/build/measured
out=${ROI_MEASURED_JSON:-$top/bench/results/measured.json}
opts=${*:--O0 -O1 -O2 -Os}
mkdir -p "$work"
sources=
for name in ${ROI_PROGRAMS:-}; do sources="$sources $top/contrib/calibration/$name.c"; done
[ -n "$sources" ] || sources=$(ls "$top"/contrib/calibration/*.c)

rows=$work/rows.txt
: >"$rows"
for opt in $opts; do
	dir=$work/${opt#-}
	rm -rf "$dir" && mkdir -p "$dir"
	for src in $sources; do
		name=$(basename "$src" .c)
		p=$dir/$name
		avr-gcc -mmcu=$mcu "$opt" -gdwarf-2 "$src" -o "$p-plain.elf"
		avr-gcc -mmcu=$mcu "$opt" -gdwarf-2 -fplugin="$plugin" "$src" -o "$p-count.elf"
		avr-gcc -mmcu=$mcu "$opt" -gdwarf-2 -fplugin="$plugin" -fplugin-arg-roi-block-counters "$src" \
			-o "$p-bcount.elf"
		avr-gcc -mmcu=$mcu "$opt" -gdwarf-2 -fplugin="$plugin" -fplugin-arg-roi-block-lines "$src" \
			-o "$p-blocks.elf"
		simavr=$("$roi" run --json --target avr --mcu $mcu --cycles-only "$p-plain.elf" | jq .cycles)
		"$roi" run --json --target avr --mcu $mcu --measured --blocks "$p-blocks.elf" \
			--counted "$p-count.elf" -o "$p.measured" "$p-plain.elf" >/dev/null
		"$roi" run --target avr --mcu $mcu "$p-bcount.elf" >/dev/null
		avr-objcopy -O binary -j .text "$p-plain.elf" "$p-plain.bin"
		avr-objcopy -O binary -j .text "$p-blocks.elf" "$p-blocks.bin"
		same=$(cmp -s "$p-plain.bin" "$p-blocks.bin" && echo 1 || echo 0)
		# the counted run's counts, one "unit index b count" per block
		awk '$1 == "fn" { for (i = 6; i <= NF; i++) print $2, $3, i - 6, $i }' "$p-bcount.elf.roi" \
			| sort >"$p.counted"
		jq -r '.blocks.functions[] | .unit as $u | .index as $f | (.ambiguous // []) as $a |
			.counts | to_entries[] | select(.value != null) |
			"\($u) \($f) \(.key) \(.value) \($a[.key] // 0)"' \
			"$p.measured" | sort >"$p.blocks"
		nblocks=$(wc -l <"$p.blocks")
		join -j1 <(awk '{print $1"/"$2"/"$3, $4, $5}' "$p.blocks") \
			<(awk '{print $1"/"$2"/"$3, $4}' "$p.counted") | awk '$2 != $4' >"$p.differ"
		differ=$(wc -l <"$p.differ")
		silent=$(awk '$3 == 0' "$p.differ" | wc -l)
		unjoined=$(join -v1 -j1 <(awk '{print $1"/"$2"/"$3}' "$p.blocks") \
			<(awk '{print $1"/"$2"/"$3}' "$p.counted") | wc -l)
		sum=$(jq '[.lines[].cycles] | add' "$p.measured")
		total=$(jq .cycles "$p.measured")
		ambiguous=$(jq .blocks.ambiguous "$p.measured")
		echo "${opt#-} $name $simavr $total $sum $nblocks $((differ + unjoined)) $ambiguous $same $((silent + unjoined))" >>"$rows"
	done
done

awk -v out="$out" '
{
	opt = $1; d = $5 - $3; t = $4 - $3
	n[opt]++; blocks[opt] += $6; differ[opt] += $7; amb[opt] += $8; silent[opt] += $10
	if (d != 0 || t != 0) linebad[opt]++
	if ($7 > 0) progbad[opt]++
	if (!(opt in seen)) { seen[opt] = 1; order[++no] = opt }
	line[NR] = sprintf("%-4s %-26s %10d %10d %6d %7d %7d %8d %9d %5s", opt, $2, $3, $5, d, $6, $7, $10, $8, $9 ? "yes" : "no")
	js[NR] = sprintf("{\"opt\":\"%s\",\"program\":\"%s\",\"simavr_cycles\":%d,\"measured_cycles\":%d,\"line_sum\":%d,\"line_sum_difference\":%d,\"blocks\":%d,\"blocks_differing\":%d,\"blocks_differing_unflagged\":%d,\"ambiguous_paths\":%d,\"block_lines_build_is_plain\":%s}", opt, $2, $3, $4, $5, d, $6, $7, $10, $8, $9 ? "true" : "false")
}
END {
	printf "%-4s %-26s %10s %10s %6s %7s %7s %8s %9s %5s\n", "opt", "program", "simavr", "line-sum", "diff", "blocks", "differ", "unflagged", "ambiguous", "same"
	for (i = 1; i <= NR; i++) print line[i]
	print ""
	printf "%-4s %9s %22s %8s %16s %20s %10s %10s\n", "opt", "programs", "line sum != simavr", "blocks", "blocks differing", "programs with a diff", "unflagged", "ambiguous"
	for (k = 1; k <= no; k++) {
		o = order[k]
		printf "%-4s %9d %22d %8d %16d %20d %10d %10d\n", o, n[o], linebad[o], blocks[o], differ[o], progbad[o], silent[o], amb[o]
		sum[k] = sprintf("{\"opt\":\"%s\",\"programs\":%d,\"line_sum_not_simavr\":%d,\"blocks\":%d,\"blocks_differing\":%d,\"programs_with_differing_blocks\":%d,\"blocks_differing_unflagged\":%d,\"ambiguous_paths\":%d}", o, n[o], linebad[o], blocks[o], differ[o], progbad[o], silent[o], amb[o])
	}
	printf "{\"bench\":\"measured\",\"mcu\":\"atmega32u4\",\"summary\":[" >out
	for (k = 1; k <= no; k++) printf("%s%s", (k > 1 ? "," : ""), sum[k]) >out
	printf "],\"programs\":[" >out
	for (i = 1; i <= NR; i++) printf("%s%s", (i > 1 ? "," : ""), js[i]) >out
	print "]}" >out
}' "$rows" | tee "${out%.json}.txt"
