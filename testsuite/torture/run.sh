#!/bin/sh
# run.sh [options] WORKDIR — GCC's gcc.c-torture/execute tests with and without roi.
#
# Every test is built and run at each -O level without the plugin and with it
# (run-one.sh says how, with which options); a test that passes without the
# plugin must pass with it, the compiler must never crash, and every passing
# run with the plugin must leave a sealed profile. Results go to
# WORKDIR/results.txt (one line per test and level), a summary to stdout.
#
#   -j N            parallel jobs (default: the number of processors)
#   --levels "0 2"  the -O levels (default "0 2")
#   --every K       only every K-th test of the sorted list, starting with the
#                   first (default 1: all)
#   --gcov all|none also build with --coverage and run 'roi gcov-check'
#                   (default none)
#   --json FILE     write the summary as JSON to FILE
#   --blocks        also build counted per block (-fplugin-arg-roi-block-counters)
#                   and compare the two builds' estimates: edge counters must give
#                   every count a counter per block gives
#   --target avr    avr-gcc with build/avr/roi.so (ROI_AVR_PLUGIN), run in
#                   simavr by roi run
#                   (run-one.sh says how; default host: gcc, natively)
#
# The tests come from Debian's gcc-12-source: the execute directory is taken
# out of /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz into build/torture/ once.
# ROI_BUILD (default build/) names the roi to test; ROI_COMMIT, when set, is
# what the JSON summary says was tested (default: this tree's HEAD, with
# "+modified" when gcc-plugin/, runtime/ or estimator/ differ from it).
# Tests listed in testsuite/torture-exclusions.txt are not run.
#
# Exit status: 0 when nothing regressed (no compiler crash, no test that passes
# without the plugin failing with it, no missing profile), 1 otherwise, 2 for a
# usage error or when the tests cannot be found. Reported, not fatal: programs
# 'roi estimate' cannot read, and gcov-check's disagreements, counted by the
# reason testsuite/torture-gcov-known.txt gives (docs/gcov-check.md, "GCC's
# torture tests"); one not listed there is named.

set -e
here=$(cd "$(dirname "$0")" && pwd)
ROI_SRC=$(cd "$here/../.." && pwd)
ROI_BUILD=${ROI_BUILD:-$ROI_SRC/build}

TARBALL=${TORTURE_TARBALL:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
SUBDIR=gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute
TORTURE_DIR=${TORTURE_DIR:-$ROI_SRC/build/torture}
EXCLUSIONS=$ROI_SRC/testsuite/torture-exclusions.txt
GCOV_KNOWN=$ROI_SRC/testsuite/torture-gcov-known.txt

jobs=$(nproc 2>/dev/null || echo 2)
levels="0 2"
every=1
gcov=none
json=
target=host
usage () { echo "usage: run.sh [-j N] [--levels L] [--every K] [--gcov all|none] [--blocks] [--json FILE] [--target host|avr] WORKDIR" >&2; exit 2; }
while [ $# -gt 1 ]; do
	case $1 in
	-j)       jobs=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--every)  every=$2; shift 2 ;;
	--gcov)   gcov=$2; shift 2 ;;
	--json)   json=$2; shift 2 ;;
	--target) target=$2; shift 2 ;;
	--blocks) TORTURE_BLOCKS=1; export TORTURE_BLOCKS; shift ;;
	*)        usage ;;
	esac
done
[ $# -eq 1 ] || usage
case $gcov in all|none) ;; *) usage ;; esac
work=$1

ROI=${ROI:-$ROI_BUILD/bin/roi}
case $target in
host)
	ROI_PLUGIN=${ROI_PLUGIN:-$ROI_BUILD/host/roi.so}
	ROI_LIB=${ROI_LIB:-$ROI_BUILD/host/libroi.a}
	cc=${TORTURE_CC:-gcc}
	needs="$ROI_PLUGIN $ROI_LIB $ROI" ;;
avr)
	# No gcov on the target, and no runtime: the counters are read out of simavr.
	ROI_PLUGIN=${ROI_AVR_PLUGIN:-$ROI_BUILD/avr/roi.so}
	ROI_LIB=
	cc=${TORTURE_CC:-avr-gcc}
	gcov=none
	EXCLUSIONS=$ROI_SRC/testsuite/torture-avr-exclusions.txt
	needs="$ROI_PLUGIN $ROI" ;;
*)
	usage ;;
esac
TORTURE_TARGET=$target
export ROI_PLUGIN ROI_LIB ROI TORTURE_TARGET
for f in $needs; do
	[ -f "$f" ] || { echo "run.sh: $f is missing (make all$([ "$target" = avr ] && echo ' avr'))" >&2; exit 2; }
done

