# test-lib.sh — a small TAP test library in the spirit of git's t/test-lib.sh.
#
# A test script sets test_description, sources this file, runs test_expect_success
# blocks and ends with test_done. Each script works in its own scratch directory
# (testsuite/trash/<script>/), which is the current directory while tests run.
#
# Variables for tests:
#   ROI_SRC     top of the source tree
#   ROI_BUILD   build directory (build/)
#   ROI         the roi command (build/bin/roi)
#   ROI_PLUGIN  the host plugin (build/host/roi.so)
#   ROI_LIB     the host runtime (build/host/libroi.a)
#   ROI_CC      "gcc -fplugin=$ROI_PLUGIN"
#   EXAMPLES    contrib/examples

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
ROI_SRC=$(cd "$TEST_DIRECTORY/.." && pwd)
ROI_BUILD=${ROI_BUILD:-$ROI_SRC/build}
ROI=${ROI:-$ROI_BUILD/bin/roi}
ROI_PLUGIN=${ROI_PLUGIN:-$ROI_BUILD/host/roi.so}
ROI_LIB=$ROI_BUILD/host/libroi.a
ROI_CC="gcc -fplugin=$ROI_PLUGIN"
EXAMPLES=$ROI_SRC/contrib/examples
export ROI_SRC ROI_BUILD ROI ROI_PLUGIN ROI_LIB ROI_CC EXAMPLES TEST_DIRECTORY

# -v (--verbose): show every test's output, not only a failing one's.
test_verbose=
case "${1:-}" in -v|--verbose) test_verbose=t ;; esac

test_name=$(basename "$0" .sh)
TRASH_DIRECTORY="$TEST_DIRECTORY/trash/$test_name"
rm -rf "$TRASH_DIRECTORY"
mkdir -p "$TRASH_DIRECTORY" || exit 1
cd "$TRASH_DIRECTORY" || exit 1

test_count=0
test_failures=0
test_skipped=0
test_prereqs=" "

say () { printf '# %s\n' "$*"; }

# test_set_prereq NAME: mark a prerequisite as satisfied.
test_set_prereq () { test_prereqs="$test_prereqs$1 "; }

# test_have_prereq NAME[,NAME...]: true when every named prerequisite holds.
test_have_prereq () {
	for p in $(echo "$1" | tr ',' ' '); do
		case "$test_prereqs" in *" $p "*) ;; *) return 1 ;; esac
	done
	return 0
}

# test_expect_success [PREREQ] 'title' 'commands'
test_expect_success () {
	prereq=
	if [ $# -eq 3 ]; then prereq=$1; shift; fi
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $1 (missing $prereq)"
		return 0
	fi
	if (set -e; eval "$2") >"$TRASH_DIRECTORY/.out.$test_count" 2>&1; then
		echo "ok $test_count - $1"
		[ -z "$test_verbose" ] || sed -e 's/^/#   /' "$TRASH_DIRECTORY/.out.$test_count"
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $1"
		sed -e 's/^/#   /' "$TRASH_DIRECTORY/.out.$test_count"
		printf '%s\n' "$2" | sed -e 's/^/#   > /'
	fi
}

# test_must_fail CMD...: CMD exits non-zero, but not by a signal (a crash is a failure).
test_must_fail () {
	"$@"
	status=$?
	if [ $status -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif [ $status -gt 128 ] && [ $status -lt 160 ]; then
		echo "test_must_fail: '$*' died of signal $((status - 128))" >&2
		return 1
	fi
	return 0
}

# test_cmp EXPECTED ACTUAL: files are equal; shows the difference otherwise.
test_cmp () { diff -u "$1" "$2"; }

# test_grep PATTERN FILE: FILE has a line matching PATTERN; shows FILE otherwise.
test_grep () {
	if ! grep -e "$1" "$2" >/dev/null; then
		echo "test_grep: no line matching '$1' in $2:" >&2
		sed -e 's/^/| /' "$2" >&2
		return 1
	fi
}

# test_equal EXPECTED ACTUAL [what]: two values are equal.
test_equal () {
	if [ "$1" != "$2" ]; then
		echo "test_equal: ${3:-value}: expected '$1', got '$2'" >&2
		return 1
	fi
}

test_done () {
	echo "1..$test_count"
	if [ "$test_failures" -ne 0 ]; then
		say "failed $test_failures of $test_count"
		exit 1
	fi
	cd "$TEST_DIRECTORY" && rm -rf "$TRASH_DIRECTORY"
	exit 0
}

say "$test_description"
