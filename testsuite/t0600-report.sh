#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi report: function, loop and line from one run, measured regions, --suggest

The first half works on hand-made fixtures: a .roi.meta record written out
here (two functions with loop nests, two regions, a filter with an excluded
function and a rule that matched nothing) and profiles with and without region
lines, every expected number derived by hand in the comments. The second half
compiles real programs with -fplugin-arg-roi-filter: the seed'"'"'s three loops
of very different cost, and every way out of a function or a loop.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# node JSON ID [FIELD]: FIELD (default the whole node) of the node with that id in a report.
node () {
	jq -c --arg id "$2" "[.. | objects | select(.id? == \$id and .kind? != null)][0]${3:+ | $3}" "$1"
}

# The fixture program (fx.c as the metadata describes it, line by line):
#    3 static int work(int x) {        10 calls
#    4   int s = 0;                     add
#    5   for (k = 0; k < 5; k++)        le, br: header 60 times (6 per call)
#    6     s += x * k * 2, logmsg(s);   2 mul, a call of logmsg (not counted: excluded by the filter)
#    7   return s; }                    ret
#   10 int main(void) {                 1 call, hooked
#   11   int i = 0;                     add
#   12   for (; i < 10; i++)            le, br: header 11 times; hooked (main:12)
#   13     work(i);                     call work
#   15   return 0; }                    ret
# Executed operations: work 10 + 120 + 150 + 10 = 290, 29 per call; main 1 + 22 + 10 + 1 = 34;
# program 324. With work's cost: main 324, main:12 22 + 10 + 290 = 322, line 13 300, work:5 270.
test_expect_success 'fixtures: metadata with loops, regions, a filter; profiles with and without hooks' '
	cat >meta.in <<-\EOF &&
	{"roi": 1, "unit": "1111111111111111", "source": "fx.c", "compiler": "12.2.0",
	 "target": "x86_64-linux-gnu", "opt": "O0", "counter_bits": 64, "runtime": "host",
	 "abi": {"char": 8, "short": 16, "int": 32, "long": 64, "long long": 64, "pointer": 64,
	         "float": 32, "double": 64, "long double": 128, "char_signed": true},
	 "files": ["fx.c"],
	 "ops": [{"kind": "add", "type": "i32", "ctype": "int"},
	         {"kind": "le", "type": "i32", "ctype": "int"},
	         {"kind": "br"},
	         {"kind": "call", "callee": "work", "direct": true},
	         {"kind": "mul", "type": "i32", "ctype": "int"},
	         {"kind": "ret", "type": "i32", "ctype": "int"},
	         {"kind": "call", "callee": "logmsg", "direct": true}],
	 "functions": [
	  {"name": "main", "asm": "main", "file": 0, "line": 10, "counters": "__roi_c_1111111111111111_0",
	   "checksum": "CHECKSUM0",
	   "blocks": [{"succ": [1], "lines": [[0, 11]], "ops": [[0, 0, 11, 1]]},
	              {"succ": [2, 3], "lines": [[0, 12]], "ops": [[1, 0, 12, 1], [2, 0, 12, 1]]},
	              {"succ": [1], "lines": [[0, 13]], "ops": [[3, 0, 13, 1]]},
	              {"succ": [-1], "lines": [[0, 15]], "ops": [[5, 0, 15, 1]]}],
	   "loops": [{"header": 1, "parent": -1, "file": 0, "line": 12, "blocks": [1, 2]}]},
	  {"name": "work", "asm": "work", "file": 0, "line": 3, "static": true,
	   "counters": "__roi_c_1111111111111111_1", "checksum": "CHECKSUM1",
	   "blocks": [{"succ": [1], "lines": [[0, 4]], "ops": [[0, 0, 4, 1]]},
	              {"succ": [2, 3], "lines": [[0, 5]], "ops": [[1, 0, 5, 1], [2, 0, 5, 1]]},
	              {"succ": [1], "lines": [[0, 6]], "ops": [[4, 0, 6, 2], [6, 0, 6, 1]]},
	              {"succ": [-1], "lines": [[0, 7]], "ops": [[5, 0, 7, 1]]}],
	   "loops": [{"header": 1, "parent": -1, "file": 0, "line": 5, "blocks": [1, 2]}]}],
	 "regions": [{"kind": "function", "name": "main", "function": 0, "file": 0, "line": 10,
	              "symbol": "__roi_r_1111111111111111_0"},
	             {"kind": "loop", "name": "main:12", "function": 0, "file": 0, "line": 12, "header": 1,
	              "symbol": "__roi_r_1111111111111111_1"}],
	 "filter": {"path": "f.txt", "rules": [
	   {"line": 1, "text": "hooks include function main", "matched": true},
	   {"line": 2, "text": "hooks include loop fx.c:12", "matched": true},
	   {"line": 3, "text": "count exclude function logmsg", "matched": true},
	   {"line": 4, "text": "count exclude function fooo", "matched": false}]},
	 "excluded": [{"name": "logmsg", "asm": "logmsg", "file": 0, "line": 20, "rule": 3}]}
	EOF
	ck0=$(fn_checksum meta.in 0) && ck1=$(fn_checksum meta.in 1) &&
	sed -e "s/CHECKSUM0/$ck0/" -e "s/CHECKSUM1/$ck1/" meta.in >meta.json &&
	elf_with_meta fx meta.json &&
	cat >body.in <<-\EOF &&
	roi-profile 1
	program /somewhere/fx
	runs 1
	hook-cost 50.00 ns
	hook-inside 20.00 ns
	fn 1111111111111111 0 CHECKSUM0 4 1 11 10 1
	fn 1111111111111111 1 CHECKSUM1 4 10 60 50 10
	region 1111111111111111 0 1 100000 ns
	region 1111111111111111 1 1 90000 ns
	EOF
	sed -e "s/CHECKSUM0/$ck0/" -e "s/CHECKSUM1/$ck1/" body.in >body &&
	seal body >fx.roi &&
	grep -v -e "^region" -e "^hook" body >body.plain &&
	seal body.plain >plain.roi &&
	cat >model.json <<-\EOF
	{"roi_model": 1, "part": "Test", "arch": "x86_64", "clock_hz": 1000000, "energy_per_cycle_j": 1e-9,
	 "abi": {"char": 8, "short": 16, "int": 32, "long": 64, "long long": 64, "pointer": 64,
	         "float": 32, "double": 64, "long double": 128, "char_signed": true},
	 "costs": [{"kind": "add", "cycles": 1}, {"kind": "le", "cycles": 1}, {"kind": "br", "cycles": 2},
	           {"kind": "call", "cycles": 10}, {"kind": "mul", "cycles": 4}, {"kind": "ret", "cycles": 3}]}
	EOF
