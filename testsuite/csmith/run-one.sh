#!/bin/sh
# run-one.sh WORKDIR LEVELS GCOV SAVEDIR SEED
#
# One csmith program, generated from SEED, built and run at each -O level of
# LEVELS ("0 1 2 s") without the plugin and with it (and, when GCOV is "gcov",
# built with --coverage and the plugin and checked by 'roi gcov-check'; GCOV ""
# does not). The seed comes last for xargs. Prints one line per level:
#
#   SEED -OLEVEL PLAIN ROI ICE PROFILE ESTIMATE GCOV BLOCKS
#
#   PLAIN       pass | compile | crash (the program failed) | timeout: a level
#               whose plain build does not pass is skipped, since csmith
#               promises only that its programs are free of undefined
#               behaviour, not that they end in time or fit the stack
#   ROI         same | differ (output or exit status not the plain build's) |
#               compile | crash | timeout, or - when skipped
#   ICE         ice when the compiler crashed with the plugin loaded, else -
#   PROFILE     yes when the run with the plugin left a sealed profile, no, or -
#   ESTIMATE    ok when 'roi estimate' reads the program and its profile, fail, or -
#   GCOV        agree | known (a disagreement testsuite/csmith-gcov-known.txt
#               explains) | disagree | compile | crash | timeout | differ, or -
#   BLOCKS      same when a build counted per block (-fplugin-arg-roi-block-counters)
#               gives the counts of the build counted on edges (testsuite/counts.jq),
#               differ, or - when not asked (CSMITH_BLOCKS=1) or either did not run
#
# The programs are run with the argument 1, which makes a csmith program print
# the checksum after hashing each global, not only the final one: an output
# difference then names the first variable that differs.
#
# Anything but a pass is saved as a reproducer, SAVEDIR/csmith-SEED-OLEVEL/:
# the program, its seed and csmith's version, the commands, what differed and
# the logs (README.txt says which is which). WORKDIR/SEED/ is removed when
# every level passed cleanly, kept otherwise.
#
# Uses ROI_PLUGIN, ROI_LIB and ROI from the environment (test-lib.sh's names),
# CSMITH_CC (default gcc, the compiler the plugin was built for), CSMITH
# (default csmith), CSMITH_INCLUDE (default /usr/include/csmith), CSMITH_KNOWN
# (the list of explained gcov-check disagreements), RUN_TIMEOUT (seconds for
# the plain run, default 10) and ROI_TIMEOUT (for the runs with the plugin,
# default 30: counting slows a program down, a hang must still end).

work=$1 levels=$2 want_gcov=$3 save=$4 seed=$5
CC=${CSMITH_CC:-gcc}
CSMITH=${CSMITH:-csmith}
CSMITH_INCLUDE=${CSMITH_INCLUDE:-/usr/include/csmith}
COMPILE_TIMEOUT=${COMPILE_TIMEOUT:-300}
RUN_TIMEOUT=${RUN_TIMEOUT:-10}
ROI_TIMEOUT=${ROI_TIMEOUT:-30}

dir=$work/$seed
rm -rf "$dir"
mkdir -p "$dir" || exit 1
src=$dir/prog.c
if ! "$CSMITH" --seed "$seed" -o "$src" >"$dir/csmith.log" 2>&1; then
	for level in $levels; do
		echo "$seed -O$level generate - - - - - -"
	done
	exit 0
fi

# build OUT MODE LEVEL: compile $src into OUT; MODE plain, roi (with the plugin)
# or gcov (with the plugin and --coverage); log in OUT.cc; exit status. The
# command is kept in OUT.cmd for a reproducer.
build () {
	case $2 in
	plain) pre='' lib='' ;;
	roi)   pre=-fplugin=$ROI_PLUGIN lib=$ROI_LIB ;;
	blocks) pre="-fplugin=$ROI_PLUGIN -fplugin-arg-roi-block-counters" lib=$ROI_LIB ;;
	gcov)  pre="--coverage -fplugin=$ROI_PLUGIN" lib=$ROI_LIB ;;
	esac
	echo "$CC $pre -w -O$3 -I$CSMITH_INCLUDE prog.c $lib -o $(basename "$1")" | tr -s ' ' >"$1.cmd"
	# shellcheck disable=SC2086  # pre is a word list
	timeout "$COMPILE_TIMEOUT" $CC $pre -w -O$3 -I"$CSMITH_INCLUDE" "$src" $lib -o "$1" >"$1.cc" 2>&1
}

# run OUT SECONDS: run OUT in its directory, output in OUT.out, exit status
# appended as a last line "exit N"; pass, crash or timeout.
run () {
	(cd "$(dirname "$1")" && timeout "$2" "$1" 1 >"$1.out" 2>&1)
	status=$?
	echo "exit $status" >>"$1.out"
	case $status in
	0)   echo pass ;;
	124) echo timeout ;;
	*)   echo crash ;;
	esac
}

# outcome OUT MODE LEVEL SECONDS: build and run; pass, compile, crash or timeout.
outcome () {
	if build "$1" "$2" "$3"; then
		run "$1" "$4"
	elif [ $? -eq 124 ]; then
		echo timeout
	else
		echo compile
	fi
}

# same_output OUT: OUT ran like the plain build (output and exit status).
same_output () { cmp -s "$ldir/plain.out" "$1.out"; }

# counts ESTIMATE: what ran (testsuite/counts.jq)
counts () { jq -S -f "$(dirname "$0")/../counts.jq" "$1"; }

# known LEVEL: the reasons csmith-gcov-known.txt gives for this seed and level.
known () {
	[ -f "${CSMITH_KNOWN-}" ] && awk -v s="$seed" -v l="-O$1" '$1 == s && $2 == l { print $3 }' "$CSMITH_KNOWN"
}

