#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='control flow counted exactly at -O0

Every expected value is derived by hand from the C semantics of the program
(see the comment at the top of each testsuite/programs/*.c): goto loops,
&& and || short-circuits, switch, for/while/do with break and continue,
recursion, calls through pointers, varargs, 64-bit and float arithmetic, and
a program of three units with two static functions named alike.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

P=$TEST_DIRECTORY/programs

# count PROGRAM: build at -O0, run, estimate into PROGRAM.json
count () {
	roi_link "$1" -O0 "$P/$1.c" && ./"$1" && "$ROI" estimate --json "$1" >"$1.json"
}

# comparisons JSON TYPE: executed ordering comparisons (GCC may turn < into <=)
comparisons () {
	echo $(( $(op_count "$1" lt "$2") + $(op_count "$1" le "$2") +
		 $(op_count "$1" gt "$2") + $(op_count "$1" ge "$2") ))
}

test_expect_success 'goto: a loop the seed could not parse' '
	count goto &&
	# GCC writes s - 45 as s + -45: 10 + 10 + 1 adds.
	test_equal 21 "$(op_count goto.json add i32)" "s += i and i++, 10 times each, and s - 45" &&
	test_equal 10 "$(comparisons goto.json i32)" "i < 10" &&
	test_equal 10 "$(op_count goto.json br)"
'

test_expect_success '&& and ||: the right operand runs only when needed' '
	count shortcircuit &&
	test_equal 24 "$(fn_calls shortcircuit.json probe)" "8 + 4 + 8 + 4 calls" &&
	test_equal 24 "$(call_count shortcircuit.json probe)"
'

test_expect_success 'switch: one multi-way branch per call' '
	count switch &&
	test_equal 10 "$(fn_calls switch.json dispatch)" &&
	test_equal 10 "$(op_count switch.json switch i32)" &&
	test_equal 10 "$(op_count switch.json store i32 field)" "one volatile store per case, out[k] at a constant offset"
'

test_expect_success 'for, while, do-while with break and continue' '
	count loops &&
	test_equal 5 "$(op_count loops.json add u8)" "a++ for even i below 10" &&
	test_equal 6 "$(op_count loops.json add u16)" "b++ except when i is 3" &&
	test_equal 4 "$(op_count loops.json add u64)" "c++ in the do-while" &&
	test_equal 23 "$(comparisons loops.json i32)" "11 + 8 + 4 loop tests" &&
	test_equal 18 "$(op_count loops.json eq i32)" "i == 10 (11 times) and i == 3 (7 times)"
'

test_expect_success 'recursion: fib(10) enters fib 177 times' '
	count recursion &&
	test_equal 177 "$(fn_calls recursion.json fib)" &&
	test_equal 177 "$(call_count recursion.json fib)" "176 recursive calls and main'"'"'s" &&
	# GCC writes n - 1 as n + -1: 88 sums, 2 * 88 = 176 decrements and
	# main'"'"'s - 55 are all additions; no subtraction is left.
	test_equal 265 "$(op_count recursion.json add i32)" "88 + 176 + 1" &&
	test_equal 0 "$(op_count recursion.json sub i32)"
'

test_expect_success 'calls through a function pointer are indirect calls' '
	count fnptr &&
	test_equal 6 "$(call_count fnptr.json "*indirect")" &&
	test_equal 3 "$(fn_calls fnptr.json twice)" &&
	test_equal 3 "$(fn_calls fnptr.json thrice)"
'

test_expect_success 'varargs: three calls, six trips through the va_arg loop' '
	count varargs &&
	test_equal 3 "$(fn_calls varargs.json sum)" &&
	test_equal 9 "$(op_count varargs.json lt i32)" "k < count: 2 + 3 + 4 tests"
'

test_expect_success 'long long and float arithmetic keep their types' '
	count wide &&
	test_equal 10 "$(op_count wide.json mul i64)" &&
	test_equal 10 "$(op_count wide.json add f64)" &&
	test_equal 10 "$(op_count wide.json mul f32)" &&
	test_equal 10 "$(op_count wide.json shl u64)" &&
	test_equal 0 "$(op_count wide.json add f32)"
'

test_expect_success 'three units, system headers, two static helpers of one name' '
	roi_link multi -O0 "$P/multi/a.c" "$P/multi/b.c" "$P/multi/main.c" &&
	./multi &&
	"$ROI" estimate --json multi >multi.json &&
	test_equal 2 "$(jq "[.functions[] | select(.name == \"helper\")] | length" multi.json)" &&
	test_equal 3 "$(fn_calls multi.json helper a.c)" &&
	test_equal 5 "$(fn_calls multi.json helper b.c)" &&
	test_equal 1 "$(call_count multi.json snprintf)" &&
	test_equal 1 "$(call_count multi.json strcmp)"
'

# One source compiled into two units gives functions of the same name, file and line: the text's
# note names the unit of each (docs/estimate-json.md), and only of those.
test_expect_success 'one source in two units: the text names the unit of each of its functions' '
	printf "static int helper(int x) { return x * 2; }\nint ENTRY(int x) { return helper(x); }\n" >same.c &&
	printf "int one(int);\nint two(int);\nint main(void) { return one(1) + two(2) - 6; }\n" >same-main.c &&
	${CC:-gcc} -fplugin="$ROI_PLUGIN" -O0 -DENTRY=one -c same.c -o one.o &&
	${CC:-gcc} -fplugin="$ROI_PLUGIN" -O0 -DENTRY=two -c same.c -o two.o &&
	roi_link same -O0 same-main.c one.o two.o &&
	./same && "$ROI" estimate same >same.txt &&
	u1=$(meta_json one.o | jq -r ".[0].unit") && u2=$(meta_json two.o | jq -r ".[0].unit") &&
	test "$u1" != "$u2" &&
	sed -n "/^functions/,/^\$/p" same.txt | awk "NR > 2 && NF { print \$1, (\$NF ~ /%\$/ ? \"-\" : \$NF) }" | sort >notes &&
	printf "%s\n" "helper $u1" "helper $u2" "main -" "one -" "two -" | sort >expect &&
	test_cmp expect notes
'

test_expect_success 'the same programs at -O2 keep their call counts' '
	for p in shortcircuit switch recursion fnptr; do
		rm -f $p.roi &&
		roi_link $p -O2 "$P/$p.c" && ./$p &&
		"$ROI" estimate --json $p >$p-O2.json || return 1
	done &&
	test_equal 24 "$(fn_calls shortcircuit-O2.json probe)" &&
	test_equal 10 "$(fn_calls switch-O2.json dispatch)" &&
	test_equal 10 "$(op_count switch-O2.json switch)" &&
	test_equal 3 "$(fn_calls fnptr-O2.json twice)" &&
	test_equal 3 "$(fn_calls fnptr-O2.json thrice)"
'

# -fplugin-arg-roi-atomic counts per thread: each thread in its own copy of the counters, plain
# updates (no lock-prefixed instruction), added up as each thread ends.
test_expect_success '8 threads with atomic counters: exact totals, no atomic update' '
	for opt in -O0 -O2; do
		rm -f threads.roi &&
		gcc $opt -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-atomic -o threads \
			"$P/threads.c" "$ROI_LIB" -lpthread &&
		./threads &&
		"$ROI" estimate --json threads >threads.json &&
		test_equal 800000 "$(fn_calls threads.json work)" &&
		test_equal 8 "$(fn_calls threads.json run)" &&
		objdump -d --no-show-raw-insn threads | sed -n "/<work>:/,/^\$/p" >work.dis &&
		test_grep "__roi_thread_unit" work.dis &&
		! grep "lock " work.dis || return 1
	done
'

test_expect_success 'GCC clones (.constprop) are counted as the function they copy' '
	cat >clone.c <<-CEOF &&
	static int __attribute__((noinline)) scale(int v, int k) { return v * k; }
	int main(void) { int s = 0; for (int i = 0; i < 5; i++) s += scale(i, 3); return s != 30; }
	CEOF
	roi_link clone -O2 clone.c && ./clone &&
	"$ROI" estimate --json clone >clone.json &&
	jq -r ".functions[].asm" clone.json >asm &&
	test_grep "^scale\\.constprop" asm &&
	test_equal 5 "$(jq "[.functions[] | select(.asm | startswith(\"scale\")) | .calls] | add" clone.json)"
'

test_done
