#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi on hostile input: nothing hidden, nothing endless, no silent wrong number

What a probe of roi found (issue 27), each a class of input: a FIFO or a device
where a file is expected, a file larger than its format can hold, an ELF whose
sections lie past its end. Each must give one line naming the file and what is
wrong, exit 1, and never block or grow without bound.

The program is counted by the plugin, so its metadata is what roi reads every
day; the bad inputs are made from it and its profile.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# refused PATTERN CMD...: CMD exits 1 within 20 s (so not by a signal, not blocked) and prints
# exactly one line on stderr, which matches PATTERN.
refused () {
	pattern=$1
	shift
	if timeout 20 "$@" >out 2>err; then got=0; else got=$?; fi
	test_equal 1 "$got" "exit status of '$*'" &&
	test_equal 1 "$(wc -l <err | tr -d ' ')" "lines on stderr of '$*'" &&
	test_grep "$pattern" err
}

# edit_meta IN OUT SED-SCRIPT: a copy of IN whose .roi.meta went through sed (which must change it).
edit_meta () {
	objcopy --dump-section .roi.meta=meta.bin "$1" /dev/null &&
	sed "$3" meta.bin >meta.new &&
	! cmp -s meta.bin meta.new &&
	objcopy --update-section .roi.meta=meta.new "$1" "$2"
}

# reseal IN OUT SED-SCRIPT: the profile IN edited by sed (which must change it), with a new end line
# whose CRC is right: a valid profile, as an editor that knows the format makes one.
reseal () {
	sed "/^end /d" "$1" >body &&
	sed "$3" body >body.new &&
	! cmp -s body body.new &&
	{ cat body.new && echo "end $(grep -c "^fn " body.new) $(crc32 <body.new)"; } >"$2"
}

# past_end ELF SECTION: the section's size in the (x86-64) header set to 2^62, far past the end.
past_end () {
	shoff=$(readelf -h "$1" | sed -n "s/.*Start of section headers: *\([0-9]*\).*/\1/p") &&
	idx=$(readelf -S -W "$1" | sed -n "s/^ *\[ *\([0-9]*\)\] $2 .*/\1/p") &&
	test -n "$shoff" && test -n "$idx" &&
	printf "\000\000\000\000\000\000\000\100" |
		dd of="$1" bs=1 seek=$((shoff + idx * 64 + 32)) conv=notrunc 2>/dev/null
}

test_expect_success 'setup: a counted program, its profile, a model' '
	cat >prog.c <<-\EOF &&
	volatile unsigned sink;
	int main(void)
	{
		for (unsigned i = 0; i < 10; i++)
			sink += i;
		return 0;
	}
	EOF
	# (a counter per block: the profile edits below name blocks)
	roi_link prog -O0 -fplugin-arg-roi-block-counters prog.c &&
	ROI_OUTPUT=prog.roi ./prog &&
	cp "$ROI_SRC/models/atmega32u4.json" model.json &&
	"$ROI" estimate --model model.json prog prog.roi >out &&
	printf "total ops <= 1000000ops\n" >budgets.txt &&
	"$ROI" budget check --budgets budgets.txt prog prog.roi >out
'

# What roi writes is written beside its name and renamed over it (base/atomic.c): a link planted
# at the name is replaced, never written through, and a failed write leaves the old file.
test_expect_success 'a link at an output name is replaced, not written through: reports, HTML, profiles' '
	echo precious >victim &&
	ln -s victim report.xml &&
	"$ROI" budget check --budgets budgets.txt --junit report.xml prog prog.roi >out &&
	test_equal precious "$(cat victim)" &&
	test -f report.xml && ! test -h report.xml &&
	grep -q "<testsuite" report.xml &&
	mkdir html && ln -s ../victim html/index.html &&
	"$ROI" report --html html prog prog.roi >out &&
	test_equal precious "$(cat victim)" &&
	! test -h html/index.html && grep -q "<html" html/index.html &&
	ln -s victim moved.roi &&
	"$ROI" transfer -o moved.roi prog ./prog >out 2>err &&
	test_equal precious "$(cat victim)" &&
	! test -h moved.roi && grep -q "^roi-profile" moved.roi &&
	! ls | grep -q "\.[A-Za-z0-9]\{6\}$"
'

