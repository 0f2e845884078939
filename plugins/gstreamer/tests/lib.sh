# Shared by the GStreamer element tests (test_*.sh), which source it after
# `set -u`. Each test runs its own ccnd on a port of its own, in a folder
# of its own, with a private GStreamer registry that sees the plugin in the
# build tree, and removes everything on exit.
#
# Set by the test before sourcing:
#   GST_TEST_TAG        the temporary folder is /tmp/TAG-XXXXXX
#   GST_TEST_PORT_BASE  ccnd's port is BASE + $$ % 50
B=${CCNX_BIN:?}
CHECK=${CCNX_TESTS_BIN:?}/ccngst_check
T=$(mktemp -d "/tmp/${GST_TEST_TAG:?}-XXXXXX") || exit 1
export CCN_LOCAL_PORT=$((${GST_TEST_PORT_BASE:?} + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX
export GST_PLUGIN_PATH=${CCNGST_PLUGIN_DIR:?}
export GST_REGISTRY="$T/registry.bin"
export GST_REGISTRY_FORK=no
# A sanitized plugin loaded into gst-launch-1.0 needs the runtimes first;
# GStreamer's own allocations are not ours to report.
if [ -n "${CCNGST_PRELOAD:-}" ]; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    GST_PRELOAD=$CCNGST_PRELOAD
else
    GST_PRELOAD=
fi
mkdir -p "$CCNX_DIR"
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

# gst ARGS...: gst-launch-1.0 with the plugin (and the sanitizer runtimes)
gst() { LD_PRELOAD=$GST_PRELOAD gst-launch-1.0 "$@"; }
gst_inspect() { LD_PRELOAD=$GST_PRELOAD gst-inspect-1.0 "$@"; }

start_ccnd() {
    timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.log" || fail "ccndstart"
}

# serve TAG PIPELINE...: a sending pipeline in the background (at most 120 s)
serve() {
    local tag=$1
    shift
    timeout 120 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 "$@" >"$T/$tag.log" 2>&1 &
    BG_PIDS+=($!)
}

# wait_published URI: until a version exists under URI (the sender's first
# buffer was written), or fail after 30 s
wait_published() {
    for _ in $(seq 30); do
        timeout 5 "$B/ccnpeek" -w 1 "$1" >/dev/null 2>&1 && return 0
    done
    fail "nothing published under $1"
}

# start_ccnr: a repository on $CCNR_DIRECTORY in the background (at most
# 120 s), its log in $T/ccnr.log; returns once it says it serves (after
# registering with ccnd), or fails if it dies first.
start_ccnr() {
    CCNR_DEBUG=INFO timeout 120 "$B/ccnr" 2>"$T/ccnr.log" &
    BG_PIDS+=($!)
    while ! grep -q "ccnr: INFO: serving" "$T/ccnr.log"; do
        kill -0 "${BG_PIDS[-1]}" 2>/dev/null || fail "ccnr did not start: $(cat "$T/ccnr.log")"
        sleep 0.05
    done
}
