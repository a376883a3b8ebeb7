#!/bin/sh
# asan: runtime (make check-asan runs it again with the sanitized libroi.a)

test_description='host runtime (libroi.a): registration, profile format, merging, errors, region hooks'

. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# The plugin is not needed: testsuite/runtime/fake-unit.c lays out descriptors and registering
# constructors by hand, as docs/formats.md §2 says the plugin does. Expected profiles are written
# out here from the counts fake-unit adds, with the CRC from zlib or gzip, not from the runtime.

CC=${CC:-gcc}
here=$(pwd -P)          # /proc/self/exe gives the path without symlinks

# expect_profile FILE RUNS M [CHECKSUM_A0] [PROGRAM]: the profile of RUNS runs of fake-unit whose N
# add up to M (counter i gets N * (i + 1), the 64-bit counter 1 also N * 5000000000).
expect_profile () {
	m=$3
	{
		printf 'roi-profile 1\nprogram %s\nruns %s\n' "${5:-$here/fake-unit}" "$2"
		printf 'fn 00000000000000b2 0 0x0000b200 2 %s %s\n' $m $((m * 2))
		printf 'fn 9f86d081884c7d65 0 0x%s 3 %s %s %s\n' "${4:-1a2b3c4d}" $m $((m * 2)) $((m * 3))
		printf 'fn 9f86d081884c7d65 2 0xdeadbeef 2 %s %s\n' $m $((m * 2))
		printf 'fn 9f86d081884c7d65 10 0x00000001 1 %s\n' $m
		printf 'fn fedcba9876543210 1 0x80000000 2 %s %s\n' $m $((m * 5000000002))
	} >"$1.body"
	printf 'end 5 %s\n' "$(crc32 <"$1.body")" | cat "$1.body" - >"$1"
	rm "$1.body"
}

# Running as root ignores file modes; run the permission tests as nobody then.
if [ "$(id -u)" != 0 ]; then
	as_user () { "$@"; }
	user_dir () { mkdir "$1"; }
	test_set_prereq UNPRIVILEGED
