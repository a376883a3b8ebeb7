# lib-roi.sh — helpers for tests that build and count programs with roi.
# Source after test-lib.sh.

# roi_link OUT ARGS...: compile and link ARGS with the plugin and the runtime.
roi_link () {
	out=$1
	shift
	gcc -fplugin="$ROI_PLUGIN" -o "$out" "$@" "$ROI_LIB"
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

# meta_json OBJ: the .roi.meta records of OBJ as one JSON array.
meta_json () {
	objcopy --dump-section .roi.meta=meta.bin "$1" /dev/null &&
	tr '\0' '\n' <meta.bin | jq -s .
}