# reproducer LEVEL WHAT: save the program and the logs of this level.
reproducer () {
	r=$save/csmith-$seed-O$1
	rm -rf "$r"
	mkdir -p "$r" || return
	cp "$src" "$r/prog.c"
	for f in "$ldir"/*.cc "$ldir"/*.out "$ldir"/gcov/*.cc "$ldir"/gcov/*.out; do
		[ -f "$f" ] || continue
		case $f in */gcov/*) cp "$f" "$r/gcov-$(basename "$f")" ;; *) cp "$f" "$r/" ;; esac
	done
	# The commands as run from the top of the source tree, with its build.
	rel=${r#"${ROI_SRC:-/nonexistent}"/}
	cmds=$(cat "$ldir"/plain.cmd "$ldir"/roi.cmd "$ldir"/gcov/prog.cmd 2>/dev/null |
		sed -e "s| -fplugin=[^ ]*| -fplugin=build/host/roi.so|" -e "s| [^ ]*libroi\.a| build/host/libroi.a|" \
		    -e "s| prog\.c | $rel/prog.c |" -e "s| -o \([a-z]*\)$| -o $rel/\1|" -e 's/^/  /')
	{
		echo "csmith reproducer: seed $seed, -O$1"
		echo
		echo "what differed: $2"
		echo
		echo "program:  prog.c, generated by $("$CSMITH" --version | head -n 1) with"
		echo "          csmith --seed $seed -o prog.c"
		echo "compiler: $($CC --version | head -n 1)"
		echo
		echo "commands (from the top of the source tree; each program is run with the argument 1,"
		echo "the gcov one in its own directory, followed by 'roi gcov-check prog'):"
		echo "$cmds"
		echo
		echo "files: plain.out, roi.out, gcov-prog.out: the runs' output, 'exit N' last;"
		echo "       *.cc: the compilers' messages; gcov-check.out: roi gcov-check's report"
	} >"$r/README.txt"
}

all_clean=yes
for level in $levels; do
	ldir=$dir/O$level
	mkdir -p "$ldir"
	plain=$(outcome "$ldir/plain" plain "$level" "$RUN_TIMEOUT")
	roi=- ice=- profile=- estimate=- gcov=- blocks=-
	if [ "$plain" = pass ]; then
		ROI_OUTPUT=$ldir/roi.roi
		export ROI_OUTPUT
		roi=$(outcome "$ldir/roi" roi "$level" "$ROI_TIMEOUT")
		if grep -qi 'internal compiler error\|terminated program\|killed by signal\|segmentation fault' "$ldir/roi.cc"; then
			ice=ice
		fi
		if [ "$roi" = pass ]; then
			if same_output "$ldir/roi"; then roi=same; else roi=differ; fi
			if tail -n 1 "$ROI_OUTPUT" 2>/dev/null | grep -q '^end '; then
				profile=yes
				if "$ROI" estimate --json "$ldir/roi" "$ROI_OUTPUT" >"$ldir/estimate.out" 2>&1; then
					estimate=ok
				else
					estimate=fail
				fi
			else
				profile=no
			fi
		fi
		if [ "${CSMITH_BLOCKS:-}" = 1 ] && [ "$estimate" = ok ]; then
			ROI_OUTPUT=$ldir/blocks.roi
			if [ "$(outcome "$ldir/blocks" blocks "$level" "$ROI_TIMEOUT")" = pass ] &&
			   "$ROI" estimate --json "$ldir/blocks" "$ROI_OUTPUT" >"$ldir/blocks-estimate.out" 2>&1; then
				if [ "$(counts "$ldir/estimate.out")" = "$(counts "$ldir/blocks-estimate.out")" ]; then
					blocks=same
				else
					blocks=differ
				fi
			fi
		fi
		if [ "$want_gcov" = gcov ]; then
			mkdir -p "$ldir/gcov"
			ROI_OUTPUT=$ldir/gcov/prog.roi
			gcov=$(outcome "$ldir/gcov/prog" gcov "$level" "$ROI_TIMEOUT")
			if [ "$gcov" = pass ] && ! same_output "$ldir/gcov/prog"; then
				gcov=differ
			elif [ "$gcov" = pass ]; then
				if (cd "$ldir/gcov" && "$ROI" gcov-check prog >check.out 2>&1); then
					gcov=agree
				elif [ -n "$(known "$level")" ]; then
					gcov=known
				else
					gcov=disagree
				fi
			fi
		fi
	fi
	echo "$seed -O$level $plain $roi $ice $profile $estimate $gcov $blocks"

	what=
	[ "$roi" = differ ] && what="$what; the output with the plugin differs from the output without it"
	case $roi in compile|crash|timeout) what="$what; with the plugin: $roi" ;; esac
	[ "$ice" = ice ] && what="$what; the compiler crashed with the plugin loaded"
	[ "$profile" = no ] && what="$what; the run with the plugin left no sealed profile"
	[ "$estimate" = fail ] && what="$what; roi estimate failed on the program and its profile"
	[ "$gcov" = disagree ] && what="$what; roi gcov-check disagrees with gcov"
	[ "$blocks" = differ ] && what="$what; counted per block, the counts differ from the edge counters'"
	case $gcov in compile|crash|timeout|differ) what="$what; with --coverage and the plugin: $gcov" ;; esac
	if [ -n "$what" ]; then
		reproducer "$level" "${what#; }"
	fi
	[ "$plain" = pass ] && [ -z "$what" ] || all_clean=no
done
[ "$all_clean" = yes ] && rm -rf "$dir"
exit 0
