#!/bin/sh
test_description='roi on hostile input: nothing hidden, nothing endless, no silent wrong number

What a probe of roi found (issue 27), each a class of input: a FIFO or a device
where a file is expected, a file larger than its format can hold, an ELF whose
sections lie past its end. Each must give one line naming the file and what is
wrong, exit 1, and never block or grow without bound.

The program is counted by the plugin, so its metadata is what roi reads every
day; the bad inputs are made from it and its profile.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

# fails PATTERN CMD...: CMD exits 1 within 20 s (so not by a signal, not blocked) and prints
# exactly one line on stderr, which matches PATTERN.
fails () {
	pattern=$1
	shift
	if timeout 20 "$@" >out 2>err; then got=0; else got=$?; fi
	test_equal 1 "$got" "exit status of '$*'" &&
	test_equal 1 "$(wc -l <err | tr -d ' ')" "lines on stderr of '$*'" &&
	test_grep "$pattern" err
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
	roi_link prog -O0 prog.c &&
	ROI_OUTPUT=prog.roi ./prog &&
	cp "$ROI_SRC/models/atmega32u4.json" model.json &&
	"$ROI" estimate --model model.json prog prog.roi >out &&
	printf "total ops <= 1000000ops\n" >budgets.txt &&
	"$ROI" budget check --budgets budgets.txt prog prog.roi >out
'

test_expect_success 'a FIFO as profile, program, model or budget file is refused, not waited on' '
	mkfifo fifo &&
	fails "^roi: fifo: not a regular file$" "$ROI" estimate prog fifo &&
	fails "^roi: fifo: not a regular file$" "$ROI" estimate fifo prog.roi &&
	fails "^roi: fifo: not a regular file$" "$ROI" ops fifo &&
	fails "^roi: fifo: not a regular file$" "$ROI" estimate --model fifo prog prog.roi &&
	fails "^roi: fifo: not a regular file$" "$ROI" budget check --budgets fifo prog prog.roi
'

test_expect_success 'a device that never ends is refused before a byte is read' '
	fails "^roi: /dev/zero: not a regular file$" "$ROI" estimate prog /dev/zero &&
	fails "^roi: /dev/urandom: not a regular file$" "$ROI" estimate --model /dev/urandom prog prog.roi &&
	fails "^roi: /dev/zero: not a regular file$" "$ROI" budget check --budgets /dev/zero prog prog.roi &&
	fails "^roi: /dev/zero: not a regular file$" "$ROI" ops /dev/zero &&
	fails "^roi: .: Is a directory$" "$ROI" estimate prog .
'

test_expect_success 'a file larger than its format can hold is refused by its size (sparse files)' '
	truncate -s 1025M big.roi &&
	fails "^roi: big.roi: larger than 1024 MiB" "$ROI" estimate prog big.roi &&
	truncate -s 65M big.json &&
	fails "^roi: big.json: larger than 64 MiB" "$ROI" estimate --model big.json prog prog.roi &&
	cp budgets.txt big.txt && truncate -s 17M big.txt &&
	fails "^roi: big.txt: larger than 16 MiB" "$ROI" budget check --budgets big.txt prog prog.roi
'

test_expect_success 'an ELF section larger than the file is named, not "no error"' '
	cp prog meta-past && past_end meta-past .roi.meta &&
	fails "^roi: meta-past: damaged ELF file: section .roi.meta extends past the end of the file" \
		"$ROI" estimate meta-past prog.roi &&
	fails "^roi: meta-past: damaged ELF file: section .roi.meta extends past the end of the file" \
		"$ROI" ops meta-past &&
	cp prog names-past && past_end names-past .shstrtab &&
	fails "^roi: names-past: damaged ELF file: section [0-9]* extends past the end of the file" "$ROI" ops names-past
'

test_done
