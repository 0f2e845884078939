#!/bin/bash
# Robustness: tshark must never crash, hit a dissector bug or (in sanitized
# builds) a memory error, on
#  - captures of random and mutated messages and random well-formed trees
#    (ccn_pcapgen fuzz, several seeds), over UDP, TCP and unregistered ports;
#  - every capture of the other tests corrupted by Wireshark's own editcap -E.
# Each run builds the full tree in two passes (-2 -V), and prints fields.
. "$(cd "${BASH_SOURCE[0]%/*}" 2>/dev/null && pwd || echo .)/lib.sh" || {
    echo "FAIL: cannot load lib.sh"
    exit 1
}
SEEDS=${CCN_WS_FUZZ_SEEDS:-"1 2 3 4 5"}

run() { # capture what
    ts -2 -V -r "$1" >/dev/null
    ts_ok $? "$2 (full tree)"
    ts -r "$1" -T fields -e ccn.name -e ccn.interest.nonce -e ccn.signedinfo.timestamp \
        -e ccn.response_to -e _ws.col.Info >/dev/null
    ts_ok $? "$2 (fields)"
}

for seed in $SEEDS; do
    run "$(gen fuzz "$seed")" "fuzz seed $seed"
done

command -v editcap >/dev/null 2>&1 || skip "editcap not installed: corrupted captures not tried"
captures=("$V/tcp_client_ccnd.pcap" "$V/udp_two_ccnd.pcap")
for scenario in tcp udp mcast ipv6 heur bad; do
    captures+=("$(gen "$scenario")")
done
for c in "${captures[@]}"; do
    for seed in $SEEDS; do
        editcap -E 0.02 --seed "$seed" "$c" "$T/corrupt.pcap" >/dev/null 2>&1 ||
            fail "editcap -E on $c"
        run "$T/corrupt.pcap" "$(basename "$c") corrupted with seed $seed"
    done
done
echo "fuzz: ok"
