#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi budget on firmware: the examples on an ATmega32U4 in simavr, JUnit XML, make and CMake

The FIR example is built with avr-gcc and build/avr/roi.so, with hooks around
fir(), and run in simavr. Limits are made from roi estimate --json figures (a
quarter above, a twentieth above, a fifth below), so PASS, WARN and FAIL and
their margins are known beforehand; measured figures are read from the
profile'"'"'s region line. JUnit XML is validated with xmllint against
testsuite/junit.xsd (the shape of the Jenkins xunit plugin'"'"'s junit-10.xsd).
The Makefile fragment (contrib/make/roi.mk) and the CMake snippet
(contrib/cmake/roi.cmake) are run on the examples and on a small project.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

MODEL=$ROI_SRC/models/atmega32u4.json
XSD=$TEST_DIRECTORY/junit.xsd

if command -v cmake >/dev/null 2>&1; then
	test_set_prereq CMAKE
fi

calc () {
	awk "BEGIN { printf \"%.17g\", $1 }"
}

close () {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a);
		exit !(d <= 1e-9 * m || d <= 1e-12) }' || { echo "close: $1 != $2" >&2; return 1; }
}

result () {
	jq -r --argjson l "$2" ".results[] | select(.line == \$l) | .$1" out
}

# valid XML: the JUnit file validates against the schema
valid () {
	xmllint --noout --schema "$XSD" "$1"
}

# expect_status STATUS VALUE LIMIT WARN_AT: what the check must say, worked out here.
expect_status () {
	awk -v v="$1" -v l="$2" -v w="$3" 'BEGIN { print (v > l ? "FAIL" : (w != "" && v > w) ? "WARN" : "PASS") }'
}

test_expect_success 'setup: fir with hooks around fir(), built for the ATmega32U4 and run in simavr' '
	printf "hooks include function fir\n" >hooks.txt &&
	avr-gcc -mmcu=atmega32u4 -Os -c "$ROI_SRC/runtime/ports/roi-region-simavr.c" -o port.o &&
	avr-gcc -mmcu=atmega32u4 -O0 -fplugin="$ROI_BUILD/avr/roi.so" -fplugin-arg-roi-filter=hooks.txt \
		-c "$EXAMPLES/fir/fir.c" -o fir.o &&
	avr-gcc -mmcu=atmega32u4 fir.o port.o -o fir.elf &&
	"$ROI" run --target avr --mcu atmega32u4 fir.elf >run.out &&
	"$ROI" estimate --json --model "$MODEL" fir.elf >est.json 2>/dev/null &&
	test_equal 1 "$(fn_calls est.json fir)" &&
	test_equal 904 "$(op_count est.json mul i32)" "by hand, fir.c" &&
	test_equal 64 "$(op_count est.json mul i16)" "i * 37 in main, once per sample"
'

test_expect_success 'pass, warn and fail: statuses, margins and the exit status' '
	fir=$(jq "[.functions[] | select(.name == \"fir\") | .cycles] | add" est.json) &&
	total_j=$(jq .total.energy_j est.json) &&
	cat >budgets.txt <<-EOF &&
	function fir cycles per call <= $(calc "$fir * 1.25")cycles warn 10%
	total energy <= $(calc "$total_j * 1.05 * 1e6")uJ warn 10%
	function fir ops:mul <= 904ops
	function main ops:mul per call <= 967ops
	EOF
	status 3 "$ROI" budget check --json --model "$MODEL" --budgets budgets.txt fir.elf &&
	test_equal PASS "$(result status 1)" && test_equal WARN "$(result status 2)" &&
	test_equal PASS "$(result status 3)" && test_equal FAIL "$(result status 4)" &&
	close "$fir" "$(result estimate 1)" && close "$total_j" "$(result estimate 2)" &&
	test_equal 968 "$(result estimate 4)" "main calls fir: its 904 multiplications count in main'"'"'s 968" &&
	awk -v m="$(result margin_pct 1)" "BEGIN { exit !(m > 19.99 && m < 20.01) }" &&
	awk -v m="$(result margin_pct 2)" "BEGIN { exit !(m > 4.75 && m < 4.77) }" &&
	test_equal 0 "$(result margin_pct 3)" &&
	awk -v m="$(result margin_pct 4)" "BEGIN { exit !(m > -0.11 && m < -0.09) }" &&
	test_equal FAIL "$(jq -r .status out)" &&
	head -3 budgets.txt >ok.txt &&
	status 0 "$ROI" budget check --model "$MODEL" --budgets ok.txt fir.elf &&
	test_grep "^result    WARN: 3 budgets, 2 pass, 1 warn, 0 fail" out &&
	status 3 "$ROI" budget check --strict --model "$MODEL" --budgets ok.txt fir.elf
'

