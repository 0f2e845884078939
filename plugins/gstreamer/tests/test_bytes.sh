#!/bin/bash
# Byte exactness: filesrc ! ccnsink, then ccnsrc ! filesink gives the same
# file, and so does ccncat of the stream; ccnsrc plays, as plain bytes, a
# file that ccnputfile published and a stream that ccnseqwriter writes.
set -u
GST_TEST_TAG=gst-bytes
GST_TEST_PORT_BASE=35100
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
echo "PASS"
