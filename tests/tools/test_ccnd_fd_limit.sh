#!/bin/bash
# ccnd out of file descriptors: with a low limit and more connections than
# it allows, it says so once in its log (naming the fix), keeps serving the
# connections it has, and once some end it accepts again and says so.
set -u
B=${CCNX_BIN:?}
command -v prlimit >/dev/null || { echo "SKIP: no prlimit (util-linux)"; exit 0; }
T=$(mktemp -d /tmp/fdlimit-XXXXXX) || exit 1
PORT=$((16350 + $$ % 50))
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN CCND_LOG CCND_DEBUG
CCND=
cleanup() {
    [ -n "$CCND" ] && kill "$CCND" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    tail -n 5 "$T/ccnd.log"
    exit 1
}
# until_log TEXT: until ccnd's log holds TEXT (30 s at most)
until_log() {
    for _ in $(seq 300); do
        grep -q "$1" "$T/ccnd.log" && return 0
        sleep 0.1
    done
    fail "ccnd never logged '$1'"
}
mkdir -p "$CCNX_DIR"
prlimit --nofile=48:48 "$B/ccnd" 2>"$T/ccnd.log" &
CCND=$!
until_log "listening"
fds=()
for _ in $(seq 60); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || fail "connect"
    fds+=("$fd")
done
until_log "cannot accept connections on face .*Too many open files.*ulimit -n"
# the faces it holds still work: the status page on the unix socket needs
# a descriptor too, so some connections end first
for fd in "${fds[@]}"; do exec {fd}>&-; done
for _ in $(seq 100); do
    timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "GET /?f=json HTTP/1.0\r\n\r\n" >&3 &&
        grep -q "\"faces\"" <&3' _ "$PORT" && break
    sleep 0.1
done
until_log "accepting connections again"
[ "$(grep -c "cannot accept connections" "$T/ccnd.log")" = 1 ] || fail "said more than once"
kill -0 "$CCND" || fail "ccnd died"
echo "ok"
