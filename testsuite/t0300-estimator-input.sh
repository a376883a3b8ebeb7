#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi estimate and roi ops on bad input

Every input roi reads can be wrong: the program (not an ELF, no metadata, a bad
record), the profile (truncated, edited, from another build) and the model
(malformed JSON, schema errors). Each must give one line naming the file and
the cause, exit 1 (2 for usage errors), and never crash.

The fixtures are written here by hand, without the plugin: a C file puts a JSON
record into .roi.meta with .incbin, the function'"'"'s checksum and the profile'"'"'s
end line are the CRC-32 from gzip'"'"'s trailer, and a small AVR model prices the
operations.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

test_expect_success 'fixtures: a program with metadata, its profile, a model' '
	cat >meta.in <<-\EOF &&
	{"roi": 1, "unit": "9f86d081884c7d65", "source": "prog.c", "compiler": "12.2.0",
	 "target": "x86_64-linux-gnu", "opt": "O0", "counter_bits": 64, "runtime": "host",
	 "abi": {"char": 8, "short": 16, "int": 32, "long": 64, "long long": 64, "pointer": 64,
	         "float": 32, "double": 64, "long double": 128, "char_signed": true},
	 "files": ["prog.c"],
	 "ops": [{"kind": "add", "type": "i32", "ctype": "int"},
	         {"kind": "mul", "type": "u16", "ctype": "unsigned short"},
	         {"kind": "load", "type": "u16", "ctype": "unsigned short", "access": "array"},
	         {"kind": "call", "callee": "printf", "direct": true},
	         {"kind": "lt", "type": "i32", "ctype": "int"},
	         {"kind": "br"},
	         {"kind": "add", "type": "f64", "ctype": "double"}],
	 "functions": [
	  {"name": "main", "asm": "main", "file": 0, "line": 3, "counters": "__roi_c_9f86d081884c7d65_0",
	   "checksum": "CHECKSUM",
	   "blocks": [{"succ": [1], "lines": [[0, 4]], "ops": [[0, 0, 4, 1]]},
	              {"succ": [2, 3], "lines": [[0, 5]], "ops": [[4, 0, 5, 1], [5, 0, 5, 1]]},
	              {"succ": [1], "lines": [[0, 6]], "ops": [[1, 0, 6, 1], [2, 0, 6, 2], [6, 0, 6, 1]]},
	              {"succ": [-1], "lines": [[0, 8]], "ops": [[3, 0, 8, 1]]}]}]}
	EOF
	fn_checksum meta.in 0 >checksum &&
	sed "s/CHECKSUM/$(cat checksum)/" meta.in >meta.json &&
	elf_with_meta prog meta.json &&
	cat >body.in <<-\EOF &&
	roi-profile 1
	program /somewhere/prog
	runs 1
	fn 9f86d081884c7d65 0 CHECKSUM 4 1 11 10 1
	EOF
	sed "s/CHECKSUM/$(cat checksum)/" body.in >body &&
	seal body >prog.roi &&
	cat >avr.json <<-\EOF &&
	{
	  "roi_model": 1,
	  "part": "ATmega32U4",
	  "arch": "avr",
	  "clock_hz": 16000000,
	  "energy_per_cycle_j": 1e-9,
	  "compiler": "avr-gcc 5.4.0",
	  "opt": "O0",
	  "abi": {"char": 8, "short": 16, "int": 16, "long": 32, "long long": 64,
	          "pointer": 16, "float": 32, "double": 32, "long double": 32, "char_signed": true},
	  "costs": [
	    {"kind": "add", "type": "i16", "cycles": 2},
	    {"kind": "mul", "type": "u16", "cycles": 10},
	    {"kind": "load", "type": "u16", "cycles": 4},
	    {"kind": "lt", "class": "int", "cycles": 2},
	    {"kind": "br", "cycles": 1.25},
	    {"kind": "add", "type": "f32", "cycles": 100}
	  ]
	}
	EOF
	echo "int main(void) { return 0; }" >plain.c &&
	gcc -o plain plain.c
'

