#!/bin/bash
# Forwarder figures of two ccnd builds side by side, run by hand:
#
#   bench/forwarder.sh [-n ROUNDS] [-B BENCH] CCND_A [CCND_B]
#
# Each round starts each ccnd in turn on a private socket (a keystore made
# once, so key generation is not timed) and drives it with ccnd-bench:
# content-store hits (100 B and 4 KB objects, 4 clients x 16), full
# exchanges (100 B), a 256 MB transfer in 4 KB segments (window 32) and in
# 32 KB segments (window 16), then the raw relay ceiling. Prints every
# figure and a table of medians. Defaults: 3 rounds, ccnd-bench from
# build/bin.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
BENCH=build/bin/ccnd-bench
while getopts "n:B:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    B) BENCH=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "forwarder.sh: give one or two ccnd programs (-h for help)" >&2; exit 2; }
for p in "$@" "$BENCH"; do
    [ -x "$p" ] || { echo "forwarder.sh: $p is not an executable (build first)" >&2; exit 1; }
done
T=$(mktemp -d /tmp/forwarder-bench-XXXXXX)
PORT=$((13450 + $$ % 40))
PID=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

start() { # CCND
    rm -f "$T/s.$PORT"
    CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/s" CCND_KEYSTORE_DIRECTORY="$T" CCND_DEBUG=0 \
        "$1" 2>>"$T/ccnd.log" &
    PID=$!
    for _ in $(seq 100); do
        [ -S "$T/s.$PORT" ] && return 0
        sleep 0.05
    done
    echo "forwarder.sh: $1 did not open $T/s.$PORT" >&2
    exit 1
}
stop() { kill "$PID" && wait "$PID" 2>/dev/null; PID=; }
# figure LABEL ARGS...: one ccnd-bench run on a fresh ccnd; prints objects/s and MB/s.
figure() {
    start "$CCND"
    "$BENCH" -s "$T/s.$PORT" "${@:2}" | sed -n 's/.*: \([0-9]*\) objects\/s, \([0-9.]*\) MB\/s.*/\1 \2/p'
    stop
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Key generation happens once, before anything is timed.
CCND=$1 start "$1" && stop
LABELS=(cs100 cs4k exchange tr4k tr32k)
declare -A RES
for r in $(seq "$ROUNDS"); do
    i=0
    for CCND in "$@"; do
        line="round $r ${CCND}:"
        v=$(figure x -c 4 -w 16 -t 3 -N 10000 -b 100 cs) && RES[$i.cs100]+="${v%% *} " && line+=" cs100 ${v%% *}/s"
        v=$(figure x -c 4 -w 16 -t 3 -N 10000 -b 4096 cs) && RES[$i.cs4k]+="${v%% *} " && line+=" cs4k ${v%% *}/s"
        v=$(figure x -c 4 -w 16 -t 3 -N 600000 -b 100 exchange) && RES[$i.exchange]+="${v%% *} " && line+=" exchange ${v%% *}/s"
        v=$(figure x -w 32 -t 60 -N 65536 -b 4096 transfer) && RES[$i.tr4k]+="${v##* } " && line+=" tr4k ${v##* } MB/s"
        v=$(figure x -w 16 -t 60 -N 8192 -b 32768 transfer) && RES[$i.tr32k]+="${v##* } " && line+=" tr32k ${v##* } MB/s"
        echo "$line"
        i=$((i + 1))
    done
    v=$("$BENCH" -t 3 relay | sed -n 's/.*relay: \([0-9.]*\) MB\/s.*/\1/p')
    RES[relay]+="$v "
    echo "round $r relay: $v MB/s"
done

echo
printf "median of %s rounds%27s" "$ROUNDS" ""
for i in $(seq 0 $(($# - 1))); do printf "%14s" "ccnd $((i + 1))"; done
echo
names=("content-store hits, 100 B (/s)" "content-store hits, 4 KB (/s)" "exchanges, 100 B (/s)"
    "transfer, 4 KB segments (MB/s)" "transfer, 32 KB segments (MB/s)")
for k in "${!LABELS[@]}"; do
    printf "%-46s" "${names[$k]}"
    for i in $(seq 0 $(($# - 1))); do
        printf "%14s" "$(echo ${RES[$i.${LABELS[$k]}]} | tr ' ' '\n' | grep . | median)"
    done
    echo
done
printf "%-46s%14s\n" "raw unix-socket relay (MB/s)" "$(echo ${RES[relay]} | tr ' ' '\n' | grep . | median)"
