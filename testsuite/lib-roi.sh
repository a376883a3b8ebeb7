# lib-roi.sh — helpers for tests that build and count programs with roi.
# Source after test-lib.sh.

# roi_link OUT ARGS...: compile and link ARGS with the plugin and the runtime.
roi_link () {
	out=$1
	shift
	${CC:-gcc} -fplugin="$ROI_PLUGIN" -o "$out" "$@" "$ROI_LIB"
}

# op_count JSON KIND [TYPE [ACCESS]]: executed operations of that kind (and
# type, and access) in the output of 'roi estimate --json'.
op_count () {
	jq --arg k "$2" --arg t "${3-}" --arg a "${4-}" \
	   '[.ops[] | select(.kind == $k and ($t == "" or .type == $t)
	                     and ($a == "" or .access == $a)) | .count] | add // 0' "$1"
}

# call_count JSON CALLEE: executed calls of CALLEE ("*indirect" for indirect).
call_count () {
	jq --arg c "$2" '[.ops[] | select(.kind == "call" and .callee == $c) | .count] | add // 0' "$1"
}

# fn_calls JSON NAME [FILE-SUFFIX]: how often function NAME was entered.
fn_calls () {
	jq --arg f "$2" --arg s "${3-}" \
	   '[.functions[] | select(.name == $f and ($s == "" or (.file | endswith($s)))) | .calls] | add // 0' "$1"
}

# in_loops ASM: the instructions in the loops of a disassembly ASM (objdump -d, x86-64 or AVR),
# from a backward branch's target to the branch, that name a counter.
in_loops () {
	awk '
		function hex(s,   i, n) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
		/^ *[0-9a-f]+:/ { a = $0; sub(/^ */, "", a); sub(/:.*/, "", a); n++; addr[n] = hex(a); text[n] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				t = ""
				if (match(text[i], /j[a-z]+ +[0-9a-f]+ </)) {
					t = substr(text[i], RSTART, RLENGTH); sub(/^j[a-z]+ +/, "", t); sub(/ <$/, "", t)
				} else if (match(text[i], /(br[a-z]+|rjmp)[ \t]+[.]-[0-9]+[ \t]+; 0x[0-9a-f]+/)) {
					t = substr(text[i], RSTART, RLENGTH); sub(/.*; 0x/, "", t)
				}
				if (t != "" && hex(t) < addr[i])
					for (k = 1; k <= i; k++)
						if (addr[k] >= hex(t) && text[k] ~ /__roi_c_/)
							print text[k]
			}
		}' "$1"
}

# meta_json OBJ: the .roi.meta records of OBJ as one JSON array.
meta_json () {
	objcopy --dump-section .roi.meta=meta.bin "$1" /dev/null &&
	tr '\0' '\n' <meta.bin | jq -s .
}

# checksum_text RECORD I: the text whose CRC-32 is the checksum of function I of the metadata
# record in the JSON file RECORD, written here from its definition (docs/formats.md,
# gcc-plugin/roi-checksum.h), not by roi.
checksum_text () {
	jq -j --argjson i "$2" '
		def s: if . == null then "-" else "\(utf8bytelength):\(.)" end;
		def flag: if . then 1 else 0 end;
		.ops as $ops | .functions[$i] |
		"asm \(.asm | s)\n",
		(.blocks[] |
		 "block \(.labels // false | flag) \(.value // false | flag) \(if .value then .block // -1 else -1 end)\n",
		 (.succ[] | "succ \(.)\n"),
		 (.lines[] | "line \(.[0]) \(.[1])\n"),
		 (.ops[] | $ops[.[0]] as $o |
		  "row \(.[1]) \(.[2]) \(.[3]) kind \($o.kind | s) type \($o.type | s) ctype \($o.ctype | s)" +
		  " from \($o.from | s) from_ctype \($o.from_ctype | s) access \($o.access | s)" +
		  " operand \($o.operand | s) callee \($o.callee | s) code \($o.code | s)" +
		  " volatile \($o.volatile // false | flag) direct \($o.direct // false | flag)" +
		  " builtin \($o.builtin // false | flag) internal \($o.internal // false | flag)" +
		  " subscripts \($o.subscripts // 0) promoted \($o.promoted // 0)" +
		  " cases \($o.cases // -1) bytes \($o.bytes // -1)\n")),
		(.fake // [] | .[] | "fake \(.)\n"),
		(.edges // [] | .[] | "edge \(.[0]) \(.[1])\n")' "$1"
}

# fn_checksum RECORD I: the CRC-32 of that text, "0x" and 8 hex digits, from gzip's trailer (which
# holds it, little-endian, before the size).
fn_checksum () {
	printf '0x%s\n' "$(checksum_text "$1" "$2" | gzip -c | tail -c 8 | head -c 4 |
		od -An -tx1 | awk '{ print $4 $3 $2 $1 }')"
}

# crc32 <INPUT: the IEEE CRC-32 of the input as 8 hex digits (what a profile's end line holds),
# from gzip's trailer, where it is, little-endian, before the size.
crc32 () {
	gzip -c | tail -c 8 | head -c 4 | od -An -tx1 | awk '{ print $4 $3 $2 $1 }'
}

# seal BODY: BODY followed by its end line "end FNCOUNT CRC": a profile written by hand.
seal () {
	cat "$1" && echo "end $(grep -c '^fn ' "$1") $(crc32 <"$1")"
}

# elf_with_meta OUT JSON...: an executable whose .roi.meta holds one record per JSON file, written
# by hand, without the plugin.
elf_with_meta () {
	out=$1 && shift && n=0 && : >"$out.c" &&
	for json in "$@"; do
		n=$((n + 1)) && tr -d '\n' <"$json" >"$out.$n.meta" &&
		printf '__asm__(".pushsection .roi.meta,\\"\\",@progbits\\n.incbin \\"%s\\"\\n.byte 0\\n.popsection");\n' \
			"$out.$n.meta" >>"$out.c" || return 1
	done &&
	echo "int main(void) { return 0; }" >>"$out.c" &&
	gcc -o "$out" "$out.c"
}

# status WANT CMD...: CMD exits with WANT (so not by a signal); its output in out and err.
status () {
	want=$1
	shift
	if "$@" >out 2>err; then got=0; else got=$?; fi
	test_equal "$want" "$got" "exit status of '$*'"
}

# fails WANT PATTERN CMD...: CMD exits with WANT and prints exactly one line on stderr, which
# matches PATTERN.
fails () {
	want=$1 pattern=$2
	shift 2
	status "$want" "$@" &&
	test_equal 1 "$(wc -l <err | tr -d ' ')" "lines on stderr of '$*'" &&
	test_grep "$pattern" err
}
