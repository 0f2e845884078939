#!/bin/bash
# ccnexplore over the reference's repository and producers, on its ccnd:
# names the reference's ccnr lists (its name enumeration), a file its Java
# ccnputfile stored there (segments beside a header under %C1.META.M, which
# once gave the header's 66 bytes as the file's size), a stream its
# ccnseqwriter stored with -r, and a stream a live ccnseqwriter serves (its
# FinalBlockID comes only with the final segment). Each shows its real size
# or none, never a wrong one; the same through our ccnd joined to the
# reference's.
set -u
INTEROP_TAG=interop-explore
INTEROP_PORT_BASE=18400
. "$(dirname "$0")/interop_lib.sh"

start_ccnd B ref
start_ccnd A ours
link A B ccnx:/ie
mkdir -p "$T/ref-repo"
bg ref-ccnr env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" CCNX_DIR="$T/ref-user" \
    CCNR_DIRECTORY="$T/ref-repo" CCNR_DEBUG=INFO "$REF/bin/ccnr"
wait_for 30 grep -q "Adding listener for policy" "$T/ref-ccnr.log" || fail "the reference's ccnr did not start"

head -c 5000 /dev/urandom >"$T/f5000"
head -c 12288 /dev/urandom >"$T/f12288"
on B ref ccnseqwriter -r ccnx:/ie/repo/seq.bin <"$T/f12288" || fail "ccnseqwriter -r"
JAVA=0
if have_java; then
    JAVA=1
    TOOL_TIMEOUT=120 on B ref ccnputfile ccnx:/ie/repo/java.bin "$T/f5000" >"$T/jput.log" 2>&1 ||
        fail "the Java ccnputfile: $(tail -n 3 "$T/jput.log")"
else
    echo "SKIP case: the Java ccnputfile's file (no Java runtime)"
fi
bg_in live "$T/f5000" env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" \
    CCNX_DIR="$T/ref-user" "$REF/bin/ccnseqwriter" -b 1000 ccnx:/ie/live/stream.bin

# list NODE: ccnexplore --list of ccnx:/ie two levels down, through NODE
list() {
    on "$1" ours ccnexplore --list --depth 2 --wait 2000 ccnx:/ie >"$T/list.out" 2>"$T/list.err" ||
        fail "ccnexplore --list on $1: $(cat "$T/list.err")"
}
# line NAME: the --list line of NAME
line() { grep -E "^    $1 " "$T/list.out"; }

for node in B A; do
    list $node
    # The reference's ccnseqwriter ends 12,288 bytes either with 3 segments
    # (the third carries FinalBlockID) or with an empty fourth one, as its
    # last read met the end of input or not; what ccncat reads is the truth.
    on $node ours ccncat -v ccnx:/ie/repo/seq.bin 2>"$T/cat.err" | cmp -s - "$T/f12288" ||
        fail "ccncat of the ccnseqwriter -r stream on $node: $(cat "$T/cat.err")"
    segs=$(sed -nE 's/.* bytes, ([0-9]+) segments in .*/\1/p' "$T/cat.err")
    [ -n "$segs" ] || fail "ccncat -v gave no segment count: $(cat "$T/cat.err")"
    line seq.bin | grep -q "$segs segments, 12.3 kB" ||
        fail "on $node, the ccnseqwriter -r stream ($segs segments): $(line seq.bin) (in: $(cat "$T/list.out"))"
    if [ "$JAVA" = 1 ]; then
        line java.bin | grep -qE "B " && ! line java.bin | grep -q "5.0 kB" &&
            fail "on $node, the Java file shows a wrong size: $(line java.bin)"
        line java.bin | grep -q "2 segments, 5.0 kB" ||
            fail "on $node, the Java file: $(line java.bin) (in: $(cat "$T/list.out"))"
    fi
    # the live stream: its size once the final segment is known, or none
    live=$(line stream.bin)
    [ -n "$live" ] || fail "on $node, the live stream is not listed: $(cat "$T/list.out")"
    if echo "$live" | grep -qE "[0-9.]+ (B|kB)"; then
        echo "$live" | grep -q "5.0 kB" || fail "on $node, the live stream shows a wrong size: $live"
    fi
    ok "ccnexplore through $node: $(line seq.bin | sed 's/  */ /g'); $(line java.bin | sed 's/  */ /g'); $(echo "$live" | sed 's/  */ /g')"
done
echo "all explorer interop checks passed"
