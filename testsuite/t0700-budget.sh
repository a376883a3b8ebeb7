#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi budget: the budget file, figures per run and per call, exit statuses, JSON

A small host program (main calls step() ten times; step multiplies once) is
run twice, so per run is half the profile and per call divides by the calls.
Expected figures come from roi estimate --json (functions, totals) or by hand
(ten multiplications and ten calls a run), never from roi budget itself. The
budget file grammar is in docs/budgets.md: every unit, per call and per run,
and every mistake reported as FILE:LINE:COL.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

MODEL=$ROI_SRC/models/atmega32u4.json

cat >steps.c <<'CEOF'
volatile unsigned sink;
static void __attribute__((noinline)) step(unsigned i) { sink += i * 3u; }
int main(void)
{
	for (unsigned i = 0; i < 10; i++)
		step(i);
	return 0;
}
CEOF

# close A B: two numbers agree to 1e-9 relative (printing rounds the last digit).
close () {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a);
		exit !(d <= 1e-9 * m || d <= 1e-12) }' || { echo "close: $1 != $2" >&2; return 1; }
}

# calc EXPR: EXPR (numbers may be in e-notation, as jq prints them) to 17 digits.
calc () {
	awk "BEGIN { printf \"%.17g\", $1 }"
}

# result FIELD LINE: a field of the result of the budget on LINE of the budget file (roi budget --json in out)
result () {
	jq -r --argjson l "$2" ".results[] | select(.line == \$l) | .$1" out
}

test_expect_success 'setup: build and run the program twice, take the estimate' '
	roi_link steps -O0 steps.c &&
	./steps && ./steps &&
	grep -q "^runs 2$" steps.roi &&
	"$ROI" estimate --json --model "$MODEL" steps >est.json 2>/dev/null &&
	test_equal 20 "$(fn_calls est.json step)" &&
	test_equal 2 "$(fn_calls est.json main)"
'

test_expect_success 'every unit is read into seconds, joules, cycles and operations' '
	cat >units.txt <<-EOF &&
	# time: ns us µs ms s
	total          time per run   <= 40ns
	function main  time per run   <= 250us
	function main  time per call  <= 1.5µs
	function step  time per run   <= 3ms
	function step  time per call  <= 2s
	# energy: nJ uJ µJ mJ J
	total          energy         <= 500nJ
	function main  energy per run <= 40uJ
	function main  energy per call <= 7µJ   warn 25%
	function step  energy per run <= 1.5mJ
	function step  energy per call <= 2J    warn 1.5J
	total          cycles         <= 2000cycles
	function main  cycles per call <= 2000 cycles
	total          ops            <= 100ops
	function step  ops:mul        <= 10 ops
	EOF
	status 3 "$ROI" budget check --json --model "$MODEL" --budgets units.txt steps &&
	mv out units.json && cp units.json out &&
	close 4e-8 "$(result limit 2)" && close 2.5e-4 "$(result limit 3)" && close 1.5e-6 "$(result limit 4)" &&
	close 3e-3 "$(result limit 5)" && close 2 "$(result limit 6)" &&
	close 5e-7 "$(result limit 8)" && close 4e-5 "$(result limit 9)" && close 7e-6 "$(result limit 10)" &&
	close 1.5e-3 "$(result limit 11)" && close 2 "$(result limit 12)" &&
	close 2000 "$(result limit 13)" && close 2000 "$(result limit 14)" &&
	close 100 "$(result limit 15)" && close 10 "$(result limit 16)" &&
	test_equal s "$(result unit 2)" && test_equal J "$(result unit 8)" &&
	test_equal cycles "$(result unit 13)" && test_equal ops "$(result unit 15)" &&
	# warn 25% of 7 uJ: warn above 5.25 uJ; warn 1.5J: as written
	close 5.25e-6 "$(result warn_at 10)" && test_equal 25 "$(result warn_pct 10)" &&
	close 1.5 "$(result warn_at 12)" && test_equal null "$(result warn_pct 12)" &&
	test_equal run "$(result per 2)" && test_equal call "$(result per 4)" && test_equal run "$(result per 8)"
'