test_expect_success 'the fixtures are good: counts and costs by hand' '
	# ops: 1 add + 11 lt + 11 br + 10 mul + 20 load + 10 fadd + 1 call = 64
	# cycles (host int add -> i16, double -> f32 on AVR):
	#   2 + 22 + 13.75 + 100 + 80 + 1000 = 1217.75, at 16 MHz 76.11 us, at 1 nJ each 1.218 uJ
	"$ROI" estimate prog >out &&
	test_grep "^total  *64 ops$" out &&
	"$ROI" estimate --model avr.json prog prog.roi >out 2>err &&
	test_grep "^total  *64 ops (1 unmodelled), 1217.75 cycles, 76.11 us, 1.218 uJ$" out &&
	test_grep "^mapping   host ABI mapped to avr" out &&
	test_grep "fallback: load type=u16" out &&
	test_grep "^roi: warning: model avr.json has costs for avr-gcc 5.4.0 -O0" err
'

# The checksum covers the assembler name and, block by block, the fields of the block and each
# row with the operation it names in full (docs/formats.md): written out here from the fixture.
test_expect_success 'the fixture'"'"'s checksum is the CRC-32 of its blocks'"'"' canonical text' '
	none="from - from_ctype - access - operand - callee - code - volatile 0 direct 0 builtin 0 internal 0" &&
	rest="subscripts 0 promoted 0 cases -1 bytes -1" &&
	cat >expect <<-EOF &&
	asm 4:main
	block 0 0 -1
	succ 1
	line 0 4
	row 0 4 1 kind 3:add type 3:i32 ctype 3:int $none $rest
	block 0 0 -1
	succ 2
	succ 3
	line 0 5
	row 0 5 1 kind 2:lt type 3:i32 ctype 3:int $none $rest
	row 0 5 1 kind 2:br type - ctype - $none $rest
	block 0 0 -1
	succ 1
	line 0 6
	row 0 6 1 kind 3:mul type 3:u16 ctype 14:unsigned short $none $rest
	row 0 6 2 kind 4:load type 3:u16 ctype 14:unsigned short from - from_ctype - access 5:array operand - callee - code - volatile 0 direct 0 builtin 0 internal 0 $rest
	row 0 6 1 kind 3:add type 3:f64 ctype 6:double $none $rest
	block 0 0 -1
	succ -1
	line 0 8
	row 0 8 1 kind 4:call type - ctype - from - from_ctype - access - operand - callee 6:printf code - volatile 0 direct 1 builtin 0 internal 0 $rest
	EOF
	checksum_text meta.json 0 >text &&
	test_cmp expect text &&
	test_equal "$(jq -r ".functions[0].checksum" meta.json)" "0x$(crc32 <expect)"
'

test_expect_success 'a file that is not ELF' '
	echo "just text" >notelf &&
	fails 1 "^roi: notelf: not an ELF file$" "$ROI" estimate notelf prog.roi &&
	fails 1 "^roi: notelf: not an ELF file$" "$ROI" ops notelf
'

test_expect_success 'a truncated ELF' '
	head -c 1000 prog >cut &&
	fails 1 "^roi: cut: damaged ELF file: .*truncated" "$ROI" ops cut
'

test_expect_success 'an ELF without metadata' '
	fails 1 "^roi: plain: no roi metadata (was it compiled with -fplugin=roi?)$" "$ROI" estimate plain prog.roi
'

test_expect_success 'a missing program and a missing profile' '
	fails 1 "^roi: nothere: No such file or directory$" "$ROI" estimate nothere &&
	fails 1 "^roi: nothere.roi: No such file or directory$" "$ROI" estimate prog nothere.roi &&
	mkdir -p fw && cp prog fw/lonely &&
	fails 1 "^roi: no profile of fw/lonely: neither ./lonely.roi nor fw/lonely.roi exists; run it first (a host program writes the first at exit, .roi run. the second), or name the profile$" \
		"$ROI" estimate fw/lonely
'

# From another directory, a profile of the same name in the current one (another program'"'"'s, a
# stale one) must not hide the one beside the program, which names it.
test_expect_success 'the default profile is the one that names the program' '
	mkdir -p dir-a && cp prog dir-a/prog && cd dir-a &&
	sed "s|^program .*|program $PWD/prog|" ../body >b && seal b >prog.roi &&
	cd .. && mkdir -p dir-b && cd dir-b &&
	sed "s|^program .*|program /elsewhere/prog|" ../body >b && seal b >prog.roi &&
	"$ROI" estimate ../dir-a/prog >out &&
	test_grep "^profile   ../dir-a/prog.roi, 1 run$" out
