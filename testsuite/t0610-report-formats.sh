#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi report for other tools: callgrind, lcov, gcov JSON, folded stacks, HTML; --sort and --top

Each format is written for the two examples (matrix, fir) and a program of the
calibration corpus (kernel-quicksort: recursion, a helper called from three
lines) and read back by the tool it is for: callgrind_annotate (valgrind),
lcov and genhtml, gcovr, awk for the folded stacks, chromium for the HTML.
Expected values come from the programs by hand (matrix: 1981 operations,
t0200; fir: 904 multiply-accumulates, 64 outputs), from gcov itself (line and
function counts of the same runs, the programs built with --coverage too) or
from roi'"'"'s own text report, which the formats must agree with.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

MODEL=$ROI_SRC/models/atmega32u4-O0.json

command -v callgrind_annotate >/dev/null && test_set_prereq CALLGRIND
command -v lcov >/dev/null && command -v genhtml >/dev/null && test_set_prereq LCOV
command -v gcovr >/dev/null && test_set_prereq GCOVR
command -v chromium >/dev/null && test_set_prereq CHROMIUM
test_have_prereq CALLGRIND || say "callgrind_annotate (Debian: valgrind) not installed: its tests are skipped"
test_have_prereq LCOV || say "lcov/genhtml (Debian: lcov) not installed: their tests are skipped"
test_have_prereq GCOVR || say "gcovr (Debian: gcovr) not installed: its tests are skipped"
test_have_prereq CHROMIUM || say "chromium (Debian: chromium) not installed: the HTML report is not loaded in a browser"

# callgrind_annotate's figures without thousands separators or percentages.
annotate () {
	callgrind_annotate --show-percs=no --threshold=100 "$@" | tr -d ,
}

# fn_total ANNOTATION FUNCTION [COLUMN]: a function's figure in callgrind_annotate's listing.
fn_total () {
	awk -v f="$2" -v c="${3:-1}" '$NF ~ /^\[/ && $(NF - 1) ~ (":" f "$") { print $c }' "$1"
}

# line_figure ANNOTATION LINE-TEXT: the first figure of the annotated source line containing LINE-TEXT.
line_figure () {
	grep -F -e "$2" "$1" | head -1 | awk '{ print $1 }'
}

# folded_sum FILE: the sum of a folded file's values.
folded_sum () {
	awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"
}

# text_total TEXT: the ops (and cycles) of a text report's total line.
text_total () {
	sed -n 's/^total  *\([0-9]*\) ops.*/\1/p' "$1"
}
text_cycles () {
	sed -n 's/^total .*ops[^,]*, \([0-9.]*\) cycles.*/\1/p' "$1"
}

# within A B D [K]: |A - B x K| <= D (K defaults to 1): figures rounded to whole units of a scale.
within () {
	awk -v a="$1" -v b="$2" -v d="$3" -v k="${4:-1}" 'BEGIN { x = a - b * k; if (x < 0) x = -x; exit !(x <= d) }' ||
	{ echo "within: $1 and $2 x ${4:-1} differ by more than $3" >&2; return 1; }
}

test_expect_success 'the examples and a corpus program, built with the plugin (and with --coverage), run' '
	cp "$EXAMPLES/matrix/matrix.c" "$EXAMPLES/fir/fir.c" "$ROI_SRC/contrib/calibration/kernel-quicksort.c" . &&
	for p in matrix fir kernel-quicksort; do
		roi_link $p -O0 $p.c && ./$p &&
		roi_link cov-$p -O0 --coverage $p.c && ./cov-$p || return 1
	done &&
	"$ROI" report fir >fir.txt &&
	"$ROI" report --model "$MODEL" fir >fir-model.txt 2>/dev/null &&
	"$ROI" estimate --json kernel-quicksort >qs-est.json
'

# ---- callgrind ----

