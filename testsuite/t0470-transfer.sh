#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi transfer: a firmware'"'"'s counts from a host run of the same sources

The plugin records the source location (line, column, inlined copy) of what
every block evaluates. roi transfer finds the firmware'"'"'s block counts that
evaluate each location as often as the host run did and keep every block'"'"'s
flow. The truth is the firmware'"'"'s own run in simavr: for the matrix example
and the CRC-8 kernel, whose AVR -Os blocks differ from the host -O0 ones
(loop rotation, a bit loop), the counts must be those, counter for counter.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
avr_cc () { avr-gcc -mmcu=atmega32u4 -g "$@"; }
roi_avr () { "$ROI" run --target avr --mcu atmega32u4 "$@"; }
CORPUS=$TEST_DIRECTORY/../contrib/calibration
# fn_lines PROFILE: its counter lines, what two profiles of one build must share
fn_lines () { grep "^fn " "$1"; }
# corpus_transfer NAME SOURCE OPT: the host -O0 run of SOURCE transferred onto its AVR OPT
# firmware (the command's output in out), and the firmware's own run: fn lines in
# transferred-NAME and measured-NAME
corpus_transfer () {
	roi_link "$1" -O0 -g "$2" &&
	"./$1" &&
	avr_cc "$3" -fplugin="$AVR_PLUGIN" "$2" -o "$1.elf" &&
	"$ROI" transfer -o "$1-transfer.roi" "$1.elf" "./$1" >out &&
	roi_avr -o "$1-run.roi" "$1.elf" >/dev/null &&
	fn_lines "$1-run.roi" >"measured-$1" &&
	fn_lines "$1-transfer.roi" >"transferred-$1"
}

cat >twice.c <<'CEOF'
static inline int sq(int v) { return v * v; }
int f(int a, int b) { return sq(a) + sq(b); }
CEOF

test_expect_success 'locs give each block its statements'"'"' lines and columns, one copy per inlined call' '
	gcc -O2 -g -fplugin="$ROI_PLUGIN" -c twice.c &&
	meta_json twice.o >twice.json &&
	jq -c "[.[0].functions[] | select(.name == \"f\") | .locs[] | select(.[2] == 1) | .[4]] | unique" twice.json >copies &&
	test_equal "[1,2]" "$(cat copies)" "copies of sq" &&
	star=$(awk "NR == 1 { print index(\$0, \"*\") }" twice.c) &&
	jq -c "[.[0].functions[] | select(.name == \"f\") | .locs[] | select(.[2] == 1) | .[3]] | unique" twice.json >columns &&
	test_equal "[$star]" "$(cat columns)" "column of sq'"'"'s multiply"
'

test_expect_success 'locs are not in the checksum: -g changes neither' '
	gcc -O2 -fplugin="$ROI_PLUGIN" -c twice.c -o nog.o &&
	meta_json nog.o >nog.json &&
	test_equal "$(jq -r ".[0].functions[1].checksum" twice.json)" "$(jq -r ".[0].functions[1].checksum" nog.json)"
'

test_expect_success 'matrix: host -O0 counts onto the AVR -Os firmware are simavr'"'"'s counts' '
	roi_link matrix -O0 -g "$EXAMPLES/matrix/matrix.c" &&
	./matrix >/dev/null &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" "$EXAMPLES/matrix/matrix.c" -o matrix.elf &&
	"$ROI" transfer matrix.elf ./matrix >out &&
	test_grep "^matrix.elf: counts of 1 function from ./matrix (./matrix.roi): [0-9]* of [0-9]* source locations matched; profile matrix.elf.roi$" out &&
	! grep "otherwise than" out &&
	! grep "coming in and going out" out &&
	roi_avr -o run.roi matrix.elf >/dev/null &&
	fn_lines run.roi >measured &&
	fn_lines matrix.elf.roi >transferred &&
	test_cmp measured transferred
'

test_expect_success 'the transferred profile is one roi estimate prices like the measured one' '
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-Os.json" matrix.elf matrix.elf.roi >t.json &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4-Os.json" matrix.elf run.roi >m.json &&
	test_equal "$(jq .total.cycles m.json)" "$(jq .total.cycles t.json)"
'

test_expect_success 'an AVR -O0 run transfers onto the -Os build of the same source' '
	avr_cc -O0 -fplugin="$AVR_PLUGIN" "$EXAMPLES/matrix/matrix.c" -o matrix-O0.elf &&
	roi_avr matrix-O0.elf >/dev/null &&
	"$ROI" transfer -o from-O0.roi matrix.elf matrix-O0.elf matrix-O0.elf.roi >out &&
	fn_lines from-O0.roi >transferred &&
	test_cmp measured transferred
'

