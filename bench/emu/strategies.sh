#!/bin/bash
# The default strategy on two paths, run by hand as root:
#
#   bench/emu/strategies.sh [-n RUNS] [-m MEGABYTES] [-f SECONDS] [-p PIPELINE] [BIN]
#
# A consumer host c behind a router r, which reaches the producer p by two
# paths: through `slow` (25 ms from r) and through `fast` (5 ms from r),
# each 100 Mbit/s; r's route through slow is added first. The consumer
# fetches a MEGABYTES (default 20) file with ccngetfile, at most PIPELINE
# (default 8) Interests in flight so that it does not fill the fast path's
# queue (a full queue makes both paths equally slow), while r's counters
# are read every few milliseconds; SECONDS (default 4) into the fetch, the
# link between r and fast goes down, which nothing tells r's ccnd. Printed
# for each of RUNS (default 3) runs: the share of the Interests r sent to
# fast in the second before the failure (the strategy moved to the faster
# path), the outage (the longest time after the failure in which no data
# came to r; goal under 1 s), the share r then sent to slow in the last
# second, and whether the file arrived intact. About 30 s a run.
set -u
RUNS=3
MB=20
FAIL_AT=4
PIPE=8
while getopts "n:m:f:p:h" ch; do
    case $ch in
    n) RUNS=$OPTARG ;;
    m) MB=$OPTARG ;;
    f) FAIL_AT=$OPTARG ;;
    p) PIPE=$OPTARG ;;
    *)
        awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=$(cd "${1:-build/bin}" && pwd) || exit 1
[ "$(id -u)" = 0 ] || { echo "strategies.sh: needs root (network namespaces)" >&2; exit 1; }
TOP=$(mktemp -d /tmp/strategies-XXXXXX)
EMU_DIR=
cleanup() {
    [ -n "$EMU_DIR" ] && emu_down
    rm -rf "$TOP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

topology() {
    cat <<'END'
node c
node r
node slow
node fast
node p
link c r
link r slow rate=100mbit delay=25
link r fast rate=100mbit delay=5
link slow p
link fast p
route c ccnx:/emu r
route r ccnx:/emu slow
route r ccnx:/emu fast
route slow ccnx:/emu p
route fast ccnx:/emu p
END
}

# face_of NEXT: r's faceid towards NEXT (the face whose remote is the
# address r's route to NEXT names; the status page has a face a line)
face_of() {
    local to
    to=$(awk -v n="$1" '$1 == "r" && $3 == n {print $4}' "$EMU_DIR/routes.txt")
    emu_on r "$B/ccndstatus" -j | grep "\"remote\":\"$to\"" | sed 's/.*"faceid":\([0-9]*\),.*/\1/'
}

# sample: one line "SECONDS DATAIN INTROUT_FAST INTROUT_SLOW" of r's faces
sample() {
    local t j
    t=$(date +%s.%N)
    j=$(emu_on r "$B/ccndstatus" -j) || return 1
    echo "$t $(echo "$j" | awk -v f="$FAST" -v s="$SLOW" '
        function total(m) {
            if (!match($0, "\"" m "\":[{]\"total\":[0-9]+")) return 0
            return substr($0, RSTART + length(m) + 12, RLENGTH - length(m) - 12)
        }
        /"meters"/ && match($0, /"faceid":[0-9]+/) {
            id = substr($0, RSTART + 9, RLENGTH - 9)
            if (id == f || id == s) din += total("datain")
            if (id == f) fo = total("introut")
            if (id == s) so = total("introut")
        }
        END { print din + 0, fo + 0, so + 0 }')"
}

# run: one experiment; prints its table row.
run() {
    EMU_DIR=$(mktemp -d "$TOP/run-XXXXXX")
    . "$(dirname "$0")/emu_lib.sh" || exit 1
    topology >"$EMU_DIR/two.topo"
    emu_up "$EMU_DIR/two.topo" || { echo "emu_up failed" >&2; exit 1; }
    FAST=$(face_of fast)
    SLOW=$(face_of slow)
    head -c $((MB << 20)) /dev/urandom >"$EMU_DIR/file"
    emu_on p "$B/ccnputfile" -x 900 ccnx:/emu/file "$EMU_DIR/file" >/dev/null 2>"$EMU_DIR/put.err" &
    EMU_PIDS+=($!)
    emu_wait_content p ccnx:/emu/file || exit 1
    emu_on c timeout 300 "$B/ccngetfile" -p "$PIPE" ccnx:/emu/file "$EMU_DIR/got" 2>"$EMU_DIR/get.err" &
    local getter=$! start failed=
    start=$(date +%s.%N)
    : >"$EMU_DIR/samples"
    while kill -0 "$getter" 2>/dev/null; do
        sample >>"$EMU_DIR/samples"
        if [ -z "$failed" ] && awk -v s="$start" -v f="$FAIL_AT" -v n="$(date +%s.%N)" \
            'BEGIN {exit !(n - s >= f)}'; then
            ip -n "$(emu_ns r)" link set "$(emu_dev r fast)" down
            failed=$(date +%s.%N)
        fi
    done
    wait "$getter"
    local intact=no
    cmp -s "$EMU_DIR/file" "$EMU_DIR/got" && intact=yes
    awk -v f="${failed:-0}" -v ok="$intact" '
        { t[NR] = $1; d[NR] = $2; fo[NR] = $3; so[NR] = $4 }
        function share(x, y) { return x + y > 0 ? sprintf("%.2f", x / (x + y)) : "-" }
        END {
            for (i = 1; i <= NR && t[i] < f - 1; i++) ;
            for (j = i; j <= NR && t[j] < f; j++) ;
            before = share(fo[j] - fo[i], so[j] - so[i])
            gap = 0; last = t[j]
            for (k = j + 1; k <= NR; k++) if (d[k] > d[k - 1]) { if (t[k] - last > gap) gap = t[k] - last; last = t[k] }
            for (m = NR; m > j && t[m] > t[NR] - 1; m--) ;
            after = share(so[NR] - so[m], fo[NR] - fo[m])
            printf "%18s %11.0f %17s %7s\n", before, gap * 1000, after, ok
        }' "$EMU_DIR/samples"
    emu_down
    EMU_DIR=
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $MB MB, fast path down after $FAIL_AT s"
printf "%18s %11s %17s %7s\n" "to fast, before" "outage ms" "to slow, after" intact
for _ in $(seq "$RUNS"); do
    run
done
