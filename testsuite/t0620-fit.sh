#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi fit: forms of growth recovered from runs at small sizes, predictions at a larger one

Five programs whose cost grows in a way known by construction, each compiled
with the host plugin at -O0 and run at small sizes given on its command line:
a linear scan (n), an insertion sort of n numbers in decreasing order (n^2:
the inner loop moves each number past all before it), a binary search for a
key above every element (log2(n) steps for n a power of 2), a loop nest of n
by m iterations (n*m) and a recursion that calls itself twice down to 0 (2^n).
roi fit must name that form for the function (and the total, where the program
is nothing but it) and predict a larger size within 2 % of a run at that size:
the run is the truth, counted independently of the fit. Call counts follow by
hand: the recursion makes 2*2^n - 1 calls, the sort enters its inner loop
n - 1 times, the nest its inner loop n times. A sixth program has its size
fixed at compile time, as firmware buffers are: one build per size, each
profile joined with the build its program line names.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

MODEL=$ROI_SRC/models/atmega32u4-O0.json

# runs PROG SIZE...: PROG run once at each size into its own profile, PROG-SIZE.roi ("4,5" gives
# the program the arguments 4 5 and the profile PROG-4,5.roi).
runs () {
	prog=$1
	shift
	for s in "$@"; do
		rm -f "$prog-$s.roi" &&
		ROI_OUTPUT=$prog-$s.roi ./$prog $(echo "$s" | tr , ' ') || return 1
	done
}

# points PROG NAMES SIZE...: roi fit's SIZES:PROFILE arguments for those runs; NAMES "n" or "n,m".
points () {
	prog=$1 names=$2
	shift 2
	for s in "$@"; do
		sizes= rest=$s
		for k in $(echo "$names" | tr , " "); do
			sizes="$sizes${sizes:+,}$k=${rest%%,*}"
			rest=${rest#*,}
		done
		printf "%s:%s-%s.roi " "$sizes" "$prog" "$s"
	done
}

# row JSON ID: the row of roi fit --json (or the node of roi report --json) with that id.
row () {
	jq -c --arg id "$2" '[.. | objects | select(.id? == $id and .kind? != null)][0]' "$1"
}

# fitted JSON ID QUANTITY FIELD: a field of one quantity of a row of roi fit --json.
fitted () {
	row "$1" "$2" | jq -r --arg q "$3" ".quantities[\$q].$4"
}

# within2 PREDICTED ACTUAL: the prediction is within 2 % of the run.
within2 () {
	awk -v p="$1" -v a="$2" 'BEGIN { d = p - a; if (d < 0) d = -d
		if (!(a > 0 && d <= 0.02 * a)) { printf "predicted %s, the run %s\n", p, a; exit 1 } }' >&2
}

# coefs JSON ID QUANTITY: the fitted terms as "TERM=COEF ..." to 6 decimals, those that are 0 left out.
coefs () {
	row "$1" "$2" | jq -r --arg q "$3" '[.quantities[$q].terms[] | select((.coef * 1e6 | round) != 0)
		| "\(.term)=\(.coef * 1e6 | round / 1e6)"] | join(" ")'
}

cat >scan.c <<'CEOF'
#include <stdlib.h>

/* an odd key among even numbers: never found, every element compared */
static int scan(const int *a, int n, int key)
{
	int found = -1;

	for (int i = 0; i < n; i++)
		if (a[i] == key)
			found = i;
	return found;
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	int *a = malloc((size_t)n * sizeof *a);

	for (int i = 0; i < n; i++)
		a[i] = 2 * i;
	int at = scan(a, n, 1);
	free(a);
	return at != -1;
}
CEOF

cat >isort.c <<'CEOF'
#include <stdlib.h>

/* n numbers in decreasing order: the inner loop moves each one past all before it,
 * n(n-1)/2 moves in all, and is entered n - 1 times */
static void isort(int *a, int n)
{
	for (int i = 1; i < n; i++) {
		int v = a[i], j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	int *a = malloc((size_t)n * sizeof *a);

	for (int i = 0; i < n; i++)
		a[i] = n - i;
	isort(a, n);
	int ok = a[0] == 1;
	free(a);
	return !ok;
}
CEOF

cat >bsearch.c <<'CEOF'
#include <stdlib.h>

/* a key above every element: each step keeps the upper half, log2(n) steps for n a power of 2 */
static int search(const int *a, int n, int key)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + ((hi - lo) >> 1);
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	int *a = malloc((size_t)n * sizeof *a);

	for (int i = 0; i < n; i++)
		a[i] = i;
	int at = search(a, n, n);
	free(a);
	return at != n;
}
CEOF

cat >nm.c <<'CEOF'
#include <stdlib.h>

/* n x m iterations of the inner loop, which is entered n times */
static long nest(int n, int m)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			s += i ^ j;
	return s;
}

