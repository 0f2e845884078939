#!/bin/bash
# How the repository's ingest and serving rates change with the number of
# objects it holds, end to end through one private ccnd, run by hand:
#
#   bench/repo_scale.sh [-e MAX_EXPONENT] [-t SECONDS] [BIN]
#
# The store grows to 10^4, 10^5, ... 10^MAX_EXPONENT (default 7) objects
# of 100-byte payloads: at each size a file of the missing objects is
# stored by ccnputfile -b 100 (start-write; the rate is its segments over
# its time), then bench_fetch_rate asks for random segments of all the
# files stored so far, 64 Interests in flight, for SECONDS (default 5);
# its Interests keep ccnd's cache out, so every one is a read from ccnr's
# store. A 100-byte segment is a 1,093-byte object (its signature, Merkle
# witness and key), about 2 KB in the store: 10^7 objects take several
# minutes and about 20 GB of disk under /tmp (the store's capacity is set
# to 40G); the store is removed at the end.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
MAXE=7
SECS=5
while getopts "e:t:h" ch; do
    case $ch in
    e) MAXE=$OPTARG ;;
    t) SECS=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccndstart ccndstop ccnr ccnputfile bench_fetch_rate
T=$(mktemp -d /tmp/repo-scale-XXXXXX)
export CCN_LOCAL_PORT=$((13460 + $$ % 40))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCNR_DIRECTORY="$T/repo"
export CCNR_DEBUG=WARNING
export CCNR_MAX_BYTES=40G
unset CCN_LOCAL_TRANSPORT CCND_LOG CCNR_GLOBAL_PREFIX
RPID=
cleanup() {
    [ -n "$RPID" ] && kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "repo_scale.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }

mkdir -p "$CCNX_DIR" "$CCNR_DIRECTORY"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
"$B/ccnr" 2>"$T/ccnr.err" &
RPID=$!
sleep 1
kill -0 "$RPID" 2>/dev/null || die "ccnr did not start"
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-10s %16s %14s %20s %12s\n" objects "ingest objects/s" "ingest MB/s" "served Interests/s" "store MB"
HELD=0 STREAMS=()
for e in $(seq 4 "$MAXE"); do
    want=$((10 ** e))
    add=$((want - HELD))
    head -c $((add * 100)) /dev/urandom >"$T/file" || die "cannot make the file"
    timeout 3600 "$B/ccnputfile" -b 100 -v "ccnx:/scale/e$e" "$T/file" 2>"$T/put.err" ||
        die "ccnputfile of $add objects failed"
    line=$(grep 'in a repository' "$T/put.err") || die "ccnputfile did not store into ccnr"
    name=$(echo "$line" | sed -n 's/.*stored \(ccnx:[^ ]*\) in a repository.*/\1/p')
    secs=$(echo "$line" | sed -n 's/.* segments, \([0-9.]*\) s,.*/\1/p')
    rm -f "$T/file"
    HELD=$want
    STREAMS+=("$name:$add")
    rate=$("$B/bench_fetch_rate" -t "$SECS" "${STREAMS[@]}") || die "bench_fetch_rate failed"
    served=$(echo "$rate" | cut -d' ' -f1)
    mb=$(du -m "$CCNR_DIRECTORY/store/data.mdb" | cut -f1)
    awk -v n="$want" -v a="$add" -v s="$secs" -v r="$served" -v m="$mb" 'BEGIN {
        printf "10^%-7d %16.0f %14.1f %20s %12s\n", log(n) / log(10) + 0.5, a / s, a * 100 / s / 1e6, r, m }'
done