'

test_expect_success 'metadata records: version, indices, duplicate units' '
	sed "s/\"roi\": 1/\"roi\": 2/" meta.json >v2.json && elf_with_meta v2 v2.json &&
	fails 1 "^roi: v2: .roi.meta record 1: unsupported metadata version 2" "$ROI" ops v2 &&
	sed "s/\"succ\": \[1\]/\"succ\": [7]/" meta.json >succ.json && elf_with_meta succ succ.json &&
	fails 1 "^roi: succ: .roi.meta record 1: functions\[0\].blocks\[0\].succ\[0\]: 7 is out of range" \
		"$ROI" ops succ &&
	sed "s/\"checksum\": \"0x[0-9a-f]*\",//" meta.json >nock.json && elf_with_meta nock nock.json &&
	fails 1 "^roi: nock: .roi.meta record 1: functions\[0\]: missing .checksum.$" "$ROI" ops nock &&
	{ tr -d "\n" <meta.json && printf "\\0" && tr -d "\n" <meta.json; } >twice.json &&
	elf_with_meta dup twice.json &&
	fails 1 "^roi: dup: .roi.meta record 2: duplicate unit 9f86d081884c7d65 (also record 1)$" "$ROI" ops dup
'

# A record is read a member at a time and its functions one by one (input/jv.c, jv_pieces), each
# parsed by cJSON alone: what the record says, and what is wrong with it, is the same whatever the
# order of its members; the byte of a JSON error is the record's own.
test_expect_success 'metadata records in another member order, and errors after the functions' '
	"$ROI" ops prog | sed 1d >ops.expect &&
	jq -c "{functions} + del(.functions)" meta.json >first.json && elf_with_meta first first.json &&
	"$ROI" ops first | sed 1d >ops.first && test_cmp ops.expect ops.first &&
	jq -c "del(.ops, .files) + {functions} + {ops, files}" meta.json >last.json && elf_with_meta last last.json &&
	"$ROI" ops last | sed 1d >ops.last && test_cmp ops.expect ops.last &&
	jq -c ". + {atomic: 3}" meta.json >late.json && elf_with_meta late late.json &&
	fails 1 "^roi: late: .roi.meta record 1: atomic: must be true or false$" "$ROI" ops late &&
	jq -c ". + {extra: 1}" meta.json >unknown.json && elf_with_meta unknown unknown.json &&
	fails 1 "^roi: unknown: .roi.meta record 1: unknown key .extra.$" "$ROI" ops unknown &&
	jq -c "{functions} + ." meta.json | sed "s/}\$/,\"functions\":[]}/" >twice.json &&
	elf_with_meta twice-fns twice.json &&
	fails 1 "^roi: twice-fns: .roi.meta record 1: duplicate key .functions.$" "$ROI" ops twice-fns
'

test_expect_success 'malformed JSON inside a function or after the record: the byte of the record' '
	tr -d "\n" <meta.json | sed "s/\"succ\": \[2, 3\]/\"succ\": [2, 3}/" >bad-fn.json &&
	at=$(grep -bo "3}" bad-fn.json | cut -d: -f1) && at=$((at + 1)) &&
	elf_with_meta bad-fn bad-fn.json &&
	fails 1 "^roi: bad-fn: .roi.meta record 1: malformed JSON at byte $at$" "$ROI" ops bad-fn &&
	{ tr -d "\n" <meta.json && printf " x"; } >after.json &&
	at=$(($(wc -c <after.json) - 1)) &&
	elf_with_meta after after.json &&
	fails 1 "^roi: after: .roi.meta record 1: malformed JSON at byte $at$" "$ROI" ops after
'