int main(int argc, char **argv)
{
	return nest(atoi(argv[1]), atoi(argv[2])) < 0;
}
CEOF

cat >rec.c <<'CEOF'
#include <stdlib.h>

/* 2^n calls at depth n, 2^(n+1) - 1 in all: each call but the last level's makes two */
static unsigned rec(int n)
{
	if (n == 0)
		return 1;
	return rec(n - 1) + rec(n - 1);
}

int main(int argc, char **argv)
{
	return rec(atoi(argv[1])) == 0;
}
CEOF

test_expect_success 'setup: build the programs, run them at small sizes and at the size to predict' '
	for p in scan isort bsearch nm rec; do roi_link $p -O0 $p.c || return 1; done &&
	runs scan 4 8 16 32 1000 &&
	runs isort 4 8 16 32 64 200 &&
	runs bsearch 8 16 32 64 128 65536 &&
	runs nm 2,3 4,3 8,3 2,5 4,5 8,5 100,50 &&
	runs rec 2 3 4 5 6 16
'

# fit_and_check PROG NAMES AT ID FORM SIZE...: roi fit of the runs at SIZE... names FORM for the
# ops of row ID and predicts its ops at AT within 2 % of the run at AT (roi report of that run).
# Its exit status may be 3: the total may be no form.
fit_and_check () {
	prog=$1 names=$2 at=$3 id=$4 form=$5
	shift 5
	{ "$ROI" fit --json --at "$(points "$prog" "$names" "$at" | sed "s/:.*//")" $prog \
		$(points "$prog" "$names" "$@") >$prog.fit.json || test $? -eq 3; } &&
	"$ROI" report --json $prog $prog-$at.roi >$prog.report.json &&
	test_equal "$form" "$(fitted $prog.fit.json "$id" ops form)" "form of $id ops" &&
	within2 "$(fitted $prog.fit.json "$id" ops prediction)" "$(row $prog.report.json "$id" | jq .ops)"
}

test_expect_success 'a linear scan is n, its program too; predicted at n=1000' '
	fit_and_check scan n 1000 scan n 4 8 16 32 &&
	fit_and_check scan n 1000 main n 4 8 16 32 &&
	test_equal n "$(fitted scan.fit.json total ops form)" &&
	within2 "$(fitted scan.fit.json total ops prediction)" "$(jq .total.ops scan.report.json)" &&
	test_equal "1=1" "$(coefs scan.fit.json scan calls)"
'

test_expect_success 'an insertion sort of reversed input is n^2; its inner loop entered n - 1 times' '
	fit_and_check isort n 200 isort n^2 4 8 16 32 64 &&
	test_equal n^2 "$(fitted isort.fit.json total ops form)" &&
	within2 "$(fitted isort.fit.json total ops prediction)" "$(jq .total.ops isort.report.json)" &&
	inner=$(jq -r ".tree[] | select(.id == \"isort\") | .children[0].children[0].id" isort.fit.json) &&
	test_equal n^2 "$(fitted isort.fit.json "$inner" ops form)" &&
	test_equal "1=-1 n=1" "$(coefs isort.fit.json "$inner" calls)" &&
	test_equal 199 "$(fitted isort.fit.json "$inner" calls prediction)"
'

test_expect_success 'a binary search is log2(n), predicted at n=65536; its program (n + log2(n)) is no form' '
	fit_and_check bsearch n 65536 search "log2(n)" 8 16 32 64 128 &&
	loop=$(jq -r ".tree[] | select(.id == \"search\") | .children[0].id" bsearch.fit.json) &&
	test_equal "log2(n)" "$(fitted bsearch.fit.json "$loop" ops form)" &&
	test_equal false "$(jq .predicted bsearch.fit.json)" &&
	test_equal null "$(fitted bsearch.fit.json total ops prediction)" &&
	fitted bsearch.fit.json total ops why | grep "held-out error .* > 2%"
'

test_expect_success 'a loop nest of n by m iterations is n*m, its inner loop entered n times' '
	fit_and_check nm n,m 100,50 nest "n*m" 2,3 4,3 8,3 2,5 4,5 8,5 &&
	test_equal "n*m" "$(fitted nm.fit.json total ops form)" &&
	inner=$(jq -r ".tree[] | select(.id == \"nest\") | .children[0].children[0].id" nm.fit.json) &&
	test_equal "n*m" "$(fitted nm.fit.json "$inner" ops form)" &&
	test_equal "n=1" "$(coefs nm.fit.json "$inner" calls)" &&
	test_equal "{\"n\":100,\"m\":50}" "$(jq -c .at nm.fit.json)"
'

