#!/bin/bash
# Seeking on demand: in TIME on a ccnsink stream (VP8 frames with a
# keyframe a second), the first buffer after the seek is the keyframe at or
# before the target, within one keyframe interval, and the duration is
# known; in BYTES on a plain ccnputfile stream, the first buffer starts at
# the asked offset with the file's bytes there.
set -u
GST_TEST_TAG=gst-seek
GST_TEST_PORT_BASE=15350
. "$(dirname "$0")/lib.sh" || exit 1
start_ccnd

# (a) time: 300 VP8 frames at 30/s, a keyframe every 30
serve vp8 -q videotestsrc num-buffers=300 ! video/x-raw,width=160,height=120,framerate=30/1 \
    ! vp8enc deadline=1 keyframe-max-dist=30 ! ccnsink location=ccnx:/gt/seek linger=60
wait_published ccnx:/gt/seek
for target in 5000000000 7400000000 0; do
    LD_PRELOAD= "$CHECK" seek "ccnsrc location=ccnx:/gt/seek ! appsink name=out sync=false" \
        time $target >"$T/t$target.out" 2>"$T/t$target.log" || fail "seek to $target: $(cat "$T/t$target.log")"
    pts=$(sed -n 's/^pts \([0-9-]*\) .*/\1/p' "$T/t$target.out")
    [ -n "$pts" ] && [ "$pts" -le "$target" ] && [ "$pts" -gt $((target - 1000000000 - 1)) ] ||
        fail "seek to $target ns: first buffer at '$pts' ns: $(cat "$T/t$target.out")"
    grep -q "^duration 10000000000$" "$T/t$target.out" || fail "duration: $(cat "$T/t$target.out")"
done

# (b) bytes: a file that ccnputfile serves
head -c 1000000 /dev/urandom >"$T/file"
timeout 120 "$B/ccnputfile" -x 60 ccnx:/gt/plain "$T/file" 2>"$T/put.log" &
BG_PIDS+=($!)
wait_published ccnx:/gt/plain
for off in 654321 4096 999999; do
    LD_PRELOAD= "$CHECK" seek "ccnsrc location=ccnx:/gt/plain ! appsink name=out sync=false" \
        bytes $off >"$T/b$off.out" 2>"$T/b$off.log" || fail "byte seek to $off: $(cat "$T/b$off.log")"
    want=$(dd if="$T/file" bs=1 skip=$off count=8 status=none | od -An -tx1 | tr -d ' \n')
    grep -q "^pts -1 offset $off head $want$" "$T/b$off.out" ||
        fail "byte seek to $off: $(cat "$T/b$off.out"), expected head $want"
done
echo "PASS"
