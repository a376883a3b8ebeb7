#!/bin/sh
# many-counters.sh FUNCTIONS BRANCHES — writes on stdout a C program with FUNCTIONS functions of
# BRANCHES if statements each, which main calls once each through a table: at -O0 with the plugin
# a function has 2 + 3 * BRANCHES counted blocks (12,500 functions of 2 branches: 100,000 blocks,
# which a counter per block counted; on the edges off a spanning tree, 1 + BRANCHES counters a
# function). It stands for a large program in the figures of bench/overhead.sh (roi estimate's
# time and memory, which grow with the blocks and the functions); generated, not committed.
set -e
n=${1:?usage: many-counters.sh FUNCTIONS BRANCHES}
k=${2:?usage: many-counters.sh FUNCTIONS BRANCHES}
awk -v n="$n" -v k="$k" 'BEGIN {
	print "volatile unsigned sink;"
	for (f = 0; f < n; f++) {
		printf "unsigned f%d(unsigned x)\n{\n\tunsigned s = x;\n", f
		for (b = 0; b < k; b++)
			printf "\tif (x & %uu)\n\t\ts = s * %d + %d;\n", 2 ^ (b % 31), b + 3, f % 97
		print "\treturn s;\n}"
	}
	print "static unsigned (*const table[])(unsigned) = {"
	for (f = 0; f < n; f++)
		printf "\tf%d,\n", f
	print "};"
	print "int main(void)\n{\n\tunsigned s = 0;\n"
	print "\tfor (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)\n\t\ts += table[i](i);"
	print "\tsink = s;\n\treturn 0;\n}"
}'
