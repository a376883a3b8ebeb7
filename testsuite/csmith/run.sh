#!/bin/sh
# run.sh [options] WORKDIR — random programs from csmith, with and without roi.
#
# Program i (1..N) is the one csmith generates from seed SEED_BASE + i, so a
# run is the same on every machine with the same csmith. Each is built and run
# at each -O level without the plugin and with it, and with --coverage and the
# plugin for 'roi gcov-check' (run-one.sh says how). The output with the plugin
# must be the output without it, the compiler must never crash, the run must
# leave a sealed profile that 'roi estimate' reads, and gcov-check must agree
# with gcov, or the disagreement must be one testsuite/csmith-gcov-known.txt
# explains. Anything else is saved as a reproducer under the --save directory.
# A level whose plain build fails (a time-out, a crash: csmith programs may
# recurse deeply or run long) is skipped and counted as such.
#
#   -j N              parallel jobs (default 1)
#   --count N         how many programs (default 20)
#   --seed-base B     seeds B+1 .. B+N (default 0)
#   --levels "0 1 2 s"  the -O levels (default "0 1 2 s")
#   --gcov all|none   also build with --coverage and run gcov-check (default all)
#   --blocks          also build counted per block and compare its counts with the
#                     edge counters' (testsuite/counts.jq)
#   --save DIR        where reproducers go (default testsuite/regressions)
#   --json FILE       write the summary as JSON to FILE
#
# Results: WORKDIR/results.txt (one line per program and level); a summary on
# stdout. ROI_BUILD (default build/) names the roi to test.
#
# Exit status: 0 when every level that ran without the plugin ran the same
# with it, 1 otherwise (a reproducer was saved), 2 for a usage error or when
# csmith is missing.

set -e
here=$(cd "$(dirname "$0")" && pwd)
ROI_SRC=$(cd "$here/../.." && pwd)
ROI_BUILD=${ROI_BUILD:-$ROI_SRC/build}
ROI_PLUGIN=${ROI_PLUGIN:-$ROI_BUILD/host/roi.so}
ROI_LIB=${ROI_LIB:-$ROI_BUILD/host/libroi.a}
ROI=${ROI:-$ROI_BUILD/bin/roi}
CSMITH=${CSMITH:-csmith}
CSMITH_KNOWN=${CSMITH_KNOWN:-$ROI_SRC/testsuite/csmith-gcov-known.txt}
export ROI_SRC ROI_PLUGIN ROI_LIB ROI CSMITH CSMITH_KNOWN

jobs=1
count=20
base=0
levels="0 1 2 s"
gcov=all
save=$ROI_SRC/testsuite/regressions
json=
usage () {
	echo "usage: run.sh [-j N] [--count N] [--seed-base B] [--levels L] [--gcov all|none] [--blocks] [--save DIR] [--json FILE] WORKDIR" >&2
	exit 2
}
while [ $# -gt 1 ]; do
	case $1 in
	-j)          jobs=$2; shift 2 ;;
	--count)     count=$2; shift 2 ;;
	--seed-base) base=$2; shift 2 ;;
	--levels)    levels=$2; shift 2 ;;
	--gcov)      gcov=$2; shift 2 ;;
	--blocks)    CSMITH_BLOCKS=1; export CSMITH_BLOCKS; shift ;;
	--save)      save=$2; shift 2 ;;
	--json)      json=$2; shift 2 ;;
	*)           usage ;;
	esac
done
[ $# -eq 1 ] || usage
case $gcov in all|none) ;; *) usage ;; esac
case $count$base in *[!0-9]*) usage ;; esac
work=$1

command -v "$CSMITH" >/dev/null || { echo "run.sh: $CSMITH is missing (apt-get install csmith libcsmith-dev)" >&2; exit 2; }
[ -f "${CSMITH_INCLUDE:-/usr/include/csmith}/csmith.h" ] ||
	{ echo "run.sh: csmith.h is missing (apt-get install libcsmith-dev)" >&2; exit 2; }
for f in "$ROI_PLUGIN" "$ROI_LIB" "$ROI"; do
	[ -f "$f" ] || { echo "run.sh: $f is missing (make all)" >&2; exit 2; }
done

rm -rf "$work"
mkdir -p "$work" "$save"
work=$(cd "$work" && pwd)
save=$(cd "$save" && pwd)
nlevels=$(echo "$levels" | wc -w)
echo "csmith: $count programs (seeds $((base + 1))..$((base + count))) at -O$(echo "$levels" | sed 's/ /, -O/g'), $jobs jobs, gcov-check: $gcov"

# A snapshot of the plugin, runtime and roi: a rebuild during the run must not
# change them halfway.
mkdir -p "$work/roi"
cp "$ROI_PLUGIN" "$ROI_LIB" "$ROI" "$work/roi/"
ROI_PLUGIN=$work/roi/roi.so ROI_LIB=$work/roi/libroi.a ROI=$work/roi/roi

gcovarg=
[ "$gcov" = all ] && gcovarg=gcov
start=$(date +%s)
seq "$((base + 1))" "$((base + count))" |
	xargs -P "$jobs" -n 1 sh "$here/run-one.sh" "$work" "$levels" "$gcovarg" "$save" |
	tee "$work/results.unsorted" |
	awk -v n="$((count * nlevels))" -v start="$start" '
		{ done++ }
		$3 == "pass" && ($4 != "same" || $5 != "-" || $6 != "yes" || $7 != "ok" ||
		                 ($8 != "-" && $8 != "agree" && $8 != "known") || $9 == "differ") { bad++; print "FAIL: " $0 }
		done % 40 == 0 || done == n {
			"date +%s" | getline now; close("date +%s")
			printf "  %d/%d runs, %d s, %d failures\n", done, n, now - start, bad
			fflush()
		}'