test_expect_success 'an output that cannot be written: one line, the old file kept, no temporary left' '
	mkdir out.xml && echo old >out.xml/keep &&
	status 1 "$ROI" budget check --budgets budgets.txt --junit out.xml prog prog.roi >out 2>err &&
	test_grep "^roi: out.xml: cannot write the JUnit report: Is a directory$" err &&
	test_equal old "$(cat out.xml/keep)" &&
	! ls | grep -q "^out.xml\." &&
	status 1 "$ROI" budget check --budgets budgets.txt --junit nodir/report.xml prog prog.roi >out 2>err &&
	test_grep "^roi: nodir/report.xml: No such file or directory$" err
'

test_expect_success 'a FIFO as profile, program, model or budget file is refused, not waited on' '
	mkfifo fifo &&
	refused "^roi: fifo: not a regular file$" "$ROI" estimate prog fifo &&
	refused "^roi: fifo: not a regular file$" "$ROI" estimate fifo prog.roi &&
	refused "^roi: fifo: not a regular file$" "$ROI" ops fifo &&
	refused "^roi: fifo: not a regular file$" "$ROI" estimate --model fifo prog prog.roi &&
	refused "^roi: fifo: not a regular file$" "$ROI" budget check --budgets fifo prog prog.roi
'

test_expect_success 'a device that never ends is refused before a byte is read' '
	refused "^roi: /dev/zero: not a regular file$" "$ROI" estimate prog /dev/zero &&
	refused "^roi: /dev/urandom: not a regular file$" "$ROI" estimate --model /dev/urandom prog prog.roi &&
	refused "^roi: /dev/zero: not a regular file$" "$ROI" budget check --budgets /dev/zero prog prog.roi &&
	refused "^roi: /dev/zero: not a regular file$" "$ROI" ops /dev/zero &&
	refused "^roi: .: Is a directory$" "$ROI" estimate prog .
'

test_expect_success 'a file larger than its format can hold is refused by its size (sparse files)' '
	truncate -s 1025M big.roi &&
	refused "^roi: big.roi: larger than 1024 MiB" "$ROI" estimate prog big.roi &&
	truncate -s 65M big.json &&
	refused "^roi: big.json: larger than 64 MiB" "$ROI" estimate --model big.json prog prog.roi &&
	cp budgets.txt big.txt && truncate -s 17M big.txt &&
	refused "^roi: big.txt: larger than 16 MiB" "$ROI" budget check --budgets big.txt prog prog.roi
'

test_expect_success 'an ELF section larger than the file is named, not "no error"' '
	cp prog meta-past && past_end meta-past .roi.meta &&
	refused "^roi: meta-past: damaged ELF file: section .roi.meta extends past the end of the file" \
		"$ROI" estimate meta-past prog.roi &&
	refused "^roi: meta-past: damaged ELF file: section .roi.meta extends past the end of the file" \
		"$ROI" ops meta-past &&
	cp prog names-past && past_end names-past .shstrtab &&
	refused "^roi: names-past: damaged ELF file: section [0-9]* extends past the end of the file" "$ROI" ops names-past
'

test_expect_success 'a key twice in a model: an error naming the file, the path and the key' '
	sed "s/\"clock_hz\": 16000000,/\"clock_hz\": 1, &/" model.json >clock.json &&
	refused "^roi: clock.json: duplicate key .clock_hz.$" "$ROI" estimate --model clock.json prog prog.roi &&
	sed "0,/\"cycles\": \([0-9.]*\)/s//\"cycles\": \1, \"cycles\": 1000/" model.json >cycles.json &&
	refused "^roi: cycles.json: costs\[0\]: duplicate key .cycles.$" "$ROI" estimate --model cycles.json prog prog.roi &&
	sed "s/\"char_signed\": true/&, \"int\": 32/" model.json >abi.json &&
	refused "^roi: abi.json: abi: duplicate key .int.$" "$ROI" estimate --model abi.json prog prog.roi
'

test_expect_success 'a model with two entries for the same operation: the second is not ignored silently' '
	cat >twice.json <<-\EOF &&
	{"roi_model": 1, "part": "P", "arch": "avr", "clock_hz": 16000000, "energy_per_cycle_j": 1e-9,
	 "abi": {"char": 8, "short": 16, "int": 16, "long": 32, "long long": 64, "pointer": 16,
	         "float": 32, "double": 32, "long double": 32, "char_signed": true},
	 "costs": [{"kind": "add", "type": "u16", "cycles": 2},
	           {"kind": "add", "class": "int", "cycles": 3},
	           {"kind": "load", "type": "u16", "access": "var", "cycles": 4},
	           {"kind": "add", "type": "u16", "cycles": 5, "note": "the same add"},
	           {"kind": "load", "type": "u16", "cycles": 4}]}
	EOF
	refused "^roi: twice.json: costs\[3\]: the same operation as costs\[0\] (add type=u16): one of them would be ignored$" \
		"$ROI" estimate --model twice.json prog prog.roi
