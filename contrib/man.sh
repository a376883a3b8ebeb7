#!/bin/sh
# man.sh ROI OUTDIR — the manual pages roi.1 and roi-COMMAND.1, made by help2man from the one source
# they have: each command's --help, and the command table roi --help prints (its NAME lines).
set -e
roi=$1 out=$2
mkdir -p "$out"
version=$("$roi" --version | sed 's/^roi //')
cmds=$("$roi" --help | sed -n 's/^  \([a-z][a-z-]*\) .*$/\1/p')
# every page names the others
{
	echo "[SEE ALSO]"
	for c in $cmds; do printf '.BR roi-%s (1)\n' "$c"; done
	echo "and docs/README.md in roi's source tree."
} >"$out/see-also.h2m"
help2man --no-info --no-discard-stderr --version-string="$version" --include="$out/see-also.h2m" \
	--name="what your C code costs on a microcontroller, and where" -o "$out/roi.1" "$roi"
"$roi" --help | sed -n 's/^  \([a-z][a-z-]*\)  *\(.*\)$/\1 \2/p' | while read -r cmd summary; do
	help2man --no-info --no-discard-stderr --version-string="$version" --name="$summary" \
		--include="$out/see-also.h2m" \
		--help-option="$cmd --help" --version-option="$cmd --version" -o "$out/roi-$cmd.1.tmp" "$roi"
	upper=$(echo "roi-$cmd" | tr a-z A-Z)
	# help2man names the page after the program, roi: this one is the command's
	sed -e "s/^\.TH ROI /.TH $upper /" -e "/^\.SH NAME/{n;s/^roi /roi-$cmd /}" \
		"$out/roi-$cmd.1.tmp" >"$out/roi-$cmd.1"
	rm "$out/roi-$cmd.1.tmp"
done
rm "$out/see-also.h2m"
