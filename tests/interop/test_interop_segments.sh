#!/bin/bash
# The reference's consumers read whole what our publishers serve, and ours
# what the reference's publishers serve, in whatever order the segments
# arrive. The reference's ccn_fetch (behind its ccncat) takes the first
# FinalBlockID it sees for the end, and until the final segment itself has
# arrived treats the segment before it as the last: a publisher that put
# FinalBlockID on earlier segments lost the file's tail, silently, in some
# runs. So each file is read INTEROP_READS times (default 20) by ccncat and
# ccncatchunks2, on our ccnd A where it is published and through the
# reference's ccnd B joined to A over UDP; files end in a partial and in a
# full segment; the publishers are ccnputfile serving directly, ccnseqwriter,
# our ccnr (stored by ccnputfile) and, when the plugin is built, ccnsink.
# The other way round, our ccncat and ccngetfile read the reference's
# ccnseqwriter, whose FinalBlockID comes only with the final segment.
set -u
INTEROP_TAG=interop-seg
INTEROP_PORT_BASE=18000
. "$(dirname "$0")/interop_lib.sh"
READS=${INTEROP_READS:-20}
SIZES="300000 299008" # 73 full segments and 992 bytes; 73 full segments

start_ccnd A ours
start_ccnd B ref
link B A ccnx:/tr
link A B ccnx:/rs

for s in $SIZES; do head -c "$s" /dev/urandom >"$T/f$s"; done

# versioned_name LOG: the URI a -v publisher of ours reported
versioned_name() { sed -n 's/^ccn[a-z]*: publishing \(.* as \)\{0,1\}\(ccnx:[^ ]*\)$/\2/p' "$1"; }

# wait_name TAG: until publisher TAG reported its versioned name; prints it
wait_name() {
    local v
    for _ in $(seq 300); do
        v=$(versioned_name "$T/$1.log")
        [ -n "$v" ] && { echo "$v"; return 0; }
        sleep 0.05
    done
    fail "$1: no versioned name reported"
}

# check_reads TAG URI VURI FILE: the reference's consumers read FILE whole,
# READS times each, on A and on B.
check_reads() {
    local tag=$1 uri=$2 vuri=$3 file=$4 want i node got
    want=$(stat -c %s "$file")
    for i in $(seq "$READS"); do
        for node in A B; do
            on $node ref ccncat "$uri" >"$T/out" 2>"$T/cat.err" ||
                fail "$tag: ccncat on $node exit $? (read $i)"
            cmp -s "$T/out" "$file" ||
                fail "$tag: ccncat on $node read $(stat -c %s "$T/out") of $want bytes (read $i)"
            on $node ref ccncatchunks2 -s "$vuri" >"$T/out" 2>"$T/cat.err" ||
                fail "$tag: ccncatchunks2 on $node exit $? (read $i)"
            cmp -s "$T/out" "$file" ||
                fail "$tag: ccncatchunks2 on $node read $(stat -c %s "$T/out") of $want bytes (read $i)"
        done
    done
    ok "$tag: ccncat and ccncatchunks2 read $want bytes whole $READS times on A and on B"
}

# ccnputfile serving directly, and ccnseqwriter.
for s in $SIZES; do
    bg put$s env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" CCNX_DIR="$T/our-user" \
        "$B/ccnputfile" -r -v -x 300 "ccnx:/tr/put/$s" "$T/f$s"
    check_reads "ccnputfile -r ($s bytes)" "ccnx:/tr/put/$s" "$(wait_name put$s)" "$T/f$s"
    bg_in seq$s "$T/f$s" env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" \
        CCNX_DIR="$T/our-user" "$B/ccnseqwriter" -v "ccnx:/tr/seq/$s"
    check_reads "ccnseqwriter ($s bytes)" "ccnx:/tr/seq/$s" "$(wait_name seq$s)" "$T/f$s"
done

# Our repository, storing what ccnputfile sends it; read once the
# publisher has gone, so every answer comes from the repository or a cache.
mkdir -p "$T/repo"
bg ccnr env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" CCNX_DIR="$T/our-user" \
    CCNR_DIRECTORY="$T/repo" CCNR_DEBUG=INFO "$B/ccnr"
wait_for 30 grep -q "ccnr: INFO: serving" "$T/ccnr.log" || fail "our ccnr did not start"
for s in $SIZES; do
    on A ours ccnputfile -v "ccnx:/tr/repo/$s" "$T/f$s" 2>"$T/repoput$s.log" ||
        fail "ccnputfile into ccnr: $(tail -n 2 "$T/repoput$s.log")"
    check_reads "ccnr ($s bytes)" "ccnx:/tr/repo/$s" "$(versioned_name "$T/repoput$s.log")" "$T/f$s"
done

# ccnsink, from a file.
if gst_plugin; then
    for s in $SIZES; do
        bg sink$s env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" \
            CCNX_DIR="$T/our-user" LD_PRELOAD="${CCNGST_PRELOAD:-}" gst-launch-1.0 -q \
            filesrc location="$T/f$s" ! ccnsink location="ccnx:/tr/sink/$s" linger=300
        wait_for 30 on A ours ccnpeek -w 1 "ccnx:/tr/sink/$s" >/dev/null ||
            fail "ccnsink published nothing"
        # the stream's versioned name: its one version, as ccnls lists it
        vuri=ccnx:/tr/sink/$s/$(on A ours ccnls "ccnx:/tr/sink/$s" 2>/dev/null | awk 'NR==1{print $1}')
        [ "$vuri" != "ccnx:/tr/sink/$s/" ] || fail "ccnsink: no version listed for the stream"
        check_reads "ccnsink ($s bytes)" "ccnx:/tr/sink/$s" "$vuri" "$T/f$s"
    done
else
    echo "SKIP case: ccnsink (the GStreamer plugin is not built here)"
fi

# The other way: the reference's ccnseqwriter on B (FinalBlockID on its final
# segment only), read by our ccncat and ccngetfile on B and through A.
for s in $SIZES; do
    bg_in refseq$s "$T/f$s" env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" \
        CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" "ccnx:/rs/seq/$s"
    for i in $(seq "$READS"); do
        for node in B A; do
            on $node ours ccncat "ccnx:/rs/seq/$s" >"$T/out" 2>"$T/cat.err" ||
                fail "our ccncat of the reference's ccnseqwriter on $node: exit $?"
            cmp -s "$T/out" "$T/f$s" || fail "our ccncat on $node read $(stat -c %s "$T/out") of $s"
            rm -f "$T/got"
            on $node ours ccngetfile "ccnx:/rs/seq/$s" "$T/got" 2>"$T/get.err" ||
                fail "our ccngetfile of the reference's ccnseqwriter on $node: exit $?"
            cmp -s "$T/got" "$T/f$s" || fail "our ccngetfile on $node: the file differs"
        done
    done
    ok "the reference's ccnseqwriter ($s bytes): our ccncat and ccngetfile read it whole $READS times on B and A"
done
echo "all segment interop checks passed"
