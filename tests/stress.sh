#!/bin/bash
# Runs a test target several times in a row while busy loops keep every
# core loaded, and stops at the first failure with its log kept. This is
# how the suite is checked for races: a test that waits on time instead of
# a condition fails here long before it fails in CI.
#
#   tests/stress.sh [-n RUNS] [-l LOADERS] [TARGET]
#
#   TARGET   a make target of the top Makefile: test-release (default),
#            test-asan or test
#   -n RUNS  runs in a row (default 5)
#   -l N     busy loops beside the tests (default: the number of cores)
#
# Logs go to stress-logs/<target>-<run>.log under the current directory.
set -u
RUNS=5
LOADERS=$(nproc 2>/dev/null || echo 2)
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
while getopts "n:l:h" o; do
    case $o in
    n) RUNS=$OPTARG ;;
    l) LOADERS=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = --help ] && { usage; exit 0; }
TARGET=${1:-test-release}
case $RUNS$LOADERS in *[!0-9]*) echo "stress.sh: -n and -l take numbers" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.." || exit 1
mkdir -p stress-logs

PIDS=()
stop_load() {
    [ ${#PIDS[@]} -gt 0 ] && kill "${PIDS[@]}" 2>/dev/null
    wait "${PIDS[@]}" 2>/dev/null
    PIDS=()
}
trap stop_load EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$LOADERS"); do
    (while :; do :; done) &
    PIDS+=($!)
done

echo "stress: make $TARGET, $RUNS runs, $LOADERS busy loops beside it"
for i in $(seq "$RUNS"); do
    log="stress-logs/$TARGET-$i.log"
    start=$(date +%s)
    if make "$TARGET" >"$log" 2>&1; then
        echo "run $i: pass ($(($(date +%s) - start)) s)"
    else
        echo "run $i: FAIL ($(($(date +%s) - start)) s), log in $log:"
        grep -E "\\*\\*\\*Failed|\\*\\*\\*Timeout|^FAIL" "$log" | head -n 20
        exit 1
    fi
done
echo "stress: $RUNS of $RUNS runs passed"
