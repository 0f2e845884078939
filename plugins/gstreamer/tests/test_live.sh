#!/bin/bash
# Live streams: a viewer that starts mid-stream joins at a keyframe
# segment and decodes with no error; several viewers of one live stream
# cost the sender about one send of each segment, the rest coming from
# ccnd's store (Interests answered / segments made at most 1.1).
set -u
GST_TEST_TAG=gst-live
GST_TEST_PORT_BASE=15200
. "$(dirname "$0")/lib.sh" || exit 1
start_ccnd

# live_sender TAG URI FRAMES: VP8 in WebM from a live source, a keyframe
# every half second, its messages (-m: the sink's statistics) in TAG.log
live_sender() {
    serve "$1" -m videotestsrc is-live=true num-buffers="$3" \
        ! video/x-raw,width=160,height=120,framerate=30/1 \
        ! vp8enc deadline=1 keyframe-max-dist=15 ! webmmux streamable=true \
        ! ccnsink location="$2" live-window=2000 linger=5
}
# sent_buffers LOG: the newest buffer count the sink posted
sent_buffers() { sed -n 's/.*ccnsink-stats, buffers=(guint64)\([0-9]*\).*/\1/p' "$1" | tail -n 1; }
VIEW="matroskademux ! vp8dec ! appsink name=out sync=false"

# (a) join mid-stream: once the sender has sent two seconds
live_sender join ccnx:/gt/join 300
for _ in $(seq 300); do
    [ "$(sent_buffers "$T/join.log")" -ge 60 ] 2>/dev/null && break
    sleep 0.1
done
[ "$(sent_buffers "$T/join.log")" -ge 60 ] 2>/dev/null || fail "the live sender did not start"
GST_DEBUG=ccnsrc:4 "$CHECK" count "ccnsrc location=ccnx:/gt/join ! $VIEW" >"$T/j.out" 2>"$T/j.log" ||
    fail "live join: $(tail -n 3 "$T/j.log")"
FROM=$(sed -n 's/.*live, from segment \([0-9]*\).*/\1/p' "$T/j.log")
[ -n "$FROM" ] && [ "$FROM" -gt 0 ] || fail "the viewer did not join mid-stream (segment '$FROM')"
read -r _ n _ e _ w _ <"$T/j.out"
[ "$e" = 0 ] && [ "$w" = 0 ] || fail "live join: $(cat "$T/j.out")"
[ "$n" -ge 60 ] && [ "$n" -lt 300 ] || fail "live join decoded $n frames: $(cat "$T/j.out")"

# (b) the cache effect, with 2 and then 5 viewers from the start
for viewers in 2 5; do
    live_sender "cache$viewers" "ccnx:/gt/cache$viewers" 150
    wait_published "ccnx:/gt/cache$viewers"
    pids=()
    for i in $(seq "$viewers"); do
        "$CHECK" count "ccnsrc location=ccnx:/gt/cache$viewers ! $VIEW" \
            >"$T/v$viewers-$i.out" 2>"$T/v$viewers-$i.log" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || fail "a viewer of $viewers failed"; done
    for _ in $(seq 100); do
        grep -q "ccnsink-stats.*segments=" "$T/cache$viewers.log" && ! kill -0 "${BG_PIDS[-1]}" 2>/dev/null &&
            break
        sleep 0.1
    done
    line=$(grep "ccnsink-stats" "$T/cache$viewers.log" | tail -n 1)
    segs=$(echo "$line" | sed -n 's/.*segments=(guint64)\([0-9]*\).*/\1/p')
    sent=$(echo "$line" | sed -n 's/.*objects-sent=(guint64)\([0-9]*\).*/\1/p')
    [ -n "$segs" ] && [ "$segs" -gt 0 ] || fail "no statistics from the sink: $line"
    echo "$viewers viewers: $sent segments sent for $segs made"
    [ $((sent * 10)) -le $((segs * 11)) ] ||
        fail "$viewers viewers: the sink sent $sent objects for $segs segments (more than 1.1 each)"
done
echo "PASS"
