#!/bin/sh
# demo.sh — the README's 'make demo': count the seed's matrix multiplication
# with the host gcc and estimate it for the two microcontrollers the seed
# measured, ATmega32U4 and STM32F401RE.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
roi=$top/build/bin/roi
work=$top/build/demo
mkdir -p "$work"
cd "$work"
rm -f matrix matrix.roi

run () {
	echo "\$ $*"
	"$@"
}

echo "== 1. compile with the plugin, link the runtime"
run gcc -O0 -fplugin="$top/build/host/roi.so" "$top/contrib/examples/matrix/matrix.c" \
	"$top/build/host/libroi.a" -o matrix
echo
echo "== 2. run: the profile matrix.roi is written at exit"
run ./matrix
run cat matrix.roi
echo
echo "== 3. what ran: executed operations by kind and type"
run "$roi" estimate matrix
for model in atmega32u4 stm32f401re; do
	echo
	echo "== 4. estimated for $model (the host profile is mapped through its ABI)"
	run "$roi" estimate --model "$top/models/$model.json" matrix
done