test_expect_success 'per run divides by the runs, per call by the calls; functions include their callees' '
	cp units.json out &&
	total_cycles=$(jq .total.cycles est.json) && total_j=$(jq .total.energy_j est.json) &&
	step_cycles=$(jq "[.functions[] | select(.name == \"step\") | .cycles] | add" est.json) &&
	main_cycles=$(jq "[.functions[] | select(.name == \"main\") | .cycles] | add" est.json) &&
	step_j=$(jq "[.functions[] | select(.name == \"step\") | .energy_j] | add" est.json) &&
	main_j=$(jq "[.functions[] | select(.name == \"main\") | .energy_j] | add" est.json) &&
	hz=16000000 &&
	close "$(calc "$total_cycles / 2")" "$(result estimate 13)" &&
	close "$(calc "$total_cycles / 2 / $hz")" "$(result estimate 2)" &&
	close "$(calc "$total_j / 2")" "$(result estimate 8)" &&
	# main calls step: its cost is its own and step'"'"'s, over main'"'"'s 2 calls
	close "$(calc "($main_cycles + $step_cycles) / 2")" "$(result estimate 14)" &&
	close "$(calc "($main_cycles + $step_cycles) / 2 / $hz")" "$(result estimate 3)" &&
	close "$(calc "($main_j + $step_j) / 2")" "$(result estimate 10)" &&
	close "$(calc "$step_cycles / 2 / $hz")" "$(result estimate 5)" &&
	close "$(calc "$step_cycles / 20 / $hz")" "$(result estimate 6)" &&
	close "$(calc "$step_j / 20")" "$(result estimate 12)" &&
	test_equal 20 "$(result calls 6)" && test_equal 2 "$(result calls 4)" && test_equal 2 "$(result runs 2)"
'

test_expect_success 'operations: all of them, or of one kind, counted by hand' '
	cp units.json out &&
	close "$(calc "$(jq .total.ops est.json) / 2")" "$(result estimate 15)" &&
	test_equal 10 "$(result estimate 16)" &&
	cat >ops.txt <<-EOF &&
	function main ops:call per call <= 10ops
	function main ops:call:i16 <= 1ops
	total         ops:mul per run   <= 9ops
	EOF
	status 3 "$ROI" budget check --json --model "$MODEL" --budgets ops.txt steps &&
	test_equal 10 "$(result estimate 1)" && test_equal PASS "$(result status 1)" &&
	test_equal 0 "$(result estimate 2)" &&
	test_equal 10 "$(result estimate 3)" && test_equal FAIL "$(result status 3)" &&
	# the multiplications are step'"'"'s: a per-run figure without a model counts them too
	echo "function step ops:mul <= 10ops" >nomodel.txt &&
	status 0 "$ROI" budget check --json --budgets nomodel.txt steps &&
	test_equal 10 "$(result estimate 1)" && test_equal null "$(result model 1)"
'

test_expect_success 'PASS, WARN, FAIL and the margin, against limits made from the estimate' '
	c=$(jq .total.cycles est.json) &&
	pass=$(calc "$c / 2 * 1.25") && warn=$(calc "$c / 2 * 1.05") &&
	fail=$(calc "$c / 2 * 0.8") &&
	printf "total cycles <= %scycles warn 10%%\n" "$pass" >pass.txt &&
	printf "total cycles <= %scycles warn 10%%\n" "$warn" >warn.txt &&
	printf "total cycles <= %scycles warn 10%%\n" "$fail" >fail.txt &&
	status 0 "$ROI" budget check --json --model "$MODEL" --budgets pass.txt steps &&
	test_equal PASS "$(result status 1)" && test_equal PASS "$(jq -r .status out)" &&
	# 25% over the estimate leaves 20% of the limit; 20% under it is 25% over
	awk -v m="$(result margin_pct 1)" "BEGIN { exit !(m > 19.9 && m < 20.1) }" &&
	status 0 "$ROI" budget check --json --model "$MODEL" --budgets warn.txt steps &&
	test_equal WARN "$(result status 1)" && test_equal WARN "$(jq -r .status out)" &&
	status 3 "$ROI" budget check --json --model "$MODEL" --budgets fail.txt steps &&
	test_equal FAIL "$(result status 1)" && test_equal 1 "$(jq .fail out)" &&
	awk -v m="$(result margin_pct 1)" "BEGIN { exit !(m > -25.1 && m < -24.9) }"
'

