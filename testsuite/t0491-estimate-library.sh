#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi estimate (per operation): calls into code without metadata

A call into a routine no counted block describes (avr-libc'"'"'s strtol, a file
compiled without the plugin) runs code the counts do not see. The per-operation
estimate prices such a call as the model'"'"'s entry of the call plus the
routine'"'"'s measured cost per call from the model'"'"'s routines (the table
--price machine prices with); a routine in no table is priced as the call
alone, and the totals say so by name. A routine whose bytes the model prices by
their own rows is not priced twice. The truth is simavr'"'"'s cycle count of the
plain firmware from main to the stop.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

AVR_PLUGIN=$ROI_BUILD/avr/roi.so
MODELS=$ROI_SRC/models
# builds NAME OPT SRC...: NAME-plain.elf and NAME.elf (counted, run in simavr)
builds () {
	name=$1 opt=$2
	shift 2
	avr-gcc -mmcu=atmega32u4 "$opt" "$@" -o "$name-plain.elf" &&
	avr-gcc -mmcu=atmega32u4 "$opt" -fplugin="$AVR_PLUGIN" "$@" -o "$name.elf" &&
	"$ROI" run --target avr --mcu atmega32u4 "$name.elf" >/dev/null
}
# simavr_cycles ELF: simavr's cycles of the plain firmware from main's first instruction to the stop
simavr_cycles () {
	"$ROI" run --target avr --mcu atmega32u4 --cycles-only --json "$1" | jq ".cycles - .main_cycle"
}
# within EST SIM PERCENT
within () {
	jq -n -e "(($1) - ($2)) / ($2) | fabs * 100 <= $3" >/dev/null ||
	{ echo "estimate $1 against simavr's $2: more than $3 % off" >&2; return 1; }
}

# 200 strtol calls (avr-libc, no metadata) and 200 32-bit divisions (libgcc, counted as the
# division operation and its quotient bits). The numbers are those of t0490, drawn at random
# from the range the model's strtol was measured on.
cat >parse.c <<'EOF'
#include <stdint.h>
#include <stdlib.h>
static const char *const words[8] = {"-15109", "-60455", "3501", "70639", "-87342", "-81011", "40479", "-75324"};
volatile long r;
volatile uint32_t num = 4000000000u, den = 7, q;
int main(void)
{
	char *end;
	for (uint8_t k = 0; k < 200; k++) {
		r = strtol(words[k & 7], &end, 10);
		q = num / (den + k);
	}
	return 0;
}
EOF

