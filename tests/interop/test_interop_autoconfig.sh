#!/bin/bash
# The reference's ccnd-autoconfig finds a hub on the link and routes ccnx:/
# to it. A host and a hub, each a network namespace with its own forwarder,
# joined by a veth pair: the hub joins the CCNx multicast group and
# publishes its address under ccnx:/local/ndn/udp (as the reference's
# ccnd-publish-local-info does, with a seqwriter of freshness 5 s); the
# script, on the host, asks its forwarder for a temporary multicast face,
# reads the hub's address with ccncat at Scope 2, registers ccnx:/ and
# ccnx:/autoconf-route on a UDP face to it, and removes the multicast face.
# With no hub on the link the script asks `ccndc srv`, which routes to the
# hub that DNS names: the host's resolver (ip netns exec puts
# /etc/netns/HOST/resolv.conf in place) asks a server of two records on the
# hub, which names it by an SRV record of _ccnx._tcp in the search domain.
# Run against our forwarder with the reference's tools, and with ours
# (the same script beside our ccndstatus, ccndc and ccncat) against ours and
# against the reference's forwarder, with either kind of hub. Run twice, the
# second run replaces the first one's routes. A ccnpeek on the host then gets
# what a ccnpoke serves on the hub.
#
# Needs root and ip netns; skipped otherwise.
set -u
INTEROP_TAG=interop-autoconfig
INTEROP_PORT_BASE=18800
. "$(dirname "$0")/interop_lib.sh"

if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 77
fi
[ -f "$REF/bin/ccnd-autoconfig" ] || { echo "SKIP: no ccnd-autoconfig in $REF/bin"; exit 77; }

NS_HOST=ccnxac-h$$
NS_HUB=ccnxac-b$$
HUB_ADDR=10.78.0.1
netns_cleanup() {
    cleanup
    rm -rf "/etc/netns/$NS_HOST"
    ip netns del "$NS_HOST" 2>/dev/null
    ip netns del "$NS_HUB" 2>/dev/null
}
trap netns_cleanup EXIT
ip netns add "$NS_HOST" && ip netns add "$NS_HUB" || fail "cannot make the namespaces"
ip link add ach$$ netns "$NS_HOST" type veth peer name acb$$ netns "$NS_HUB" ||
    fail "cannot make the veth pair"
# The multicast route tells each forwarder which link its multicast face is on.
for ns_dev_addr in "$NS_HOST ach$$ 10.78.0.2" "$NS_HUB acb$$ $HUB_ADDR"; do
    set -- $ns_dev_addr
    ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
        ip -n "$1" link set lo up && ip -n "$1" route add 224.0.0.0/4 dev "$2" ||
        fail "cannot set up $2 in $1"
done

mkdir -p "/etc/netns/$NS_HOST" &&
    printf 'nameserver %s\nsearch ccnx.test\noptions timeout:1 attempts:1\n' "$HUB_ADDR" \
        >"/etc/netns/$NS_HOST/resolv.conf" || fail "cannot give the host a resolver"

# The script as it is, and a copy beside our tools, which it then runs
# (it puts its own folder first in PATH).
mkdir -p "$T/our-bin"
cp "$REF/bin/ccnd-autoconfig" "$T/our-bin/"
for tool in ccndstatus ccndc ccncat; do ln -s "$B/$tool" "$T/our-bin/$tool"; done

# autoconfig ours|ref: the script with those tools, as a client of HOST.
autoconfig() {
    if [ "$1" = ours ]; then
        on HOST ours_script "$T/our-bin/ccnd-autoconfig"
    else
        on HOST ref_script "$REF/bin/ccnd-autoconfig"
    fi
}
ours_script() { CCNX_DIR="$T/our-user" "${NSX[@]}" timeout 60 sh "$1"; }
ref_script() {
    CCNX_DIR="$T/ref-user" LD_LIBRARY_PATH="$REF/lib" "${NSX[@]}" timeout 60 sh "$1"
}

# hub_publishes KIND: the hub's seqwriter of KIND serves its address. Ours
# answers from the background until the script has read it; the
# reference's hands the segment to the hub's ccnd and exits. Either way it is
# fresh for a minute (the reference's ccnd-publish-local-info says 5 s, but
# stores it in a repository, which still answers once it is stale).
hub_publishes() {
    printf '%s 9695\n' "$HUB_ADDR" >"$T/hubinfo.in"
    on HUB ref ccndc add ccnx:/local/ndn udp 224.0.23.170 59695 >/dev/null 2>&1 ||
        fail "the hub has no multicast face"
    if [ "$1" = ours ]; then
        bg_in hubinfo "$T/hubinfo.in" env CCN_LOCAL_SOCKNAME="$T/HUB.sock" CCNX_DIR="$T/our-user" \
            ip netns exec "$NS_HUB" timeout 60 "$B/ccnseqwriter" -x 60 ccnx:/local/ndn/udp
        wait_for 30 hub_registered || fail "the hub's ccnseqwriter did not register"
    else
        on HUB ref ccnseqwriter -x 60 ccnx:/local/ndn/udp <"$T/hubinfo.in" >"$T/hubinfo.log" 2>&1 ||
            fail "the hub's reference ccnseqwriter: $(cat "$T/hubinfo.log")"
        BG_PID=
    fi
}
hub_registered() { on HUB ref ccndstatus 2>/dev/null | grep -q "^ *ccnx:/local/ndn/udp face:"; }