'

test_expect_success 'from the counts alone: function, loop nest and lines, ops and shares by hand' '
	"$ROI" report --json fx plain.roi >r.json 2>err &&
	test_equal "main work" "$(jq -r "[.tree[].id] | join(\" \")" r.json)" &&
	test_equal "main:12 fx.c:11 fx.c:15" "$(jq -r "[.tree[0].children[].id] | join(\" \")" r.json)" &&
	test_equal "fx.c:13 fx.c:12" "$(jq -r "[.tree[0].children[0].children[].id] | join(\" \")" r.json)" &&
	test_equal 324 "$(node r.json main .ops)" &&
	test_equal 34 "$(node r.json main .self.ops)" &&
	test_equal 1 "$(node r.json main .calls)" &&
	test_equal 322 "$(node r.json main:12 .ops)" &&
	test_equal 1 "$(node r.json main:12 .calls)" &&
	test_equal 11 "$(node r.json main:12 .header_count)" &&
	test_equal 99.38 "$(node r.json main:12 .scope_pct)" &&
	test_equal 300 "$(node r.json fx.c:13 .ops)" &&
	test_equal "[\"work\"]" "$(node r.json fx.c:13 .callees)" &&
	test_equal 93.17 "$(node r.json fx.c:13 .scope_pct)" &&
	test_equal 92.59 "$(node r.json fx.c:13 .total_pct)" &&
	test_equal 290 "$(node r.json work .ops)" &&
	test_equal 10 "$(node r.json work .calls)" &&
	test_equal 270 "$(node r.json work:5 .ops)" &&
	test_equal 10 "$(node r.json work:5 .calls)" &&
	test_equal 60 "$(node r.json work:5 .header_count)" &&
	test_equal 324 "$(jq .total.ops r.json)" &&
	test_equal false "$(node r.json main .region.ran)" &&
	test_equal 0 "$(jq .regions_measured r.json)"
