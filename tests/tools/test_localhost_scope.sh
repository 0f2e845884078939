#!/bin/bash
# Content under ccnx:/%C1.M.S.localhost (ccnd's own key among it) is for
# this host only: an Interest for it from another host (a network
# namespace, over TCP) is dropped before the content store and counted
# (interests_nonlocal), while the same Interest from this host is answered.
# Needs root and ip netns; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/localscope-XXXXXX) || exit 1
PORT=$((16300 + $$ % 50))
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T" CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN
NS=localscope$$
SUB=10.94.$(($$ % 250))
cleanup() {
    ip netns del "$NS" 2>/dev/null
    ip link del "ls$$a" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    tail -n 5 "$T/ccnd.log" 2>/dev/null
    exit 1
}
mkdir -p "$CCNX_DIR"
timeout 30 "$B/ccndstart" >/dev/null 2>"$T/start.err" || fail "ccndstart: $(cat "$T/start.err")"
echo SECRET | timeout 10 "$B/ccnpoke" -f -x 120 'ccnx:/%C1.M.S.localhost/secret' 2>"$T/poke.err" &
POKE=$!
# The Interest as raw ccnb, as another host would send it.
cat >"$T/interest.xml" <<'XML'
<Interest><Name><Component ccnbencoding="hexBinary">C12E4D2E532E6C6F63616C686F7374</Component><Component ccnbencoding="text">secret</Component></Name></Interest>
XML
"$B/ccn_xmltoccnb" - <"$T/interest.xml" >"$T/interest.ccnb" 2>"$T/xml.err" ||
    fail "ccn_xmltoccnb: $(cat "$T/xml.err")"
ip netns add "$NS" &&
    ip link add "ls$$a" type veth peer name "ls$$b" netns "$NS" &&
    ip addr add "$SUB.1/24" dev "ls$$a" && ip link set "ls$$a" up &&
    ip -n "$NS" addr add "$SUB.2/24" dev "ls$$b" && ip -n "$NS" link set "ls$$b" up ||
    fail "network namespace setup"

# ask ADDR: sends the Interest over TCP from this host, prints what comes
# back within a second.
ask() {
    timeout 20 bash -c 'exec 3<>"/dev/tcp/$1/$2" || exit 1
        cat "$3" >&3
        timeout 1 cat <&3' _ "$1" "$PORT" "$T/interest.ccnb"
}
# ask_remote: the same from the namespace; it reads once ccnd has counted
# the Interest as non-local (its status page, read over the same link), so
# a late answer cannot slip past.
ask_remote() {
    timeout 30 ip netns exec "$NS" bash -c 'exec 3<>"/dev/tcp/$1/$2" || exit 1
        cat "$3" >&3
        for _ in $(seq 100); do
            exec 4<>"/dev/tcp/$1/$2" || exit 1
            printf "GET /?f=json HTTP/1.0\r\n\r\n" >&4
            grep -q "\"interests_nonlocal\":1" <&4 && break
            sleep 0.1
        done
        timeout 1 cat <&3' _ "$SUB.1" "$PORT" "$T/interest.ccnb"
}
nonlocal() { "$B/ccndstatus" -j | grep -o '"interests_nonlocal":[0-9]*' | cut -d: -f2; }

# this host: answered (the producer is up once its answer is in the store)
for _ in $(seq 100); do
    ask 127.0.0.1 | grep -aq SECRET && break
    sleep 0.1
done
ask 127.0.0.1 | grep -aq SECRET || fail "this host's Interest was not answered"
[ "$(nonlocal)" = 0 ] || fail "interests_nonlocal is $(nonlocal) before any remote Interest"
# another host: dropped and counted
ask_remote | grep -aq SECRET && fail "a remote host got the content under %C1.M.S.localhost"
[ "$(nonlocal)" = 1 ] || fail "interests_nonlocal is $(nonlocal), expected 1"
kill "$POKE" 2>/dev/null
echo "ok"