elif command -v setpriv >/dev/null; then
	as_user () { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	user_dir () { mkdir "$1" && chown 65534:65534 "$1"; }
	test_set_prereq UNPRIVILEGED
fi

test_expect_success 'build fake-unit and its variants' '
	test -f "$ROI_LIB" &&
	build () {
		dir=$1 && shift &&
		mkdir -p $dir &&
		$CC -std=c11 -Wall -Wextra -Werror -O2 -pthread -I"$ROI_SRC/runtime" "$@" \
			"$ROI_SRC/testsuite/runtime/fake-unit.c" "$ROI_LIB" -o $dir/fake-unit
	} &&
	build . &&
	build other -DCK_A0=0x1a2b3c4e &&
	build ncount -DN_A0=4 &&
	build nounitb -DNO_UNIT_B &&
	build badabi -DBAD_ABI &&
	build nounits -DNO_UNITS &&
	build ownhooks -DOWN_HOOKS
'

test_expect_success 'profile format: sorted fn lines, 16/32/64-bit counters, end line with CRC' '
	./fake-unit 1 >out 2>err &&
	expect_profile expect 1 1 &&
	test_cmp expect fake-unit.roi &&
	test ! -s err &&
	test_equal "fake-unit.roi" "$(ls | grep "^fake-unit\.roi")" "files beside the profile"
'

test_expect_success 'counts and runs accumulate over runs' '
	rm fake-unit.roi &&
	./fake-unit 1 && ./fake-unit 2 && ./fake-unit 4 &&
	expect_profile expect 3 7 &&
	test_cmp expect fake-unit.roi
'

test_expect_success 'ROI_OUTPUT names the profile; an empty one means the default' '
	rm fake-unit.roi &&
	mkdir outdir &&
	ROI_OUTPUT=outdir/p.roi ./fake-unit 3 &&
	expect_profile expect 1 3 &&
	test_cmp expect outdir/p.roi &&
	test ! -e fake-unit.roi &&
	ROI_OUTPUT= ./fake-unit 3 &&
	test_cmp expect fake-unit.roi
'

test_expect_success 'the profile is named after the executable, in the current directory' '
	mkdir sub &&
	ln -s ../fake-unit sub/alias &&
	(cd sub && ./alias 2) &&
	expect_profile expect 1 2 &&
	test_cmp expect sub/fake-unit.roi &&
	test ! -e sub/alias.roi
'

test_expect_success 'an executable deleted while running still names its profile' '
	mkdir del && cp fake-unit del/ &&
	(cd del && exec ./fake-unit 2 touch ../running wait ../go) &
	n=0 && while [ ! -e running ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done &&
	rm del/fake-unit && touch go && wait $! &&
	rm go running &&
	expect_profile expect 1 2 1a2b3c4d "$here/del/fake-unit" &&
	test_cmp expect del/fake-unit.roi
'

test_expect_success 'the exit status of the program is unchanged' '
	status=0 && ROI_OUTPUT=st.roi ./fake-unit 1 exit 7 || status=$? &&
	test_equal 7 $status "exit status" &&
	expect_profile expect 1 1 &&
	test_cmp expect st.roi
'

test_expect_success 'the profile is an ordinary file: mode 0666 & ~umask' '
	(umask 027 && ROI_OUTPUT=mode1.roi ./fake-unit 1) &&
	(umask 002 && ROI_OUTPUT=mode2.roi ./fake-unit 1) &&
	test_equal 640 "$(stat -c %a mode1.roi)" &&
	test_equal 664 "$(stat -c %a mode2.roi)"
'

test_expect_success 'a profile of another build is kept as .stale, not mixed' '
	ROI_OUTPUT=p.roi ./fake-unit 1 &&
	cp p.roi first.roi &&
	ROI_OUTPUT=p.roi other/fake-unit 2 2>err &&
	test_cmp first.roi p.roi.stale &&
	expect_profile expect 1 2 1a2b3c4e "$here/other/fake-unit" &&
	test_cmp expect p.roi &&
	echo "roi: profile '\''p.roi'\'' is from a different build (function 0 of unit 9f86d081884c7d65: checksum 0x1a2b3c4d in the profile, 0x1a2b3c4e in this program); kept it as '\''p.roi.stale'\'' and started a new one" >expect.err &&
	test_cmp expect.err err
'

test_expect_success 'the other build then accumulates; switching back replaces the .stale' '
	ROI_OUTPUT=p.roi other/fake-unit 3 2>err &&
	test ! -s err &&
	test_cmp first.roi p.roi.stale &&
	expect_profile expect 2 5 1a2b3c4e "$here/other/fake-unit" &&
	test_cmp expect p.roi &&
	cp p.roi second.roi &&
	ROI_OUTPUT=p.roi ./fake-unit 1 2>err &&
	test_grep "from a different build" err &&
	test_cmp second.roi p.roi.stale &&
	expect_profile expect 1 1 &&
	test_cmp expect p.roi
'

# mismatch BUILD_BEFORE BUILD_AFTER REASON: the profile of BUILD_BEFORE is not mixed into BUILD_AFTER's.
mismatch () {
	rm -f m.roi m.roi.stale &&
	ROI_OUTPUT=m.roi $1/fake-unit 1 &&
	cp m.roi before.roi &&
	ROI_OUTPUT=m.roi $2/fake-unit 1 2>err &&
	test_cmp before.roi m.roi.stale &&
	grep "^runs 1$" m.roi &&
	echo "roi: profile 'm.roi' is from a different build ($3); kept it as 'm.roi.stale' and started a new one" >expect.err &&
	test_cmp expect.err err
}

test_expect_success 'a different counter count or unit set is not mixed either' '
	mismatch . ncount "function 0 of unit 9f86d081884c7d65: 3 counters in the profile, 4 in this program" &&
	mismatch . nounitb "function 0 of unit 00000000000000b2 is not in this program" &&
	mismatch nounitb . "function 0 of unit 00000000000000b2 is not in the profile"
'

# corrupt 'REASON': the runtime refuses c.roi (prepared by the caller) with REASON and starts anew.
corrupt () {
	cp c.roi bad.roi &&
	ROI_OUTPUT=c.roi ./fake-unit 1 2>err &&
	test_cmp bad.roi c.roi.stale &&
	test_cmp good.roi c.roi &&
	test_equal 1 "$(wc -l <err | tr -d " ")" "lines on stderr" &&
	test_grep "^roi: profile .c.roi. is corrupt ($1); kept it as .c.roi.stale. and started a new one\$" err
}

test_expect_success 'a truncated or edited profile is kept as .stale, naming the line at fault' '
	expect_profile good.roi 1 1 &&
	expect_profile two.roi 2 2 &&
	head -n 5 two.roi >c.roi && printf "fn 9f" >>c.roi &&
	corrupt "line 6: incomplete line, missing end line (truncated profile?)" &&
	head -n 6 two.roi >c.roi &&
	corrupt "line 7: missing end line (truncated profile?)" &&
	sed "5s/ 2 4 6\$/ 2 4 7/" two.roi >c.roi &&
	corrupt "line 9: CRC mismatch: end line says [0-9a-f]*, content has [0-9a-f]* (damaged or edited profile)" &&
	sed "s/^end 5/end 4/" two.roi >c.roi &&
	corrupt "line 9: end line counts 4 functions, the profile has 5" &&
	sed "4s/\$/ 9/" two.roi >c.roi &&
	corrupt "line 4: more than the 2 counts announced" &&
	sed "4s/ 4\$//" two.roi >c.roi &&
	corrupt "line 4: 2 counters announced, the line is too short for them" &&
	sed "6{h;d};7G" two.roi >c.roi &&
	corrupt "line 7: fn lines out of order" &&
	{ cat two.roi && echo extra; } >c.roi &&
	corrupt "line 10: data after the end line" &&
	sed "1s/1\$/2/" two.roi >c.roi &&
	corrupt "line 1: unsupported profile version 2 (this roi reads version 1)" &&
	echo hello >c.roi &&
	corrupt "line 1: not a roi profile (expected .roi-profile 1.)" &&
	: >c.roi &&
	corrupt "line 1: empty file, not a roi profile"
'

test_expect_success 'two.roi (the base of the corrupt cases) is itself accepted' '
	cp two.roi c.roi &&
	ROI_OUTPUT=c.roi ./fake-unit 1 2>err &&
	test ! -s err &&
	expect_profile expect 3 3 &&
	test_cmp expect c.roi
'

test_expect_success 'a missing directory: one line on stderr, exit status kept' '
	status=0 && ROI_OUTPUT=nodir/p.roi ./fake-unit 1 exit 3 2>err || status=$? &&
	test_equal 3 $status "exit status" &&
	echo "roi: cannot write profile '\''nodir/p.roi'\'': No such file or directory" >expect.err &&
	test_cmp expect.err err
'

# Output goes through a pipe: under the file size limit, writing it to a file would fail too.
test_expect_success 'a file size limit: EFBIG, not SIGXFSZ; the old profile stays; nothing left behind' '
	mkdir full &&
	ROI_OUTPUT=full/p.roi ./fake-unit 1 &&
	cp full/p.roi full.before &&
	{ (ulimit -f 0 && ROI_OUTPUT=full/p.roi exec ./fake-unit 1 dump sigxfsz exit 4) 2>&1 &&
	  echo 0 >status || echo $? >status; } | cat >out &&
	test_equal 4 "$(cat status)" "exit status" &&
	msg="roi: cannot write profile '\''full/p.roi'\'': File too large" &&
	printf "%s\n" "$msg" dump=-1 SIGXFSZ=default "$msg" >expect.out &&
	test_cmp expect.out out &&
	test_cmp full.before full/p.roi &&
	test_equal "p.roi" "$(cd full && echo *)" "files"
'

test_expect_success UNPRIVILEGED 'a read-only profile: one line on stderr, left unchanged' '
	user_dir ro &&
	ROI_OUTPUT=ro/p.roi as_user ./fake-unit 1 &&
	chmod 444 ro/p.roi && cp ro/p.roi ro.before &&
	status=0 && ROI_OUTPUT=ro/p.roi as_user ./fake-unit 1 exit 5 2>err || status=$? &&
	test_equal 5 $status "exit status" &&
	echo "roi: cannot write profile '\''ro/p.roi'\'': Permission denied" >expect.err &&
	test_cmp expect.err err &&
	test_cmp ro.before ro/p.roi &&
	test_equal "p.roi" "$(cd ro && echo *)" "files"
'

test_expect_success UNPRIVILEGED 'a read-only directory: one line on stderr' '
	user_dir rodir && chmod 555 rodir &&
	status=0 && ROI_OUTPUT=rodir/p.roi as_user ./fake-unit 1 exit 6 2>err || status=$? &&
	test_equal 6 $status "exit status" &&
	echo "roi: cannot write profile '\''rodir/p.roi'\'': Permission denied" >expect.err &&
	test_cmp expect.err err &&
	test -z "$(ls rodir)"
'

test_expect_success 'no temporary file is left anywhere' '
	test -z "$(find . -name "*.roi.tmp")"
'

# The lock is the directory: every process merges in turn, so the counts are the exact sum.
test_expect_success '16 processes exiting at once lose no run' '
	rm -f par.roi go &&
	i=1 && pids= &&
	while [ $i -le 16 ]; do
		ROI_OUTPUT=par.roi ./fake-unit $i wait go 2>err.$i &
		pids="$pids $!" && i=$((i + 1))
	done &&
	sleep 0.2 && touch go &&
	for p in $pids; do wait $p; done &&
	cat err.* >err && test ! -s err &&
	expect_profile expect 16 136 &&
	test_cmp expect par.roi &&
	test_equal "par.roi" "$(ls | grep "^par\.roi")" "files beside the profile"
'

test_expect_success 'roi_dump writes now and zeroes; the exit writer adds the rest' '
	ROI_OUTPUT=d.roi ./fake-unit 1 dump add >out &&
	echo dump=0 >expect.out && test_cmp expect.out out &&
	expect_profile expect 2 2 &&
	test_cmp expect d.roi &&
	ROI_OUTPUT=d2.roi ./fake-unit 1 dump dump &&
	expect_profile expect 3 1 &&
	test_cmp expect d2.roi
'

test_expect_success 'roi_reset discards the counts so far' '
	ROI_OUTPUT=r.roi ./fake-unit 1 add reset add &&
	expect_profile expect 1 1 &&
	test_cmp expect r.roi
'

test_expect_success 'a failed roi_dump keeps the counts for the exit writer' '
	./fake-unit 1 output nodir/p.roi dump output f.roi >out 2>err &&
	echo dump=-1 >expect.out && test_cmp expect.out out &&
	echo "roi: cannot write profile '\''nodir/p.roi'\'': No such file or directory" >expect.err &&
	test_cmp expect.err err &&
	expect_profile expect 1 1 &&
	test_cmp expect f.roi
'

test_expect_success 'a unit of another ABI version is ignored with one line' '
	ROI_OUTPUT=abi.roi badabi/fake-unit 1 2>err &&
	echo "roi: unit built for runtime ABI 2, this runtime has ABI 1; its counts are not recorded" >expect.err &&
	test_cmp expect.err err &&
	expect_profile expect 1 1 1a2b3c4d "$here/badabi/fake-unit" &&
	test_cmp expect abi.roi
'

test_expect_success 'without a registered unit nothing is written' '
	(cd nounits && ./fake-unit 1 dump >out 2>err) &&
	echo dump=0 >expect.out && test_cmp expect.out nounits/out &&
	test ! -s nounits/err &&
	test_equal "err fake-unit out" "$(cd nounits && echo *)" "files"
'

# ---- region hooks (docs/regions.md) ----
# Times vary from run to run: the fn lines are compared exactly, the region lines by their calls, and
# times only by what must hold (an inner region within its outer one, a sleep inside a region).

# regions FILE: "UNIT INDEX CALLS" of every region line, in order.
regions () { awk '$1 == "region" { print $2, $3, $4 }' "$1"; }

# region_ns FILE UNIT INDEX: the total of that region, in ns.
region_ns () { awk -v u="$2" -v i="$3" '$1 == "region" && $2 == u && $3 == i { print $5 }' "$1"; }

# without_regions FILE: FILE without its hook-cost, hook-inside and region lines and its end line.
without_regions () { grep -v -e "^hook-cost " -e "^hook-inside " -e "^region " -e "^end " "$1"; }

# sealed FILE: the end line holds the fn line count and the CRC of everything before it.
sealed () {
	sed '$d' "$1" >"$1.body" &&
	test_equal "end $(grep -c "^fn " "$1.body") $(crc32 <"$1.body")" "$(tail -n 1 "$1")" "end line of $1"
}

# fn_lines_are RUNS M FILE: the fn part of FILE is fake-unit's profile of RUNS runs adding up to M.
fn_lines_are () {
	expect_profile expect.fn "$1" "$2" && sed '$d' expect.fn >expect.body &&
	without_regions "$3" >actual.body && test_cmp expect.body actual.body
}

# at_least A B: A >= B (numbers, maybe larger than shell arithmetic likes).
at_least () {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }' || {
		echo "expected $1 >= $2" >&2
		return 1
	}
}