'

test_expect_success 'text: the seed'"'"'s columns; no measured columns without hooks' '
	"$ROI" report fx plain.roi >out 2>err &&
	test_grep "^  identifier  *class  *calls  *ops  *scope %  *total %  *note$" out &&
	test_grep "^  main  *function  *1  *324  *100.0%  *100.0%$" out &&
	test_grep "^    main:12  *loop  *1  *322  *99.4%  *99.4%  *header ran 11 times$" out &&
	test_grep "^      fx.c:13  *line  *300  *93.2%  *92.6%  *calls work$" out &&
	test_grep "^hooks     2 regions, none ran$" out &&
	test_grep "^total     324 ops$" out &&
	! grep "measured" out
'

# main: measured 100000 ns, 1 call; its hooked loop inside it: pairs 2, overhead = 1 x 50 (the
# loop'"'"'s whole pair) + 1 x 20 (its own pair'"'"'s inside part) = 70, net 99930. main:12: 90000,
# overhead 20, net 89980. All pairs: 2 x 50 = 100 ns.
test_expect_success 'measured regions beside the estimate: hook overhead subtracted in net' '
	"$ROI" report --json fx >r.json 2>err &&
	test_equal 100000 "$(node r.json main .region.total)" &&
	test_equal 1 "$(node r.json main .region.calls)" &&
	test_equal 2 "$(node r.json main .region.hook_pairs)" &&
	test_equal 70 "$(node r.json main .region.overhead)" &&
	test_equal 99930 "$(node r.json main .region.net)" &&
	test_equal 89980 "$(node r.json main:12 .region.net)" &&
	test_equal "\"main:12\"" "$(node r.json main:12 .region.name)" &&
	test_equal null "$(node r.json work .region)" &&
	test_equal 50 "$(jq .hook_cost r.json)" &&
	test_equal 20 "$(jq .hook_inside r.json)" &&
	test_equal 100 "$(jq .hook_overhead r.json)" &&
	test_equal "\"ns\"" "$(jq .time_unit r.json)" &&
	"$ROI" report fx >out 2>err &&
	test_grep "^  identifier  *class  *calls  *ops  *scope %  *total %  *measured  *hook calls  *overhead  *net  *note$" out &&
	test_grep "^  main  *function  *1  *324  *100.0%  *100.0%  *100 us  *1  *70 ns  *99.93 us$" out &&
	test_grep "^    main:12  *loop  *1  *322  *99.4%  *99.4%  *90 us  *1  *20 ns  *89.98 us  *header ran 11 times$" out &&
	test_grep "^  Overhead  *hooks  *2  *100 ns  *enter+exit pairs x 50 ns; 0.1% of main.s measured time$" out &&
	test_grep "^  Runtime  *100 us  *main$" out &&
	test_grep "^hooks     2 regions measured, 2 enter+exit pairs of 50 ns each, 20 ns of it timed by its own region" out
'

