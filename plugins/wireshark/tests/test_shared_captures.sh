#!/bin/bash
# The reference's own captures (../shared/vectors/ccnx082): every message is
# found on the non-default ports 19695/19696 by the heuristics, with the right
# names, counts, control bodies, Info column and request/response links; the
# port preferences and Decode As reach the same result without heuristics.
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}
E="$CCN_WS_TESTS/expected"
TCP="$V/tcp_client_ccnd.pcap"
UDP="$V/udp_two_ccnd.pcap"

# Names, frame by frame, exactly as expected (the issue's "done" command).
for c in tcp_client_ccnd udp_two_ccnd; do
    ts -r "$V/$c.pcap" -Y ccn -T fields -e frame.number -e ccn.name >"$T/$c.names"
    ts_ok $? "$c names"
    same "$E/$c.names" "$T/$c.names" "$c: names differ from expected/$c.names"
    ts -r "$V/$c.pcap" -Y ccn -T fields -e ccn.name >"$T/names"
    ts_ok $? "$c"
    ! grep -q '^$' "$T/names" || fail "$c: a CCN frame without a name"
done

# Message counts: 13 Interests and 13 ContentObjects on TCP; on UDP four
# datagrams, each one message plus a link SequenceNumber.
count() { # capture field-value
    ts -r "$1" -T fields -e ccn.message | tr ',' '\n' | grep -c "^$2\$"
}
[ "$(count "$TCP" 26)" = 13 ] || fail "TCP: Interests counted $(count "$TCP" 26), want 13"
[ "$(count "$TCP" 64)" = 13 ] || fail "TCP: ContentObjects counted $(count "$TCP" 64), want 13"
[ "$(count "$UDP" 26)" = 2 ] || fail "UDP: Interests"
[ "$(count "$UDP" 64)" = 2 ] || fail "UDP: ContentObjects"
[ "$(count "$UDP" 256)" = 4 ] || fail "UDP: SequenceNumbers"
ts -r "$UDP" -T fields -e ccn.seqnum >"$T/seq"
[ "$(grep -c '^[0-9][0-9]*$' "$T/seq")" = 4 ] || fail "UDP: sequence numbers: $(cat "$T/seq")"

# The Info column.
ts -r "$TCP" -Y "frame.number == 4 || frame.number == 6 || frame.number == 56" -T fields \
    -e _ws.col.Info >"$T/info"
ts_ok $? "Info column"
cat >"$T/info.want" <<'EOF'
Interest ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY
ContentObject ccnx:/%C1.M.S.localhost/%C1.M.SRV/ccnd/KEY/%C1.M.K%00%0B%24%C1%97vN%1Ade%EB%AFYujKV0%EE%F6%D9%91%0Ab%01%12%26%81%1C%82%A4%89o/%FD%06%B1%12%1D%8D%C3/%00 (KEY)
Interest ccnx:/example/vec/tcp/item
EOF
same "$T/info.want" "$T/info" "Info column"

# Content types and fields from the schema.
ts -r "$TCP" -Y 'ccn.content.type == 0x28463f' -T fields -e frame.number | tr '\n' ' ' >"$T/key"
[ "$(cat "$T/key")" = "6 20 34 48 " ] || fail "KEY objects: $(cat "$T/key")"
n=$(ts -r "$TCP" -Y 'ccn.interest.nonce == 0b:24:c1:65:f5:00:44:e2:94:82:60:ca' -T fields -e frame.number)
[ "$n" = 58 ] || fail "Nonce of the forwarded Interest: frame '$n'"
n=$(ts -r "$TCP" -Y 'frame.number == 60' -T fields -e ccn.content.length -e ccn.signedinfo.freshness)
[ "$n" = "23	20" ] || fail "content length and freshness of frame 60: '$n'"