'

test_expect_success 'a key twice in a metadata record: an error naming the record, the path and the key' '
	edit_meta prog dup-root "s/{\"roi\":1,/{\"roi\":1,\"opt\":\"O2\",/" &&
	refused "^roi: dup-root: .roi.meta record 1: duplicate key .opt.$" "$ROI" estimate dup-root prog.roi &&
	edit_meta prog dup-fn "s/\"static\":false,/&\"static\":true,/" &&
	refused "^roi: dup-fn: .roi.meta record 1: functions\[0\]: duplicate key .static.$" "$ROI" estimate dup-fn prog.roi &&
	edit_meta prog dup-block "s/{\"succ\":\[-1\],/&\"succ\":[],/" &&
	refused "^roi: dup-block: .roi.meta record 1: functions\[0\].blocks\[4\]: duplicate key .succ.$" "$ROI" ops dup-block
'

test_expect_success 'JSON nested deeper than cJSON reads is said to be, with the position' '
	awk "BEGIN { for (i = 0; i < 100000; i++) printf \"[\"; for (i = 0; i < 100000; i++) printf \"]\" }" >deep.json &&
	refused "^roi: deep.json:1:1001: JSON nested deeper than 1000 levels$" "$ROI" estimate --model deep.json prog prog.roi &&
	awk "BEGIN { for (i = 0; i < 2000; i++) printf \"{\\\"a\\\":\"; printf 1; for (i = 0; i < 2000; i++) printf \"}\" }" \
		>deep.meta && printf "\0" >>deep.meta &&
	objcopy --update-section .roi.meta=deep.meta prog deep &&
	refused "^roi: deep: .roi.meta record 1: JSON nested deeper than 1000 levels at byte 5000$" "$ROI" ops deep
'

test_expect_success 'a NUL byte, or the escape \\u0000 that makes one, in a model or a record' '
	{ head -c 100 model.json && printf "\0" && tail -c +101 model.json; } >nul.json &&
	refused "^roi: nul.json:[0-9]*:[0-9]*: NUL byte$" "$ROI" estimate --model nul.json prog prog.roi &&
	sed "s/\"part\": \"ATmega32U4\"/\"part\": \"AT\\\\u0000mega\"/" model.json >esc.json &&
	! cmp -s model.json esc.json &&
	refused "^roi: esc.json:[0-9]*:[0-9]*: .u0000 in a string" "$ROI" estimate --model esc.json prog prog.roi &&
	edit_meta prog esc "s/\"name\":\"main\"/\"name\":\"main\\\\u0000x\"/" &&
	refused "^roi: esc: .roi.meta record 1: .u0000 in a string (a NUL byte would cut it short) at byte [0-9]*$" \
		"$ROI" ops esc
'

test_expect_success 'an unknown key in a record: a misspelt one drops what it holds ("jumpz": no jumps)' '
	"$ROI" estimate --json prog prog.roi >est.json &&
	test_equal 1 "$(op_count est.json jump)" "the loop jumps to its test once" &&
	edit_meta prog jumpz "s/\"jumps\":/\"jumpz\":/" &&
	refused "^roi: jumpz: .roi.meta record 1: functions\[0\]: unknown key .jumpz.$" "$ROI" estimate jumpz prog.roi &&
	edit_meta prog colour "s/{\"roi\":1,/&\"colour\":\"red\",/" &&
	refused "^roi: colour: .roi.meta record 1: unknown key .colour.$" "$ROI" ops colour &&
	edit_meta prog ctyp "0,/\"ctype\":/s//\"ctyp\":/" &&
	refused "^roi: ctyp: .roi.meta record 1: ops\[0\]: unknown key .ctyp.$" "$ROI" ops ctyp &&
	edit_meta prog labels "s/{\"succ\":\[-1\],/&\"label\":true,/" &&
	refused "^roi: labels: .roi.meta record 1: functions\[0\].blocks\[4\]: unknown key .label.$" "$ROI" ops labels &&
	edit_meta prog loops "s/\"parent\":-1,/&\"depth\":1,/" &&
	refused "^roi: loops: .roi.meta record 1: functions\[0\].loops\[0\]: unknown key .depth.$" "$ROI" ops loops &&
	edit_meta prog abi "s/\"char_signed\":/\"wchar\":32,&/" &&
	refused "^roi: abi: .roi.meta record 1: abi: unknown key .wchar.$" "$ROI" ops abi
