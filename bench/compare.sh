#!/bin/bash
# Two builds side by side through one benchmark script, run by hand:
#
#   bench/compare.sh [-n RUNS] [-s] BIN_A BIN_B -- SCRIPT [ARGS...]
#
# Runs SCRIPT ARGS BIN_A, then SCRIPT ARGS BIN_B, RUNS times in turn (so a
# machine that gets busier or quieter meanwhile weighs on both alike), keeps
# every output in compare-logs/, and prints for each figure of the script's
# closing table (the lines after its "median" header: a label, then two
# or more spaces and the first number) the median over the runs of each build and B's ratio to A.
# Default: 3 runs. The script's own rounds (its -n) are within each run.
# -s only summarises the logs an earlier run left.
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
RUNS=3
SUMMARY_ONLY=
while getopts "n:sh" ch; do
    case $ch in
    n) RUNS=$OPTARG ;;
    s) SUMMARY_ONLY=1 ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 4 ] && [ "$3" = -- ] || {
    bench_usage >&2
    exit 2
}
A=$1 B=$2
shift 3
mkdir -p compare-logs
name=$(basename "$1" .sh)
echo "$name: $RUNS runs each of $A and $B, alternated; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$RUNS"); do
    [ -n "$SUMMARY_ONLY" ] && break
    for side in A B; do
        bin=$A
        [ $side = B ] && bin=$B
        log=compare-logs/$name-$side-$r.log
        "$@" "$bin" >"$log" 2>&1 || echo "run $r ($side): exit $?, see $log"
        echo "run $r ($side) done"
    done
done
# figures LOG: "label<TAB>number" for each line of the closing table.
figures() {
    awk '/median/ { on = 1; next }
         on && match($0, /  +[-+]?[0-9]+(\.[0-9]+)?/) {
             label = substr($0, 1, RSTART - 1); gsub(/^ +| +$/, "", label)
             value = substr($0, RSTART, RLENGTH); gsub(/ /, "", value)
             if (label != "" && !seen[label]++) print label "\t" value
         }' "$1"
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '\n%-44s %12s %12s %8s\n' "median of $RUNS runs" "A" "B" "B/A"
figures "compare-logs/$name-A-1.log" | cut -f1 | while IFS= read -r label; do
    a=$(for r in $(seq "$RUNS"); do figures "compare-logs/$name-A-$r.log"; done |
        awk -F'\t' -v l="$label" '$1 == l { print $2 }' | median)
    b=$(for r in $(seq "$RUNS"); do figures "compare-logs/$name-B-$r.log"; done |
        awk -F'\t' -v l="$label" '$1 == l { print $2 }' | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 != 0) printf "%.3f", b / a; else print "-" }')
    printf '%-44s %12s %12s %8s\n' "$label" "$a" "$b" "$ratio"
done
