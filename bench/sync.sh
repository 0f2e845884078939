#!/bin/bash
# CCNx Sync's speed, ours beside the reference's, run by hand (as root):
#
#   bench/sync.sh [-n ROUNDS] [-k NAMES] [-i IMPL] [BIN]
#
# Four hosts in a line, A - B - C - D (network namespaces, a veth pair per
# link, / routed to each neighbour over UDP), each with a forwarder and a
# repository of the same implementation (ours, or the reference's from
# CCNX_REF, default ../shared/ccnx-0.8.2), the same slice created in each.
# A file of NAMES segments of 1 KB (default 10000) is written into A's
# repository by our ccnputfile -b 1024 (the same writer for both); our
# ccnsyncwatch, started before on B and on D (so the same follower times
# both implementations), notes when each holds every name (a round fails
# after 120 s without it). Prints the
# seconds from the start of the write to the end of the write, to B holding
# all (one hop) and to D holding all (three hops), then the medians. -i takes
# "ours", "ref" or both (default, in turn each round).
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
NAMES=10000
IMPLS="ours ref"
while getopts "n:k:i:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    k) NAMES=$OPTARG ;;
    i) IMPLS=$OPTARG ;;
    *)
        bench_usage
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
BIN=$(cd "${1:-build/bin}" && pwd) || exit 1
bench_need "$BIN" ccnd ccndc ccnr ccnputfile ccnsyncslice ccnsyncwatch
SRC=$(cd "$(dirname "$0")/.." && pwd)
REF=${CCNX_REF:-$SRC/../shared/ccnx-0.8.2}
[ "$(id -u)" = 0 ] || { echo "$(basename "$0"): needs root (network namespaces)" >&2; exit 1; }
case $IMPLS in *ref*) [ -x "$REF/bin/ccnr" ] || { echo "no reference at $REF" >&2; exit 1; } ;; esac