test_expect_success 'kernel-crc8: the bit loop'"'"'s arms get their counts too' '
	corpus_transfer crc8 "$CORPUS/kernel-crc8.c" -Os &&
	test_cmp measured-crc8 transferred-crc8
'

test_expect_success 'micro-global: the inner loops'"'"' entries come from the source'"'"'s loops' '
	# avr-gcc -Os leaves the outer loop no location the host build has (its test
	# carries the for keyword'"'"'s): only the inner loops'"'"' entries (40 each, the
	# host'"'"'s) tell 640 evaluations of their bodies from 40 runs of 16 rather
	# than 214 of 3
	corpus_transfer global "$CORPUS/micro-global.c" -Os &&
	test_cmp measured-global transferred-global
'

test_expect_success 'a value counter whose column differs between the compilers matches by its line' '
	corpus_transfer bf "$CORPUS/kernel-block-float.c" -O0 &&
	test_grep " 6 of 6 value counters;" out &&
	test_cmp measured-bf transferred-bf
'

cat >clear.c <<'CEOF'
#include <string.h>
struct rec { long a, b, c; };
volatile long sink;
void clear(struct rec *r) { memset(r, 0, sizeof *r); }
int main(void) { struct rec r; for (int i = 0; i < 200; i++) { clear(&r); sink = r.b; } return 0; }
CEOF

# By hand: 200 memsets of a struct of three longs, 24 bytes each on the host (LP64), 12 on the
# ATmega32U4 (a long is 4 bytes): the firmware's 2,400 bytes, not the host's 4,800.
test_expect_success 'a memset of a struct: the firmware'"'"'s size, not the host'"'"'s' '
	corpus_transfer clear clear.c -Os &&
	test_cmp measured-clear transferred-clear &&
	"$ROI" estimate --json clear.elf clear-transfer.roi >clear.json &&
	test_equal 2400 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memset\") | .count] | add" clear.json)" &&
	meta_json clear >clear-meta.json &&
	test_equal 0 "$(jq "[.[].functions[].blocks[] | select(.value)] | length" clear-meta.json)" "value counters"
'

cat >shift.c <<'CEOF'
#include <stdint.h>
volatile long sink;
volatile int32_t sink32;
long shl(long x, int n) { return x << n; }
int32_t shl32(int32_t x, int n) { return x << n; }
int main(void) { for (int i = 0; i < 64; i++) { sink = shl(1, i & 31); sink32 = shl32(1, i & 31); } return 0; }
CEOF

# A host long is 64 bits: its shift by a run-time amount counts the passes of the 64-bit routine
# an 8-bit core would call (n / 8 + n % 8), the firmware's 32-bit long the bits n. A sum of passes
# gives no sum of bits: the transfer says so. An int32_t is 32 bits on both: nothing to say.
test_expect_success 'a shift of a long: the host counts passes, the firmware bits: said' '
	corpus_transfer shift shift.c -O0 &&
	test_grep "^1 shift of a long (first: shift.c:4:[0-9]*) counted on ./shift as a 64-bit routine" out &&
	test_grep "where the firmware.s 32-bit long shifts by n bits: not transferred exactly" out &&
	"$ROI" transfer --json -o shift2.roi shift.elf ./shift >json &&
	test_equal 1 "$(jq .long_shift_passes json)" &&
	sed -i "s/long/int32_t/g" shift.c &&
	corpus_transfer shift shift.c -O0 &&
	! grep "shift of a long" out &&
	test_cmp measured-shift transferred-shift
'

cat >outofline.c <<'CEOF'
static inline int sq(int v) { return v * v + 1; }
int (*fp)(int) = sq;
int gen_a(int v) { int r = 0; for (int i = 0; i < v; i++) r += 2 * i; return r; }
int gen_b(int v) { int r = 0; for (int i = 0; i < v; i++) r += 5 * i; return r; }
volatile int out;
int main(void) { int t = 0; for (int i = 0; i < 200; i++) t += sq(i) + gen_a(i & 3) + gen_b(i & 7); out = t + fp(3); return 0; }
CEOF

