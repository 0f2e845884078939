#!/usr/bin/env bash
# The reference's own traffic on the wire (part of the interop suite): two
# of the CCNx 0.8.2 reference's forwarders, joined over UDP and over TCP,
# carry its ccnpoke/ccnpeek, a stream its ccnseqwriter stores in its ccnr
# and its ccncat reads, and its ccnls listing them, while dumpcap
# records loopback (its ccnls's Exclude rounds and its repository's
# start-write included); every ccnb message must decode, with the names
# exchanged, and no frame may carry a complaint (malformed or otherwise).
# The reference is found as by the other interop tests (CCNX_REF, default
# ../shared/ccnx-0.8.2); capturing needs root.
. "$(dirname "$0")/lib.sh"

REF=${CCNX_REF:-${CCNX_SRC:?}/../shared/ccnx-0.8.2}
[ -x "$REF/bin/ccnd" ] || skip "no CCNx 0.8.2 reference build at $REF (set CCNX_REF to one)"
[ "$(id -u)" = 0 ] || skip "capturing on lo needs root (dumpcap)"
command -v dumpcap >/dev/null 2>&1 || skip "dumpcap is not installed"
R=$(cd "$REF/bin" && pwd)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$T"' EXIT

# Two ports for the forwarders, outside every port the plugin registers,
# in the range docs/testing.md gives this test.
PA=$((18600 + $$ % 25 * 4))
PB=$((PA + 1))
mkdir -p "$T/ka" "$T/kb" "$T/user" "$T/repo"
chmod 700 "$T/ka" "$T/kb"
on() { # PORT COMMAND...: a reference program as a client of the forwarder on PORT
    local port=$1
    shift
    env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/s" CCNX_DIR="$T/user" timeout 60 "$@"
}

CAP="$T/ref.pcapng"
dumpcap -q -i lo -f "udp port $PA or udp port $PB or tcp port $PA or tcp port $PB" -w "$CAP" \
    2>"$T/dumpcap.err" &
PIDS+=($!)
for _ in $(seq 50); do [ -s "$CAP" ] && break; sleep 0.1; done
[ -s "$CAP" ] || skip "dumpcap could not capture on lo: $(head -1 "$T/dumpcap.err")"
chmod 644 "$CAP"

for port in $PA $PB; do
    [ $port = $PA ] && ks=$T/ka || ks=$T/kb
    env CCN_LOCAL_PORT=$port CCN_LOCAL_SOCKNAME="$T/s" CCND_KEYSTORE_DIRECTORY="$ks" \
        "$R/ccnd" >"$T/ccnd$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 200); do [ -S "$T/s.$port" ] && break; sleep 0.05; done
    [ -S "$T/s.$port" ] || fail "the reference's ccnd on $port did not start"
done
on $PB "$R/ccndc" add ccnx:/wsu udp 127.0.0.1 $PA >/dev/null 2>&1 || fail "ccndc add udp"
on $PB "$R/ccndc" add ccnx:/wst tcp 127.0.0.1 $PA >/dev/null 2>&1 || fail "ccndc add tcp"
env CCN_LOCAL_PORT=$PA CCN_LOCAL_SOCKNAME="$T/s" CCNX_DIR="$T/user" CCNR_DIRECTORY="$T/repo" \
    timeout 120 "$R/ccnr" >"$T/ccnr.log" 2>&1 &
PIDS+=($!)

for p in wsu wst; do
    printf 'over %s\n' $p | on $PA "$R/ccnpoke" -w 30 ccnx:/$p/poked >/dev/null 2>&1 &
    PIDS+=($!)
    ok=
    for _ in $(seq 50); do
        on $PB "$R/ccnpeek" -c -w 1 ccnx:/$p/poked >"$T/peek" 2>/dev/null && { ok=1; break; }
    done
    [ -n "$ok" ] || fail "ccnpeek over $p"
    head -c 100000 /dev/urandom >"$T/f"
    on $PA "$R/ccnseqwriter" -r ccnx:/$p/stream <"$T/f" >/dev/null 2>&1 || fail "ccnseqwriter -r over $p"
    on $PB "$R/ccncat" ccnx:/$p/stream >"$T/got" 2>/dev/null || fail "ccncat over $p"
    cmp -s "$T/f" "$T/got" || fail "ccncat over $p: the stream differs"
    on $PB "$R/ccnls" ccnx:/$p >"$T/ls" 2>/dev/null
    grep -q "^stream" "$T/ls" || fail "ccnls over $p: $(cat "$T/ls")"
done
sleep 0.5
kill -INT "${PIDS[0]}"
wait "${PIDS[0]}" 2>/dev/null

ts -r "$CAP" -Y ccn -T fields -e ccn.name >"$T/names"
ts_ok $? "decoding the reference's traffic"
for name in ccnx:/wsu/poked ccnx:/wst/poked; do
    grep -q -x -F "$name" "$T/names" || fail "no message named $name in the capture"
done
grep -q "^ccnx:/wsu/stream/%FD" "$T/names" || fail "the UDP stream is not in the capture"
grep -q "^ccnx:/wst/stream/%FD" "$T/names" || fail "the TCP stream is not in the capture"
ts -r "$CAP" -Y "_ws.malformed || _ws.expert.severity >= warning" -T fields -e frame.number >"$T/bad"
ts_ok $? "looking for complaints"
[ ! -s "$T/bad" ] || fail "frames with complaints: $(tr '\n' ' ' <"$T/bad" | cut -c1-300)"
echo "ok: $(wc -l <"$T/names") messages of the reference's own traffic decoded (UDP and TCP links), no complaint"
