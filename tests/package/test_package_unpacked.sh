#!/bin/bash
# The Debian packages of `make package` (the folder holding them is the
# argument), checked without installing them: each has Depends that
# dpkg-shlibdeps computed; lintian finds nothing it has not been told the
# reason for; its files lie where the system looks (the plugins in
# GStreamer's, Wireshark's and VLC's folders, the units among systemd's);
# and, unpacked into a scratch root, ccnd, ccnpoke and ccnpeek run from
# there with the packaged libccnx and nothing of the build tree, and
# gst-inspect-1.0 finds ccnsrc in the packaged plugin.
set -u
DIR=${1:?usage: test_package_unpacked.sh PACKAGES_DIR}
DIR=$(cd "$DIR" && pwd)
T=$(mktemp -d /tmp/package-XXXXXX)
PORT=$((16850 + $$ % 25)) # a range of its own (docs/testing.md)
cleanup() {
    [ -n "${CCND_PID:-}" ] && kill "$CCND_PID" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$T"/*.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}
ok() { echo "ok: $*"; }
wait_for() { # SECONDS COMMAND...
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.05
    done
}
deb() { ls "$DIR"/"$1"_*.deb 2>/dev/null | head -n 1; }

for p in ccnx libccnx0 libccnx-dev gstreamer1.0-ccnx wireshark-plugin-ccnx vlc-plugin-ccnx; do
    f=$(deb "$p")
    [ -n "$f" ] || fail "no $p package in $DIR"
    depends=$(dpkg-deb -f "$f" Depends)
    # every package but the headers' holds binaries
    [ "$p" = libccnx-dev ] || echo "$depends" | grep -q "libc6 (>= " ||
        fail "$p: Depends has no libc6 from dpkg-shlibdeps: $depends"
    dpkg-deb -x "$f" "$T/root" || fail "dpkg-deb -x $f"
done
dpkg-deb -f "$(deb ccnx)" Depends | grep -q "libccnx0 (= " || fail "ccnx does not depend on libccnx0"
dpkg-deb -f "$(deb vlc-plugin-ccnx)" Depends | grep -q libvlccore || fail "vlc-plugin-ccnx does not depend on libvlccore"
ok "six packages, Depends from dpkg-shlibdeps (ccnx: $(dpkg-deb -f "$(deb ccnx)" Depends))"

if command -v lintian >/dev/null 2>&1; then
    lintian --tag-display-limit 0 "$DIR"/*.deb >"$T/lintian.log" 2>&1
    grep -E "^[EWI]: " "$T/lintian.log" && fail "lintian has findings (above)"
    ok "lintian: no finding (overridden, with the reason: $(lintian --show-overrides "$DIR"/*.deb 2>/dev/null | grep -c '^O:'))"
else
    echo "SKIP case: lintian (not installed)"
fi

# where the system looks
gst=$(pkg-config --variable=pluginsdir gstreamer-1.0)
vlc=$(pkg-config --variable=pluginsdir vlc-plugin)/access
ws=$(pkg-config --variable=plugindir wireshark)
for f in "$gst/libgstccnx.so" "$vlc/libccnx_plugin.so" "$ws/epan/ccn.so" \
    /lib/systemd/system/ccnd.service /lib/systemd/system/ccnr.service \
    /usr/lib/systemd/user/ccnd.service /usr/bin/ccnd /usr/share/man/man1/ccnd.1.gz \
    /usr/lib/x86_64-linux-gnu/pkgconfig/libccnx.pc; do
    [ -e "$T/root$f" ] || fail "no $f in the packages: $(cd "$T/root" && find . -type f | head -n 60)"
done
grep -q "^ExecStart=/usr/bin/ccndstart --exec" "$T/root/lib/systemd/system/ccnd.service" ||
    fail "the packaged ccnd.service does not run /usr/bin/ccndstart"
ok "files where the system looks: $gst, $vlc, $ws/epan, /lib/systemd/system"

# the programs from the scratch root alone
LIB=$T/root/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB
ldd "$T/root/usr/bin/ccnd" | grep -q "libccnx.so.0 => $LIB/" ||
    fail "ccnd does not load the packaged libccnx: $(ldd "$T/root/usr/bin/ccnd" | grep ccnx)"
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user" CCND_KEYSTORE_DIRECTORY="$T"
unset CCN_LOCAL_TRANSPORT
"$T/root/usr/bin/ccnd" >"$T/ccnd.log" 2>&1 &
CCND_PID=$!
wait_for 10 test -S "$T/sock.$PORT" || fail "the packaged ccnd does not listen"
echo "from the package" >"$T/in"
timeout 20 "$T/root/usr/bin/ccnpoke" -x 5 ccnx:/package/hello <"$T/in" >"$T/poke.log" 2>&1 &
POKE=$!
timeout 20 "$T/root/usr/bin/ccnpeek" -c -w 10 ccnx:/package/hello >"$T/out" 2>"$T/peek.log" ||
    fail "the packaged ccnpeek"
wait "$POKE" 2>/dev/null
cmp -s "$T/in" "$T/out" || fail "ccnpeek read $(cat "$T/out")"
ok "the packaged ccnd, ccnpoke and ccnpeek, with the packaged libccnx"

unset LD_LIBRARY_PATH
GST_PLUGIN_PATH='' GST_PLUGIN_SYSTEM_PATH_1_0="$T/root$gst:$gst" GST_REGISTRY="$T/registry.bin" \
    gst-inspect-1.0 ccnsrc >"$T/inspect.log" 2>&1 || fail "gst-inspect-1.0 ccnsrc"
grep -q "Filename.*$T/root$gst/libgstccnx.so" "$T/inspect.log" ||
    fail "ccnsrc is not the packaged one: $(grep Filename "$T/inspect.log")"
ok "gst-inspect-1.0 ccnsrc: $(grep -m1 Filename "$T/inspect.log" | sed 's/  */ /g')"
echo "all unpacked-package checks passed"
