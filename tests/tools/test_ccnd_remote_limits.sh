#!/bin/bash
# Peers on other hosts cannot lock local programs out (ccnd(1), connections
# from other hosts): ccnd runs with 256 descriptors; four network
# namespaces (four addresses) each open 120 TCP connections and hold them.
# ccnd keeps at most 64 from each address and refuses the rest once only
# its reserve of descriptors is left, while a producer and a consumer on
# the unix socket, ccndc and the status page from this host still work.
# Needs root, ip netns and prlimit; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
command -v prlimit >/dev/null || { echo "SKIP: no prlimit (util-linux)"; exit 0; }
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/remotelimits-XXXXXX) || exit 1
PORT=$((16450 + $$ % 50))
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN CCND_LOG CCND_DEBUG
NETS=4
PER_NET=120
CCND=
HOLDERS=()
cleanup() {
    for p in "${HOLDERS[@]}"; do kill "$p" 2>/dev/null; done
    [ -n "$CCND" ] && kill "$CCND" 2>/dev/null
    wait 2>/dev/null
    for k in $(seq $NETS); do
        ip netns del "rl$$-$k" 2>/dev/null
        ip link del "rl$$$k" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    tail -n 5 "$T/ccnd.log"
    exit 1
}
# the subnet of namespace K
net() { echo "10.$((95 + $1)).$(($$ % 250))"; }

mkdir -p "$CCNX_DIR"
prlimit --nofile=256:256 "$B/ccnd" 2>"$T/ccnd.log" &
CCND=$!
for _ in $(seq 300); do [ -S "$T/sock.$PORT" ] && break; sleep 0.1; done
[ -S "$T/sock.$PORT" ] || fail "ccnd did not start"

for k in $(seq $NETS); do
    ns=rl$$-$k
    ip netns add "$ns" &&
        ip link add "rl$$$k" type veth peer name "rl$$$k"b netns "$ns" &&
        ip addr add "$(net "$k").1/24" dev "rl$$$k" && ip link set "rl$$$k" up &&
        ip -n "$ns" addr add "$(net "$k").2/24" dev "rl$$$k"b && ip -n "$ns" link set "rl$$$k"b up ||
        fail "network namespace setup"
    # opens the connections one after another and holds them until killed
    ip netns exec "$ns" bash -c 'for _ in $(seq "$3"); do exec {fd}<>"/dev/tcp/$1/$2"; done
        echo opened; exec sleep 300' _ "$(net "$k").1" "$PORT" "$PER_NET" >"$T/hold$k.out" 2>&1 &
    HOLDERS+=($!)
    for _ in $(seq 600); do grep -q opened "$T/hold$k.out" && break; sleep 0.1; done
    grep -q opened "$T/hold$k.out" || fail "namespace $k did not open its connections"
done

status() { timeout 10 "$B/ccndstatus" -j; }
page=$(status) || fail "the status page from this host is not served"
total=0
for k in $(seq $NETS); do
    n=$(tr '{' '\n' <<<"$page" | grep -c "\"remote\":\"$(net "$k").2:")
    [ "$n" -le 64 ] || fail "$n connections kept from $(net "$k").2, more than 64"
    total=$((total + n))
done
[ "$total" -le $((256 - 64)) ] || fail "$total connections kept from other hosts: the reserve is gone"
[ "$total" -ge 64 ] || fail "only $total connections kept from other hosts"

# this host's programs: a producer and a consumer on the unix socket, ccndc
echo held | timeout 20 "$B/ccnpoke" -w 15 ccnx:/rl/obj 2>"$T/poke.err" &
POKE=$!
[ "$(timeout 10 "$B/ccnpeek" -c -w 5 ccnx:/rl/obj 2>"$T/peek.err")" = held ] ||
    fail "a local consumer got nothing: $(cat "$T/peek.err" "$T/poke.err")"
wait "$POKE"
timeout 10 "$B/ccndc" add ccnx:/rl/route udp 127.0.0.1 9 2>"$T/ccndc.err" ||
    fail "ccndc: $(cat "$T/ccndc.err")"
kill -0 "$CCND" || fail "ccnd died"
echo "ok ($total connections from other hosts kept)"
