#!/bin/bash
# A file transfer between two hosts: two network namespaces joined by a veth
# pair, one ccnd in each, a UDP route from the consumer's ccnd to the
# producer's set with ccndc. A 100 MB file published by ccnputfile on one
# side arrives byte-identical through ccngetfile on the other, without loss
# and with 1% and 5% of the packets dropped in both directions (netem, or a
# small BPF classifier where the kernel has no netem). Goodputs are printed,
# with the ratio of the 5% run to the loss-free one; only corruption, a
# missing file or a time bound fails the test, never the speed.
# Needs root and `ip netns`; skipped otherwise.
set -u
B=${CCNX_BIN:?}
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: needs root and ip netns (iproute2)"
    exit 0
fi
T=$(mktemp -d /tmp/transfernetns-XXXXXX)
NSP=ccnxprod$$
NSC=ccnxcons$$
VP=ftp$(($$ % 100000))
VC=ftc$(($$ % 100000))
PORT=$((13200 + $$ % 200))
PEER=10.79.0.1
SECONDS_PER_TRANSFER=80
PUBLISHERS=()

# ns_env NS SIDE: sets ENV to the command prefix that runs a program in
# namespace NS with SIDE's ccnd settings; ns_run NS SIDE SECS CMD... runs
# CMD that way for at most SECS seconds.
ns_env() {
    ENV=(ip netns exec "$1" env CCN_LOCAL_PORT="$PORT" CCN_LOCAL_SOCKNAME="$T/$2.sock"
        CCNX_DIR="$T/$2" CCND_KEYSTORE_DIRECTORY="$T/$2" CCND_LOG="$T/$2.ccnd.log")
}
ns_run() {
    local secs=$3
    ns_env "$1" "$2"
    shift 3
    timeout "$secs" "${ENV[@]}" "$@"
}
cleanup() {
    for p in "${PUBLISHERS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    ns_run "$NSP" prod 10 "$B/ccndstop" >/dev/null 2>&1
    ns_run "$NSC" cons 10 "$B/ccndstop" >/dev/null 2>&1
    ip netns del "$NSP" 2>/dev/null
    ip netns del "$NSC" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -n 5 "$T"/*.err 2>/dev/null; exit 1; }

ip netns add "$NSP" && ip netns add "$NSC" || fail "cannot create the namespaces"
ip link add "$VP" netns "$NSP" type veth peer name "$VC" netns "$NSC" || fail "no veth pair"
# Jumbo frames: each object travels in one packet. With 1500 bytes a 4 KB
# object is cut into three IP fragments; a lost one keeps the others in the
# kernel's reassembly memory for 30 s (net.ipv4.ipfrag_time), which fills up
# (ipfrag_high_thresh) at a few percent loss and then drops every fragment.
ip -n "$NSP" link set "$VP" mtu 9000 && ip -n "$NSC" link set "$VC" mtu 9000 || fail "mtu 9000"
ip -n "$NSP" addr add $PEER/24 dev "$VP" && ip -n "$NSP" link set "$VP" up &&
    ip -n "$NSP" link set lo up || fail "cannot configure $VP"
ip -n "$NSC" addr add 10.79.0.2/24 dev "$VC" && ip -n "$NSC" link set "$VC" up &&
    ip -n "$NSC" link set lo up || fail "cannot configure $VC"
mkdir -p "$T/prod" "$T/cons"
ns_run "$NSP" prod 30 "$B/ccndstart" >/dev/null 2>"$T/prod.start.err" || fail "ccndstart (producer)"
ns_run "$NSC" cons 30 "$B/ccndstart" >/dev/null 2>"$T/cons.start.err" || fail "ccndstart (consumer)"
ns_run "$NSC" cons 10 "$B/ccndc" add ccnx:/x udp $PEER $PORT >/dev/null 2>"$T/ccndc.err" ||
    fail "ccndc add ccnx:/x udp $PEER $PORT"
head -c $((100 << 20)) /dev/urandom >"$T/big" || fail "cannot make the 100 MB file"

# Loss in both directions (tests/tools/loss_lib.sh).
. "$(dirname "$0")/loss_lib.sh" || exit 1
set_loss() { loss_on "$NSP" "$VP" "$1" && loss_on "$NSC" "$VC" "$1"; }
find_loss_method() { loss_init "$T" "$NSP" "$VP"; }

# transfer TAG [ccngetfile options]: publish the file under a fresh name in
# the producer's namespace, fetch it in the consumer's (by the versioned name
# the publisher printed with -u, else by version discovery), compare; sets
# RATE (MB/s).
transfer() {
    local tag=$1 uri="ccnx:/x/$1"
    shift
    ns_env "$NSP" prod
    timeout $((SECONDS_PER_TRANSFER + 30)) "${ENV[@]}" "$B/ccnputfile" -r \
        -x $((SECONDS_PER_TRANSFER + 20)) -v "$uri" "$T/big" 2>"$T/$tag.put.err" &
    local pub=$!
    PUBLISHERS+=("$pub")
    local versioned=
    for _ in $(seq 200); do
        versioned=$(sed -n 's/^ccnputfile: publishing .* as //p' "$T/$tag.put.err")
        [ -n "$versioned" ] && break
        sleep 0.1
    done
    [ -n "$versioned" ] || fail "$tag: ccnputfile did not start serving"
    [ "${1:-}" = -u ] && uri=$versioned
    ns_run "$NSC" cons $SECONDS_PER_TRANSFER "$B/ccngetfile" -v "$@" "$uri" "$T/$tag.out" \
        2>"$T/$tag.get.err"
    local rc=$?
    kill "$pub" 2>/dev/null
    wait "$pub" 2>/dev/null
    [ "$rc" = 124 ] && fail "$tag: no complete transfer within $SECONDS_PER_TRANSFER s"
    [ "$rc" = 0 ] || fail "$tag: ccngetfile exit $rc"
    [ -f "$T/$tag.out" ] || fail "$tag: no file written"
    cmp -s "$T/big" "$T/$tag.out" || fail "$tag: the fetched file differs"
    rm -f "$T/$tag.out"
    RATE=$(sed -n 's/.* s (\([0-9.]*\) MB\/s) to .*/\1/p' "$T/$tag.get.err")
    echo "  $tag: $(sed 's/^ccngetfile: //; s/ to .*//' "$T/$tag.get.err" | tr '\n' ' ')"
}