test_expect_success 'regions: calls exact, sorted by unit and index, after the fn lines; hook-cost after runs' '
	ROI_OUTPUT=g.roi ./fake-unit 1 enter b enter f loop 1000 leave f leave b 2>err &&
	test ! -s err &&
	fn_lines_are 1 1 g.roi &&
	sealed g.roi &&
	sed -n 4p g.roi | grep -E "^hook-cost [0-9]+\.[0-9]{2} ns$" &&
	sed -n 5p g.roi | grep -E "^hook-inside [0-9]+\.[0-9]{2} ns$" &&
	at_least "$(sed -n "4s/hook-cost \(.*\) ns/\1/p" g.roi)" "$(sed -n "5s/hook-inside \(.*\) ns/\1/p" g.roi)" &&
	printf "%s\n" "00000000000000b2 0 1" "9f86d081884c7d65 0 1" "9f86d081884c7d65 1 1000" >expect &&
	regions g.roi >actual && test_cmp expect actual &&
	grep "^region " g.roi | grep -vE "^region [0-9a-f]{16} [0-9]+ [0-9]+ [0-9]+ ns [0-9]+$" >bad || : &&
	test ! -s bad &&
	tail -n 4 g.roi | head -n 3 | grep -c "^region " >n && test_equal 3 "$(cat n)" &&
	at_least "$(region_ns g.roi 00000000000000b2 0)" "$(region_ns g.roi 9f86d081884c7d65 0)" &&
	at_least "$(region_ns g.roi 9f86d081884c7d65 0)" "$(region_ns g.roi 9f86d081884c7d65 1)"
