#!/bin/bash
# The VLC module's figures through one private ccnd, run by hand:
#
#   bench/vlc.sh [-n ROUNDS] [-m MEGABYTES] [BIN]
#
# - On demand: a file published by ccnputfile and held in ccnd's store (the
#   publisher gone), read in turn by ccngetfile and by VLC (libvlc through
#   ccnv_check, VLC's dump demuxer writing what the module gives it to a
#   file, as ccngetfile writes its own), ROUNDS times each, side by side;
#   wall time of each whole command, MB/s of content, medians, and the
#   ratio. Beside them, VLC reading the same file from the local disk
#   (page cache) the same way: VLC's own ceiling on this machine.
# - Live: from opening a live VP8/WebM ccnsink stream (a keyframe a second)
#   in VLC to its first picture shown, ROUNDS viewers one after another at
#   different points of the keyframe interval, with the module's default
#   settings; median and largest.
# Defaults: 3 rounds, 100 MB, programs in build/bin (the module in
# BIN/../lib/vlc/plugins, ccnv_check in BIN/../tests).
set -u
. "$(dirname "$0")/bench_lib.sh" || exit 1
ROUNDS=3
MB=100
while getopts "n:m:h" ch; do
    case $ch in
    n) ROUNDS=$OPTARG ;;
    m) MB=$OPTARG ;;
    *)
        bench_usage
        [ "$ch" = h ]
        exit
        ;;
    esac
done
shift $((OPTIND - 1))
B=${1:-build/bin}
bench_need "$B" ccnd ccndstart ccndstop ccnputfile ccngetfile
CHECK=$B/../tests/ccnv_check
[ -x "$CHECK" ] || { echo "vlc.sh: $CHECK not found (build the tests)" >&2; exit 1; }
export VLC_PLUGIN_PATH=$B/../lib/vlc/plugins
[ -f "$VLC_PLUGIN_PATH/access/libccnx_plugin.so" ] || { echo "vlc.sh: no VLC module in $VLC_PLUGIN_PATH" >&2; exit 1; }
T=$(mktemp -d /tmp/vlc-bench-XXXXXX)
export CCN_LOCAL_PORT=$((13550 + $$ % 25))
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
die() { echo "vlc.sh: $*" >&2; exit 1; }
now() { date +%s.%N; }
rate() { awk -v mb="$MB" -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", mb / (b - a) }'; }

mkdir -p "$CCNX_DIR"
"$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || die "ccndstart failed"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
# VLC's plugin cache is built once, before anything is timed
"$CHECK" -t 5 ccnx:///bench/none :ccnx-timeout=1 >/dev/null 2>&1

# ---- on demand ----
head -c $((MB << 20)) /dev/urandom >"$T/file" || die "cannot make the file"
"$B/ccnputfile" -r -x 600 ccnx:/bench/od "$T/file" 2>"$T/put.err" &
PUT=$!
"$B/ccngetfile" -q ccnx:/bench/od "$T/out" 2>"$T/get.err" || die "first fetch failed"
kill "$PUT"
wait "$PUT" 2>/dev/null
GET=()
VLC=()
LOCAL=()
for r in $(seq "$ROUNDS"); do
    rm -f "$T/out"
    a=$(now)
    "$B/ccngetfile" -q ccnx:/bench/od "$T/out" 2>"$T/get.err" || die "ccngetfile failed"
    b=$(now)
    cmp -s "$T/file" "$T/out" || die "ccngetfile: the file differs"
    rm -f "$T/out"
    c=$(now)
    "$CHECK" -t 600 ccnx:///bench/od :demux=dump ":demuxdump-file=$T/out" >"$T/vlc.out" 2>"$T/vlc.err" ||
        die "VLC failed: $(cat "$T/vlc.out") $(tail -n 3 "$T/vlc.err")"
    d=$(now)
    cmp -s "$T/file" "$T/out" || die "VLC: the file differs"
    rm -f "$T/out"
    e=$(now)
    "$CHECK" -t 600 "file://$T/file" :demux=dump ":demuxdump-file=$T/out" >/dev/null 2>&1 ||
        die "VLC on the local file failed"
    f=$(now)
    GET+=("$(rate "$a" "$b")")
    VLC+=("$(rate "$c" "$d")")
    LOCAL+=("$(rate "$e" "$f")")
    echo "round $r: ccngetfile ${GET[-1]} MB/s, VLC ${VLC[-1]} MB/s, VLC from the local file ${LOCAL[-1]} MB/s"
done
g=$(echo "${GET[*]}" | median)
v=$(echo "${VLC[*]}" | median)
l=$(echo "${LOCAL[*]}" | median)
echo "on demand, $MB MB from ccnd's store, medians: ccngetfile $g MB/s, VLC $v MB/s," \
    "ratio $(awk -v a="$v" -v b="$g" 'BEGIN { printf "%.0f%%", 100 * a / b }');" \
    "VLC from the local file $l MB/s"
rm -f "$T/file" "$T/out"

# ---- live: opening to the first picture ----
gst-launch-1.0 -q videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 \
    ! vp8enc deadline=1 keyframe-max-dist=30 ! webmmux streamable=true \
    ! ccnsink location=ccnx:/bench/live live-window=3000 >"$T/live.log" 2>&1 &
PIDS+=($!)
"$B/ccnpeek" -w 10 ccnx:/bench/live >/dev/null 2>&1 || die "the live stream did not start: $(cat "$T/live.log")"
sleep 2 # past the first keyframe interval
FIRST=()
for r in $(seq "$ROUNDS"); do
    sleep "0.$((r * 37 % 10))" # viewers open at different points of the keyframe interval
    "$CHECK" -n 1 -t 30 ccnx:///bench/live >"$T/first.out" 2>"$T/first.err" ||
        die "VLC live: $(cat "$T/first.out") $(tail -n 3 "$T/first.err")"
    FIRST+=("$(sed -n 's/.*first_ms=\([0-9]*\).*/\1/p' "$T/first.out")")
    echo "viewer $r: first picture ${FIRST[-1]} ms after opening"
done
echo "live, opening to the first picture: median $(echo "${FIRST[*]}" | median) ms," \
    "largest $(echo "${FIRST[*]}" | tr ' ' '\n' | sort -g | tail -n 1) ms"
