#!/bin/bash
# The caching claim on an emulated network, run by hand as root:
#
#   bench/emu/origin_load.sh [-c CONSUMERS] [-m MEGABYTES] [-p PIPELINE] [BIN]
#
# One producer (the origin) and a tree of routers three levels deep: the
# core 5 ms from the origin, two routers 5 ms below it, six leaf routers
# 2 ms below those, every router link 100 Mbit/s. CONSUMERS (default 30)
# hosts spread over the leaf routers fetch the same MEGABYTES (default 20)
# file with ccngetfile (-p PIPELINE Interests in flight, default: its own),
# all at once and then staggered over 10 s, with no loss and with 2% loss on
# the consumers' links. For each run: the copies of the file that left the
# origin (bytes sent on its network faces over what the producer handed
# its ccnd, signatures included), the median consumer goodput and the
# slowest consumer's time. Goal: at most 1.1 copies. About ten minutes.
set -u
CONSUMERS=30
MB=20
PIPE=
while getopts "c:m:p:h" ch; do
    case $ch in
    c) CONSUMERS=$OPTARG ;;
    m) MB=$OPTARG ;;
    p) PIPE=$OPTARG ;;
    *)
        awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=$(cd "${1:-build/bin}" && pwd) || exit 1
[ "$(id -u)" = 0 ] || { echo "origin_load.sh: needs root (network namespaces)" >&2; exit 1; }
TOP=$(mktemp -d /tmp/origin-load-XXXXXX)
EMU_DIR=
cleanup() {
    [ -n "$EMU_DIR" ] && emu_down
    rm -rf "$TOP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# topology LOSS: the tree, consumers' links losing LOSS percent.
topology() {
    echo "node origin"
    echo "node core"
    echo "link origin core rate=100mbit delay=5"
    echo "route core ccnx:/emu origin"
    local m l c
    for m in 1 2; do
        echo "node mid$m"
        echo "link core mid$m rate=100mbit delay=5"
        echo "route mid$m ccnx:/emu core"
        for l in 1 2 3; do
            echo "node leaf$m$l"
            echo "link mid$m leaf$m$l rate=100mbit delay=2"
            echo "route leaf$m$l ccnx:/emu mid$m"
        done
    done
    for c in $(seq "$CONSUMERS"); do
        local leaf="leaf$(((c - 1) % 2 + 1))$(((c - 1) / 2 % 3 + 1))"
        echo "node c$c"
        if [ "$1" = 0 ]; then
            echo "link $leaf c$c rate=100mbit"
        else
            echo "link $leaf c$c rate=100mbit loss=$1"
        fi
        echo "route c$c ccnx:/emu $leaf"
    done
}

# run MODE LOSS: one experiment; prints its table row.
run() {
    EMU_DIR=$(mktemp -d "$TOP/run-XXXXXX")
    . "$(dirname "$0")/emu_lib.sh" || exit 1
    topology "$2" >"$EMU_DIR/tree.topo"
    emu_up "$EMU_DIR/tree.topo" || { echo "emu_up failed" >&2; exit 1; }
    head -c $((MB << 20)) /dev/urandom >"$EMU_DIR/file"
    emu_on origin "$B/ccnputfile" -x 900 ccnx:/emu/file "$EMU_DIR/file" >/dev/null \
        2>"$EMU_DIR/origin/put.err" &
    EMU_PIDS+=($!)
    sleep 0.5
    local c pids=()
    for c in $(seq "$CONSUMERS"); do
        if [ "$1" = staggered ]; then
            sleep "$(awk -v n="$CONSUMERS" 'BEGIN {printf "%.3f", 10 / n}')"
        fi
        emu_on "c$c" timeout 600 "$B/ccngetfile" ${PIPE:+-p "$PIPE"} ccnx:/emu/file \
            "$EMU_DIR/c$c/got" 2>"$EMU_DIR/c$c/get.err" &
        pids+=($!)
    done
    local failed=0
    for c in "${!pids[@]}"; do wait "${pids[$c]}" || failed=$((failed + 1)); done
    emu_stats
    local copy out
    copy=$(emu_face_bytes origin unix in)
    out=$(emu_face_bytes origin 'udp|tcp' out)
    local intact=0 goodput slowest
    for c in $(seq "$CONSUMERS"); do
        cmp -s "$EMU_DIR/file" "$EMU_DIR/c$c/got" && intact=$((intact + 1))
    done
    # "ccngetfile: N bytes in T s (R MB/s) to FILE"
    goodput=$(sed -n 's/.* (\([0-9.]*\) MB\/s).*/\1/p' "$EMU_DIR"/c*/get.err | sort -n |
        awk '{v[NR] = $1} END {print (NR ? v[int((NR + 1) / 2)] : "-")}')
    slowest=$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' "$EMU_DIR"/c*/get.err | sort -n | tail -n 1)
    printf "%-10s %5s%% %7s %8s %6s %14s %11s\n" "$1" "$2" \
        "$(awk -v o="$out" -v c="$copy" 'BEGIN {printf "%.3f", (c > 0 ? o / c : 0)}')" \
        "$intact/$CONSUMERS" "$failed" "${goodput:--}" "${slowest:--}"
    emu_down
    EMU_DIR=
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $CONSUMERS consumers, $MB MB," \
    "pipeline ${PIPE:-default}"
printf "%-10s %6s %7s %8s %6s %14s %11s\n" start loss copies intact failed "median MB/s" "slowest s"
for loss in 0 2; do
    run "at-once" "$loss"
    run staggered "$loss"
done