'

test_expect_success 'a region never entered has no line; without regions there is no hook-cost line' '
	! grep "^region 9f86d081884c7d65 3 " g.roi &&
	ROI_OUTPUT=none.roi ./fake-unit 1 &&
	expect_profile expect 1 1 && test_cmp expect none.roi
'

test_expect_success 'nested regions: the time of the inner one is inside the outer one' '
	ROI_OUTPUT=n.roi ./fake-unit 1 enter f sleep 20 enter b sleep 30 leave b leave f &&
	f=$(region_ns n.roi 9f86d081884c7d65 0) && b=$(region_ns n.roi 00000000000000b2 0) &&
	at_least "$b" 30000000 && at_least "$f" 50000000 && at_least "$f" "$b" &&
	at_least 5000000000 "$f"
'

test_expect_success 'recursion: every call counted, the time of the outermost entry only' '
	ROI_OUTPUT=rec.roi ./fake-unit 1 recurse 5 100 &&
	echo "9f86d081884c7d65 2 5" >expect && regions rec.roi >actual && test_cmp expect actual &&
	r=$(region_ns rec.roi 9f86d081884c7d65 2) &&
	at_least "$r" 100000000 &&
	at_least 300000000 "$r"         # five levels counted each would be 500 ms
'

test_expect_success '8 threads entering one region at once: calls exact' '
	ROI_OUTPUT=thr.roi ./fake-unit 1 threads 8 20000 2>err &&
	test ! -s err &&
	echo "9f86d081884c7d65 4 160000" >expect && regions thr.roi >actual && test_cmp expect actual &&
	fn_lines_are 1 1 thr.roi
