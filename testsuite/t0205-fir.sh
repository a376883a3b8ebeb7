#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='the FIR filter example, counted by hand (see contrib/examples/fir/fir.c)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

test_expect_success 'fir at -O0: 904 multiply-accumulates, 2017 loop tests' '
	roi_link fir -O0 "$EXAMPLES/fir/fir.c" &&
	./fir &&
	"$ROI" estimate --json fir >est.json &&
	test_equal 904 "$(op_count est.json mul i32)" "sum of min(n + 1, 16) over n = 0..63" &&
	test_equal 2017 "$(op_count est.json le i32)" "1887 tap-loop tests + 65 + 65" &&
	test_equal 128 "$(op_count est.json store i16 array)" "64 inputs made, 64 outputs filtered" &&
	test_equal 1 "$(fn_calls est.json fir)"
'

test_expect_success 'fir at -Os: the 64 volatile outputs are stored exactly' '
	rm -f fir.roi &&
	roi_link fir -Os "$EXAMPLES/fir/fir.c" &&
	./fir &&
	"$ROI" estimate --json fir >os.json &&
	test_equal 64 "$(jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" os.json)"
'

test_done