test_expect_success 'a recursion calling itself twice is 2^n: 2*2^n - 1 calls' '
	fit_and_check rec n 16 rec "2^n" 2 3 4 5 6 &&
	test_equal "2^n" "$(fitted rec.fit.json total ops form)" &&
	test_equal "1=-1 2^n=2" "$(coefs rec.fit.json rec calls)" &&
	test_equal 131071 "$(fitted rec.fit.json rec calls prediction)" &&
	test_equal "2*2^n - 1" "$(fitted rec.fit.json rec calls formula)"
'

cat >ring.c <<'CEOF'
/* a size fixed at compile time, as a firmware's buffers are: N additions */
#ifndef N
#define N 8
#endif

static int samples[N];

static long sum(void)
{
	long s = 0;

	for (int i = 0; i < N; i++)
		s += samples[i];
	return s;
}

int main(void)
{
	for (int i = 0; i < N; i++)
		samples[i] = i;
	return sum() < 0;
}
CEOF

test_expect_success 'sizes fixed at compile time: one build each, the profiles name their programs' '
	for n in 8 16 32 64 500; do
		roi_link ring-$n -O0 -DN=$n ring.c && rm -f ring-$n.roi && ROI_OUTPUT=ring-$n.roi ./ring-$n || return 1
	done &&
	status 0 "$ROI" fit --json --at N=500 N=8:ring-8.roi N=16:ring-16.roi N=32:ring-32.roi N=64:ring-64.roi &&
	mv out ring.fit.json &&
	test_equal null "$(jq .program ring.fit.json)" &&
	test_equal "\"$PWD/ring-16\"" "$(jq ".points[1].program" ring.fit.json)" &&
	"$ROI" report --json ring-500 ring-500.roi >ring.report.json &&
	test_equal N "$(fitted ring.fit.json sum ops form)" &&
	within2 "$(fitted ring.fit.json sum ops prediction)" "$(row ring.report.json sum | jq .ops)" &&
	test_equal N "$(fitted ring.fit.json total ops form)" &&
	within2 "$(fitted ring.fit.json total ops prediction)" "$(jq .total.ops ring.report.json)" &&
	status 0 "$ROI" fit N=8:ring-8.roi N=16:ring-16.roi N=32:ring-32.roi &&
	test_grep "^programs  each profile.s own (its program line), 3 builds$" out &&
	fails 2 "\-\-write-profile needs one program for every profile; these name 3" \
		"$ROI" fit --at N=500 --write-profile x.roi N=8:ring-8.roi N=16:ring-16.roi N=32:ring-32.roi
'

test_expect_success 'with a model, cycles are fitted and predicted too' '
	"$ROI" fit --json --model "$MODEL" --at n=200 isort $(points isort n 4 8 16 32 64) >fit.json 2>/dev/null &&
	"$ROI" report --json --model "$MODEL" isort isort-200.roi >report.json 2>/dev/null &&
	test_equal n^2 "$(fitted fit.json isort cycles form)" &&
	within2 "$(fitted fit.json isort cycles prediction)" "$(row report.json isort | jq .cycles)" &&
	within2 "$(fitted fit.json total energy_j prediction)" "$(jq .total.energy_j report.json)"
'

test_expect_success 'text: the forms, the formulas, the prediction line' '
	status 0 "$ROI" fit --at n=16 rec $(points rec n 2 3 4 5 6) &&
	test_grep "^  rec  *function  calls  *2^n  *2\*2^n - 1  *0.00%  *131071" out &&
	test_grep "^at  *n=16: total [0-9]* ops" out &&
	status 0 "$ROI" fit rec $(points rec n 2 3 4 5 6) &&
	test_grep "^  identifier  *class  *quantity  *form  *formula  *error  *note$" out
'

test_expect_success '--region: that function and its loops; the exit status follows its figures' '
	status 3 "$ROI" fit --at n=65536 bsearch $(points bsearch n 8 16 32 64 128) &&
	test_grep "the total not predicted" out &&
	status 0 "$ROI" fit --json --region search --at n=65536 bsearch $(points bsearch n 8 16 32 64 128) &&
	test_equal "[\"search\"]" "$(jq -c "[.tree[].id]" out)" &&
	test_equal true "$(jq .predicted out)" &&
	fails 1 "no function or loop .nosuch." "$ROI" fit --region nosuch bsearch $(points bsearch n 8 16 32)
'

test_expect_success 'too few sizes: the form is not trusted, and --at exits 3' '
	status 0 "$ROI" fit --json rec $(points rec n 2 3) &&
	test_equal false "$(fitted out rec calls predictable)" &&
	fitted out rec calls why | grep "2 sizes fit forms of at most 1 coefficient$" &&
	status 3 "$ROI" fit --at n=9 rec $(points rec n 2 3) &&
	test_grep "^at  *n=9: the total not predicted (ops: held-out error" out &&
	status 0 "$ROI" fit --max-error 50 --json --at n=5 scan $(points scan n 4 8 16) &&
	test_equal true "$(jq .predicted out)"
