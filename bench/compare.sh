#!/bin/bash
# Two builds side by side, run by hand:
#
#   bench/compare.sh [-n RUNS] [-o DIR] BIN_A BIN_B
#   bench/compare.sh [-n RUNS] [-o DIR] BIN_A BIN_B -- SCRIPT [ARGS...]
#   bench/compare.sh -s DIR
#
# BIN_A and BIN_B are two builds' bin folders (A the older, say
# /tmp/old/build/bin, B build/bin). Without "--" it runs the whole
# benchmark set (bench/benchmark_set.sh: forwarder, ccnd's tables, first
# fetch at 10/100/500 MB, refetch, our consumer against the reference's on
# the seqwriter producers, repository ingest and serve, GStreamer on demand
# and live latency, VLC on demand and its first live picture, chat
# latency, explorer listing, put and get together);
# with "--" it runs SCRIPT ARGS BIN for one script. Each of the RUNS runs
# (default 3) takes A, then B, so a machine that gets busier or quieter
# meanwhile weighs on both alike. Every output is kept in DIR (default
# compare-logs/ and the time of the start). Then it prints, for each
# figure, the median over the runs of each build, B/A, and "B better": the
# gain of B over A in the figure's own direction (rates up, times down;
# negative is a drop), and where the run measured the reference's
# figure too (forwarder, consumer times; needs CCNX_REF, default
# ../shared/ccnx-0.8.2) its median and how many times better B is. The
# table is also written to DIR/summary.txt. -s only summarises DIR.
#
# For one script, the figures are its closing table (the lines after its
# "median" header: a label, then two or more spaces and the first number),
# all counted higher-is-better.
set -u
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/bench_lib.sh" || exit 1
. "$BENCH_DIR/benchmark_set.sh" || exit 1
CCNX_REF=${CCNX_REF:-$BENCH_DIR/../../shared/ccnx-0.8.2}
RUNS=3
DIR=
SUMMARY_ONLY=
while getopts "n:o:s:h" ch; do
    case $ch in
    n) RUNS=$OPTARG ;;
    o) DIR=$OPTARG ;;
    s) DIR=$OPTARG SUMMARY_ONLY=1 ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))

# run_script BIN: the one script given after "--".
run_script() { "${script[@]}" "$1"; }

# figures_script LOG: a single script's closing table.
figures_script() {
    awk '/median/ { on = 1; next }
         on && match($0, /  +[-+]?[0-9]+(\.[0-9]+)?/) {
             label = substr($0, 1, RSTART - 1); gsub(/^ +| +$/, "", label)
             value = substr($0, RSTART, RLENGTH); gsub(/ /, "", value)
             if (label != "" && !seen[label]++) print label "\t" value "\t+\t"
         }' "$1"
}

# all_figures SIDE: every figure of every log of SIDE, members in the order
# the run took them (header.txt), runs in order.
all_figures() {
    local order m log
    order=$(sed -n 's/^[0-9]* runs of: \([^;]*\);.*/\1/p' "$DIR/header.txt" 2>/dev/null)
    for m in $order; do
        for log in $(ls "$DIR/$m-$1-"*.log 2>/dev/null | sort -V); do
            if declare -F "figures_$m" >/dev/null; then
                "figures_$m" "$log"
            else
                figures_script "$log"
            fi
        done
    done
}

summarise() {
    local fa fb
    fa=$(mktemp) fb=$(mktemp)
    all_figures A >"$fa"
    all_figures B >"$fb"
    # Labels in the order they first appear; medians of each column.
    awk -F'\t' '
        FNR == NR { a[$1] = a[$1] " " $2; ref[$1] = ref[$1] ($4 != "" ? " " $4 : ""); better[$1] = $3
                    if (!seen[$1]++) order[++n] = $1; next }
        { b[$1] = b[$1] " " $2; ref[$1] = ref[$1] ($4 != "" ? " " $4 : "") }
        function med(s,   v, k, i, j, t) {
            k = split(s, v, " "); if (k == 0) return ""
            for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        }
        END {
            printf "%-64s %10s %10s %6s %9s %10s %8s\n", "figure (median of runs)", "A", "B", "B/A", "B better", "reference", "B x ref"
            for (i = 1; i <= n; i++) {
                l = order[i]; ma = med(a[l]); mb = med(b[l]); mr = med(ref[l])
                ratio = (ma + 0 != 0 && mb != "") ? sprintf("%.3f", mb / ma) : "-"
                gain = "-"
                if (ma + 0 != 0 && mb + 0 != 0)
                    gain = sprintf("%+.1f%%", better[l] == "-" ? 100 * (ma / mb - 1) : 100 * (mb / ma - 1))
                xref = "-"
                if (mr != "" && mb + 0 != 0 && mr + 0 != 0)
                    xref = sprintf("%.2f", better[l] == "-" ? mr / mb : mb / mr)
                printf "%-64s %10s %10s %6s %9s %10s %8s\n", substr(l, 1, 64), ma, (mb == "" ? "-" : mb), ratio, gain, (mr == "" ? "-" : mr), xref
            }
        }' "$fa" "$fb"
    rm -f "$fa" "$fb"
}

if [ -n "$SUMMARY_ONLY" ]; then
    [ -d "$DIR" ] || { echo "compare.sh: no folder $DIR" >&2; exit 2; }
    summarise
    exit 0
fi
[ $# -eq 2 ] || { [ $# -ge 4 ] && [ "$3" = -- ]; } || {
    bench_usage >&2
    exit 2
}
A=$1 B=$2
shift 2
for bin in "$A" "$B"; do
    [ -x "$bin/ccnd" ] || { echo "compare.sh: $bin/ccnd not found (give two builds' bin folders)" >&2; exit 2; }
done
if [ $# -gt 0 ]; then
    shift
    script=("$@")
    members=script_$(basename "$1" .sh)
else
    members=$SET
fi
DIR=${DIR:-compare-logs/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$DIR"
{
    echo "A: $A ($(git -C "$A" describe --always --dirty 2>/dev/null || echo "?"))"
    echo "B: $B ($(git -C "$B" describe --always --dirty 2>/dev/null || echo "?"))"
    echo "$RUNS runs of: $members; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%F %T UTC')"
} | tee "$DIR/header.txt"
for r in $(seq "$RUNS"); do
    for m in $members; do
        for side in A B; do
            bin=$A
            [ $side = B ] && bin=$B
            log=$DIR/$m-$side-$r.log
            start=$SECONDS
            runner=run_$m
            declare -F "$runner" >/dev/null || runner=run_script
            "$runner" "$bin" >"$log" 2>&1 || echo "run $r, $m ($side): exit $?, see $log"
            echo "run $r, $m ($side): $((SECONDS - start)) s"
        done
    done
done
echo
summarise | tee "$DIR/summary.txt"
