# Shared by the benchmark scripts (bench/*.sh), which source it.

# bench_usage: the script's help, which is its leading comment block.
bench_usage() { awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }

# bench_need BIN PROGRAM...: exits, naming it, when a program is not built.
bench_need() {
    local bin=$1 p
    shift
    for p in "$@"; do
        [ -x "$bin/$p" ] && continue
        echo "$(basename "$0"): $bin/$p not found (build first, or give BIN)" >&2
        exit 1
    done
}

# median: the median of the numbers on standard input (separated by spaces
# or lines), the mean of the two middle ones when their count is even.
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