# The same profile as the runtime writes it now, with the hook enters inside each region: main
# ran 7 (its loop once, hooked callees 6 times): overhead 7 x 50 + 1 x 20 = 370, net 99630; the
# loop none: overhead 20, net 89980, as before.
test_expect_success 'with INNER: every hook inside a region is subtracted, callees'"'"' too' '
	sed -e "s/^\(region 1111111111111111 0 .*\)\$/\1 7/" -e "s/^\(region 1111111111111111 1 .*\)\$/\1 0/" \
		body >inner.body &&
	seal inner.body >inner.roi &&
	"$ROI" report --json fx inner.roi >ri.json &&
	test_equal 370 "$(node ri.json main .region.overhead)" &&
	test_equal 99630 "$(node ri.json main .region.net)" &&
	test_equal 89980 "$(node ri.json main:12 .region.net)" &&
	sed "9s/ ns 0\$/ ns x/" inner.body >bad.body && seal bad.body >bad.roi &&
	fails 1 "^roi: bad.roi:9: inner hook count .x. is not a decimal number" "$ROI" report fx bad.roi &&
	sed "9s/ ns 0\$/ ns 0 0/" inner.body >bad.body && seal bad.body >bad.roi &&
	fails 1 "^roi: bad.roi:9: unexpected data at the end of the line$" "$ROI" report fx bad.roi
'

# With the model (add 1, le 1, br 2, call 10, mul 4, ret 3 cycles): main 1 + 11 x 3 + 10 x 10 + 3
# = 137 cycles of its own; work per call 1 + 6 x 3 + 5 x (2 x 4 + 10, the call of logmsg) + 3 = 112,
# 1120 in all; the program 1257. logmsg, left uncounted by the filter, is priced as its 50 calls
# alone (10 cycles each, 500), and the total says so.
test_expect_success 'with a model: cycles and energy, shares of cycles' '
	"$ROI" report --model model.json --json fx >r.json 2>err &&
	test_equal 1257 "$(jq .total.cycles r.json)" &&
	test_equal "50 500 50" "$(jq -r "[.total.calls_without_metadata, .total.cycles_without_metadata, .total.fallback_calls] | @tsv" r.json | tr "\t" " ")" &&
	test_equal 1257 "$(node r.json main .cycles)" &&
	test_equal 1120 "$(node r.json work .cycles)" &&
	"$ROI" report --model model.json fx >out 2>err &&
	test_grep "^  identifier  *class  *calls  *ops  *cycles  *energy  *scope %  *total %  *measured" out &&
	test_grep "^total     324 ops, 1257 cycles, 1.257 ms, 1.257 uJ; 50 calls without metadata, 500 cycles (fallback, the call alone: logmsg x50)$" out
'

test_expect_success '--region focuses on one function or loop' '
	"$ROI" report --region main:12 fx >out 2>err &&
	test_grep "^region    main:12$" out &&
	test_grep "^  main:12  *loop" out &&
	! grep "^  main  " out && ! grep "work:5" out &&
	"$ROI" report --json --region work fx >r.json 2>err &&
	test_equal "work" "$(jq -r "[.tree[].id] | join(\" \")" r.json)" &&
	test_equal "\"work\"" "$(jq .region r.json)" &&
	test_must_fail "$ROI" report --region nosuch fx >out 2>err &&
	test_grep "^roi: fx has no function or loop '\''nosuch'\'' that ran" err && test ! -s out &&
	fails 2 "^roi report: --region needs" "$ROI" report --region= fx
'

test_expect_success '--suggest: below the hottest measured region, its callees; filter lines' '
	"$ROI" report --suggest fx >out 2>err &&
	cat >expect <<-\EOF &&
	# next level below main:12 (the hottest measured region whose level below is not measured yet), measured 89.98 us net
	# work: 90.1% of main:12
	hooks include function work
	EOF
	test_cmp expect out
'

test_expect_success '--suggest without hooks: the function costing most itself, and its loops' '
	"$ROI" report --suggest fx plain.roi >out 2>err &&
	cat >expect <<-\EOF &&
	# next level below work (nothing measured yet: the function whose own operations cost most)
	# work itself: 89.5% of the total
	hooks include function work
	# work:5: 93.1% of work
	hooks include loop fx.c:5
	EOF
	test_cmp expect out &&
	"$ROI" report --suggest --region work:5 fx >out 2>err &&
	cat >expect <<-\EOF &&
	# next level below work:5 (the region asked for)
	# logmsg: not counted (filter), cost unknown
	hooks include function logmsg
	EOF
	test_cmp expect out &&
	"$ROI" report --json --suggest fx >r.json 2>err &&
	test_equal "\"main:12\"" "$(jq .suggest.target r.json)" &&
	test_equal "\"hooks include function work\"" "$(jq ".suggest.rules[0].rule" r.json)"
