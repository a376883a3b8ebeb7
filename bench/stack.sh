#!/bin/bash
# stack.sh — roi stack's static worst case against the peak simavr measures, on every program
# of the calibration corpus, counted (the plugin) for the ATmega32U4, at each -O level.
#
# The measured peak is testsuite/simavr/sp-peak.c's: the stack pointer before every
# instruction from main on (no roi code), the bytes below where the start-up code set it. The
# static figure is main's worst-case depth from 'roi stack --json'. A complete static figure
# (nothing unknown below main) must never be below the measured peak; one flagged as a bound
# (recursion, an indirect call, ...) may be. It is at or above it by the paths the run did not
# take (a libgcc routine's branch for infinities, a deeper call the data never asked for).
#
# Also, per function: the metadata's "stack" against GCC's own -fstack-usage file (.su) for the
# same function, avr-gcc and arm-none-eabi-gcc.
#
# Figures are printed and written to bench/results/stack.json.
#
#   bash bench/stack.sh [OPT...]        default: -O0 -Os
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
roi=$top/build/bin/roi
mcu=atmega32u4
work=$top/build/stack-bench
out=${ROI_STACK_JSON:-$top/bench/results/stack.json}
opts=${*:--O0 -Os}
mkdir -p "$work"
cc -O2 $(pkg-config --cflags simavr 2>/dev/null || echo -I/usr/include/simavr) \
	"$top/testsuite/simavr/sp-peak.c" -o "$work/sp-peak" -lsimavr -lelf

rows=$work/rows.txt
su=$work/su.txt
: >"$rows"
: >"$su"
for opt in $opts; do
	dir=$work/${opt#-}
	rm -rf "$dir" && mkdir -p "$dir/arm"
	for src in "$top"/contrib/calibration/*.c; do
		name=$(basename "$src" .c)
		( cd "$dir" && avr-gcc -mmcu=$mcu "$opt" -fstack-usage -fplugin="$top/build/avr/roi.so" "$src" -o "$name.elf" )
		measured=$("$work/sp-peak" "$dir/$name.elf" $mcu | sed -n 's/^main //p')
		"$roi" stack --json "$dir/$name.elf" >"$dir/$name.json"
		read -r static complete flags < <(jq -r '.roots[] | select(.kind == "main") |
			"\(.depth) \(.complete) \(.flags | join(",") | if . == "" then "-" else . end)"' "$dir/$name.json")
		echo "${opt#-} $name $measured $static $complete $flags" >>"$rows"
		# the metadata's figure against the .su file, function by function, on both targets
		for t in avr arm; do
			if [ $t = avr ]; then
				( cd "$dir" && avr-gcc -mmcu=$mcu "$opt" -fstack-usage -fplugin="$top/build/avr/roi.so" \
					-c "$src" -o "$name.o" && avr-objcopy --dump-section .roi.meta="$name.meta" "$name.o" /dev/null )
				d=$dir
			else
				( cd "$dir/arm" && arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb "$opt" -fstack-usage \
					-fplugin="$top/build/arm/roi.so" -c "$src" -o "$name.o" &&
				  arm-none-eabi-objcopy --dump-section .roi.meta="$name.meta" "$name.o" /dev/null )
				d=$dir/arm
			fi
			tr '\0' '\n' <"$d/$name.meta" | jq -r '.functions[] | "\(.name) \(.stack)"' | sort >"$d/$name.m"
			sed 's/^.*:\([^:	]*\)	\([0-9]*\)	.*$/\1 \2/' "$d/$name.su" | sort >"$d/$name.s"
			n=$(wc -l <"$d/$name.s")
			same=$(comm -12 "$d/$name.m" "$d/$name.s" | wc -l)
			echo "${opt#-} $t $name $n $same" >>"$su"
		done
	done
done

# rows: opt name measured static complete flags
awk -v opts="$opts" '
{
	o = $1; n[o]++
	if ($5 == "true") {
		c[o]++
		if ($4 == $3) eq[o]++
		else if ($4 > $3) { above[o]++; over[o] += $4 - $3; if ($4 - $3 > maxover[o]) maxover[o] = $4 - $3 }
		else below[o]++
	} else {
		b[o]++
		if ($4 < $3) bb[o]++
	}
}
END {
	printf "%-4s %8s %8s %6s %6s %6s %9s %8s %14s\n", "opt", "programs", "complete", "equal", "above", "below", "max above", "bounded", "bound < peak"
	split(opts, os, " ")
	for (i = 1; i in os; i++) {
		o = os[i]; sub(/^-/, "", o)
		printf "%-4s %8d %8d %6d %6d %6d %9d %8d %14d\n", o, n[o], c[o], eq[o], above[o], below[o], maxover[o], b[o], bb[o]
	}
}' "$rows"
awk '{ k = $1 " " $2; n[k] += $4; s[k] += $5 } END { for (k in n) printf "metadata \"stack\" = .su: %s %d of %d functions\n", k, s[k], n[k] }' "$su" | sort

{
	echo '{'
	echo '  "roi_stack_bench": 1,'
	echo "  \"mcu\": \"$mcu\","
	echo '  "method": "main'"'"'s static worst case (roi stack) against the peak stack simavr measures from main on (testsuite/simavr/sp-peak.c)",'
	echo '  "programs": ['
	awk '{ printf "%s    {\"opt\": \"%s\", \"name\": \"%s\", \"measured\": %d, \"static\": %d, \"complete\": %s, \"flags\": \"%s\"}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5, ($6 == "-" ? "" : $6) } END { print "" }' "$rows"
	echo '  ],'
	echo '  "su": ['
	awk '{ printf "%s    {\"opt\": \"%s\", \"target\": \"%s\", \"name\": \"%s\", \"functions\": %d, \"equal\": %d}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5 } END { print "" }' "$su"
	echo '  ]'
	echo '}'
} | jq . >"$out"
echo "written $out"
