#!/bin/bash
# A live VP8/WebM stream from ccnsink plays in VLC: a viewer that joins
# seconds after the start begins at the keyframe before the newest one (or,
# with ccnx-live-join-back=0, at the newest), after the container's headers, and VLC decodes and shows its pictures
# (counted by ccnv_check's video output); ccnx-mode=on-demand reads the
# same stream from its first segment; and a second viewer at once costs
# the sender no second copy of what the first one fetched (ccnd's store),
# though a viewer after it still finds the sender's newest segment, not
# the one ccnd's store kept from the first.
set -u
VLC_TEST_TAG=vlc-live
VLC_TEST_PORT_BASE=16600
. "$(dirname "$0")/lib.sh" || exit 1
have_gst || skip "the GStreamer plugin (ccnsink) is not built"
have_vp8enc || skip "no vp8enc (gstreamer1.0-plugins-good)"

start_ccnd
serve sink env LD_PRELOAD="$PRELOAD" gst-launch-1.0 -q videotestsrc is-live=true \
    ! video/x-raw,width=160,height=120,framerate=25/1 ! vp8enc deadline=1 keyframe-max-dist=10 \
    ! webmmux streamable=true ! ccnsink location=ccnx:/vt/live live-window=3000
wait_published ccnx:/vt/live
VERSION=$(timeout 10 "$B/ccnls" ccnx:/vt/live 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$VERSION" ] || fail "cannot list the version of ccnx:/vt/live"
# segment 100 exists (ccnsink answers the Interest once it has made it)
timeout 60 "$B/ccnpeek" -w 50 "ccnx:/vt/live/$VERSION/%00%64" >/dev/null 2>&1 ||
    fail "the live stream did not reach segment 100"

# live_join LOG: "START NEWEST KEY", the segment joined at, the newest
# segment and the newest keyframe's segment when the module found the stream
live_join() {
    local line key
    line=$(grep -o 'from segment [0-9]*: live, a ccnsink stream video/webm (newest [0-9]*)' "$1")
    key=$(grep -o 'live: the newest keyframe starts segment [0-9]*' "$1" | grep -o '[0-9]*$')
    [ -n "$line" ] && [ -n "$key" ] || fail "the module did not join live: $(grep ccnx "$1")"
    read -r _ _ start _ _ _ _ _ _ newest <<<"${line//[:()]/}"
    echo "$start $newest $key"
}

# joining live: 40 pictures decoded and shown, from the keyframe before the
# newest one past segment 100, so that the first shows at once
check -v -n 40 -t 60 ccnx:///vt/live >"$T/live.out" 2>"$T/live.log" ||
    fail "live: $(cat "$T/live.out") $(tail -n 5 "$T/live.log")"
read -r frames first _ error <"$T/live.out"
[ "$error" = error=0 ] || fail "live: $(cat "$T/live.out")"
read -r start newest key <<<"$(live_join "$T/live.log")"
# a keyframe every 10 frames: 40-odd segments from one to the next
[ "$newest" -ge 100 ] && [ "$key" -le "$newest" ] && [ $((newest - key)) -lt 100 ] ||
    fail "live: the newest keyframe was at segment $key when the newest was $newest"
[ "$start" -lt "$key" ] && [ $((key - start)) -lt 100 ] ||
    fail "live: joined at segment $start, not the keyframe before the newest ($key)"
# VLC's Matroska demuxer took it: it refuses a WebM stream that cannot seek,
# and libavformat's probe, used then, waits for data at the live rate
grep -q "mkv error" "$T/live.log" && fail "live: the Matroska demuxer refused the stream: $(grep mkv "$T/live.log")"
echo "ok: live from segment $start, the keyframe before the newest ($key, newest $newest): $frames, $first"

# ccnx-live-join-back=0: at the newest keyframe itself
check -v -n 40 -t 60 ccnx:///vt/live :ccnx-live-join-back=0 >"$T/edge.out" 2>"$T/edge.log" ||
    fail "live at the newest keyframe: $(cat "$T/edge.out") $(tail -n 5 "$T/edge.log")"
first_newest=$newest
read -r start newest key <<<"$(live_join "$T/edge.log")"
[ "$start" = "$key" ] || fail "ccnx-live-join-back=0 joined at segment $start, not the newest keyframe ($key)"
# ccnd's store holds the metadata the first viewer read; the second must
# still find the sender's newest, seconds later, not that one
[ "$newest" -gt "$first_newest" ] ||
    fail "the second viewer found segment $newest as the newest, as the first did ($first_newest): an old answer from ccnd's store"
echo "ok: ccnx-live-join-back=0: from the newest keyframe, segment $start (newest $newest): $(cat "$T/edge.out")"

# the same stream from its first segment
check -v -n 40 -t 60 ccnx:///vt/live :ccnx-mode=on-demand >"$T/demand.out" 2>"$T/demand.log" ||
    fail "on demand: $(cat "$T/demand.out") $(tail -n 5 "$T/demand.log")"
grep -q "from segment 0: from the start" "$T/demand.log" ||
    fail "on demand: not read from the start: $(grep ccnx "$T/demand.log")"
echo "ok: on demand from segment 0: $(cat "$T/demand.out")"
echo "PASS"
