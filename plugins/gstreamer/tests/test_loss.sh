#!/bin/bash
# Through loss: two network namespaces joined by a veth pair, a ccnd in
# each, a UDP route from the viewer's to the sender's; with 5% of the
# packets dropped in both directions (netem, or the BPF dropper where the
# kernel has no netem), a file through ccnsink and ccnsrc arrives
# byte-identical, and 150 raw frames arrive with their caps and timing.
# Needs root and `ip netns`; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 77
fi
GST_TEST_TAG=gst-loss
GST_TEST_PORT_BASE=15400
. "$(dirname "$0")/lib.sh" || exit 1
. "$(dirname "$0")/../../../tests/tools/loss_lib.sh" || exit 1
NSP=gstprod$$
NSC=gstview$$
VP=gsp$(($$ % 100000))
VC=gsv$(($$ % 100000))
PEER=10.81.0.1

# in NS SIDE CMD...: CMD in namespace NS with SIDE's ccnd settings;
# bg_in NS SIDE CMD...: the same in the background, its pid (that of the
# command itself, so that cleanup's kill reaches it) added to BG_PIDS
in_ns() {
    local ns=$1 side=$2
    shift 2
    ip netns exec "$ns" env CCN_LOCAL_SOCKNAME="$T/$side.sock" CCNX_DIR="$T/$side" \
        CCND_KEYSTORE_DIRECTORY="$T/$side" CCND_LOG="$T/$side.ccnd.log" "$@"
}
bg_in() {
    local ns=$1 side=$2
    shift 2
    (exec ip netns exec "$ns" env CCN_LOCAL_SOCKNAME="$T/$side.sock" CCNX_DIR="$T/$side" \
        CCND_KEYSTORE_DIRECTORY="$T/$side" CCND_LOG="$T/$side.ccnd.log" "$@") &
    BG_PIDS+=($!)
}
cleanup_ns() {
    for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    in_ns "$NSP" prod "$B/ccndstop" >/dev/null 2>&1
    in_ns "$NSC" view "$B/ccndstop" >/dev/null 2>&1
    ip netns del "$NSP" 2>/dev/null
    ip netns del "$NSC" 2>/dev/null
    rm -rf "$T"
}
trap cleanup_ns EXIT

ip netns add "$NSP" && ip netns add "$NSC" || fail "cannot create the namespaces"
ip link add "$VP" netns "$NSP" type veth peer name "$VC" netns "$NSC" || fail "no veth pair"
# jumbo frames: a 4 KB object in one packet (see tests/tools/test_transfer_netns.sh)
ip -n "$NSP" link set "$VP" mtu 9000 && ip -n "$NSC" link set "$VC" mtu 9000 || fail "mtu 9000"
ip -n "$NSP" addr add $PEER/24 dev "$VP" && ip -n "$NSP" link set "$VP" up &&
    ip -n "$NSP" link set lo up || fail "cannot configure $VP"
ip -n "$NSC" addr add 10.81.0.2/24 dev "$VC" && ip -n "$NSC" link set "$VC" up &&
    ip -n "$NSC" link set lo up || fail "cannot configure $VC"
mkdir -p "$T/prod" "$T/view"
in_ns "$NSP" prod timeout 30 "$B/ccndstart" >/dev/null 2>"$T/prodstart.log" || fail "ccndstart (sender)"
in_ns "$NSC" view timeout 30 "$B/ccndstart" >/dev/null 2>"$T/viewstart.log" || fail "ccndstart (viewer)"
in_ns "$NSC" view timeout 10 "$B/ccndc" add ccnx:/gl udp $PEER "$CCN_LOCAL_PORT" >/dev/null \
    2>"$T/ccndc.log" || fail "ccndc add ccnx:/gl udp $PEER $CCN_LOCAL_PORT"
loss_init "$T" "$NSP" "$VP"
[ -n "$LOSS_HOW" ] || { echo "SKIP: neither netem nor the BPF dropper works here"; exit 77; }

head -c $((10 << 20)) /dev/urandom >"$T/file"
RAW="videotestsrc num-buffers=150 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1"
bg_in "$NSP" prod timeout 200 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q filesrc \
    location="$T/file" ! ccnsink location=ccnx:/gl/file linger=180 >"$T/sendfile.log" 2>&1
bg_in "$NSP" prod timeout 200 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q $RAW \
    ! ccnsink location=ccnx:/gl/raw linger=180 >"$T/sendraw.log" 2>&1
for name in file raw; do
    ok=
    for _ in $(seq 30); do
        in_ns "$NSC" view timeout 5 "$B/ccnpeek" -w 1 "ccnx:/gl/$name" >/dev/null 2>&1 && ok=1 && break
    done
    [ -n "$ok" ] || fail "ccnx:/gl/$name is not reachable from the viewer's namespace"
done

loss_on "$NSP" "$VP" 5 && loss_on "$NSC" "$VC" 5 || fail "cannot set 5% loss ($LOSS_HOW)"
echo "5% loss in both directions ($LOSS_HOW)"
in_ns "$NSC" view timeout 120 env LD_PRELOAD="$GST_PRELOAD" gst-launch-1.0 -q ccnsrc \
    location=ccnx:/gl/file ! filesink location="$T/out" >"$T/viewfile.log" 2>&1 ||
    fail "ccnsrc of the file through loss"
cmp -s "$T/file" "$T/out" || fail "the file differs after 5% loss"
in_ns "$NSC" view env LD_PRELOAD= "$CHECK" compare "$RAW ! appsink name=out sync=false" \
    "ccnsrc location=ccnx:/gl/raw ! appsink name=out sync=false" >"$T/viewraw.log" 2>&1 ||
    fail "raw frames through loss: $(tail -n 3 "$T/viewraw.log")"
echo "PASS"
