#!/bin/bash
# The first fetch of a file while its publisher is still at work, by size,
# run by hand:
#
#   bench/first_fetch.sh [-n ROUNDS] [-s "MB MB ..."] [BIN]
#
# As a user does it: `ccnputfile URI FILE` (it asks for a repository, none
# runs, so it serves the file itself), and as soon as the publisher answers
# (a ccnpeek under URI gets an object) `ccngetfile URI OUT`, timed from its
# start to its exit with the whole file, verified. The publisher is still
# reading and signing the file meanwhile: the figure is the rate of a
# consumer that does not wait for it. Each round takes every size once, a
# new file name each time. Prints every figure and a table of medians (MB/s
# of content; the larger sizes also as a fraction of the smallest's rate).
# Defaults: 3 rounds of 10, 100 and 500 MB, programs in build/bin.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
SIZES="10 100 500"
while getopts "n:s:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    s) SIZES=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccnputfile ccngetfile ccnpeek
T=$(mktemp -d /tmp/first-fetch-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13480 + $$ % 20))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
export CCND_CAP=2000000 # the largest file stays in the cache whole
unset CCN_LOCAL_TRANSPORT
PUB=
# stop_pub: ends the publisher; one that does not stop on SIGTERM within
# 5 s (older builds, inside their start-write) is killed.
stop_pub() {
    [ -n "$PUB" ] || return 0
    kill "$PUB" 2>/dev/null
    for _ in $(seq 50); do
        kill -0 "$PUB" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$PUB" 2>/dev/null
    wait "$PUB" 2>/dev/null
    PUB=
}
cleanup() {
    stop_pub
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "first_fetch.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }
us_now() { echo "${EPOCHREALTIME/[.,]/}"; }

# first_fetch URI MB: prints the consumer's MB/s.
first_fetch() {
    "$B/ccnputfile" "$1" "$T/file$2" 2>"$T/put.err" &
    PUB=$!
    "$B/ccnpeek" -w 60 "$1" >/dev/null 2>"$T/peek.err" || die "no answer under $1"
    local t0 t1
    t0=$(us_now)
    timeout 600 "$B/ccngetfile" "$1" "$T/out" 2>"$T/get.err" || die "ccngetfile $1 failed"
    t1=$(us_now)
    cmp -s "$T/file$2" "$T/out" || die "ccngetfile $1: the file differs"
    rm -f "$T/out"
    stop_pub
    awk -v b="$(stat -c %s "$T/file$2")" -v us=$((t1 - t0)) 'BEGIN { printf "%.1f", b / us }'
}

mkdir -p "$CCNX_DIR"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
for mb in $SIZES; do
    head -c $((mb * 1000000)) /dev/urandom >"$T/file$mb" || die "cannot make the $mb MB file"
done
declare -A R
echo "sizes $SIZES MB, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    line="round $r:"
    for mb in $SIZES; do
        v=$(first_fetch "ccnx:/bench/first/r$r/m$mb" "$mb")
        R[$mb]+=" $v"
        line+=" ${mb}MB $v"
    done
    echo "$line MB/s"
done

set -- $SIZES
base=$(echo "${R[$1]}" | median)
printf '\n%-40s %10s %10s\n' "median of $ROUNDS" "MB/s" "/ ${1} MB"
for mb in $SIZES; do
    m=$(echo "${R[$mb]}" | median)
    printf '%-40s %10.1f %10.2f\n' "first fetch, $mb MB, publisher at work" "$m" \
        "$(awk -v a="$m" -v c="$base" 'BEGIN { print a / c }')"
done
