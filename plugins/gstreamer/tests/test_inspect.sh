#!/bin/bash
# gst-inspect-1.0 shows the plugin and both elements without a warning or
# critical, every property it lists is documented in docs/gstreamer.md, and
# cmake --install puts it in GStreamer's system plugin folder.
set -u
GST_TEST_TAG=gst-inspect
GST_TEST_PORT_BASE=15300
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

# cmake --install puts the plugin in GStreamer's system plugin folder
# (staged here with DESTDIR), where it loads with no GST_PLUGIN_PATH
DESTDIR="$T/stage" cmake --install "${CCNGST_BUILD_DIR:?}" --component gstreamer >"$T/install.log" 2>&1 ||
    fail "cmake --install --component gstreamer: $(cat "$T/install.log")"
SO="$T/stage${CCNGST_INSTALL_DIR:?}/libgstccnx.so"
[ -f "$SO" ] || fail "the plugin is not installed in $CCNGST_INSTALL_DIR: $(cat "$T/install.log")"
[ "$CCNGST_INSTALL_DIR" = "$(pkg-config --variable=pluginsdir gstreamer-1.0)" ] ||
    fail "$CCNGST_INSTALL_DIR is not GStreamer's plugin folder"
GST_PLUGIN_PATH= GST_REGISTRY="$T/staged.bin" LD_PRELOAD=$GST_PRELOAD gst-inspect-1.0 "$SO" \
    >"$T/staged.log" 2>&1 || fail "the installed plugin does not load: $(cat "$T/staged.log")"
grep -q "ccnsrc: CCNx source" "$T/staged.log" || fail "installed plugin: $(cat "$T/staged.log")"
echo "PASS"
