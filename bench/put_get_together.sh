#!/bin/bash
# A reader and its publisher started together, run by hand:
#
#   bench/put_get_together.sh [-n ROUNDS] [BIN [BIN2]]
#
# Each round starts ccngetfile and ccnputfile (no -r: it asks for a
# repository, none runs, and it serves the file itself) at the same moment
# for a new 100 KB file, and measures the time until ccngetfile exits with
# the whole file; then, with the publisher still serving, a second
# ccngetfile -v gives the version discovery's time with one producer up.
# With BIN2 (another build's bin folder) both builds run, alternated in each
# round, each against a ccnd of its own build. Prints every figure and the
# medians. Defaults: 9 rounds, programs in build/bin.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=9
while getopts "n:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
BINS=("${1:-build/bin}")
[ $# -ge 2 ] && BINS+=("$2")
for b in "${BINS[@]}"; do bench_need "$b" ccnd ccndstart ccndstop ccnputfile ccngetfile; done
T=$(mktemp -d /tmp/put-get-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13460 + $$ % 20))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT
PUB=
B=${BINS[0]}
cleanup() {
    [ -n "$PUB" ] && kill "$PUB" 2>/dev/null && wait "$PUB" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "put_get_together.sh: $*" >&2; tail -n 3 "$T"/*.err >&2 2>/dev/null; exit 1; }
ms_now() { date +%s%3N; }

# round BIN NAME: prints "<together ms> <discovery ms>".
round() {
    local bin=$1 uri=ccnx:/bench/together/$2 start end found
    head -c 100000 /dev/urandom >"$T/file"
    start=$(ms_now)
    timeout 60 "$bin/ccngetfile" "$uri" "$T/out" 2>"$T/get.err" &
    local get=$!
    "$bin/ccnputfile" -x 60 "$uri" "$T/file" 2>"$T/put.err" &
    PUB=$!
    wait "$get" || die "ccngetfile $uri failed"
    end=$(ms_now)
    cmp -s "$T/file" "$T/out" || die "ccngetfile $uri: the file differs"
    timeout 60 "$bin/ccngetfile" -v "$uri" "$T/out" 2>"$T/get.err" || die "second ccngetfile failed"
    found=$(sed -n 's/.*version found in \([0-9]*\) ms.*/\1/p' "$T/get.err")
    kill "$PUB" && wait "$PUB" 2>/dev/null
    PUB=
    echo "$((end - start)) ${found:-?}"
}

mkdir -p "$CCNX_DIR"
declare -A TOG DISC
echo "$ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    line="round $r:"
    for i in "${!BINS[@]}"; do
        B=${BINS[$i]}
        "$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart ($B) failed"
        read -r tog disc < <(round "$B" "r$r-b$i")
        "$B/ccndstop" >/dev/null 2>&1
        TOG[$i]+=" $tog"
        DISC[$i]+=" $disc"
        line+="  [$B] together $tog ms, discovery $disc ms"
    done
    echo "$line"
done
printf '\n%-40s %14s %14s\n' "median of $ROUNDS" "together (ms)" "discovery (ms)"
for i in "${!BINS[@]}"; do
    printf '%-40s %14s %14s\n' "${BINS[$i]}" "$(echo "${TOG[$i]}" | median)" "$(echo "${DISC[$i]}" | median)"
done
