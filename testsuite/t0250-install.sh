#!/bin/sh
test_description='make install and uninstall as GNU does: everything under DESTDIR/PREFIX, a
firmware project outside the tree built and checked with the installed roi through Make and
CMake, pkg-config and find_package, and nothing left behind'
. "$(dirname "$0")/test-lib.sh"

plugindir=$(gcc -print-file-name=plugin)
command -v cmake >/dev/null && test_set_prereq CMAKE
inst=$PWD/inst

# The installed roi, found on PATH as a user would have it.
PATH=$inst/bin:$PATH
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"

test_expect_success 'install into PREFIX: the command, runtime, header, plugins, data, man pages' '
	make -s -C "$ROI_SRC" install PREFIX="$inst" >log 2>&1 &&
	test -x inst/bin/roi && test -f inst/lib/libroi.a && test -f inst/include/roi.h &&
	test -f inst/lib/roi/plugin/host/roi.so && test -f inst/lib/roi/plugin/avr/roi.so &&
	test -f inst/lib/roi/plugin/arm/roi.so &&
	test -f inst/share/roi/models/atmega32u4-Os.json && test -f inst/share/roi/calibration/SUBSET &&
	test -f inst/share/roi/make/roi.mk && test -f inst/share/roi/cmake/roi.cmake &&
	test -f inst/share/roi/ports/roi-region-simavr.c &&
	test -f inst/share/roi/cortex-m/mps2-an386/startup.c &&
	test -f inst/lib/pkgconfig/roi.pc && test -f inst/lib/cmake/roi/roiConfig.cmake &&
	man -l inst/share/man/man1/roi.1 >roi.man 2>/dev/null && test_grep "roi-estimate(1)" roi.man &&
	man -l inst/share/man/man1/roi-estimate.1 >est.man 2>/dev/null && test_grep "^ *-m, --model FILE" est.man &&
	test "$(ls inst/share/man/man1 | wc -l)" -gt 9
'

test_expect_success 'nothing outside PREFIX: not the compilers'"'"' plugin folders' '
	! test -e "$plugindir/roi.so" || test "$plugindir/roi.so" -ot inst/bin/roi
'

test_expect_success 'a DESTDIR staging copy holds the same files under DESTDIR/PREFIX' '
	make -s -C "$ROI_SRC" install DESTDIR="$PWD/stage" PREFIX=/opt/roi >log 2>&1 &&
	(cd inst && find . -type f | sort) >inst.files &&
	(cd stage/opt/roi && find . -type f | sort) >stage.files &&
	test_cmp inst.files stage.files &&
	test_equal "" "$(cd stage && find . -type f | grep -v "^./opt/roi/")" "files outside PREFIX"
'

test_expect_success 'roi --version, and a model by its name' '
	roi --version >v && test_grep "^roi [0-9][0-9.]*$" v &&
	test_equal "roi $(cat "$ROI_SRC/VERSION")" "$(roi estimate --version)" &&
	roi help estimate >h1 && roi estimate --help >h2 && test_cmp h1 h2 && test_grep "^usage: roi estimate" h1 &&
	printf "int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += i; return s - 3; }\n" >p.c &&
	gcc $(pkg-config --cflags roi) -O0 p.c $(pkg-config --libs roi) -o p &&
	./p && test -f p.roi &&
	roi estimate --model atmega32u4-O0 p >est && test_grep "^model .*atmega32u4-O0.json\\]$" est &&
	test_must_fail roi estimate --model atmega99 p 2>err &&
	test_grep "^roi: atmega99: no such file, and no model of that name (roi.s models: .*atmega32u4-Os" err
'

test_expect_success 'an installed roi calibrate finds its corpus and plugin' '
	echo kernel-crc8 >one &&
	roi calibrate --target avr --mcu atmega32u4 --base atmega32u4 -O0 --programs one -o m.json 2>cal.err &&
	jq -e ".calibration.programs | length == 1" m.json >/dev/null &&
	test_equal "$inst/share/roi/calibration" "$(jq -r .calibration.corpus m.json)" "corpus" &&
	test_equal "$inst/share/roi/models/atmega32u4.json" "$(jq -r .calibration.base m.json)" "base model"
'

# A firmware project of its own, outside the tree: four multiplications by hand (i * 3 for
# i = 0..3), a budget of 4 that passes and one of 3 that fails.
test_expect_success 'a firmware project with Make: the installed roi.mk builds, runs and checks it' '
	mkdir -p fw && cd fw &&
	printf "volatile unsigned char out;\nint main(void) { for (unsigned char i = 0; i < 4; i++) out = i * 3; return 0; }\n" >app.c &&
	echo "function main ops:mul <= 4ops" >ok.txt &&
	echo "function main ops:mul <= 3ops" >over.txt &&
	{
		printf "ROI_FIRMWARES := app\napp_SOURCES := app.c\napp_BUDGETS := ok.txt\n" &&
		printf "include \$(shell pkg-config --variable=makedir roi)/roi.mk\n"
	} >Makefile &&
	make energy-check >out 2>&1 &&
	test_grep "^result    PASS: 1 budget" out &&
	test_grep "^  ok.txt:1  function main ops:mul per run  *4 ops  *4 ops" out &&
	sed -i "s/ok.txt/over.txt/" Makefile &&
	test_must_fail make energy-check >out 2>&1 &&
	test_grep "^result    FAIL: 1 budget" out
'

test_expect_success CMAKE 'a firmware project with CMake: find_package(roi) and roi_energy_check()' '
	mkdir -p cm && cd cm &&
	cp ../fw/app.c ../fw/ok.txt . &&
	cat >CMakeLists.txt <<-\EOF &&
	cmake_minimum_required(VERSION 3.13)
	project(app C)
	find_package(roi 0 REQUIRED)
	roi_energy_check(app SOURCES ${CMAKE_SOURCE_DIR}/app.c BUDGETS ${CMAKE_SOURCE_DIR}/ok.txt
	                 MODEL atmega32u4 MCU atmega32u4)
	EOF
	cmake -S . -B b -DCMAKE_PREFIX_PATH="$inst" \
		-DCMAKE_TOOLCHAIN_FILE="$inst/share/roi/cmake/avr-toolchain.cmake" >cmake.log 2>&1 &&
	cmake --build b --target energy-check >out 2>&1 &&
	test_grep "^result    PASS: 1 budget" out &&
	test_grep "$inst/bin/roi" b/CMakeCache.txt
'

test_expect_success 'make uninstall leaves nothing behind' '
	make -s -C "$ROI_SRC" uninstall PREFIX="$inst" >log 2>&1 &&
	test_equal "" "$(find inst -type f)" "files left in PREFIX" &&
	make -s -C "$ROI_SRC" uninstall DESTDIR="$PWD/stage" PREFIX=/opt/roi >log 2>&1 &&
	test_equal "" "$(find stage -type f)" "files left in DESTDIR"
'

test_expect_success 'make install-plugins puts them where -fplugin=roi finds them, DESTDIR too' '
	make -s -C "$ROI_SRC" install-plugins DESTDIR="$PWD/pl" >log 2>&1 &&
	test -f "pl$plugindir/roi.so" &&
	gcc -iplugindir="$PWD/pl$plugindir" -fplugin=roi -O0 -c p.c -o p-short.o &&
	objdump -h p-short.o | grep -q "\.roi\.meta" &&
	make -s -C "$ROI_SRC" uninstall-plugins DESTDIR="$PWD/pl" >log 2>&1 &&
	! test -e "pl$plugindir/roi.so"
'

test_done