'

test_expect_success 'a rule that matched nothing: one warning from estimate and report' '
	echo "roi: warning: f.txt:4: rule '\''count exclude function fooo'\'' matched nothing in fx" >expect &&
	"$ROI" report fx >out 2>err && test_cmp expect err &&
	"$ROI" estimate fx fx.roi >out 2>err && test_cmp expect err &&
	"$ROI" report --json fx >r.json 2>/dev/null &&
	test_equal "[{\"filter\":\"f.txt\",\"line\":4,\"text\":\"count exclude function fooo\"}]" \
		"$(jq -c .unmatched_rules r.json)"
'

test_expect_success 'a rule another unit matched is no warning' '
	sed -e "s/1111111111111111/2222222222222222/g" -e "s/\"matched\": false/\"matched\": true/" meta.json >meta2.json &&
	elf_with_meta two meta.json meta2.json &&
	sed "s/^program .*/program two/" body.plain >body2 && seal body2 >two.roi &&
	"$ROI" report two two.roi >out 2>err &&
	! grep "matched nothing" err
'

test_expect_success 'functions the filter excluded: the reports say their cost is not included' '
	"$ROI" report fx >out 2>/dev/null &&
	test_grep "^excluded  logmsg: not counted (filter), their cost is not included$" out &&
	"$ROI" estimate fx fx.roi >out 2>/dev/null &&
	test_grep "^excluded  logmsg: not counted (filter), their cost is not included$" out &&
	"$ROI" estimate --json fx fx.roi >e.json 2>/dev/null &&
	test_equal "logmsg f.txt 3" "$(jq -r ".excluded[0] | \"\(.name) \(.filter) \(.rule)\"" e.json)"
'

test_expect_success 'roi estimate reads a profile with region lines' '
	"$ROI" estimate fx fx.roi >out 2>/dev/null &&
	test_grep "^total  *324 ops$" out
'

# bad_meta JQ PATTERN: the fixture edited by JQ is refused with one line matching PATTERN.
bad_meta () {
	jq -c "$1" meta.json >bad.json && elf_with_meta bad bad.json &&
	fails 1 "$2" "$ROI" report bad plain.roi
}

test_expect_success 'metadata: regions, loops, filter and excluded are validated' '
	bad_meta ".regions[0].kind = \"block\"" "record 1: regions\[0\].kind: unknown value .block. (expected one of: function, loop)$" &&
	bad_meta ".regions[1].function = 7" "record 1: regions\[1\].function: 7 is out of range (-1 to 1)$" &&
	bad_meta ".regions[1].header = 9" "record 1: regions\[1\].header: 9 is out of range (0 to 3)$" &&
	bad_meta "del(.regions[1].header)" "record 1: regions\[1\]: missing .header.$" &&
	bad_meta "del(.regions[0].symbol)" "record 1: regions\[0\]: missing .symbol." &&
	bad_meta ".functions[0].loops[0].parent = 0" "functions\[0\].loops\[0\]: parent: a loop cannot be its own parent" &&
	bad_meta ".functions[1].loops += [{\"header\": 2, \"parent\": 2, \"file\": 0, \"line\": 6, \"blocks\": [2]}, {\"header\": 2, \"parent\": 1, \"file\": 0, \"line\": 6, \"blocks\": [2]}]" \
		"functions\[1\].loops\[1\]: parent: the parents form a cycle" &&
	bad_meta ".functions[0].loops[0].blocks = [2]" "functions\[0\].loops\[0\]: blocks: the header block 1 is not among them" &&
	bad_meta ".functions[0].loops[0].blocks = [1, 4]" "functions\[0\].loops\[0\].blocks\[1\]: " &&
	bad_meta "del(.filter.rules[0].matched)" "record 1: filter.rules\[0\]: missing .matched." &&
	bad_meta ".excluded[0].rule = 9" "record 1: excluded\[0\]: rule: line 9 is not a rule of the unit.s filter" &&
	bad_meta ".filter = 3" "record 1: filter: "
