#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='a loop whose trips GCC computes: its counter added once per entry, exact

Where GCC knows how often a loop'"'"'s latch runs per entry (a constant, n, n - 1, a pointer
range, an 8-bit count that wraps), the counter on the loop'"'"'s cycle is added that count on
the way in and the loop carries none (gcc-plugin/roi-trips.cc). Every count must be what a
counter per block gives (-fplugin-arg-roi-block-counters) and what the C semantics give by
hand (programs/trips.c); a loop also left by a break keeps its counter.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

P=$TEST_DIRECTORY/programs

# volatile_stores JSON: the stores to volatile objects of an estimate.
volatile_stores () {
	jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add // 0" "$1"
}
# lines JSON: "LINE COUNT BRANCHES" for every line of a gcov JSON report.
lines () {
	jq -r '.files[].lines[] | "\(.line_number) \(.count) \([.branches[].count] | join(","))"' "$1"
}
# line_count JSON LINE: the count of LINE in a gcov JSON report.
line_count () {
	jq --argjson l "$2" '[.files[].lines[] | select(.line_number == $l) | .count] | add // 0' "$1"
}
# fn_asm PROGRAM FN: FN'"'"'s disassembly.
fn_asm () {
	objdump -d --no-show-raw-insn "$1" | awk "/<$2>:/,/^\$/"
}

# programs/trips.c by hand: the stores to sink of each loop's body (lines 19, 25, 31, 37, 43 and
# 62), 385 in all; and, with a counter per block, the same count of every line and branch.
test_expect_success 'every count is the one of a counter per block and the one by hand, -O0 to -Os' '
	for opt in -O0 -O1 -O2 -Os; do
		for mode in edges blocks; do
			flag= &&
			if [ $mode = blocks ]; then flag=-fplugin-arg-roi-block-counters; fi &&
			rm -f $mode.roi &&
			roi_link $mode $opt $flag "$P/trips.c" && ./$mode &&
			"$ROI" report --format gcov-json $mode >$mode.json &&
			lines $mode.json >$mode.lines || return 1
		done &&
		test_cmp blocks.lines edges.lines &&
		"$ROI" estimate --json edges >edges-est.json &&
		test_equal 385 "$(volatile_stores edges-est.json)" "$opt stores" &&
		for want in 19:10 25:7 31:4 37:100 43:259 62:4; do
			test_equal ${want#*:} "$(line_count edges.json ${want%:*})" "$opt line ${want%:*}" ||
				return 1
		done || return 1
	done
'

test_expect_success 'optimising, the loops whose trips GCC computes are added once per entry, not the one with a break' '
	$ROI_CC -O2 -fplugin-arg-roi-verbose -c "$P/trips.c" -o trips.o 2>notes &&
	for fn in constant upto from_one range wrap branchy; do
		test_grep "note: roi: counter [0-9]* of .$fn. added once per entry of the loop: " notes ||
			return 1
	done &&
	! grep "of .with_break. added once per entry" notes
'

# At -O0 the counters stay in memory, where the loops name them; GCC knows the trips of constant,
# upto, wrap and from_one there (n - 1, or none where n <= 1: the test masks the number, with no
# branch), of range not (its test is not in the shape it wants).
test_expect_success 'the loops of constant, upto, from_one and wrap carry no counter at -O0; the one with a break does' '
	roi_link o0 -O0 "$P/trips.c" &&
	for fn in constant upto from_one wrap; do
		fn_asm o0 $fn >$fn.s &&
		test_grep "__roi_c_" $fn.s &&
		in_loops $fn.s >$fn.in && ! test -s $fn.in || return 1
	done &&
	fn_asm o0 with_break >with_break.s &&
	in_loops with_break.s >with_break.in && test -s with_break.in
'

test_done
