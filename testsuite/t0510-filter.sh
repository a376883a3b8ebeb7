#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='filter files: exact matching, precedence, counting and hooks, errors with line and column'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

cat >names.c <<'CEOF'
int foo(int x) { return x + 1; }
int foobar(int x) { return x + 2; }
int myfoo(int x) { return x + 3; }
int foo_bar(int x) { return x + 4; }
CEOF

# counted OBJ: the names of the functions with counters, sorted
counted () {
	meta_json "$1" | jq -r '.[].functions[].name' | sort | tr '\n' ' '
}

# hooked OBJ: the functions that call a region hook, from the object code
hooked () {
	objdump -dr "$1" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 } /__roi_region_enter/ { print fn }' |
		tr -d '<>:' | sort -u | tr '\n' ' '
}

test_expect_success 'excluding foo touches neither foobar, myfoo nor foo_bar' '
	echo "count exclude function foo" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "foo_bar foobar myfoo " "$(counted names.o)" &&
	meta_json names.o | jq -e ".[0].excluded[0].name == \"foo\" and .[0].excluded[0].rule == 1"
'

test_expect_success 'a glob only where written: glob:foo* takes foo, foobar and foo_bar' '
	echo "count exclude function glob:foo*" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "myfoo " "$(counted names.o)"
'

test_expect_success 'later rules win (Score-P): exclude all, then include two' '
	cat >f.txt <<-EOF &&
	# everything out, two back in
	count exclude function glob:*
	count include function myfoo
	COUNT INCLUDE FUNCTION foo
	EOF
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "foo myfoo " "$(counted names.o)"
'

test_expect_success 'file rules: as given to the compiler or absolute, never a suffix' '
	echo "count exclude file names.c" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "" "$(counted names.o 2>/dev/null)" &&
	echo "count exclude file $PWD/names.c" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "" "$(counted names.o 2>/dev/null)" &&
	echo "count exclude file ames.c" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "foo foo_bar foobar myfoo " "$(counted names.o)"
'

test_expect_success 'asm names select GCC clones' '
	cat >clone.c <<-CEOF &&
	static int __attribute__((noinline)) scale(int v, int k) { return v * k; }
	int api(int n) { int s = 0; for (int i = 0; i < n; i++) s += scale(i, 3); return s; }
	CEOF
	gcc -O2 -c clone.c -o plain.o && nm plain.o | grep -q "scale.constprop.0" &&
	echo "count exclude asm scale.constprop.0" >f.txt &&
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c clone.c &&
	test_equal "api " "$(counted clone.o)"
'

test_expect_success 'static functions of one name in two files are told apart by file' '
	P=$TEST_DIRECTORY/programs/multi &&
	cp "$P/a.c" "$P/b.c" "$P/main.c" . &&
	printf "hooks include file a.c\nhooks exclude function glob:from_*\n" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c a.c b.c &&
	test_equal "helper " "$(hooked a.o)" &&
	test_equal "" "$(hooked b.o)"
'

test_expect_success 'hooks only where asked, checked in the object code' '
	printf "hooks include function foobar\nhooks include function myfoo\nhooks exclude function myfoo\n" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "foobar " "$(hooked names.o)" &&
	test_equal "foo foo_bar foobar myfoo " "$(counted names.o)"
'

test_expect_success 'a function excluded from counting can still be timed' '
	printf "count exclude function foo\nhooks include function foo\n" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	test_equal "foo " "$(hooked names.o)" &&
	test_equal "foo_bar foobar myfoo " "$(counted names.o)"
'

test_expect_success 'the metadata says which rules matched' '
	printf "count exclude function foo\ncount exclude function fooo\n" >f.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c names.c &&
	meta_json names.o | jq -c "[.[0].filter.rules[] | [.line, .matched]]" >matched &&
	echo "[[1,true],[2,false]]" >expect &&
	test_cmp expect matched
'

