# Shared by the VLC module's tests (test_*.sh), which source it after
# `set -u`. Each test runs its own ccnd on a port of its own, in a folder
# of its own, with VLC finding the module in the build tree
# (VLC_PLUGIN_PATH), and removes everything on exit.
#
# The vlc program refuses to run as root: as root, `vlc_as_user` runs it as
# nobody, so the test folder is open to every user (the ccnd socket, the
# files published) and VLC's home and outputs go in a folder nobody may
# write. The checker (ccnv_check, libvlc) runs as the caller.
#
# In the sanitized build the module needs the sanitizer runtimes preloaded,
# and the vlc program then hangs in its first steps (a lock in
# bindtextdomain, before any module loads); libvlc in ccnv_check does not.
# There the cases that run the vlc program run through ccnv_check with the
# same options, and test_inspect.sh, which needs the program, is skipped.
#
# Set by the test before sourcing:
#   VLC_TEST_TAG        the temporary folder is /tmp/TAG-XXXXXX
#   VLC_TEST_PORT_BASE  ccnd's port is BASE + $$ % 50
B=${CCNX_BIN:?}
CHECK=${CCNX_TESTS_BIN:?}/ccnv_check
READ=${CCNX_TESTS_BIN:?}/ccnv_read
T=$(mktemp -d "/tmp/${VLC_TEST_TAG:?}-XXXXXX") || exit 1
chmod 755 "$T"
export CCN_LOCAL_PORT=$((${VLC_TEST_PORT_BASE:?} + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX
export VLC_PLUGIN_PATH=${CCNV_PLUGIN_DIR:?}
export GST_PLUGIN_PATH=${CCNGST_PLUGIN_DIR:-}
export GST_REGISTRY="$T/registry.bin"
export GST_REGISTRY_FORK=no
# A sanitized module loaded into VLC needs the runtimes first; VLC's own
# allocations are not ours to report.
if [ -n "${CCNV_PRELOAD:-}" ]; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
PRELOAD=${CCNV_PRELOAD:-}
VLC_HOME="$T/vlc-home" # VLC's configuration and the files it writes
mkdir -p "$CCNX_DIR" "$VLC_HOME"
chmod 777 "$VLC_HOME"
BG_PIDS=()

cleanup() {
    for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*"
    for f in "$T"/*.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}

skip() {
    echo "SKIP: $*"
    exit 77
}

command -v cvlc >/dev/null || skip "no cvlc (apt-get install vlc-bin vlc-plugin-base)"

# vlc_as_user ARGS...: cvlc with the module, as nobody when run as root
vlc_as_user() {
    local as=()
    [ "$(id -u)" != 0 ] || as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    "${as[@]}" env HOME="$VLC_HOME" VLC_PLUGIN_PATH="$VLC_PLUGIN_PATH" \
        CCN_LOCAL_PORT="$CCN_LOCAL_PORT" CCN_LOCAL_SOCKNAME="$CCN_LOCAL_SOCKNAME" \
        LD_PRELOAD="$PRELOAD" ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
        timeout 120 cvlc --no-audio "$@"
}

# vlc_dump MRL OUT [ARGS...]: what VLC's access gives, byte for byte, in OUT
# (VLC's dump demuxer writes the bytes it reads; --sout with mux=dummy would
# write the elementary streams a demuxer found, not the container's bytes)
vlc_dump() {
    local mrl=$1 out=$2
    shift 2
    if [ -n "$PRELOAD" ]; then # see above: libvlc instead of the vlc program
        local path=()
        [[ $mrl == *://* ]] || path=(-p)
        [ "${1:-}" != -vv ] || path+=(-v)
        check -t 120 "${path[@]}" "$mrl" :demux=dump \
            ":demuxdump-file=$VLC_HOME/dump" >"$T/vlc.log" 2>&1 ||
            fail "VLC on $mrl: $(tail -n 5 "$T/vlc.log")"
    else
        vlc_as_user -I dummy --play-and-exit --demux=dump --demuxdump-file="$VLC_HOME/dump" \
            "$@" "$mrl" >"$T/vlc.log" 2>&1 || fail "vlc on $mrl: $(tail -n 5 "$T/vlc.log")"
    fi
    mv "$VLC_HOME/dump" "$out" 2>/dev/null || fail "vlc wrote nothing for $mrl: $(tail -n 5 "$T/vlc.log")"
}

# check ARGS...: ccnv_check with the module (and the sanitizer runtimes)
check() { LD_PRELOAD=$PRELOAD "$CHECK" "$@"; }

start_ccnd() {
    timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.log" || fail "ccndstart"
}

# serve TAG COMMAND...: a producer in the background (at most 120 s)
serve() {
    local tag=$1
    shift
    timeout 120 "$@" >"$T/$tag.log" 2>&1 &
    BG_PIDS+=($!)
}

# wait_published URI: until a version exists under URI, or fail after 30 s
wait_published() {
    for _ in $(seq 30); do
        timeout 5 "$B/ccnpeek" -w 1 "$1" >/dev/null 2>&1 && return 0
    done
    fail "nothing published under $1"
}

have_gst() { [ -n "$GST_PLUGIN_PATH" ] && [ -e "$GST_PLUGIN_PATH/libgstccnx.so" ]; }
gst() { LD_PRELOAD=$PRELOAD timeout 120 gst-launch-1.0 -q "$@"; }
have_vp8enc() { LD_PRELOAD=$PRELOAD gst-inspect-1.0 vp8enc >/dev/null 2>&1; }