'

test_expect_success 'regions accumulate over runs; the profile keeps the union of those that ran' '
	ROI_OUTPUT=acc.roi ./fake-unit 1 loop 3 &&
	ROI_OUTPUT=acc.roi ./fake-unit 2 enter b leave b loop 4 2>err &&
	test ! -s err &&
	fn_lines_are 2 3 acc.roi && sealed acc.roi &&
	printf "%s\n" "00000000000000b2 0 1" "9f86d081884c7d65 1 7" >expect &&
	regions acc.roi >actual && test_cmp expect actual &&
	ROI_OUTPUT=acc.roi ./fake-unit 4 &&
	fn_lines_are 3 7 acc.roi && regions acc.roi >actual && test_cmp expect actual &&
	grep -q "^hook-cost " acc.roi
'

test_expect_success 'regions open at exit are timed up to the write, with one note' '
	status=0 && ROI_OUTPUT=open.roi ./fake-unit 1 enter f enter l sleep 20 exit 3 2>err || status=$? &&
	test_equal 3 $status "exit status" &&
	echo "roi: 2 regions were still open when the profile was written (exit() or another noreturn call inside them): timed up to here" >expect.err &&
	test_cmp expect.err err &&
	printf "%s\n" "9f86d081884c7d65 0 1" "9f86d081884c7d65 1 1" >expect &&
	regions open.roi >actual && test_cmp expect actual &&
	at_least "$(region_ns open.roi 9f86d081884c7d65 1)" 20000000
'

test_expect_success 'roi_dump inside a region: timed up to the dump, the rest at exit; one call' '
	ROI_OUTPUT=od.roi ./fake-unit 1 enter f sleep 20 dump sleep 20 leave f >out 2>err &&
	echo "roi: 1 region was still open when the profile was written (exit() or another noreturn call inside it): timed up to here" >expect.err &&
	test_cmp expect.err err &&
	fn_lines_are 2 1 od.roi &&
	echo "9f86d081884c7d65 0 1" >expect && regions od.roi >actual && test_cmp expect actual &&
	at_least "$(region_ns od.roi 9f86d081884c7d65 0)" 40000000
