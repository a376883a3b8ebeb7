#!/bin/sh
test_description='random programs from csmith with the plugin: seeds 1 to 12

csmith (Debian'"'"'s csmith 2.3.0) writes C programs free of undefined behaviour
that print a checksum of their globals. Programs 1 to 12 are built and run at
-O0, -O1, -O2 and -Os without the plugin and with it: the same output, no
compiler crash, a sealed profile that roi estimate reads, and roi gcov-check
agreeing with gcov. A failure leaves a reproducer in this script'"'"'s scratch
directory, testsuite/trash/t0520-csmith/regressions/ (kept when a test fails),
not in the source tree.
Then the harness itself must catch a compiler that changes the program. The
soak run is make check-csmith N=500.'
. "$(dirname "$0")/test-lib.sh"

RUN=$TEST_DIRECTORY/csmith/run.sh

if command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ]; then
	test_set_prereq CSMITH
else
	say "csmith is not installed: the random programs are skipped (make check installs it)"
fi

test_expect_success CSMITH 'seeds 1 to 12 at -O0, -O1, -O2, -Os: the plugin changes nothing' '
	sh "$RUN" --count 12 --levels "0 1 2 s" --blocks --save "$PWD/regressions" work >run.out 2>&1 ||
	{ cat run.out; return 1; }
	cat run.out &&
	test_grep "^csmith: [0-9]* s, 0 failed runs" run.out
'

test_expect_success CSMITH 'every program and level has a result, and nearly all of them ran' '
	test_equal 48 "$(wc -l <work/results.txt | tr -d " ")" "results" &&
	test_equal "1 2 3 4 5 6 7 8 9 10 11 12" "$(awk "{ print \$1 }" work/results.txt | uniq | tr "\n" " " | sed "s/ $//")" &&
	ran=$(awk "\$3 == \"pass\"" work/results.txt | wc -l) &&
	test "$ran" -ge 40
'

test_expect_success CSMITH 'counted per block, every run counts what the edge counters count' '
	test "$(awk "\$9 == \"same\"" work/results.txt | wc -l)" -ge 40 &&
	test_equal "" "$(awk "\$9 == \"differ\"" work/results.txt)" "runs whose counts differ"
'

# Checked here without the harness: the programs print their checksum, and
# the build with the plugin prints the same one.
test_expect_success CSMITH 'the harness compares what the programs print' '
	csmith --seed 1 -o one.c &&
	gcc -w -O2 -I/usr/include/csmith one.c -o one && ./one >plain.out &&
	gcc -w -O2 -fplugin="$ROI_PLUGIN" -I/usr/include/csmith one.c "$ROI_LIB" -o one-roi &&
	ROI_OUTPUT=one.roi ./one-roi >roi.out &&
	test_grep "^checksum = [0-9A-F]*$" plain.out &&
	test_cmp plain.out roi.out
'

# A compiler that adds output whenever the plugin is loaded stands in for a
# plugin that miscompiles: the harness must fail and save a reproducer.
test_expect_success CSMITH 'a program that prints something else is a failure, saved as a reproducer' '
	cat >noise.h <<-\EOF &&
	#include <stdio.h>
	__attribute__((constructor)) static void noise (void) { puts ("noise"); }
	EOF
	cat >bad-cc <<-EOF &&
	#!/bin/sh
	case " \$* " in *" -fplugin="*) exec gcc -include "$PWD/noise.h" "\$@" ;; esac
	exec gcc "\$@"
	EOF
	chmod +x bad-cc &&
	test_must_fail env CSMITH_CC="$PWD/bad-cc" sh "$RUN" --count 1 --levels 1 --save saved bad >bad.out 2>&1 &&
	test_grep "^FAIL: 1 -O1 pass differ - yes ok differ -$" bad.out &&
	test_grep "^csmith: [0-9]* s, 1 failed runs" bad.out &&
	test -f saved/csmith-1-O1/prog.c &&
	test_grep "^what differed: the output with the plugin differs from the output without it" saved/csmith-1-O1/README.txt &&
	test_grep "csmith --seed 1 -o prog.c" saved/csmith-1-O1/README.txt &&
	test_equal noise "$(head -n 1 saved/csmith-1-O1/roi.out)"
'

test_done