elapsed=$(($(date +%s) - start))
LC_ALL=C sort -k1,1n -k2,2 "$work/results.unsorted" >"$work/results.txt"
rm -f "$work/results.unsorted"
rm -rf "$work/roi"

# The summary, per level.
summary=$(jq -R -s --argjson elapsed "$elapsed" --argjson jobs "$jobs" --argjson count "$count" \
	--argjson base "$base" --rawfile known "$CSMITH_KNOWN" '
	($known | split("\n") | map(select(test("^[^#[:space:]]")) | split(" ") | map(select(. != "")))
	 | map({key: "\(.[0]) \(.[1])", value: (.[2] | split(","))}) | from_entries) as $why
	| [split("\n")[] | select(length > 0) | split(" ")
	 | {seed: (.[0] | tonumber), level: .[1], plain: .[2], roi: .[3], ice: (.[4] == "ice"),
	    profile: .[5], estimate: .[6], gcov: .[7], blocks: .[8]}] as $r
	| {programs: $count, seeds: {first: ($base + 1), last: ($base + $count)}, jobs: $jobs, seconds: $elapsed,
	   levels: ($r | group_by(.level) | map({key: .[0].level, value: (map(select(.plain == "pass")) as $ran | {
		programs: length,
		ran: ($ran | length),
		skipped: {timeout: map(select(.plain == "timeout")) | length,
		          crash: map(select(.plain == "crash")) | length,
		          compile: map(select(.plain == "compile" or .plain == "generate")) | length},
		same_output: $ran | map(select(.roi == "same")) | length,
		mismatches: [$ran[] | select(.roi != "same") | "\(.seed): \(.roi)"],
		ices: [$r[] | select(.ice) | .seed],
		missing_profiles: [$ran[] | select(.roi == "same" and .profile != "yes") | .seed],
		estimate_failures: [$ran[] | select(.estimate == "fail") | .seed],
		blocks_compared: [$ran[] | select(.blocks == "same" or .blocks == "differ")] | length,
		blocks_differ: [$ran[] | select(.blocks == "differ") | .seed],
		gcov_check: (if ($ran | map(select(.gcov != "-")) | length) == 0 then null else
			($ran | map(select(.gcov == "known"))) as $k | {
			checked: $ran | map(select(.gcov == "agree" or .gcov == "known" or .gcov == "disagree")) | length,
			agree: $ran | map(select(.gcov == "agree")) | length,
			known: ($k | length),
			known_by_reason: ([$k[] | $why["\(.seed) \(.level)"][]] | group_by(.) | map({key: .[0], value: length}) | from_entries),
			unexplained: [$ran[] | select(.gcov == "disagree") | .seed],
			failed: [$ran[] | select(.gcov != "agree" and .gcov != "known" and .gcov != "disagree") | "\(.seed): \(.gcov)"]
		} end)
	   })}) | from_entries)}
	| .failures = ([$r[] | select(.plain == "pass" and (.roi != "same" or .ice or .profile != "yes" or
	                .estimate != "ok" or (.gcov != "-" and .gcov != "agree" and .gcov != "known") or
	                .blocks == "differ"))] | length)' \
	"$work/results.txt")
echo "$summary" | jq -r '
	.levels | to_entries[] | "\(.key): \(.value.programs) programs, \(.value.ran) ran without the plugin (skipped: \(.value.skipped.timeout) time-outs, \(.value.skipped.crash) crashes, \(.value.skipped.compile) not built), same output with it \(.value.same_output), \(.value.mismatches | length) mismatches\(if (.value.mismatches | length) > 0 then " (" + (.value.mismatches | join(", ")) + ")" else "" end), \(.value.ices | length) ICEs, \(.value.missing_profiles | length) missing profiles, \(.value.estimate_failures | length) estimate failures\(if .value.blocks_compared > 0 then "; counted per block: \(.value.blocks_compared) compared, \(.value.blocks_differ | length) differ" + (if (.value.blocks_differ | length) > 0 then " (seeds " + (.value.blocks_differ | map(tostring) | join(" ")) + ")" else "" end) else "" end)\(if .value.gcov_check then "; gcov-check: \(.value.gcov_check.agree) of \(.value.gcov_check.checked) agree, \(.value.gcov_check.known) known differences, \(.value.gcov_check.unexplained | length) unexplained\(if (.value.gcov_check.unexplained | length) > 0 then " (seeds " + (.value.gcov_check.unexplained | map(tostring) | join(" ")) + ")" else "" end)" else "" end)"'
fails=$(echo "$summary" | jq .failures)
echo "csmith: $elapsed s, $fails failed runs; results in $work/results.txt$([ "$fails" -gt 0 ] && echo ", reproducers in $save/")"

if [ -n "$json" ]; then
	commit=${ROI_COMMIT:-$(git -C "$ROI_SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)}
	if [ -z "${ROI_COMMIT-}" ] &&
	   [ -n "$(git -C "$ROI_SRC" status --porcelain -- gcc-plugin runtime estimator 2>/dev/null)" ]; then
		commit=$commit+modified
	fi
	echo "$summary" | jq --arg generator "$("$CSMITH" --version | head -n 1) (Debian csmith), default options" \
		--arg compiler "$(${CSMITH_CC:-gcc} --version | head -n 1)" \
		--arg target "$(${CSMITH_CC:-gcc} -dumpmachine)" \
		--arg commit "$commit" --arg date "$(date -u +%Y-%m-%d)" \
		'{generator: $generator, compiler: $compiler, target: $target, roi_commit: $commit, date: $date} + .' >"$json"
	echo "csmith: summary written to $json"
fi
[ "$fails" -eq 0 ]