# The tests, extracted once; into a temporary directory first so that an
# interrupted extraction is never taken for a complete one.
execdir=$TORTURE_DIR/$SUBDIR
if [ ! -d "$execdir" ]; then
	[ -f "$TARBALL" ] || { echo "run.sh: $TARBALL is missing (apt-get install gcc-12-source)" >&2; exit 2; }
	tmp=$TORTURE_DIR.tmp.$$
	rm -rf "$tmp" && mkdir -p "$tmp" "$TORTURE_DIR"
	tar -xJf "$TARBALL" -C "$tmp" "$SUBDIR"
	mkdir -p "$(dirname "$execdir")"
	mv "$tmp/$SUBDIR" "$execdir"
	rm -rf "$tmp"
fi

# The list: execute/*.c, ieee/*.c, builtins/*.c (without their -lib.c and
# lib/), sorted in the C locale; then every K-th; then the exclusions out.
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
(cd "$execdir" && ls -- *.c ieee/*.c builtins/*.c) | grep -v -e '-lib\.c$' | LC_ALL=C sort |
	awk -v k="$every" '(NR - 1) % k == 0' >"$work/all.txt"
sed -e 's/[[:space:]#].*//' -e '/^$/d' "$EXCLUSIONS" | LC_ALL=C sort -u >"$work/excluded.txt"
LC_ALL=C comm -23 "$work/all.txt" "$work/excluded.txt" >"$work/tests.txt"
LC_ALL=C comm -12 "$work/all.txt" "$work/excluded.txt" >"$work/skipped.txt"
ntests=$(wc -l <"$work/tests.txt")
nruns=$((ntests * $(echo "$levels" | wc -w)))
echo "torture: $ntests tests ($(wc -l <"$work/skipped.txt") excluded) at -O$(echo "$levels" | sed 's/ /, -O/g'), $jobs jobs, gcov-check: $gcov, target $target"

# A snapshot of the plugin, runtime and roi: a rebuild during the run must not
# change them halfway.
mkdir -p "$work/roi"
cp $needs "$work/roi/"
ROI_PLUGIN=$work/roi/roi.so ROI=$work/roi/roi
[ -n "$ROI_LIB" ] && ROI_LIB=$work/roi/libroi.a

gcovarg=
[ "$gcov" = all ] && gcovarg=gcov
start=$(date +%s)
for level in $levels; do
	sed "s/\$/ $level/" "$work/tests.txt"
done | xargs -P "$jobs" -n 2 sh "$here/run-one.sh" "$execdir" "$work" "$gcovarg" |
	tee "$work/results.unsorted" |
	awk -v n="$nruns" -v start="$start" '
		{ done++ }
		$3 == "pass" && ($4 != "pass" || $6 != "yes") { bad++; print "FAIL: " $0 }
		$5 == "ice" { print "ICE: " $0 }
		$7 == "fail" { print "roi estimate failed: " $0 }
		$9 == "differ" { bad++; print "COUNTS DIFFER (edges, blocks): " $0 }
		done % 100 == 0 || done == n {
			"date +%s" | getline now; close("date +%s")
			printf "  %d/%d runs, %d s, %d regressions\n", done, n, now - start, bad
			fflush()
		}'
elapsed=$(($(date +%s) - start))
LC_ALL=C sort -k1,1 -k2,2 "$work/results.unsorted" >"$work/results.txt"
rm -f "$work/results.unsorted"
rm -rf "$work/roi"
find "$work" -mindepth 1 -type d -empty -delete

# The summary, per level: runs, passed without, passed with, ICEs, and the
# names; gcov-check's disagreements by the reason testsuite/torture-gcov-known.txt
# gives for them.
summary=$(jq -R -s --argjson elapsed "$elapsed" --argjson jobs "$jobs" --arg every "$every" \
	--rawfile known "$GCOV_KNOWN" '
	($known | split("\n") | map(select(test("^[^#[:space:]]")) | split(" ") | map(select(. != "")))
	 | map({key: "\(.[0]) \(.[1])", value: (.[2] | split(","))}) | from_entries) as $why
	| [split("\n")[] | select(length > 0) | split(" ")
	 | {test: .[0], level: .[1], plain: .[2], roi: .[3], ice: (.[4] == "ice"),
	    profile: .[5], estimate: .[6], gcov: .[7], blocks: .[8]}] as $r
	| ($r | map(.test) | unique) as $tests
	| {tests: ($tests | length),
	   by_directory: ($tests | group_by(if test("/") then split("/")[0] else "execute" end)
	                  | map({key: (.[0] | if test("/") then split("/")[0] else "execute" end),
	                         value: length}) | from_entries),
	   every: ($every | tonumber), jobs: $jobs, seconds: $elapsed,
	   levels: ($r | group_by(.level) | map({key: .[0].level, value: {
		runs: length,
		passed_without: map(select(.plain == "pass")) | length,
		passed_with: map(select(.roi == "pass")) | length,
		passed_both: map(select(.plain == "pass" and .roi == "pass")) | length,
		ices: map(select(.ice)) | length,
		ice_tests: map(select(.ice) | .test),
		failures: map(select(.plain == "pass" and .roi != "pass") | "\(.test): \(.roi)"),
		missing_profiles: map(select(.roi == "pass" and .profile != "yes") | .test),
		estimate_failures: map(select(.estimate == "fail") | .test),
		failed_without: map(select(.plain != "pass") | "\(.test): \(.plain)"),
		passed_only_with: map(select(.plain != "pass" and .roi == "pass") | .test),
		blocks_compared: map(select(.blocks == "same" or .blocks == "differ" or .blocks == "known")) | length,
		blocks_known: map(select(.blocks == "known") | .test),
		blocks_differ: map(select(.blocks == "differ") | .test)
	   }}) | from_entries),
	   gcov_check: ($r | map(select(.gcov != "-")) | if length == 0 then null else
		group_by(.level) | map({key: .[0].level, value: (
		map(select(.gcov == "disagree")) as $d | {
		checked: map(select(.gcov == "agree" or .gcov == "disagree")) | length,
		agree: map(select(.gcov == "agree")) | length,
		disagree: ($d | length),
		disagree_by_reason: ([$d[] | $why["\(.test) \(.level)"] // ["unexplained"] | .[]]
		                     | group_by(.) | map({key: .[0], value: length}) | from_entries),
		unexplained: [$d[] | select($why["\(.test) \(.level)"] == null) | .test],
		listed_but_agree: [.[] | select(.gcov == "agree" and $why["\(.test) \(.level)"] != null) | .test],
		not_built_or_run: map(select(.gcov != "agree" and .gcov != "disagree") | "\(.test): \(.gcov)")
	   })}) | from_entries end)}' "$work/results.txt")
echo "$summary" | jq -r '
	.levels | to_entries[] | "\(.key): \(.value.runs) tests, passed without the plugin \(.value.passed_without), with it \(.value.passed_with) (both \(.value.passed_both)), \(.value.ices) ICEs, \(.value.failures | length) failures\(if (.value.failures | length) > 0 then ": " + (.value.failures | join(", ")) else "" end), \(.value.missing_profiles | length) missing profiles, roi estimate failed on \(.value.estimate_failures | length)\(if (.value.estimate_failures | length) > 0 then ": " + (.value.estimate_failures | join(" ")) else "" end)\(if .value.blocks_compared > 0 then ", counts per block against edges: \(.value.blocks_compared) compared, \(.value.blocks_differ | length) differ, \(.value.blocks_known | length) listed in torture-blocks-known.txt" + (if (.value.blocks_differ | length) > 0 then ": " + (.value.blocks_differ | join(" ")) else "" end) else "" end)"'
echo "$summary" | jq -r '.gcov_check // {} | to_entries[] |
	"\(.key) gcov-check: \(.value.agree) of \(.value.checked) agree; \(.value.disagree) disagree (\(.value.disagree_by_reason | to_entries | map("\(.key) \(.value)") | join(", ")))\(if (.value.unexplained | length) > 0 then "; not in torture-gcov-known.txt: " + (.value.unexplained | join(" ")) else "" end)\(if (.value.listed_but_agree | length) > 0 then "; listed but agree now: " + (.value.listed_but_agree | join(" ")) else "" end)"'
echo "torture: $elapsed s; results in $work/results.txt, logs of what did not pass in $work/O*/"

if [ -n "$json" ]; then
	commit=${ROI_COMMIT:-$(git -C "$ROI_SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)}
	if [ -z "${ROI_COMMIT-}" ] &&
	   [ -n "$(git -C "$ROI_SRC" status --porcelain -- gcc-plugin runtime estimator 2>/dev/null)" ]; then
		commit=$commit+modified
	fi
	echo "$summary" | jq --arg suite "gcc.c-torture/execute of GCC 12.2.0 (Debian gcc-12-source)" \
		--arg compiler "$($cc --version | head -n 1)" \
		--arg target "$($cc -dumpmachine)$([ "$target" = avr ] && echo " (${TORTURE_MCU:-atmega1284p} in simavr)")" \
		--arg commit "$commit" \
		--arg date "$(date -u +%Y-%m-%d)" \
		--rawfile excluded "$EXCLUSIONS" \
		'{suite: $suite, compiler: $compiler, target: $target, roi_commit: $commit, date: $date,
		  exclusions: [$excluded | split("\n")[] | select(test("^[^#[:space:]]"))]} + .' >"$json"
	echo "torture: summary written to $json"
fi

echo "$summary" | jq -e '[.levels[] | .ices + (.failures | length) + (.missing_profiles | length) + (.blocks_differ | length)] | add == 0' >/dev/null