# routed_to_hub: HOST's status lists ccnx:/ and ccnx:/autoconf-route on one
# face, that face goes to the hub, and no multicast face is left.
routed_to_hub() {
    on HOST ref ccndstatus >"$T/status.txt" 2>&1 || fail "ccndstatus on the host"
    local face root
    face=$(awk '$1 == "ccnx:/autoconf-route" && $2 == "face:" { print $3 }' "$T/status.txt")
    root=$(awk '$1 == "ccnx:/" && $2 == "face:" { print $3 }' "$T/status.txt")
    [ -n "$face" ] && [ "$(echo "$face" | wc -l)" = 1 ] && [ "$face" = "$root" ] ||
        fail "$1: not one face for ccnx:/ and ccnx:/autoconf-route: $(grep ccnx: "$T/status.txt")"
    grep -q "face: $face .*remote: $HUB_ADDR:9695" "$T/status.txt" ||
        fail "$1: face $face does not go to the hub: $(grep "face: $face " "$T/status.txt")"
    ! grep -q "224.0.23.170:59695" "$T/status.txt" ||
        fail "$1: the temporary multicast face is still there"
}

# hub_data_reaches_host TEXT: a ccnpoke on the hub, a ccnpeek on the host.
hub_data_reaches_host() {
    printf '%s' "$1" >"$T/poke.in"
    bg_in poke "$T/poke.in" env CCN_LOCAL_SOCKNAME="$T/HUB.sock" CCNX_DIR="$T/our-user" \
        ip netns exec "$NS_HUB" timeout 60 "$B/ccnpoke" "ccnx:/hubdata/$1"
    wait_for 30 eval "on HOST ours ccnpeek -c -w 1 ccnx:/hubdata/$1 >'$T/peek.out' 2>/dev/null &&
        [ \"\$(cat '$T/peek.out')\" = '$1' ]" ||
        fail "the host does not reach the hub's ccnx:/hubdata/$1"
    stop_bg "$BG_PID"
}

# run_case HOST_KIND HUB_KIND TOOLS RUNS
run_case() {
    local what="$3 ccnd-autoconfig, $1 ccnd on the host, $2 hub" run
    start_ccnd HOST "$1" "$NS_HOST"
    start_ccnd HUB "$2" "$NS_HUB"
    for run in $(seq "$4"); do
        hub_publishes "$2"
        autoconfig "$3" >"$T/autoconfig.log" 2>&1 || fail "$what: exit $?: $(cat "$T/autoconfig.log")"
        grep -q "Setting default route to a local hub: $HUB_ADDR 9695" "$T/autoconfig.log" ||
            fail "$what: $(cat "$T/autoconfig.log")"
        [ -z "$BG_PID" ] || stop_bg "$BG_PID"
        routed_to_hub "$what (run $run)"
    done
    hub_data_reaches_host "$1-$2-$3"
    for p in "${CCNDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    wait "${CCNDS[@]}" 2>/dev/null
    CCNDS=()
    ok "$what; $4 run(s), ccnx:/ routed to the hub"
}

# run_dns_case HOST_KIND TOOLS: no hub on the link, one in DNS.
run_dns_case() {
    local what="$2 ccnd-autoconfig, $1 ccnd on the host, no hub on the link, one in DNS"
    start_ccnd HOST "$1" "$NS_HOST"
    start_ccnd HUB ours "$NS_HUB"
    bg dns ip netns exec "$NS_HUB" "${CCNX_TESTS_BIN:?}/dns_answer" "$HUB_ADDR" _ccnx._tcp.ccnx.test \
        hub.ccnx.test "$HUB_ADDR" 9695
    local dns=$BG_PID
    wait_for 10 grep -q ready "$T/dns.log" || fail "the test's DNS server: $(cat "$T/dns.log")"
    autoconfig "$2" >"$T/autoconfig.log" 2>&1
    grep -q "Local hub is not availble" "$T/autoconfig.log" || fail "$what: $(cat "$T/autoconfig.log")"
    routed_to_hub "$what"
    hub_data_reaches_host "dns-$1-$2"
    stop_bg "$dns"
    for p in "${CCNDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    wait "${CCNDS[@]}" 2>/dev/null
    CCNDS=()
    ok "$what; ccnx:/ routed to the hub"
}

run_case ours ours ref 2
run_case ref ours ours 2
run_case ours ref ours 1
run_case ours ref ref 1
run_dns_case ours ref
run_dns_case ref ours
run_dns_case ours ours
