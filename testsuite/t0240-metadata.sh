#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='metadata in the object file: non-allocated, versioned, self-describing'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# unit_ops OPT NAME SELECT FIELDS: the operations of NAME.c compiled with OPT that the jq condition
# SELECT picks, each as the jq array FIELDS, sorted; its metadata stays in NAME.json.
unit_ops () {
	gcc "$1" -fplugin="$ROI_PLUGIN" -c "$2.c" &&
	meta_json "$2.o" >"$2.json" &&
	jq -c "[.[0].ops[] | select($3) | $4] | sort" "$2.json"
}

cat >one.c <<'CEOF'
static int twice(int v) { return 2 * v; }
int api(int v) { return twice(v) + 1; }
CEOF

test_expect_success 'the object carries a .roi.meta section without the ALLOC flag' '
	gcc -O0 -fplugin="$ROI_PLUGIN" -c one.c &&
	readelf -SW one.o >sections &&
	test_grep " \.roi\.meta " sections &&
	grep " \.roi\.meta " sections >line &&
	! grep -E "PROGBITS.* [WX]*A[WX]* " line
'

test_expect_success 'the record is JSON with the documented fields' '
	meta_json one.o >meta.json &&
	test_equal 1 "$(jq length meta.json)" &&
	test_equal 1 "$(jq ".[0].roi" meta.json)" &&
	test_equal "\"O0\"" "$(jq ".[0].opt" meta.json)" &&
	test_equal 32 "$(jq ".[0].abi.int" meta.json)" &&
	test_equal "\"one.c\"" "$(jq ".[0].source" meta.json)" &&
	jq -e ".[0].target | startswith(\"x86_64\")" meta.json &&
	jq -e "[.[0].functions[].name] == [\"twice\", \"api\"]" meta.json &&
	jq -e ".[0].functions[0].static == true and .[0].functions[1].static == false" meta.json
'

# twice runs straight through, so by flow conservation every count is its calls': one counter
# (docs/formats.md, "Counted edges"), its entry or its return, where a counter per block needs one
# for each of its blocks.
test_expect_success 'counters are local .bss arrays: one for a function without branches' '
	nm -S one.o >syms &&
	unit=$(jq -r ".[0].unit" meta.json) &&
	test_grep " b __roi_c_${unit}_0\$" syms &&
	test_grep " b __roi_c_${unit}_1\$" syms &&
	size=$(awk "/__roi_c_${unit}_0\$/ { print \$2 }" syms) &&
	test_equal 4 $((0x$size)) &&
	test_equal 1 "$(jq ".[0].functions[0].edges | length" meta.json)" &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-block-counters -c one.c -o blocks.o &&
	meta_json blocks.o >blocks.json &&
	jq -e ".[0].functions[0] | has(\"edges\") | not" blocks.json &&
	blocks=$(jq ".[0].functions[0].blocks | length" blocks.json) &&
	test $blocks -gt 1 &&
	nm -S blocks.o >syms &&
	unit=$(jq -r ".[0].unit" blocks.json) &&
	size=$(awk "/__roi_c_${unit}_0\$/ { print \$2 }" syms) &&
	test_equal $((blocks * 4)) $((0x$size))
'

test_expect_success 'the checksum changes when the counted structure changes' '
	old=$(jq -r ".[0].functions[1].checksum" meta.json) &&
	sed "s/+ 1/* 3/" one.c >two.c &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -c two.c -o two.o &&
	new=$(meta_json two.o | jq -r ".[0].functions[1].checksum") &&
	test "$old" != "$new" &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -c one.c -o again.o &&
	same=$(meta_json again.o | jq -r ".[0].functions[1].checksum") &&
	test_equal "$old" "$same"
'

cat >every.c <<'CEOF'
struct pair { int a, b; };
struct pair g, h;
int m[3][4];
typedef int v4 __attribute__ ((vector_size (16)));
v4 va, vb;
int every (int i, int j, unsigned x, unsigned y)
{
	int r;
	g = h;
	va = va + vb;
	if (__builtin_add_overflow (x, y, &r))
		r = 0;
	return r + m[i][j];
}
CEOF

