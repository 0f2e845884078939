#!/bin/bash
# The emulation harness (bench/emu/emu_lib.sh) on its small topology (four
# nodes): the shaping each link got is reported, a configured delay and a
# configured loss are measured on their links within 10%, and two
# consumers fetching the same file behind a router at the same time, one
# of them on a lossy link, cost the origin at most 1.2 copies of it, so
# the caching experiment cannot silently rot.
# Needs root and ip netns; skipped otherwise.
set -u
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
B=${CCNX_BIN:?}
SRC=${CCNX_SRC:?}
EMU_DIR=$(mktemp -d /tmp/emu-test-XXXXXX) || exit 1
unset CCN_LOCAL_TRANSPORT CCND_LAN CCNR_GLOBAL_PREFIX
. "$SRC/bench/emu/emu_lib.sh" || exit 1
cleanup() {
    emu_down
    rm -rf "$EMU_DIR"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    cat "$EMU_DIR/links.txt" 2>/dev/null
    for f in "$EMU_DIR"/*/*.err; do [ -s "$f" ] && { echo "== $f"; tail -n 5 "$f"; }; done
    exit 1
}
emu_up "$SRC/bench/emu/topologies/small.topo" || fail "emu_up"
[ "$EMU_HOW" != none ] || { echo "SKIP: neither netem nor the BPF dropper works here"; exit 0; }
echo "shaping: $EMU_HOW"
cat "$EMU_DIR/links.txt"
grep -q "^origin-router: .*delay .*10ms" "$EMU_DIR/links.txt" || fail "no delay reported"
grep -q "^router-c1: .*loss .*2%" "$EMU_DIR/links.txt" || fail "no loss reported"

# The configured figures, measured on the links.
read -r delay _ < <(emu_measure origin router) || fail "measure origin-router"
read -r _ loss < <(emu_measure router c1) || fail "measure router-c1"
echo "measured: delay origin-router $delay ms (10), loss router-c1 $loss% (2)"
awk -v d="$delay" 'BEGIN {exit !(d >= 9 && d <= 11)}' || fail "delay $delay ms, not 10 +-10%"
awk -v l="$loss" 'BEGIN {exit !(l >= 1.8 && l <= 2.2)}' || fail "loss $loss%, not 2 +-10%"

# The origin's load: two consumers fetch one 2 MB file at once, with
# their default window. The copies are the objects that left the origin
# over the network per distinct object its ccnd stored (ccnd's own few
# objects count there too, hence just under 1 at best); the router
# aggregates the consumers' Interests and their retransmissions (ccnd
# sends a retransmission upstream only once an answer is overdue).
head -c $((2 << 20)) /dev/urandom >"$EMU_DIR/file"
emu_on origin timeout 120 "$B/ccnputfile" -x 100 ccnx:/emu/file "$EMU_DIR/file" >/dev/null \
    2>"$EMU_DIR/origin/put.err" &
EMU_PIDS+=($!)
emu_wait_content origin ccnx:/emu/file || fail "the producer does not answer"
pids=()
for c in c1 c2; do
    emu_on "$c" timeout 100 "$B/ccngetfile" ccnx:/emu/file "$EMU_DIR/$c/got" 2>"$EMU_DIR/$c/get.err" &
    pids+=($!)
done
for i in 0 1; do
    c=c$((i + 1))
    wait "${pids[$i]}" || fail "ccngetfile on $c: $(tail -n 2 "$EMU_DIR/$c/get.err")"
    cmp -s "$EMU_DIR/file" "$EMU_DIR/$c/got" || fail "the file on $c differs"
done
emu_stats || fail "emu_stats"
copies=$(emu_copies origin)
echo "the origin sent $copies copies"
awk -v r="$copies" 'BEGIN {exit !(r >= 0.95 && r <= 1.2)}' || fail "the origin sent $copies copies"
echo "ok"
