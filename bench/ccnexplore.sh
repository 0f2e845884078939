#!/bin/bash
# ccnexplore's listing figures through one private ccnd, run by hand:
#
#   bench/ccnexplore.sh [-n CHILDREN] [-r RUNS] [BIN]
#
# A repository holds CHILDREN (default 10000) one-segment objects right
# below ccnx:/bench/explore (made by explore_bench make and stored with
# ccnr import). Each run of explore_bench list discovers the prefix's
# children as the screen does (name enumeration, the cache walk, the network
# walk) and prints the ms until 25 children are known (a first screenful)
# and until discovery has ended, and how many it found. Medians over RUNS
# (default 5); ccnd's cache holds the listing after the first run, as it
# would for a user who opens the prefix again.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
N=10000
RUNS=5
while getopts "n:r:h" ch; do
    case $ch in
    n) N=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccndstart ccndstop ccnr explore_bench
T=$(mktemp -d /tmp/explore-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13500 + $$ % 40))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCNR_DIRECTORY="$T/repo"
export CCNR_DEBUG=INFO
unset CCN_LOCAL_TRANSPORT CCND_LOG CCNR_GLOBAL_PREFIX
RPID=
cleanup() {
    [ -n "$RPID" ] && kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "ccnexplore.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }

mkdir -p "$CCNX_DIR" "$CCNR_DIRECTORY"
"$B/explore_bench" make "$T/load.ccnb" ccnx:/bench/explore "$N" || die "explore_bench make"
"$B/ccnr" import "$T/load.ccnb" >/dev/null 2>"$T/import.err" || die "ccnr import"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
"$B/ccnr" 2>"$T/ccnr.err" &
RPID=$!
for _ in $(seq 200); do
    grep -q "serving" "$T/ccnr.err" && break
    sleep 0.05
done
grep -q "serving" "$T/ccnr.err" || die "ccnr did not start"
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $N children in one repository"
printf "%-6s %18s %14s %10s\n" run "first 25 (ms)" "all (ms)" children
firsts=() alls=()
for i in $(seq "$RUNS"); do
    read -r first all found < <("$B/explore_bench" list ccnx:/bench/explore 25) || die "list"
    printf "%-6s %18s %14s %10s\n" "$i" "$first" "$all" "$found"
    firsts+=("$first")
    alls+=("$all")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "median: first screenful $(median "${firsts[@]}") ms, complete $(median "${alls[@]}") ms"