'

test_expect_success 'roi_reset zeroes the regions too' '
	ROI_OUTPUT=rr.roi ./fake-unit 1 loop 5 enter b leave b reset loop 2 &&
	echo "9f86d081884c7d65 1 2" >expect && regions rr.roi >actual && test_cmp expect actual
'

test_expect_success 'an exit that skips an open region (longjmp) closes it there, with a note' '
	ROI_OUTPUT=ub.roi ./fake-unit 1 enter f enter l leave f leave b 2>err &&
	printf "%s\n" "9f86d081884c7d65 0 1" "9f86d081884c7d65 1 1" >expect &&
	regions ub.roi >actual && test_cmp expect actual &&
	echo "roi: 2 region exits did not match the innermost open region (longjmp out of a region?)" >expect.err &&
	test_cmp expect.err err
'

test_expect_success 'nesting deeper than the stack: counted, not timed, with a note' '
	ROI_OUTPUT=deep.roi ./fake-unit 1 recurse 300 0 2>err &&
	echo "9f86d081884c7d65 2 300" >expect && regions deep.roi >actual && test_cmp expect actual &&
	echo "roi: 44 region entries were nested deeper than 256: counted, not timed" >expect.err &&
	test_cmp expect.err err
'

test_expect_success 'a program'"'"'s own hooks take the place of libroi'"'"'s (they are weak)' '
	ROI_OUTPUT=own.roi ownhooks/fake-unit 1 enter f loop 5 leave f >out 2>err &&
	echo "own hooks: 6 6" >expect.out && test_cmp expect.out out &&
	test ! -s err &&
	expect_profile expect 1 1 1a2b3c4d "$here/ownhooks/fake-unit" && test_cmp expect own.roi
'

# seal_body BODY OUT: OUT is BODY with its end line.
seal_body () { printf "end %s %s\n" "$(grep -c "^fn " "$1")" "$(crc32 <"$1")" | cat "$1" - >"$2"; }

test_expect_success 'a hook-cost and regions of an earlier run are kept by a run without regions' '
	expect_profile base.roi 1 1 && sed "\$d" base.roi >body &&
	{ sed -n 1,3p body && echo "hook-cost 100.00 ns" && sed -n "4,\$p" body &&
	  echo "region 9f86d081884c7d65 1 1000 5000 ns 7"; } >body2 &&
	seal_body body2 hc.roi &&
	ROI_OUTPUT=hc.roi ./fake-unit 1 2>err && test ! -s err &&
	test_equal "hook-cost 100.00 ns" "$(sed -n 4p hc.roi)" &&
	test_equal "hook-inside 100.00 ns" "$(sed -n 5p hc.roi)" &&
	test_equal "region 9f86d081884c7d65 1 1000 5000 ns 7" "$(grep "^region" hc.roi)" &&
	fn_lines_are 2 2 hc.roi && sealed hc.roi &&
	# a line as roi wrote it before 2026-11, without the inner enters: read as 0 of them
	sed "s/ ns 7\$/ ns/" body2 >body2old && seal_body body2old old.roi &&
	ROI_OUTPUT=old.roi ./fake-unit 1 2>err && test ! -s err &&
	test_equal "region 9f86d081884c7d65 1 1000 5000 ns 0" "$(grep "^region" old.roi)"
'

test_expect_success 'the hook cost of two runs is their mean weighted by region calls' '
	ROI_OUTPUT=w1.roi ./fake-unit 1 loop 1000 &&
	mine=$(sed -n "4s/^hook-cost \([0-9.]*\) ns\$/\1/p" w1.roi) &&
	sed "\$d" hc.roi | sed "s/^region 9f86d081884c7d65 1 1000 5000 ns/region 9f86d081884c7d65 1 3000 5000 ns/" >body3 &&
	seal_body body3 w.roi &&
	ROI_OUTPUT=w.roi ./fake-unit 1 loop 1000 2>err && test ! -s err &&
	got=$(sed -n "4s/^hook-cost \([0-9.]*\) ns\$/\1/p" w.roi) &&
	echo "region 9f86d081884c7d65 1 4000" >expect && grep "^region" w.roi | cut -d" " -f1-4 >actual &&
	test_cmp expect actual &&
	# (3000 x 100 + 1000 x the cost this run measured) / 4000: at least 75
	at_least "$got" 75 && at_least "$(awk -v m="$mine" "BEGIN { print 100 + m / 4 + 0.01 }")" "$got"