test_expect_success 'metadata records: what the RTL pass adds, value counters'"'"' blocks' '
	sed "s/\"checksum\": \"0x[0-9a-f]*\",/&\"jumps\": [[9, 0, 4, 1]],/" meta.json >jumps.json &&
	elf_with_meta jumps jumps.json &&
	fails 1 "^roi: jumps: .roi.meta record 1: functions\[0\].jumps\[0\]\[0\]: 9 is out of range" \
		"$ROI" ops jumps &&
	sed "s/\"checksum\": \"0x[0-9a-f]*\",/&\"adjust\": [[0, 3, 4, 2]],/" meta.json >adjust.json &&
	elf_with_meta adjust adjust.json &&
	fails 1 "^roi: adjust: .roi.meta record 1: functions\[0\].adjust\[0\]\[1\]: 3 is out of range" \
		"$ROI" ops adjust &&
	sed "s/\"checksum\": \"0x[0-9a-f]*\",/&\"tables\": [4],/" meta.json >tables.json &&
	elf_with_meta tables tables.json &&
	fails 1 "^roi: tables: .roi.meta record 1: functions\[0\].tables\[0\]: 4 is out of range" \
		"$ROI" ops tables &&
	sed "s/\[\[3, 0, 8, 1\]\]}/&, {\"succ\": [], \"lines\": [], \"ops\": [[0, 0, 6, 1]], \"value\": true, \"block\": 4}/" \
		meta.json >value.json &&
	elf_with_meta value value.json &&
	fails 1 "^roi: value: .roi.meta record 1: functions\[0\].blocks\[4\]: block: 4 is a value counter, not a block$" \
		"$ROI" ops value &&
	sed -e "s/\[\[3, 0, 8, 1\]\]}/&, {\"succ\": [], \"lines\": [], \"ops\": [[0, 0, 6, 1]], \"value\": true, \"block\": 2}/" \
	    -e "s/{\"succ\": \[2, 3\]/{\"succ\": [2, 4]/" meta.json >to-value.json &&
	elf_with_meta to-value to-value.json &&
	fails 1 "^roi: to-value: .roi.meta record 1: functions\[0\].blocks\[1\]: succ: 4 is a value counter, not a block$" \
		"$ROI" ops to-value
'

# edited SED NAME: the fixture edited by SED, checksum kept, refused as changed after compiling;
# the checksum its blocks have now is computed here.
edited () {
	sed "$1" meta.in >"$2.in" &&
	sed "s/CHECKSUM/$(cat checksum)/" "$2.in" >"$2.json" && elf_with_meta "$2" "$2.json" &&
	fails 1 "^roi: $2: .roi.meta record 1: functions\[0\] (main): checksum $(cat checksum) does not match its blocks ($(fn_checksum "$2.in" 0)); the metadata was changed after compiling$" \
		"$ROI" estimate "$2" prog.roi
}

test_expect_success 'metadata changed after compiling: a tally, an operation, a block'"'"'s fields' '
	edited "s/\[1, 0, 6, 1\]/[1, 0, 6, 2]/" tally &&
	edited "s/\"mul\", \"type\": \"u16\"/\"mul\", \"type\": \"u32\"/" op &&
	edited "s/{\"succ\": \[-1\]/{\"labels\": true, \"succ\": [-1]/" labels &&
	edited "s/\"asm\": \"main\"/\"asm\": \"_main\"/" asm
'

# edges SED NAME: the fixture counted on the edges [1, 0] (1 -> 2, the loop's body) and [1, 1]
# (1 -> 3, its exit), then edited by SED, with its checksum recomputed (so that only what the
# edit breaks is refused).
edges () {
	sed -e "s/\"blocks\": \[/\"fake\": [], \"edges\": [[1, 0], [1, 1]], &/" -e "$1" meta.in >"$2.in" &&
	# (jq cannot make the checksum of an edge that is no pair: any will do, it is refused before)
	sed "s/CHECKSUM/$(fn_checksum "$2.in" 0 2>/dev/null)/" "$2.in" >"$2.json" && elf_with_meta "$2" "$2.json"
}

