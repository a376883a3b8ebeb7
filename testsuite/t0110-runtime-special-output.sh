#!/bin/sh
test_description='ROI_OUTPUT naming something that is not a regular file

A profile is written to a new file renamed over the old one, so that a reader
never sees half of it. /dev/null, /dev/stdout or a FIFO must not be renamed
over: the profile is written into them as they are, and the device stays a
device (as root, ROI_OUTPUT=/dev/null once replaced /dev/null itself with a
regular file, and moved the device aside as /dev/null.stale). A symbolic link
is followed: the profile replaces the file it points to, never the link. A
directory is refused with one line. The exit status of the program never
changes.'
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

test_expect_success 'a FIFO gets the profile' '
	mkfifo fifo &&
	{ cat fifo >fifo.out & } &&
	{ ROI_OUTPUT=$PWD/fifo ./three; test_equal 3 $? "exit status"; } &&
	wait &&
	test -p fifo &&
	test_equal "roi-profile 1" "$(head -n 1 fifo.out)"
'

test_expect_success 'a symbolic link: the profile replaces what it points to, not the link' '
	mkdir -p data &&
	ln -s data/real.roi link.roi &&
	ROI_OUTPUT=$PWD/link.roi ./zero && ROI_OUTPUT=$PWD/link.roi ./zero &&
	test -L link.roi &&
	test_grep "^runs 2$" data/real.roi &&
	ln -sf /proc/self/fd/1 stdout-link &&
	{ ROI_OUTPUT=$PWD/stdout-link ./three >to-file; test_equal 3 $? "exit status"; } &&
	test -L stdout-link && test -f to-file
'

test_expect_success 'a directory: one line, the program exits as it would' '
	mkdir dir &&
	{ ROI_OUTPUT=$PWD/dir ./three 2>err; test_equal 3 $? "exit status"; } &&
	test -d dir &&
	test_equal 1 "$(wc -l <err | tr -d " ")" &&
	test_grep "^roi: cannot write profile .*dir.: Is a directory$" err
'

test_done
