#!/bin/sh
# run.sh SECONDS DIR TARGET... — run each fuzz target in turn, SECONDS each, one process.
#
# DIR holds the fuzzers (DIR/fuzz-TARGET), the seed corpora (DIR/seeds/TARGET, from seeds.sh),
# the corpora the fuzzers grow (DIR/corpus/TARGET, kept between runs so that each run starts where
# the last one stopped) and what they find (DIR/crashes/TARGET/: crash-*, leak-*, timeout-*,
# oom-*). Exit status 1 when any target found something: the input is named, to become a
# regression test (testsuite/t0530-fuzz-regressions.sh).
set -e
here=$(cd "$(dirname "$0")" && pwd)
# libsimavr's own leaks (avr_elf) are not roi's: make check-asan's suppressions.
LSAN_OPTIONS=suppressions=$here/../testsuite/lsan-suppressions.txt:print_suppressions=0
export LSAN_OPTIONS
seconds=$1 dir=$2
shift 2
failed=
for t in "$@"; do
	mkdir -p "$dir/corpus/$t" "$dir/crashes/$t"
	# Inputs up to twice the largest seed: room to grow, not so much that each run slows down.
	max=$(find "$dir/seeds/$t" -type f -printf '%s\n' | sort -n | tail -n 1)
	echo "fuzz: $t for $seconds s (max_len $((2 * max)))"
	# libsimavr leaks about 600 bytes of IRQ names per simulated MCU (suppressed for LSan): over
	# millions of avr_elf runs that is gigabytes, not a leak of roi's
	rss=2048
	[ "$t" = avr_elf ] && rss=12288
	if "$dir/fuzz-$t" -max_total_time="$seconds" -max_len=$((2 * max)) -timeout=10 -rss_limit_mb=$rss \
		-print_final_stats=1 -artifact_prefix="$dir/crashes/$t/" \
		"$dir/corpus/$t" "$dir/seeds/$t" >"$dir/$t.log" 2>&1; then
		echo "  $(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log") runs, corpus $(ls "$dir/corpus/$t" | wc -l) inputs, clean"
	else
		failed="$failed $t"
		echo "  FAILED: $(ls -t "$dir/crashes/$t" | head -n 1) (log: $dir/$t.log)"
		grep -m 1 -A 12 '^==[0-9]*==ERROR\|runtime error\|deadly signal' "$dir/$t.log" | sed 's/^/  | /'
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: found problems in:$failed"
	exit 1
fi
echo "fuzz: every target ran $seconds s clean"
