#!/bin/bash
# CCNx Sync between our repositories and the reference's, three hosts in a
# line, O - R - P (network namespaces, a veth pair per link, / routed to
# each neighbour over UDP): ours on O and P, the reference's forwarder and
# repository on R. The same slice is created in each (with each side's
# ccnsyncslice); a file written into R by its ccnseqwriter -r reaches O and
# P, one written into O by our ccnputfile reaches R and, through R alone,
# P. The files are large enough (538 names) that every tree has composite
# nodes, so each side walks the other's. All three end with the same root
# hash; each side's ccnsyncwatch lists the other's repository; and O and R
# each serve the other's file with their link cut.
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
NS_P=ccnxsy-p$$
ADDR_O=10.79.0.1
ADDR_R=10.79.0.2
ADDR_RP=10.79.1.2
ADDR_P=10.79.1.3
netns_cleanup() {
    local n
    for n in "$NS_O" "$NS_R" "$NS_P"; do
        ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
    done
    cleanup
    for n in "$NS_O" "$NS_R" "$NS_P"; do ip netns del "$n" 2>/dev/null; done
}
trap netns_cleanup EXIT
ip netns add "$NS_O" && ip netns add "$NS_R" && ip netns add "$NS_P" ||
    fail "cannot make the namespaces"
ip link add syo$$ netns "$NS_O" type veth peer name syr$$ netns "$NS_R" &&
    ip link add syq$$ netns "$NS_R" type veth peer name syp$$ netns "$NS_P" ||
    fail "cannot make the veth pairs"
for ns_dev_addr in "$NS_O syo$$ $ADDR_O" "$NS_R syr$$ $ADDR_R" "$NS_R syq$$ $ADDR_RP" \
    "$NS_P syp$$ $ADDR_P"; do
    set -- $ns_dev_addr
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
        ip -n "$1" link set lo up || fail "cannot set up $2 in $1"
done

start_ccnd O ours "$NS_O"
start_ccnd R ref "$NS_R"
start_ccnd P ours "$NS_P"
on O ref ccndc add / udp "$ADDR_R" >/dev/null || fail "cannot route / from O to R"
on R ref ccndc add / udp "$ADDR_O" >/dev/null || fail "cannot route / from R to O"
on R ref ccndc add / udp "$ADDR_P" >/dev/null || fail "cannot route / from R to P"
on P ref ccndc add / udp "$ADDR_RP" >/dev/null || fail "cannot route / from P to R"

mkdir -p "$T/our-repo" "$T/ref-repo" "$T/p-repo"
# our_ccnr HOST DIR: our repository on HOST, logging into HOST-ccnr.log
our_ccnr() {
    bg "$1-ccnr" ip netns exec "$(eval echo "\$NS_$1")" env CCN_LOCAL_PORT=9695 \
        CCN_LOCAL_SOCKNAME="$T/$1.sock" CCNX_DIR="$T/our-user" CCNR_DIRECTORY="$2" \
        CCNR_DEBUG=INFO CCNS_DEBUG=FINE "$B/ccnr"
    wait_for 30 grep -q "ccnr: INFO: serving" "$T/$1-ccnr.log" || fail "our ccnr on $1 did not start"
}
our_ccnr O "$T/our-repo"
our_ccnr P "$T/p-repo"
bg ref-ccnr ip netns exec "$NS_R" env CCN_LOCAL_PORT=9695 CCN_LOCAL_SOCKNAME="$T/R.sock" \
    CCNX_DIR="$T/ref-user" CCNR_DIRECTORY="$T/ref-repo" CCNR_DEBUG=INFO LD_LIBRARY_PATH="$REF/lib" \
    "$REF/bin/ccnr"
wait_for 30 grep -q "Adding listener for policy" "$T/ref-ccnr.log" ||
    fail "the reference's ccnr did not start"

TOPO=ccnx:/is/topo
DATA=ccnx:/is/data
for h in O P; do
    on "$h" ours ccnsyncslice create "$TOPO" "$DATA" 2>"$T/slice.err" ||
        fail "our ccnsyncslice on $h: $(cat "$T/slice.err")"
