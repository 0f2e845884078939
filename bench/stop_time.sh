#!/bin/bash
# How long ccnd and ccnr take to stop, run by hand:
#
#   bench/stop_time.sh [-f FACES] [-n ROUNDS] [BIN]
#
# Each round starts a private ccnd, opens FACES (default 1500) TCP
# connections to it, and times ccndstop (SIGTERM, then until the socket is
# gone); then starts ccnr against a fresh ccnd and times its SIGTERM until
# the process is reaped. Prints each figure and the medians. Timing with
# `kill -0` instead would count the time a stopped process waits as a
# zombie for its parent (seconds, on some machines), not ccnd's.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
FACES=1500
ROUNDS=5
while getopts "f:n:h" ch; do
    case $ch in
    f) FACES=$OPTARG ;;
    n) ROUNDS=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccndstatus ccnr
T=$(mktemp -d /tmp/stoptime-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13500 + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user" CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log" CCNR_DIRECTORY="$T/repo"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN
trap '"$B/ccndstop" >/dev/null 2>&1; rm -rf "$T"' EXIT
mkdir -p "$CCNX_DIR" "$CCNR_DIRECTORY"
ulimit -n $((FACES + 100)) || exit 1
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $FACES faces"
: >"$T/ccnd.ms"
: >"$T/ccnr.ms"
for r in $(seq "$ROUNDS"); do
    "$B/ccndstart" >/dev/null 2>&1 || { echo "ccndstart failed" >&2; exit 1; }
    fds=()
    for _ in $(seq "$FACES"); do
        exec {fd}<>"/dev/tcp/127.0.0.1/$CCN_LOCAL_PORT" || { echo "connection refused" >&2; exit 1; }
        fds+=("$fd")
    done
    until [ "$("$B/ccndstatus" -j | grep -c '"kind":"tcp"')" -ge "$FACES" ]; do sleep 0.05; done
    t=$(date +%s%N)
    "$B/ccndstop" >/dev/null 2>&1
    ccnd_ms=$(ms_since "$t")
    for fd in "${fds[@]}"; do exec {fd}>&-; done
    "$B/ccndstart" >/dev/null 2>&1 || exit 1
    "$B/ccnr" >"$T/ccnr.log" 2>&1 &
    pid=$!
    until "$B/ccndstatus" -j | grep -q '"prefix":"ccnx:/","strategy"'; do sleep 0.05; done
    t=$(date +%s%N)
    kill -TERM "$pid"
    wait "$pid"
    ccnr_ms=$(ms_since "$t")
    "$B/ccndstop" >/dev/null 2>&1
    echo "round $r: ccndstop with $FACES faces $ccnd_ms ms, ccnr $ccnr_ms ms"
    echo "$ccnd_ms" >>"$T/ccnd.ms"
    echo "$ccnr_ms" >>"$T/ccnr.ms"
done
echo "median: ccndstop $(median <"$T/ccnd.ms") ms, ccnr $(median <"$T/ccnr.ms") ms"
