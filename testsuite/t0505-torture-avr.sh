#!/bin/sh
test_description='GCC'"'"'s torture tests with the avr plugin, in simavr: every 8th

The same programs as t0500 (gcc.c-torture/execute of GCC 12.2.0), built with
avr-gcc for an ATmega1284P without the plugin and with build/avr/roi.so, at -O0
and -O2, and run in simavr by roi run: the plain firmware with --cycles-only,
the counted one for its profile. A test passes when it reaches exit() with
status 0 (abort() is exit status 1). Many tests cannot build or pass on an AVR
(16-bit int, 32-bit double, no signals or files): they are counted, and only a
test that passes without the plugin must pass with it. First the harness
itself is checked on four programs whose outcome is known: it must be able to
fail. The whole suite is make check-torture-avr.'
. "$(dirname "$0")/test-lib.sh"

RUN=$TEST_DIRECTORY/torture/run.sh
ONE=$TEST_DIRECTORY/torture/run-one.sh

if [ -f /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz ] ||
   [ -d "$ROI_SRC/build/torture/gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute" ]; then
	test_set_prereq TORTURE
else
	say "gcc-12-source is not installed: the torture tests are skipped (make check installs it)"
fi

# level L: the results of -OL, one line per test.
level () { grep " -O$1 " work/results.txt; }

test_expect_success 'the harness tells pass from abort, a non-zero exit and a hang' '
	mkdir -p own &&
	echo "int main(void) { return 0; }" >own/pass.c &&
	printf "#include <stdlib.h>\nint main(void) { abort(); }\n" >own/abort.c &&
	printf "#include <stdlib.h>\nint main(void) { exit(1); }\n" >own/exit1.c &&
	echo "int main(void) { for (;;); }" >own/hang.c &&
	for t in pass abort exit1 hang; do
		TORTURE_TARGET=avr ROI_PLUGIN="$ROI_BUILD/avr/roi.so" AVR_MAX_CYCLES=100000 \
			sh "$ONE" "$(pwd)/own" "$(pwd)/own-work" "" $t.c 2 >>own.txt || return 1
	done &&
	cat own.txt &&
	test_equal "pass.c -O2 pass pass - yes ok - -" "$(grep ^pass own.txt)" &&
	test_equal "abort.c -O2 run run - - - - -" "$(grep ^abort own.txt)" &&
	test_equal "exit1.c -O2 run run - - - - -" "$(grep ^exit1 own.txt)" &&
	test_equal "hang.c -O2 timeout timeout - - - - -" "$(grep ^hang own.txt)" &&
	test_equal 1 "$(jq .exit_status own-work/O2/abort/plain.json)"
'

test_expect_success TORTURE 'every 8th test runs at -O0 and -O2 in simavr, with and without the plugin' '
	sh "$RUN" -j 2 --target avr --every 8 --levels "0 2" work >run.out 2>&1 || true &&
	cat run.out &&
	test -s work/results.txt &&
	test_grep "^torture: [0-9]* tests .* target avr$" run.out &&
	test_equal "$(sed -n "s/^torture: \([0-9]*\) tests.*/\1/p" run.out)" \
		"$(awk "{ print \$1 }" work/results.txt | sort -u | wc -l | tr -d " ")" "tests with results"
'

test_expect_success TORTURE 'the harness works: most tests pass without the plugin on an AVR too' '
	# 1499 of 1708 at -O0 when this was written; the rest need what an AVR lacks
	for l in 0 2; do
		total=$(level $l | wc -l) &&
		pass=$(level $l | awk "\$3 == \"pass\"" | wc -l) &&
		test "$total" -ge 200 &&
		test $((pass * 100)) -ge $((total * 75)) || {
			echo "-O$l: $pass of $total pass without the plugin" && return 1
		}
	done
'

test_expect_success TORTURE 'avr-gcc never crashes with the plugin loaded' '
	awk "\$5 == \"ice\"" work/results.txt >ices &&
	test_equal 0 "$(wc -l <ices | tr -d " ")" "internal compiler errors" || {
		cat ices && cat work/O*/*/roi.cc 2>/dev/null; return 1
	}
'

test_expect_success TORTURE 'every test that passes without the plugin passes with it' '
	awk "\$3 == \"pass\" && \$4 != \"pass\"" work/results.txt >failures &&
	test_equal "" "$(cat failures)" "failures"
'

test_expect_success TORTURE 'every passing counted run leaves a sealed profile roi estimate reads' '
	awk "\$4 == \"pass\" && (\$6 != \"yes\" || \$7 != \"ok\")" work/results.txt >missing &&
	test_equal "" "$(cat missing)" "runs without a usable profile"
'

test_done