'

test_expect_success 'an unknown key in a model, at the top, in the ABI or in an entry' '
	sed "s/\"clock_hz\":/\"colour\": \"red\", &/" model.json >colour.json &&
	refused "^roi: colour.json: unknown key .colour.$" "$ROI" estimate --model colour.json prog prog.roi &&
	sed "s/\"char_signed\":/\"wchar\": 32, &/" model.json >wchar.json &&
	refused "^roi: wchar.json: abi: unknown key .wchar.$" "$ROI" estimate --model wchar.json prog prog.roi &&
	sed "0,/\"cycles\":/s//\"cost\": 1, &/" model.json >entry.json &&
	refused "^roi: entry.json: costs\[0\]: unknown key .cost.$" "$ROI" estimate --model entry.json prog prog.roi
'

test_expect_success 'a NUL byte in a budget file does not hide the failing budget after it' '
	printf "total ops <= 1000000ops\n\0\nfunction main ops <= 1ops\n" >nul-budget.txt &&
	if "$ROI" budget check --budgets nul-budget.txt prog prog.roi >out 2>err; then got=0; else got=$?; fi &&
	test_equal 1 "$got" "exit status" &&
	test_grep "^roi: nul-budget.txt:2:1: NUL byte$" err &&
	printf "function main ops <= 1ops # \0 \n" >nul-comment.txt &&
	refused "^roi: nul-comment.txt:1:29: NUL byte$" "$ROI" budget check --budgets nul-comment.txt prog prog.roi
'

test_expect_success 'a NUL byte in the program list of roi calibrate' '
	printf "\0\nkernel-crc8\n" >list.txt &&
	refused "^roi: list.txt:1:1: NUL byte$" "$ROI" calibrate --target avr --mcu atmega32u4 --plugin "$ROI_PLUGIN" \
		--base "$ROI_SRC/models/atmega32u4.json" --programs list.txt -o calibrated.json
'

test_expect_success 'an operation type no target has is an error in a budget or a model, not a pass' '
	printf "total ops:add:i99 <= 0ops\n" >i99.txt &&
	refused "^roi: i99.txt:1:15: unknown type .i99." "$ROI" budget check --budgets i99.txt prog prog.roi &&
	printf "total ops:load:u12 <= 0ops\n" >u12.txt &&
	refused "^roi: u12.txt:1:16: unknown type .u12." "$ROI" budget check --budgets u12.txt prog prog.roi &&
	printf "total ops:add:f24 <= 0ops\n" >f24.txt &&
	refused "^roi: f24.txt:1:15: unknown type .f24." "$ROI" budget check --budgets f24.txt prog prog.roi &&
	printf "total ops:add:i24 <= 0ops\ntotal ops:add:u128 <= 0ops\n" >wide.txt &&
	"$ROI" budget check --budgets wide.txt prog prog.roi >out &&
	sed "0,/\"type\": \"u16\"/s//\"type\": \"u99\"/" twice.json >u99.json &&
	refused "^roi: u99.json: costs\[0\].type: unknown value .u99." "$ROI" estimate --model u99.json prog prog.roi
'

test_expect_success 'counts whose operations overflow 64 bits are refused, not wrapped' '
	reseal prog.roi over.roi "s/^\(fn [^ ]* 0 [^ ]* 5 1\) 10 /\1 18446744073709551615 /" &&
	refused "^roi: over.roi: function main (unit [0-9a-f]*): the program.s operations overflow 64 bits (damaged or edited profile?)$" \
		"$ROI" estimate prog over.roi &&
	refused "^roi: over.roi: function main (unit [0-9a-f]*): the program.s operations overflow 64 bits" \
		"$ROI" report prog over.roi &&
	printf "total ops <= 1ops\n" >one.txt &&
	refused "^roi: over.roi: function main (unit [0-9a-f]*): the program.s operations overflow 64 bits" \
		"$ROI" budget check --budgets one.txt prog over.roi &&
	reseal prog.roi big.roi "s/^\(fn [^ ]* 0 [^ ]* 5 1\) 10 /\1 1000000000000000000 /" &&
	"$ROI" estimate prog big.roi >out
