#!/usr/bin/env bash
# ccn_ccnbtoxml and ccn_xmltoccnb on the reference vectors: output, round
# trips, -s splitting, filter mode, -d dictionaries, errors and exit codes.
set -u

BIN=${CCNX_BIN:?set CCNX_BIN to the folder of the built tools}
VEC=${CCNX_VECTORS:?set CCNX_VECTORS to the reference vectors folder}
SRC=${CCNX_SRC:?set CCNX_SRC to the source tree}
TOXML=$BIN/ccn_ccnbtoxml
TOCCNB=$BIN/ccn_xmltoccnb
DICT=$SRC/tests/data/xml_extra.csvdict

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_status <code> <description> <command...>: runs the command with
# stdout and stderr saved in $WORK/out and $WORK/err.
expect_status() {
    local want=$1 what=$2
    shift 2
    "$@" >"$WORK/out" 2>"$WORK/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$what: exit status $got, want $want; stderr: $(head -c 300 "$WORK/err")"
        return 1
    fi
    return 0
}

expect_in_err() {
    grep -q -- "$2" "$WORK/err" || fail "$1: stderr lacks '$2': $(head -c 300 "$WORK/err")"
}

# ---- help and usage ----
for tool in "$TOXML" "$TOCCNB"; do
    name=$(basename "$tool")
    expect_status 0 "$name --help" "$tool" --help && grep -q "^Usage: $name" "$WORK/out" ||
        fail "$name --help prints no usage"
    expect_status 2 "$name without files" "$tool"
    expect_in_err "$name without files" "--help"
    expect_status 2 "$name -Q" "$tool" -Q "$VEC/int_nonce.ccnb"
    expect_in_err "$name -Q" "unknown option -Q"
    expect_status 2 "$name -d without argument" "$tool" -d
    expect_in_err "$name -d without argument" "needs an argument"
done
expect_status 0 "ccn_ccnbtoxml -h" "$TOXML" -h && grep -q -- "--indent" "$WORK/out" ||
    fail "ccn_ccnbtoxml -h does not list --indent"