# The checksum's text is written by lib-roi.sh's checksum_text from docs/formats.md, not by roi.
# These units have every field it covers between them: value counters, a block of labels, an
# aggregate copy's bytes, a switch's cases, a vector operation's code, an internal call, a
# conversion's source, two subscripts, a promoted operation.
test_expect_success 'the checksum of every function is the CRC-32 of its canonical text' '
	for src in every.c "$TEST_DIRECTORY"/programs/values.c "$TEST_DIRECTORY"/programs/switch.c \
		   "$TEST_DIRECTORY"/programs/goto-loop-label.c "$TEST_DIRECTORY"/programs/fnptr.c \
		   "$TEST_DIRECTORY"/programs/divisions.c; do
		for opt in -O0 -O2; do
			gcc $opt -fplugin="$ROI_PLUGIN" -c "$src" -o unit.o &&
			meta_json unit.o | jq ".[0]" >unit.json &&
			jq -c "{ops, blocks: [.functions[].blocks[]]}" unit.json >>covered.json &&
			n=$(jq ".functions | length" unit.json) && i=0 &&
			while [ $i -lt $n ]; do
				test_equal "$(fn_checksum unit.json $i)" "$(jq -r ".functions[$i].checksum" unit.json)" \
					"$src $opt function $i" || return 1
				i=$((i + 1))
			done || return 1
		done
	done &&
	jq -s -e "[.[].ops[]] as \$o | [.[].blocks[]] as \$b |
		  any(\$b[]; .value) and any(\$b[]; .labels) and any(\$o[]; .bytes) and any(\$o[]; .cases) and
		  any(\$o[]; .code) and any(\$o[]; .internal) and any(\$o[]; .from) and
		  any(\$o[]; .subscripts) and any(\$o[]; .promoted)" covered.json
'

cat >conv.c <<'CEOF'
long widen(unsigned char c) { return c; }
CEOF

# By hand: the unsigned char is converted to long, a conversion of two types, each in its field.
test_expect_success 'a conversion names the type it converts to and the one it converts from' '
	unit_ops -O2 conv ".kind == \"conv\"" "[.type, .ctype, .from, .from_ctype]" >got &&
	echo "[[\"i64\",\"long\",\"u8\",\"unsigned char\"]]" >want &&
	test_cmp want got
'

# update_meta PROGRAM JQ OUT: PROGRAM with its .roi.meta records edited by JQ.
update_meta () {
	objcopy --dump-section .roi.meta=records.bin "$1" /dev/null &&
	tr "\0" "\n" <records.bin | jq -c "$2" | tr "\n" "\0" >edited.bin &&
	objcopy --update-section .roi.meta=edited.bin "$1" "$3"
}

test_expect_success 'a record changed after compiling is refused, not estimated' '
	roi_link loops -O0 "$TEST_DIRECTORY/programs/loops.c" && ROI_OUTPUT=loops.roi ./loops &&
	"$ROI" estimate loops loops.roi >/dev/null &&
	update_meta loops "(.functions[0].blocks[1].ops[0][3]) += 1" tally &&
	test_must_fail "$ROI" estimate tally loops.roi 2>err &&
	test_grep "^roi: tally: .roi.meta record 1: functions\[0\] (main): checksum 0x[0-9a-f]\{8\} does not match its blocks (0x[0-9a-f]\{8\}); the metadata was changed after compiling$" err &&
	update_meta loops ".ops[0].kind = \"div\"" op &&
	test_must_fail "$ROI" ops op 2>err &&
	test_grep "^roi: op: .roi.meta record 1: functions\[0\] (main): checksum .* does not match its blocks" err
'

