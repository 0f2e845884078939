#!/bin/bash
# The GStreamer elements' figures through one private ccnd, run by hand:
#
#   bench/gstreamer.sh [-n ROUNDS] [-m MEGABYTES] [-f] [BIN]
#
# - On demand: a stream published by ccnputfile and held in ccnd's store
#   (the publisher gone), fetched in turn by ccngetfile and by
#   `ccnsrc ! fakesink`, ROUNDS times each, side by side; wall time of each
#   whole command, MB/s of content, medians, and their ratio.
# - Live latency: bin/gst_latency, 5 Mbit/s of raw frames from ccnsink
#   receiving a buffer to ccnsrc pushing it.
# - CPU: a 5 Mbit/s live ccnsink and one ccnsrc viewer as separate
#   processes for 30 s: CPU seconds per minute of stream of each.
# - Joining: from ccnsrc's start to its first decoded frame of a live VP8
#   stream with one keyframe a second, 7 viewers started one a second.
# -f: the first two only (on demand and live latency, 10 s).
# Defaults: 3 rounds, 256 MB, programs in build/bin (the plugin in
# BIN/../lib/gstreamer-1.0, ccngst_check in BIN/../tests).
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
MB=256
FIGURES_ONLY=
while getopts "n:m:fh" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    m) MB=$OPTARG ;;
    f) FIGURES_ONLY=1 ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccnputfile ccngetfile gst_latency
CHECK=$B/../tests/ccngst_check
[ -x "$CHECK" ] || { echo "gstreamer.sh: $CHECK not found (build the tests)" >&2; exit 1; }
T=$(mktemp -d /tmp/gst-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13500 + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
export CCND_CAP=2000000
export GST_PLUGIN_PATH="$B/../lib/gstreamer-1.0" GST_REGISTRY="$T/registry.bin"
unset CCN_LOCAL_TRANSPORT
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
die() { echo "gstreamer.sh: $*" >&2; exit 1; }
now() { date +%s.%N; }
rate() { awk -v mb="$MB" -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", mb / (b - a) }'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }

mkdir -p "$CCNX_DIR"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
# the registry is built once, before anything is timed
gst-inspect-1.0 ccnx >/dev/null 2>&1 || die "the plugin is not in $GST_PLUGIN_PATH"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- on demand ----
head -c $((MB << 20)) /dev/urandom >"$T/file" || die "cannot make the file"
"$B/ccnputfile" -x 600 ccnx:/bench/od "$T/file" 2>"$T/put.err" &
PUT=$!
"$B/ccngetfile" -q ccnx:/bench/od "$T/out" 2>"$T/get.err" || die "first fetch failed"
kill "$PUT"
wait "$PUT" 2>/dev/null
GET=()
SRC=()
for r in $(seq "$ROUNDS"); do
    a=$(now)
    "$B/ccngetfile" -q ccnx:/bench/od "$T/out" 2>"$T/get.err" || die "ccngetfile failed"
    b=$(now)
    cmp -s "$T/file" "$T/out" || die "ccngetfile: the file differs"
    rm -f "$T/out"
    c=$(now)
    gst-launch-1.0 -q ccnsrc location=ccnx:/bench/od ! fakesink >"$T/src.log" 2>&1 || die "ccnsrc failed"
    d=$(now)
    GET+=("$(rate "$a" "$b")")
    SRC+=("$(rate "$c" "$d")")
    echo "round $r: ccngetfile ${GET[-1]} MB/s, ccnsrc ! fakesink ${SRC[-1]} MB/s"
done
g=$(echo "${GET[*]}" | median)
s=$(echo "${SRC[*]}" | median)
echo "on demand, $MB MB from ccnd's store, medians: ccngetfile $g MB/s, ccnsrc $s MB/s," \
    "ratio $(awk -v a="$s" -v b="$g" 'BEGIN { printf "%.0f%%", 100 * a / b }')"
rm -f "$T/file" "$T/out"

# ---- live latency ----
if [ -n "$FIGURES_ONLY" ]; then
    "$B/gst_latency" -t 10 || die "gst_latency failed"
    exit 0
fi
"$B/gst_latency" -t 20 || die "gst_latency failed"

# ---- CPU per minute of live stream ----
LIVE="videotestsrc is-live=true pattern=ball ! video/x-raw,format=GRAY8,width=160,height=130,framerate=30/1"
gst-launch-1.0 -q $LIVE ! ccnsink location=ccnx:/bench/cpu live-window=3000 >"$T/tx.log" 2>&1 &
TX=$!
PIDS+=($TX)
sleep 1
gst-launch-1.0 -q ccnsrc location=ccnx:/bench/cpu ! fakesink sync=false >"$T/rx.log" 2>&1 &
RX=$!
PIDS+=($RX)
sleep 1
t0=$(cpu_ticks $TX)
r0=$(cpu_ticks $RX)
sleep 30
t1=$(cpu_ticks $TX)
r1=$(cpu_ticks $RX)
hz=$(getconf CLK_TCK)
echo "CPU per minute of a 5 Mbit/s live stream: ccnsink $(awk -v d=$((t1 - t0)) -v hz="$hz" 'BEGIN { printf "%.2f", 2 * d / hz }') s," \
    "ccnsrc $(awk -v d=$((r1 - r0)) -v hz="$hz" 'BEGIN { printf "%.2f", 2 * d / hz }') s"
kill $TX $RX
wait $TX $RX 2>/dev/null

# ---- joining ----
gst-launch-1.0 -q videotestsrc is-live=true num-buffers=420 ! video/x-raw,width=320,height=240,framerate=30/1 \
    ! vp8enc deadline=1 keyframe-max-dist=30 ! webmmux streamable=true \
    ! ccnsink location=ccnx:/bench/join live-window=3000 linger=0 >"$T/join.log" 2>&1 &
PIDS+=($!)
sleep 2
VIEW=()
for i in $(seq 7); do
    "$CHECK" count "ccnsrc location=ccnx:/bench/join ! matroskademux ! vp8dec ! appsink name=out sync=false" \
        >"$T/view$i.out" 2>/dev/null &
    VIEW+=($!)
    sleep 1
done
J=()
for i in $(seq 7); do
    wait "${VIEW[$((i - 1))]}"
    J+=("$(awk '{ print $8 }' "$T/view$i.out")")
done
echo "joining a live stream (1 keyframe/s): first frame after ${J[*]} ms; median $(echo "${J[*]}" | median) ms"
