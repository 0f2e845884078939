#!/bin/bash
# Our consumer against the reference's, on the same producers, run by hand:
#
#   bench/interop.sh [-n ROUNDS] [-k KB] [-p PRODUCERS] [-f NODES] [BIN]
#
# For each producer (our ccnputfile -r, our ccnseqwriter, the reference's
# ccnseqwriter) on each forwarder (ours, the reference's), each round
# publishes a new random file of KB kilobytes twice, once for each
# consumer (our ccncat, the reference's ccncat), and times the consumer
# from its start to its exit with the whole file (compared). The two
# consumers go first in turn from round to round. Prints every time and
# the medians with our consumer's time over the reference's. Needs the
# reference (CCNX_REF, default ../shared/ccnx-0.8.2). Defaults: 5 rounds,
# 3000 KB, programs in build/bin. -p takes a subset of "putfile seqwriter
# refseq" (our ccnputfile -r, our ccnseqwriter, the reference's), -f of
# "A B" (our ccnd, the reference's). CCNCAT_ARGS: options for our ccncat.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=5
KB=3000
PRODUCERS="putfile seqwriter refseq"
NODES="A B"
while getopts "n:k:p:f:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    k) KB=$OPTARG ;;
    p) PRODUCERS=$OPTARG ;;
    f) NODES=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
CCNX_BIN=$(cd "${1:-build/bin}" && pwd) || exit 1
bench_need "$CCNX_BIN" ccnd ccncat ccnputfile ccnseqwriter ccnpeek
export CCNX_BIN CCNX_SRC=${CCNX_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
INTEROP_TAG=bench-interop
INTEROP_PORT_BASE=18700
. "$CCNX_SRC/tests/interop/interop_lib.sh"

start_ccnd A ours
start_ccnd B ref
head -c $((KB * 1024)) /dev/urandom >"$T/file"
echo "interop consumers: $ROUNDS rounds of $KB KB, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# publish PRODUCER NODE URI: starts the producer; returns once URI answers
publish() {
    local port
    eval "port=\$PORT_$2"
    local env=(env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$2.sock")
    case $1 in
    putfile) bg pub "${env[@]}" CCNX_DIR="$T/our-user" "$B/ccnputfile" -r -x 120 "$3" "$T/file" ;;
    seqwriter) bg_in pub "$T/file" "${env[@]}" CCNX_DIR="$T/our-user" "$B/ccnseqwriter" "$3" ;;
    refseq) bg_in pub "$T/file" "${env[@]}" CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" "$3" ;;
    esac
    PUB=$BG_PID
    # ccnputfile signs the whole file before it answers; the others answer at once
    wait_for 60 eval "on $2 ours ccnpeek -w 1 '$3' >/dev/null 2>&1" || fail "$1 on $2 did not publish"
}

# timed WHO NODE URI: seconds WHO's ccncat took for the whole file
timed() {
    local t0 t1
    t0=$(date +%s.%N)
    local args=()
    [ "$1" = ours ] && args=(${CCNCAT_ARGS:-})
    on "$2" "$1" ccncat "${args[@]}" "$3" >"$T/out" 2>"$T/cat.err" || fail "$1 ccncat on $2: $(tail -n 2 "$T/cat.err")"
    t1=$(date +%s.%N)
    cmp -s "$T/out" "$T/file" || fail "$1 ccncat on $2: the file differs"
    echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}'
}

declare -A TIMES
n=0
for r in $(seq "$ROUNDS"); do
    [ $((r % 2)) = 1 ] && order="ours ref" || order="ref ours"
    for prod in $PRODUCERS; do
        for node in $NODES; do
            line="round $r: $prod on $node:"
            for who in $order; do
                n=$((n + 1))
                publish "$prod" "$node" "ccnx:/bi/$prod/$node/$n"
                t=$(timed "$who" "$node" "ccnx:/bi/$prod/$node/$n")
                stop_bg "$PUB"
                TIMES[$prod.$node.$who]+="$t "
                line+=" $who $t s"
            done
            echo "$line"
        done
    done
done

echo
printf '%-32s %10s %10s %8s\n' "median of $ROUNDS (s)" "our ccncat" "its ccncat" "ours/its"
for prod in $PRODUCERS; do
    for node in $NODES; do
        o=$(echo "${TIMES[$prod.$node.ours]}" | median)
        f=$(echo "${TIMES[$prod.$node.ref]}" | median)
        [ "$node" = A ] && via="our ccnd" || via="its ccnd"
        case $prod in putfile) p="our ccnputfile -r" ;; seqwriter) p="our ccnseqwriter" ;; refseq) p="its ccnseqwriter" ;; esac
        printf '%-32s %10s %10s %8s\n' "$p, $via" "$o" "$f" "$(echo "$o $f" | awk '{printf "%.2f", $1 / $2}')"
    done
done