test_expect_success 'exit statuses: a WARN passes, fails with --strict; usage errors are 2' '
	status 0 "$ROI" budget check --model "$MODEL" --budgets warn.txt steps &&
	test_grep "^result    WARN: 1 budget, 0 pass, 1 warn, 0 fail" out &&
	test_grep "WARN *within 10% of the limit" out &&
	status 3 "$ROI" budget check --strict --model "$MODEL" --budgets warn.txt steps &&
	status 3 "$ROI" budget check --model "$MODEL" --budgets fail.txt steps &&
	test_grep "FAIL *over by" out &&
	status 2 "$ROI" budget check --model "$MODEL" steps &&
	test_grep "missing --budgets" err &&
	status 2 "$ROI" budget --budgets pass.txt steps &&
	status 2 "$ROI" budget frobnicate --budgets pass.txt steps &&
	status 2 "$ROI" budget check --budgets pass.txt &&
	status 2 "$ROI" budget diff --budgets pass.txt --junit x.xml a.roi b.roi &&
	status 0 "$ROI" budget --help && test_grep "^usage: roi budget check" out &&
	"$ROI" --help >help && test_grep "^  budget " help
'

test_expect_success 'the text output: one line per budget with estimate, limit, margin, status' '
	status 3 "$ROI" budget check --model "$MODEL" --budgets ops.txt steps &&
	test_grep "^budgets   ops.txt, 3 budgets" out &&
	test_grep "^  ops.txt:1  function main ops:call per call  *10 ops  *10 ops  *0.0%  PASS" out &&
	test_grep "^  ops.txt:3  total ops:mul per run  *10 ops  *9 ops  *-11.1%  FAIL  *over by 1 ops" out &&
	test_grep "^result    FAIL: 3 budgets, 2 pass, 0 warn, 1 fail" out
'

test_expect_success 'mistakes: FILE:LINE:COL and what was expected, every one of them, exit 1' '
	cat >bad.txt <<-\EOF &&
	totl energy <= 1mJ
	total power <= 1mJ
	total energy per call <= 1mJ
	total energy <= 1MJ
	total energy <= 1ms
	total energy 1mJ
	total energy <= mJ
	total energy <= 40
	function
	region main
	total ops:mull <= 4ops
	total energy <= 1mJ warn 100%
	total energy <= 1mJ warn 2mJ
	total energy <= 1mJ extra
	total cycles <= 10cycles model
	total time <= 1s   # a comment
	total time per run <= 2s
	total energy <= 1mJ warn 5% warn 6%
	total energy per hour <= 1mJ
	EOF
	status 1 "$ROI" budget check --model "$MODEL" --budgets bad.txt steps &&
	cat >expect <<-\EOF &&
	roi: bad.txt:1:1: expected '"'"'total'"'"', '"'"'function'"'"' or '"'"'region'"'"', got '"'"'totl'"'"'
	roi: bad.txt:2:7: expected a quantity: cycles, time, energy, ops, ops:KIND, stack or ram-margin, got '"'"'power'"'"'
	roi: bad.txt:3:18: the total run has no calls: '"'"'per run'"'"' only
	roi: bad.txt:4:18: unknown unit '"'"'MJ'"'"' (units: ns, us, ms, s, nJ, uJ, mJ, J, cycles, ops, bytes, B or KiB)
	roi: bad.txt:5:18: an energy limit is in nJ, uJ, mJ or J, got '"'"'ms'"'"' (time)
	roi: bad.txt:6:14: expected '"'"'<='"'"' and the limit, got '"'"'1mJ'"'"'
	roi: bad.txt:7:17: expected a number (the limit), got '"'"'mJ'"'"'
	roi: bad.txt:8:19: expected a unit after '"'"'40'"'"' (nJ, uJ, mJ or J)
	roi: bad.txt:9:9: expected a function name after '"'"'function'"'"'
	roi: bad.txt:10:8: expected FUNCTION:LINE or FILE:LINE after '"'"'region'"'"' (a loop; a function is '"'"'function NAME'"'"'), got '"'"'main'"'"'
	roi: bad.txt:11:11: unknown operation kind '"'"'mull'"'"' (the kinds are in docs/formats.md: add, mul, load, call, ...)
	roi: bad.txt:12:26: a warning margin is more than 0% and less than 100% of the limit, got 100%
	roi: bad.txt:13:26: the warning level 2 mJ is not below the limit 1 mJ
	roi: bad.txt:14:21: unexpected '"'"'extra'"'"' after the limit (a budget may end in '"'"'warn MARGIN'"'"' and '"'"'model FILE'"'"'; one budget per line)
	roi: bad.txt:15:31: expected a model file after '"'"'model'"'"'
	roi: bad.txt:17:1: duplicate budget: line 16 already limits total time per run
	roi: bad.txt:18:29: a second '"'"'warn'"'"' (one warning margin per budget)
	roi: bad.txt:19:18: expected '"'"'call'"'"' or '"'"'run'"'"' after '"'"'per'"'"', got '"'"'hour'"'"'
	EOF
	test_cmp expect err &&
	test_must_fail test -s out
'

