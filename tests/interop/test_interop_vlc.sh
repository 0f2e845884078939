#!/bin/bash
# The VLC module with the reference's programs: VLC reads, byte for byte,
# a file the reference's ccnseqwriter writes through the reference's ccnd B
# (on B, and through our ccnd A joined to it) and through our ccnd; a file
# our ccnputfile serves through the reference's ccnd; and, through the
# reference's ccnd, a live VP8/WebM stream from ccnsink that it decodes.
set -u
INTEROP_TAG=interop-vlc
INTEROP_PORT_BASE=19000
. "$(dirname "$0")/interop_lib.sh"
[ -n "${CCNV_PLUGIN_DIR:-}" ] || { echo "SKIP: the VLC module is not built here"; exit 77; }
CHECK=${CCNX_TESTS_BIN:?}/ccnv_check
export VLC_PLUGIN_PATH=$CCNV_PLUGIN_DIR
[ -z "${CCNV_PRELOAD:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

start_ccnd B ref
start_ccnd A ours
link A B ccnx:/iv

# dump NODE NAME: VLC (libvlc, with VLC's dump demuxer) reads NAME through
# NODE's ccnd into $T/got
dump() {
    rm -f "$T/got"
    on "$1" env LD_PRELOAD="${CCNV_PRELOAD:-}" "$CHECK" -t 120 "ccnx://$2" :demux=dump \
        ":demuxdump-file=$T/got" >"$T/check.out" 2>"$T/check.log" ||
        fail "VLC on $1 reading $2: $(cat "$T/check.out") $(tail -n 5 "$T/check.log")"
}
same() { cmp -s "$T/got" "$T/file" || fail "$1: VLC read $(stat -c %s "$T/got" 2>/dev/null) bytes that differ"; }

head -c 3000000 /dev/urandom >"$T/file"

# ---- the reference's ccnseqwriter on its ccnd ----
bg_in refseq "$T/file" env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" \
    CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" ccnx:/iv/refseq
dump B /iv/refseq
same "the reference's ccnseqwriter on B"
dump A /iv/refseq
same "the reference's ccnseqwriter through A"
ok "VLC reads the reference's ccnseqwriter whole, on its ccnd and through ours"

# ---- the reference's ccnseqwriter on our ccnd ----
bg_in refseqa "$T/file" env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" \
    CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" ccnx:/iv/refseqa
dump A /iv/refseqa
same "the reference's ccnseqwriter on A"
ok "VLC reads the reference's ccnseqwriter whole on our ccnd"

# ---- our ccnputfile on the reference's ccnd ----
on B env CCNX_DIR="$T/our-user" timeout 120 "$B/ccnputfile" -r ccnx:/iv/put "$T/file" \
    >"$T/put.log" 2>&1 &
BG_PIDS+=($!)
wait_for 30 on B ours ccnpeek -w 1 ccnx:/iv/put >/dev/null 2>&1 || fail "ccnputfile published nothing on B"
dump B /iv/put
same "our ccnputfile on B"
ok "VLC reads our ccnputfile's file through the reference's ccnd"

# ---- a live ccnsink stream through the reference's ccnd ----
if gst_plugin && LD_PRELOAD="${CCNGST_PRELOAD:-}" gst-inspect-1.0 vp8enc >/dev/null 2>&1; then
    bg sink env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" CCNX_DIR="$T/our-user" \
        LD_PRELOAD="${CCNGST_PRELOAD:-}" timeout 120 gst-launch-1.0 -q videotestsrc is-live=true \
        ! video/x-raw,width=160,height=120,framerate=25/1 ! vp8enc deadline=1 keyframe-max-dist=10 \
        ! webmmux streamable=true ! ccnsink location=ccnx:/iv/live live-window=3000
    wait_for 30 on B ours ccnpeek -w 1 ccnx:/iv/live >/dev/null 2>&1 || fail "ccnsink published nothing on B"
    on B env LD_PRELOAD="${CCNV_PRELOAD:-}" "$CHECK" -v -n 40 -t 60 ccnx:///iv/live \
        >"$T/live.out" 2>"$T/live.log" || fail "live on B: $(cat "$T/live.out") $(tail -n 5 "$T/live.log")"
    grep -q "live, a ccnsink stream video/webm" "$T/live.log" || fail "live on B: not joined live"
    ok "VLC joins a live ccnsink stream through the reference's ccnd: $(cat "$T/live.out")"
else
    echo "SKIP case: a live ccnsink stream (no GStreamer plugin or vp8enc)"
fi
echo "PASS"
