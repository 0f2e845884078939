#!/bin/bash
# Seeks land. The model, read from an offset, gives exactly the file's
# bytes from there: a ccnputfile file (all segments full but the last) and
# the same file through ccnsink (segment offsets from its metadata, by
# bisection), at segment edges, inside, at and past the end. VLC started at
# 6 s into a WebM file with cues (served by ccnputfile, and by ccnsink on
# demand) shows the last 4 s of its pictures (100 of 250), after a byte
# seek.
set -u
VLC_TEST_TAG=vlc-seek
VLC_TEST_PORT_BASE=16550
. "$(dirname "$0")/lib.sh" || exit 1

start_ccnd
head -c 1000000 /dev/urandom >"$T/file"
chmod 644 "$T/file"
serve put "$B/ccnputfile" -r ccnx:/vt/file "$T/file"
wait_published ccnx:/vt/file
names=(ccnx:/vt/file)
if have_gst; then
    serve sink env LD_PRELOAD="$PRELOAD" gst-launch-1.0 -q filesrc location="$T/file" \
        ! ccnsink location=ccnx:/vt/sink block-size=3000 linger=100
    wait_published ccnx:/vt/sink
    names+=(ccnx:/vt/sink)
fi
for name in "${names[@]}"; do
    "$READ" "$name" >"$T/got" 2>"$T/read.log" || fail "$name: $(cat "$T/read.log")"
    cmp -s "$T/got" "$T/file" || fail "$name: the whole stream differs"
    for off in 0 1 2999 3000 4095 4096 4097 500000 999999 1000000 1200000; do
        "$READ" -s $off "$name" >"$T/got" 2>"$T/read.log" || fail "$name from $off: $(cat "$T/read.log")"
        tail -c +$((off + 1)) "$T/file" | cmp -s - "$T/got" ||
            fail "$name from $off: $(stat -c %s "$T/got") bytes that are not the file's from there"
    done
    echo "ok: $name read from 11 offsets"
done

# VLC: 10 s of VP8 in WebM with cues, a keyframe a second
if ! have_gst || ! have_vp8enc; then
    echo "skipped: VLC's seek (needs the GStreamer plugin and vp8enc)"
    echo "PASS"
    exit 0
fi
gst videotestsrc num-buffers=250 ! video/x-raw,width=160,height=120,framerate=25/1 \
    ! vp8enc keyframe-max-dist=25 ! webmmux ! filesink location="$T/clip.webm" ||
    fail "cannot make the clip"
chmod 644 "$T/clip.webm"
serve putclip "$B/ccnputfile" -r ccnx:/vt/clip.webm "$T/clip.webm"
serve sinkclip env LD_PRELOAD="$PRELOAD" gst-launch-1.0 -q filesrc location="$T/clip.webm" \
    ! ccnsink location=ccnx:/vt/sinkclip.webm linger=100
wait_published ccnx:/vt/clip.webm
wait_published ccnx:/vt/sinkclip.webm
for name in ccnx:///vt/clip.webm ccnx:///vt/sinkclip.webm; do
    check -v -t 60 "$name" :start-time=6 >"$T/seek.out" 2>"$T/seek.log" ||
        fail "$name from 6 s: $(cat "$T/seek.out") $(tail -n 5 "$T/seek.log")"
    grep -q "ccnx debug: seek to byte [1-9]" "$T/seek.log" || fail "$name: no byte seek: $(grep ccnx "$T/seek.log")"
    read -r frames _ ended error <"$T/seek.out"
    n=${frames#frames=}
    [ "$ended $error" = "ended=1 error=0" ] && [ "$n" -ge 95 ] && [ "$n" -le 105 ] ||
        fail "$name from 6 s: $(cat "$T/seek.out"), not the last 100 pictures"
    echo "ok: $name from 6 s: $n pictures to the end"
done
echo "PASS"