test_expect_success 'linking keeps one record per unit; PHIs are not operations' '
	cat >main.c <<-CEOF &&
	int api(int v);
	int main(int argc, char **argv) { (void) argv; int s = 0; for (int i = 0; i < argc; i++) s += api(i); return s != 1; }
	CEOF
	roi_link prog -O2 one.c main.c &&
	meta_json prog >linked.json &&
	test_equal 2 "$(jq length linked.json)" &&
	! jq -r ".[].ops[].kind" linked.json | grep -i phi
'

# buf's scope ends in every turn of the loop: GIMPLE says so with "buf ={v} {CLOBBER}", an
# aggregate assignment in form that makes no code. By hand: no copy; at -O0 3 memsets of 16 bytes
# (-O2 stores the one byte it reads).
test_expect_success 'the end of a variable'"'"'s scope (a clobber) is not a copy' '
	cat >scope.c <<-CEOF &&
	#include <string.h>
	volatile int sink;
	int main(void) { for (int r = 0; r < 3; r++) { char buf[16]; memset(buf, r, sizeof buf); sink = buf[r]; } return 0; }
	CEOF
	for opt in -O0 -O2; do
		rm -f scope.roi && roi_link scope $opt scope.c && ./scope &&
		"$ROI" estimate --json scope >scope.json &&
		test_equal 0 "$(op_count scope.json copy)" "$opt copies" &&
		test_equal 0 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == null) | .count] | add // 0" scope.json)" ||
		return 1
	done &&
	rm -f scope.roi && roi_link scope -O0 scope.c && ./scope &&
	"$ROI" estimate --json scope >scope.json &&
	test_equal 48 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memset\") | .count] | add" scope.json)"
'

test_expect_success '64-bit counters on request' '
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-counter-bits=64 -c one.c -o wide.o &&
	test_equal 64 "$(meta_json wide.o | jq ".[0].counter_bits")" &&
	nm -S wide.o >syms64 &&
	unit=$(meta_json wide.o | jq -r ".[0].unit") &&
	size=$(awk "/__roi_c_${unit}_0\$/ { print \$2 }" syms64) &&
	test_equal 8 $((0x$size))
'

test_expect_success 'a 24-bit bit-field computes in a 24-bit type, and roi estimate takes it' '
	cat >bf.c <<-CEOF &&
	struct s { unsigned x : 24; } v = { 5 };
	int main(void) { v.x += 3; return v.x != 8; }
	CEOF
	roi_link bf -O0 bf.c && ./bf &&
	"$ROI" estimate --json bf >bf.json &&
	jq -e "[.ops[] | select(.type == \"u24\")] | length > 0" bf.json
'

cat >operand.c <<'CEOF'
unsigned g[4];
unsigned t2[3][5];
unsigned f(unsigned a, unsigned b, int i)
{
	unsigned l[4];
	l[i] = a << 3;
	l[i + 1] = a * 8 + b * 6 + a * 100000u + (unsigned) (i * -4);
	g[i] = a + 5 + b;
	return l[i] + t2[i][i] + g[i] / b + g[2] + t2[1][2];
}
CEOF

# By hand from the source: a shift by 3 and a multiply by 8, which is that shift ("shl" by 3),
# a multiply by a negative power of two ("pow2"), by a small constant and by one wider than 16
# bits ("wide"), two adds of a constant (i + 1 in int, a + 5 in unsigned), stores and loads of the
# local l and the global g, one two-subscript load of t2; g[2] and t2[1][2] are at constant
# offsets, loads of a "field" of g and t2 with no subscripts and no scaling; b's add and the division by b have a
# variable operand and no field. Every run-time subscript is scaled by its element size ("index"
# of size_t): by a shift of 2 for the 4-byte unsigned elements, by a multiply ("const") for t2's
# 20-byte rows.
test_expect_success 'operands that decide the code: constants, shift amounts, where a variable lives, subscripts' '
	unit_ops -O0 operand ".operand or .subscripts" "[.kind, .type, .access, .operand, .subscripts]" >got &&
	cat >want <<-\EOF &&
	[["add","i32",null,"const",null],["add","u32",null,"const",null],["index","u64",null,"2",null],["index","u64",null,"const",null],["load","u32","array","global",null],["load","u32","array","global",2],["load","u32","array","local",null],["load","u32","field","global",null],["mul","i32",null,"pow2",null],["mul","u32",null,"const",null],["mul","u32",null,"wide",null],["shl","u32",null,"3",null],["store","u32","array","global",null],["store","u32","array","local",null]]
	EOF
	test_cmp want got &&
	jq -e "[.[0].ops[] | select(.kind == \"div\")] | length == 1 and (.[0] | has(\"operand\") | not)" operand.json
