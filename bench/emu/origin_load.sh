#!/bin/bash
# The caching claim on an emulated network, run by hand as root:
#
#   bench/emu/origin_load.sh [-c CONSUMERS] [-m MEGABYTES] [-p PIPELINE]
#                            [-s STARTS] [-l LOSSES] [BIN]
#
# One producer (the origin) and a tree of routers three levels deep: the
# core 5 ms from the origin, two routers 5 ms below it, six leaf routers
# 2 ms below those, every router link 100 Mbit/s. CONSUMERS (default 30)
# hosts spread over the leaf routers fetch the same MEGABYTES (default 20)
# file with ccngetfile (-p PIPELINE Interests in flight, default: its own),
# all at once and then staggered over 10 s, with no loss and with 2% loss on
# the consumers' links (-s "at-once staggered" and -l "0 2" choose among
# them). For each run: the copies of the file that left the origin
# (emu_copies: objects sent on its network faces over the distinct objects
# its ccnd stored), the consumers' retransmissions per segment, the median
# consumer goodput and the slowest consumer's time. Goal: at most 1.1
# copies. About six minutes.
set -u
CONSUMERS=30
MB=20
PIPE=
STARTS="at-once staggered"
LOSSES="0 2"
while getopts "c:m:p:s:l:h" ch; do
    case $ch in
    c) CONSUMERS=$OPTARG ;;
    m) MB=$OPTARG ;;
    p) PIPE=$OPTARG ;;
    s) STARTS=$OPTARG ;;
    l) LOSSES=$OPTARG ;;
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

# run MODE LOSS: one experiment; prints its table row.
run() {
    EMU_DIR=$(mktemp -d "$TOP/run-XXXXXX")
    . "$(dirname "$0")/emu_lib.sh" && . "$(dirname "$0")/tree.sh" || exit 1
    emu_tree "$CONSUMERS" "$2" ccnx:/emu >"$EMU_DIR/tree.topo"
    emu_up "$EMU_DIR/tree.topo" || { echo "emu_up failed" >&2; exit 1; }
    head -c $((MB << 20)) /dev/urandom >"$EMU_DIR/file"
    emu_on origin "$B/ccnputfile" -x 900 ccnx:/emu/file "$EMU_DIR/file" >/dev/null \
        2>"$EMU_DIR/origin/put.err" &
    EMU_PIDS+=($!)
    emu_wait_content origin ccnx:/emu/file || exit 1
    local c pids=()
    for c in $(seq "$CONSUMERS"); do
        if [ "$1" = staggered ]; then
            sleep "$(awk -v n="$CONSUMERS" 'BEGIN {printf "%.3f", 10 / n}')"
        fi
        emu_on "c$c" timeout 600 "$B/ccngetfile" -v ${PIPE:+-p "$PIPE"} ccnx:/emu/file \
            "$EMU_DIR/c$c/got" 2>"$EMU_DIR/c$c/get.err" &
        pids+=($!)
    done
    local failed=0
    for c in "${!pids[@]}"; do
        wait "${pids[$c]}" && continue
        failed=$((failed + 1))
        echo "c$((c + 1)): $(tail -n 1 "$EMU_DIR/c$((c + 1))/get.err")" >&2
    done
    emu_stats
    local intact=0 goodput slowest
    for c in $(seq "$CONSUMERS"); do
        cmp -s "$EMU_DIR/file" "$EMU_DIR/c$c/got" && intact=$((intact + 1))
    done
    # "ccngetfile: N bytes in T s (R MB/s) to FILE"
    goodput=$(sed -n 's/.* (\([0-9.]*\) MB\/s).*/\1/p' "$EMU_DIR"/c*/get.err | emu_median)
    # "ccngetfile: URI: N segments, N Interests, N retransmissions, ..."
    retx=$(sed -n 's/.* \([0-9]*\) segments, [0-9]* Interests, \([0-9]*\) retrans.*/\1 \2/p' \
        "$EMU_DIR"/c*/get.err | awk '{s += $1; r += $2} END {printf "%.3f", s ? r / s : 0}')
    slowest=$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' "$EMU_DIR"/c*/get.err | sort -n | tail -n 1)
    printf "%-10s %5s%% %7s %6s %8s %6s %14s %11s\n" "$1" "$2" \
        "$(emu_copies)" "$retx" \
        "$intact/$CONSUMERS" "$failed" "${goodput:--}" "${slowest:--}"
    emu_down
    EMU_DIR=
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $CONSUMERS consumers, $MB MB," \
    "pipeline ${PIPE:-default}"
printf "%-10s %6s %7s %6s %8s %6s %14s %11s\n" start loss copies retx intact failed "median MB/s" "slowest s"
for loss in $LOSSES; do
    for start in $STARTS; do
        run "$start" "$loss"
    done
done