# ---- every vector: -x output is the reference's .xml, and back ----
count=0
for ccnb in "$VEC"/*.ccnb; do
    base=${ccnb%.ccnb}
    name=$(basename "$base")
    count=$((count + 1))
    if expect_status 0 "ccn_ccnbtoxml -x $name" "$TOXML" -x "$ccnb"; then
        cmp -s "$WORK/out" "$base.xml" || fail "ccn_ccnbtoxml -x $name differs from $name.xml"
    fi
    if expect_status 0 "ccn_xmltoccnb - < $name.xml" "$TOCCNB" - <"$base.xml"; then
        cmp -s "$WORK/out" "$ccnb" || fail "$name.xml does not encode to $name.ccnb"
    fi
    # Default base64, forced binary and the readable layout come back too.
    for flags in "" "-b" "-v" "-i" "-i -x -v"; do
        wflag=""
        case $flags in *-i*) wflag="-w" ;; esac
        # shellcheck disable=SC2086
        "$TOXML" $flags "$ccnb" 2>/dev/null | "$TOCCNB" $wflag - >"$WORK/rt" 2>"$WORK/err" ||
            fail "round trip '$flags' of $name failed: $(head -c 300 "$WORK/err")"
        cmp -s "$WORK/rt" "$ccnb" || fail "round trip '$flags' of $name changed the bytes"
    done
done
[ "$count" -ge 80 ] || fail "only $count vectors found in $VEC"

# Several files print one after the other; - is standard input.
expect_status 0 "two files" "$TOXML" -x "$VEC/int_nonce.ccnb" - <"$VEC/int_scope.ccnb" &&
    cat "$VEC/int_nonce.xml" "$VEC/int_scope.xml" | cmp -s - "$WORK/out" ||
    fail "two files: output is not both .xml files in turn"

# -v comments binary name components with their URI form.
expect_status 0 "ccn_ccnbtoxml -v" "$TOXML" -v "$VEC/co_binary_name.ccnb" &&
    grep -q '<!--       %00%01 -->' "$WORK/out" || fail "-v: no URI comment for %00%01"

# ---- -s splitting ----
stream=$VEC/stream_tcp_ccnd_to_ccndc.ccnb
mkdir "$WORK/split"
if expect_status 0 "-s" "$TOXML" -x -s "$WORK/split/part" "$stream" "$VEC/int_nonce.ccnb"; then
    [ -s "$WORK/out" ] && fail "-s still wrote to standard output"
    files=("$WORK"/split/part*.xml)
    [ "${#files[@]}" -eq 4 ] || fail "-s made ${#files[@]} files, want 4: ${files[*]}"
    for i in 0 1 2 3; do
        f=$WORK/split/part0000$i.xml
        [ -f "$f" ] || { fail "-s: $f missing"; continue; }
        head -n 1 "$f" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>$' ||
            fail "-s: $f lacks the XML declaration"
        [ "$(wc -l <"$f")" -eq 2 ] || fail "-s: $f does not hold exactly one element"
    done
    # Each piece converts alone; together they rebuild the inputs.
    : >"$WORK/joined"
    for i in 0 1 2 3; do
        "$TOCCNB" - <"$WORK/split/part0000$i.xml" >>"$WORK/joined" ||
            fail "-s piece $i does not convert back"
    done
    cat "$stream" "$VEC/int_nonce.ccnb" | cmp -s - "$WORK/joined" ||
        fail "-s pieces do not rebuild the inputs"
fi
expect_status 1 "-s into a missing folder" "$TOXML" -s "$WORK/nowhere/p" "$stream"
expect_in_err "-s into a missing folder" "cannot create $WORK/nowhere/p00000.xml"

# ---- ccn_xmltoccnb file mode: NAME.xml -> NAME.ccnb in the current folder ----
mkdir "$WORK/in" "$WORK/cwd"
cp "$VEC/int_nonce.xml" "$WORK/in/one.xml"
cp "$VEC/int_scope.xml" "$WORK/in/two.XML"
cp "$VEC/link_body.xml" "$WORK/in/three.txt"
(cd "$WORK/cwd" && "$TOCCNB" ../in/one.xml ../in/two.XML ../in/three.txt) >"$WORK/out" 2>"$WORK/err" ||
    fail "file mode failed: $(cat "$WORK/err")"
cmp -s "$WORK/cwd/one.ccnb" "$VEC/int_nonce.ccnb" || fail "file mode: one.ccnb wrong or missing"
cmp -s "$WORK/cwd/two.ccnb" "$VEC/int_scope.ccnb" || fail "file mode: two.ccnb wrong or missing"
cmp -s "$WORK/cwd/three.txt.ccnb" "$VEC/link_body.ccnb" || fail "file mode: three.txt.ccnb wrong"
[ -s "$WORK/out" ] && fail "file mode wrote to standard output"

# -w drops indentation; without it the whitespace is UDATA.
printf '<Name>\n  <Component ccnbencoding="text">a</Component>\n</Name>\n' >"$WORK/ws.xml"
"$TOCCNB" -w - <"$WORK/ws.xml" | od -An -tx1 | tr -d ' \n' >"$WORK/hex"
[ "$(cat "$WORK/hex")" = "f2fa8d610000" ] || fail "-w: got $(cat "$WORK/hex")"
"$TOCCNB" - <"$WORK/ws.xml" | od -An -tx1 | tr -d ' \n' >"$WORK/hex"
[ "$(cat "$WORK/hex")" = "f29e0a2020fa8d61008e0a00" ] || fail "no -w: got $(cat "$WORK/hex")"

# ---- -d dictionaries ----
# DTAG 1000 (ExtraThing in the extra dictionary) holding DTAG 14 (Name).
printf '\x3e\xc2\xf2\x00\x00' >"$WORK/extra.ccnb"
if expect_status 0 "unknown DTAG" "$TOXML" "$WORK/extra.ccnb"; then
    grep -q '<UNKNOWN_DTAG code="1000"><Name/></UNKNOWN_DTAG>' "$WORK/out" ||
        fail "unknown DTAG not shown as UNKNOWN_DTAG"
    expect_in_err "unknown DTAG" "-d dict"
fi
if expect_status 0 "-d" "$TOXML" -d "$DICT" "$WORK/extra.ccnb"; then
    grep -q '^<ExtraThing><Name/></ExtraThing>$' "$WORK/out" || fail "-d: name not used"
    [ -s "$WORK/err" ] && fail "-d: unexpected warning: $(cat "$WORK/err")"
fi
"$TOXML" -d "$DICT" "$WORK/extra.ccnb" | "$TOCCNB" -d "$DICT" - | cmp -s - "$WORK/extra.ccnb" ||
    fail "-d: ExtraThing does not encode back to DTAG 1000"
echo '<ExtraThing/>' | "$TOCCNB" - | od -An -tx1 | tr -d ' \n' >"$WORK/hex"
# Without -d it is a TAG: header C9 (length-1 = 9), the name, a closer.
[ "$(cat "$WORK/hex")" = "c945787472615468696e6700" ] ||
    fail "without -d ExtraThing should be a TAG: $(cat "$WORK/hex")"
printf '1000,Good\nnot a line\n' >"$WORK/bad.csvdict"
for tool in "$TOXML" "$TOCCNB"; do
    expect_status 2 "$(basename "$tool") bad dictionary" "$tool" -d "$WORK/bad.csvdict" -
    expect_in_err "bad dictionary" "bad.csvdict, line 2"
    expect_status 2 "$(basename "$tool") missing dictionary" "$tool" -d "$WORK/none.csvdict" -
    expect_in_err "missing dictionary" "cannot read dictionary $WORK/none.csvdict"
done

# ---- errors ----
head -c 100 "$VEC/co_data_fresh.ccnb" >"$WORK/cut.ccnb"
expect_status 1 "truncated ccnb" "$TOXML" "$WORK/cut.ccnb"
expect_in_err "truncated ccnb" "cut.ccnb: not valid ccnb at byte [0-9]* of 100"
{ cat "$VEC/int_nonce.ccnb"; printf '\x00'; } >"$WORK/junk.ccnb"
expect_status 1 "stray closer" "$TOXML" "$WORK/junk.ccnb"
expect_in_err "stray closer" "not valid ccnb at byte 48 of 49"
expect_status 1 "missing ccnb file" "$TOXML" "$WORK/absent.ccnb"
expect_in_err "missing ccnb file" "cannot read $WORK/absent.ccnb"

printf '<Name>\n  <Any>\n</Name>\n' >"$WORK/bad.xml"
(cd "$WORK/cwd" && "$TOCCNB" ../bad.xml) >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "malformed XML: exit status not 1"
expect_in_err "malformed XML" "../bad.xml:3:3: mismatched tag"
[ -e "$WORK/cwd/bad.ccnb" ] && fail "malformed XML left bad.ccnb behind"
printf '<Nonce ccnbencoding="hexBinary">ABC</Nonce>' >"$WORK/odd.xml"
expect_status 1 "odd hex" "$TOCCNB" - <"$WORK/odd.xml"
expect_in_err "odd hex" "standard input:1:1: <Nonce ccnbencoding=\"hexBinary\">"
[ -s "$WORK/out" ] && fail "odd hex: filter mode wrote output"
expect_status 1 "missing xml file" "$TOCCNB" "$WORK/absent.xml"
expect_in_err "missing xml file" "cannot read $WORK/absent.xml"
printf '<Nonce ccnbencoding="bogus">x</Nonce>' >"$WORK/warn.xml"
expect_status 0 "unknown ccnbencoding" "$TOCCNB" - <"$WORK/warn.xml"
expect_in_err "unknown ccnbencoding" "standard input:1:1: warning: unknown ccnbencoding"

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "all xml tool checks passed ($count vectors)"
