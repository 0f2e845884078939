#!/bin/bash
# Repository speed end to end, through one private ccnd and one ccnr on
# this machine, run by hand:
#
#   bench/repo_transfer.sh [-n ROUNDS] [-m MEGABYTES] [BIN]
#
# Each round: ingest, a random file stored into ccnr by ccnputfile
# (start-write; ccnr fetches, verifies and commits every 4 KB segment; the
# rate is ccnputfile's "stored ... MB/s" line); serve, the file fetched by
# ccngetfile (verification on) once ccnd was restarted, so every segment
# comes from ccnr's store; and the same fetch again, now from ccnd's
# content store, which the serve figure is compared with. Prints every
# figure and the medians, and for both fetches the CPU time each process
# spent per segment (ccngetfile, ccnd, ccnr; from /proc and the shell's
# times), which this noisy machine disturbs far less than the rates.
# Defaults: 3 rounds of 256 MB, programs in build/bin. The store lives in a
# temporary folder under /tmp.
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
bench_need "$B" ccnd ccndstart ccndstop ccnr ccnputfile ccngetfile ccnpeek
T=$(mktemp -d /tmp/repo-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13500 + $$ % 40))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_CAP=2000000 # the refetch finds the whole file in ccnd's store
export CCNR_DIRECTORY="$T/repo"
export CCNR_DEBUG=INFO
unset CCN_LOCAL_TRANSPORT CCND_LOG
RPID=
cleanup() {
    [ -n "$RPID" ] && kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "repo_transfer.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }

start_ccnd() {
    "$B/ccndstart" -v >"$T/ccndstart.out" 2>"$T/ccndstart.err" || die "ccndstart failed"
    CPID=$(sed -n 's/^started ccnd (pid \([0-9]*\)).*/\1/p' "$T/ccndstart.out")
    [ -n "$CPID" ] || die "ccndstart did not say which ccnd it started"
}
# cpu_ticks PID: user + system time of a running process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
start_ccnr() {
    local before
    before=$(grep -c serving "$T/ccnr.err" 2>/dev/null)
    "$B/ccnr" 2>>"$T/ccnr.err" &
    RPID=$!
    for _ in $(seq 200); do
        [ "$(grep -c serving "$T/ccnr.err")" -gt "${before:-0}" ] && return 0
        sleep 0.05
    done
    die "ccnr did not start"
}
# fetch URI: ccngetfile's goodput (MB/s) in RATE, and in CPU the
# microseconds of CPU per segment of ccngetfile, ccnd and ccnr.
fetch() {
    local d0 r0 d1 r1 t
    d0=$(cpu_ticks "$CPID") r0=$(cpu_ticks "$RPID")
    t=$( { TIMEFORMAT='%U %S'; time timeout 300 "$B/ccngetfile" -u "$1" "$T/out" 2>"$T/get.err"; } 2>&1) ||
        die "ccngetfile $1 failed"
    d1=$(cpu_ticks "$CPID") r1=$(cpu_ticks "$RPID")
    cmp -s "$T/file" "$T/out" || die "ccngetfile $1: the file differs"
    rm -f "$T/out"
    RATE=$(sed -n 's/.* s (\([0-9.]*\) MB\/s) to .*/\1/p' "$T/get.err")
    CPU=$(echo "$t" | awk -v d=$((d1 - d0)) -v r=$((r1 - r0)) -v hz="$(getconf CLK_TCK)" \
        -v n="$SEGMENTS" '{ printf "%.1f %.1f %.1f", ($1 + $2) * 1e6 / n, d * 1e6 / hz / n, r * 1e6 / hz / n }')
}

mkdir -p "$CCNX_DIR" "$CCNR_DIRECTORY"
: >"$T/ccnr.err"
head -c $((MB << 20)) /dev/urandom >"$T/file" || die "cannot make the test file"
SEGMENTS=$((MB * 256)) # 4 KB segments
start_ccnd
start_ccnr
echo "$MB MB, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
INGEST="" SERVE="" CACHE="" SERVE_CPU="" CACHE_CPU=""
for r in $(seq "$ROUNDS"); do
    timeout 600 "$B/ccnputfile" -v "ccnx:/bench/repo/r$r" "$T/file" 2>"$T/put.err" ||
        die "ccnputfile failed"
    line=$(grep 'in a repository' "$T/put.err") || die "ccnputfile did not store into ccnr"
    name=$(echo "$line" | sed -n 's/.*stored \(ccnx:[^ ]*\) in a repository.*/\1/p')
    ingest=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) MB\/s.*/\1/p')
    # ccnputfile reports once ccnr answered for the final segment, that is
    # once it committed the write; its own log line may come a little later.
    for _ in $(seq 600); do grep -q "stored $name:" "$T/ccnr.err" && break; sleep 0.05; done
    "$B/ccndstop" >/dev/null 2>&1
    start_ccnd
    # ccnr registers again within a few seconds of ccnd's return.
    for _ in $(seq 100); do timeout 5 "$B/ccnpeek" -w 0.5 "$name/%00" >/dev/null 2>&1 && break; done
    fetch "$name"
    serve=$RATE serve_cpu=$CPU
    fetch "$name"
    cache=$RATE cache_cpu=$CPU
    echo "round $r: ingest $ingest serve $serve cache $cache MB/s;" \
        "CPU us/segment (ccngetfile ccnd ccnr): serve $serve_cpu, cache $cache_cpu"
    INGEST+="$ingest " SERVE+="$serve " CACHE+="$cache "
    SERVE_CPU+="$serve_cpu
" CACHE_CPU+="$cache_cpu
"
done
mi=$(echo "$INGEST" | median) ms=$(echo "$SERVE" | median) mc=$(echo "$CACHE" | median)
echo
printf "%-44s %10s\n" "median of $ROUNDS" "MB/s"
printf "%-44s %10s\n" "ingest into ccnr (start-write, 4 KB)" "$mi"
printf "%-44s %10s\n" "served by ccnr (ccnd's cache empty)" "$ms"
printf "%-44s %10s\n" "served by ccnd's content store" "$mc"
awk -v s="$ms" -v c="$mc" 'BEGIN { printf "%-44s %9.0f%%\n", "ccnr / content store", 100 * s / c }'
# col N LIST: the median of column N of the lines in LIST.
col() { echo "$2" | awk -v c="$1" 'NF { print $c }' | median; }
echo
printf "%-44s %10s %10s %10s\n" "CPU per segment, median (us)" ccngetfile ccnd ccnr
printf "%-44s %10s %10s %10s\n" "served by ccnr" "$(col 1 "$SERVE_CPU")" "$(col 2 "$SERVE_CPU")" \
    "$(col 3 "$SERVE_CPU")"
printf "%-44s %10s %10s %10s\n" "served by ccnd's content store" "$(col 1 "$CACHE_CPU")" \
    "$(col 2 "$CACHE_CPU")" "$(col 3 "$CACHE_CPU")"