'

# bad_profile EDIT PATTERN: fx.roi with the sed script EDIT applied to its body.
bad_profile () {
	sed "$1" body >bad.body && seal bad.body >bad.roi &&
	fails 1 "$2" "$ROI" report fx bad.roi
}

test_expect_success 'profile: region and hook-cost lines are read strictly' '
	bad_profile "s/^region 1111111111111111 1 /region 1111111111111111 5 /" \
		"^roi: bad.roi:9: region 5 of unit 1111111111111111 is not in fx (profile from another build: run the program again for a new one)$" &&
	bad_profile "9s/ ns\$/ cycles/" "^roi: bad.roi:9: time unit .cycles. differs from the .ns. of line 4$" &&
	bad_profile "9s/ ns\$/ ms/" "^roi: bad.roi:9: time unit .ms. is not .ns. or .cycles.$" &&
	bad_profile "9s/ 90000 / 9x /" "^roi: bad.roi:9: total .9x. is not a decimal number" &&
	bad_profile "4s/50.00/5,0/" "^roi: bad.roi:4: hook cost .5,0. is not a decimal number" &&
	bad_profile "5s/hook-inside/hook-outside/" "^roi: bad.roi:5: expected .fn., .region. or .end.$" &&
	bad_profile "4{h;d};5G" "^roi: bad.roi:4: the hook-inside line must come right after the hook-cost line$" &&
	bad_profile "7{h;d};8G" "^roi: bad.roi:8: fn line after the region lines (fn lines come first)$" &&
	bad_profile "9s/.*/region 1111111111111111 0 1 1 ns/" "^roi: bad.roi:9: region 0 of unit 1111111111111111 appears twice (first on line 8)$"
'

# ---- real programs, with the plugin's filter and hooks ----

test_expect_success 'does the plugin take a filter and insert hooks?' '
	echo "int main(void) { return 0; }" >probe.c &&
	echo "hooks include function main" >probe.txt &&
	if gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=probe.txt -c probe.c -o probe.o 2>/dev/null &&
	   meta_json probe.o | jq -e ".[0].regions | length == 1" >/dev/null; then
		echo yes >hooks-ok
	fi
'
test -f hooks-ok && test_set_prereq HOOKS

# build_tl FILTER: three-loops compiled at -O0 with FILTER (none when empty), run afresh.
build_tl () {
	cp "$TEST_DIRECTORY/programs/three-loops.c" . &&
	gcc -O0 -fplugin="$ROI_PLUGIN" ${1:+-fplugin-arg-roi-filter=$1} three-loops.c "$ROI_LIB" -o tl &&
	rm -f tl.roi && ./tl 2>run.err && test ! -s run.err
}

