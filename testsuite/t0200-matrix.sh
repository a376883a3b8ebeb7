#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='the seed matrix multiplication, counted by hand

Appendix 3 of the seed thesis multiplies a 3x4 by a 4x5 unsigned short matrix.
By the C semantics at -O0: the m, p and n loops run 3, 15 and 60 iterations,
so their conditions are evaluated 3+1, 3*(5+1) and 15*(4+1) times: 4 + 18 + 75
= 97 (the seed reports 78, its known error); the increments run 3 + 15 + 60 =
78 times; m3 is stored 15 times (zeroing) and 60 times (+=); each of the 60
inner iterations loads m1, m2 and m3 and multiplies once.

Every access scales each run-time subscript by the element size (roi'"'"'s
"index"): by a shift of the size'"'"'s logarithm (2-byte elements: 1; m1'"'"'s
8-byte rows: 3), by a multiply for m2'"'"'s and m3'"'"'s 10-byte rows. m3[m][p] is
reached 15 + 60 + 60 times (zeroing, the load and the store of +=), m1[m][n]
and m2[n][p] 60 times each: 2 x 255 = 510 scalings, 195 of them multiplies.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

test_expect_success 'matrix builds with the plugin and runs' '
	roi_link matrix -O0 "$EXAMPLES/matrix/matrix.c" &&
	./matrix &&
	test -f matrix.roi &&
	"$ROI" estimate --json matrix >est.json
'

test_expect_success '60 multiplications, in the type GCC computes them in' '
	# GCC narrows (unsigned short)(int * int) into an unsigned short
	# multiply already in the front end; roi reports the generated code.
	test_equal 60 "$(op_count est.json mul)" &&
	test_equal 60 "$(op_count est.json mul u16)"
'

test_expect_success 'the subscripts are scaled 510 times, in size_t' '
	test_equal 510 "$(op_count est.json index u64)" &&
	test_equal 510 "$(jq "[.ops[] | select(.kind == \"index\" and .ctype == \"size_t\") | .count] | add" est.json)"
'

test_expect_success '97 loop comparisons, each feeding a branch' '
	# GCC canonicalises m < 3 into m <= 2.
	cmp=$(( $(op_count est.json lt i32) + $(op_count est.json le i32) )) &&
	test_equal 97 "$cmp" &&
	test_equal 97 "$(op_count est.json br)"
'

test_expect_success '78 increments of the int loop counters' '
	test_equal 78 "$(op_count est.json add i32)"
'

test_expect_success '75 stores into m3 (15 zeroings + 60 +=), all volatile array stores' '
	test_equal 75 "$(op_count est.json store u16 array)" &&
	test_equal 75 "$(jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" est.json)"
'

test_expect_success '180 array loads: m1, m2 and the volatile m3, 60 each' '
	test_equal 180 "$(op_count est.json load u16 array)" &&
	test_equal 60 "$(jq "[.ops[] | select(.kind == \"load\" and .volatile == true) | .count] | add" est.json)"
'

test_expect_success '60 unsigned short additions (+=) and 20 int moves (19 loop inits + return 0)' '
	test_equal 60 "$(op_count est.json add u16)" &&
	test_equal 20 "$(op_count est.json move i32)"
'

test_expect_success 'at -O0 the loop counters live in the frame: 685 reads, 97 writes' '
	# writes: 19 initialisations (1 m + 3 p + 15 n) and 78 increments;
	# reads: 97 conditions + 78 increments + 15 x 2 subscripts of the zeroing
	# + 60 x 8 subscripts of m3[m][p] += m1[m][n] * m2[n][p] (m,n  n,p  m,p  m,p)
	test_equal 685 "$(op_count est.json load i32 frame)" &&
	test_equal 97 "$(op_count est.json store i32 frame)"
'

test_expect_success 'main sets up a stack frame and saves one register: the frame pointer' '
	# x86-64 at -O0: push %rbp; mov %rsp,%rbp; sub $N,%rsp for m3 and the counters
	test_equal 1 "$(op_count est.json frame)" &&
	test_equal 1 "$(op_count est.json save)"
'

test_expect_success 'at -O0 a loop jumps to its condition once per entry: 1 + 3 + 15 = 19' '
	# GCC lays a for loop out body first, its condition after it, and enters
	# it with a jump to the condition: the m loop once, p 3 times, n 15 times
	test_equal 19 "$(op_count est.json jump)"
'

test_expect_success 'the total is the sum of the above plus one return: 1981' '
	# 60 mul + 97 cmp + 97 br + 78 add + 75 store + 180 load + 60 add + 20 move + 1 ret
	# + 685 frame reads + 97 frame writes + 510 subscripts scaled + 1 frame
	# + 1 saved register + 19 jumps
	test_equal 1981 "$(jq .total.ops est.json)" &&
	test_equal 1 "$(op_count est.json ret)" &&
	test_equal 1 "$(fn_calls est.json main)"
'

test_expect_success 'ctype names resolve the UInt16 typedef' '
	jq -r ".ops[] | select(.kind == \"mul\") | .ctype" est.json >ctype &&
	echo "unsigned short" >expect &&
	test_cmp expect ctype
'

test_expect_success 'at -O2 the volatile accesses survive exactly: 75 stores, 60 loads of m3' '
	rm -f matrix.roi &&
	roi_link matrix -O2 "$EXAMPLES/matrix/matrix.c" &&
	./matrix &&
	"$ROI" estimate --json matrix >est2.json &&
	test_equal 75 "$(jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add" est2.json)" &&
	test_equal 60 "$(jq "[.ops[] | select(.kind == \"load\" and .volatile == true) | .count] | add" est2.json)" &&
	test_equal 0 "$(op_count est2.json load "" frame)" "optimised code keeps the counters in registers"
'

test_expect_success 'a second run accumulates: every count doubles' '
	rm -f matrix.roi &&
	roi_link matrix -O0 "$EXAMPLES/matrix/matrix.c" &&
	./matrix && ./matrix &&
	"$ROI" estimate --json matrix >twice.json &&
	test_equal 120 "$(op_count twice.json mul)" &&
	test_equal 3962 "$(jq .total.ops twice.json)"
'

test_done