test_expect_success 'a subject that is not in the program is an error, not a pass' '
	cat >subjects.txt <<-\EOF &&
	function stepp   cycles <= 10cycles
	region   main:99 cycles <= 10cycles
	region   nosuch.c:5 cycles <= 10cycles
	function step    cycles per call <= 1000cycles
	EOF
	status 1 "$ROI" budget check --model "$MODEL" --budgets subjects.txt steps &&
	test_grep "^roi: subjects.txt:1:10: no function '"'"'stepp'"'"' in steps (names match exactly)$" err &&
	test_grep "^roi: subjects.txt:2:10: no loop main:99 in steps (its loops: main:5)$" err &&
	test_grep "^roi: subjects.txt:3:10: no loop nosuch.c:5 in steps" err &&
	test_equal 3 "$(grep -c "^roi: subjects.txt" err)" &&
	test_must_fail test -s out
'

test_expect_success 'a clone GCC made is a function of its own name, and the error says so' '
	cat >clone.c <<-\CEOF &&
	static int __attribute__((noinline)) f(int a, int b) { int s = 0; for (int i = 0; i < a; i++) s += i * b; return s; }
	volatile int v;
	int main(void) { v = f(10, 3); v = f(v, 3); v = f(5, 3); return 0; }
	CEOF
	roi_link clone -O2 clone.c && ./clone &&
	name=$("$ROI" estimate --json clone | jq -r ".functions[] | select(.name | startswith(\"f.\")) | .name") &&
	echo "function f ops <= 1000ops" >clone.txt &&
	status 1 "$ROI" budget check --budgets clone.txt clone &&
	test_grep "^roi: clone.txt:1:10: no function '"'"'f'"'"' in clone (names match exactly; GCC'"'"'s clones of it: $name)$" err &&
	echo "function $name ops per call <= 1000ops" >clone2.txt &&
	status 0 "$ROI" budget check --json --budgets clone2.txt clone &&
	test_equal 3 "$(result calls 1)"
'

test_expect_success 'a loop by FUNCTION:LINE or FILE:LINE; the same loop twice is a duplicate' '
	printf "region main:5 ops:call per call <= 10ops\n" >loop.txt &&
	status 0 "$ROI" budget check --json --budgets loop.txt steps &&
	test_equal main:5 "$(result id 1)" && test_equal 10 "$(result estimate 1)" && test_equal 2 "$(result calls 1)" &&
	printf "region steps.c:5 ops:call per call <= 10ops\n" >loop2.txt &&
	status 0 "$ROI" budget check --json --budgets loop2.txt steps &&
	test_equal main:5 "$(result id 1)" &&
	printf "region main:5 ops per run <= 100ops\nregion steps.c:5 ops <= 100ops\n" >dup.txt &&
	status 1 "$ROI" budget check --budgets dup.txt steps &&
	test_grep "^roi: dup.txt:2:8: duplicate budget: region steps.c:5 is the loop main:5, whose ops per run line 1 already limits$" err
'

test_expect_success 'a per-call budget of something that never ran is an error' '
	cat >never.c <<-\CEOF &&
	int never(int x) { return x + 1; }
	int main(int argc, char **argv) { (void)argv; return argc > 5 ? never(argc) : 0; }
	CEOF
	roi_link never -O0 never.c && ./never &&
	echo "function never ops per call <= 5ops" >never.txt &&
	status 1 "$ROI" budget check --budgets never.txt never &&
	test_grep "^roi: never.txt:1:10: function never never ran in ./never.roi: no per-call figure$" err &&
	echo "function never ops per run <= 5ops" >never-run.txt &&
	status 0 "$ROI" budget check --json --budgets never-run.txt never &&
	test_equal 0 "$(result estimate 1)"
'

test_expect_success 'cycles, time and energy need a model; a budget line may name its own' '
	echo "total cycles <= 10000cycles" >nomodel.txt &&
	status 1 "$ROI" budget check --budgets nomodel.txt steps &&
	test_grep "^roi: nomodel.txt:1:7: a cycles budget needs a cost model: --model FILE, or '"'"'model FILE'"'"' on the line$" err &&
	mkdir -p sub && cp "$MODEL" sub/part.json &&
	echo "total cycles <= 10000cycles model part.json" >sub/own.txt &&
	status 0 "$ROI" budget check --json --budgets sub/own.txt steps &&
	test_equal sub/part.json "$(result model 1)" &&
	close "$(calc "$(jq .total.cycles est.json) / 2")" "$(result estimate 1)" &&
	echo "total cycles <= 10000cycles model missing.json" >sub/bad.txt &&
	status 1 "$ROI" budget check --budgets sub/bad.txt steps &&
	test_grep "^roi: sub/bad.txt:1:35: sub/missing.json: No such file or directory$" err
