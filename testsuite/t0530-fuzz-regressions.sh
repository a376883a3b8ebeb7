#!/bin/sh
test_description='inputs the fuzzers found: a clean one-line error each

Every file in testsuite/fuzz-regressions/ once crashed roi or made it misbehave
(make fuzz, fuzz/). Its name says which reader it is for: meta-* is the JSON of
one .roi.meta record (put into an object file here), profile-* a profile,
model-* a cost model, budget-* a budget file, elf-* and avr_elf-* a file given as a program or
firmware, filter-* a filter file for the plugin. roi must refuse each with exit
status 1 and exactly one line on stderr, "roi: ...", in plain text; the plugin
must refuse a bad filter with compiler errors, not crash.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

INPUTS=$TEST_DIRECTORY/fuzz-regressions

# one_line_error ERRFILE: one line, "roi: ...", no control characters.
one_line_error () {
	test_equal 1 "$(wc -l <"$1" | tr -d " ")" "lines on stderr" &&
	test_grep "^roi: " "$1" &&
	if LC_ALL=C grep -q "[[:cntrl:]]" "$1"; then
		echo "control characters in: $(cat -v "$1")" >&2
		return 1
	fi
}

# refused STATUSFILE ERRFILE CMD...: CMD exits 1 (not by a signal), one clean line on stderr.
refused () {
	errfile=$1
	shift
	"$@" >out 2>"$errfile"
	status=$?
	test_equal 1 "$status" "exit status of $*" && one_line_error "$errfile"
}

test_expect_success 'a counted program and its profile to feed the inputs to' '
	roi_link prog -O0 "$TEST_DIRECTORY/programs/loops.c" &&
	ROI_OUTPUT=prog.roi ./prog &&
	"$ROI" estimate prog prog.roi >/dev/null &&
	printf "int x;\n" >empty.c && gcc -c empty.c -o empty.o
'

for input in "$INPUTS"/*; do
	name=$(basename "$input")
	case $name in
	meta-*)
		test_expect_success "$name: roi ops refuses the record" '
			{ cat "$input"; printf "\0"; } >"$name.sec" &&
			objcopy --add-section .roi.meta="$name.sec" empty.o "$name.o" &&
			refused "$name.err" "$ROI" ops "$name.o"
		' ;;
	profile-*)
		test_expect_success "$name: roi estimate refuses the profile" '
			refused "$name.err" "$ROI" estimate prog "$input"
		' ;;
	budget-*)
		test_expect_success "$name: roi budget check refuses the budget file" '
			refused "$name.err" "$ROI" budget check --budgets "$input" prog prog.roi
		' ;;
	model-*)
		test_expect_success "$name: roi estimate refuses the model" '
			refused "$name.err" "$ROI" estimate --model "$input" prog prog.roi
		' ;;
	elf-*)
		test_expect_success "$name: roi ops and roi run refuse the file" '
			refused "$name.err" "$ROI" ops "$input" &&
			refused "$name.run.err" "$ROI" run --target avr --mcu atmega32u4 "$input"
		' ;;
	avr_elf-*)
		test_expect_success "$name: roi run refuses the firmware, with and without counting" '
			refused "$name.err" "$ROI" run --target avr --mcu atmega32u4 "$input" &&
			refused "$name.cycles.err" "$ROI" run --target avr --mcu atmega32u4 --cycles-only "$input"
		' ;;
	filter-*)
		test_expect_success "$name: the plugin refuses the filter with errors" '
			test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter="$input" -c empty.c 2>"$name.err" &&
			test_grep "error: " "$name.err" &&
			! grep -i "internal compiler error" "$name.err"
		' ;;
	*)
		test_expect_success "$name: named after a reader" 'false' ;;
	esac
done

test_expect_success 'control characters in a quoted value come out as ?' '
	test_grep "unknown value .i32??\[31mred." meta-control-characters.json.err
'

test_expect_success 'a terminal escape in a budget file is quoted as ?' '
	test_grep "unknown unit .?\[31m." budget-terminal-escape.txt.err
'

test_expect_success 'the classes of issue 27 are named: a key twice or unknown, nesting, a section past the end' '
	test_grep "record 1: duplicate key .roi.$" meta-duplicate-key.json.err &&
	test_grep "record 1: unknown key .jumpz.$" meta-unknown-key.json.err &&
	test_grep "record 1: JSON nested deeper than 1000 levels at byte 5000$" meta-deep-nesting.json.err &&
	test_grep "model-deep-nesting.json:1:1001: JSON nested deeper than 1000 levels$" model-deep-nesting.json.err &&
	test_grep "damaged ELF file: section .roi.meta extends past the end of the file" elf-meta-past-end.o.err
'

test_expect_success 'a firmware simavr would crash on is refused before simavr reads it' '
	test_grep "damaged ELF file: section 11 extends past the end of the file" \
		avr_elf-unnamed-sections.elf.cycles.err
'

test_done
