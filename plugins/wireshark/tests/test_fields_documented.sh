#!/bin/bash
# Every field and expert item the plugin registers is explained in
# docs/wireshark.md, and the protocol's filter name is "ccn".
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}
DOC=${CCN_WS_DOC:?}
[ -f "$DOC" ] || fail "missing $DOC"
tshark_run -G fields 2>/dev/null | awk -F'\t' '$1 == "F" && $3 ~ /^ccn\./ {print $3}' |
    sort -u >"$T/fields"
[ "$(wc -l <"$T/fields")" -gt 50 ] || fail "too few ccn.* fields registered: $(wc -l <"$T/fields")"
tshark_run -G fields 2>/dev/null | awk -F'\t' '$1 == "P" {print $3}' | grep -qx ccn ||
    fail "no protocol with filter name ccn"
missing=""
while read -r f; do
    grep -q "\`$f\`" "$DOC" || missing="$missing $f"
done <"$T/fields"
for e in ccn.malformed ccn.truncated ccn.schema ccn.unknown ccn.badvalue ccn.flat; do
    grep -q "\`$e\`" "$DOC" || missing="$missing $e"
done
[ -z "$missing" ] || fail "not documented in $DOC:$missing"
echo "fields documented: ok"
