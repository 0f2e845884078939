#!/bin/bash
# ccnchat's figures through one private ccnd, run by hand:
#
#   bench/ccnchat.sh [-m MEMBERS] [-r RATE] [-s SECONDS] [BIN]
#
# - Latency: bin/chat_latency, 200 messages from one member to another
#   (median, p90, p99).
# - A busy room: MEMBERS ccnchat processes in line mode (default 20), each
#   sending RATE messages a second (default 5) for SECONDS (default 30).
#   Prints how many of all the messages each member saw (every one is the
#   goal) and each chat's CPU time as a share of one core over the SECONDS
#   of sending (its CPU while joining and leaving counted in as well, so the
#   share is an upper bound; the members' keys are made beforehand).
# Programs in build/bin unless BIN is given.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
MEMBERS=20
RATE=5
SECS=30
while getopts "m:r:s:h" ch; do
    case $ch in
    m) MEMBERS=$OPTARG ;;
    r) RATE=$OPTARG ;;
    s) SECS=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccnchat chat_latency ccninitkeystore
T=$(mktemp -d /tmp/chat-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13600 + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$CCNX_DIR"
"$B/ccndstart" >/dev/null 2>&1 || { echo "ccndstart failed" >&2; exit 1; }
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"

echo "== latency, one member to another through ccnd"
"$B/chat_latency" -n 200

echo "== $MEMBERS members, $RATE messages a second each, for $SECS s"
total=$((SECS * RATE))
gap=$(awk "BEGIN { print 1 / $RATE }")
# Keys made beforehand: making an RSA key is not the chat's running cost.
for i in $(seq "$MEMBERS"); do
    mkdir -p "$T/m$i"
    CCNX_DIR="$T/m$i" "$B/ccninitkeystore" >/dev/null 2>&1 || exit 1
done
for i in $(seq "$MEMBERS"); do
    # Each member waits for the start signal, then types at its pace; bash's
    # `time` measures the chat process alone.
    (
        while [ ! -e "$T/go" ]; do sleep 0.05; done
        for k in $(seq "$total"); do
            echo "msg m$i $k"
            sleep "$gap"
        done
        while [ ! -e "$T/stop" ]; do sleep 0.1; done
    ) | (
        TIMEFORMAT="%U %S %R"
        { time CCNX_DIR="$T/m$i" USER="m$i" "$B/ccnchat" --line ccnx:/bench/room \
            >"$T/m$i.out" 2>"$T/m$i.err"; } 2>"$T/m$i.cpu"
    ) &
    PIDS+=($!)
done
for i in $(seq "$MEMBERS"); do
    until grep -q "m$i has entered" "$T/m$i.out" 2>/dev/null; do sleep 0.1; done
done
touch "$T/go"
want=$((MEMBERS * total))
deadline=$((SECONDS + SECS + 30))
for i in $(seq "$MEMBERS"); do
    while [ "$(grep -c '] msg m' "$T/m$i.out")" -lt "$want" ] && [ $SECONDS -lt $deadline ]; do
        sleep 0.5
    done
done
touch "$T/stop"
wait "${PIDS[@]}" 2>/dev/null
PIDS=()
min=$want
worst=0
for i in $(seq "$MEMBERS"); do
    seen=$(grep -c '] msg m' "$T/m$i.out")
    [ "$seen" -lt "$min" ] && min=$seen
    read -r u s r <"$T/m$i.cpu"
    pct=$(awk "BEGIN { printf \"%.2f\", 100 * ($u + $s) / $SECS }")
    echo "member $i: saw $seen of $want messages, CPU $u s user + $s s system = $pct% of a core" \
        "over the ${SECS} s (ran ${r} s)"
    worst=$(awk "BEGIN { print ($pct > $worst) ? $pct : $worst }")
done
echo "every member saw at least $min of $want messages; the busiest chat used $worst% of a core"
echo "median chat: $(for i in $(seq "$MEMBERS"); do read -r u s r <"$T/m$i.cpu"
    awk "BEGIN { printf \"%.2f\n\", 100 * ($u + $s) / $SECS }"; done | sort -n |
    awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')% of a core"