# A rule one or two letters from a function of the unit is a typo, said while compiling; a name
# far from every function here may be another unit's, and stays quiet until roi estimate, which
# sees the whole program and also says what was meant.
test_expect_success 'a misspelled function: did you mean, at compile time and from roi estimate' '
	printf "count exclude function myfooo\ncount exclude function mainly\ncount exclude function glob:fooo*\n" >t.txt &&
	gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=t.txt -c names.c 2>err &&
	test_grep "^cc1: warning: .*/t.txt:1: rule .count exclude function myfooo. matched no function of this unit; did you mean .myfoo.?" err &&
	test_equal 1 "$(grep -c warning err)" "warnings: mainly and the glob are no typos of this unit" &&
	printf "int foo(int);\nint main(void) { return foo(1) - 2; }\n" >m.c &&
	roi_link tm m.c names.c -fplugin-arg-roi-filter=t.txt 2>/dev/null && ./tm &&
	"$ROI" estimate tm >/dev/null 2>err &&
	test_grep "^roi: warning: .*t.txt:1: rule .count exclude function myfooo. matched nothing in tm; did you mean .myfoo.?$" err &&
	test_grep "^roi: warning: .*t.txt:2: rule .count exclude function mainly. matched nothing in tm; did you mean .main.?$" err &&
	test_grep "^roi: warning: .*t.txt:3: rule .count exclude function glob:fooo\*. matched nothing in tm$" err
'

# bad FILTER-TEXT EXPECTED-MESSAGE
bad () {
	printf "$1" >bad.txt &&
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=bad.txt -c names.c 2>err &&
	test_grep "$2" err
}

test_expect_success 'every mistake is an error at FILE:LINE:COL' '
	bad "count exclude function foo\ncount inclde function foo\n" "bad.txt:2:7: expected .include. or .exclude., got .inclde." &&
	bad "counts include function foo\n" "bad.txt:1:1: expected .count. or .hooks." &&
	bad "count include functions foo\n" "bad.txt:1:15: expected .function., .asm., .file. or .loop." &&
	bad "count include function\n" "bad.txt:1:23: expected a name" &&
	bad "count include function foo bar\n" "bad.txt:1:28: unexpected .bar. after the name" &&
	bad "hooks include loop x.c\n" "bad.txt:1:20: expected FILE:LINE for a loop" &&
	bad "count include loop x.c:3\n" "bad.txt:1:1: loop rules select hooks" &&
	bad "count include function glob:\n" "bad.txt:1:29: expected a pattern after .glob:." &&
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=missing.txt -c names.c 2>err &&
	test_grep "cannot read the filter file .missing.txt." err
'

test_expect_success 'a NUL byte is an error, not the end of the rule or of the file' '
	bad "count exclude function foo\0bar\n" "bad.txt:1:27: NUL byte" &&
	bad "count exclude function foobar\n\0\ncount exclude function foo\n" "bad.txt:2:1: NUL byte" &&
	bad "count exclude function foo\n# \0 nothing\n" "bad.txt:2:3: NUL byte"
'

test_expect_success 'a directory or a FIFO as the filter is refused, not read as an empty filter' '
	mkdir dir &&
	test_must_fail gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=dir -c names.c 2>err &&
	test_grep "cannot read the filter file .dir.: Is a directory" err &&
	mkfifo fifo &&
	test_must_fail timeout 20 gcc -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=fifo -c names.c 2>err &&
	test_grep "cannot read the filter file .fifo.: not a regular file" err
'

test_expect_success 'hooks balance at run time: returns, break, goto out of a loop, at every -O' '
	cat >rl.c <<-\CEOF &&
	static int __attribute__((noinline)) find(const int *a, int n, int key)
	{
		for (int i = 0; i < n; i++) {
			if (a[i] == key)
				return i;
			if (a[i] < 0)
				goto out;
			if (a[i] > 1000)
				break;
		}
		return -1;
	out:
		return -2;
	}
	int main(void)
	{
		int a[] = {1, 2, 3, -1, 5, 2000, 7}, b[] = {1, 2000, 3}, s = 0;
		for (int k = 0; k < 8; k++)
			s += find(a, 7, k);
		return find(b, 3, 3) + s + 1 == 0;
	}
	CEOF
	cat >count-hooks.c <<-\CEOF &&
	#include <stdio.h>
	#include <stdlib.h>
	struct roi_region { unsigned long long unit; unsigned index, kind; void *next; unsigned long long calls, total; };
	static long depth[8], entered[8];
	void __roi_region_enter(struct roi_region *r);
	static struct roi_region *open_stack[64]; static int top;
	void __roi_region_exit(struct roi_region *r) { if (--depth[r->index] < 0 || open_stack[--top] != r) abort(); }
	void __roi_region_enter(struct roi_region *r) { entered[r->index]++; depth[r->index]++; open_stack[top++] = r; }
	__attribute__((destructor)) static void show(void)
	{ for (int i = 0; i < 8; i++) if (entered[i]) printf("%d %ld %ld\n", i, entered[i], depth[i]); }
	CEOF
	printf "hooks include function find\nhooks include loop rl.c:3\n" >f.txt &&
	# find runs 9 times; its loop is entered every time (n > 0); nothing stays open
	printf "0 9 0\n1 9 0\n" >expect &&
	for O in -O0 -O1 -O2 -Os; do
		gcc $O -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt rl.c count-hooks.c "$ROI_LIB" -o rl &&
		ROI_OUTPUT=rl.roi ./rl >got && test_cmp expect got || return 1
	done
