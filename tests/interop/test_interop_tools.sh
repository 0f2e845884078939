#!/bin/bash
# The classic tools and the control plane, ours against the reference's:
# ccnpoke/ccnpeek both ways on our ccnd A, on the reference's ccnd B and
# across the two joined over UDP; the reference's ccnsendchunks read by its
# ccncatchunks2 and by our ccncat -c and ccngetfile -c; its ccndc (add and del
# over UDP and TCP, strategies), ccndstatus, ccndsmoketest and ccndstop on
# our ccnd, and ours on its.
set -u
INTEROP_TAG=interop-tools
INTEROP_PORT_BASE=18300
. "$(dirname "$0")/interop_lib.sh"

start_ccnd A ours
start_ccnd B ref
link A B ccnx:/it/b
link B A ccnx:/it/a

# poke WHO NODE URI TEXT: WHO's ccnpoke publishes TEXT under URI through NODE
# (in the background, until its first Interest).
poke() {
    local port
    eval "port=\$PORT_$2"
    printf '%s' "$4" >"$T/poke.in"
    if [ "$1" = ours ]; then
        bg_in poke "$T/poke.in" env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$2.sock" \
            CCNX_DIR="$T/our-user" timeout 60 "$B/ccnpoke" "$3"
    else
        bg_in poke "$T/poke.in" env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$2.sock" \
            CCNX_DIR="$T/ref-user" timeout 60 "$REF/bin/ccnpoke" "$3"
    fi
}

# peeks WHO NODE URI TEXT: until WHO's ccnpeek through NODE gets TEXT (the
# publisher registers its prefix in its own time: asked again until then).
peeks() {
    wait_for 30 eval "on $2 $1 ccnpeek -c -w 1 $3 >'$T/peek.out' 2>'$T/peek.err' &&
        [ \"\$(cat '$T/peek.out')\" = '$4' ]" ||
        fail "$1 ccnpeek on $2 of $3: '$(cat "$T/peek.out")' $(cat "$T/peek.err")"
}

for path in "A A" "B B" "A B" "B A"; do
    set -- $path
    case $1 in A) pre=ccnx:/it/a ;; B) pre=ccnx:/it/b ;; esac
    poke ours "$1" "$pre/o2r$1$2" "ours to ref via $1 $2"
    peeks ref "$2" "$pre/o2r$1$2" "ours to ref via $1 $2"
    poke ref "$1" "$pre/r2o$1$2" "ref to ours via $1 $2"
    peeks ours "$2" "$pre/r2o$1$2" "ref to ours via $1 $2"
    ok "ccnpoke -> ccnpeek both ways, producer on $1, consumer on $2"
done

# The reference's oldest segmenter (unversioned, segments numbered in
# decimal text, the final one's text in FinalBlockID), read by its
# ccncatchunks2 and by our ccncat -c and ccngetfile -c, on its ccnd and
# through ours.
head -c 50000 /dev/urandom >"$T/chunks"
for node in B A; do
    bg_in chunks "$T/chunks" env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" \
        CCNX_DIR="$T/ref-user" "$REF/bin/ccnsendchunks" "ccnx:/it/b/chunks$node"
    CHUNKS=$BG_PID
    on $node ref ccncatchunks2 "ccnx:/it/b/chunks$node" >"$T/out" || fail "ccncatchunks2 on $node"
    cmp -s "$T/out" "$T/chunks" || fail "ccncatchunks2 on $node: the bytes differ"
    on $node ours ccncat -c "ccnx:/it/b/chunks$node" >"$T/out" 2>"$T/cat.err" ||
        fail "our ccncat -c on $node: $(cat "$T/cat.err")"
    cmp -s "$T/out" "$T/chunks" || fail "our ccncat -c on $node: the bytes differ"
    rm -f "$T/got"
    on $node ours ccngetfile -q -c "ccnx:/it/b/chunks$node" "$T/got" 2>"$T/cat.err" ||
        fail "our ccngetfile -c on $node: $(cat "$T/cat.err")"
    cmp -s "$T/got" "$T/chunks" || fail "our ccngetfile -c on $node: the bytes differ"
    stop_bg "$CHUNKS"
done
ok "the reference's ccnsendchunks read by its ccncatchunks2 and our ccncat -c and ccngetfile -c, on its ccnd and through ours"

