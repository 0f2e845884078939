#!/bin/bash
# Captures made by ccn_pcapgen from the reference vectors: TCP with messages
# split across segments and packed into one, UDP between two forwarders with
# SequenceNumbers and CCNProtocolDataUnit wrappers, multicast, IPv6, and
# unregistered ports for the heuristics. Every message must be found, in the
# right frame, in one pass and in two.
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}

for scenario in tcp udp mcast ipv6 heur; do
    pcap=$(gen "$scenario")
    [ -s "$pcap.names" ] || fail "$scenario: the generator expected no names"
    for passes in 1 2; do
        opt=()
        [ "$passes" = 2 ] && opt=(-2)
        ts "${opt[@]}" -r "$pcap" -Y ccn.name -T fields -e frame.number -e ccn.name >"$T/names"
        ts_ok $? "$scenario names"
        same "$pcap.names" "$T/names" "$scenario ($passes pass): names per frame"
        ts "${opt[@]}" -r "$pcap" -Y ccn -T fields -e frame.number -e ccn.message >"$T/msgs"
        ts_ok $? "$scenario messages"
        same "$pcap.msgs" "$T/msgs" "$scenario ($passes pass): messages per frame"
    done
    n=$(ts -r "$pcap" -Y 'ccn.malformed || ccn.truncated || ccn.schema || ccn.badvalue' | wc -l)
    [ "$n" = 0 ] || fail "$scenario: $n frames with complaints about valid traffic"
    ts -2 -V -r "$pcap" >/dev/null
    ts_ok $? "$scenario full tree"
done

# Field values, checked against the vectors' own XML.
tcp=$(gen tcp)
hex=$(sed -n 's/.*<Timestamp ccnbencoding="hexBinary">\([0-9A-F]*\)<.*/\1/p' "$V/co_data_fresh.xml")
[ -n "$hex" ] || fail "no Timestamp in co_data_fresh.xml"
units=$((16#$hex))
want="$(date -u -d "@$((units >> 12))" '+%b %e, %Y %H:%M:%S').$(printf '%09d' $(((units & 4095) * 1000000000 / 4096))) UTC"
got=$(ts -r "$tcp" -Y 'ccn.name == "ccnx:/example/vec/data/hello" && ccn.contentobject' -T fields \
    -e ccn.signedinfo.timestamp | head -1)
[ "$got" = "$want" ] || fail "Timestamp: got '$got', want '$want'"
got=$(ts -r "$tcp" -T fields -e ccn.interest.lifetime | tr ',' '\n' | grep . | sort -u | tr '\n' ' ')
[ "$got" = "0.003417968 0.005859375 0.437500000 2.000000000 7.000000000 " ] ||
    fail "InterestLifetime values: $got"
got=$(ts -r "$tcp" -Y ccn.contentobject -T fields -e ccn.content.type | tr ',' '\n' | sort | uniq -c |
    awk '{print $2 "=" $1}' | tr '\n' ' ')
# 19 DATA objects plus the 2 signed requests embedded in the names of replies.
[ "$got" = "0x0c04c0=21 0x10d091=1 0x18e344=1 0x28463f=3 0x2c834a=1 0x34008a=1 " ] ||
    fail "content types: $got"
n=$(ts -r "$tcp" -Y 'ccn.content.type == 0x2c834a && ccn.link.name == "ccnx:/example/vec/data/hello"' | wc -l)
[ "$n" = 1 ] || fail "LINK object with its Link body"
n=$(ts -r "$tcp" -Y 'ccn.keylocator.keyname contains "keys/user"' | wc -l)
[ "$n" = 1 ] || fail "KeyName locator"
n=$(ts -r "$tcp" -Y 'ccn.signedinfo.finalblockid == 00:02' | wc -l)
[ "$n" = 2 ] || fail "FinalBlockID of the last stream segment (sent twice)"
n=$(ts -r "$tcp" -Y 'ccn.interest.exclude.any && ccn.interest.exclude.component == "b"' | wc -l)
[ "$n" = 1 ] || fail "Exclude [Any, b]"
got=$(ts -r "$tcp" -Y 'ccn.name == "ccnx:/example/vec/data/large"' -T fields -e ccn.content.length |
    head -1)
[ "$got" = 4000 ] || fail "4 KB object over 1-byte segments: content length '$got'"

# Request/response links, on the same link and across a multicast group.
got=$(ts -2 -r "$tcp" -Y 'ccn.response_to && ccn.name == "ccnx:/example/vec/data/hello"' -T fields \
    -e ccn.response_to | head -1)
[ -n "$got" ] || fail "the answer to /example/vec/data/hello is not linked to its Interest"
n=$(ts -2 -r "$tcp" -Y "frame.number == $got" -T fields -e ccn.response_in | tr ',' '\n' | grep -c .)
[ "$n" -ge 5 ] || fail "frame $got: $n Interests for /example/vec/data/hello answered, want 5 or more"
mcast=$(gen mcast)
got=$(ts -2 -r "$mcast" -Y ccn.response_to -T fields -e frame.number -e ccn.response_to)
[ "$got" = "2	1" ] || fail "multicast answer: '$got'"
udp=$(gen udp)
got=$(ts -2 -r "$udp" -Y ccn.response_to -T fields -e frame.number -e ccn.response_to | tr '\n' ' ')
[ "$got" = "2	1 4	3 6	5 " ] || fail "UDP answers (one inside a CCNProtocolDataUnit): '$got'"
got=$(ts -r "$udp" -T fields -e ccn.seqnum | tr '\n' ' ')
[ "$got" = "47184 40165 47185 40166 5 6 7 " ] || fail "sequence numbers: '$got'"

# The heuristics leave other traffic alone.
heur=$(gen heur)
n=$(ts -r "$heur" -Y 'udp.port == 40500' -T fields -e frame.protocols | grep -c ccn)
[ "$n" = 0 ] || fail "non-ccnb datagrams taken for ccnb"
echo "generated captures: ok"