'

test_expect_success 'bad region and hook-cost lines: the profile is corrupt, the line named' '
	cp hc.roi rgood.roi &&
	sed "\$d" rgood.roi >rbody &&
	try () { seal_body "$1" c.roi && cp c.roi bad.roi && ROI_OUTPUT=c.roi ./fake-unit 1 2>err &&
		 test_cmp bad.roi c.roi.stale &&
		 test_equal 1 "$(wc -l <err | tr -d " ")" "lines on stderr" &&
		 test_grep "^roi: profile .c.roi. is corrupt ($2); kept it as .c.roi.stale. and started a new one\$" err; } &&
	sed "s/^region \(.*\) ns 7\$/region \1 cycles 7/" rbody >b1 && try b1 "line 11: time unit .cycles. differs from the .ns. of line 4" &&
	sed "s/^region \(.*\) ns 7\$/region \1 ns x/" rbody >b9 && try b9 "line 11: inner hook count .x. is not a decimal number up to 18446744073709551615" &&
	{ cat rbody && echo "region 9f86d081884c7d65 0 1 1 ns"; } >b2 && try b2 "line 12: region lines out of order" &&
	{ cat rbody && echo "region 9f86d081884c7d65 1 1 1 ns"; } >b3 && try b3 "line 12: region lines out of order" &&
	{ sed -n "1,9p" rbody && sed -n 11p rbody && sed -n 10p rbody; } >b4 && try b4 "line 11: fn line after the region lines (fn lines come first)" &&
	sed "s/^hook-cost 100.00 ns/hook-cost 1,5 ns/" rbody >b5 && try b5 "line 4: hook cost .1,5. is not a decimal number (digits, optionally .\.. and digits)" &&
	{ sed -n 1,4p rbody && sed -n 4p rbody && sed -n "6,\$p" rbody; } >b6 && try b6 "line 5: the hook-cost line must come right after the runs line (or the transferred line)" &&
	sed "s/^hook-inside 100.00 ns/hook-inside 100.0.0 ns/" rbody >b7 && try b7 "line 5: hook cost .100\.0\.0. is not a decimal number (digits, optionally .\.. and digits)" &&
	{ sed -n 1,3p rbody && sed -n 5p rbody && sed -n "6,\$p" rbody; } >b8 && try b8 "line 4: the hook-inside line must come right after the hook-cost line"
'

# ---- hostile profiles and leftovers ----

test_expect_success 'a file longer than any profile of this program is corrupt, and not read whole' '
	truncate -s 1G big.roi &&
	ROI_OUTPUT=big.roi ./fake-unit 1 2>err &&
	test_grep "^roi: profile .big.roi. is corrupt (more than the [0-9]* bytes a profile of this program can hold); kept it as .big.roi.stale. and started a new one$" err &&
	test_equal 1 "$(wc -l <err | tr -d " ")" &&
	test_equal 1073741824 "$(stat -c %s big.roi.stale)" &&
	expect_profile expect 1 1 && test_cmp expect big.roi &&
	rm big.roi.stale
'

# full BODY 'REASON' ARGS...: the profile sealed from BODY is refused as full with REASON by a run of
# fake-unit ARGS, kept as .stale, and a new profile started.
full () {
	seal_body "$1" f.roi && cp f.roi f.before && reason=$2 && shift 2 &&
	ROI_OUTPUT=f.roi ./fake-unit "$@" 2>err &&
	echo "roi: profile 'f.roi' is full ($reason); kept it as 'f.roi.stale' and started a new one" >expect.err &&
	test_cmp expect.err err &&
	test_cmp f.before f.roi.stale &&
	grep "^runs 1$" f.roi
}