# The header counts and calls of testsuite/programs/three-loops.c, by hand (its comment).
test_expect_success HOOKS 'three loops: ranked by cost from the counts alone; --suggest starts at mix' '
	build_tl "" &&
	"$ROI" report --json tl >r.json 2>err &&
	test_equal "main:32 main:28 main:30" \
		"$(jq -r "[.tree[] | select(.id == \"main\") | .children[] | select(.kind == \"loop\") | .id] | join(\" \")" r.json)" &&
	test_equal 1001 "$(node r.json main:32 .header_count)" &&
	test_equal 10001 "$(node r.json main:28 .header_count)" &&
	test_equal 11 "$(node r.json main:30 .header_count)" &&
	test_equal "1 1 1" "$(echo $(node r.json main:32 .calls) $(node r.json main:28 .calls) $(node r.json main:30 .calls))" &&
	test_equal 1000 "$(node r.json mix .calls)" &&
	test_equal 1001000 "$(node r.json mix:19 .header_count)" &&
	test_equal "[\"mix\"]" "$(node r.json three-loops.c:33 .callees)" &&
	jq -e "[.. | objects | select(.id? == \"main:32\")][0].scope_pct > 99" r.json &&
	# each loop costs about a thousand times the next: A > 100 x B, C > 50 x A
	jq -e "[.. | objects | select(.id? == \"main:28\")][0].ops > 100 * [.. | objects | select(.id? == \"main:30\")][0].ops" r.json &&
	jq -e "[.. | objects | select(.id? == \"main:32\")][0].ops > 50 * [.. | objects | select(.id? == \"main:28\")][0].ops" r.json &&
	"$ROI" report --suggest tl >out &&
	test_grep "^hooks include function mix$" out &&
	test_grep "^hooks include loop three-loops.c:19$" out
'

test_expect_success HOOKS 'three loops, main measured: --suggest proposes the loops, the hot one first' '
	echo "hooks include function main" >f.txt &&
	build_tl f.txt &&
	"$ROI" report --suggest tl >out 2>err &&
	test ! -s err &&
	grep -v "^#" out >rules &&
	printf "%s\n" "hooks include loop three-loops.c:32" "hooks include loop three-loops.c:28" \
		"hooks include loop three-loops.c:30" >expect &&
	test_cmp expect rules &&
	cat rules >>f.txt
'

test_expect_success HOOKS 'three loops measured: ranked alike; --suggest proposes the hot loop'"'"'s body' '
	build_tl f.txt &&
	"$ROI" report --json tl >r.json 2>err &&
	test ! -s err &&
	for l in main main:32 main:28 main:30; do
		test_equal 1 "$(node r.json $l .region.calls)" "hook calls of $l" || return 1
	done &&
	c=$(node r.json main:32 .region.total) && a=$(node r.json main:28 .region.total) &&
	b=$(node r.json main:30 .region.total) && m=$(node r.json main .region.total) &&
	test "$c" -gt "$a" && test "$a" -gt "$b" && test "$m" -ge "$c" &&
	"$ROI" report --suggest tl >out &&
	test_grep "^# next level below main:32 " out &&
	grep -v "^#" out >rules &&
	echo "hooks include function mix" >expect &&
	test_cmp expect rules &&
	"$ROI" report tl >out 2>err &&
	! grep "hooks entered" out
'

test_expect_success HOOKS 'an unmatched rule and an excluded function in a real build' '
	printf "%s\n" "count exclude function mix" "count exclude function mixx" >g.txt &&
	build_tl g.txt &&
	"$ROI" report tl >out 2>err &&
	test_grep "^roi: warning: .*g.txt:2: rule '\''count exclude function mixx'\'' matched nothing in tl; did you mean '\''mix'\''?$" err &&
	test_equal 1 "$(wc -l <err | tr -d " ")" &&
	test_grep "^excluded  mix: not counted (filter), their cost is not included$" out &&
	"$ROI" report --suggest --region main:32 tl >out 2>/dev/null &&
	test_grep "^# mix: not counted (filter), cost unknown$" out &&
	test_grep "^hooks include function mix$" out
'

# main calls f 5 times, and each call of f runs its loop once: inside main 5 enters of f and 5 of
# the loop, inside f 5 of the loop, inside the loop none.
test_expect_success HOOKS 'the runtime counts the hook enters inside each region: callees'"'"' too' '
	cat >nest.c <<-\EOF &&
	volatile int x;
	static void __attribute__((noinline)) f(void)
	{
		for (int i = 0; i < 10; i++)
			x += i;
	}
	int main(void)
	{
		for (int k = 0; k < 5; k++)
			f();
		return 0;
	}
	EOF
	printf "%s\n" "hooks include function main" "hooks include function f" "hooks include loop nest.c:4" >n.txt &&
	roi_link nest -O1 -fplugin-arg-roi-filter=n.txt nest.c &&
	./nest &&
	"$ROI" report --json nest >n.json &&
	inner () { awk -v c="$1" "\$1 == \"region\" && \$4 == c { print \$7 }" nest.roi; } &&
	test_equal 10 "$(inner 1)" "main: 1 call" &&
	test_equal "5 0" "$(inner 5 | sort -r | tr "\n" " " | sed "s/ \$//")" "f and the loop: 5 calls each" &&
	cost=$(jq .hook_cost n.json) && inside=$(jq .hook_inside n.json) &&
	overhead=$(node n.json main .region.overhead) &&
	test_equal true "$(jq -n "(10 * $cost + $inside - $overhead) | fabs < 0.001")" \
		"overhead $overhead = 10 x $cost + $inside"
'

# testsuite/programs/hook-paths.c: every function and loop hooked; calls by hand (its comment).
test_expect_success HOOKS 'hooks are balanced on every way out: returns, break, goto, recursion' '
	cp "$TEST_DIRECTORY/programs/hook-paths.c" . &&
	{ echo "hooks include function glob:*" &&
	  grep -n "for (\|while (" hook-paths.c | cut -d: -f1 | sed "s/^/hooks include loop hook-paths.c:/"; } >hp.txt &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=hp.txt hook-paths.c "$ROI_LIB" -o hp &&
	rm -f hp.roi && ./hp 2>run.err &&
	test_equal "" "$(cat run.err)" "the runtime'"'"'s notes (unbalanced or open regions)" &&
	"$ROI" report --json hp >r.json &&
	for x in classify:10 find:10 find:30:10 first_big:1 first_big:39:1 grid:1 grid:50:1 grid:51:4 fib:177 main:1 main:72:1; do
		id=${x%:*} n=${x##*:} &&
		test_equal "$n" "$(node r.json "$id" .region.calls)" "hook calls of $id" &&
		test_equal "$n" "$(node r.json "$id" .calls)" "entries of $id by the counts" || return 1
	done &&
	test_equal 0 "$(jq "[.. | objects | select(.region? | type == \"object\") | select(.region.calls != .calls)] | length" r.json)"
'

# At -O2 GCC turns one of fib'"'"'s two recursive calls into a loop and moves loop headers, so only
# what must hold whatever the optimiser did is checked.
test_expect_success HOOKS 'at -O2 too: no unbalanced exit, hook calls equal the counted entries' '
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=hp.txt hook-paths.c "$ROI_LIB" -o hp2 &&
	rm -f hp2.roi && ./hp2 2>run.err &&
	test_equal "" "$(cat run.err)" "the runtime'"'"'s notes (unbalanced or open regions)" &&
	"$ROI" report --json hp2 >r2.json &&
	jq -e "[.. | objects | select(.region? | type == \"object\") | select(.region.ran)] | length > 3" r2.json &&
	test_equal 0 "$(jq "[.. | objects | select(.region? | type == \"object\") | select(.region.calls != .calls)] | length" r2.json)"
'

# At -Os the outer loop'"'"'s header holds nothing with a location; the loop is still named by the
# first line of its statements, the for on line 21 of matrix.c, and that name works in a filter
# and a budget: 1 entry, its header run 3 times (m = 0, 1, 2), by hand.
test_expect_success HOOKS 'a loop whose header has no location is named by its first line, and that name works' '
	gcc -Os -fplugin="$ROI_PLUGIN" "$EXAMPLES/matrix/matrix.c" "$ROI_LIB" -o mos &&
	ROI_OUTPUT=mos.roi ./mos && "$ROI" report mos mos.roi >rep &&
	test_grep "^    main:21  *loop  *1 .*header ran 3 times" rep &&
	! grep -q "main:0 " rep &&
	echo "hooks include loop $EXAMPLES/matrix/matrix.c:21" >l21.txt &&
	gcc -Os -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=l21.txt "$EXAMPLES/matrix/matrix.c" "$ROI_LIB" -o mos21 &&
	ROI_OUTPUT=mos21.roi ./mos21 && "$ROI" report mos21 mos21.roi >rep21 &&
	test_grep "^    main:21  *loop  *1 .* 1  " rep21 &&
	echo "region main:21 ops per run <= 2000ops" >b21.txt &&
	"$ROI" budget check --budgets b21.txt mos21 mos21.roi >bud &&
	test_grep "PASS" bud
'

test_done
