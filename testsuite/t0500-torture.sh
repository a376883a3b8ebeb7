#!/bin/sh
test_description='GCC'"'"'s own torture tests with the plugin: every 8th

gcc.c-torture/execute (GCC 12.2.0, from Debian'"'"'s gcc-12-source) holds
programs that once miscompiled or crashed GCC. Every 8th of them in sorted
order (214 of 1708) is built and run at -O0 and -O2 without the plugin and with
it: the compiler must never crash with the plugin loaded, a test that passes
without the plugin must pass with it, its run must leave a profile, and a
build counted per block must give the counts the edge counters give. The whole
suite, with roi gcov-check, is make check-torture.'
. "$(dirname "$0")/test-lib.sh"

RUN=$TEST_DIRECTORY/torture/run.sh

if [ -f /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz ] ||
   [ -d "$ROI_SRC/build/torture/gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute" ]; then
	test_set_prereq TORTURE
else
	say "gcc-12-source is not installed: the torture tests are skipped (make check installs it)"
fi

# level L: the results of -OL, one line per test.
level () { grep " -O$1 " work/results.txt; }

test_expect_success TORTURE 'every 8th test runs at -O0 and -O2, with and without the plugin' '
	sh "$RUN" -j 2 --every 8 --levels "0 2" --blocks work >run.out 2>&1 || true &&
	cat run.out &&
	test -s work/results.txt &&
	test_equal "$(sed -n "s/^torture: \([0-9]*\) tests.*/\1/p" run.out)" \
		"$(awk "{ print \$1 }" work/results.txt | sort -u | wc -l | tr -d " ")" "tests with results"
'

test_expect_success TORTURE 'the harness works: nearly every test passes without the plugin' '
	for l in 0 2; do
		total=$(level $l | wc -l) &&
		pass=$(level $l | awk "\$3 == \"pass\"" | wc -l) &&
		test "$total" -ge 200 &&
		test $((pass * 100)) -ge $((total * 98)) || {
			echo "-O$l: $pass of $total pass without the plugin" &&
			level $l | awk "\$3 != \"pass\"" && return 1
		}
	done
'

test_expect_success TORTURE 'the compiler never crashes with the plugin loaded' '
	awk "\$5 == \"ice\"" work/results.txt >ices &&
	test_equal 0 "$(wc -l <ices | tr -d " ")" "internal compiler errors" || {
		cat ices && cat work/O*/*/roi.cc 2>/dev/null; return 1
	}
'

test_expect_success TORTURE '-O0: every test that passes without the plugin passes with it' '
	level 0 | awk "\$3 == \"pass\" && \$4 != \"pass\"" >failures &&
	test_equal "" "$(cat failures)" "failures at -O0"
'

test_expect_success TORTURE '-O2: every test that passes without the plugin passes with it' '
	level 2 | awk "\$3 == \"pass\" && \$4 != \"pass\"" >failures &&
	test_equal "" "$(cat failures)" "failures at -O2"
'

test_expect_success TORTURE 'every passing run with the plugin leaves a sealed profile' '
	awk "\$4 == \"pass\" && \$6 != \"yes\"" work/results.txt >missing &&
	test_equal "" "$(cat missing)" "runs without a profile"
'

test_expect_success TORTURE 'counters on edges give the counts of a counter per block' '
	awk "\$9 == \"same\"" work/results.txt >same &&
	test "$(wc -l <same)" -ge 400 &&
	awk "\$9 == \"differ\"" work/results.txt >differ &&
	test_equal "" "$(cat differ)" "estimates that differ"
'

test_done