'

cat >rows.c <<'CEOF'
unsigned short m[5][8];
unsigned f(int i, int j)
{
	return m[i][j] + m[i][3];
}
CEOF

# GCC computes the address of m[i][j] as (i * 8 + j) * 2, not i * 16 + j * 2: its row's scaling
# is by the 8 elements of a row (a shift by 3) and the element's by its 2 bytes (by 1); m[i][3]
# scales i by the row's 16 bytes (by 4).
test_expect_success 'a row beside a run-time column is scaled by its elements, the element by its size' '
	unit_ops -O0 rows ".kind == \"index\"" "[.kind, .operand]" >got &&
	echo "[[\"index\",\"1\"],[\"index\",\"3\"],[\"index\",\"4\"]]" >want &&
	test_cmp want got
'

cat >sign.c <<'CEOF'
int s(int a, long long w, unsigned u)
{
	int r = 0;
	if (a < 0)
		r++;
	if (w >= 0)
		r++;
	if (a < 5)
		r++;
	return r + (a >= 0) + (u < 7u);
}
CEOF

# By hand: a < 0, w >= 0 and a >= 0 test a signed integer's sign bit ("sign"), whatever its width;
# a < 5 and the unsigned u < 7 compare with another constant ("const").
test_expect_success 'a signed comparison with zero tests the sign bit' '
	unit_ops -O0 sign ".kind == \"lt\" or .kind == \"ge\" or .kind == \"le\" or .kind == \"gt\"" "[.kind, .type, .operand]" >got &&
	echo "[[\"ge\",\"i32\",\"sign\"],[\"ge\",\"i64\",\"sign\"],[\"le\",\"i32\",\"const\"],[\"le\",\"u32\",\"const\"],[\"lt\",\"i32\",\"sign\"]]" >want &&
	test_cmp want got
'

cat >widen.c <<'CEOF'
#include <stdint.h>
uint32_t w(uint16_t a, uint16_t b) { return (uint32_t) a * b; }
int64_t s(int32_t a, int32_t b) { return (int64_t) a * b; }
uint32_t f(uint32_t a, uint16_t b) { return a * b; }
uint16_t p(uint8_t a) { return (uint16_t) ((uint16_t) a * 32u); }
uint16_t q(uint8_t b) { return (uint16_t) ((uint16_t) b * 2u); }
CEOF