for opt in -O0 -Os; do
	model=$MODELS/atmega32u4-${opt#-}.json

	test_expect_success "strtol and a division at $opt: within 3 % of simavr, strtol priced by the model's routine" '
		builds parse$opt $opt parse.c &&
		"$ROI" estimate --json --model "$model" parse$opt.elf >est.json &&
		strtol=$(jq ".routines[] | select(.routine == \"strtol\") | .cycles" "$model") &&
		test_equal "[{\"callee\":\"strtol\",\"calls\":200,\"priced_by\":\"routine\"}]" \
			"$(jq -c "[.without_metadata[] | {callee, calls, priced_by}]" est.json)" &&
		test_equal "$(jq -n "200 * $strtol")" "$(jq ".without_metadata[0].routine_cycles" est.json)" &&
		test_equal "200 0 []" "$(jq -r "[.total.calls_without_metadata, .total.fallback_calls, (.total.fallback | tostring)] | @tsv" est.json | tr "\t" " ")" &&
		within "$(jq .total.cycles est.json)" "$(simavr_cycles parse$opt-plain.elf)" 3
	'
done

test_expect_success 'the text says the calls without metadata, in their table and the total' '
	"$ROI" estimate --model "$MODELS/atmega32u4-Os.json" parse-Os.elf >out &&
	test_grep "^  strtol  *200  *[0-9.]*  *[0-9.]*%  the call and the model.s routine, 815.70 a call$" out &&
	test_grep "^total .*; 200 calls without metadata, [0-9.]* cycles$" out
'

# mystery() is compiled without the plugin and is in no table: its loop is not in the estimate,
# which says so by name rather than pricing the call as if that were all
cp "$TEST_DIRECTORY/programs/mystery.c" mystery.c &&
cp "$TEST_DIRECTORY/programs/mystery-caller.c" caller.c || exit 1

test_expect_success 'a routine in no table is priced as the call alone and named in the totals' '
	avr-gcc -mmcu=atmega32u4 -Os -c mystery.c -o mystery.o &&
	builds caller -Os caller.c mystery.o &&
	"$ROI" estimate --json --model "$MODELS/atmega32u4-Os.json" caller.elf >est.json &&
	call=$(jq "[.costs[] | select(.kind == \"call\" and .callee == null)][0].cycles" "$MODELS/atmega32u4-Os.json") &&
	test_equal "[{\"callee\":\"mystery\",\"calls\":10,\"routine_cycles\":0,\"priced_by\":\"call\"}]" \
		"$(jq -c "[.without_metadata[] | {callee, calls, routine_cycles, priced_by}]" est.json)" &&
	jq -e ".without_metadata[0].cycles - 10 * $call | fabs < 1e-9" est.json >/dev/null &&
	test_equal "10 [{\"callee\":\"mystery\",\"calls\":10}]" \
		"$(jq -c "[.total.fallback_calls, .total.fallback] | .[0], .[1]" est.json | paste -sd " ")" &&
	"$ROI" estimate --model "$MODELS/atmega32u4-Os.json" caller.elf >out &&
	test_grep "^  mystery  *10 .* fallback: the call alone (no routine price)$" out &&
	test_grep "^total .*; 10 calls without metadata, [0-9.]* cycles (fallback, the call alone: mystery x10)$" out &&
	"$ROI" report --model "$MODELS/atmega32u4-Os.json" caller.elf >out &&
	test_grep "^total .*; 10 calls without metadata, [0-9.]* cycles (fallback, the call alone: mystery x10)$" out &&
	"$ROI" report --json --model "$MODELS/atmega32u4-Os.json" caller.elf >rep.json &&
	test_equal "10 [{\"callee\":\"mystery\",\"calls\":10}] priced_by=call" \
		"$(jq -r "[.total.fallback_calls, (.total.fallback | tostring), \"priced_by=\" + .without_metadata[0].priced_by] | @tsv" rep.json | tr "\t" " ")"
'

# memcpy of a length known at run time only: its bytes are a value counter the model prices per
# byte. With the model'"'"'s own entry of a memcpy call, that entry and the bytes price it; without
# it, the routine adds its cost per call less its typical bytes'"'"' (8 x 32 of its 267), not the
# bytes a second time.
cat >copy.c <<'EOF'
#include <stdint.h>
#include <string.h>
volatile uint8_t len = 24;
uint8_t src[32], dst[32];
int main(void)
{
	for (uint8_t i = 0; i < 5; i++)
		memcpy(dst, src, len);
	return 0;
}
EOF

test_expect_success 'a memory routine whose bytes the model prices is not priced twice' '
	builds copy -Os copy.c &&
	"$ROI" estimate --json --model "$MODELS/atmega32u4-Os.json" copy.elf >est.json &&
	test_equal "[{\"callee\":\"memcpy\",\"calls\":5,\"routine_cycles\":0,\"priced_by\":\"model\"}]" \
		"$(jq -c "[.without_metadata[] | {callee, calls, routine_cycles, priced_by}]" est.json)" &&
	jq "del(.costs[] | select(.kind == \"call\" and .callee == \"memcpy\"))" "$MODELS/atmega32u4-Os.json" >nocall.json &&
	"$ROI" estimate --json --model nocall.json copy.elf >est.json &&
	fixed=$(jq ".routines[] | select(.routine == \"memcpy\") | .cycles - .per_value * .typical_value" nocall.json) &&
	test_equal 11 "$fixed" &&
	test_equal "[{\"callee\":\"memcpy\",\"calls\":5,\"routine_cycles\":$(jq -n "5 * $fixed"),\"priced_by\":\"routine\"}]" \
		"$(jq -c "[.without_metadata[] | {callee, calls, routine_cycles, priced_by}]" est.json)" &&
	test_equal 120 "$(jq "[.ops[] | select(.kind == \"bytes\") | .count] | add" est.json)"
'

test_done
