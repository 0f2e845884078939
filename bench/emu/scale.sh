#!/bin/bash
# One forwarder under more and more consumers, run by hand as root:
#
#   bench/emu/scale.sh [-c "1 10 100"] [-m MEGABYTES] [BIN]
#
# An origin, a router (the forwarder measured) and ten consumer hosts, each
# with its own ccnd, on unshaped veth links. For each count N of -c, the
# origin serves N distinct files of MEGABYTES (default 8) with ccnputfile,
# and N consumers spread over the hosts fetch one file each with
# ccngetfile, all at once. Printed for each N: the data moved, the time
# until the last consumer finished, the aggregate and the median
# per-consumer goodput, and the router's ccnd CPU time (user + system)
# in all, per consumer and per MB. About a minute for 1, 10 and 100.
set -u
COUNTS="1 10 100"
MB=8
HOSTS=10
while getopts "c:m:h" ch; do
    case $ch in
    c) COUNTS=$OPTARG ;;
    m) MB=$OPTARG ;;
    *)
        awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=$(cd "${1:-build/bin}" && pwd) || exit 1
[ "$(id -u)" = 0 ] || { echo "scale.sh: needs root (network namespaces)" >&2; exit 1; }
TOP=$(mktemp -d /tmp/scale-XXXXXX)
EMU_DIR=
cleanup() {
    [ -n "$EMU_DIR" ] && emu_down
    rm -rf "$TOP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

topology() {
    local h
    echo "node origin"
    echo "node router"
    echo "link origin router"
    echo "route router ccnx:/emu origin"
    for h in $(seq "$HOSTS"); do
        echo "node h$h"
        echo "link router h$h"
        echo "route h$h ccnx:/emu router"
    done
}

# cpu_ticks PID: user + system clock ticks of the process
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# run N: one experiment; prints its table row.
run() {
    local n=$1 i
    EMU_DIR=$(mktemp -d "$TOP/run-XXXXXX")
    . "$(dirname "$0")/emu_lib.sh" || exit 1
    topology >"$EMU_DIR/scale.topo"
    emu_up "$EMU_DIR/scale.topo" || { echo "emu_up failed" >&2; exit 1; }
    head -c $((MB << 20)) /dev/urandom >"$EMU_DIR/file"
    for i in $(seq "$n"); do
        emu_on origin "$B/ccnputfile" -x 900 "ccnx:/emu/f$i" "$EMU_DIR/file" >/dev/null \
            2>"$EMU_DIR/origin/put$i.err" &
        EMU_PIDS+=($!)
    done
    for i in $(seq "$n"); do emu_wait_content origin "ccnx:/emu/f$i" || exit 1; done
    local pid t0 c0 pids=()
    pid=$(emu_pid router)
    c0=$(cpu_ticks "$pid")
    t0=$(date +%s.%N)
    for i in $(seq "$n"); do
        emu_on "h$(((i - 1) % HOSTS + 1))" timeout 600 "$B/ccngetfile" "ccnx:/emu/f$i" \
            "$EMU_DIR/got$i" 2>"$EMU_DIR/get$i.err" &
        pids+=($!)
    done
    local failed=0
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" && continue
        failed=$((failed + 1))
        echo "consumer $((i + 1)): $(tail -n 1 "$EMU_DIR/get$((i + 1)).err")" >&2
    done
    local t1 c1 median
    t1=$(date +%s.%N)
    c1=$(cpu_ticks "$pid")
    median=$(sed -n 's/.* (\([0-9.]*\) MB\/s).*/\1/p' "$EMU_DIR"/get*.err | emu_median)
    awk -v n="$n" -v mb="$MB" -v t0="$t0" -v t1="$t1" -v cpu=$((c1 - c0)) \
        -v hz="$(getconf CLK_TCK)" -v med="$median" -v bad="$failed" 'BEGIN {
        s = cpu / hz
        t = t1 - t0
        printf "%9d %5d %8.0f %7.2f %11.1f %11s %8.2f %11.1f %8.1f\n", n, bad, n * mb, t,
            n * mb / t, med, s, 1000 * s / n, 1000 * s / (n * mb)
    }'
    emu_down
    EMU_DIR=
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $MB MB a consumer, $HOSTS hosts"
printf "%9s %5s %8s %7s %11s %11s %8s %11s %8s\n" consumers fail MB "time s" "total MB/s" \
    "median MB/s" "cpu s" "ms/consumer" "ms/MB"
for n in $COUNTS; do
    run "$n"
done