# By hand: the body ran 10 times and the loop was left once, so block 1 (the test) ran 11 times,
# block 0 and block 3 once: the counts of the counter per block above, two counters instead of four.
test_expect_success 'counted edges: the block counts solved from them; what is not a spanning tree' '
	edges "" tree &&
	sed "s/CHECKSUM 4 1 11 10 1/$(jq -r ".functions[0].checksum" tree.json) 2 10 1/" body.in >tree.body &&
	seal tree.body >tree.roi &&
	"$ROI" estimate tree tree.roi >out &&
	test_grep "^total  *64 ops$" out &&
	edges "s/\"fake\": \[\]/\"fake\": [3, 3]/" fake-twice &&
	fails 1 "^roi: fake-twice: .roi.meta record 1: functions\[0\].fake\[1\]: 3 does not follow 3: the blocks ascend$" \
		"$ROI" ops fake-twice &&
	edges "s/\"fake\": \[\], //" no-fake &&
	fails 1 "^roi: no-fake: .roi.meta record 1: functions\[0\]: .fake. and .edges. come together$" "$ROI" ops no-fake &&
	edges "s/\[\[1, 0\], \[1, 1\]\]/[[1, 0], [1, 0]]/" twice &&
	fails 1 "^roi: twice: .roi.meta record 1: functions\[0\].edges\[1\]: \[1, 0\] is counted twice$" "$ROI" ops twice &&
	edges "s/\[\[1, 0\], \[1, 1\]\]/[[1, 0], [1, 2]]/" no-succ &&
	fails 1 "^roi: no-succ: .roi.meta record 1: functions\[0\].edges\[1\]\[1\]: 2 is out of range (0 to 1)$" \
		"$ROI" ops no-succ &&
	edges "s/\[\[1, 0\], \[1, 1\]\]/[[1, 0], [-2, 1]]/" from &&
	fails 1 "^roi: from: .roi.meta record 1: functions\[0\].edges\[1\]\[0\]: -2 is out of range (-1 to 3)$" \
		"$ROI" ops from &&
	edges "s/\[\[1, 0\], \[1, 1\]\]/[[1, 0], 1]/" flat &&
	fails 1 "^roi: flat: .roi.meta record 1: functions\[0\].edges\[1\]: must be an array of 2 integers$" "$ROI" ops flat &&
	# (block 2 -> 1 counted instead of 1 -> 3: the loop is cut twice, the way out never)
	edges "s/\[\[1, 0\], \[1, 1\]\]/[[1, 0], [2, 0]]/" cycle &&
	fails 1 "^roi: cycle: .roi.meta record 1: functions\[0\].edges: the edges not counted close a cycle through block [0-9]*: the counts around it follow from no counter$" \
		"$ROI" ops cycle &&
	edges "s/{\"succ\": \[-1\]/{\"succ\": []/" never-left &&
	fails 1 "^roi: never-left: .roi.meta record 1: functions\[0\].blocks\[3\]: no successor and not in .fake.: it is never left$" \
		"$ROI" ops never-left
'

test_expect_success 'malformed model JSON: file, line and column' '
	cat >broken.json <<-\EOF &&
	{
	  "roi_model": 1,
	  "part": "ATmega32U4"
	  "arch": "avr"
	}
	EOF
	fails 1 "^roi: broken.json:4:3: malformed JSON$" "$ROI" estimate --model broken.json prog &&
	printf "{\"roi_model\": 1,\n \"costs\": [1, 2,]}\n" >comma.json &&
	fails 1 "^roi: comma.json:2:17: malformed JSON$" "$ROI" estimate --model comma.json prog &&
	: >empty.json &&
	fails 1 "^roi: empty.json:1:1: malformed JSON$" "$ROI" estimate --model empty.json prog
'

test_expect_success 'model schema errors name the field' '
	sed "s/\"cycles\": 1.25/\"cyles\": 1.25/" avr.json >typo.json &&
	fails 1 "^roi: typo.json: costs\[4\]: missing .cycles.$" "$ROI" estimate -m typo.json prog &&
	sed "s/\"class\": \"int\"/\"class\": \"integer\"/" avr.json >class.json &&
	fails 1 "^roi: class.json: costs\[3\].class: unknown value .integer." "$ROI" estimate -m class.json prog &&
	sed "s/\"clock_hz\": 16000000,//" avr.json >noclock.json &&
	fails 1 "^roi: noclock.json: missing .clock_hz.$" "$ROI" estimate -m noclock.json prog &&
	sed "s/\"int\": 16,/\"int\": \"16\",/" avr.json >abi.json &&
	fails 1 "^roi: abi.json: abi.int: must be an integer$" "$ROI" estimate -m abi.json prog &&
	sed "s/\"roi_model\": 1/\"roi_model\": 9/" avr.json >v9.json &&
	fails 1 "^roi: v9.json: unsupported model version 9" "$ROI" estimate -m v9.json prog &&
	sed "s/\"type\": \"i16\", \"cycles\": 2/\"type\": \"i16\", \"operand\": \"sometimes\", \"cycles\": 2/" avr.json >operand.json &&
	fails 1 "^roi: operand.json: costs\[0\]: operand .sometimes. is not \"const\", \"pow2\", \"wide\", \"local\", \"global\", \"table\", \"paired\", \"widen\", \"sign\", or a shift amount (0 to 63)$" \
		"$ROI" estimate -m operand.json prog &&
	sed "s/\"type\": \"u16\", \"cycles\": 4/\"type\": \"u16\", \"subscripts\": 1, \"cycles\": 4/" avr.json >subs.json &&
	fails 1 "^roi: subs.json: costs\[2\].subscripts" "$ROI" estimate -m subs.json prog