'

test_expect_success '--write-profile: every counter predicted; the profile is the run at that size' '
	status 0 "$ROI" fit --at n=200 --write-profile isort-200.predicted isort $(points isort n 4 8 16 32 64) &&
	grep "^fn " isort-200.roi >expect &&
	grep "^fn " isort-200.predicted >actual &&
	test_cmp expect actual &&
	status 0 "$ROI" fit --at n=1000 --write-profile scan-1000.predicted scan $(points scan n 4 8 16 32) &&
	grep "^fn " scan-1000.roi >expect &&
	grep "^fn " scan-1000.predicted >actual &&
	test_cmp expect actual &&
	"$ROI" estimate isort isort-200.predicted >/dev/null
'

test_expect_success '--write-profile: each counter on its own, so a sum of forms is predicted too' '
	status 3 "$ROI" fit --at n=65536 --write-profile bsearch.predicted bsearch $(points bsearch n 8 16 32 64 128) &&
	grep "^fn " bsearch-65536.roi >expect &&
	grep "^fn " bsearch.predicted >actual &&
	test_cmp expect actual
'

test_expect_success '--write-profile: not written when a counter cannot be predicted' '
	fails 3 "rec.predicted not written: [0-9]* of [0-9]* counters cannot be predicted at n=9 (first: " \
		"$ROI" fit --at n=9 --write-profile rec.predicted rec $(points rec n 2 3) &&
	test_must_fail test -e rec.predicted
'

test_expect_success 'a budget against a predicted size: roi budget check on the predicted profile' '
	"$ROI" fit --at n=200 --write-profile isort-200.predicted isort $(points isort n 4 8 16 32 64) >/dev/null &&
	ops=$(row isort.report.json isort | jq .ops) &&
	echo "function isort ops per call <= ${ops}ops" >fits.txt &&
	echo "function isort ops per call <= $((ops - 1))ops" >over.txt &&
	status 0 "$ROI" budget check --budgets fits.txt isort isort-200.predicted &&
	test_grep "PASS" out &&
	status 3 "$ROI" budget check --budgets over.txt isort isort-200.predicted &&
	test_grep "FAIL" out
'

test_expect_success 'usage errors exit 2 with one line; --help exits 0' '
	status 0 "$ROI" fit --help && test_grep "^usage: roi fit" out &&
	"$ROI" --help >help && test_grep "^  fit " help &&
	fails 2 "missing SIZES:PROFILE" "$ROI" fit &&
	fails 2 "profiles at 2 sizes or more" "$ROI" fit rec &&
	fails 2 "profiles at 2 sizes or more" "$ROI" fit rec n=2:rec-2.roi &&
	fails 2 "n8:rec-2.roi. is not SIZES:PROFILE" "$ROI" fit rec n8:rec-2.roi n=3:rec-3.roi &&
	fails 2 "no .:. before the profile" "$ROI" fit rec n=2 n=3:rec-3.roi &&
	fails 2 "n must be a positive number, got .0." "$ROI" fit rec n=0:rec-2.roi n=3:rec-3.roi &&
	fails 2 "gives n twice" "$ROI" fit rec n=2,n=3:rec-2.roi n=3:rec-3.roi &&
	fails 2 "the same size parameters: .n=2:rec-2.roi. gives n, .m=3:rec-3.roi. m" \
		"$ROI" fit rec n=2:rec-2.roi m=3:rec-3.roi &&
	fails 2 "are at the same sizes" "$ROI" fit rec n=2:rec-2.roi n=2:rec-3.roi &&
	fails 2 "\-\-at gives m; the profiles are at sizes of n" "$ROI" fit --at m=4 rec $(points rec n 2 3 4) &&
	fails 2 "\-\-at: .n=4:x. is not SIZES" "$ROI" fit --at n=4:x rec $(points rec n 2 3 4) &&
	fails 2 "\-\-write-profile needs \-\-at" "$ROI" fit --write-profile x.roi rec $(points rec n 2 3 4) &&
	fails 2 "\-\-max-error takes a percentage" "$ROI" fit --max-error 0 rec $(points rec n 2 3 4) &&
	fails 2 "unknown option" "$ROI" fit --bogus rec $(points rec n 2 3 4)
'

test_expect_success 'bad input exits 1 with one line naming the file' '
	fails 1 "nosuch.roi" "$ROI" fit rec n=2:rec-2.roi n=3:nosuch.roi &&
	fails 1 "scan-4.roi: unit [0-9a-f]* is not in rec (profile from another build: run the program again for a new one)" "$ROI" fit rec n=2:rec-2.roi n=4:scan-4.roi &&
	fails 1 "nosuch" "$ROI" fit nosuch $(points rec n 2 3)
'

test_done
