#!/bin/bash
# Restored buffers: 300 raw frames through ccnsink and ccnsrc arrive with
# the same caps, bytes, PTS, durations and flags as they left the source
# (compared by an appsink); VP8 in WebM decodes frame for frame; playbin
# finds ccnsrc for a ccnx: URI, is told how far buffering got, and reaches
# the end.
set -u
GST_TEST_TAG=gst-buffers
GST_TEST_PORT_BASE=15150
. "$(dirname "$0")/lib.sh" || exit 1
start_ccnd

# (a) raw video: every buffer as it was
RAW="videotestsrc num-buffers=300 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1"
serve raw -q $RAW ! ccnsink location=ccnx:/gt/raw linger=60
wait_published ccnx:/gt/raw
LD_PRELOAD= "$CHECK" compare "$RAW ! appsink name=out sync=false" \
    "ccnsrc location=ccnx:/gt/raw ! appsink name=out sync=false" >"$T/raw.log" 2>&1 ||
    fail "raw frames differ: $(tail -n 3 "$T/raw.log")"
grep -q "^300 buffers identical" "$T/raw.log" || fail "raw frames: $(cat "$T/raw.log")"

# (b) encoded: VP8 in WebM, every frame decodes (and with no error)
VP8="videotestsrc num-buffers=90 ! video/x-raw,width=160,height=120,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=15 ! webmmux"
serve vp8 -q $VP8 ! ccnsink location=ccnx:/gt/vp8 linger=60
wait_published ccnx:/gt/vp8
LD_PRELOAD= "$CHECK" count \
    "ccnsrc location=ccnx:/gt/vp8 ! matroskademux ! vp8dec ! appsink name=out sync=false" \
    >"$T/vp8.log" 2>&1 || fail "vp8 in webm: $(tail -n 3 "$T/vp8.log")"
grep -q "^buffers 90 errors 0 warnings 0 " "$T/vp8.log" || fail "vp8 in webm: $(cat "$T/vp8.log")"

# (c) playbin with a ccnx: URI (the on-demand WebM above), to the end
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 playbin uri=ccnx:/gt/vp8 \
    video-sink=fakesink audio-sink=fakesink >"$T/playbin.log" 2>&1 ||
    fail "playbin uri=ccnx:/gt/vp8"
grep -q "Got EOS" "$T/playbin.log" || fail "playbin did not reach the end"
grep -q "buffering... 100%" "$T/playbin.log" || fail "no buffering messages up to 100%"
echo "PASS"
