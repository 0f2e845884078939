# Shared by the interop tests (test_*.sh in this folder), which source it
# after `set -u`. They run the CCNx 0.8.2 reference's own programs against
# ours. The reference is a build of it (C programs in bin/, and for the Java
# cases its jars in lib/) found through CCNX_REF, by default
# ../shared/ccnx-0.8.2 beside the checkout. Without one, a test says why
# and exits 77, which ctest reports as skipped: it never passes silently.
#
# Every forwarder a test starts (ours or the reference's) has a port, a
# unix socket, a keystore folder and a log of its own under $T; `on NAME`
# runs a program as a client of forwarder NAME. Ours and the reference's
# tools keep separate user keystores, as two users would.
#
# Set by the test before sourcing:
#   INTEROP_TAG        the temporary folder is /tmp/TAG-XXXXXX
#   INTEROP_PORT_BASE  the first of the test's 100 ports

B=${CCNX_BIN:?}
SRC=${CCNX_SRC:?}
REF=${CCNX_REF:-$SRC/../shared/ccnx-0.8.2}
if [ ! -x "$REF/bin/ccnd" ] || [ ! -x "$REF/bin/ccncat" ]; then
    echo "SKIP: no CCNx 0.8.2 reference build at $REF (set CCNX_REF to one)"
    exit 77
fi
REF=$(cd "$REF" && pwd)
T=$(mktemp -d "/tmp/${INTEROP_TAG:?}-XXXXXX") || exit 1
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN CCND_DEBUG CCND_LOG CCNR_DIRECTORY \
    CCN_LOCAL_PORT CCN_LOCAL_SOCKNAME CCNX_USER_NAME
export HOME="$T/home"
mkdir -p "$HOME" "$T/our-user" "$T/ref-user" "$T/java-user"
BG_PIDS=()
CCNDS=()

# The reference's Java programs find their jars through these.
export CCN_HOME="$REF" CCN_HOME_JAVA="$REF/lib"

