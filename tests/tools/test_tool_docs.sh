#!/bin/bash
# Every tool the build installs answers --help on standard output with exit
# status 0, and has a man page that renders without warnings; every other
# program built (the benchmarks) answers --help too, without doing any work.
set -u
B=${CCNX_BIN:?}
SRC=${CCNX_SRC:?}
fail=0
tools=$(sed -n 's/^ccnx_add_tool(\([a-z_]*\))$/\1/p' "$SRC/apps/tools/CMakeLists.txt")
[ -n "$tools" ] || { echo "FAIL: no tools found in apps/tools/CMakeLists.txt"; exit 1; }
for t in $tools ccnd ccnr ccnchat ccnexplore; do
    out=$("$B/$t" --help 2>/dev/null)
    rc=$?
    if [ $rc -ne 0 ] || ! grep -qi "^usage: $t" <<<"$out"; then
        echo "FAIL: $t --help (exit $rc)"
        fail=1
    fi
    page="$SRC/docs/man/$t.1"
    if [ ! -f "$page" ]; then
        echo "FAIL: no man page docs/man/$t.1"
        fail=1
    elif command -v groff >/dev/null 2>&1; then
        warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
        [ -z "$warn" ] || { echo "FAIL: $page: $warn"; fail=1; }
    fi
done
for exe in "$B"/*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue
    t=$(basename "$exe")
    out=$(timeout 10 "$exe" --help 2>/dev/null </dev/null)
    rc=$?
    if [ $rc -ne 0 ] || ! head -n 1 <<<"$out" | grep -qi "^usage: $t"; then
        echo "FAIL: $t --help (exit $rc): $(head -n 1 <<<"$out")"
        fail=1
    fi
done
exit $fail