T=$(mktemp -d /tmp/bench-sync-XXXXXX) || exit 1
HOSTS=(A B C D)
NS=()
for h in "${HOSTS[@]}"; do NS+=("bsync$h$$"); done
cleanup() {
    pkill -KILL -f "$T/" 2>/dev/null
    local n
    for n in "${NS[@]}"; do ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL; done
    for n in "${NS[@]}"; do ip netns del "$n" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
export HOME=$T/home
mkdir -p "$HOME"
head -c $((NAMES * 1024)) /dev/urandom >"$T/file"

ns_of() { echo "bsync$1$$"; }
# on HOST IMPL COMMAND...: COMMAND in HOST with HOST's forwarder
on() {
    local h=$1 impl=$2
    shift 2
    local env=(CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/$h.sock" CCNX_DIR="$T/user")
    [ "$impl" = ref ] && env+=(LD_LIBRARY_PATH="$REF/lib")
    ip netns exec "$(ns_of "$h")" env "${env[@]}" "$@"
}
net_up() {
    local i
    for i in 0 1 2 3; do ip netns add "${NS[$i]}" && ip -n "${NS[$i]}" link set lo up; done
    for i in 0 1 2; do
        ip link add "bs$i$$" netns "${NS[$i]}" type veth peer name "bt$i$$" netns "${NS[$((i + 1))]}"
        ip -n "${NS[$i]}" addr add "10.81.$i.1/24" dev "bs$i$$"
        ip -n "${NS[$((i + 1))]}" addr add "10.81.$i.2/24" dev "bt$i$$"
        ip -n "${NS[$i]}" link set "bs$i$$" up
        ip -n "${NS[$((i + 1))]}" link set "bt$i$$" up
    done
}
wait_for() { # SECONDS COMMAND...
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.05
    done
}
now() { echo "${EPOCHREALTIME/[.,]/}"; }

# stop_all: every program in the four hosts, gone when this returns
stop_all() {
    local n left
    for n in "${NS[@]}"; do ip netns pids "$n" 2>/dev/null | xargs -r kill; done
    for _ in $(seq 100); do
        left=0
        for n in "${NS[@]}"; do [ -z "$(ip netns pids "$n" 2>/dev/null)" ] || left=1; done
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    rm -f "$T"/*.sock
}

# one IMPL: a fresh line of four; prints "write one-hop three-hops" (s)
one() {
    local impl=$1 bin=$BIN i h
    [ "$impl" = ref ] && bin=$REF/bin
    rm -rf "$T/run"
    mkdir -p "$T/run"
    for h in "${HOSTS[@]}"; do
        on "$h" "$impl" "$bin/ccnd" >"$T/run/ccnd-$h.log" 2>&1 &
    done
    for h in "${HOSTS[@]}"; do
        wait_for 10 test -S "$T/$h.sock" || { echo "ccnd $h did not start" >&2; return 1; }
    done
    for i in 0 1 2; do
        on "${HOSTS[$i]}" "$impl" "$bin/ccndc" add / udp "10.81.$i.2" >/dev/null
        on "${HOSTS[$((i + 1))]}" "$impl" "$bin/ccndc" add / udp "10.81.$i.1" >/dev/null
    done
    for h in "${HOSTS[@]}"; do
        mkdir -p "$T/run/repo-$h"
        on "$h" "$impl" env CCNR_DIRECTORY="$T/run/repo-$h" "$bin/ccnr" >"$T/run/ccnr-$h.log" 2>&1 &
    done
    for h in "${HOSTS[@]}"; do
        on "$h" "$impl" "$bin/ccnsyncslice" create ccnx:/bs/topo ccnx:/bs/data >/dev/null 2>&1 ||
            { echo "ccnsyncslice on $h failed" >&2; return 1; }
    done
    for h in B D; do
        on "$h" ours "$BIN/ccnsyncwatch" -t ccnx:/bs/topo -p ccnx:/bs/data -w 300 >"$T/run/watch-$h" 2>&1 &
    done
    local t0 tw tb td
    t0=$(now)
    # the same writer for both (the reference's ccnseqwriter -r stalled
    # after a few thousand segments into its repository here)
    on A "$impl" timeout 120 "$BIN/ccnputfile" -b 1024 ccnx:/bs/data/f "$T/file" 2>/dev/null ||
        { echo "the write into A failed" >&2; stop_all; return 1; }
    tw=$(now)
    holds() { [ "$(grep -c '^ccnx:/bs/data/' "$T/run/watch-$1")" -ge "$NAMES" ]; }
    wait_for 120 holds B || { echo "B did not hold every name within 120 s" >&2; stop_all; return 1; }
    tb=$(now)
    wait_for 120 holds D || { echo "D did not hold every name within 120 s" >&2; stop_all; return 1; }
    td=$(now)
    stop_all
    wait 2>/dev/null
    awk -v a="$t0" -v w="$tw" -v b="$tb" -v d="$td" \
        'BEGIN { printf "%.2f %.2f %.2f\n", (w - a) / 1e6, (b - a) / 1e6, (d - a) / 1e6 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

net_up
echo "sync: $NAMES names of 1 KB, a line of 4 hosts, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    for impl in $IMPLS; do
        res=$(one "$impl") || { echo "round $r, $impl: failed"; continue; }
        echo "round $r, $impl: write, to B, to D (s): $res"
        echo "$res" >>"$T/$impl.times"
    done
done
echo
printf '%-10s %10s %10s %10s\n' "median (s)" write "to B" "to D"
for impl in $IMPLS; do
    [ -s "$T/$impl.times" ] || continue
    printf '%-10s %10s %10s %10s\n' "$impl" "$(cut -d' ' -f1 "$T/$impl.times" | median)" \
        "$(cut -d' ' -f2 "$T/$impl.times" | median)" "$(cut -d' ' -f3 "$T/$impl.times" | median)"
done
