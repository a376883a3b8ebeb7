#!/bin/sh
# asan: runtime (make check-asan runs it again with the sanitized libroi.a)
test_description='ROI_OUTPUT naming something that is not a regular file

A profile is written to a new file renamed over the old one, so that a reader
never sees half of it. A device or a FIFO must not be renamed over: the profile
is written into it as it is, and the device stays a device (as root,
ROI_OUTPUT=/dev/null once replaced /dev/null itself with a regular file, and
moved the device aside as /dev/null.stale). A FIFO that nobody reads is given
up after a second, not waited for at exit forever. The stream names
/dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are written into the
descriptor they name, at its offset. Any other symbolic link is refused with
one line and its target left alone: in a shared directory another user may
have planted it (prog.roi -> /etc/passwd, for a run as root). A directory is
refused with one line. The exit status of the program never changes.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# A character device of our own, the same as /dev/null, to look at afterwards.
if mknod nulldev c 1 3 2>/dev/null; then
	test_set_prereq MKNOD
fi

test_expect_success 'counted programs' '
	printf "int main(void) { return 3; }\n" >three.c &&
	roi_link three three.c &&
	printf "int main(void) { return 0; }\n" >zero.c &&
	roi_link zero zero.c
'

test_expect_success MKNOD 'a character device stays one, with nothing beside it' '
	{ ROI_OUTPUT=$PWD/nulldev ./three; test_equal 3 $? "exit status"; } &&
	test -c nulldev &&
	! test -e nulldev.stale && ! test -e nulldev.lock &&
	test_equal "" "$(ls nulldev.tmp.* 2>/dev/null)" "temporary files"
'

# /dev/stdout is a link to /proc/self/fd/1: here a pipe, not a file to replace.
test_expect_success 'ROI_OUTPUT=/dev/stdout: the profile on the pipe' '
	ROI_OUTPUT=/dev/stdout ./three | cat >out &&
	test_equal "roi-profile 1" "$(head -n 1 out)" &&
	test_grep "^end 1 [0-9a-f]*$" out &&
	test -L /dev/stdout
'

test_expect_success '/dev/stdout a file: the profile at its offset, the program'"'"'s output after it' '
	printf "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 3; }\n" >hello.c &&
	roi_link hello hello.c &&
	{ ROI_OUTPUT=/dev/stdout ./hello >to-file 2>err; test_equal 3 $? "exit status"; } &&
	test ! -s err &&
	test_equal "roi-profile 1" "$(head -n 1 to-file)" &&
	test_equal "hello" "$(tail -n 1 to-file)" &&
	test_equal "to-file" "$(ls | grep "^to-file")" "files" &&
	{ ROI_OUTPUT=/dev/fd/5 ./three 5>fd5.out; test_equal 3 $? "exit status"; } &&
	test_grep "^end 1 [0-9a-f]*$" fd5.out &&
	{ ROI_OUTPUT=/proc/self/fd/5 ./three 5>>fd5.out; test_equal 3 $? "exit status"; } &&
	test_equal 2 "$(grep -c "^roi-profile 1$" fd5.out)"
'

# The shell holds the FIFO open for reading (and writing, so that opening it
# does not wait), and reads the profile once the program is done.
test_expect_success 'a FIFO gets the profile' '
	mkfifo fifo &&
	exec 3<>fifo &&
	{ ROI_OUTPUT=$PWD/fifo ./three; test_equal 3 $? "exit status"; } &&
	sed "/^end /q" <&3 >fifo.out &&
	exec 3<&- &&
	test -p fifo &&
	test_equal "roi-profile 1" "$(head -n 1 fifo.out)" &&
	test_grep "^end 1 [0-9a-f]*$" fifo.out
'

test_expect_success 'a FIFO nobody reads: one line after a second, not a hang' '
	mkfifo lonely &&
	{ ROI_OUTPUT=$PWD/lonely timeout 20 ./three 2>err; test_equal 3 $? "exit status"; } &&
	echo "roi: cannot write profile '\''$PWD/lonely'\'': no process has the FIFO open for reading" >expect.err &&
	test_cmp expect.err err &&
	test -p lonely
'

# refused LINK PROGRAM: PROGRAM (exit status 3) refuses the symbolic link LINK with one line, writes
# nothing beside it, and victim is as it was.
refused () {
	{ ROI_OUTPUT=$PWD/$1 ./$2 2>err; test_equal 3 $? "exit status"; } &&
	echo "roi: cannot write profile '$PWD/$1': it is a symbolic link" >expect.err &&
	test_cmp expect.err err &&
	test -L $1 &&
	test_equal "$1" "$(ls | grep "^$1")" "files beside the link" &&
	test_cmp victim.orig victim
}

test_expect_success 'a symbolic link is refused, whatever it points to; its target is left alone' '
	printf "root:x:0:0:root:/root:/bin/sh\n" >victim && cp victim victim.orig &&
	ln -s victim link.roi && refused link.roi three &&
	ln -s made.roi dangling.roi && refused dangling.roi three && test ! -e made.roi &&
	ln -s /dev/null null.roi && refused null.roi three &&
	ln -s /proc/self/fd/1 stdout-link &&
	{ refused stdout-link three >to-file2; } && test ! -s to-file2 &&
	mkdir -m 1777 shared && cp three shared/ && ln -s ../victim shared/three.roi &&
	{ (cd shared && ./three) 2>err; test_equal 3 $? "exit status"; } &&
	echo "roi: cannot write profile '\''./three.roi'\'': it is a symbolic link" >expect.err &&
	test_cmp expect.err err &&
	test_cmp victim.orig victim &&
	test_equal "three three.roi" "$(cd shared && echo *)" "files"
'

test_expect_success 'a link at the name of the .stale is replaced, not followed' '
	echo "not a profile" >p.roi && cp p.roi p.orig &&
	ln -s victim p.roi.stale &&
	ROI_OUTPUT=p.roi ./zero 2>err &&
	test_grep "^roi: profile .p.roi. is corrupt (line 1: not a roi profile (expected .roi-profile 1.)); kept it as .p.roi.stale. and started a new one$" err &&
	test ! -L p.roi.stale && test_cmp p.orig p.roi.stale &&
	test_equal "roi-profile 1" "$(head -n 1 p.roi)" &&
	test_cmp victim.orig victim
'

test_expect_success 'a directory: one line, the program exits as it would' '
	mkdir dir &&
	{ ROI_OUTPUT=$PWD/dir ./three 2>err; test_equal 3 $? "exit status"; } &&
	test -d dir &&
	test_equal 1 "$(wc -l <err | tr -d " ")" &&
	test_grep "^roi: cannot write profile .*dir.: Is a directory$" err
'

test_done