'

test_expect_success 'a run in which no counted code ran: roi estimate says 0 operations' '
	cat >never.c <<-\CEOF &&
	int __attribute__((noinline)) never(int x) { return x + 1; }
	int main(int argc, char **argv) { (void)argv; return argc > 5 ? never(argc) : 0; }
	CEOF
	printf "count exclude function main\n" >f.txt &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt never.c "$ROI_LIB" -o never &&
	ROI_OUTPUT=never.roi ./never &&
	"$ROI" estimate never never.roi >est &&
	test_grep "^total  *0 ops" est
'

test_expect_success 'a loop is selected by its own line only, the one the report names it by' '
	# rl.c:3 is the for line; rl.c:4 is in the body
	printf "hooks include loop rl.c:4\n" >f.txt &&
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c rl.c &&
	meta_json rl.o >rl.json &&
	test_equal 0 "$(jq "[.[0].regions // [] | .[]] | length" rl.json)" &&
	test_equal false "$(jq ".[0].filter.rules[0].matched" rl.json)" &&
	printf "hooks include loop rl.c:3\n" >f.txt &&
	gcc -O2 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt -c rl.c &&
	meta_json rl.o >rl.json &&
	test_equal "[\"loop\",3]" "$(jq -c "[.[0].regions[] | .kind, .line]" rl.json)"
'

test_expect_success 'a tail call does not skip the exit hook (-O2 makes "return h (x)" a jump)' '
	cat >tail.c <<-\CEOF &&
	int __attribute__((noinline)) h(int x) { return x * 3 + 1; }
	int __attribute__((noinline)) k(int x) { return h(x + 1); }
	int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += k(i); return s == 0; }
	CEOF
	printf "hooks include function k\n" >f.txt &&
	# k runs 10 times and every run is closed again
	printf "0 10 0\n" >expect &&
	for O in -O1 -O2 -Os; do
		gcc $O -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt tail.c count-hooks.c "$ROI_LIB" -o tail &&
		ROI_OUTPUT=tail.roi ./tail >got && test_cmp expect got || return 1
	done &&
	objdump -d --no-show-raw-insn tail | awk "/^[0-9a-f]+ <k>:/ { on = 1; next } /^\$/ { on = 0 } on" >k.s &&
	test_grep "call.*<__roi_region_exit>" k.s
'

test_expect_success 'nested loops and recursion balance too' '
	cat >nest.c <<-\CEOF &&
	static int __attribute__((noinline)) walk(int d)
	{
		int s = 0;
		if (d == 0)
			return 1;
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++)
				s += walk(d - 1);
		return s;
	}
	int main(void) { return walk(3) != 64; }
	CEOF
	printf "hooks include function walk\nhooks include loop nest.c:6\nhooks include loop nest.c:7\n" >f.txt &&
	gcc -O0 -fplugin="$ROI_PLUGIN" -fplugin-arg-roi-filter=f.txt nest.c count-hooks.c "$ROI_LIB" -o nest &&
	ROI_OUTPUT=nest.roi ./nest >got &&
	# walk: 1 + 4 + 16 + 64 = 85 calls; the outer loop is entered by the 21
	# calls with d > 0, the inner loop twice per outer entry: 42. Regions are
	# numbered innermost loop first, then the function.
	printf "0 42 0\n1 21 0\n2 85 0\n" >expect &&
	test_cmp expect got
'

test_done
