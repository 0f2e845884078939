#!/bin/bash
# Byte exactness: filesrc ! ccnsink, then ccnsrc ! filesink gives the same
# file, and so does ccncat of the stream; ccnsrc plays, as plain bytes, a
# file that ccnputfile published and a stream the reference's ccnseqwriter
# wrote; with repo=true a repository stores the stream and plays it alone.
set -u
GST_TEST_TAG=gst-bytes
GST_TEST_PORT_BASE=15100
. "$(dirname "$0")/lib.sh" || exit 1
start_ccnd
head -c 3000000 /dev/urandom >"$T/in"

# (a) ccnsink serves a file; ccnsrc and ccncat give it back
serve sink -q filesrc location="$T/in" ! ccnsink location=ccnx:/gt/file linger=60
wait_published ccnx:/gt/file
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q ccnsrc location=ccnx:/gt/file \
    ! filesink location="$T/out" >"$T/src.log" 2>&1 || fail "ccnsrc ! filesink"
cmp -s "$T/in" "$T/out" || fail "ccnsrc gave other bytes than ccnsink received"
timeout 30 "$B/ccncat" ccnx:/gt/file >"$T/cat" 2>"$T/cat.log" || fail "ccncat of the stream"
cmp -s "$T/in" "$T/cat" || fail "ccncat gave other bytes than ccnsink received"

# (b) a file ccnputfile serves: no metadata, played like filesrc
timeout 120 "$B/ccnputfile" -x 60 ccnx:/gt/put "$T/in" 2>"$T/put.log" &
BG_PIDS+=($!)
wait_published ccnx:/gt/put
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q ccnsrc location=ccnx:/gt/put \
    ! filesink location="$T/out2" >"$T/src2.log" 2>&1 || fail "ccnsrc of ccnputfile's file"
cmp -s "$T/in" "$T/out2" || fail "ccnsrc gave other bytes than ccnputfile published"

# (c) the element's name as its location, as in "ccnsrc name=ccnx:/video"
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q ccnsrc name=ccnx:/gt/put \
    ! filesink location="$T/out3" >"$T/src3.log" 2>&1 || fail "ccnsrc name=ccnx:/..."
cmp -s "$T/in" "$T/out3" || fail "ccnsrc name=ccnx:/... gave other bytes"

# (d) repo=true: the pipeline ends once a repository holds the whole stream,
# which then plays with the sink gone (and ccnd's store emptied)
export CCNR_DIRECTORY="$T/repo" CCNR_DEBUG=INFO
mkdir -p "$CCNR_DIRECTORY"
start_ccnr
VIDEO="videotestsrc num-buffers=60 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1"
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -m $VIDEO \
    ! ccnsink location=ccnx:/gt/repo repo=true linger=0 >"$T/repo.log" 2>&1 || fail "ccnsink repo=true"
grep -q "ccnsink-repo, complete=" "$T/repo.log" || fail "the repository did not confirm the stream"
"$B/ccndstop" >/dev/null 2>&1
start_ccnd
for _ in $(seq 200); do # ccnr reconnects and registers again by itself
    timeout 5 "$B/ccnpeek" -w 1 ccnx:/gt/repo >/dev/null 2>&1 && break
done
LD_PRELOAD= "$CHECK" compare "$VIDEO ! appsink name=out sync=false" \
    "ccnsrc location=ccnx:/gt/repo ! appsink name=out sync=false" >"$T/fromrepo.log" 2>&1 ||
    fail "the stream from the repository differs: $(tail -n 3 "$T/fromrepo.log")"

# (e) a stream the reference's ccnseqwriter wrote (the vectors), imported
# into the repository: ccnsrc plays its bytes, segment by segment
V=${CCNX_VECTORS:?}
cat "$V"/co_stream_seg0.ccnb "$V"/co_stream_seg1.ccnb "$V"/co_stream_seg2.ccnb >"$T/ref.ccnb"
timeout 60 "$B/ccnr" import "$T/ref.ccnb" >"$T/import.log" 2>&1 || fail "ccnr import: $(cat "$T/import.log")"
REF=ccnx:/example/vec/stream/%FD%06%B1%12%1D%95%18
: >"$T/ref.want"
for seg in %00 %00%01 %00%02; do
    timeout 10 "$B/ccnpeek" -c "$REF/$seg" >>"$T/ref.want" 2>"$T/refpeek.log" ||
        fail "the reference's segment $seg is not served"
done
timeout 60 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q ccnsrc location=ccnx:/example/vec/stream \
    ! filesink location="$T/ref.got" >"$T/refsrc.log" 2>&1 || fail "ccnsrc of the reference's stream"
cmp -s "$T/ref.want" "$T/ref.got" || fail "ccnsrc gave other bytes than the reference's stream holds"
echo "PASS"
