# The benchmark set bench/compare.sh runs for two builds, sourced by it.
#
# Each member NAME has two functions:
#   run_NAME BIN     runs its script once for the build in BIN
#   figures_NAME LOG prints, for each figure in the script's output,
#                    "label<TAB>value<TAB>better<TAB>reference":
#                    better is + where higher is better and - where
#                    lower is; reference is the reference's figure
#                    from the same run, or empty.
# Sizes are moderate so that one run of the whole set takes a few minutes;
# the scripts themselves take larger ones when run by hand.

SET="forwarder table_scale first_fetch file_transfer interop repo gstreamer vlc chat explore together"

# field LOG SED_EXPRESSION: the first match of SED_EXPRESSION's \1 in LOG.
field() { sed -n "$2" "$1" | head -n 1; }

# row LABEL VALUE BETTER [REFERENCE]: one figure, when it has a value.
row() { [ -n "$2" ] && printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}"; }

# The forwarder: the same client, B's ccnd-bench, drives this build's ccnd
# and, when the reference is at hand, the reference's ccnd in the same run.
run_forwarder() {
    local ref=()
    [ -x "$CCNX_REF/bin/ccnd" ] && ref=("$CCNX_REF/bin/ccnd")
    "$BENCH_DIR/forwarder.sh" -n 1 -B "$B/ccnd-bench" "$1/ccnd" "${ref[@]}"
}
figures_forwarder() {
    awk -F'  +' '/^median of/ { on = 1; next }
        on && NF >= 2 && $1 !~ /relay/ {
            ref = ($3 + 0 > 0) ? $3 : "" # the reference carries no 32 KB objects
            printf "forwarder: %s\t%s\t+\t%s\n", $1, $2, ref
        }' "$1"
}

# ccnd's tables, in process: ns per operation at 10^5 entries.
run_table_scale() {
    if "$1/bench_table_scale" -h | grep -q MAX_ENTRIES; then
        "$1/bench_table_scale" -n 100000
        return
    fi
    # An older build without -n: stopped once its 10^5 figures are out.
    local out pid
    out=$(mktemp)
    "$1/bench_table_scale" >"$out" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null && ! grep -q '^pit *n=100000 ' "$out"; do
        sleep 0.2
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    cat "$out"
    rm -f "$out"
}
# largest LOG TABLE: the largest size TABLE's lines report.
largest() { sed -n "s/^$2 *n=\([0-9]*\).*/\1/p" "$1" | tail -n 1; }
# ns LOG TABLE N WHAT: the ns per operation WHAT at size N.
ns() { field "$1" "s/^$2 *n=$3 .*$4 *\([0-9.]*\) ns.*/\1/p"; }
figures_table_scale() {
    local log=$1 n
    n=$(largest "$log" cs)
    row "CS insert, $n entries (ns)" "$(ns "$log" cs "$n" insert)" -
    row "CS exact lookup, $n entries (ns)" "$(ns "$log" cs "$n" exact)" -
    row "CS lookup with selectors, $n entries (ns)" "$(ns "$log" cs "$n" selectors)" -
    n=$(largest "$log" fib)
    row "FIB longest-prefix match, $n entries (ns)" "$(ns "$log" fib "$n" match)" -
    n=$(largest "$log" pit)
    row "PIT insert, $n entries (ns)" "$(ns "$log" pit "$n" insert)" -
    row "PIT match, $n entries (ns)" "$(ns "$log" pit "$n" match)" -
}

run_first_fetch() { "$BENCH_DIR/first_fetch.sh" -n 1 -s "10 100 500" "$1"; }
figures_first_fetch() {
    awk -F'  +' '/^median of/ { on = 1; next } on && NF >= 2 { printf "%s (MB/s)\t%s\t+\t\n", $1, $2 }' "$1"
}

run_file_transfer() { "$BENCH_DIR/file_transfer.sh" -n 1 -m 64 "$1"; }
figures_file_transfer() {
    awk -F'  +' '/^median of/ { on = 1; next }
        on && NF >= 2 && !/relay/ { printf "%s, 64 MB (MB/s)\t%s\t+\t\n", $1, $2 }' "$1"
}