done
on R ref ccnsyncslice create "$TOPO" "$DATA" >"$T/refslice.log" 2>&1 ||
    fail "the reference's ccnsyncslice: $(cat "$T/refslice.log")"
for h in O P; do
    wait_for 10 grep -q "following slice $TOPO $DATA" "$T/$h-ccnr.log" ||
        fail "our ccnr on $h does not follow the slice"
done
ok "the slice is created in the three repositories"

head -c 1200000 /dev/urandom >"$T/f1" # 293 segments of 4096 bytes
head -c 1000000 /dev/urandom >"$T/f2" # 245
on R ref ccnseqwriter -r "$DATA/f1" <"$T/f1" 2>"$T/refseq.err" ||
    fail "the reference's ccnseqwriter -r: $(cat "$T/refseq.err")"
on O ours ccnputfile "$DATA/f2" "$T/f2" 2>"$T/put.err" || fail "our ccnputfile: $(cat "$T/put.err")"

# All hold the 538 names: ours say so in their logs, the reference's
# ccnsyncwatch lists them with its root hash.
for h in O P; do
    wait_for 120 grep -q "sync: root [0-9a-f]*, 538 names" "$T/$h-ccnr.log" ||
        fail "our repository on $h did not get both files"
done
ok "the reference's file reached O and P; ours reached P through the reference's repository alone"
ref_names() {
    on R ref ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/watch.log" 2>&1
    [ "$(grep -c "^$DATA/" "$T/watch.log")" = 538 ]
}
wait_for 120 ref_names || fail "the reference's repository did not get our file: $(tail -n 3 "$T/watch.log")"
ok "our file reached the reference's repository"
root_of() { # HOST: the root of 538 names our repository on HOST logged
    local r
    r=$(grep -o "sync: root [0-9a-f]*, 538 names" "$T/$1-ccnr.log" | tail -n 1 | cut -d' ' -f3)
    echo "${r%,}"
}
ours_root=$(root_of O)
ref_root=$(tail -n 1 "$T/watch.log" | awk '{print $NF}')
[ "$ours_root" = "$ref_root" ] && [ "$(root_of P)" = "$ours_root" ] ||
    fail "root hashes differ: O $ours_root, P $(root_of P), the reference's $ref_root"
ok "the three compute the root hash $ours_root"

# Each side's ccnsyncwatch lists the other's repository whole.
on O ref ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/refwatch.log" 2>&1
[ "$(grep -c "^$DATA/" "$T/refwatch.log")" = 538 ] ||
    fail "the reference's ccnsyncwatch on our repository: $(tail -n 3 "$T/refwatch.log")"
[ "$(tail -n 1 "$T/refwatch.log" | awk '{print $NF}')" = "$ours_root" ] ||
    fail "the reference's ccnsyncwatch saw another root on our repository"
on R ours ccnsyncwatch -t "$TOPO" -p "$DATA" -w 2 >"$T/ourwatch.log" 2>&1
[ "$(grep -c "^$DATA/" "$T/ourwatch.log")" = 538 ] ||
    fail "our ccnsyncwatch on the reference's repository: $(tail -n 3 "$T/ourwatch.log")"
ok "its ccnsyncwatch lists our repository, ours lists its"

# Each serves the other's file from its own store: the links are cut.
on O ref ccndc del / udp "$ADDR_R" >/dev/null
on R ref ccndc del / udp "$ADDR_O" >/dev/null
on R ref ccndc del / udp "$ADDR_P" >/dev/null
on O ours ccncat "$DATA/f1" >"$T/out1" 2>"$T/cat1.err" || fail "f1 from our repository: $(cat "$T/cat1.err")"
cmp -s "$T/f1" "$T/out1" || fail "f1 from our repository differs"
on R ref ccncat "$DATA/f2" >"$T/out2" 2>"$T/cat2.err" ||
    fail "f2 from the reference's repository: $(cat "$T/cat2.err")"
cmp -s "$T/f2" "$T/out2" || fail "f2 from the reference's repository differs"
ok "each repository serves the other's file alone"
