#!/bin/bash
# The GStreamer elements with the reference's programs: ccnsink and ccnsrc
# through the reference's ccnd B (and through our ccnd A joined to it);
# the reference's ccncat reading what ccnsink serves, whole, also after
# ccnsrc read it first (the cached copies once ended its reading one
# segment early); ccnsrc reading files and live streams the reference's
# ccnseqwriter publishes; the reference's ccncat joining a live ccnsink
# stream.
set -u
INTEROP_TAG=interop-gst
INTEROP_PORT_BASE=18500
. "$(dirname "$0")/interop_lib.sh"
gst_plugin || { echo "SKIP: the GStreamer plugin is not built here"; exit 77; }
CHECK=${CCNX_TESTS_BIN:?}/ccngst_check

start_ccnd B ref
start_ccnd A ours
link A B ccnx:/ig

# gst NODE ARGS...: gst-launch-1.0 as a client of NODE (in the foreground)
gst() {
    local node=$1
    shift
    on "$node" env CCNX_DIR="$T/our-user" LD_PRELOAD="${CCNGST_PRELOAD:-}" timeout 120 \
        gst-launch-1.0 -q "$@"
}
# gst_bg TAG NODE ARGS...: the same in the background, output in TAG.log
gst_bg() {
    local tag=$1 node=$2 port
    shift 2
    eval "port=\$PORT_$node"
    bg "$tag" env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$node.sock" CCNX_DIR="$T/our-user" \
        LD_PRELOAD="${CCNGST_PRELOAD:-}" timeout 120 gst-launch-1.0 -m "$@"
}
# frames NODE PIPELINE: ccngst_check count through NODE; prints the decoded count
frames() {
    on "$1" env CCNX_DIR="$T/our-user" LD_PRELOAD="${CCNGST_PRELOAD:-}" CCNGST_CHECK_TIMEOUT=60 \
        "$CHECK" count "$2" >"$T/count.out" 2>"$T/count.log" || fail "ccnsrc on $1: $(tail -n 3 "$T/count.log")"
    read -r _ n _ e _ _ _ <"$T/count.out"
    [ "$e" = 0 ] || fail "ccnsrc on $1: $(cat "$T/count.out")"
    echo "$n"
}
published() { on "$1" ours ccnpeek -w 1 "$2" >/dev/null 2>&1; }

# ---- a file through ccnsink, on the reference's ccnd ----
head -c 3000000 /dev/urandom >"$T/file"
gst_bg sink B filesrc location="$T/file" ! ccnsink location=ccnx:/ig/file linger=100
wait_for 30 published B ccnx:/ig/file || fail "ccnsink published nothing"
gst B ccnsrc location=ccnx:/ig/file ! filesink location="$T/got" || fail "ccnsrc on B"
cmp -s "$T/got" "$T/file" || fail "ccnsrc on B: the file differs"
for i in 1 2 3 4 5 6; do
    on B ref ccncat ccnx:/ig/file >"$T/out" || fail "the reference's ccncat after ccnsrc"
    cmp -s "$T/out" "$T/file" || fail "the reference's ccncat read $(stat -c %s "$T/out") of 3000000 bytes after ccnsrc (run $i)"
done
gst A ccnsrc location=ccnx:/ig/file ! filesink location="$T/got" || fail "ccnsrc through A"
cmp -s "$T/got" "$T/file" || fail "ccnsrc through A: the file differs"
on A ref ccncat ccnx:/ig/file >"$T/out" || fail "the reference's ccncat through A"
cmp -s "$T/out" "$T/file" || fail "the reference's ccncat through A read $(stat -c %s "$T/out") bytes"
ok "a file through ccnsink on the reference's ccnd: ccnsrc and its ccncat (6 times, after ccnsrc) read it whole, on B and through A"

# ---- a file the reference's ccnseqwriter serves ----
bg_in refseq "$T/file" env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" \
    CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" ccnx:/ig/refseq
gst A ccnsrc location=ccnx:/ig/refseq ! filesink location="$T/got" || fail "ccnsrc of ccnseqwriter through A"
cmp -s "$T/got" "$T/file" || fail "ccnsrc of the reference's ccnseqwriter through A: the file differs"
gst B ccnsrc location=ccnx:/ig/refseq ! filesink location="$T/got" || fail "ccnsrc of ccnseqwriter on B"
cmp -s "$T/got" "$T/file" || fail "ccnsrc of the reference's ccnseqwriter on B: the file differs"
ok "ccnsrc reads the reference's ccnseqwriter whole, on B and through A"

# ---- live: VP8 in WebM ----
VIDEO="videotestsrc is-live=true num-buffers=150 ! video/x-raw,width=160,height=120,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=15 ! webmmux streamable=true"
VIEW="matroskademux ! vp8dec ! appsink name=out sync=false"
# the reference's ccnseqwriter fed by a live encoder; ccnsrc decodes it
bg live-ref sh -c "LD_PRELOAD='${CCNGST_PRELOAD:-}' gst-launch-1.0 -q $VIDEO ! fdsink fd=1 |
    env CCN_LOCAL_PORT=$PORT_B CCN_LOCAL_SOCKNAME='$T/B.sock' CCNX_DIR='$T/ref-user' \
    '$REF/bin/ccnseqwriter' -b 4096 ccnx:/ig/live-ref"
wait_for 30 published A ccnx:/ig/live-ref || fail "the reference's ccnseqwriter published nothing"
n=$(frames A "ccnsrc location=ccnx:/ig/live-ref ! $VIEW")
[ "$n" -ge 100 ] || fail "ccnsrc decoded $n frames of the reference's live ccnseqwriter"
ok "ccnsrc decodes a live VP8/WebM stream the reference's ccnseqwriter serves ($n frames)"
# ccnsink live on the reference's ccnd; ccnsrc through A, its ccncat on B
gst_bg live B $VIDEO ! ccnsink location=ccnx:/ig/live live-window=2000 linger=20
wait_for 30 published B ccnx:/ig/live || fail "the live ccnsink published nothing"
n=$(frames A "ccnsrc location=ccnx:/ig/live ! $VIEW")
[ "$n" -ge 30 ] || fail "ccnsrc through A decoded $n frames of the live ccnsink stream"
TOOL_TIMEOUT=8 on B ref ccncat ccnx:/ig/live >"$T/live.webm" 2>/dev/null
[ "$(head -c 4 "$T/live.webm" | od -An -tx1 | tr -d ' ')" = 1a45dfa3 ] ||
    fail "the reference's ccncat of the live stream does not start with the WebM header"
[ "$(stat -c %s "$T/live.webm")" -gt 10000 ] || fail "the reference's ccncat read $(stat -c %s "$T/live.webm") bytes"
ok "a live ccnsink stream on the reference's ccnd: ccnsrc through A decodes $n frames; its ccncat reads the WebM from the start"
echo "all GStreamer interop checks passed"