# By hand: two products of operands extended from half the width, which an 8-bit target multiplies
# in the half width (WIDEN_MULT_EXPR on avr, a MULT_EXPR of the extensions on x86-64 for 16 x 16),
# and one of a full-width operand; a byte times 32, one 8 x 8 multiply on avr, and a byte times 2,
# a shift by 1. At -O0 GCC multiplies every one in the full width and shifts for both powers of two.
test_expect_success 'optimising, a product of two extended halves is a widening multiply on the host too' '
	unit_ops -O2 widen ".kind == \"mul\"" "[.type, .operand]" >got &&
	echo "[[\"i64\",\"widen\"],[\"u16\",\"widen\"],[\"u32\",null],[\"u32\",\"widen\"]]" >want &&
	test_cmp want got &&
	test_equal "[\"1\"]" "$(jq -c "[.[0].ops[] | select(.kind == \"shl\") | .operand]" widen.json)" &&
	test_equal "[]" "$(unit_ops -O0 widen ".kind == \"mul\" and .operand" .)" &&
	test_equal "[\"1\",\"5\"]" "$(jq -c "[.[0].ops[] | select(.kind == \"shl\") | .operand] | sort" widen.json)"
'

cat >frame.c <<\CEOF
int h(int p, int q)
{
	register int r = p + 1;
	int v = q;
	int w;
	int *pw = &w;
	*pw = v * 2;
	return r + v + w;
}
int main(void) { return h(1, 2) == 8 ? 0 : 1; }
CEOF

# By hand from the source, at -O0: reads of the frame slots of p (r = p + 1), q (v = q), v twice
# (v * 2, r + v) and pw (*pw = ...); writes of v and pw, and of p and q, which the prologue
# stores to their slots once per call of h. r is a register variable and w has its address taken
# (its read is a load of a local variable), so neither has frame accesses.
test_expect_success 'at -O0 every read and write of a named local or parameter is a frame access' '
	roi_link frame -O0 frame.c && ./frame &&
	"$ROI" estimate --json frame >frame.json &&
	test_equal 4 "$(op_count frame.json load i32 frame)" "p, q, v, v" &&
	test_equal 1 "$(op_count frame.json load ptr frame)" "pw" &&
	test_equal 3 "$(op_count frame.json store i32 frame)" "v, p, q" &&
	test_equal 1 "$(op_count frame.json store ptr frame)" "pw" &&
	test_equal 1 "$(op_count frame.json load i32 var)" "w" &&
	rm -f frame.roi && roi_link frame -O1 frame.c && ./frame &&
	"$ROI" estimate --json frame >frame1.json &&
	test_equal 0 "$(op_count frame1.json load "" frame)" "no frame at -O1" &&
	test_equal 0 "$(op_count frame1.json store "" frame)" "no frame at -O1"
'

cat >widths.c <<\CEOF
#include <stddef.h>
#include <stdint.h>
volatile uint32_t vin = 7;
volatile uint32_t sink;
int main(void)
{
	uint32_t a = vin;
	uint32_t b = a * 3u;
	size_t n = sizeof (uint32_t) + (size_t) (a & 1);
	unsigned int u = (unsigned int) b;
	u = u * 5u;
	uint16_t words[4] = {1, 2, 3, 4};
	uint16_t *w = words;
	sink = a + b + (uint32_t) n + u + w[a & 3];
	return 0;
}
CEOF

# uint32_t is "unsigned int" on the host and "unsigned long" on AVR, size_t 64 bits here and 16
# there: the C type names the width the program means, so a host profile keeps a uint32_t
# multiply 32 bits wide on AVR, and a plain unsigned int multiply becomes AVR int's 16 bits. w[a & 3]
# is w + (a & 3) * 2 in GCC's size type, a pointer wide (the multiply by 2 counted as a shift).
test_expect_success 'stdint and stddef names keep their width when a host profile is mapped to AVR' '
	roi_link widths -O0 widths.c && ./widths &&
	"$ROI" estimate --json widths >host.json &&
	test_equal "uint32_t u32" "$(jq -r "[.ops[] | select(.kind == \"mul\" and .ctype == \"uint32_t\")][0] | \"\(.ctype) \(.type)\"" host.json)" &&
	test_equal "size_t u64" "$(jq -r "[.ops[] | select(.kind == \"add\" and .ctype == \"size_t\")][0] | \"\(.ctype) \(.type)\"" host.json)" &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4.json" widths >avr.json 2>/dev/null &&
	test_equal u32 "$(jq -r "[.ops[] | select(.kind == \"mul\" and .ctype == \"uint32_t\")][0].type" avr.json)" &&
	test_equal u16 "$(jq -r "[.ops[] | select(.kind == \"add\" and .ctype == \"size_t\")][0].type" avr.json)" &&
	test_equal u16 "$(jq -r "[.ops[] | select(.kind == \"mul\" and .ctype == \"unsigned int\")][0].type" avr.json)" &&
	test_equal "size_t u64" "$(jq -r "[.ops[] | select(.kind == \"shl\" and .ctype == \"size_t\")][0] | \"\(.ctype) \(.type)\"" host.json)" &&
	test_equal u16 "$(jq -r "[.ops[] | select(.kind == \"shl\" and .ctype == \"size_t\")][0].type" avr.json)"
'

# Optimising, ivopts rewrites micro-div32's u32[i] and i32[i] into memory references of the
# plain types (unsigned int, int), and the divisions of what they load lose their width's name;
# the arrays' element types keep it. Every division of the source is of uint32_t or int32_t.
test_expect_success 'optimising, a value loaded from a uint32_t array keeps its width name' '
	cp "$ROI_SRC/contrib/calibration/micro-div32.c" . &&
	unit_ops -Os micro-div32 ".kind == \"div\"" ".ctype" >got &&
	jq -e "length == 4 and all(.[]; . == \"uint32_t\" or . == \"int32_t\")" got
'

cat >divmod.c <<'CEOF'
#include <stdint.h>
uint32_t q, r;
void split(uint32_t a, uint32_t b)
{
	q = a / b;
	r = a % b;
}
CEOF

# Optimising, GCC 12 makes a / b and a % b one internal call (.DIVMOD) where the target has a
# routine that returns both (x86-64's div); avr-gcc 5.4 keeps the two statements and pairs the
# remainder with the division. Either way: a division and its paired remainder, no call.
test_expect_success 'optimising, a quotient and remainder of the same operands are a division and a paired remainder' '
	unit_ops -O2 divmod ".kind == \"div\" or .kind == \"mod\" or .kind == \"call\"" "[.kind, .ctype, .operand]" >got &&
	echo "[[\"div\",\"uint32_t\",null],[\"mod\",\"uint32_t\",\"paired\"]]" >want &&
	test_cmp want got
'

cat >fields.c <<\CEOF
struct pt { unsigned x, y; };
struct pt pts[4];
unsigned f(int i)
{
	struct pt one = pts[2];
	return pts[i].x + pts[1].y + one.x;
}
CEOF

# pts[i].x is reached through the subscript's arithmetic like pts[i]; pts[1].y and one.x at a
# constant offset, like any field.
test_expect_success 'a field of an element at a run-time subscript is an array access' '
	unit_ops -O0 fields ".kind == \"load\" and .access != \"frame\"" "[.access, .operand]" >got &&
	echo "[[\"array\",\"global\"],[\"field\",\"global\"],[\"field\",\"local\"]]" >want &&
	test_cmp want got
'

# programs/values.c by hand: 23 bits shifted, 27 bytes set, 23 copied and 27 measured by strlen,
# in 4 executions each; a 64-bit shift by the same amounts in 16 passes (n / 8 + n % 8), a right
# rotate in 44 (those of the left rotate by 64 - n); a float add and subtract, 10 alignment passes
# each (exponents 2, 9, 20 and 40 apart: 2 + 2 + 6 + 0), the add's first operand the smaller.
values_by_hand () {
	test_equal 103 "$(op_count "$1" steps)" "bits shifted, 64-bit and float passes" &&
	test_equal 60 "$(op_count "$1" steps u64)" "64-bit passes" &&
	test_equal 20 "$(op_count "$1" steps f32)" "float alignment passes" &&
	test_equal 8 "$(op_count "$1" shr)" "shifts" &&
	test_equal 27 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memset\") | .count] | add" "$1")" &&
	test_equal 23 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"memcpy\") | .count] | add" "$1")" &&
	test_equal 27 "$(jq "[.ops[] | select(.kind == \"bytes\" and .callee == \"strlen\") | .count] | add" "$1")" &&
	test_equal 4 "$(call_count "$1" memcpy)" "memcpy calls" &&
	test_equal 4 "$(call_count "$1" strlen)" "strlen calls"
}

test_expect_success 'value counters add up shift amounts and memory lengths' '
	roi_link values -O0 "$TEST_DIRECTORY/programs/values.c" && ./values &&
	"$ROI" estimate --json values >values.json &&
	values_by_hand values.json &&
	rm -f values.roi && roi_link values -O2 "$TEST_DIRECTORY/programs/values.c" && ./values &&
	"$ROI" estimate --json values >values2.json &&
	values_by_hand values2.json
'

# programs/divisions.c by hand, in the host's 32-bit int: a16 / b16 (16666, 5 one bits) and
# a16 % c16 (quotient 50, 3) are unsigned short divisions, C's int promotion undone by GCC; s16 %
# t16 (-4285, 7 in magnitude) is an int one, beside a32 % b32 (0xffffffff, 32), s32 / t32 (-142857,
# 7) and x / d with x % d (429496729, 15), which GCC computes at once when optimising (GCC 12: one
# .DIVMOD) and twice at -O0; three turns. The 8- and 64-bit divisions are not counted.
test_expect_success 'value counters add up the 1 bits of 16- and 32-bit quotients' '
	roi_link divisions -O0 "$TEST_DIRECTORY/programs/divisions.c" && ./divisions &&
	"$ROI" estimate --json divisions >div0.json &&
	test_equal 24 "$(op_count div0.json qbits u16)" "-O0 16-bit quotient bits" &&
	test_equal 228 "$(op_count div0.json qbits u32)" "-O0 32-bit quotient bits" &&
	rm -f divisions.roi && roi_link divisions -O2 "$TEST_DIRECTORY/programs/divisions.c" && ./divisions &&
	"$ROI" estimate --json divisions >div2.json &&
	test_equal 24 "$(op_count div2.json qbits u16)" "-O2 16-bit quotient bits" &&
	test_equal 183 "$(op_count div2.json qbits u32)" "-O2 32-bit quotient bits" &&
	test_equal 0 "$(op_count div2.json qbits u64)" "64-bit divisions"
'

test_expect_success 'value counters with 16-bit and with atomic counters' '
	rm -f values.roi &&
	roi_link values -O0 -fplugin-arg-roi-counter-bits=16 "$TEST_DIRECTORY/programs/values.c" && ./values &&
	"$ROI" estimate --json values >v16.json &&
	values_by_hand v16.json &&
	rm -f values.roi &&
	roi_link values -O0 -fplugin-arg-roi-atomic "$TEST_DIRECTORY/programs/values.c" && ./values &&
	"$ROI" estimate --json values >vat.json &&
	values_by_hand vat.json
'

# programs/values.c by hand: 10 value counters: the shift by n, the 64-bit shift and rotate, the
# float add and subtract, memset, memcpy, strlen, and the two conversions of a float to uint32_t
# ((b + a) * 8.0f and (a - b) * 8.0f: their normalisation passes, "norm", counted with
# -fplugin-arg-roi-machine-values).
test_expect_success 'a value counter is described as a block no edge reaches, in the loop of its statement' '
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-machine-values -c "$TEST_DIRECTORY/programs/values.c" -o values.o &&
	meta_json values.o >vm.json &&
	jq -e "[.[0].functions[0].blocks[] | select(.value)] | length == 10 and
	       all(.succ == [] and .lines == [] and (.ops | length) == 1)" vm.json &&
	jq -e "(.[0].functions[0].blocks | length) as \$n |
	       .[0].functions[0].loops[0].blocks | index(\$n - 1) != null" vm.json &&
	# "block" names the block of the statement it measures: a block, with a row on its line
	jq -e ".[0].functions[0].blocks as \$b | [\$b[] | select(.value)] |
	       all(. as \$v | \$b[\$v.block] | (.value | not) and
		   any(.ops[]; .[2] == \$v.ops[0][2]))" vm.json
'

cat >promote.c <<\CEOF
#include <stdint.h>
volatile uint16_t in16 = 1000;
volatile uint8_t in8 = 7;
volatile uint32_t sink;
int main(void)
{
	uint16_t s = in16;
	uint8_t c = in8;
	sink = (uint32_t) ((s + c) % 255) + (uint32_t) (c * 3 % 7);
	return 0;
}
CEOF

# (s + c) % 255 computes in int on the host; on AVR, whose int is 16 bits, s promotes to unsigned
# int and so does the sum: an unsigned 16-bit modulo. c * 3 % 7 stays a signed int one there
# (an 8-bit unsigned char promotes to int on both).
test_expect_success 'an int operation on a promoted unsigned short is unsigned where int is 16 bits' '
	roi_link promote -O0 promote.c && ./promote &&
	objcopy --dump-section .roi.meta=meta.bin promote /dev/null &&
	tr "\0" "\n" <meta.bin | jq -s -c "[.[0].ops[] | select(.kind == \"mod\") | [.type, .promoted]] | sort" >got &&
	echo "[[\"i32\",8],[\"i32\",16]]" >want &&
	test_cmp want got &&
	"$ROI" estimate --json --model "$ROI_SRC/models/atmega32u4.json" promote >p.json 2>/dev/null &&
	jq -c "[.ops[] | select(.kind == \"mod\") | .type] | sort" p.json >got &&
	echo "[\"i16\",\"u16\"]" >want &&
	test_cmp want got
'

cat >odd-sum.c <<'CEOF'
unsigned odd_sum(const unsigned char *a, unsigned char n)
{
	unsigned s = 0;

	for (unsigned char i = 0; i < n; i++)
		if (a[i] & 1)
			s += a[i];
	return s;
}
CEOF

# At -O2 the loop optimisers give the loop an induction variable; its conversion to an address,
# the first statement of the block of the if (line 6), has no location. It runs there, so it is on
# line 6, not on the function's line 1, which is its prologue's.
test_expect_success 'a statement with no location takes the line of its block' '
	gcc -O2 -fplugin="$ROI_PLUGIN" -c odd-sum.c &&
	meta_json odd-sum.o >odd-sum.json &&
	jq -c ".[0] as \$u | [\$u.functions[0].blocks[] | [.ops[] | [\$u.ops[.[0]].kind, .[2]]] |
		select(any(.[]; .[1] == 6))]" odd-sum.json >if-block &&
	jq -e "length == 1 and (.[0][0] | .[0] == \"conv\") and all(.[][]; .[1] == 6)" if-block
'

# The vocabulary is one table, gcc-plugin/roi-ops.def, which plugin and estimator expand; the
# kinds docs/formats.md's table lists, in its order, and the accesses its load/store row names,
# must be the table's. And every kind a real record carries is one of them.
test_expect_success 'the vocabulary table and docs/formats.md list the same kinds and accesses' '
	sed -n "s/^DEF_ROI_KIND ([A-Z_]*, \"\([a-z]*\)\".*/\1/p" "$ROI_SRC/gcc-plugin/roi-ops.def" >table.kinds &&
	sed -n "/^### Operation kinds/,/^### /p" "$ROI_SRC/docs/formats.md" |
		sed -n "s/^| \([^|]*\)|.*/\1/p" | sed "1d" | tr -d "\`" | tr " /" "\n\n" |
		sed "/^\$/d" >docs.kinds &&
	test_cmp table.kinds docs.kinds &&
	sed -n "s/^DEF_ROI_ACCESS ([A-Z_]*, \"\([a-z]*\)\").*/\1/p" "$ROI_SRC/gcc-plugin/roi-ops.def" >table.accesses &&
	sed -n "s/^| .load. \/ .store. .*.access.: \(.*\); .volatile.*/\1/p" "$ROI_SRC/docs/formats.md" |
		grep -o "\`[a-z]*\`" | tr -d "\`" >docs.accesses &&
	test_cmp table.accesses docs.accesses &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -c "$EXAMPLES/matrix/matrix.c" -o vocab.o &&
	meta_json vocab.o | jq -r ".[].ops[].kind" | sort -u >used.kinds &&
	test -s used.kinds &&
	test_equal "" "$(sort table.kinds | comm -23 used.kinds -)" "kinds outside the table"
'

test_done
