#!/bin/sh
test_description='make install: the command, runtime, header, models, and roi.so where -fplugin=roi finds it'
. "$(dirname "$0")/test-lib.sh"

plugindir=$(gcc -print-file-name=plugin)
avrplugindir=$(avr-gcc -print-file-name=plugin)
armplugindir=$(arm-none-eabi-gcc -print-file-name=plugin)

test_expect_success 'install into a staging directory' '
	make -s -C "$ROI_SRC" install DESTDIR="$PWD/stage" PREFIX=/opt/roi >log 2>&1 &&
	test -x stage/opt/roi/bin/roi &&
	test -f stage/opt/roi/lib/libroi.a &&
	test -f stage/opt/roi/include/roi.h &&
	test -f stage/opt/roi/share/roi/models/README.md -o -n "$(ls stage/opt/roi/share/roi/models/*.json 2>/dev/null)" &&
	test -f "stage$plugindir/roi.so"
'

test_expect_success 'the plugin works by its short name from the plugin directory' '
	cat >p.c <<-CEOF &&
	int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += i; return s - 3; }
	CEOF
	gcc -iplugindir="$PWD/stage$plugindir" -fplugin=roi -O0 p.c stage/opt/roi/lib/libroi.a -o p &&
	./p &&
	test -f p.roi &&
	stage/opt/roi/bin/roi estimate p >out &&
	test_grep "^total" out
'

test_expect_success 'cross plugins go to their own compilers: avr-gcc -fplugin=roi works' '
	test -f "stage$avrplugindir/roi.so" &&
	test -f "stage$armplugindir/roi.so" &&
	avr-gcc -mmcu=atmega32u4 -iplugindir="$PWD/stage$avrplugindir" -fplugin=roi -c p.c -o p-avr.o &&
	avr-objdump -h p-avr.o | grep -q "\.roi\.meta"
'

test_done
