#!/bin/bash
# Errors a user understands, each provoked and its message checked: a
# location that is not a ccnx: URI, no ccnd (which socket was tried, how to
# start one), nothing under the name, a segment whose signature does not
# verify (which one), a producer that goes away mid-stream (an error after
# `timeout`, not a hang), a keystore that cannot be opened; and a viewer
# waiting on a silent producer stops at once when asked.
set -u
GST_TEST_TAG=gst-errors
GST_TEST_PORT_BASE=15250
. "$(dirname "$0")/lib.sh" || exit 1

# expect_error TAG TEXT PIPELINE...: gst-launch fails with TEXT in its output
expect_error() {
    local tag=$1 text=$2
    shift 2
    timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 "$@" >"$T/$tag.log" 2>&1 &&
        fail "$tag: the pipeline did not fail"
    grep -qF -- "$text" "$T/$tag.log" || fail "$tag: no '$text' in: $(cat "$T/$tag.log")"
}

# (a) no ccnd: the socket that was tried and how to start ccnd
expect_error noccnd "no ccnd at $CCN_LOCAL_SOCKNAME" ccnsrc location=ccnx:/gt/x ! fakesink
grep -q "ccndstart" "$T/noccnd.log" || fail "noccnd: the message does not say how to start ccnd"
expect_error noccnd2 "no ccnd at $CCN_LOCAL_SOCKNAME" fakesrc num-buffers=1 ! ccnsink location=ccnx:/gt/x

start_ccnd
# (b) not a ccnx: URI
expect_error notccnx 'location "http://example.com/x" is not a ccnx: URI' \
    ccnsrc location=http://example.com/x ! fakesink
expect_error notccnx2 'location "video" is not a ccnx: URI' fakesrc num-buffers=1 ! ccnsink location=video
expect_error nolocation 'location "" is not a ccnx: URI' ccnsrc ! fakesink

# (c) nothing under the name
expect_error nothing "nothing under ccnx:/gt/nothing" ccnsrc location=ccnx:/gt/nothing timeout=1 ! fakesink

# (d) a keystore that cannot be opened
expect_error keystore "Cannot open the keystore $T/nosuch.p12" \
    fakesrc num-buffers=1 ! ccnsink location=ccnx:/gt/k keystore="$T/nosuch.p12"

# (e) a segment that does not verify: a stream whose segment 1 was altered,
# served by a repository that stores without checking
head -c 10000 /dev/urandom >"$T/file"
timeout 60 "$B/ccnputfile" -x 30 ccnx:/gt/bad "$T/file" 2>"$T/put.log" &
BG_PIDS+=($!)
wait_published ccnx:/gt/bad
NAME=$(timeout 10 "$B/ccnls" ccnx:/gt/bad 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$NAME" ] || fail "cannot list the version of ccnx:/gt/bad"
for s in 0 1 2; do # segment n is %00 and then n's bytes
    comp=%00$([ $s -gt 0 ] && printf '%%%02X' $s)
    timeout 10 "$B/ccnpeek" "ccnx:/gt/bad/$NAME/$comp" >"$T/seg$s.ccnb" 2>/dev/null ||
        fail "cannot fetch segment $s"
done
kill "${BG_PIDS[-1]}"
wait "${BG_PIDS[-1]}" 2>/dev/null
# the last bytes of segment 1's content, well inside the object
OFF=$(($(stat -c %s "$T/seg1.ccnb") - 600))
cp "$T/seg1.ccnb" "$T/seg1.orig"
printf '\x5a' | dd of="$T/seg1.ccnb" bs=1 seek=$OFF conv=notrunc status=none
cmp -s "$T/seg1.ccnb" "$T/seg1.orig" && fail "the byte was not altered"
cat "$T/seg0.ccnb" "$T/seg1.ccnb" "$T/seg2.ccnb" >"$T/stream.ccnb"
"$B/ccndstop" >/dev/null 2>&1 # ccnd's store still holds the good segments
start_ccnd
export CCNR_DIRECTORY="$T/repo"
mkdir -p "$CCNR_DIRECTORY"
CCNR_VERIFY=0 timeout 60 "$B/ccnr" import "$T/stream.ccnb" >"$T/import.log" 2>&1 ||
    fail "ccnr import: $(cat "$T/import.log")"
start_ccnr
expect_error badsig "ccnx:/gt/bad/$NAME/%00%01" ccnsrc location="ccnx:/gt/bad/$NAME" ! fakesink
grep -qi "verif" "$T/badsig.log" || fail "badsig: the message does not say the signature failed"

# (f) the producer goes away mid-stream: an error once `timeout` passes
serve gone -q videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 \
    ! ccnsink location=ccnx:/gt/gone live-window=100
GONE_PID=${BG_PIDS[-1]}
wait_published ccnx:/gt/gone
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 ccnsrc location=ccnx:/gt/gone timeout=2 \
    ! fakesink sync=false >"$T/gone.log" 2>&1 &
VIEWER=$!
sleep 1 # the viewer is playing: the sender now stops for good
pkill -KILL -P "$GONE_PID" # gst-launch-1.0, under its timeout
kill -KILL "$GONE_PID"
wait "$VIEWER" && fail "the viewer did not fail when its producer went away"
grep -q "the stream stopped" "$T/gone.log" || fail "gone: $(cat "$T/gone.log")"

# (g) stopping a viewer that waits for a producer that went away (timeout
# not reached) is prompt: PLAYING to NULL does not wait for the network
serve stuck -q videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 \
    ! ccnsink location=ccnx:/gt/stuck live-window=100
STUCK_PID=${BG_PIDS[-1]}
wait_published ccnx:/gt/stuck
LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 ccnsrc location=ccnx:/gt/stuck timeout=600 \
    ! fakesink sync=false >"$T/stuck.log" 2>&1 &
VIEWER=$!
BG_PIDS+=($VIEWER)
while ! grep -q "Setting pipeline to PLAYING" "$T/stuck.log"; do
    kill -0 "$VIEWER" 2>/dev/null || fail "stuck: the viewer ended early: $(cat "$T/stuck.log")"
    sleep 0.05
done
pkill -KILL -P "$STUCK_PID"
kill -KILL "$STUCK_PID"
kill -INT "$VIEWER"
for _ in $(seq 200); do kill -0 "$VIEWER" 2>/dev/null || break; sleep 0.05; done
kill -0 "$VIEWER" 2>/dev/null && fail "the viewer did not stop within 10 s of an interrupt"
grep -q "Freeing pipeline" "$T/stuck.log" || fail "stuck: $(cat "$T/stuck.log")"
echo "PASS"
