# Packet loss on a veth end, shared by the tests that cross network
# namespaces (sourced; its name does not start with test_). netem where the
# kernel has it, else a direct-action BPF classifier on egress that drops
# a packet with the given probability (compiled with clang at run time).
#
#   loss_init DIR NS DEV   picks the method, trying it on DEV in NS; the BPF
#                          source and object go to DIR. LOSS_HOW is netem,
#                          bpf, or empty when neither works.
#   loss_on NS DEV PERCENT sets the loss on DEV (0 removes it)
#   loss_attach NS DEV PERCENT adds the BPF dropper to DEV's egress without
#                          touching its root qdisc (a rate shaper stays)

LOSS_HOW=
LOSS_DIR=
loss_on() {
    tc -n "$1" qdisc del dev "$2" root 2>/dev/null
    tc -n "$1" qdisc del dev "$2" clsact 2>/dev/null
    if [ "$3" = 0 ]; then
        return 0
    elif [ "$LOSS_HOW" = netem ]; then
        tc -n "$1" qdisc add dev "$2" root netem loss "$3%"
    else
        loss_attach "$@"
    fi
}
loss_attach() {
    local obj="$LOSS_DIR/loss-$3.o"
    [ -f "$obj" ] || clang -O2 -target bpf -DPERMYRIAD=$(($3 * 100)) -c "$LOSS_DIR/loss.c" -o "$obj" ||
        return 1
    tc -n "$1" qdisc add dev "$2" clsact &&
        tc -n "$1" filter add dev "$2" egress bpf da obj "$obj" sec classifier
}
loss_init() {
    LOSS_DIR=$1
    if command -v tc >/dev/null && tc -n "$2" qdisc add dev "$3" root netem loss 1% 2>/dev/null; then
        LOSS_HOW=netem
    elif command -v tc >/dev/null && command -v clang >/dev/null; then
        cat >"$LOSS_DIR/loss.c" <<'SRC'
#define SEC(n) __attribute__((section(n), used))
static unsigned (*prandom)(void) = (void *)7; /* bpf_get_prandom_u32 */
SEC("classifier") int drop_random(void *skb)
{
    (void)skb;
    return prandom() % 10000 < PERMYRIAD ? 2 /* TC_ACT_SHOT */ : 0 /* TC_ACT_OK */;
}
char lic[] SEC("license") = "GPL";
SRC
        LOSS_HOW=bpf
        loss_on "$2" "$3" 1 2>"$LOSS_DIR/bpf.err" || LOSS_HOW=
    fi
    loss_on "$2" "$3" 0
}
