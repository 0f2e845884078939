# Sourced by the dissector tests: runs tshark with the plugin from the build
# tree, in an empty home so no user preference or installed copy interferes.
#
# Environment (set by ctest, see ../CMakeLists.txt):
#   CCN_WS_PLUGIN_DIR   folder laid out as <dir>/<major.minor>/epan/ccn.so
#   CCN_WS_VERSION_DIR  <major.minor>
#   CCN_WS_PCAPGEN      the capture generator
#   CCN_WS_TESTS        this folder (expected results)
#   CCNX_VECTORS        the reference vectors
#   CCN_WS_PRELOAD      sanitizer runtimes, when the plugin is sanitized
set -u

skip() {
    echo "SKIP: $*"
    exit 77
}
fail() {
    echo "FAIL: $*"
    exit 1
}

command -v tshark >/dev/null 2>&1 || skip "tshark is not installed (apt-get install tshark)"
PLUGIN="$CCN_WS_PLUGIN_DIR/$CCN_WS_VERSION_DIR/epan/ccn.so"
[ -f "$PLUGIN" ] || fail "the plugin was not built: $PLUGIN"
[ -d "$CCNX_VECTORS" ] || skip "reference vectors not found in $CCNX_VECTORS"
V="$CCNX_VECTORS"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir -p "$T/home"
export HOME="$T/home"
unset XDG_CONFIG_HOME WIRESHARK_CONFIG_DIR
export WIRESHARK_PLUGIN_DIR="$CCN_WS_PLUGIN_DIR"
# No extcap programs: tshark would start each one to ask its version.
mkdir -p "$T/extcap"
export WIRESHARK_EXTCAP_DIR="$T/extcap"
# A dissector bug (a failed assertion inside Wireshark's API) aborts tshark
# instead of becoming a line of text: the tests see it as a crash.
export WIRESHARK_ABORT_ON_DISSECTOR_BUG=1

# Wireshark ignores WIRESHARK_PLUGIN_DIR (and personal plugins) when run by
# root. As root, run tshark in a user namespace, where it is not root but
# still reads and writes what root can; failing that, as nobody.
WRAP=()
if [ "$(id -u)" = 0 ]; then
    if unshare --user true 2>/dev/null; then
        WRAP=(unshare --user)
    elif command -v setpriv >/dev/null 2>&1; then
        WRAP=(setpriv --reuid=65534 --regid=65534 --clear-groups)
        chmod 777 "$T" "$HOME"
    else
        skip "running as root, and neither unshare --user nor setpriv can drop root for tshark"
    fi
fi

# A sanitized plugin inside an unsanitized tshark needs the runtimes
# preloaded (into tshark only, not into the other tools the tests run).
PRE=()
if [ "${CCN_WS_PRELOAD:-}" = none ]; then
    skip "sanitized plugin, but no shared sanitizer runtime was found to preload into tshark"
elif [ -n "${CCN_WS_PRELOAD:-}" ]; then
    # tshark's own allocations at exit are not ours to judge.
    PRE=(env "LD_PRELOAD=$CCN_WS_PRELOAD" "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
        "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
    "${WRAP[@]}" "${PRE[@]}" tshark -v >/dev/null 2>&1 ||
        skip "tshark does not start with the sanitizer runtimes preloaded ($CCN_WS_PRELOAD)"
fi

# tshark as the tests run it (plugin from the build tree, not as root).
tshark_run() {
    "${WRAP[@]}" "${PRE[@]}" tshark "$@"
}

# tshark with no name resolution, errors kept in $T/stderr.
ts() {
    tshark_run -n "$@" 2>"$T/stderr"
}

# Fails unless tshark exited cleanly and reported no crash or dissector bug.
ts_ok() { # what
    local rc=$1 what=$2
    if [ "$rc" -ne 0 ] || grep -q -i -E "dissector bug|segmentation|AddressSanitizer|runtime error" "$T/stderr"; then
        echo "--- tshark stderr:"
        head -40 "$T/stderr"
        fail "$what: tshark exit $rc"
    fi
}

tshark_run -G protocols 2>/dev/null | grep -q $'\tccn$' ||
    fail "tshark did not load the plugin from $CCN_WS_PLUGIN_DIR"

# Generates a capture: gen SCENARIO [SEED] -> prints its path.
gen() {
    local out="$T/$1${2:+_$2}.pcap"
    "$CCN_WS_PCAPGEN" "$1" "$V" "$out" ${2:+"$2"} || fail "ccn_pcapgen $1 failed"
    echo "$out"
}

# Compares two files, showing the difference on failure.
same() { # expected actual what
    if ! diff -u "$1" "$2" >"$T/diff"; then
        head -40 "$T/diff"
        fail "$3"
    fi
}