test_expect_success CALLGRIND 'callgrind: callgrind_annotate reads matrix: 1981 operations, all in main' '
	"$ROI" report --format callgrind matrix >matrix.callgrind &&
	annotate matrix.callgrind >matrix.ann &&
	test_equal 1981 "$(sed -n "s/ *PROGRAM TOTALS//p" matrix.ann | tr -d " ")" &&
	test_equal 1981 "$(fn_total matrix.ann main)" &&
	# the per-line figures of the annotated source add up to it as well
	awk "/Auto-annotated source/ { on = 1 } on && \$1 ~ /^[0-9]+\$/ && \$2 != \"events\" { s += \$1 } END { print s }" matrix.ann >sum &&
	test_equal 1981 "$(cat sum)"
'

test_expect_success CALLGRIND 'callgrind: fir with a model: cycles x 100 and pJ, totals and inclusive costs as roi report has them' '
	"$ROI" report --model "$MODEL" --format callgrind fir >fir.callgrind 2>/dev/null &&
	grep "^events: Ops Cycles_x100 Energy_pJ\$" fir.callgrind &&
	annotate fir.callgrind >fir.ann &&
	annotate --inclusive=yes fir.callgrind >fir-incl.ann &&
	test_equal "$(text_total fir-model.txt)" "$(sed -n "s/ *PROGRAM TOTALS//p" fir.ann | awk "{ print \$1 }")" &&
	cycles=$(text_cycles fir-model.txt) &&
	within "$(sed -n "s/ *PROGRAM TOTALS//p" fir.ann | awk "{ print \$2 }")" "$cycles" 1 100 &&
	# fir calls nothing: its own cycles are its inclusive ones, the text report'"'"'s fir row
	fir_cycles=$(awk "\$1 == \"fir\" && \$2 == \"function\" { print \$5 }" fir-model.txt) &&
	within "$(fn_total fir.ann fir 2)" "$fir_cycles" 2 100 &&
	# main, inclusive of the call to fir: the whole program
	test_equal "$(text_total fir-model.txt)" "$(fn_total fir-incl.ann main 1)" &&
	within "$(fn_total fir-incl.ann main 2)" "$cycles" 2 100 &&
	# the call site: main calls fir once, on line 39
	grep -A2 "^cfn=.*fir" fir.callgrind | grep -q "^calls=1 24\$" &&
	# a line: the multiply-accumulate, as the text report of roi estimate gives its operations
	"$ROI" estimate fir | awk "\$1 ~ /fir.c:29\$/ { print \$2 }" >expect &&
	test_equal "$(cat expect)" "$(line_figure fir.ann "acc += (int32_t)")"
'

