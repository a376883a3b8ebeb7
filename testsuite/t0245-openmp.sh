#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='OpenMP: the bodies GCC outlines are counted, exactly

GCC moves the body of a parallel construct into a function of its own
(main._omp_fn.0), which every thread of the team runs at once. roi counts it
like the user'"'"'s code it is, and it and the functions of the unit it calls
count per thread whatever the options (each thread in a copy of its own of the
unit'"'"'s counters, added up when the profile is taken), so that no increment is
lost between threads. The loop below stores each of its N elements twice, once in
its body and once in put: 2N volatile array stores and N calls of put,
whatever the threads.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

cat >par.c <<'CEOF'
volatile int out[N];
static void __attribute__((noinline)) put(int i)
{
	out[i] = i;
}
int main(void)
{
	#pragma omp parallel for
	for (int i = 0; i < N; i++) {
		out[i] = -1;
		put(i);
	}
	return out[N - 1] != N - 1;
}
CEOF

if echo "int main(void) { return 0; }" | gcc -fopenmp -x c -o probe - 2>/dev/null && ./probe; then
	test_set_prereq OPENMP
fi
if gcov --version >/dev/null 2>&1; then
	test_set_prereq GCOV
fi

# par OUT N OPTIONS...: par.c for N elements, counted, run by 4 threads.
par () {
	out=$1 n=$2
	shift 2
	rm -f "$out.roi" &&
	gcc -fopenmp -DN="$n" -fplugin="$ROI_PLUGIN" "$@" -o "$out" par.c "$ROI_LIB" &&
	OMP_NUM_THREADS=4 ROI_OUTPUT="$out.roi" ./"$out" &&
	"$ROI" estimate --json "$out" "$out.roi" >"$out.json"
}

# volatile_stores JSON: the executed volatile array stores.
volatile_stores () {
	jq "[.ops[] | select(.kind == \"store\" and .access == \"array\" and .volatile) | .count] | add // 0" "$1"
}

test_expect_success OPENMP 'the outlined body is counted: 2N stores, N calls of put, one of the body per thread' '
	for opt in -O0 -O2; do
		par par$opt 200000 $opt -fplugin-arg-roi-verbose 2>notes &&
		! grep "not counting .main\._omp_fn" notes &&
		test_equal 400000 "$(volatile_stores par$opt.json)" "$opt stores" &&
		test_equal 200000 "$(fn_calls par$opt.json put)" "$opt calls of put" &&
		test_equal 4 "$(fn_calls par$opt.json main._omp_fn.0)" "$opt calls of the body" &&
		test_equal 1 "$(fn_calls par$opt.json main)" "$opt calls of main" || return 1
	done
'

# A function counted per thread makes its thread's copy of the counters where it has none yet,
# through libroi'"'"'s __roi_thread_unit; no update is atomic (no lock-prefixed instruction on
# x86-64), where the threads would fight over the counters'"'"' cache lines.
test_expect_success OPENMP 'the body'"'"'s and put'"'"'s counters are per thread, main'"'"'s as before' '
	objdump -d --no-show-raw-insn par-O0 >par.dis &&
	sed -n "/<main\._omp_fn\.0>:/,/^\$/p" par.dis >body.dis &&
	sed -n "/<put>:/,/^\$/p" par.dis >put.dis &&
	sed -n "/<main>:/,/^\$/p" par.dis >main.dis &&
	test_grep "call.*<__roi_thread_unit>" body.dis &&
	test_grep "call.*<__roi_thread_unit>" put.dis &&
	! grep "__roi_thread_unit" main.dis &&
	! grep "lock " body.dis put.dis main.dis
'

# 16-bit counters saturate at 65535 rather than wrap: 30000 turns are 60000 stores; 70000 turns
# leave both blocks that store at 65535, 131070 stores, not twice 4464.
test_expect_success OPENMP 'with 16-bit counters: exact below 65535, saturated above' '
	par p16 30000 -O0 -fplugin-arg-roi-counter-bits=16 &&
	test_equal 60000 "$(volatile_stores p16.json)" &&
	par p16 70000 -O0 -fplugin-arg-roi-counter-bits=16 &&
	test_equal 131070 "$(volatile_stores p16.json)"
'

# gcov does not count the outlined body (GCC leaves the functions it made out of its coverage;
# -fprofile-update=atomic makes its own counts exact): main and put are compared.
test_expect_success OPENMP,GCOV 'roi gcov-check agrees on main and put' '
	gcc -O0 -fopenmp -DN=200000 --coverage -fprofile-update=atomic -fplugin="$ROI_PLUGIN" \
		-o cov par.c "$ROI_LIB" &&
	OMP_NUM_THREADS=4 ./cov &&
	"$ROI" gcov-check cov >out &&
	test_grep "^gcov-check: 2 functions, [0-9]* lines compared, 0 disagreements$" out
'

test_done
