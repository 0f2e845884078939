#!/bin/bash
# Installation: `make install` (here into a staging root) puts ccn.so in
# Wireshark's global plugin folder; the documented per-user install (a copy
# into ~/.local/lib/wireshark/plugins/<major.minor>/epan) is found by tshark
# with no environment variable at all.
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}

# The plugin folder's own install script: what `make install` runs for it,
# without writing an install manifest into the build tree.
DESTDIR="$T/stage" cmake -DCMAKE_INSTALL_COMPONENT=wireshark -P "$CCN_WS_BUILD_DIR/cmake_install.cmake" \
    >"$T/install.log" 2>&1 || fail "install: $(cat "$T/install.log")"
[ -f "$T/stage$CCN_WS_INSTALL_DIR/ccn.so" ] || fail "not installed in $CCN_WS_INSTALL_DIR"
case "$CCN_WS_INSTALL_DIR" in
*"/wireshark/plugins/$CCN_WS_VERSION_DIR/epan") ;;
*) fail "install folder $CCN_WS_INSTALL_DIR is not a Wireshark $CCN_WS_VERSION_DIR epan plugin folder" ;;
esac

personal="$HOME/.local/lib/wireshark/plugins/$CCN_WS_VERSION_DIR/epan"
install -D -m 0755 "$PLUGIN" "$personal/ccn.so"
(
    unset WIRESHARK_PLUGIN_DIR
    tshark_run -G plugins 2>/dev/null
) | grep -q "$personal/ccn.so" || fail "tshark does not load $personal/ccn.so"
(
    unset WIRESHARK_PLUGIN_DIR
    tshark_run -n -r "$V/udp_two_ccnd.pcap" -Y ccn -T fields -e ccn.name 2>/dev/null
) | grep -c . | grep -q '^4$' || fail "the per-user copy does not decode the UDP capture"
echo "install: ok"
