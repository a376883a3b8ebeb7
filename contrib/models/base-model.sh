#!/bin/sh
# base-model.sh LEVEL: the base model a calibration at -OLEVEL is pulled towards (its prior), as a
# path from the top of the tree. The snippets derived at the level nearest it (derive.py --opt):
# -O0's frame traffic, -O2's unrolled shifts and registers, -Os's shift loops and registers.
# `make models` and bench/accuracy.sh both ask here, so they cannot disagree.
case ${1#-O} in
0) echo models/atmega32u4.json ;;
1 | 2) echo models/atmega32u4-O2-derived.json ;;
s) echo models/atmega32u4-Os-derived.json ;;
*) echo "base-model.sh: no base model for level '$1' (0 1 2 s)" >&2; exit 2 ;;
esac