test_expect_success CALLGRIND 'callgrind: kernel-quicksort: own costs per function as roi estimate has them, recursion counted once' '
	"$ROI" report --format callgrind kernel-quicksort >qs.callgrind &&
	annotate qs.callgrind >qs.ann &&
	annotate --inclusive=yes qs.callgrind >qs-incl.ann &&
	for f in main quicksort swap; do
		test_equal "$(jq "[.functions[] | select(.name == \"$f\") | .ops] | add" qs-est.json)" \
			"$(fn_total qs.ann $f)" "own operations of $f" || return 1
	done &&
	test_equal "$(jq .total.ops qs-est.json)" "$(fn_total qs-incl.ann main)" &&
	# quicksort calls itself twice per partition: those calls carry nothing, so quicksort
	# inclusive is its own operations and those of swap, which only it calls
	test_equal "$(jq "[.functions[] | select(.name == \"quicksort\" or .name == \"swap\") | .ops] | add" qs-est.json)" \
		"$(fn_total qs-incl.ann quicksort)" &&
	test_equal "$(jq .total.ops qs-est.json)" "$(sed -n "s/ *PROGRAM TOTALS//p" qs.ann | tr -d " ")"
'

# ---- lcov and gcov's JSON ----

# gcov_lines GCDA: gcov'"'"'s own line counts, "LINE COUNT" per line, sorted.
gcov_lines () {
	gcov --json-format --stdout "$1" 2>/dev/null |
	jq -r ".files[] | select(.file | endswith(\".c\")) | .lines[] | \"\(.line_number) \(.count)\"" | sort -n
}

test_expect_success LCOV 'lcov: tracefiles that lcov lists and genhtml renders, line counts as gcov counts them' '
	for p in matrix fir kernel-quicksort; do
		"$ROI" report --format lcov cov-$p >$p.info &&
		lcov --summary $p.info >$p.summary 2>&1 &&
		gcov_lines cov-$p-$p.gcda >expect &&
		sed -n "s/^DA:\([0-9]*\),\([0-9]*\)\$/\1 \2/p" $p.info | sort -n >actual &&
		test_cmp expect actual || return 1
	done &&
	grep "lines\.*: 100.0% (12 of 12 lines)" fir.summary &&
	grep "functions\.*: 100.0% (2 of 2 functions)" fir.summary &&
	lcov --list fir.info >list && grep "fir.c *| *100% *12| *100% *2" list &&
	# by hand: the inner loop body of matrix 60 times, the zeroing 15; fir 904 multiply-accumulates
	grep "^DA:25,60\$" matrix.info && grep "^DA:23,15\$" matrix.info &&
	grep "^DA:29,904\$" fir.info && grep "^DA:30,64\$" fir.info &&
	grep "^FNDA:1,fir\$" fir.info &&
	test_equal "FNDA:273,quicksort" "$(grep "^FNDA:.*,quicksort\$" kernel-quicksort.info)" &&
	genhtml -q -o genhtml fir.info &&
	grep -r -l "acc += (int32_t)" genhtml >/dev/null
'

test_expect_success LCOV 'lcov: two runs'"'"' tracefiles add up in lcov -a' '
	lcov -q -a fir.info -a fir.info -o twice.info &&
	grep "^DA:29,1808\$" twice.info
'

test_expect_success 'gcov-json: gcov'"'"'s own JSON format, counts equal to gcov'"'"'s on the same runs' '
	for p in matrix fir kernel-quicksort; do
		"$ROI" report --format gcov-json cov-$p >$p.gcov.json &&
		test_equal 1 "$(jq -r .format_version $p.gcov.json)" &&
		gcov_lines cov-$p-$p.gcda >expect &&
		jq -r ".files[] | .lines[] | \"\(.line_number) \(.count)\"" $p.gcov.json | sort -n >actual &&
		test_cmp expect actual &&
		gcov --json-format --stdout cov-$p-$p.gcda 2>/dev/null |
			jq -r ".files[].functions[] | \"\(.name) \(.start_line) \(.execution_count)\"" | sort >expect &&
		jq -r ".files[].functions[] | \"\(.name) \(.start_line) \(.execution_count)\"" $p.gcov.json | sort >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GCOVR 'gcov-json: gcovr takes it as a tracefile (-a) and says what gcov says' '
	gcovr -a fir.gcov.json --root . >gcovr.txt &&
	grep "^fir.c  *12  *12  *100%" gcovr.txt &&
	gcovr -a kernel-quicksort.gcov.json --root . --json-pretty --json gcovr.json &&
	jq -r ".files[].lines[] | \"\(.line_number) \(.count)\"" gcovr.json | sort -n >actual &&
	gcov_lines cov-kernel-quicksort-kernel-quicksort.gcda >expect &&
	test_cmp expect actual &&
	test_equal 273 "$(jq ".files[].functions[] | select(.name == \"quicksort\") | .execution_count" gcovr.json)"
'

# ---- folded stacks ----

test_expect_success 'folded: the stacks of matrix add up to its 1981 operations' '
	"$ROI" report --format folded matrix >matrix.folded &&
	test_equal "main 1981" "$(cat matrix.folded)"
'

test_expect_success 'folded: fir, with and without a model: main;fir carries fir'"'"'s own cost, the sum is the total' '
	"$ROI" report --format folded fir >fir.folded &&
	test_equal "$(text_total fir.txt)" "$(folded_sum fir.folded)" &&
	test_equal "$(awk "\$1 == \"fir\" && \$2 == \"function\" { print \$4 }" fir.txt)" \
		"$(awk "\$1 == \"main;fir\" { print \$2 }" fir.folded)" &&
	"$ROI" report --model "$MODEL" --format folded fir >fir-model.folded 2>/dev/null &&
	within "$(folded_sum fir-model.folded)" "$(text_cycles fir-model.txt)" 1
'

test_expect_success 'folded: kernel-quicksort: recursion once on the stack, swap under quicksort and main' '
	"$ROI" report --format folded kernel-quicksort >qs.folded &&
	test_equal "$(jq .total.ops qs-est.json)" "$(folded_sum qs.folded)" &&
	cut -d" " -f1 qs.folded >stacks &&
	printf "%s\n" main main\;quicksort main\;quicksort\;swap >expect &&
	test_cmp expect stacks &&
	test_equal "$(jq "[.functions[] | select(.name == \"swap\") | .ops] | add" qs-est.json)" \
		"$(awk "\$1 == \"main;quicksort;swap\" { print \$2 }" qs.folded)"
'

# ---- HTML ----

# dom PAGE OUT: the page as chromium renders it (scripts run), console messages in OUT.err.
dom () {
	profile=$(mktemp -d) &&
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --dump-dom "file://$PWD/$1" >"$2" 2>"$2.err"
	status=$?
	rm -rf "$profile"
	return $status
}

test_expect_success 'html: index and one page per source file, no external asset' '
	"$ROI" report --model "$MODEL" --html html fir 2>/dev/null &&
	test -f html/index.html && test -f html/src-0.html &&
	! grep -E "(src|href)=\"(https?:)?//" html/*.html &&
	! grep -E "<link|<script src" html/*.html &&
	"$ROI" report --html html-q kernel-quicksort &&
	"$ROI" report --html html-m matrix
'

test_expect_success CHROMIUM 'html: chromium renders fir: the function table, the annotated multiply-accumulate, the script ran' '
	dom html/index.html index.dom &&
	test_grep "data-roi-script=\"ok\"" index.dom &&
	test_grep "<table id=\"functions\"" index.dom &&
	grep -o "<tr id=\"fn-[0-9]*\"><td class=\"l\"><a href=\"[^\"]*\">[a-z]*</a>" index.dom |
		sed "s/.*>\([a-z]*\)<\/a>\$/\1/" | sort >fns &&
	printf "fir\nmain\n" >expect && test_cmp expect fns &&
	dom html/src-0.html src.dom &&
	test_grep "data-roi-script=\"ok\"" src.dom &&
	grep "<tr id=\"L29\"" src.dom >l29 &&
	test_grep "<td>904</td>" l29 &&
	test_grep "acc += (int32_t) coeff\[k\] \* input\[n - k\];" l29 &&
	grep "<tr id=\"L39\"" src.dom >l39 &&
	test_grep "fir &#215;1\|fir ×1" l39 &&
	! grep -i "CONSOLE.*\(uncaught\|error\)" index.dom.err src.dom.err
'

test_expect_success CHROMIUM 'html: every link of every page leads to a page and an id that exist' '
	for d in html html-q html-m; do
		for page in $d/*.html; do
			dom $page page.dom &&
			test_grep "data-roi-script=\"ok\"" page.dom &&
			! grep -i "CONSOLE.*\(uncaught\|error\)" page.dom.err &&
			grep -o "href=\"[^\"]*\"" page.dom | sed "s/^href=\"\(.*\)\"\$/\1/" | sort -u >links &&
			test -s links || return 1
			while read -r link; do
				file=${link%%#*} id=${link#*#} &&
				target=$d/${file:-$(basename $page)} &&
				test -f "$target" || { echo "$page: $link: no page $target"; return 1; }
				case $link in *#*) grep -q "id=\"$id\"" "$target" ||
					{ echo "$page: $link: no id $id in $target"; return 1; } ;; esac
			done <links
		done
	done
'

test_expect_success CHROMIUM 'html --budgets: each budget'"'"'s status, fir'"'"'s 904 multiplies against two limits' '
	printf "function fir ops:mul <= 904ops\nfunction fir ops:mul per call <= 903ops\n" >budgets.txt &&
	"$ROI" report --html html-b --budgets budgets.txt fir &&
	dom html-b/index.html budgets.dom &&
	test_grep "data-roi-script=\"ok\"" budgets.dom &&
	test_grep "<p id=\"budget-result\" class=\"FAIL\">FAIL: 2 budgets, 1 pass, 0 warn, 1 fail</p>" budgets.dom &&
	grep "<tr><td class=\"l\">budgets.txt:1</td>" budgets.dom >b1 &&
	test_grep "904 ops</td>.*PASS" b1 &&
	grep "<tr><td class=\"l\">budgets.txt:2</td>" budgets.dom >b2 &&
	test_grep "903 ops</td>.*FAIL" b2 &&
	printf "function nosuch ops <= 3ops\n" >bad.txt &&
	fails 1 "^roi: bad.txt:1:10: no function .nosuch. in fir" "$ROI" report --html html-b --budgets bad.txt fir &&
	fails 2 "--budgets goes with --html" "$ROI" report --budgets budgets.txt fir
'

# ---- --sort and --top ----

test_expect_success '--top: the N costliest lines and functions of roi estimate, then how many more' '
	"$ROI" estimate --top 3 fir >top.txt &&
	"$ROI" estimate --json fir | jq -r ".lines | sort_by(-.ops) | .[:3][] | \"\(.ops)\"" >expect &&
	sed -n "/^lines/,/^\$/p" top.txt | awk "/fir.c:/ { print \$2 }" >actual &&
	test_cmp expect actual &&
	test_grep "^  \.\.\. 10 more lines (--top 3)\$" top.txt &&
	"$ROI" estimate --sort line --top 2 fir >line.txt &&
	sed -n "/^lines/,/^\$/p" line.txt | awk "/fir.c:/ { sub(/.*:/, \"\", \$1); print \$1 }" >actual &&
	printf "24\n26\n" >expect && test_cmp expect actual &&
	"$ROI" estimate --model "$MODEL" --sort cycles fir 2>/dev/null | sed -n "/^functions/,/^\$/p" |
		awk "NF && NR > 2 { print \$1 }" >actual &&
	printf "fir\nmain\n" >expect && test_cmp expect actual
'

test_expect_success '--sort and --top on roi report: the tree by line, the costliest rows per level' '
	"$ROI" report --sort line fir >sorted.txt &&
	awk "\$2 == \"function\" { print \$1 }" sorted.txt >actual &&
	printf "fir\nmain\n" >expect && test_cmp expect actual &&
	"$ROI" report --top 1 fir >top1.txt &&
	awk "\$2 == \"function\" { print \$1 }" top1.txt >actual &&
	echo main >expect && test_cmp expect actual &&
	test_grep "^  \.\.\. 1 more\$" top1.txt
'

test_expect_success 'usage errors: exit 2 and one line' '
	fails 2 "--sort takes cycles, ops or line" "$ROI" estimate --sort size fir &&
	fails 2 "--sort cycles needs a cost model" "$ROI" report --sort cycles fir &&
	fails 2 "--top takes a number of rows from 1" "$ROI" report --top 0 fir &&
	fails 2 "--top is for the text output" "$ROI" estimate --json --top 3 fir &&
	fails 2 "--format takes text, json, callgrind" "$ROI" report --format pdf fir &&
	fails 2 "one output at a time" "$ROI" report --json --format lcov fir &&
	fails 2 "--region is for the text and JSON outputs" "$ROI" report --format folded --region fir fir &&
	fails 2 "--html needs a directory" "$ROI" report --html "" fir
'

test_expect_success 'an --html path that is a file: exit 1, one line naming it' '
	: >plain-file &&
	fails 1 "^roi: plain-file: not a directory\$" "$ROI" report --html plain-file fir
'

test_done
