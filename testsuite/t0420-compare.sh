#!/bin/sh
# asan: estimator (make check-asan runs it again with the sanitized roi)
test_description='roi compare: a host run and a simavr run of the same source side by side'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-roi.sh"

test_expect_success 'profiles of the matrix example: host -O0 and ATmega32U4 -Os' '
	roi_link matrix -O0 "$EXAMPLES/matrix/matrix.c" &&
	./matrix &&
	avr-gcc -mmcu=atmega32u4 -Os -fplugin="$ROI_BUILD/avr/roi.so" "$EXAMPLES/matrix/matrix.c" -o matrix.elf &&
	"$ROI" run --target avr --mcu atmega32u4 matrix.elf >run.out &&
	"$ROI" compare --json matrix.roi matrix.elf.roi >cmp.json &&
	"$ROI" compare matrix.roi matrix.elf.roi >cmp.txt
'

test_expect_success 'what the C semantics fix is equal on both sides' '
	# volatile accesses happen exactly as written, whatever the compiler
	test_equal 75 "$(jq "[.ops[] | select(.kind == \"store\" and (.detail | test(\"volatile\"))) | .a] | add" cmp.json)" &&
	test_equal 75 "$(jq "[.ops[] | select(.kind == \"store\" and (.detail | test(\"volatile\"))) | .b] | add" cmp.json)" &&
	test_equal 60 "$(jq "[.ops[] | select(.kind == \"load\" and (.detail | test(\"volatile\"))) | .b] | add" cmp.json)" &&
	test_equal 1 "$(jq ".functions[] | select(.name == \"main\") | .calls_b" cmp.json)"
'

test_expect_success 'types are matched by C type: the host int add meets the AVR int add' '
	jq -e ".ops[] | select(.kind == \"add\" and .type_a == \"i32\" and .type_b == \"i16\")" cmp.json &&
	test_equal "\"x86_64-linux-gnu\"" "$(jq .a.target cmp.json)" &&
	test_equal "\"avr\"" "$(jq .b.target cmp.json)" &&
	test_grep "^total .* ops in A" cmp.txt
'

test_expect_success 'a program that is gone, or a profile of another program: clear errors' '
	test_must_fail "$ROI" compare --program-a no-such-program matrix.roi matrix.elf.roi 2>err &&
	test_grep "no-such-program" err &&
	test_equal 1 "$(wc -l <err)" &&
	test_must_fail "$ROI" compare --program-a matrix.elf matrix.roi matrix.elf.roi 2>err &&
	test_grep "another build" err
'

test_done
