#!/bin/bash
# File transfer speed through one private ccnd on this machine, run by hand:
#
#   bench/file_transfer.sh [-n ROUNDS] [-m MEGABYTES] [BIN]
#
# Each round measures, side by side: the first fetch of a file published by
# ccnputfile (serving, its signing finished) and fetched by ccngetfile with
# verification on, with 4 KB and 8 KB segments; a refetch of each from
# ccnd's cache once the publisher is gone; and the ceiling, raw bytes copied
# through a relay process over the same socket type (ccnd-bench relay).
# Prints every figure and a table of medians (MB/s of content, ratio to
# the ceiling). Defaults: 3 rounds of a 256 MB file, programs in build/bin.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
MB=256
while getopts "n:m:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    m) MB=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccnputfile ccngetfile ccnd-bench
T=$(mktemp -d /tmp/filetransfer-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13400 + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
# Every object of every round stays in the cache (ccndstart's default is
# 50000 objects, fewer than one 256 MB file in 4 KB segments).
export CCND_CAP=2000000
unset CCN_LOCAL_TRANSPORT
PUB=
cleanup() {
    [ -n "$PUB" ] && kill "$PUB" 2>/dev/null && wait "$PUB" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "file_transfer.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }

# CPU time (ticks) of a process: it stops growing once ccnputfile has signed
# everything and only answers Interests.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
publish() { # URI BLOCKSIZE
    "$B/ccnputfile" -r -x 600 -v -b "$2" "$1" "$T/file" 2>"$T/put.err" &
    PUB=$!
    local last=-1 now
    for _ in $(seq 600); do
        sleep 0.2
        now=$(cpu_ticks "$PUB") || die "ccnputfile exited"
        grep -q publishing "$T/put.err" && [ "$now" = "$last" ] && return 0
        last=$now
    done
    die "ccnputfile is still busy after 120 s"
}
unpublish() { kill "$PUB" && wait "$PUB" 2>/dev/null; PUB=; }
# fetch URI: prints the goodput ccngetfile reports (MB/s).
fetch() {
    timeout 300 "$B/ccngetfile" "$1" "$T/out" 2>"$T/get.err" || die "ccngetfile $1 failed"
    cmp -s "$T/file" "$T/out" || die "ccngetfile $1: the file differs"
    rm -f "$T/out"
    sed -n 's/.* s (\([0-9.]*\) MB\/s) to .*/\1/p' "$T/get.err"
}
relay() {
    "$B/ccnd-bench" -t 3 relay | sed -n 's/.*relay: \([0-9.]*\) MB\/s.*/\1/p'
}

mkdir -p "$CCNX_DIR"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
head -c $((MB << 20)) /dev/urandom >"$T/file" || die "cannot make the $MB MB file"
declare -A R
KINDS="first4 first8 cache4 cache8 relay"
echo "$MB MB, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    line="round $r:"
    for b in 4 8; do
        uri=ccnx:/bench/file/r$r/b$b
        publish "$uri" $((b * 1024))
        v=$(fetch "$uri")
        R[first$b]+=" $v"
        line+=" first${b}K $v"
        unpublish
        v=$(fetch "$uri")
        R[cache$b]+=" $v"
        line+=" cache${b}K $v"
    done
    v=$(relay)
    R[relay]+=" $v"
    echo "$line relay $v MB/s"
done

ceiling=$(echo "${R[relay]}" | median)
printf '\n%-34s %10s %10s\n' "median of $ROUNDS" "MB/s" "/ ceiling"
for k in $KINDS; do
    case $k in
    first4) what="first fetch, 4 KB segments" ;;
    first8) what="first fetch, 8 KB segments" ;;
    cache4) what="refetch from the cache, 4 KB" ;;
    cache8) what="refetch from the cache, 8 KB" ;;
    relay) what="raw unix-socket relay (ceiling)" ;;
    esac
    m=$(echo "${R[$k]}" | median)
    printf '%-34s %10.1f %9.0f%%\n' "$what" "$m" "$(awk -v a="$m" -v c="$ceiling" 'BEGIN { print 100 * a / c }')"
done
