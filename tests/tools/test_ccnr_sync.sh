#!/bin/bash
# Sync between our repositories on three hosts in a line, A - B - C
# (network namespaces, a veth pair on each link, unicast routes for / to
# each neighbour): a file written into A reaches B, and C, which joins
# late, gets everything from B (two hops from A); a second file is being
# synced when B's ccnr is killed with -9, and once it is restarted every
# repository holds both files; ccnsyncwatch lists them; C then serves
# them alone, its link cut. Last, B's slice is deleted while B is syncing
# a third file (A's link to B slowed down, so that it still is): B drops
# the slice, keeps serving, and catches up once it is created again.
# Needs root and ip netns; skipped otherwise.
set -u
B=${CCNX_BIN:?}
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 77
fi
T=$(mktemp -d /tmp/ccnr-sync-XXXXXX) || exit 1
export HOME=$T/home
mkdir -p "$HOME"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN CCND_DEBUG CCNR_DIRECTORY
NS=(ccnxsa$$ ccnxsb$$ ccnxsc$$)
PIDS=()
cleanup() {
    local p n
    for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
    wait 2>/dev/null
    for n in "${NS[@]}"; do ip netns del "$n" 2>/dev/null; done
    [ -n "${CCNX_KEEP_TEST_DIR:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    local f
    for f in "$T"/*.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
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

# host X: the namespace of A, B or C
host() { case $1 in A) echo "${NS[0]}" ;; B) echo "${NS[1]}" ;; C) echo "${NS[2]}" ;; esac; }
# on X COMMAND...: COMMAND in host X, a client of its ccnd
on() {
    local h=$1
    shift
    ip netns exec "$(host "$h")" env CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/$h.sock" \
        CCNX_DIR="$T/user" timeout 60 "$@"
}

for n in "${NS[@]}"; do ip netns add "$n" || fail "cannot make namespace $n"; done
ip link add sab$$ netns "${NS[0]}" type veth peer name sba$$ netns "${NS[1]}" &&
    ip link add sbc$$ netns "${NS[1]}" type veth peer name scb$$ netns "${NS[2]}" ||
    fail "cannot make the veth pairs"
for ns_dev_addr in "0 sab$$ 10.80.1.1" "1 sba$$ 10.80.1.2" "1 sbc$$ 10.80.2.2" "2 scb$$ 10.80.2.3"; do
    set -- $ns_dev_addr
    ip -n "${NS[$1]}" addr add "$3/24" dev "$2" && ip -n "${NS[$1]}" link set "$2" up &&
        ip -n "${NS[$1]}" link set lo up || fail "cannot set up $2"
done

for h in A B C; do
    on "$h" "$B/ccnd" >"$T/ccnd-$h.log" 2>&1 &
    PIDS+=($!)
done
for h in A B C; do
    wait_for 10 on "$h" "$B/ccndstatus" >/dev/null 2>&1 || fail "ccnd on $h did not start"
done
on A "$B/ccndc" add / udp 10.80.1.2 && on B "$B/ccndc" add / udp 10.80.1.1 &&
    on B "$B/ccndc" add / udp 10.80.2.3 && on C "$B/ccndc" add / udp 10.80.2.2 ||
    fail "cannot add the routes"

declare -A CCNR
# start_ccnr X: its repository (kept across restarts), waiting until it serves
start_ccnr() {
    mkdir -p "$T/repo-$1"
    ip netns exec "$(host "$1")" env CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/$1.sock" \
        CCNR_DIRECTORY="$T/repo-$1" CCNR_DEBUG=INFO CCNS_DEBUG=FINER "$B/ccnr" >>"$T/ccnr-$1.log" 2>&1 &
    CCNR[$1]=$!
    PIDS+=($!)
    wait_for 20 grep -q "ccnr: INFO: serving" "$T/ccnr-$1.log" || fail "ccnr on $1 did not start"
}
TOPO=ccnx:/sy/topo
DATA=ccnx:/sy/data
slice() { on "$1" "$B/ccnsyncslice" create "$TOPO" "$DATA" || fail "ccnsyncslice on $1"; }
# holds X N: X's repository logged a root of N names
holds() { grep -q "sync: root [0-9a-f]*, $2 names" "$T/ccnr-$1.log"; }

start_ccnr A
start_ccnr B
slice A
slice B
head -c 200000 /dev/urandom >"$T/f1" # 49 segments of 4096 bytes
on A "$B/ccnputfile" "$DATA/f1" "$T/f1" 2>"$T/put1.log" || fail "ccnputfile f1 into A"
wait_for 90 holds A 49 || fail "A does not list f1"
wait_for 90 holds B 49 || fail "f1 did not reach B"
ok "a file written into A reaches B"

start_ccnr C
slice C
wait_for 90 holds C 49 || fail "f1 did not reach C, which joined late"
ok "C, joining late, gets the file from B, two hops from A"

head -c 2000000 /dev/urandom >"$T/f2" # 489 segments: 538 names with f1
on A "$B/ccnputfile" "$DATA/f2" "$T/f2" 2>"$T/put2.log" || fail "ccnputfile f2 into A"
wait_for 30 grep -q "names missing\|sync: root [0-9a-f]*, [1-9][0-9][0-9] names" "$T/ccnr-B.log" ||
    fail "B did not start syncing f2"
kill -KILL "${CCNR[B]}"
wait "${CCNR[B]}" 2>/dev/null
start_ccnr B
for h in A B C; do
    wait_for 120 holds "$h" 538 || fail "$h does not hold both files after B's restart"
done
ok "B, killed with -9 while syncing and restarted, and C end with both files"

on C "$B/ccnsyncwatch" -t "$TOPO" -p "$DATA" -w 2 >"$T/watch.log" 2>&1
[ "$(grep -c "^$DATA/" "$T/watch.log")" = 538 ] || fail "ccnsyncwatch on C: $(tail -n 3 "$T/watch.log")"
root=$(tail -n 1 "$T/watch.log" | awk '{print $NF}')
on C "$B/ccnsyncwatch" -t "$TOPO" -p "$DATA" -r "$root" -w 1 >"$T/watch2.log" 2>&1
[ ! -s "$T/watch2.log" ] || fail "ccnsyncwatch -r printed names under its start root"
ok "ccnsyncwatch lists the 538 names, and none that lie under its start root"

on C "$B/ccndc" del / udp 10.80.2.2 || fail "cannot cut C's link"
for f in f1 f2; do
    on C "$B/ccncat" "$DATA/$f" >"$T/out" 2>"$T/cat.log" || fail "ccncat $f from C alone"
    cmp -s "$T/$f" "$T/out" || fail "$f from C differs"
done
ok "C serves both files alone"

# 98 segments at 1 Mbit/s: a few seconds of syncing
tc -n "${NS[0]}" qdisc add dev sab$$ root tbf rate 1mbit burst 16kb latency 1s ||
    fail "cannot slow down A's link to B"
head -c 400000 /dev/urandom >"$T/f3"
on A "$B/ccnputfile" "$DATA/f3" "$T/f3" 2>"$T/put3.log" || fail "ccnputfile f3 into A"
# the first of f3 reached B (its repository or its forwarder's cache)
wait_for 60 on B "$B/ccnpeek" -s 1 -w 0.2 "$DATA/f3" >/dev/null 2>&1 || fail "B did not start syncing f3"
on B "$B/ccnsyncslice" delete "$TOPO" "$DATA" || fail "ccnsyncslice delete on B"
wait_for 20 grep -q "sync: a slice was deleted" "$T/ccnr-B.log" || fail "B did not see the deletion"
sed -n '1,/sync: a slice was deleted/p' "$T/ccnr-B.log" | grep -q "sync: root [0-9a-f]*, 636 names" &&
    fail "B held all of f3 before the deletion: not deleted while syncing"
kill -0 "${CCNR[B]}" 2>/dev/null || fail "B's repository died when its slice was deleted"
on B "$B/ccnpeek" -c "$DATA/f1" >/dev/null 2>&1 || fail "B no longer serves f1"
[ "$(sed -n '/sync: a slice was deleted/,$p' "$T/ccnr-B.log" | grep -c "sync: root ")" = 0 ] ||
    fail "B went on syncing a deleted slice"
tc -n "${NS[0]}" qdisc del dev sab$$ root || fail "cannot restore A's link to B"
slice B
wait_for 90 holds B 636 || fail "B did not catch up once its slice was created again"
ok "B's slice deleted while syncing f3: dropped, still serving, caught up once created again"