# Our ccncat against the reference's on our producers and on its
# ccnseqwriter, through our ccnd and its (needs the reference).
run_interop() { "$BENCH_DIR/interop.sh" -n 1 -k 3000 "$1"; }
figures_interop() {
    awk -F'  +' '/^median of/ { on = 1; next }
        on && NF >= 3 { printf "our ccncat, 3 MB, %s (s)\t%s\t-\t%s\n", $1, $2, $3 }' "$1"
}

run_repo() { "$BENCH_DIR/repo_transfer.sh" -n 1 -m 64 "$1"; }
figures_repo() {
    awk -F'  +' '/^median of/ { on = 1; next } on && NF < 2 { exit }
        on && $1 !~ /\// { printf "repository, 64 MB: %s (MB/s)\t%s\t+\t\n", $1, $2 }' "$1"
}

run_gstreamer() { "$BENCH_DIR/gstreamer.sh" -n 1 -m 64 -f "$1"; }
figures_gstreamer() {
    local log=$1
    row "GStreamer on demand, ccnsrc, 64 MB (MB/s)" \
        "$(field "$log" 's/.*medians: ccngetfile [0-9.]* MB\/s, ccnsrc \([0-9.]*\) MB\/s.*/\1/p')" +
    row "GStreamer live latency, 5 Mbit/s (ms)" \
        "$(field "$log" 's/^live latency .*median \([0-9.]*\) ms.*/\1/p')" -
}

# The VLC module: absent from builds before it, whose rows stay empty.
run_vlc() {
    if [ -f "$1/../lib/vlc/plugins/access/libccnx_plugin.so" ] && [ -x "$1/../tests/ccnv_check" ]; then
        "$BENCH_DIR/vlc.sh" -n 1 -m 64 "$1"
    else
        echo "no VLC module in this build"
    fi
}
figures_vlc() {
    local log=$1
    row "VLC on demand, 64 MB (MB/s)" \
        "$(field "$log" 's/.*medians: ccngetfile [0-9.]* MB\/s, VLC \([0-9.]*\) MB\/s.*/\1/p')" +
    row "VLC on demand, share of ccngetfile's rate in the same run (%)" \
        "$(field "$log" 's/.*medians: ccngetfile .* ratio \([0-9]*\)%.*/\1/p')" +
    row "VLC live, opening to the first picture (ms)" \
        "$(field "$log" 's/^live, opening to the first picture: median \([0-9]*\) ms.*/\1/p')" -
}

run_chat() { "$BENCH_DIR/ccnchat.sh" -m 5 -r 5 -s 10 "$1"; }
figures_chat() {
    local log=$1
    row "chat latency, one member to another (ms)" \
        "$(field "$log" 's/^chat latency .*median \([0-9.]*\) ms.*/\1/p')" -
    row "chat, 5 members, median CPU (% of a core)" \
        "$(field "$log" 's/^median chat: \([0-9.]*\)% of a core.*/\1/p')" -
}

run_explore() { "$BENCH_DIR/ccnexplore.sh" -n 2000 -r 3 "$1"; }
figures_explore() {
    local log=$1
    row "explorer, 2000 children: first screenful (ms)" \
        "$(field "$log" 's/^median: first screenful \([0-9.]*\) ms.*/\1/p')" -
    row "explorer, 2000 children: complete listing (ms)" \
        "$(field "$log" 's/^median: .* complete \([0-9.]*\) ms.*/\1/p')" -
}

run_together() { "$BENCH_DIR/put_get_together.sh" -n 3 "$1"; }
figures_together() {
    awk -F'  +' '/^median of/ { on = 1; next }
        on && NF >= 3 {
            printf "put and get together, 100 KB (ms)\t%s\t-\t\n", $2
            printf "version discovery, one producer (ms)\t%s\t-\t\n", $3
        }' "$1"
}
