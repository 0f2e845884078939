#!/usr/bin/env bash
# Our own ccnd on the wire: the two-forwarder integration test (UDP and TCP
# links both ways, a looping triangle) runs while dumpcap records loopback,
# then the multicast test between two network namespaces records its link;
# and every ccnb message in the capture must decode, with the names the test
# exchanged. The forwarders use ports the plugin does not register, so this
# also exercises the heuristics on real traffic. Capturing needs root.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "capturing on lo needs root (dumpcap)"
command -v dumpcap >/dev/null 2>&1 || skip "dumpcap is not installed"
TEST_BIN="${CCNX_TESTS_BIN:-}/integration_test_two_ccnd"
[ -x "$TEST_BIN" ] || skip "the integration tests are not built ($TEST_BIN)"

# Only the test's own forwarders' ports (its slot of the C integration
# tests' range, docs/testing.md): loopback also carries the other tests'
# traffic, some of it malformed on purpose.
SLOT=$(($$ % 2000))
LO=$((20000 + SLOT * 4))
HI=$((LO + 3))
CAP="$T/ours.pcapng"
dumpcap -q -i lo -f "udp portrange $LO-$HI or tcp portrange $LO-$HI" -w "$CAP" \
    2>"$T/dumpcap.err" &
DUMPCAP=$!
for _ in $(seq 50); do [ -s "$CAP" ] && break; sleep 0.1; done
[ -s "$CAP" ] || { kill $DUMPCAP 2>/dev/null; skip "dumpcap could not capture on lo: $(head -1 "$T/dumpcap.err")"; }
chmod 644 "$CAP"

CCNX_TEST_PORT_SLOT=$SLOT CCNX_BIN="$CCNX_BIN" "$TEST_BIN" >"$T/test.log" 2>&1
rc=$?
sleep 0.5
kill -INT $DUMPCAP
wait $DUMPCAP 2>/dev/null
[ $rc -eq 0 ] || { tail -20 "$T/test.log"; fail "the two-ccnd integration test failed"; }

ts -r "$CAP" -Y ccn -T fields -e ccn.name >"$T/names"
ts_ok $? "decoding our ccnd's traffic"
for name in ccnx:/two/udp/item ccnx:/two/tcp/item ccnx:/back/item ccnx:/loop/nobody/answers; do
    grep -q -x -F "$name" "$T/names" || fail "no message named $name in our capture"
done
# Control traffic between ccndc and ccnd crosses TCP only on the unix socket,
# but the forwarders' own KEY probes and the links' Interests are all here.
[ "$(wc -l <"$T/names")" -ge 8 ] || fail "too few ccnb messages decoded: $(wc -l <"$T/names")"
ts -r "$CAP" -Y "ccn && _ws.expert.severity >= warning" -T fields -e frame.number >"$T/bad"
ts_ok $? "looking for complaints"
[ ! -s "$T/bad" ] || fail "frames with complaints: $(tr '\n' ' ' <"$T/bad")"
echo "ok: $(wc -l <"$T/names") messages of our ccnd decoded (loopback)"

# Multicast: two ccnd in two network namespaces on a veth link, with a
# multicast face on 224.0.23.170:59695; the test captures the link itself.
MC_BIN="${CCNX_TESTS_BIN:-}/integration_test_mcast_netns"
[ -x "$MC_BIN" ] || fail "the multicast integration test is not built ($MC_BIN)"
MC="$T/mcast.pcapng"
CCNX_BIN="$CCNX_BIN" CCNX_MCAST_PCAP="$MC" "$MC_BIN" >"$T/mc.log" 2>&1 ||
    { tail -20 "$T/mc.log"; fail "the multicast integration test failed"; }
if grep -q SKIPPED "$T/mc.log" || [ ! -s "$MC" ]; then
    echo "note: no multicast capture (network namespaces unavailable)"
    exit 0
fi
chmod 644 "$MC"
ts -r "$MC" -Y "ccn && ip.dst == 224.0.23.170" -T fields -e ccn.name >"$T/mnames"
ts_ok $? "decoding our multicast traffic"
grep -q -x -F ccnx:/mc/party/line "$T/mnames" || fail "the multicast exchange is not in the capture"
ts -r "$MC" -Y "ccn && _ws.expert.severity >= warning" -T fields -e frame.number >"$T/mbad"
ts_ok $? "looking for complaints in the multicast capture"
[ ! -s "$T/mbad" ] || fail "multicast frames with complaints: $(tr '\n' ' ' <"$T/mbad")"
echo "ok: $(wc -l <"$T/mnames") multicast messages of our ccnd decoded"