cleanup() {
    local p
    for p in "${BG_PIDS[@]}"; do
        kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
    done
    for p in "${CCNDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

# ok TEXT: a case passed; with the seconds since the previous case ended
# (or the test began), the time of the pairing that docs/interop.md lists.
CASE_START_US=${EPOCHREALTIME/[.,]/}
ok() {
    local now=${EPOCHREALTIME/[.,]/}
    local tenths=$(((now - CASE_START_US) / 100000))
    echo "ok ($((tenths / 10)).$((tenths % 10)) s): $*"
    CASE_START_US=$now
}

fail() {
    echo "FAIL: $*"
    local f
    for f in "$T"/*.log "$T"/*.err; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}

# Ports: each test has a range of its own (INTEROP_PORT_BASE, 100 ports,
# see docs/testing.md), four of them for each run by its pid, handed out
# in turn.
PORT_NEXT=$((${INTEROP_PORT_BASE:?} + $$ % 25 * 4))
PORT_END=$((PORT_NEXT + 4))
# take_port VAR: the next of the test's ports, in VAR.
take_port() {
    [ "$PORT_NEXT" -lt "$PORT_END" ] || fail "a test needs more than four ports"
    eval "$1=$PORT_NEXT"
    PORT_NEXT=$((PORT_NEXT + 1))
}

# start_ccnd NAME ours|ref [NETNS]: a forwarder in the background, ready
# (its unix socket answers) when this returns. Sets PORT_<NAME>. In network
# namespace NETNS it has the namespace's network to itself and takes the
# default port 9695; its clients (`on NAME`) run in NETNS too.
start_ccnd() {
    local name=$1 kind=$2 netns=${3:-} port bin
    if [ -n "$netns" ]; then port=9695; else take_port port; fi
    eval "PORT_$name=$port NETNS_$name=$netns"
    mkdir -p "$T/$name.ks"
    chmod 700 "$T/$name.ks"
    [ "$kind" = ours ] && bin=$B/ccnd || bin=$REF/bin/ccnd
    in_netns "$netns"
    CCN_LOCAL_PORT=$port CCN_LOCAL_SOCKNAME="$T/$name.sock" CCND_KEYSTORE_DIRECTORY="$T/$name.ks" \
        "${NSX[@]}" "$bin" >"$T/ccnd-$name.log" 2>&1 &
    CCNDS+=($!)
    NSX=()
    local i sock=$T/$name.sock.$port
    [ "$port" != 9695 ] || sock=$T/$name.sock # the socket name has no suffix for the default port
    for i in $(seq 300); do
        if [ -S "$sock" ] &&
            TOOL_TIMEOUT=5 on "$name" ref ccndsmoketest >/dev/null 2>&1; then
            return 0
        fi
        kill -0 "${CCNDS[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    fail "$kind ccnd $name did not start"
}

# in_netns NETNS: the prefix that runs a program in NETNS (none for ""), in
# NSX; `ours` and `ref` start their tools through it.
NSX=()
in_netns() {
    NSX=()
    [ -z "$1" ] || NSX=(ip netns exec "$1")
}

# on NAME COMMAND...: COMMAND as a client of forwarder NAME.
on() {
    local name=$1 port netns res
    shift
    eval "port=\$PORT_$name netns=\${NETNS_$name:-}"
    in_netns "$netns"
    CCN_LOCAL_PORT=$port CCN_LOCAL_SOCKNAME="$T/$name.sock" "$@"
    res=$?
    NSX=()
    return $res
}

# ours TOOL ARGS... / ref TOOL ARGS...: a tool of this project or of the
# reference, each with its user's keystore (run under `on`), stopped after
# TOOL_TIMEOUT seconds (default 60).
ours() {
    local tool=$1
    shift
    CCNX_DIR="$T/our-user" "${NSX[@]}" timeout "${TOOL_TIMEOUT:-60}" "$B/$tool" "$@"
}

# The reference's Java tools keep a user keystore of their own: one that its
# C library made is used by them, but their key is then published nowhere,
# and what they sign cannot be verified once they exit (the reference's
# ccncat reads nothing of it; ours refuse it, naming the key).
ref() {
    local user=$T/ref-user
    [ "$(head -c 4 "$REF/bin/$1")" != $'\x7fELF' ] && grep -qs -e java -e '^ccn_run$' "$REF/bin/$1" &&
        user=$T/java-user
    ref_command "$1"
    CCNX_DIR="$user" PATH="$REF/bin:$PATH" LD_LIBRARY_PATH="$REF/lib" \
        "${NSX[@]}" timeout "${TOOL_TIMEOUT:-60}" "${REF_CMD[@]}" "${@:2}"
}

# ref_command TOOL: how to start the reference's TOOL, in REF_CMD. Its Java
# tools are links to the launcher ccn_run, which takes the tool's name from
# how it was called; a copy that lost its links holds the launcher's name
# as text instead, and the launcher is then given the tool's name first.
ref_command() {
    local path=$REF/bin/$1 target
    REF_CMD=("$path")
    if [ ! -x "$path" ] && [ -f "$path" ] && [ "$(stat -c %s "$path")" -lt 64 ]; then
        target=$(cat "$path")
        [ -x "$REF/bin/$target" ] && REF_CMD=("$REF/bin/$target" "$1")
    fi
    return 0
}

# link FROM TO PREFIX: FROM forwards Interests under PREFIX to TO over UDP
# (with the reference's ccndc, which both forwarders accept).
link() {
    local to_port
    eval "to_port=\$PORT_$2"
    on "$1" ref ccndc add "$3" udp 127.0.0.1 "$to_port" >/dev/null 2>"$T/link.err" ||
        fail "cannot link $1 to $2 for $3: $(cat "$T/link.err")"
}

# bg TAG COMMAND...: COMMAND in the background in a process group of its own
# (the Java programs start a JVM as a child), output to $T/TAG.log; sets
# BG_PID. Stopped on exit. It does not inherit the descriptors in HELD_FDS
# (the write ends of other programs' input FIFOs, which must close when the
# test closes them).
HELD_FDS=()
bg() {
    bg_in "$1" /dev/null "${@:2}"
}

# bg_in TAG FILE COMMAND...: as bg, with standard input from FILE.
bg_in() {
    local tag=$1 in=$2
    shift 2
    (
        for fd in "${HELD_FDS[@]}"; do eval "exec $fd>&-"; done
        exec setsid "$@" >"$T/$tag.log" 2>&1 <"$in"
    ) &
    BG_PID=$!
    BG_PIDS+=("$BG_PID")
}

# stop_bg PID: the process group PID leads, and waits for it.
stop_bg() {
    kill -TERM -- "-$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 0
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds; 1 after SECONDS.
wait_for() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.1
    done
}

have_java() { command -v java >/dev/null 2>&1 && [ -f "$REF/lib/ccn.jar" ]; }

# gst_plugin: 0 when the GStreamer plugin is built and gst-launch-1.0 is
# here, after pointing GStreamer at the plugin in the build tree (with a
# registry of the test's own; a sanitized plugin's leak reports off, as
# GStreamer's own allocations are not ours to judge); 1 otherwise.
gst_plugin() {
    [ -n "${CCNGST_PLUGIN_DIR:-}" ] && command -v gst-launch-1.0 >/dev/null || return 1
    export GST_PLUGIN_PATH=$CCNGST_PLUGIN_DIR GST_REGISTRY="$T/registry.bin" GST_REGISTRY_FORK=no
    [ -z "${CCNGST_PRELOAD:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}
