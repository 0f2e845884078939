#!/bin/bash
# Sync in LAN mode: three hosts (network namespaces) on one Ethernet bridge,
# each started with `ccndstart --lan` (one multicast face, no route
# configured) and a repository following the same slice. A file written
# into h1's repository reaches h2 and h3; one written into h3's reaches the
# other two; all three end with the same root. Root Advise and Node Fetch
# (Scope 2) travel over the multicast group.
# Needs root and ip netns; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/sync-lan-XXXXXX) || exit 1
unset CCN_LOCAL_TRANSPORT CCN_LOCAL_PORT CCND_LAN CCND_LAN_PREFIX CCNR_GLOBAL_PREFIX
TAG=$(($$ % 100000))
BR=slanbr$TAG
HOSTS="h1 h2 h3"
TOPO=ccnx:/sl/topo
DATA=ccnx:/sl/data

# on HOST CMD...: CMD in HOST's namespace with HOST's ccnd and keys.
on() {
    local h=$1
    shift
    ip netns exec "slan$h$TAG" env CCN_LOCAL_SOCKNAME="$T/$h.sock" CCNX_DIR="$T/$h" \
        CCND_KEYSTORE_DIRECTORY="$T/$h" CCND_LOG="$T/$h.ccnd.log" "$@"
}
cleanup() {
    for p in $(jobs -p); do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    local h pids
    for h in $HOSTS; do
        on "$h" "$B/ccndstop" >/dev/null 2>&1
        # ip netns exec does not pass a signal on: every program left in
        # the namespace (the repositories) goes with it
        pids=$(ip netns pids "slan$h$TAG" 2>/dev/null)
        [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
        ip netns del "slan$h$TAG" 2>/dev/null
    done
    ip netns del "$BR" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    local f
    for f in "$T"/*.err "$T"/*.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}
ok() { echo "ok: $*"; }
wait_for() { # SECONDS COMMAND...
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.1
    done
}
# holds HOST N: HOST's repository logged a root of N names
holds() { grep -q "sync: root [0-9a-f]*, $2 names" "$T/ccnr-$1.log"; }
root_of() { grep -o "sync: root [0-9a-f]*, $2 names" "$T/ccnr-$1.log" | tail -n 1; }

ip netns add "$BR" && ip -n "$BR" link add br0 type bridge && ip -n "$BR" link set br0 up ||
    fail "cannot make the bridge"
n=0
for h in $HOSTS; do
    n=$((n + 1))
    ns=slan$h$TAG
    mkdir -p "$T/$h" "$T/repo-$h"
    ip netns add "$ns" || fail "cannot create $ns"
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || fail "sysctl in $ns"
    ip link add eth0 netns "$ns" type veth peer name "s$h" netns "$BR" || fail "no veth for $h"
    ip -n "$BR" link set "s$h" master br0 && ip -n "$BR" link set "s$h" up || fail "bridge $h"
    ip -n "$ns" addr add "10.83.0.$n/24" dev eth0 && ip -n "$ns" link set eth0 up &&
        ip -n "$ns" link set lo up || fail "links of $h"
    on "$h" timeout 30 "$B/ccndstart" --lan >"$T/$h.start.out" 2>"$T/$h.start.err" ||
        fail "ccndstart --lan on $h: $(cat "$T/$h.start.err")"
    on "$h" env CCNR_DIRECTORY="$T/repo-$h" CCNR_DEBUG=INFO CCNS_DEBUG=FINE "$B/ccnr" \
        >"$T/ccnr-$h.log" 2>&1 &
    wait_for 20 grep -q "ccnr: INFO: serving" "$T/ccnr-$h.log" || fail "ccnr on $h did not start"
    on "$h" "$B/ccnsyncslice" create "$TOPO" "$DATA" || fail "ccnsyncslice on $h"
done

head -c 200000 /dev/urandom >"$T/f1" # 49 segments of 4096 bytes
on h1 "$B/ccnputfile" "$DATA/f1" "$T/f1" 2>"$T/put1.err" || fail "ccnputfile f1 into h1"
for h in $HOSTS; do
    wait_for 60 holds "$h" 49 || fail "f1 did not reach $h"
done
ok "a file written into h1 reaches h2 and h3 over the multicast face"

head -c 100000 /dev/urandom >"$T/f2" # 25 segments: 74 names with f1
on h3 "$B/ccnputfile" "$DATA/f2" "$T/f2" 2>"$T/put2.err" || fail "ccnputfile f2 into h3"
for h in $HOSTS; do
    wait_for 60 holds "$h" 74 || fail "f2 did not reach $h"
done
[ "$(root_of h1 74)" = "$(root_of h2 74)" ] && [ "$(root_of h2 74)" = "$(root_of h3 74)" ] ||
    fail "different roots for the same 74 names: $(root_of h1 74); $(root_of h2 74); $(root_of h3 74)"
ok "a file written into h3 reaches h1 and h2; the three roots agree"

# h2 serves both files alone once the others are gone
on h1 "$B/ccndstop" >/dev/null 2>&1
on h3 "$B/ccndstop" >/dev/null 2>&1
on h2 timeout 30 "$B/ccngetfile" "$DATA/f2" "$T/got2" 2>"$T/get2.err" || fail "ccngetfile f2 on h2"
cmp -s "$T/f2" "$T/got2" || fail "f2 served by h2 differs"
ok "h2's repository serves what came from h3"
