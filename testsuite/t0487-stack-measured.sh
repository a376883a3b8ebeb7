#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi run --measured: the stack a run reached, beside roi stack'"'"'s static figures

roi run --target avr --measured records the run'"'"'s peak below the stack
pointer main was called with, each function'"'"'s deepest below its entry (with
and without the interrupts that arrived meanwhile, and its own frame) and the
RAM left above the data. On the chain-and-interrupt program of t0485 the
figures are those of simavr/sp-peak.c, a helper that reads SP before every
instruction and runs no roi code, and roi stack'"'"'s static ones where the
deepest path runs; a recursion of known depth is that many frames (GCC'"'"'s
.su figures); the margin is RAMEND + 1 - the end of .bss (avr-nm) - the peak.
roi stack --measured-profile shows the figures beside its own and says loudly
when a measured one is above a complete static one; stack and ram-margin
budgets check the measured figures when a measured profile is given.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
MCU=atmega32u4
# The ATmega32U4's RAM ends at 0x0aff (its datasheet): RAMEND + 1
RAM_END=$((0xb00))

cc -O2 -Wall -Wextra $(pkg-config --cflags simavr 2>/dev/null || echo -I/usr/include/simavr) \
	"$TEST_DIRECTORY/simavr/sp-peak.c" -o sp-peak -lsimavr -lelf || exit 1
cp "$TEST_DIRECTORY/programs/stack-chain.c" chain.c &&
cp "$TEST_DIRECTORY/programs/stack-plain.c" plain.c || exit 1

# peak NAME FILE: a figure of sp-peak's output
peak () { sed -n "s/^$1 //p" "$2"; }
# mstack NAME FIELD FILE: a function's measured stack figure
mstack () { jq --arg n "$1" ".stack.functions[] | select(.name == \$n) | .$2" "$3"; }
# sdepth NAME FILE: roi stack's static depth of a function (FILE: its JSON)
sdepth () { jq --arg n "$1" '.functions[] | select(.name == $n) | .depth' "$2"; }
# carry_frame ELF: the stack the counters' carry routine takes (gcc-plugin/roi-counters-avr.cc),
# read from its code: the registers it pushes and the 2-byte return address. Every counted
# function calls it where a counter's low byte wraps, so roi stack puts it at the bottom of every
# counted path; the chain's counters never carry (an overflow every 256 cycles ends c's wait),
# so a counted function's measured depth is its static one less the routine's.
carry_frame () {
	echo $(($(avr-objdump -d "$1" | sed -n "/<__roi_avr_carry32_1>:$/,/ret$/p" | grep -c "	push	") + 2))
}
# su NAME FILE.su: GCC's own stack figure of a function
su () { sed -n "s/^.*:$1	\([0-9]*\)	static$/\1/p" "$2"; }

