#!/bin/bash
# Broken messages, one per datagram (scenario "bad" of ccn_pcapgen): each one
# must raise its expert complaint (truncated, malformed, schema, unknown
# element, bad value, nesting shown flat) without stopping the dissection.
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}

pcap=$(gen bad)
[ -s "$pcap.expect" ] || fail "the generator wrote no expectations"
ts -2 -V -r "$pcap" >"$T/tree"
ts_ok $? "full tree of broken messages"
while IFS=$'\t' read -r filter frame; do
    got=$(ts -r "$pcap" -Y "frame.number == $frame && ($filter)" -T fields -e frame.number)
    [ "$got" = "$frame" ] || fail "frame $frame should match: $filter"
done <"$pcap.expect"
# Every frame is still shown as CCN, with something in the Info column.
frames=$(ts -r "$pcap" -T fields -e frame.number | wc -l)
n=$(ts -r "$pcap" -Y ccn -T fields -e _ws.col.Info | grep -c .)
[ "$n" = "$frames" ] || fail "$n of $frames frames dissected as CCN"
echo "broken messages: ok"
