#!/bin/bash
# gst-inspect-1.0 shows the plugin and both elements without a warning or
# critical, and every property it lists is documented in docs/gstreamer.md.
set -u
GST_TEST_TAG=gst-inspect
GST_TEST_PORT_BASE=35300
. "$(dirname "$0")/lib.sh" || exit 1
DOC=${CCNGST_DOC:?}

gst_inspect ccnx >"$T/plugin.log" 2>&1 || fail "gst-inspect-1.0 ccnx"
grep -q "ccnsink: CCNx sink" "$T/plugin.log" || fail "no ccnsink in: $(cat "$T/plugin.log")"
grep -q "ccnsrc: CCNx source" "$T/plugin.log" || fail "no ccnsrc in: $(cat "$T/plugin.log")"
for e in ccnsink ccnsrc; do
    gst_inspect "$e" >"$T/$e.log" 2>"$T/$e.err" || fail "gst-inspect-1.0 $e"
    grep -Eiq "warn|critical" "$T/$e.err" && fail "gst-inspect-1.0 $e: $(cat "$T/$e.err")"
    # property lines: two spaces, a name, spaces, ": "
    props=$(sed -n '/^Element Properties:/,$p' "$T/$e.log" | sed -n 's/^  \([a-z][a-z-]*\) *: .*/\1/p')
    [ -n "$props" ] || fail "$e: no properties listed"
    for p in $props; do
        case $p in name | parent | async | blocksize | do-timestamp | enable-last-sample | \
            last-sample | max-bitrate | max-lateness | num-buffers | processing-deadline | \
            qos | render-delay | sync | throttle-time | ts-offset | typefind | \
            automatic-eos) continue ;; # GstObject, GstBaseSink and GstBaseSrc
        esac
        grep -q "| \`$p\` |" "$DOC" || fail "$e property $p is not documented in $DOC"
    done
done
grep -q "URI handling capabilities" "$T/ccnsrc.log" && grep -q "ccnx" "$T/ccnsrc.log" ||
    fail "ccnsrc does not handle ccnx: URIs"
echo "PASS"