# avr-gcc -O2 inlines gen_a and gen_b into main and keeps their out-of-line copies, which no call
# is left to: they run 0 times (simavr), not the host'"'"'s 200 calls; sq is called once, through fp.
test_expect_success 'an inlined function'"'"'s out-of-line copy gets the calls left to it, not all' '
	corpus_transfer outofline outofline.c -O2 &&
	"$ROI" estimate --json outofline.elf outofline-transfer.roi >tr.json &&
	"$ROI" estimate --json outofline.elf outofline-run.roi >run.json &&
	for f in gen_a gen_b sq
	do
		test_equal "$(jq "[.functions[] | select(.name == \"$f\") | .calls] | add" run.json)" \
			"$(jq "[.functions[] | select(.name == \"$f\") | .calls] | add" tr.json)" "calls of $f" || return 1
	done &&
	test_equal 0 "$(jq "[.functions[] | select(.name == \"gen_a\") | .calls] | add" run.json)" "gen_a by simavr"
'

# Functions a macro defines: every statement of one use has the use's location (GCC's expansion
# point), two uses on one line differ only by column; the locations' spelling in the macro tells
# their branches apart. The truth is simavr's run of each firmware.
cat >macro.c <<'CEOF'
#include <stdint.h>
#define CLAMP_FN(name, lo, hi) \
	static __attribute__((noinline)) int16_t name(int16_t x) \
	{ if (x < (lo)) return (lo); if (x > (hi)) return (hi); return x; }
#define SCALE_FN(name, k) static __attribute__((noinline)) int16_t name(int16_t x) { int16_t s = 0; for (uint8_t i = 0; i < (k); i++) { if (x & (1 << i)) s += x; else s -= 1; } return s; }
CLAMP_FN(clamp_a, 0, 10) CLAMP_FN(clamp_b, -50, 100)
SCALE_FN(scale_a, 3)
SCALE_FN(scale_b, 7)
volatile int16_t sink;
int main(void)
{
	for (int16_t v = -60; v < 120; v += 3) {
		sink = clamp_a(v);
		sink = clamp_b(v);
		sink = scale_a(v);
		sink = scale_b(v);
	}
	return 0;
}
CEOF

test_expect_success 'functions a macro defines: each branch its own counts, at -O0 and -Os' '
	gcc -O0 -g -fplugin="$ROI_PLUGIN" -c macro.c -o macro-host.o &&
	meta_json macro-host.o >macro.json &&
	jq -c "[.[0].functions[] | select(.name == \"clamp_a\") | .locs[] | .[6:8]] | unique" macro.json >spelled &&
	test_equal "[4]" "$(jq -c "[.[][0]] | unique" spelled)" "clamp_a: spelled on the macro body'"'"'s line" &&
	test_equal 5 "$(jq length spelled)" "clamp_a: two tests and three returns, apart" &&
	corpus_transfer macro macro.c -O0 &&
	test_cmp measured-macro transferred-macro &&
	corpus_transfer macro-s macro.c -Os &&
	test_cmp measured-macro-s transferred-macro-s
'

test_expect_success 'a report that cannot be written (a full disk) is an error, not a success' '
	test_must_fail "$ROI" transfer -o full.roi clear.elf ./clear >/dev/full 2>err &&
	test_grep "^roi: cannot write the output$" err
'

test_expect_success 'a location the two builds evaluate differently is named' '
	roi_link fir -O0 -g "$EXAMPLES/fir/fir.c" &&
	./fir &&
	avr_cc -Os -fplugin="$AVR_PLUGIN" "$EXAMPLES/fir/fir.c" -o fir.elf &&
	"$ROI" transfer fir.elf ./fir >out &&
	test_grep "^1 location evaluated more than 1 % otherwise than in ./fir (the builds differ there); most: fir.c:28:28: source 968, target [0-9]*$" out &&
	"$ROI" transfer --json fir.elf ./fir >out.json &&
	test_equal 1 "$(jq .disagree out.json)" &&
	test_equal 0 "$(jq .flow_off out.json)" &&
	jq -e ".most | startswith(\"fir.c:28:28: source 968, \")" out.json &&
	jq -e ".matched > 0 and .matched <= .locations and .profile == \"fir.elf.roi\"" out.json
'

test_expect_success 'a transferred profile names its source; estimate and report say the counts are estimated' '
	test_equal "transferred ./matrix" "$(sed -n 4p matrix.elf.roi)" &&
	"$ROI" estimate matrix.elf matrix.elf.roi >est &&
	test_grep "^profile   matrix.elf.roi, 1 run of ./matrix, transferred (roi transfer): estimated counts$" est &&
	test_equal "\"./matrix\"" "$(jq .transferred_from t.json)" &&
	test_equal null "$(jq .transferred_from m.json)" &&
	"$ROI" report --json matrix.elf matrix.elf.roi >r.json &&
	test_equal "[\"./matrix\"]" "$(jq -c "[.. | objects | .transferred_from? // empty]" r.json)" &&
	echo "function main ops:mul <= 60ops" >b.txt &&
	"$ROI" budget check --budgets b.txt matrix.elf matrix.elf.roi >b.out &&
	test_grep "^profile   matrix.elf.roi, 1 run of ./matrix, transferred (roi transfer): estimated counts$" b.out &&
	"$ROI" budget check --json --budgets b.txt matrix.elf matrix.elf.roi >b.json &&
	test_equal "\"./matrix\"" "$(jq .transferred_from b.json)" &&
	"$ROI" budget check --junit b.xml --budgets b.txt matrix.elf matrix.elf.roi >/dev/null &&
	test_grep "<property name=\"transferred_from\" value=\"./matrix\"/>" b.xml
'

test_expect_success 'a run of the program starts a new profile rather than add to transferred counts' '
	roi_link matrix-o2 -O2 -g "$EXAMPLES/matrix/matrix.c" &&
	"$ROI" transfer matrix-o2 ./matrix >out &&
	test_equal "transferred ./matrix" "$(sed -n 4p matrix-o2.roi)" &&
	cp matrix-o2.roi transferred.roi &&
	./matrix-o2 2>err &&
	test_grep "^roi: profile ..\/matrix-o2.roi. is from a different build (its counts were transferred from another build.s run by roi transfer); kept it as ..\/matrix-o2.roi.stale. and started a new one$" err &&
	test_cmp transferred.roi matrix-o2.roi.stale &&
	test_equal 2 "$(sed -n 3,4p matrix-o2.roi | grep -c "^runs 1$\|^fn ")" "a new profile, measured" &&
	! grep "^transferred" matrix-o2.roi
'

test_expect_success 'transferring a transferred profile again warns: estimates of estimates' '
	"$ROI" transfer -o again.roi matrix.elf ./matrix-o2 transferred.roi >out 2>err &&
	test_grep "^roi: warning: transferred.roi: its counts were themselves transferred from ./matrix.s run, not measured; the new profile names ./matrix-o2$" err &&
	"$ROI" transfer -o once.roi matrix.elf ./matrix-o2 matrix-o2.roi >out 2>err &&
	! grep "themselves transferred" err
'

test_expect_success 'the transferred line: right after runs, with a path' '
	{ head -3 matrix.elf.roi; echo "transferred"; tail -n +5 matrix.elf.roi; } >t2.roi &&
	test_must_fail "$ROI" estimate matrix.elf t2.roi 2>err2 &&
	test_grep "^roi: t2.roi:4: expected .transferred PATH.$" err2 &&
	{ head -3 matrix.elf.roi; sed -n 5p matrix.elf.roi; sed -n 4p matrix.elf.roi; tail -n +6 matrix.elf.roi; } >t3.roi &&
	test_must_fail "$ROI" estimate matrix.elf t3.roi 2>err3 &&
	test_grep "^roi: t3.roi:5: the transferred line must come right after the runs line$" err3
'

test_expect_success 'a build without -g: the metadata says so, and transfer warns' '
	avr_cc -Os -g0 -fplugin="$AVR_PLUGIN" "$EXAMPLES/fir/fir.c" -o fir-nog.elf &&
	avr-objcopy --dump-section .roi.meta=nog.bin fir-nog.elf /dev/null &&
	test_equal false "$(tr "\0" "\n" <nog.bin | jq -s ".[0].debug")" &&
	test_equal true "$(meta_json matrix | jq ".[0].debug")" &&
	"$ROI" transfer -o nog.roi fir-nog.elf ./fir >out 2>err &&
	test_grep "^roi: warning: fir-nog.elf: .*fir.c was compiled without -g, so the copies of an inlined function are not told apart and their evaluations mix (docs/transfer.md)$" err &&
	"$ROI" transfer -o g.roi fir.elf ./fir >out 2>err &&
	! grep "without -g" err
'

test_expect_success 'no location in common, another build'"'"'s profile, missing arguments: errors' '
	test_must_fail "$ROI" transfer fir.elf ./matrix 2>err1 &&
	test_grep "^roi: ./matrix and fir.elf have no source location in common (not builds of the same sources?)$" err1 &&
	test_must_fail "$ROI" transfer matrix.elf ./matrix ./fir.roi 2>err2 &&
	test_grep "^roi: ./fir.roi: unit [0-9a-f]* is not in ./matrix (profile from another build: run the program again for a new one)$" err2 &&
	{ "$ROI" transfer matrix.elf 2>err3; test_equal 2 $? "exit status"; } &&
	test_grep "needs a FIRMWARE and a PROGRAM" err3
'

test_expect_success 'a program built without the locations: a clear error' '
	objcopy --dump-section .roi.meta=old.bin matrix /dev/null &&
	tr "\0" "\n" <old.bin | jq -c "del(.functions[].locs)" | tr "\n" "\0" >new.bin &&
	objcopy --update-section .roi.meta=new.bin matrix old-matrix &&
	test_must_fail "$ROI" transfer matrix.elf ./old-matrix ./matrix.roi 2>err &&
	test_grep "^roi: ./old-matrix: its roi metadata has no source locations (\"locs\": compiled by an older roi plugin?)$" err
'

test_done
