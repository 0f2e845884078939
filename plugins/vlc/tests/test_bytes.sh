#!/bin/bash
# What VLC reads through the module is what was published, byte for byte:
# a file ccnputfile serves (as ccnx:///name, as ccnx:/name typed on the
# command line, and at an explicit version), a stream our ccnseqwriter
# writes, and a file ccnsink publishes from filesrc; the size the model
# reports is the file's, before the end for a finished stream. (The
# reference's ccnseqwriter: tests/interop/test_interop_vlc.sh.)
set -u
VLC_TEST_TAG=vlc-bytes
VLC_TEST_PORT_BASE=16500
. "$(dirname "$0")/lib.sh" || exit 1

start_ccnd
head -c 3000000 /dev/urandom >"$T/file"
chmod 644 "$T/file"

# ccnputfile
serve put "$B/ccnputfile" -r ccnx:/vt/file "$T/file"
wait_published ccnx:/vt/file
vlc_dump ccnx:///vt/file "$T/got"
cmp -s "$T/got" "$T/file" || fail "ccnx:///vt/file: VLC read $(stat -c %s "$T/got") bytes that differ"
(cd "$VLC_HOME" && vlc_dump ccnx:/vt/file "$T/got" -vv)
cmp -s "$T/got" "$T/file" || fail "ccnx:/vt/file typed: the bytes differ"
grep -q 'read as the name ccnx:/vt/file' "$T/vlc.log" ||
    fail "ccnx:/vt/file typed: the module did not say it read the name"
grep -q 'filesystem.*error' "$T/vlc.log" && fail "ccnx:/vt/file typed: VLC's file access complained first"
VERSION=$(timeout 10 "$B/ccnls" ccnx:/vt/file 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$VERSION" ] || fail "cannot list the version of ccnx:/vt/file"
vlc_dump "ccnx:///vt/file/$VERSION" "$T/got"
cmp -s "$T/got" "$T/file" || fail "ccnx:///vt/file/$VERSION: the bytes differ"
"$READ" ccnx:/vt/file >/dev/null 2>"$T/read.log" || fail "ccnv_read: $(cat "$T/read.log")"
grep -q "^size=3000000 live=0 meta=0" "$T/read.log" || fail "size at open: $(cat "$T/read.log")"
echo "ok: a ccnputfile file, by name, typed and versioned; its size at open"

# our ccnseqwriter, read while it writes
serve seq sh -c "\"$B/ccnseqwriter\" ccnx:/vt/seq <\"$T/file\""
wait_published ccnx:/vt/seq
vlc_dump ccnx:///vt/seq "$T/got"
cmp -s "$T/got" "$T/file" || fail "ccnx:///vt/seq: VLC read $(stat -c %s "$T/got") bytes that differ"
echo "ok: a ccnseqwriter stream"

# ccnsink from filesrc: the data is the file, the metadata beside it
if have_gst; then
    serve sink env LD_PRELOAD="$PRELOAD" gst-launch-1.0 -q filesrc location="$T/file" \
        ! ccnsink location=ccnx:/vt/sink linger=100
    wait_published ccnx:/vt/sink
    # a read to the end: the stream is complete once it returns
    "$READ" ccnx:/vt/sink >"$T/got" 2>"$T/read.log" || fail "ccnv_read: $(cat "$T/read.log")"
    cmp -s "$T/got" "$T/file" || fail "ccnv_read of the ccnsink stream: the bytes differ"
    "$READ" ccnx:/vt/sink >/dev/null 2>"$T/read.log"
    grep -q "^size=3000000 live=0 meta=1" "$T/read.log" || fail "ccnsink size at open: $(cat "$T/read.log")"
    vlc_dump ccnx:///vt/sink "$T/got"
    cmp -s "$T/got" "$T/file" || fail "ccnx:///vt/sink: VLC read $(stat -c %s "$T/got") bytes that differ"
    echo "ok: a ccnsink stream from filesrc, its size at open"
else
    echo "skipped: a ccnsink stream (the GStreamer plugin is not built)"
fi
echo "PASS"
