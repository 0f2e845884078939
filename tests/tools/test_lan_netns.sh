#!/bin/bash
# LAN mode: three hosts (network namespaces) on one Ethernet bridge, each
# started with `ccndstart --lan` and nothing else configured; a file put on
# one host is fetched on the other two. Once over IPv4 only (IPv6 off on
# the links), once over IPv6 only (no IPv4 address: the link-local group).
# Needs root and ip netns; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/lan-XXXXXX) || exit 1
unset CCN_LOCAL_TRANSPORT CCN_LOCAL_PORT CCND_LAN CCND_LAN_PREFIX CCNR_GLOBAL_PREFIX
TAG=$(($$ % 100000))
BR=lanbr$TAG
HOSTS="h1 h2 h3"

# on HOST CMD...: CMD in HOST's namespace with HOST's ccnd and keys.
on() {
    local h=$1
    shift
    ip netns exec "lan$h$TAG" env CCN_LOCAL_SOCKNAME="$T/$h.sock" CCNX_DIR="$T/$h" \
        CCND_KEYSTORE_DIRECTORY="$T/$h" CCND_LOG="$T/$h.ccnd.log" "$@"
}
teardown() {
    for h in $HOSTS; do
        on "$h" "$B/ccndstop" >/dev/null 2>&1
        ip netns del "lan$h$TAG" 2>/dev/null
    done
    ip netns del "$BR" 2>/dev/null
}
cleanup() {
    for p in $(jobs -p); do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    teardown
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$T"/*.err "$T"/*.ccnd.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}

# lan FAMILY: the bridge and three hosts, addressed for FAMILY (4 or 6).
lan() {
    ip netns add "$BR" && ip -n "$BR" link add br0 type bridge && ip -n "$BR" link set br0 up ||
        fail "cannot make the bridge"
    local n=0
    for h in $HOSTS; do
        n=$((n + 1))
        local ns=lan$h$TAG
        mkdir -p "$T/$h"
        ip netns add "$ns" || fail "cannot create $ns"
        # no duplicate address detection: the link-local address is usable at once
        ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.accept_dad=0 \
            net.ipv6.conf.default.disable_ipv6=$((1 - ($1 == 6))) || fail "sysctl in $ns"
        ip link add eth0 netns "$ns" type veth peer name "p$h" netns "$BR" || fail "no veth for $h"
        ip -n "$BR" link set "p$h" master br0 && ip -n "$BR" link set "p$h" up || fail "bridge $h"
        if [ "$1" = 4 ]; then
            ip -n "$ns" addr add "10.82.0.$n/24" dev eth0 || fail "address of $h"
        fi
        ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up || fail "links of $h"
        on "$h" timeout 30 "$B/ccndstart" -v --lan >"$T/$h.start.out" 2>"$T/$h.start.err" ||
            fail "ccndstart --lan on $h: $(cat "$T/$h.start.err")"
    done
}

# share FAMILY: h1 publishes a file, h2 and h3 fetch it.
share() {
    head -c 300000 /dev/urandom >"$T/file$1"
    on h1 timeout 120 "$B/ccnputfile" -x 60 "ccnx:/lan/file$1" "$T/file$1" >/dev/null \
        2>"$T/put$1.err" &
    for h in h2 h3; do
        on "$h" timeout 60 "$B/ccngetfile" "ccnx:/lan/file$1" "$T/$h.got$1" 2>"$T/get$h$1.err" ||
            fail "ccngetfile on $h over IPv$1: $(tail -n 2 "$T/get$h$1.err")"
        cmp -s "$T/file$1" "$T/$h.got$1" || fail "the file fetched on $h over IPv$1 differs"
    done
}

lan 4
grep -q "LAN: ccnx:/ on eth0, 224.0.23.170:59695 from 10.82.0.1" "$T/h1.start.out" ||
    fail "ccndstart -v --lan said: $(cat "$T/h1.start.out")"
grep -q "ff02::170" "$T/h1.start.out" && fail "an IPv6 face with IPv6 off"
share 4
teardown

lan 6
grep -q "LAN: ccnx:/ on eth0, ff02::170:59695 from fe80::" "$T/h1.start.out" ||
    fail "ccndstart -v --lan said: $(cat "$T/h1.start.out")"
grep -q "224.0.23.170" "$T/h1.start.out" && fail "an IPv4 face without an IPv4 address"
share 6

# A named interface that is not there is refused with its name.
on h1 "$B/ccndstop" >/dev/null 2>&1
on h1 timeout 30 "$B/ccndstart" --lan nosuch0 >/dev/null 2>"$T/bad.err" &&
    fail "ccndstart --lan nosuch0 succeeded"
grep -q "nosuch0: no such interface" "$T/bad.err" || fail "unclear error: $(cat "$T/bad.err")"
echo "ok"
