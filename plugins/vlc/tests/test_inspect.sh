#!/bin/bash
# VLC lists the module, shows its options with their help (as
# `vlc -p ccnx --advanced` does), and docs/vlc.md documents every one of
# them; the module exports VLC's entry points and nothing else.
set -u
VLC_TEST_TAG=vlc-inspect
VLC_TEST_PORT_BASE=16700
. "$(dirname "$0")/lib.sh" || exit 1
[ -z "$PRELOAD" ] || skip "the vlc program hangs with the sanitizer runtimes preloaded (lib.sh); the release build runs this test"

vlc_as_user -I dummy --list >"$T/list.log" 2>&1 || fail "vlc --list: $(tail -n 5 "$T/list.log")"
grep -Eq '^ +ccnx +CCNx content-centric networking input$' "$T/list.log" ||
    fail "vlc --list does not show the module: $(grep -i ccn "$T/list.log")"
vlc_as_user -I dummy -p ccnx --advanced >"$T/help.log" 2>&1 || fail "vlc -p ccnx: $(tail -n 5 "$T/help.log")"
options=$(grep -o -- '--ccnx-[a-z-]*' "$T/help.log" | sort -u)
[ "$(echo "$options" | wc -l)" -eq 5 ] || fail "expected five options, VLC shows: $options"
for o in $options; do
    grep -A1 -- "$o" "$T/help.log" | grep -q '[A-Za-z]' || fail "$o has no help text"
    grep -qF -- "\`$o" "${CCNV_DOC:?}" || fail "$o is not documented in docs/vlc.md"
done
echo "ok: listed, options $(echo $options) shown and documented"

so=$VLC_PLUGIN_PATH/access/libccnx_plugin.so
exports=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ { print $3 }' | sort)
[ "$(echo "$exports" | grep -vc '^vlc_entry')" -eq 0 ] || fail "the module exports more than VLC's entry points: $exports"
echo "ok: exports $(echo $exports)"
echo "PASS"