'

test_expect_success 'a truncated profile' '
	head -c 60 prog.roi >cut.roi &&
	fails 1 "^roi: cut.roi:4: .*missing end line (truncated profile?)$" "$ROI" estimate prog cut.roi &&
	head -n 4 prog.roi >lines.roi &&
	fails 1 "^roi: lines.roi:5: missing end line (truncated profile?)$" "$ROI" estimate prog lines.roi &&
	: >empty.roi &&
	fails 1 "^roi: empty.roi:1: " "$ROI" estimate prog empty.roi
'

test_expect_success 'a profile with a bad CRC' '
	sed "s/ 11 10 1$/ 11 10 2/" prog.roi >edited.roi &&
	fails 1 "^roi: edited.roi:5: CRC mismatch: end line says $(crc32 <body), content has " \
		"$ROI" estimate prog edited.roi
'

test_expect_success 'malformed profile lines' '
	sed "s/^fn .*/& 5/" body >extra && seal extra >extra.roi &&
	fails 1 "^roi: extra.roi:4: more than the 4 counts announced$" "$ROI" estimate prog extra.roi &&
	sed "s/^roi-profile 1/roi-profile 2/" body >v2 && seal v2 >v2.roi &&
	fails 1 "^roi: v2.roi:1: unsupported profile version 2" "$ROI" estimate prog v2.roi &&
	fails 1 "^roi: prog:1: not a roi profile" "$ROI" estimate prog prog
'

test_expect_success 'a function named twice in a profile' '
	{ cat body && grep "^fn " body; } >twice && seal twice >twice.roi &&
	fails 1 "^roi: twice.roi:5: function 0 of unit 9f86d081884c7d65 appears twice (first on line 4)$" \
		"$ROI" estimate prog twice.roi
'

test_expect_success 'a profile from another build' '
	# another build: main multiplies twice per turn
	sed "s/\[1, 0, 6, 1\]/[1, 0, 6, 2]/" meta.in >other.in &&
	other=$(fn_checksum other.in 0) &&
	sed "s/CHECKSUM/$other/" other.in >other.json && elf_with_meta other other.json &&
	fails 1 "^roi: prog.roi: function main (unit 9f86d081884c7d65) does not match other: checksum $(cat checksum) != $other (profile from another build: run the program again for a new one)$" \
		"$ROI" estimate other prog.roi &&
	sed "s/ 4 1 11 10 1$/ 3 1 11 10/" body >short && seal short >short.roi &&
	fails 1 "^roi: short.roi: function main (unit 9f86d081884c7d65) does not match prog: 3 counters != 4 blocks" \
		"$ROI" estimate prog short.roi &&
	sed "s/^fn 9f86d081884c7d65/fn 0000000000000001/" body >unit && seal unit >unit.roi &&
	fails 1 "^roi: unit.roi: unit 0000000000000001 is not in prog (profile from another build: run the program again for a new one)$" \
		"$ROI" estimate prog unit.roi
'

test_expect_success 'usage errors exit 2' '
	fails 2 "^roi: unknown command .frobnicate." "$ROI" frobnicate &&
	fails 2 "^roi estimate: unknown option .--bogus." "$ROI" estimate --bogus prog &&
	fails 2 "^roi estimate: missing PROGRAM" "$ROI" estimate &&
	fails 2 "^roi estimate: option .--model. needs a value" "$ROI" estimate prog --model &&
	fails 2 "^roi ops: unexpected argument .b." "$ROI" ops a b &&
	"$ROI" estimate --help >out && test_grep "^usage: roi estimate" out &&
	"$ROI" --help >out && test_grep "^  estimate " out
'

test_done
