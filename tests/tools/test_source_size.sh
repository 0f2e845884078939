#!/bin/bash
# Product sources stay easy to read (docs/style.md): every .c and .h under
# core/, ccnd/, apps/ and plugins/*/src/ under 800 lines. Functions under
# 80 lines are clang-tidy's check (.clang-tidy, `make tidy`).
set -u
SRC=${CCNX_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1
LIMIT=800
bad=0
while read -r n f; do
    [ "$f" = total ] && continue
    if [ "$n" -ge "$LIMIT" ]; then
        echo "$f: $n lines (at most $((LIMIT - 1)))"
        bad=1
    fi
done < <(find core ccnd apps plugins/*/src -name '*.[ch]' -print0 | xargs -0 wc -l)
[ $bad = 0 ] || { echo "FAIL: split the files above"; exit 1; }
echo "ok: every product source under $LIMIT lines"