# ---- the control plane: each side's tools on the other's ccnd ----
# status_of WHO NODE: the text of NODE's status page, by WHO's ccndstatus
status_of() { on "$2" "$1" ccndstatus 2>/dev/null; }
take_port peer # a UDP port nothing listens on
for pair in "ref A" "ours B"; do
    set -- $pair
    who=$1 node=$2
    on $node $who ccndc add ccnx:/it/ctl/udp udp 127.0.0.1 "$peer" >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc add udp on $node: $(cat "$T/ccndc.err")"
    status_of $who $node | grep -q "ccnx:/it/ctl/udp face:" || fail "$who ccndstatus on $node lacks ccnx:/it/ctl/udp"
    on $node $who ccndc del ccnx:/it/ctl/udp udp 127.0.0.1 "$peer" >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc del udp on $node: $(cat "$T/ccndc.err")"
    status_of $who $node | grep -q "ccnx:/it/ctl/udp face:" && fail "$who ccndc del udp on $node left the entry"
    # TCP to the other forwarder, which listens there
    [ $node = A ] && other=$PORT_B || other=$PORT_A
    on $node $who ccndc add ccnx:/it/ctl/tcp tcp 127.0.0.1 "$other" >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc add tcp on $node: $(cat "$T/ccndc.err")"
    status_of $who $node | grep -q "ccnx:/it/ctl/tcp face:" || fail "$who ccndstatus on $node lacks ccnx:/it/ctl/tcp"
    on $node $who ccndc del ccnx:/it/ctl/tcp tcp 127.0.0.1 "$other" >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc del tcp on $node: $(cat "$T/ccndc.err")"
    status_of $who $node | grep -q "ccnx:/it/ctl/tcp face:" && fail "$who ccndc del tcp on $node left the entry"
    on $node $who ccndc setstrategy ccnx:/it/ctl/s parallel >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc setstrategy on $node: $(cat "$T/ccndc.err")"
    on $node $who ccndc getstrategy ccnx:/it/ctl/s/x >"$T/strategy" 2>&1 ||
        fail "$who ccndc getstrategy on $node: $(cat "$T/strategy")"
    grep -q "parallel" "$T/strategy" || fail "$who ccndc getstrategy on $node: $(cat "$T/strategy")"
    on $node $who ccndc removestrategy ccnx:/it/ctl/s >/dev/null 2>"$T/ccndc.err" ||
        fail "$who ccndc removestrategy on $node: $(cat "$T/ccndc.err")"
    ok "$who ccndc add/del (UDP, TCP) and strategies on the other's ccnd ($node), seen in its ccndstatus"
done

# The reference's status tools speak HTTP on the unix socket and on TCP.
on A ref ccndsmoketest status >"$T/status.html" 2>&1 || fail "ccndsmoketest status on our ccnd"
grep -q "$PORT_A" "$T/status.html" || fail "ccndsmoketest status on our ccnd: $(head -c 300 "$T/status.html")"
on A ref ccndsmoketest -T 127.0.0.1 status >"$T/status.html" 2>&1 || fail "ccndsmoketest -T status"
grep -qi "faces" "$T/status.html" || fail "ccndsmoketest -T status on our ccnd: $(head -c 300 "$T/status.html")"
on B ours ccndstatus -x >"$T/status.xml" 2>&1 || fail "our ccndstatus -x on the reference's ccnd"
grep -q "<ccnd" "$T/status.xml" || fail "our ccndstatus -x on the reference's ccnd: $(head -c 300 "$T/status.xml")"
ok "ccndsmoketest status (unix socket and TCP) on our ccnd, our ccndstatus -x on the reference's"

# Each side's ccndstop stops the other's ccnd.
on A ref ccndstop >/dev/null 2>&1
wait_for 10 eval "! kill -0 ${CCNDS[0]} 2>/dev/null" || fail "the reference's ccndstop did not stop our ccnd"
on B ours ccndstop >/dev/null 2>&1
wait_for 10 eval "! kill -0 ${CCNDS[1]} 2>/dev/null" || fail "our ccndstop did not stop the reference's ccnd"
ok "each side's ccndstop stops the other's ccnd"
echo "all tool interop checks passed"
