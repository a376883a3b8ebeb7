#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='counters on the edges off a spanning tree: every count solved exactly

The plugin counts only the edges whose counts do not follow from flow
conservation (docs/formats.md, "Counted edges"); roi solves every block and
edge count from them. Each expected value is derived by hand from the C
semantics, and must come out the same with a counter per block
(-fplugin-arg-roi-block-counters): calls that do not return (exit, longjmp),
which way each branch went (against gcov'"'"'s own branch counts), loops whose
counters stay in registers while they run, and 16-bit counters.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

P=$TEST_DIRECTORY/programs

if gcov --version >/dev/null 2>&1; then
	test_set_prereq GCOV
fi

# volatile_stores JSON: the stores to volatile objects of an estimate.
volatile_stores () {
	jq "[.ops[] | select(.kind == \"store\" and .volatile == true) | .count] | add // 0" "$1"
}

# da LCOV LINE: the count of LINE in an lcov tracefile.
da () {
	sed -n "s/^DA:$2,//p" "$1"
}

# exit() in a function called from a loop, which is not declared noreturn: the block that calls it
# is entered 8 times and left 7, which flow conservation alone would miss (without the fake edge
# of that block, main would be solved as entered 0 times: its loop seems to return all it got).
cat >exits.c <<'EOF'
#include <stdlib.h>
volatile int sink;
static void __attribute__((noinline)) maybe_exit(int i)
{
	if (i == 7)
		exit(0);
}
int main(void)
{
	int i = 0;
	while (i < 10) {
		if (i % 3 == 0)
			sink = 1;
		else
			sink = 2;
		maybe_exit(i);
		i++;
	}
	return 0;
}
EOF

# By hand: i = 0, 3, 6 store 1, i = 1, 2, 4, 5, 7 store 2; maybe_exit is called for i = 0 to 7
# and exits in the eighth call, so the loop's test compares 1 + 7 times, not 1 + 8. (i++ follows
# the call in its block, which is entered 8 times: a statement counts with its block.)
test_expect_success 'a call that does not return: the blocks before it count it, those after do not' '
	for opt in -O0 -O2; do
		for mode in "" -fplugin-arg-roi-block-counters; do
			rm -f exits.roi &&
			roi_link exits $opt $mode exits.c && ./exits &&
			"$ROI" estimate --json exits >exits.json &&
			test_equal 8 "$(volatile_stores exits.json)" "$opt $mode stores" &&
			test_equal 1 "$(fn_calls exits.json main)" "$opt $mode main" &&
			test_equal 8 "$(fn_calls exits.json maybe_exit)" "$opt $mode calls" || return 1
		done
	done &&
	rm -f exits.roi && roi_link exits -O0 -g exits.c && ./exits &&
	"$ROI" report --format lcov exits >exits.info &&
	test_equal 1 "$(da exits.info 6)" "exit(0)" &&
	test_equal 3 "$(da exits.info 13)" "sink = 1" &&
	test_equal 5 "$(da exits.info 15)" "sink = 2" &&
	test_equal 8 "$(da exits.info 16)" "maybe_exit(i)" &&
	"$ROI" estimate --json exits >exits.json &&
	test_equal 8 "$(($(op_count exits.json lt i32) + $(op_count exits.json le i32)))" "while (i < 10)"
'

cat >jump.c <<'EOF'
#include <setjmp.h>
static jmp_buf env;
volatile int sink, on = 1;
static void __attribute__((noinline)) deep(int i)
{
	sink = i;
	if (i == 3)
		longjmp(env, 1);
	sink = -i;
}
static void __attribute__((noinline)) mid(int i)
{
	deep(i);
	if (on)
		sink = 100 + i;
}
int main(void)
{
	if (setjmp(env) == 0)
		for (int i = 0; i < 10; i++)
			mid(i);
	return 0;
}
EOF

# By hand: mid and deep run for i = 0 to 3; deep stores i 4 times and -i 3 times, mid 100 + i
# 3 times (in a block of its own, after the test of on), for the fourth deep jumps past both.
# main calls setjmp: a counter per block there.
test_expect_success 'longjmp out of two calls: exact; a function that calls setjmp counts per block' '
	for opt in -O0 -O2; do
		rm -f jump.roi &&
		roi_link jump $opt jump.c && ./jump &&
		"$ROI" estimate --json jump >jump.json &&
		test_equal 10 "$(volatile_stores jump.json)" "$opt stores" &&
		test_equal 4 "$(fn_calls jump.json mid)" "$opt mid" &&
		test_equal 4 "$(fn_calls jump.json deep)" "$opt deep" || return 1
	done &&
	meta_json jump >jump-meta.json &&
	jq -e ".[0].functions[] | select(.name == \"main\") | has(\"edges\") | not" jump-meta.json &&
	jq -e ".[0].functions[] | select(.name == \"deep\") | .edges | length > 0" jump-meta.json
'

cat >branch.c <<'EOF'
volatile int sink;
int main(void)
{
	for (int i = 0; i < 10; i++)
		if (i % 3 == 0)
			sink = i;
	return 0;
}
EOF

# By hand: the loop's test is true 10 times and false once; i % 3 == 0 holds for i = 0, 3, 6, 9.
test_expect_success 'which way each branch went: lcov BRDA records, by hand' '
	roi_link branch -O0 -g branch.c && ./branch &&
	"$ROI" report --format lcov branch >branch.info &&
	sed -n "s/^BRDA:\([0-9]*\),[0-9]*,[0-9]*,\(.*\)/\1 \2/p" branch.info | sort >got &&
	printf "4 1\n4 10\n5 4\n5 6\n" >want &&
	test_cmp want got &&
	test_grep "^BRF:4$" branch.info &&
	test_grep "^BRH:4$" branch.info &&
	"$ROI" report --format gcov-json branch >branch.json &&
	test_equal "[[4,[10,1]],[5,[4,6]]]" \
		"$(jq -c "[.files[0].lines[] | select(.branches != []) | [.line_number, [.branches[].count]]]" branch.json)"
'

# branches FILE: "LINE COUNTS" per line with branches, COUNTS sorted, from an lcov tracefile
# (taken "-": 0) or from gcov's JSON (-j).
lcov_branches () {
	sed -n "s/^BRDA:\([0-9]*\),[0-9]*,[0-9]*,\(.*\)/\1 \2/p" "$1" | sed "s/ -$/ 0/" | sort -n -k1,1 -k2,2 |
		awk "{ if (\$1 == l) s = s \",\" \$2; else { if (l != \"\") print l, s; l = \$1; s = \$2 } } END { if (l != \"\") print l, s }"
}
gcov_branches () {
	jq -r ".files[] | select(.file | endswith(\".c\")) | .lines[] | select(.branches != []) |
		\"\(.line_number) \([.branches[].count] | sort | join(\",\"))\"" "$1" | sort -n
}

# gcov instruments the same branches at -O0 (not varargs.c: va_arg becomes branches after gcov's
# pass), so its own counts of the same run must be roi's.
test_expect_success GCOV 'branch counts are gcov'"'"'s for the same run at -O0' '
	for p in goto goto-loop-label if-else-jump shortcircuit switch loops recursion divisions three-loops; do
		rm -f *.gcda &&
		gcc -O0 --coverage -fplugin="$ROI_PLUGIN" -o $p "$P/$p.c" "$ROI_LIB" && ./$p >/dev/null &&
		gcov -b -j -t $p-$p.gcda >$p.gcov.json 2>/dev/null &&
		gcov_branches $p.gcov.json >want &&
		test -s want &&
		"$ROI" report --format lcov $p >$p.info &&
		lcov_branches $p.info >got &&
		test_cmp want got || return 1
	done
'

cat >hot.c <<'EOF'
volatile int sink;
int data[128];
int main(void)
{
	for (int r = 0; r < 50; r++)
		data[r] = r & 1;
	for (int i = 0; i < 1000; i++)
		if (data[i & 127])
			sink = i;
	return 0;
}
EOF

# By hand: data holds 0 and 1 alternately in its first 50 elements, 0 after: i & 127 is odd and
# below 50 for 25 of every 128 values of i, 7 x 25 for i below 896 and 25 of 896 to 999, 200
# stores. (Not a division, whose value counter, a sum, stays in memory.)
test_expect_success 'optimising, a loop keeps its counters in registers; the counts are exact' '
	roi_link hot -O2 hot.c && ./hot &&
	"$ROI" estimate --json hot >hot.json &&
	test_equal 200 "$(volatile_stores hot.json)" &&
	objdump -d --no-show-raw-insn hot | awk "/<main>:/,/ret/" >hot.s &&
	test_grep "__roi_c_" hot.s &&
	in_loops hot.s >in-loops &&
	! test -s in-loops &&
	# with a counter per block, which stays in memory, the loops name the counters
	roi_link cold -O2 -fplugin-arg-roi-block-counters hot.c &&
	objdump -d --no-show-raw-insn cold | awk "/<main>:/,/ret/" >cold.s &&
	in_loops cold.s >in-loops &&
	test -s in-loops
'

# A loop that calls a function which may not return keeps its counter in memory: the exit in
# the eighth call finds the counts of the seven turns before it there.
test_expect_success 'optimising, a loop that calls what may not return counts in memory' '
	rm -f exits.roi && roi_link exits -O2 exits.c && ./exits &&
	"$ROI" estimate --json exits >exits.json &&
	test_equal 8 "$(volatile_stores exits.json)"
'

# A loop whose header two back edges enter (the if's arms both go back, GCC 12 -O2: no single
# latch): the counters' walk over its blocks crashed the compiler (torture's 20181120-1.c).
# By hand: c == 4 once, ten stores through e, ten increments of c.
cat >twoback.c <<'EOF'
int c, d;
volatile int b;
int *e = &d;
int main(void)
{
	for (c = 0; c <= 9; c++) {
		int f = 0x201;
		if (c == 4)
			b;
		*e = f;
	}
	return 0;
}
EOF

test_expect_success 'optimising, a loop entered again by two back edges counts in registers, exactly' '
	roi_link twoback -O2 twoback.c && ./twoback &&
	"$ROI" estimate --json twoback >twoback.json &&
	test_equal 1 "$(jq "[.ops[] | select(.kind == \"load\" and .volatile == true) | .count] | add" twoback.json)" &&
	test_equal 10 "$(jq "[.ops[] | select(.kind == \"store\" and .access == \"deref\") | .count] | add" twoback.json)" &&
	test_equal 10 "$(jq "[.ops[] | select(.kind == \"add\") | .count] | add" twoback.json)"
'

# A function whose if's two arms end in calls the tail-call pass marked (-O2): expand makes each a
# jump out of the function and drops what follows it in its block, so a counter there never
# counted (torture's 920501-9.c: 0 calls of 5). By hand: show runs 6 times, 2 of them odd.
cat >tails.c <<'EOF'
#include <stdio.h>
char buf[32];
void __attribute__((noinline)) show(int x)
{
	if (x & 1)
		sprintf(buf, "odd %d", x);
	else
		snprintf(buf, sizeof buf, "even %d", x);
}
int main(void)
{
	for (int i = 0; i < 6; i++)
		show(i * i % 5);
	return 0;
}
EOF

test_expect_success 'optimising, calls the tail-call pass marked are counted' '
	roi_link tails -O2 tails.c && ./tails &&
	"$ROI" estimate --json tails >tails.json &&
	test_equal 6 "$(jq "[.functions[] | select(.name == \"show\") | .calls] | add" tails.json)" &&
	test_equal 2 "$(jq "[.ops[] | select(.callee == \"sprintf\") | .count] | add" tails.json)" &&
	test_equal 4 "$(jq "[.ops[] | select(.callee == \"snprintf\") | .count] | add" tails.json)"
'

# A checking built-in (__builtin___memcpy_chk) whose check fails leaves through the program's own
# handler, here a longjmp, as GCC's torture tests' do (builtins/vsprintf-chk.c: 0 calls of 5): a
# call that may not return. By hand: copy runs 6 times, its memcpy fails for i % 3 of 0 and 1;
# volatile stores: i = 0, six i++, two done++.
cat >chk.c <<'EOF'
#include <setjmp.h>
#include <string.h>
static jmp_buf env;
/* the check fails by leaving through longjmp, as a test harness's own __chk_fail may */
void *__memcpy_chk(void *d, const void *s, size_t n, size_t size)
{
	if (n > size)
		longjmp(env, 1);
	return memcpy(d, s, n);
}
char dst[4];
volatile size_t len = 8;
volatile int done;
void __attribute__((noinline)) copy(int i, const char *s)
{
	switch (i) {
	case 0:
		__builtin___memcpy_chk(dst, s, len, sizeof dst);
		break;
	case 1:
		__builtin___memcpy_chk(dst + 1, s, len, sizeof dst - 1);
		break;
	default:
		__builtin___memcpy_chk(dst + 2, s, 1, sizeof dst - 2);
		break;
	}
	done++;
}
int main(void)
{
	for (volatile int i = 0; i < 6; i++)
		if (setjmp(env) == 0)
			copy(i % 3, "abcdefgh");
	return 0;
}
EOF

test_expect_success 'optimising, a checking built-in that longjmps out is a call that may not return' '
	roi_link chk -O2 chk.c && ./chk &&
	"$ROI" estimate --json chk >chk.json &&
	test_equal 6 "$(jq "[.functions[] | select(.name == \"copy\") | .calls] | add" chk.json)" &&
	test_equal 9 "$(volatile_stores chk.json)"
'

cat >wide16.c <<'EOF'
volatile unsigned char a, b;
int main(void)
{
	for (long i = 0; i < 100000; i++)
		if (i & 1)
			a++;
		else
			b++;
	for (long i = 0; i < 70000; i++)
		a++;
	return 0;
}
EOF

# By hand: a++ and b++ run 50000 times each in the first loop, each arm's counter stays below
# 65535, and their 100000 turns follow from them exactly; the second loop's 70000 turns are one
# counter's, which sticks at 65535: its blocks' counts depend on it and show 65535, with a warning.
test_expect_success '16-bit counters: a count above 65535 solved from counters below it is exact' '
	roi_link wide16 -O0 -fplugin-arg-roi-counter-bits=16 wide16.c && ./wide16 &&
	"$ROI" estimate --json wide16 >wide16.json 2>err &&
	test_grep "^roi: warning: [0-9]* counts of main (wide16.c) depend on 16-bit counters that saturated at 65535: they are unknown, and show 65535$" err &&
	"$ROI" report --format lcov wide16 >wide16.info 2>/dev/null &&
	test_equal 50000 "$(da wide16.info 6)" "a++" &&
	test_equal 50000 "$(da wide16.info 8)" "b++" &&
	test_equal 65535 "$(da wide16.info 10)" "a++ of the second loop"
'

test_done