test_expect_success 'JUnit XML: valid against the schema, a testcase per budget, failures as <failure>' '
	status 3 "$ROI" budget check --model "$MODEL" --budgets budgets.txt --junit report.xml fir.elf &&
	valid report.xml &&
	test_equal 4 "$(xmllint --xpath "count(//testsuite/testcase)" report.xml)" &&
	test_equal 1 "$(xmllint --xpath "count(//testcase/failure)" report.xml)" &&
	test_equal 1 "$(xmllint --xpath "string(/testsuites/testsuite/@failures)" report.xml)" &&
	test_equal FAIL "$(xmllint --xpath "string(//testcase[@name=\"function main ops:mul per call\"]/failure/@type)" report.xml)" &&
	xmllint --xpath "string(//testcase[@name=\"function main ops:mul per call\"]/failure)" report.xml >failure.txt &&
	test_grep "^budgets.txt:4: function main ops:mul per call <= 967ops$" failure.txt &&
	test_grep "^FAIL: estimate 968 ops, limit 967 ops, margin -0.1%$" failure.txt &&
	status 3 "$ROI" budget check --strict --model "$MODEL" --budgets ok.txt --junit strict.xml fir.elf &&
	valid strict.xml &&
	test_equal WARN "$(xmllint --xpath "string(//testcase/failure/@type)" strict.xml)" &&
	status 0 "$ROI" budget check --model "$MODEL" --budgets ok.txt --junit warn.xml fir.elf &&
	valid warn.xml && test_equal 0 "$(xmllint --xpath "count(//failure)" warn.xml)"
'

test_expect_success 'the schema is no rubber stamp: it rejects what CI would not read' '
	sed "s/ failures=\"[0-9]*\" errors=\"0\" skipped/ errors=\"0\" skipped/" report.xml >nofailures.xml &&
	test_must_fail valid nofailures.xml &&
	sed "s/<testcase name=\"[^\"]*\"/<testcase/" report.xml >noname.xml &&
	test_must_fail valid noname.xml &&
	sed "s/<system-out>/<stdout>/; s/<\/system-out>/<\/stdout>/" report.xml >stdout.xml &&
	test_must_fail valid stdout.xml
'

test_expect_success 'XML special characters and bytes XML cannot carry are escaped' '
	echo "function fir ops <= 1ops" >odd.txt &&
	name=$(printf "<odd>\"\001\377.txt") &&
	mkdir -p "a&b" && cp odd.txt "a&b/$name" &&
	status 3 "$ROI" budget check --budgets "a&b/$name" --junit odd.xml fir.elf &&
	valid odd.xml &&
	test_equal "a&b/<odd>\"??.txt" "$(xmllint --xpath "string(//testsuite/@name)" odd.xml)"
'

test_expect_success '--measured: simavr'"'"'s cycles of fir() checked, the estimate beside them' '
	set -- $(awk "\$1 == \"region\" { print \$4, \$5, \$6 }" fir.elf.roi) &&
	test_equal 1 "$1" && test_equal cycles "$3" &&
	# net of the hooks'"'"' own cycles, as roi report subtracts them (docs/report.md): one call
	inside=$(awk "\$1 == \"hook-inside\" { print \$2 }" fir.elf.roi) &&
	cycles=$(calc "$2 - ${inside:-0}") &&
	per_cycle=$(jq .energy_per_cycle_j "$MODEL") && hz=$(jq .clock_hz "$MODEL") &&
	# the counted firmware runs its increments too: simavr counts more than the estimate, and a
	# time limit half way between them fails measured and passes estimated
	est=$(jq "[.functions[] | select(.name == \"fir\") | .cycles] | add" est.json) &&
	test $(calc "$est < $cycles") = 1 &&
	cat >measured.txt <<-EOF &&
	function fir cycles per call <= $(calc "$cycles * 1.25")cycles
	function fir time per run <= $(calc "($cycles + $est) / 2 / $hz * 1000")ms
	function fir energy <= 1J
	total cycles <= 1000000cycles
	function fir ops <= 100000ops
	EOF
	status 3 "$ROI" budget check --measured --json --model "$MODEL" --budgets measured.txt fir.elf &&
	test_equal "$cycles" "$(result measured 1)" && test_equal measured "$(result checked 1)" &&
	test_equal "$cycles" "$(result value 1)" && test_equal 1 "$(result measured_calls 1)" &&
	test_equal PASS "$(result status 1)" &&
	close "$(calc "$cycles / $hz")" "$(result measured 2)" && test_equal FAIL "$(result status 2)" &&
	close "$(calc "$cycles * $per_cycle")" "$(result measured 3)" &&
	test_equal null "$(result measured 4)" && test_equal estimate "$(result checked 4)" &&
	test_equal "the whole run is no region" "$(result unmeasured 4)" &&
	test_equal "operations are counted, not measured" "$(result unmeasured 5)" &&
	status 3 "$ROI" budget check --measured --model "$MODEL" --budgets measured.txt fir.elf &&
	test_grep "^  measured.txt:1  function fir cycles per call .* $cycles cycles .* PASS" out &&
	test_grep "estimate checked: the whole run is no region" out &&
	# without --measured the estimate decides, below the limit
	status 0 "$ROI" budget check --json --model "$MODEL" --budgets measured.txt fir.elf &&
	test_equal estimate "$(result checked 2)" && test_equal "$cycles" "$(result measured 1)"
'

test_expect_success 'make energy-check on the examples: contrib/make/roi.mk, statuses worked out here' '
	status 0 make -C "$EXAMPLES" energy-check OUT="$PWD/ex" || { cat err; false; } &&
	valid ex/energy/matrix.junit.xml && valid ex/energy/fir.junit.xml &&
	"$ROI" estimate --json --model "$MODEL" ex/energy/matrix.elf >matrix.json 2>/dev/null &&
	main=$(jq "[.functions[] | select(.name == \"main\") | .cycles] | add" matrix.json) &&
	energy=$(jq .total.energy_j matrix.json) &&
	test_equal "$(expect_status "$main" 10000 9000)" \
		"$(xmllint --xpath "string(//testcase[@name=\"function main cycles per call\"]/system-out)" \
		   ex/energy/matrix.junit.xml | sed -n "2s/:.*//p")" &&
	test_equal "$(expect_status "$energy" 72e-6 64.8e-6)" \
		"$(xmllint --xpath "string(//testcase[@name=\"total energy per run\"]/system-out)" \
		   ex/energy/matrix.junit.xml | sed -n "2s/:.*//p")" &&
	test_grep "^result    PASS: 4 budgets" out
'

test_expect_success 'a project of its own: make fails when a budget fails, after checking every firmware' '
	mkdir -p proj && cd proj &&
	cat >app.c <<-\CEOF &&
	volatile unsigned char out;
	int main(void) { for (unsigned char i = 0; i < 10; i++) out = i * 3; return 0; }
	CEOF
	cp app.c other.c &&
	echo "function main ops:mul <= 10ops" >app.txt &&
	echo "function main ops:mul <= 9ops" >other.txt &&
	{
		printf "all:\n\t@echo the own build of the project\n" &&
		printf "ROI_DIR := %s\nROI := %s\nROI_FIRMWARES := app other\n" "$ROI_SRC" "$ROI" &&
		printf "app_SOURCES := app.c\napp_BUDGETS := app.txt\n" &&
		printf "other_SOURCES := other.c\nother_BUDGETS := other.txt\n" &&
		printf "include \$(ROI_DIR)/contrib/make/roi.mk\n"
	} >Makefile &&
	status 0 make && test_grep "^the own build of the project$" out &&
	status 2 make energy-check &&
	test_grep "^result    PASS: 1 budget" out && test_grep "^result    FAIL: 1 budget" out &&
	valid build/roi/app.junit.xml && valid build/roi/other.junit.xml
'

test_expect_success 'make energy-baseline, then energy-diff shows what moved' '
	cd proj &&
	make -s energy-baseline >/dev/null &&
	sed "s/i < 10/i < 12/" app.c >app.new && mv app.new app.c &&
	status 0 make energy-diff &&
	test_grep "^  app.txt:1  function main ops:mul per run  *10 ops  *12 ops  *+2 ops (+20.0%)  *10 ops  *PASS -> FAIL" out &&
	test_grep "^  other.txt:1  function main ops:mul per run  *10 ops  *10 ops  *=  *9 ops  *FAIL" out
'

test_expect_success 'the fragment on cortex-m: built for QEMU'"'"'s mps2-an386, run, checked' '
	mkdir -p m4 && cd m4 &&
	echo "function main ops:mul <= 60ops  # 3 x 5 x 4, by hand" >b.txt &&
	{
		printf "ROI_DIR := %s\nROI := %s\nROI_TARGET := cortex-m\n" "$ROI_SRC" "$ROI" &&
		printf "ROI_FIRMWARES := matrix\nmatrix_SOURCES := %s\nmatrix_BUDGETS := b.txt\n" "$EXAMPLES/matrix/matrix.c" &&
		printf "include \$(ROI_DIR)/contrib/make/roi.mk\n"
	} >Makefile &&
	status 0 make energy-check &&
	test_grep "stopped at _exit(0)" out &&
	test_grep "^  b.txt:1  function main ops:mul per run  *60 ops  *60 ops  *0.0%  PASS" out &&
	valid build/roi/matrix.junit.xml
'

test_expect_success CMAKE 'CMake: roi_energy_check() on the examples' '
	cmake -S "$EXAMPLES" -B cm -DCMAKE_TOOLCHAIN_FILE="$ROI_SRC/contrib/cmake/avr-toolchain.cmake" \
		-DROI="$ROI" >cmake.log 2>&1 &&
	status 0 cmake --build cm --target energy-check &&
	test_grep "^result    PASS: 4 budgets" out && test_grep "^result    WARN: 4 budgets" out &&
	valid cm/matrix-roi.junit.xml && valid cm/fir-roi.junit.xml &&
	cmake --build cm --target fir-roi >/dev/null &&
	"$ROI" report cm/fir-roi.elf >report && test_grep "^  fir .* cycles" report
'

test_done
