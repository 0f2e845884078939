#!/bin/bash
# Only the API leaves libccnx: every symbol the shared library exports is
# a name its public headers (core/include/ccnx/*.h and the generated
# dtag_values.h) declare, and the library exports the API's functions.
set -u
B=${CCNX_BIN:?}
SRC=${CCNX_SRC:?}
LIB=$B/../lib/libccnx.so
[ -f "$LIB" ] || { echo "FAIL: no $LIB"; exit 1; }
command -v nm >/dev/null || { echo "SKIP: no nm (binutils)"; exit 0; }
HEADERS=("$SRC"/core/include/ccnx/*.h "$B"/../core/generated/ccnx/*.h)
exported=$(nm -D --defined-only "$LIB" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' | sort -u)
declared=$(cat "${HEADERS[@]}" | grep -o '\<[A-Za-z_][A-Za-z0-9_]*\>' | sort -u)
stray=$(comm -23 <(echo "$exported") <(echo "$declared"))
if [ -n "$stray" ]; then
    echo "FAIL: libccnx.so exports names no public header declares:"
    echo "$stray" | sed 's/^/  /'
    exit 1
fi
# the API's functions are there: one of each public header's functions
for f in ccnx_buf_append ccnx_client_open ccnx_fetch_start ccnx_uri_parse ccnx_interest_build \
    ccnx_content_parse ccnx_name_append ccnx_strerror; do
    grep -qx "$f" <<<"$exported" || { echo "FAIL: $f is not exported"; exit 1; }
done
echo "ok: $(echo "$exported" | wc -l) symbols exported, all declared in the public headers"
