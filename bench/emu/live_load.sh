#!/bin/bash
# A live stream on an emulated network, run by hand as root:
#
#   bench/emu/live_load.sh [-c VIEWERS] [-t SECONDS] [-r KBIT] [-l LOSSES] [BIN]
#
# The tree of origin_load.sh (bench/emu/tree.sh). The origin runs a live
# sender, gst-launch-1.0 with raw GRAY8 frames at KBIT kbit/s (default
# 2000) for SECONDS (default 20) into ccnsink; as soon as it publishes,
# VIEWERS (default 30) hosts start a ccnsrc viewer each, which joins the
# live stream where it is and writes what it gets to a file until the
# stream ends. With no loss and with 2% loss each way on the viewers'
# links (-l "0 2"). For each run: the copies of the stream that left the
# origin (as origin_load.sh counts them), the objects the sink sent per
# segment it made (the rest came from the origin's ccnd), the viewers that
# reached the stream's end, and the median and smallest share of the
# stream a viewer received (joining a second late costs a twentieth).
# Needs the GStreamer plugin built (build/lib/gstreamer-1.0). About two
# minutes a run.
set -u
VIEWERS=30
SECS=20
KBIT=2000
LOSSES="0 2"
while getopts "c:t:r:l:h" ch; do
    case $ch in
    c) VIEWERS=$OPTARG ;;
    t) SECS=$OPTARG ;;
    r) KBIT=$OPTARG ;;
    l) LOSSES=$OPTARG ;;
    *)
        awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=$(cd "${1:-build/bin}" && pwd) || exit 1
[ "$(id -u)" = 0 ] || { echo "live_load.sh: needs root (network namespaces)" >&2; exit 1; }
TOP=$(mktemp -d /tmp/live-load-XXXXXX)
EMU_DIR=
cleanup() {
    [ -n "$EMU_DIR" ] && emu_down
    rm -rf "$TOP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export GST_PLUGIN_PATH="$B/../lib/gstreamer-1.0" GST_REGISTRY="$TOP/registry.bin"
gst-inspect-1.0 ccnx >/dev/null 2>&1 || { echo "live_load.sh: no ccnx plugin in $GST_PLUGIN_PATH" >&2; exit 1; }

FPS=30
HEIGHT=$((KBIT * 1000 / 8 / FPS / 160))
FRAME=$((160 * HEIGHT))
TOTAL=$((FRAME * FPS * SECS))

# run LOSS: one experiment; prints its table row.
run() {
    EMU_DIR=$(mktemp -d "$TOP/run-XXXXXX")
    . "$(dirname "$0")/emu_lib.sh" && . "$(dirname "$0")/tree.sh" || exit 1
    emu_tree "$VIEWERS" "$1" ccnx:/emu >"$EMU_DIR/tree.topo"
    emu_up "$EMU_DIR/tree.topo" || { echo "emu_up failed" >&2; exit 1; }
    emu_on origin timeout $((SECS + 120)) gst-launch-1.0 -m videotestsrc is-live=true \
        num-buffers=$((FPS * SECS)) ! "video/x-raw,format=GRAY8,width=160,height=$HEIGHT,framerate=$FPS/1" \
        ! ccnsink location=ccnx:/emu/live live-window=2000 linger=60 >"$EMU_DIR/origin/sink.log" 2>&1 &
    local sender=$!
    EMU_PIDS+=($sender)
    emu_wait_content origin ccnx:/emu/live || exit 1
    local v pids=()
    for v in $(seq "$VIEWERS"); do
        emu_on "c$v" timeout $((SECS + 120)) gst-launch-1.0 -q ccnsrc location=ccnx:/emu/live \
            ! filesink location="$EMU_DIR/c$v/got" >"$EMU_DIR/c$v/view.log" 2>&1 &
        pids+=($!)
    done
    local ended=0
    for v in "${!pids[@]}"; do
        wait "${pids[$v]}" && ended=$((ended + 1)) && continue
        echo "c$((v + 1)): $(grep -A1 -m1 ERROR "$EMU_DIR/c$((v + 1))/view.log" | tr '\n' ' ')" >&2
    done
    # the sender lingers: its face and counters are still there
    emu_stats
    kill "$sender" 2>/dev/null
    wait "$sender"
    local line segs sent shares
    line=$(grep "ccnsink-stats" "$EMU_DIR/origin/sink.log" | tail -n 1)
    segs=$(echo "$line" | sed -n 's/.*segments=(guint64)\([0-9]*\).*/\1/p')
    sent=$(echo "$line" | sed -n 's/.*objects-sent=(guint64)\([0-9]*\).*/\1/p')
    shares=$(for v in $(seq "$VIEWERS"); do
        stat -c %s "$EMU_DIR/c$v/got" 2>/dev/null || echo 0
    done | awk -v t="$TOTAL" '{printf "%.3f\n", $1 / t}')
    printf "%5s%% %7s %12s %7s %13s %9s\n" "$1" "$(emu_copies)" \
        "$(awk -v s="${sent:-0}" -v n="${segs:-0}" 'BEGIN {printf "%.3f", (n > 0 ? s / n : 0)}')" \
        "$ended/$VIEWERS" "$(echo "$shares" | emu_median)" "$(echo "$shares" | sort -n | head -n 1)"
    emu_down
    EMU_DIR=
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $VIEWERS viewers, $KBIT kbit/s" \
    "for $SECS s ($TOTAL bytes)"
printf "%6s %7s %12s %7s %13s %9s\n" loss copies "sink sends" ended "median share" smallest
for loss in $LOSSES; do
    run "$loss"
done