for opt in O0 Os; do
	test_expect_success "the chain at -$opt: peak, depths and frames are sp-peak's and roi stack's" '
		avr-gcc -mmcu=$MCU -$opt -c plain.c -o plain-$opt.o &&
		avr-gcc -mmcu=$MCU -$opt -gdwarf-2 -fplugin="$AVR_PLUGIN" chain.c plain-$opt.o -o chain-$opt.elf &&
		./sp-peak chain-$opt.elf $MCU a b c g __vector_23 plain_leaf >peak-$opt &&
		"$ROI" stack --json chain-$opt.elf >static-$opt.json &&
		"$ROI" run --target avr --mcu $MCU --measured chain-$opt.elf >out-$opt &&
		m=chain-$opt.elf.measured &&
		test_equal "$(peak main peak-$opt)" "$(jq .stack.peak $m)" "peak against sp-peak" &&
		carry=$(carry_frame chain-$opt.elf) &&
		test_equal 5 $carry "the carry routine'"'"'s frame" &&
		# (main'"'"'s path and the handler'"'"'s, each with the routine at its bottom)
		test_equal "$(jq .worst.depth static-$opt.json)" "$(($(jq .stack.peak $m) + 2 * carry))" "peak against the worst case" &&
		test_equal $((0xaff)) "$(jq .stack.top $m)" "top: __stack, RAMEND" &&
		test_equal $((0xaff - $(peak main peak-$opt))) "$(jq .stack.lowest $m)" "lowest" &&
		for f in a b c g __vector_23 plain_leaf; do
			# sp-peak counts the interrupt that came while a, b and c ran
			test_equal "$(peak $f peak-$opt)" "$(mstack $f with_interrupts $m)" "$f with interrupts" &&
			# (plain_leaf, compiled without roi, counts nothing)
			if [ $f = plain_leaf ]; then k=0; else k=$carry; fi &&
			test_equal "$(sdepth $f static-$opt.json)" "$(($(mstack $f depth $m) + k))" "$f depth" || return 1
		done &&
		test_equal "$(sdepth main static-$opt.json)" "$(($(mstack main depth $m) + carry))" "main depth" &&
		# a function that calls nothing: its own frame is its depth, GCC'"'"'s figure
		test_equal "$(jq ".functions[] | select(.name == \"c\") | .frame" static-$opt.json)" "$(mstack c frame $m)" "c frame" &&
		test_equal "$(jq ".functions[] | select(.name == \"b\") | .frame" static-$opt.json)" "$(mstack b frame $m)" "b frame" &&
		# one interrupt, one call of the handler: the vector'"'"'s jump is no second one
		test_equal 1 "$(mstack __vector_23 calls $m)" "handler calls" &&
		test_equal 1 "$(jq "[.functions[] | select(.name == \"__vector_23\")][0].calls" $m)" "functions[].calls" &&
		test_equal 0 "$(jq "[.call_sites[] | select(.callee == \"__vector_23\" and .how == \"jump\")] | length" $m)" &&
		test_grep "^stack     $(peak main peak-$opt) bytes at the deepest, from 0x0aff (the stack pointer main was called with) down to " out-$opt &&
		test_grep "^  c  *1  *$(mstack c depth $m)  *$(peak c peak-$opt)  *$(mstack c frame $m)$" out-$opt
	'
done

# down(k) calls itself k times: down(N) is N + 1 frames of down, under main'"'"'s. Both figures from
# GCC'"'"'s .su file, which roi does not read.
cat >rec.c <<'EOF'
#define KEEP __attribute__((noinline, noclone))

volatile unsigned char sink, n = 7;

KEEP unsigned char down(unsigned char k)
{
	volatile unsigned char pad[8];
	pad[k & 7] = k;
	return k ? pad[k & 7] + down(k - 1) : 0;
}

int main(void)
{
	sink = down(n);
	return 0;
}
EOF

for opt in O0 Os; do
	test_expect_success "a recursion 8 deep at -$opt: 8 frames of down, and main's" '
		avr-gcc -mmcu=$MCU -$opt -gdwarf-2 -fstack-usage rec.c -o rec-$opt.elf &&
		fd=$(su down rec.su) && fm=$(su main rec.su) &&
		test -n "$fd" && test -n "$fm" &&
		"$ROI" run --target avr --mcu $MCU --measured rec-$opt.elf >/dev/null &&
		m=rec-$opt.elf.measured &&
		test_equal $((8 * fd)) "$(mstack down depth $m)" "down" &&
		test_equal $((8 * fd + fm)) "$(mstack main depth $m)" "main" &&
		test_equal 8 "$(mstack down calls $m)" "calls" &&
		test_equal "$fd" "$(mstack down frame $m)" "frame" &&
		./sp-peak rec-$opt.elf $MCU down >p &&
		test_equal "$(peak main p)" "$(jq .stack.peak $m)"
	'
done

# The margin of the plain firmware (no plugin: no counters): the bytes from the end of .bss (the
# linker's __bss_end) up to the lowest stack pointer, that byte included.
test_expect_success 'the RAM margin: RAMEND + 1 - the end of .bss - the peak, of the build that ran' '
	avr-gcc -mmcu=$MCU -Os -gdwarf-2 chain.c plain-Os.o -o ship.elf &&
	./sp-peak ship.elf $MCU >p &&
	end=$(printf "%d" 0x$(avr-nm ship.elf | sed -n "s/^0080\([0-9a-f]*\) [BbD] __bss_end$/\1/p")) &&
	test $end -gt 256 &&
	"$ROI" run --target avr --mcu $MCU --measured ship.elf >out &&
	test_equal "$end" "$(jq .stack.data_end ship.elf.measured)" "end of the data" &&
	test_equal $((RAM_END - end - $(peak main p))) "$(jq .stack.margin ship.elf.measured)" "margin" &&
	test_equal false "$(jq .stack.heap ship.elf.measured)" &&
	test_grep "^margin    $((RAM_END - end - $(peak main p))) bytes between the end of .data, .bss and .noinit (0x0$(printf %x $end))" out
'

test_expect_success 'roi stack --measured-profile: the measured figures beside the static ones' '
	"$ROI" stack --measured-profile chain-Os.elf.measured chain-Os.elf >out 2>err &&
	test ! -s err &&
	m=chain-Os.elf.measured &&
	test_grep "^measured  $m: a run in simavr ($MCU) of this build; 7 of these functions ran, $(jq .stack.peak $m) bytes at the deepest$" out &&
	test_grep "^  c  *$(mstack c frame $m)  gcc  *$(sdepth c static-Os.json)  *$(mstack c depth $m)  c > __roi_avr_carry32_1$" out &&
	test_grep "^  worst  *$(jq .worst.depth static-Os.json)  *$(jq .stack.peak $m)  main at its deepest" out &&
	test_grep "^measured  margin $(jq .stack.margin $m) bytes" out &&
	! grep BUG out &&
	"$ROI" stack --json --measured-profile $m chain-Os.elf >s.json &&
	test_equal "true 0 false" "$(jq -r "[.measured.same_build, .measured.above, .worst.above] | join(\" \")" s.json)" &&
	test_equal "$(mstack b depth $m)" "$(jq ".functions[] | select(.name == \"b\") | .measured.depth" s.json)" &&
	test_equal "$(mstack main depth $m)" "$(jq ".roots[] | select(.root == \"main\") | .measured" s.json)" &&
	# the plain build, measured: another image
	"$ROI" stack --measured-profile ship.elf.measured chain-Os.elf >out &&
	test_grep "of $(pwd)/ship.elf (another build: its image differs)" out
'

test_expect_success 'a measured figure above a complete static one: a bug in roi, said loudly' '
	m=chain-Os.elf.measured &&
	c=$(mstack c depth $m) && s=$(sdepth c static-Os.json) &&
	up=$((s + 1 - c)) &&
	jq "(.stack.functions[] | select(.name == \"c\") | .depth) += $up | (.stack.functions[] | select(.name == \"c\") | .with_interrupts) += $up" \
		$m >deeper.measured &&
	"$ROI" stack --measured-profile deeper.measured chain-Os.elf >out 2>err &&
	test_grep "^BUG       1 measured figure is above its static one, which can never be: a bug in roi stack" out &&
	test_grep "^  c  .*  $((s + 1)) !  c > __roi_avr_carry32_1  *MEASURED DEEPER THAN ITS STATIC DEPTH$" out &&
	test_grep "^roi: warning: chain-Os.elf: c: measured $((s + 1)) bytes deep in deeper.measured, above its static depth of $s: a bug" err &&
	"$ROI" stack --json --measured-profile deeper.measured chain-Os.elf 2>/dev/null >s.json &&
	test_equal "1 true" "$(jq -r "[.measured.above, (.functions[] | select(.name == \"c\") | .measured.above)] | join(\" \")" s.json)"
'

test_expect_success 'budgets: the measured figures checked when a measured profile is given' '
	m=chain-Os.elf.measured &&
	p=$(jq .stack.peak $m) && i=$(mstack __vector_23 depth $m) && g=$(jq .stack.margin $m) &&
	cat >b.txt <<-EOF &&
	total stack <= ${p}bytes
	function __vector_23 stack <= $((i - 1))bytes
	total ram-margin >= ${g}bytes
	EOF
	status 3 "$ROI" budget check --budgets b.txt --measured-profile $m chain-Os.elf &&
	test_grep "^stack     stack and ram-margin: the measured run.s figures checked" out &&
	test_grep "^  b.txt:1  total stack  *$(jq .worst.depth static-Os.json) bytes  *$p bytes  *$p bytes  *0.0%  PASS$" out &&
	test_grep "^  b.txt:2  function __vector_23 stack  *[0-9]* bytes  *$i bytes  *$((i - 1)) bytes  .*FAIL  *over by 1 bytes$" out &&
	test_grep "^  b.txt:3  total ram-margin  *[0-9]* bytes  *$g bytes  *$g bytes  *0.0%  PASS$" out &&
	status 3 "$ROI" budget check --json --budgets b.txt --measured-profile $m chain-Os.elf &&
	mv out out.json &&
	test_equal "measured measured measured" "$(jq -r "[.results[].checked] | join(\" \")" out.json)" &&
	status 3 "$ROI" budget check --budgets b.txt chain-Os.elf &&
	test_grep "^stack     stack and ram-margin: the static figures checked" out
'

test_expect_success 'a recursion: the static figure cannot be bounded, the measured one is checked' '
	avr-gcc -mmcu=$MCU -Os -gdwarf-2 -fplugin="$AVR_PLUGIN" rec.c -o rec.elf &&
	"$ROI" run --target avr --mcu $MCU --measured rec.elf >/dev/null &&
	echo "function down stack <= 1KiB" >r.txt &&
	status 3 "$ROI" budget check --budgets r.txt rec.elf &&
	test_grep "FAIL  *at least [0-9]* bytes (recursive): roi cannot bound it$" out &&
	"$ROI" budget check --budgets r.txt --measured-profile rec.elf.measured rec.elf >out &&
	test_grep "^  r.txt:1  function down stack  *[0-9]* bytes  *$(mstack down depth rec.elf.measured) bytes  *1024 bytes  .*PASS" out
'

test_expect_success 'the measured profile'"'"'s stack, read strictly' '
	m=chain-Os.elf.measured &&
	jq ".stack.peak += 1" $m >x1 &&
	fails 1 "^roi: x1: stack: peak: [0-9]*, not top - lowest" "$ROI" stack --measured-profile x1 chain-Os.elf &&
	jq ".stack.margin += 1" $m >x2 &&
	fails 1 "^roi: x2: stack: margin: [0-9]*, not lowest + 1 - data_end" "$ROI" stack --measured-profile x2 chain-Os.elf &&
	jq ".stack.deepest = 1" $m >x3 &&
	fails 1 "^roi: x3: stack: unknown key .deepest." "$ROI" stack --measured-profile x3 chain-Os.elf &&
	jq "(.stack.functions[0].frame) = 10000" $m >x4 &&
	fails 1 "^roi: x4: stack.functions\[0\]: not frame <= depth <= with_interrupts" "$ROI" stack --measured-profile x4 chain-Os.elf &&
	jq "del(.stack)" $m >x5 &&
	fails 1 "^roi: x5: missing .stack." "$ROI" stack --measured-profile x5 chain-Os.elf &&
	# a version 1 file, from before the stack was measured: read, without stack figures
	jq "del(.stack) | .roi_measured = 1" $m >v1 &&
	"$ROI" stack --measured-profile v1 chain-Os.elf >out &&
	test_grep "^measured  v1: .*; no stack figures" out &&
	jq ".roi_measured = 1" $m >x6 &&
	fails 1 "^roi: x6: .stack. in a version 1 measured profile" "$ROI" stack --measured-profile x6 chain-Os.elf &&
	fails 2 "^roi stack: --measured-profile is shown by the text and JSON outputs" \
		"$ROI" stack --format dot --measured-profile $m chain-Os.elf
'

test_done