'

test_expect_success '--measured on the host: nanoseconds are no target cycles, nor its time' '
	echo "hooks include function step" >hooks.txt &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=hooks.txt steps.c "$ROI_LIB" -o hooked &&
	./hooked && grep -q "^region .* ns [0-9]*$" hooked.roi &&
	printf "function step time per call <= 1s\nfunction step cycles per call <= 1000000cycles\n" >host.txt &&
	status 0 "$ROI" budget check --measured --json --model "$MODEL" --budgets host.txt hooked &&
	test_equal "measured on the host (ns), not on the model'"'"'s part" "$(result unmeasured 1)" &&
	test_equal "measured in ns, not cycles" "$(result unmeasured 2)" &&
	test_equal estimate "$(result checked 1)" && test_equal null "$(result measured 1)"
'

test_expect_success 'an empty budget file is an error; so is one that cannot be read' '
	printf "# only a comment\n\n" >empty.txt &&
	status 1 "$ROI" budget check --budgets empty.txt steps &&
	test_grep "^roi: empty.txt:2:1: no budgets" err &&
	status 1 "$ROI" budget check --budgets nonexistent.txt steps &&
	test_grep "^roi: nonexistent.txt: No such file or directory$" err
'

test_expect_success 'JSON: the documented fields, checked with jq' '
	status 3 "$ROI" budget check --json --model "$MODEL" --budgets ops.txt steps &&
	jq -e ".roi_budget == 1 and .command == \"check\" and .program == \"steps\" and .runs == 2
		and .status == \"FAIL\" and .pass == 2 and .warn == 0 and .fail == 1 and (.results | length) == 3
		and .measured == false and .strict == false" out >/dev/null &&
	jq -e ".results[0] | .file == \"ops.txt\" and .line == 1 and .subject == \"function\" and .name == \"main\"
		and .quantity == \"ops\" and .op_kind == \"call\" and .op_type == null and .per == \"call\"
		and .unit == \"ops\" and .limit == 10 and .warn_at == null and .id == \"main\" and .calls == 2
		and .estimate == 10 and .measured == null and .checked == \"estimate\" and .value == 10
		and .margin_pct == 0 and .status == \"PASS\" and (.text | startswith(\"function main ops:call\"))" out >/dev/null
'

test_expect_success 'diff: which budgets moved between two builds, and by how much' '
	sed "s/i < 10/i < 12/" steps.c >steps2.c &&
	roi_link steps2 -O0 steps2.c && ./steps2 &&
	cat >moves.txt <<-\EOF &&
	function step ops:mul <= 11ops
	function step ops per call <= 100ops
	EOF
	status 0 "$ROI" budget diff --json --budgets moves.txt steps.roi steps2.roi &&
	jq -e ".command == \"diff\" and .old.status == \"PASS\" and .new.status == \"FAIL\"" out >/dev/null &&
	test_equal 10 "$(jq ".results[0].old.value" out)" && test_equal 12 "$(jq ".results[0].new.value" out)" &&
	test_equal 2 "$(jq ".results[0].change" out)" && test_equal 20 "$(jq ".results[0].change_pct" out)" &&
	test_equal true "$(jq ".results[0].moved" out)" && test_equal false "$(jq ".results[1].moved" out)" &&
	status 0 "$ROI" budget diff --budgets moves.txt steps.roi steps2.roi &&
	test_grep "^  moves.txt:1  function step ops:mul per run  *10 ops  *12 ops  *+2 ops (+20.0%)  *11 ops  *PASS -> FAIL" out &&
	test_grep "^  moves.txt:2  function step ops per call .* =  " out &&
	test_grep "^budgets   moves.txt, 2 budgets, 1 moved" out
'

test_expect_success 'diff: a subject may come or go between builds, not be in neither' '
	echo "function never ops <= 5ops" >gone.txt &&
	status 0 "$ROI" budget diff --budgets gone.txt --old-program never never.roi steps.roi &&
	test_grep "gone .* new: no function '"'"'never'"'"' in " out &&
	echo "function nowhere ops <= 5ops" >neither.txt &&
	status 1 "$ROI" budget diff --budgets neither.txt steps.roi steps2.roi &&
	test_grep "^roi: neither.txt:1:10: no function '"'"'nowhere'"'"' in .*; no function '"'"'nowhere'"'"' in " err
'

test_done
