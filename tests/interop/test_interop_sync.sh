#!/bin/bash
# CCNx Sync between our repository and the reference's, each on its own
# forwarder in a network namespace of its own (two hosts joined by a veth
# pair, each forwarder routing / to the other over UDP): the same slice is
# created on both (each with its own ccnsyncslice), a file written into
# the reference's repository by its ccnseqwriter -r reaches ours, one
# written into ours by our ccnputfile reaches the reference's, both end
# with the same root hash, and each then serves the other's file with the
# link cut (so nothing but its own store can answer); each side's
# ccnsyncwatch lists the other's repository.
# Needs root and ip netns; skipped otherwise.
set -u
INTEROP_TAG=interop-sync
INTEROP_PORT_BASE=18900
. "$(dirname "$0")/interop_lib.sh"

if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 77
fi
[ -x "$REF/bin/ccnsyncslice" ] && [ -x "$REF/bin/ccnsyncwatch" ] && [ -x "$REF/bin/ccnr" ] ||
    { echo "SKIP: no ccnr, ccnsyncslice or ccnsyncwatch in $REF/bin"; exit 77; }

NS_O=ccnxsy-o$$
NS_R=ccnxsy-r$$
ADDR_O=10.79.0.1
ADDR_R=10.79.0.2
netns_cleanup() {
    cleanup
    ip netns del "$NS_O" 2>/dev/null
    ip netns del "$NS_R" 2>/dev/null
}
trap netns_cleanup EXIT
ip netns add "$NS_O" && ip netns add "$NS_R" || fail "cannot make the namespaces"
ip link add syo$$ netns "$NS_O" type veth peer name syr$$ netns "$NS_R" ||
    fail "cannot make the veth pair"
for ns_dev_addr in "$NS_O syo$$ $ADDR_O" "$NS_R syr$$ $ADDR_R"; do
    set -- $ns_dev_addr
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
        ip -n "$1" link set lo up || fail "cannot set up $2 in $1"
done

start_ccnd O ours "$NS_O"
start_ccnd R ref "$NS_R"
on O ref ccndc add / udp "$ADDR_R" >/dev/null || fail "cannot route / from O to R"
on R ref ccndc add / udp "$ADDR_O" >/dev/null || fail "cannot route / from R to O"

mkdir -p "$T/our-repo" "$T/ref-repo"
bg our-ccnr ip netns exec "$NS_O" env CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/O.sock" \
    CCNX_DIR="$T/our-user" CCNR_DIRECTORY="$T/our-repo" CCNR_DEBUG=INFO CCNS_DEBUG=FINE "$B/ccnr"
wait_for 30 grep -q "ccnr: INFO: serving" "$T/our-ccnr.log" || fail "our ccnr did not start"
bg ref-ccnr ip netns exec "$NS_R" env CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/R.sock" \
    CCNX_DIR="$T/ref-user" CCNR_DIRECTORY="$T/ref-repo" CCNR_DEBUG=INFO LD_LIBRARY_PATH="$REF/lib" \
    "$REF/bin/ccnr"
wait_for 30 grep -q "Adding listener for policy" "$T/ref-ccnr.log" ||
    fail "the reference's ccnr did not start"

TOPO=ccnx:/is/topo
DATA=ccnx:/is/data
on O ours ccnsyncslice create "$TOPO" "$DATA" 2>"$T/slice.err" ||
    fail "our ccnsyncslice: $(cat "$T/slice.err")"
on R ref ccnsyncslice create "$TOPO" "$DATA" >"$T/refslice.log" 2>&1 ||
    fail "the reference's ccnsyncslice: $(cat "$T/refslice.log")"
wait_for 10 grep -q "following slice $TOPO $DATA" "$T/our-ccnr.log" ||
    fail "our ccnr does not follow the slice"
ok "the slice is created in both repositories"

head -c 30000 /dev/urandom >"$T/f1" # 8 segments of 4096 bytes
head -c 20000 /dev/urandom >"$T/f2" # 5
on R ref ccnseqwriter -r "$DATA/f1" <"$T/f1" 2>"$T/refseq.err" ||
    fail "the reference's ccnseqwriter -r: $(cat "$T/refseq.err")"
on O ours ccnputfile "$DATA/f2" "$T/f2" 2>"$T/put.err" || fail "our ccnputfile: $(cat "$T/put.err")"

# Both hold the 13 names: ours says so in its log, the reference's
# ccnsyncwatch lists them with its root hash.
wait_for 60 grep -q "sync: root [0-9a-f]*, 13 names" "$T/our-ccnr.log" ||
    fail "our repository did not get the reference's file"
ok "the reference's file reached our repository"
ref_names() {
    on R ref ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/watch.log" 2>&1
    [ "$(grep -c "^$DATA/" "$T/watch.log")" = 13 ]
}
wait_for 60 ref_names || fail "the reference's repository did not get our file: $(cat "$T/watch.log")"
ok "our file reached the reference's repository"
ours_root=$(grep -o "sync: root [0-9a-f]*, 13 names" "$T/our-ccnr.log" | tail -n 1 | cut -d' ' -f3)
ours_root=${ours_root%,}
ref_root=$(tail -n 1 "$T/watch.log" | awk '{print $NF}')
[ "$ours_root" = "$ref_root" ] || fail "root hashes differ: ours $ours_root, the reference's $ref_root"
ok "both compute the root hash $ours_root"

# Each side's ccnsyncwatch lists the other's repository whole.
on O ref ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/refwatch.log" 2>&1
[ "$(grep -c "^$DATA/" "$T/refwatch.log")" = 13 ] ||
    fail "the reference's ccnsyncwatch on our repository: $(cat "$T/refwatch.log")"
[ "$(tail -n 1 "$T/refwatch.log" | awk '{print $NF}')" = "$ours_root" ] ||
    fail "the reference's ccnsyncwatch saw another root on our repository"
on R ours ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/ourwatch.log" 2>&1
[ "$(grep -c "^$DATA/" "$T/ourwatch.log")" = 13 ] ||
    fail "our ccnsyncwatch on the reference's repository: $(cat "$T/ourwatch.log")"
ok "its ccnsyncwatch lists our repository, ours lists its"

# Each serves the other's file from its own store: the link is cut.
on O ref ccndc del / udp "$ADDR_R" >/dev/null
on R ref ccndc del / udp "$ADDR_O" >/dev/null
on O ours ccncat "$DATA/f1" >"$T/out1" 2>"$T/cat1.err" || fail "f1 from our repository: $(cat "$T/cat1.err")"
cmp -s "$T/f1" "$T/out1" || fail "f1 from our repository differs"
on R ref ccncat "$DATA/f2" >"$T/out2" 2>"$T/cat2.err" ||
    fail "f2 from the reference's repository: $(cat "$T/cat2.err")"
cmp -s "$T/f2" "$T/out2" || fail "f2 from the reference's repository differs"
ok "each repository serves the other's file alone"
