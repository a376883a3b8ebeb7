#!/bin/sh

test_description='host runtime (libroi.a): registration, profile format, merging, errors'

. "$(dirname "$0")/test-lib.sh"

# The plugin is not needed: testsuite/runtime/fake-unit.c lays out descriptors and registering
# constructors by hand, as docs/formats.md §2 says the plugin does. Expected profiles are written
# out here from the counts fake-unit adds, with the CRC from zlib or gzip, not from the runtime.

CC=${CC:-gcc}
here=$(pwd -P)          # /proc/self/exe gives the path without symlinks

# crc32 FILE: IEEE CRC-32 of FILE as 8 hex digits.
crc32 () {
	if command -v python3 >/dev/null; then
		python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' "$1"
	else
		gzip -c "$1" | tail -c8 | od -An -tx4 -N4 | tr -d ' '
	fi
}

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
	printf 'end 5 %s\n' "$(crc32 "$1.body")" | cat "$1.body" - >"$1"
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
		$CC -std=c11 -Wall -Wextra -Werror -O2 -I"$ROI_SRC/runtime" "$@" \
			"$ROI_SRC/testsuite/runtime/fake-unit.c" "$ROI_LIB" -o $dir/fake-unit
	} &&
	build . &&
	build other -DCK_A0=0x1a2b3c4e &&
	build ncount -DN_A0=4 &&
	build nounitb -DNO_UNIT_B &&
	build badabi -DBAD_ABI &&
	build nounits -DNO_UNITS
'

test_expect_success 'profile format: sorted fn lines, 16/32/64-bit counters, end line with CRC' '
	./fake-unit 1 >out 2>err &&
	expect_profile expect 1 1 &&
	test_cmp expect fake-unit.roi &&
	test ! -s err &&
	test -f fake-unit.roi.lock &&
	test -z "$(ls | grep tmp)"
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
	echo "roi: profile 'c.roi' is corrupt ($1); kept it as 'c.roi.stale' and started a new one" >expect.err &&
	test_cmp expect.err err
}

test_expect_success 'a truncated or edited profile is kept as .stale, naming the line at fault' '
	expect_profile good.roi 1 1 &&
	expect_profile two.roi 2 2 &&
	head -n 5 two.roi >c.roi && printf "fn 9f" >>c.roi &&
	corrupt "line 6: truncated line" &&
	head -n 6 two.roi >c.roi &&
	corrupt "line 7: truncated: no end line" &&
	sed "5s/ 2 4 6\$/ 2 4 7/" two.roi >c.roi &&
	corrupt "line 9: CRC mismatch" &&
	sed "s/^end 5/end 4/" two.roi >c.roi &&
	corrupt "line 9: fn line count differs from the end line'\''s" &&
	sed "4s/\$/ 9/" two.roi >c.roi &&
	corrupt "line 4: more counts than announced" &&
	sed "4s/ 4\$//" two.roi >c.roi &&
	corrupt "line 4: fewer counts than announced, or a malformed count" &&
	sed "6{h;d};7G" two.roi >c.roi &&
	corrupt "line 7: fn lines out of order" &&
	{ cat two.roi && echo extra; } >c.roi &&
	corrupt "line 9: data after the end line" &&
	sed "1s/1\$/2/" two.roi >c.roi &&
	corrupt "line 1: unsupported format version" &&
	echo hello >c.roi &&
	corrupt "line 1: not a roi profile" &&
	: >c.roi &&
	corrupt "line 1: empty file"
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
	test_equal "p.roi p.roi.lock" "$(cd full && echo *)" "files"
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
	test_equal "p.roi p.roi.lock" "$(cd ro && echo *)" "files"
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
	test -z "$(find . -name "*.tmp.*")"
'

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
	test ! -e par.roi.stale
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

test_done