test_expect_success 'a count, runs or a region sum past 2^64 - 1: refused as full, not wrapped round' '
	max=18446744073709551615 &&
	expect_profile base.roi 1 1 && sed "\$d" base.roi >body &&
	sed "s/^\(fn fedcba9876543210 1 0x80000000 2\) 1 /\1 $max /" body >b1 &&
	full b1 "counter 0 of function 1 of unit fedcba9876543210: $max in the profile and 1 in this run add up to more than 2^64 - 1" 1 &&
	expect_profile expect 1 1 && test_cmp expect f.roi &&
	sed "s/^runs 1$/runs $max/" body >b2 &&
	full b2 "runs: $max in the profile and 1 in this run add up to more than 2^64 - 1" 1 &&
	{ cat body && echo "region 9f86d081884c7d65 1 $max 5000 ns 7"; } >b3 &&
	full b3 "calls of region 1 of unit 9f86d081884c7d65: $max in the profile and 1 in this run add up to more than 2^64 - 1" 1 loop 1 &&
	{ cat body && echo "region 9f86d081884c7d65 0 1 $max ns 0"; } >b4 && seal_body b4 f.roi &&
	ROI_OUTPUT=f.roi ./fake-unit 1 enter f sleep 1 leave f 2>err &&
	test_grep "^roi: profile .f.roi. is full (time of region 0 of unit 9f86d081884c7d65: $max in the profile and [1-9][0-9]* in this run add up to more than 2^64 - 1); kept it as .f.roi.stale. and started a new one$" err &&
	# one short of the limit still merges
	sed "s/^\(fn fedcba9876543210 1 0x80000000 2\) 1 /\1 18446744073709551614 /" body >b5 &&
	seal_body b5 f.roi && ROI_OUTPUT=f.roi ./fake-unit 1 2>err && test ! -s err &&
	test_grep "^fn fedcba9876543210 1 0x80000000 2 $max 10000000004$" f.roi
'

# A writer killed between creating its temporary and renaming it (SIGKILL) leaves the temporary,
# PROFILE.tmp: every writer holds the lock from creating it to renaming it, so the next one finds
# it at that name, without listing the directory.
test_expect_success 'the temporary a killed writer left is replaced by the next one, and nothing else' '
	mkdir tmps && ROI_OUTPUT=tmps/p.roi ./fake-unit 1 &&
	echo left >tmps/p.roi.tmp &&
	echo keep >tmps/p.roi.tmp.Ab3xYz && echo keep >tmps/p.roi.tmpx && echo keep >tmps/q.roi.tmp &&
	ROI_OUTPUT=tmps/p.roi ./fake-unit 1 2>err && test ! -s err &&
	expect_profile expect 2 2 && test_cmp expect tmps/p.roi &&
	printf "%s\n" p.roi p.roi.tmp.Ab3xYz p.roi.tmpx q.roi.tmp >expect &&
	(cd tmps && LC_ALL=C ls) >actual && test_cmp expect actual
'

test_expect_success 'a link at the name of the temporary is removed, not followed' '
	echo mine >tmps/victim && cp tmps/victim victim.orig &&
	ln -s victim tmps/p.roi.tmp &&
	ROI_OUTPUT=tmps/p.roi ./fake-unit 1 2>err && test ! -s err &&
	expect_profile expect 3 3 && test_cmp expect tmps/p.roi &&
	test_cmp victim.orig tmps/victim &&
	! test -e tmps/p.roi.tmp && ! test -L tmps/p.roi.tmp
'

test_expect_success 'a directory at the name of the temporary: one line; profile and exit status unchanged' '
	mkdir tmps/p.roi.tmp && cp tmps/p.roi p.before &&
	status=0 && ROI_OUTPUT=tmps/p.roi ./fake-unit 1 exit 7 2>err || status=$? &&
	test_equal 7 $status "exit status" &&
	echo "roi: cannot write profile '\''tmps/p.roi'\'': '\''tmps/p.roi.tmp'\'' is in the way (Is a directory)" >expect.err &&
	test_cmp expect.err err &&
	test_cmp p.before tmps/p.roi && test -d tmps/p.roi.tmp
'

# fsync costs milliseconds a process (docs/formats.md §3): only ROI_FSYNC=1 pays it, for the
# temporary before the rename and for the directory after it.
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	test_set_prereq STRACE
fi

test_expect_success STRACE 'no fsync unless ROI_FSYNC=1, which syncs the profile and then its directory' '
	mkdir sync && here_sync=$(cd sync && pwd -P) &&
	ROI_OUTPUT=sync/p.roi strace -f -y -e trace=fsync -o trace ./fake-unit 1 &&
	! grep fsync trace &&
	ROI_OUTPUT=sync/p.roi ROI_FSYNC=0 strace -f -y -e trace=fsync -o trace ./fake-unit 1 &&
	! grep fsync trace &&
	ROI_OUTPUT=sync/p.roi ROI_FSYNC=1 strace -f -y -e trace=fsync -o trace ./fake-unit 1 &&
	sed -n "s/^[0-9]* *fsync([0-9]*<\(.*\)>) *= 0\$/\1/p" trace >actual &&
	printf "%s\n" "$here_sync/p.roi.tmp" "$here_sync" >expect &&
	test_cmp expect actual &&
	expect_profile expect 3 3 && test_cmp expect sync/p.roi
'

test_done