'

test_expect_success 'region calls that add up to more than 64 bits are refused' '
	printf "hooks include function main\nhooks include loop %s:4\n" "$PWD/prog.c" >hooks.txt &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=hooks.txt -o hooked prog.c "$ROI_LIB" &&
	ROI_OUTPUT=hooked.roi ./hooked &&
	test_equal 2 "$(grep -c "^region " hooked.roi)" &&
	reseal hooked.roi calls.roi "s/^\(region [^ ]* [01]\) [0-9]* /\1 9223372036854775808 /" &&
	refused "^roi: calls.roi:[0-9]*: region 1 of unit [0-9a-f]*: the program.s region calls overflow 64 bits" \
		"$ROI" report hooked calls.roi
'

test_expect_success 'model numbers out of any sane range are refused at load, naming the entry' '
	sed "0,/\"cycles\": [0-9.]*/s//\"cycles\": 1e308/" model.json >cycles.json &&
	refused "^roi: cycles.json: costs\[0\].cycles: 1e+308 is out of range (0 to 1e+09)$" \
		"$ROI" estimate --model cycles.json prog prog.roi &&
	sed "0,/\"cycles\": [0-9.]*/s//&, \"energy_j\": 1e300/" model.json >energy.json &&
	refused "^roi: energy.json: costs\[0\].energy_j: 1e+300 is out of range (0 to 1)$" \
		"$ROI" estimate --model energy.json prog prog.roi &&
	sed "s/\"clock_hz\": 16000000/\"clock_hz\": 1e300/" model.json >clock.json &&
	refused "^roi: clock.json: clock_hz: 1e+300 is out of range (1 to 1e+11)$" "$ROI" estimate --model clock.json prog prog.roi &&
	sed "s/\"energy_per_cycle_j\": [0-9.e-]*/\"energy_per_cycle_j\": 2/" model.json >epc.json &&
	refused "^roi: epc.json: energy_per_cycle_j: 2 is out of range (0 to 0.001)$" "$ROI" estimate --model epc.json prog prog.roi
'

test_expect_success 'a limit with more digits than a double holds is an error, not a limit of inf' '
	printf "total ops <= 1%0400dops\n" 0 >huge.txt &&
	refused "^roi: huge.txt:1:14: the limit has more digits than a number can hold$" \
		"$ROI" budget check --budgets huge.txt prog prog.roi
'

test_expect_success 'costs with callees past what a double holds: an error, never inf or nan in a report' '
	{
		echo "volatile int sink;" &&
		echo "__attribute__((noinline)) void f24(void) { sink++; }" &&
		for i in $(seq 23 -1 1); do
			echo "__attribute__((noinline)) void f$i(void) { for (int k = 0; k < 2; k++) f$((i + 1))(); }"
		done &&
		echo "int main(void) { f1(); return 0; }"
	} >chain.c &&
	# (a counter per block, as the edit below of each function'"'"'s four wants)
	roi_link chain -O0 -fplugin-arg-roi-block-counters chain.c &&
	ROI_OUTPUT=chain.roi ./chain &&
	"$ROI" report chain chain.roi >out &&
	# every f calls the next 2^50 times a call: 2^50^23 operations in f1 with its callees, while
	# the program itself counts only some 23 x 2^50 x 8 (it fits 64 bits)
	reseal chain.roi inf.roi "s/^\(fn [^ ]* [0-9]* [^ ]* 4\) [0-9]* [0-9]* [0-9]* [0-9]*$/\1 1 1125899906842624 1 1/" &&
	"$ROI" estimate chain inf.roi >out &&
	refused "^roi: inf.roi: function f[0-9]*: the cost with its callees is not a finite number" "$ROI" report chain inf.roi &&
	test_must_fail "$ROI" report --json --model model.json chain inf.roi >out 2>err &&
	test_grep "^roi: inf.roi: function f[0-9]*: the cost with its callees is not a finite number" err &&
	printf "function f1 ops <= 1ops\n" >f1.txt &&
	refused "^roi: inf.roi: function f[0-9]*: the cost with its callees is not a finite number" \
		"$ROI" budget check --budgets f1.txt chain inf.roi
'

test_done