# Control messages decoded inside Interest names and reply bodies.
ts -r "$TCP" -T fields -e ccn.ctl.action | tr ',' '\n' | sort -u | grep . >"$T/actions"
printf 'newface\nprefixreg\nselfreg\nunreg\n' >"$T/actions.want"
same "$T/actions.want" "$T/actions" "control actions"
ts -r "$TCP" -T fields -e ccn.ctl.prefix | tr ',' '\n' | sort -u | grep . >"$T/prefixes"
printf 'ccnx:/example/vec/other\nccnx:/example/vec/remote\nccnx:/example/vec/tcp/item\n' >"$T/prefixes.want"
same "$T/prefixes.want" "$T/prefixes" "registered prefixes"
f=$(ts -r "$TCP" -Y 'frame.number == 9' -T fields -e ccn.ctl.faceid -e ccn.ctl.host -e ccn.ctl.port)
[ "$f" = "0,64	127.0.0.1,127.0.0.1	19696,19696" ] || fail "newface request and reply bodies: '$f'"
ts -r "$TCP" -Y 'frame.number == 8' -T fields -e ccn.embedded.name -e ccn.signature.algorithm >"$T/emb"
grep -q "^ccnx:/	" "$T/emb" || fail "embedded request object: $(cat "$T/emb")"

# Request/response tracking (two passes, so Interests learn their answer).
ts -2 -r "$TCP" -Y 'ccn.response_in' -T fields -e frame.number -e ccn.response_in >"$T/rin"
ts_ok $? "response_in"
[ "$(wc -l <"$T/rin")" = 13 ] || fail "answered Interests: $(wc -l <"$T/rin"), want 13"
grep -q "^4	6$" "$T/rin" || fail "frame 4 should be answered in frame 6"
grep -q "^58	60$" "$T/rin" || fail "frame 58 should be answered in frame 60"
grep -q "^56	61$" "$T/rin" || fail "frame 56 should be answered in frame 61"
ts -2 -r "$TCP" -Y 'frame.number == 6' -T fields -e ccn.response_to -e ccn.response_time >"$T/rto"
grep -q "^4	0\.000112000$" "$T/rto" || fail "response to/time of frame 6: $(cat "$T/rto")"
ts -2 -r "$UDP" -Y 'ccn.response_to' -T fields -e frame.number -e ccn.response_to | tr '\n' ' ' >"$T/u"
[ "$(cat "$T/u")" = "2	1 4	3 " ] || fail "UDP responses: $(cat "$T/u")"

# Without the heuristics, nothing on 19695; the port preference or Decode As
# brings every message back.
n=$(ts --disable-heuristic ccn_tcp -r "$TCP" -Y ccn | wc -l)
[ "$n" = 0 ] || fail "heuristic disabled: $n CCN frames"
n=$(ts --disable-heuristic ccn_tcp -o ccn.tcp.port:19695 -r "$TCP" -Y ccn | wc -l)
[ "$n" = 26 ] || fail "ccn.tcp.port preference: $n CCN frames"
n=$(ts --disable-heuristic ccn_tcp -d tcp.port==19695,ccn -r "$TCP" -Y ccn | wc -l)
[ "$n" = 26 ] || fail "Decode As tcp.port==19695,ccn: $n CCN frames"
n=$(ts --disable-heuristic ccn_udp -o ccn.udp.port:19695,19696 -r "$UDP" -Y ccn | wc -l)
[ "$n" = 4 ] || fail "ccn.udp.port preference: $n CCN frames"
n=$(ts --disable-heuristic ccn_udp -d udp.port==19696,ccn -r "$UDP" -Y ccn | wc -l)
[ "$n" = 4 ] || fail "Decode As udp.port==19696,ccn: $n CCN frames"

# No complaints about well-formed reference traffic.
for c in "$TCP" "$UDP"; do
    n=$(ts -r "$c" -Y 'ccn.malformed || ccn.truncated || ccn.schema || ccn.badvalue' | wc -l)
    [ "$n" = 0 ] || fail "expert complaints about reference traffic in $c: $n"
done
echo "shared captures: ok"
