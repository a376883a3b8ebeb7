#!/bin/sh
# demo.sh — the README's 'make demo': count the seed's matrix multiplication
# with the host gcc and estimate it for the two microcontrollers the seed
# measured, ATmega32U4 and STM32F401RE.  Runs from the top of the tree so the
# commands it prints are the ones a user types.
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/demo
rm -f build/demo/matrix build/demo/matrix.roi

run () {
	echo "\$ $*"
	"$@"
}

echo "== 1. compile with the plugin, link the runtime"
run gcc -O0 -fplugin=build/host/roi.so contrib/examples/matrix/matrix.c build/host/libroi.a \
	-o build/demo/matrix
echo
echo "== 2. run: the profile is written at exit (ROI_OUTPUT names it)"
export ROI_OUTPUT=build/demo/matrix.roi
run build/demo/matrix
run cat build/demo/matrix.roi
echo
echo "== 3. what ran: executed operations by kind and type"
run build/bin/roi estimate build/demo/matrix
for model in atmega32u4 stm32f401re; do
	echo
	echo "== 4. estimated for $model (the host profile is mapped through its ABI)"
	run build/bin/roi estimate --model models/$model.json build/demo/matrix
done
