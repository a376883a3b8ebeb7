#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi gcov-check: roi against gcov on the same run

Each program is built with both --coverage and the plugin and run once, so gcov
counts the very run roi counts: every function entry count must agree, and at
-O0 so must every line count, which gcov-check computes from roi'"'"'s block
counts the way gcov computes its own. At -O2 only entry counts are compared.
Then the check must fail when the counts do not come from the same runs, and
say why when it cannot run at all.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

P=$TEST_DIRECTORY/programs
PROGRAMS="goto goto-loop-label if-else-jump shortcircuit switch loops recursion fnptr varargs wide values"

if gcov --version >/dev/null 2>&1; then
	test_set_prereq GCOV
fi

# cov_link OPT OUT SOURCES...: build OUT with --coverage and the plugin.
cov_link () {
	opt=$1 out=$2
	shift 2
	gcc "$opt" --coverage -fplugin="$ROI_PLUGIN" -o "$out" "$@" "$ROI_LIB"
}

# build_all OPT: in directory OPT, build and run every program once.
build_all () {
	mkdir -p "$1" && (
		cd "$1" &&
		for p in $PROGRAMS; do
			cov_link "-$1" $p "$P/$p.c" && ./$p || exit 1
		done &&
		cov_link "-$1" multi "$P/multi/a.c" "$P/multi/b.c" "$P/multi/main.c" && ./multi &&
		cov_link "-$1" matrix "$EXAMPLES/matrix/matrix.c" && ./matrix >/dev/null
	)
}

# exit_status OUT CMD...: run CMD with its output in OUT; print its exit status (0 too).
exit_status () {
	out=$1
	shift
	"$@" >"$out" && echo 0 || echo $?
}

test_expect_success GCOV 'the programs build with --coverage and the plugin, and run' '
	build_all O0 &&
	build_all O2 &&
	test -f O0/goto.roi && test -f O0/goto-goto.gcda &&
	test -f O2/multi-b.gcda
'

test_expect_success GCOV '-O0: every entry count and every line count agrees' '
	cd O0 &&
	for p in $PROGRAMS multi matrix; do
		"$ROI" gcov-check $p >$p.out || { cat $p.out; return 1; }
		test_grep "^gcov-check: [1-9][0-9]* functions\{0,1\}, [1-9][0-9]* lines compared, 0 disagreements$" $p.out ||
		return 1
	done
'

test_expect_success GCOV '-O0: the comparison is the one expected' '
	cd O0 &&
	"$ROI" gcov-check -v recursion >v.out &&
	test_grep "^ok: function fib (.*recursion.c:3): 177 calls$" v.out &&
	test_grep "^ok: .*recursion.c:7: 88$" v.out &&
	"$ROI" gcov-check multi >multi.out &&
	test_grep "^gcov-check: 5 functions, 17 lines compared, 0 disagreements$" multi.out &&
	"$ROI" gcov-check -v goto-loop-label >v.out &&
	for lc in 14:1 15:0 16:4 17:7 18:6 19:3; do
		test_grep "^ok: .*goto-loop-label.c:${lc%:*}: ${lc#*:}$" v.out || return 1
	done &&
	"$ROI" gcov-check -v if-else-jump >v.out &&
	for lc in 13:1 15:4 16:3 20:0; do
		test_grep "^ok: .*if-else-jump.c:${lc%:*}: ${lc#*:}$" v.out || return 1
	done
'

test_expect_success GCOV '-O2: every entry count agrees; lines are not compared' '
	cd O2 &&
	for p in $PROGRAMS multi matrix; do
		"$ROI" gcov-check $p >$p.out || { cat $p.out; return 1; }
		test_grep "^gcov-check: [1-9][0-9]* functions\{0,1\}, 0 lines compared, 0 disagreements$" $p.out ||
		return 1
	done &&
	test_grep "^note: .*recursion.c: compiled at -O2: lines not compared" recursion.out &&
	"$ROI" gcov-check -v fnptr >v.out &&
	test_grep "^ok: function twice (.*fnptr.c:3): 3 calls$" v.out
'

test_expect_success GCOV 'found from another directory, with --profile' '
	mkdir -p elsewhere &&
	(cd elsewhere && "$ROI" gcov-check --profile ../O0/goto.roi ../O0/goto >out) &&
	test_grep "0 disagreements$" elsewhere/out
'

test_expect_success GCOV '--gcda-dir: the .gcda files moved' '
	mkdir -p moved/data && cd moved &&
	cov_link -O0 wide "$P/wide.c" && ./wide &&
	mv wide-wide.gcda wide-wide.gcno data/ &&
	test_must_fail "$ROI" gcov-check wide 2>err &&
	test_grep "no .gcda files found next to wide" err &&
	"$ROI" gcov-check --gcda-dir data wide >out &&
	test_grep "0 disagreements$" out
'

test_expect_success GCOV 'a profile of one run against .gcda files of two: exit 1, naming what differs' '
	mkdir -p twice && cd twice &&
	cov_link -O0 recursion "$P/recursion.c" &&
	ROI_OUTPUT=both.roi ./recursion &&
	cp both.roi one.roi &&
	ROI_OUTPUT=both.roi ./recursion &&
	test_equal 1 "$(exit_status out "$ROI" gcov-check --profile one.roi recursion)" &&
	test_grep "^function fib (.*recursion.c:3): roi calls 177, gcov 354$" out &&
	test_grep "^function main (.*recursion.c:10): roi calls 1, gcov 2$" out &&
	test_grep "recursion.c:7: roi 88, gcov 176$" out &&
	test_grep "^gcov-check: 2 functions, [0-9]* lines compared, [1-9][0-9]* disagreements$" out &&
	test_equal 0 "$(exit_status out2 "$ROI" gcov-check --profile both.roi recursion)"
'

test_expect_success GCOV 'no .gcda files: a clear error' '
	mkdir -p nodata && cd nodata &&
	cov_link -O0 goto "$P/goto.c" &&
	./goto && rm goto-goto.gcda &&
	test_equal 1 "$(exit_status out "$ROI" gcov-check goto 2>err)" &&
	test_grep "^roi: no .gcda files found next to goto (build with --coverage and run it once)$" err
'

test_expect_success GCOV 'a program built without --coverage: a clear error' '
	mkdir -p nocov && cd nocov &&
	roi_link goto -O0 "$P/goto.c" && ./goto &&
	test_must_fail "$ROI" gcov-check goto 2>err &&
	test_grep "^roi: goto was not built with --coverage" err
'

test_expect_success GCOV 'gcov failing: the .gcda named with what gcov said' '
	mkdir -p nonotes && cd nonotes &&
	cov_link -O0 goto "$P/goto.c" && ./goto && rm goto-goto.gcno &&
	test_must_fail "$ROI" gcov-check goto 2>err &&
	test_grep "^roi: gcov failed on .*goto-goto.gcda: " err &&
	test_must_fail "$ROI" gcov-check --gcov ./no-such-gcov goto 2>err &&
	test_grep "^roi: gcov failed on .*goto-goto.gcda: cannot run .*no-such-gcov" err
'

test_expect_success 'usage errors exit 2; --help exits 0' '
	test_equal 2 "$(exit_status out "$ROI" gcov-check 2>err)" &&
	test_grep "missing PROGRAM" err &&
	test_equal 2 "$(exit_status out "$ROI" gcov-check --frobnicate x 2>err)" &&
	test_grep "unknown option .--frobnicate." err &&
	test_equal 2 "$(exit_status out "$ROI" gcov-check a b 2>err)" &&
	"$ROI" gcov-check --help >out &&
	test_grep "^usage: roi gcov-check" out
'

test_done