# Without loss the newest version is found over the link first; with loss
# the exact version is given, so the figures are those of the segments alone.
transfer loss0
clean=$RATE
find_loss_method
if [ -z "$LOSS_HOW" ]; then
    echo "SKIP loss runs: tc cannot drop packets here (no netem qdisc: the sch_netem"
    echo "  kernel module is missing; no clang or tc bpf for the fallback)"
else
    echo "  loss injected with $LOSS_HOW, on both ends of the link"
    set_loss 1 || fail "cannot set 1% loss"
    transfer loss1 -u
    set_loss 5 || fail "cannot set 5% loss"
    transfer loss5 -u
    set_loss 0
    awk -v a="$RATE" -v b="$clean" 'BEGIN {
        printf "  goodput with 5%% loss / without: %.1f / %.1f MB/s = %.0f%%\n", a, b, (b > 0 ? 100 * a / b : 0) }'
fi

# In a sanitizer build, reports from ccnd (its log, once stopped) or from a
# background publisher would otherwise go unnoticed.
ns_run "$NSP" prod 30 "$B/ccndstop" >/dev/null 2>&1 || fail "ccndstop (producer)"
ns_run "$NSC" cons 30 "$B/ccndstop" >/dev/null 2>&1 || fail "ccndstop (consumer)"
bad=$(grep -l -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$T"/*.err "$T"/*.log 2>/dev/null)
[ -z "$bad" ] || fail "sanitizer reports in $bad"
echo PASS
