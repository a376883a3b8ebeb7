#!/bin/sh
# asan: runtime (make check-asan runs it again with the sanitized libroi.a)
test_description='fork and exec in a counted program

exec replaces the process without running the exit writer: the plugin makes
the calls of the exec family call libroi'"'"'s wrappers, which write the profile
first, as GCC does for gcov. A forked child starts from zero, so that what the
parent counted before fork is in the profile once, written by the parent. The
child of vfork shares its parent'"'"'s memory: the parent writes its counts.
Only the symbol of the call changes: the metadata still names fork and execl.
Expected counts are worked out from testsuite/runtime/fork-exec.c by hand.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

SRC=$TEST_DIRECTORY/runtime/fork-exec.c

if gcov --version >/dev/null 2>&1; then
	test_set_prereq GCOV
fi

# counted N HOW TICKS RUNS: a run of fork-exec N HOW gives a profile of its own in which tick was
# called TICKS times and main once, written by RUNS runs.
counted () {
	rm -f fork-exec.roi &&
	./fork-exec $1 $2 2>err && test ! -s err &&
	"$ROI" estimate --json fork-exec >est.json &&
	test_equal "$3" "$(fn_calls est.json tick)" "tick calls ($2)" &&
	test_equal 1 "$(fn_calls est.json main)" "main calls ($2)" &&
	test_equal "runs $4" "$(sed -n 3p fork-exec.roi)" "runs ($2)"
}

test_expect_success 'build fork-exec with the plugin' '
	roi_link fork-exec -O2 "$SRC"
'

# tick: once before fork, N times in the child, twice in the parent after it. Two runs write: the
# child before exec, the parent at exit.
test_expect_success 'the child'"'"'s counts before exec are in the profile, the parent'"'"'s once' '
	for how in execl execlp execle execv execvp execve execvpe fexecve; do
		counted 7 $how 10 2 || return 1
	done &&
	counted 0 execv 3 2
'

# The failed exec writes 1 + 7 (a run), the child goes on from zero: once more, written at its exit
# (a run); the parent adds its 2 (a run).
test_expect_success 'a failed exec: the child counts on from zero, nothing twice' '
	counted 7 missing 11 3
'

# The vforked child runs no tick and writes nothing: tick once before, twice after; one run.
test_expect_success 'a function that calls vfork keeps its exec: the parent writes what both counted' '
	counted 0 vfork 3 1 &&
	"$ROI" estimate --json fork-exec >est.json &&
	test_equal 1 "$(fn_calls est.json vforked)" &&
	test_equal 1 "$(call_count est.json execl)" "execl calls (the vforked child'"'"'s)"
'

test_expect_success 'the metadata names fork and exec as written; the code calls the wrappers' '
	counted 2 execl 5 2 &&
	test_equal 1 "$(call_count est.json fork)" &&
	test_equal 1 "$(call_count est.json execl)" &&
	test_equal 0 "$(call_count est.json __roi_execl)" &&
	nm fork-exec >syms &&
	test_grep " T __roi_fork$" syms && test_grep " T __roi_execl$" syms &&
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-verbose -c "$SRC" -o verbose.o 2>err &&
	test_grep "roi: .vforked. calls .vfork.: its calls of fork and exec are not redirected to libroi" err
'

test_expect_success 'compiled with the plugin, linked without libroi: the link names the wrapper' '
	test_must_fail gcc -O2 -fplugin="$ROI_PLUGIN" -o nolib "$SRC" 2>err &&
	test_grep "undefined reference to .__roi_fork." err &&
	test_grep "undefined reference to .__roi_register_unit." err
'

test_expect_success 'a unit that does not register (runtime=none) needs no libroi' '
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-runtime=none -o none "$SRC" &&
	./none 3 execl
'

# With --coverage too, the wrappers call libgcov'"'"'s, which write gcov'"'"'s counters as well.
test_expect_success GCOV 'with --coverage, gcov and roi both have the child'"'"'s counts' '
	mkdir cov && cp "$SRC" cov/ && cd cov &&
	${CC:-gcc} -O0 --coverage -fplugin="$ROI_PLUGIN" -o fork-exec fork-exec.c "$ROI_LIB" &&
	counted 7 execl 10 2 &&
	gcov -o . fork-exec-fork-exec.gcno >/dev/null &&
	test_equal 10 "$(sed -n "s/^ *\([0-9]*\):  *[0-9]*:	ticks++;$/\1/p" fork-exec.c.gcov)" "gcov: ticks++"
'

test_done
