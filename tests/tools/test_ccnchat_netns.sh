#!/bin/bash
# ccnchat across hosts: two network namespaces joined by a veth pair, a
# ccnd in each. A room routed over UDP between the two ccnd: a member on
# the screen in one, line-mode members in the other, messages both ways and
# a late joiner's history from across the link. Then a room under
# ccnx:/ccnx.org routed to the multicast group as in the reference's
# example (ccndc add ccnx:/ccnx.org udp 224.0.23.170 59695).
# Needs root, ip netns and tmux; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
CHAT_TEST_TAG=chatnetns
CHAT_TEST_PORT_BASE=16100
. "$(dirname "$0")/chat_lib.sh" || exit 1
NS1=chat1ns$$
NS2=chat2ns$$
V1=cv1$(($$ % 100000))
V2=cv2$(($$ % 100000))
IP1=10.81.0.1
IP2=10.81.0.2
PORT=$CCN_LOCAL_PORT

# in_ns NS NODE: CHAT_PREFIX for programs of NODE's ccnd in namespace NS.
in_ns() {
    CHAT_PREFIX=(ip netns exec "$1" env CCN_LOCAL_SOCKNAME="$T/$2.sock" CCND_LOG="$T/$2.ccnd.log")
}
ns_ccnd() {
    in_ns "$1" "$2"
    shift 2
    (without_chat_fds "${CHAT_PREFIX[@]}" timeout 30 "$@")
}
netns_cleanup() {
    ns_ccnd "$NS1" n1 "$B/ccndstop" >/dev/null 2>&1
    ns_ccnd "$NS2" n2 "$B/ccndstop" >/dev/null 2>&1
    chat_cleanup
    ip netns del "$NS1" 2>/dev/null
    ip netns del "$NS2" 2>/dev/null
}
trap netns_cleanup EXIT

ip netns add "$NS1" && ip netns add "$NS2" || fail "cannot create the namespaces"
ip link add "$V1" netns "$NS1" type veth peer name "$V2" netns "$NS2" || fail "no veth pair"
for side in "$NS1 $V1 $IP1" "$NS2 $V2 $IP2"; do
    set -- $side
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
        ip -n "$1" link set lo up && ip -n "$1" route add 224.0.0.0/4 dev "$2" ||
        fail "cannot configure $2"
done
ns_ccnd "$NS1" n1 "$B/ccndstart" >/dev/null 2>"$T/n1.start.err" || fail "ccndstart in $NS1"
ns_ccnd "$NS2" n2 "$B/ccndstart" >/dev/null 2>"$T/n2.start.err" || fail "ccndstart in $NS2"
ns_ccnd "$NS1" n1 "$B/ccndc" add ccnx:/testroom1 udp $IP2 "$PORT" >/dev/null || fail "ccndc in $NS1"
ns_ccnd "$NS2" n2 "$B/ccndc" add ccnx:/testroom1 udp $IP1 "$PORT" >/dev/null || fail "ccndc in $NS2"

# Over UDP: alice on the screen in one namespace, bob in line mode in the other.
in_ns "$NS2" n2
start_chat bob ccnx:/testroom1
in_ns "$NS1" n1
start_screen alice ccnx:/testroom1 100 24 CCN_LOCAL_SOCKNAME="$T/n1.sock"
wait_screen alice "bob has entered ccnx:/testroom1"
wait_for bob "] alice has entered ccnx:/testroom1"
type_keys alice "hello across the link"
keys alice Enter
wait_for bob "] hello across the link"
say bob "and back"
wait_screen alice "bob: and back"
# A late joiner beside bob gets the history, alice's lines included.
in_ns "$NS2" n2
start_chat carol ccnx:/testroom1
wait_for carol "] hello across the link"
wait_for carol "] and back"
keys alice C-c
wait_for bob "] === alice leaving chat"

# The multicast group, as in the reference's example.
ns_ccnd "$NS1" n1 "$B/ccndc" add ccnx:/ccnx.org udp 224.0.23.170 59695 >/dev/null ||
    fail "ccndc multicast in $NS1"
ns_ccnd "$NS2" n2 "$B/ccndc" add ccnx:/ccnx.org udp 224.0.23.170 59695 >/dev/null ||
    fail "ccndc multicast in $NS2"
in_ns "$NS1" n1
start_chat dave ccnx:/ccnx.org/chat
in_ns "$NS2" n2
start_chat erin ccnx:/ccnx.org/chat
wait_for dave "] erin has entered ccnx:/ccnx.org/chat"
say dave "over multicast"
wait_for erin "] over multicast"
say erin "heard you"
wait_for dave "] heard you"
for n in bob carol dave erin; do leave $n; done
echo "ok: ccnchat across namespaces, UDP and multicast"
