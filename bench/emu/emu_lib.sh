# The emulation harness: many real ccnd on one machine, one network
# namespace per node, veth pairs for links, shaped in rate, delay and loss.
# Sourced by the experiments (bench/emu/*.sh) and by tests/tools/
# test_emu_netns.sh; needs root, iproute2 and tc. See docs/network.md.
#
# A topology is a text file, one statement a line ('#' starts a comment):
#   node NAME                                  a host with its own ccnd
#   link A B [rate=R] [delay=MS] [loss=PCT]    a link; each direction gets
#                                              the same shaping
#   route NODE PREFIX NEXT                     NODE forwards PREFIX to NEXT
#                                              (ccndc add over UDP)
# Rates are tc's (100mbit, 2mbit...), delays whole ms one way, losses whole
# percents.
#
# Shaping: netem when the kernel has it (delay, loss and rate in one
# qdisc). Without netem: rate with tbf; loss with a BPF classifier on
# egress that drops at random (tests/tools/loss_lib.sh); delay with a UDP
# relay (udp_delay relay) on the sending side of each route that crosses
# the link, which holds every datagram, both ways, for the delay. What
# each link really got is in $EMU_DIR/links.txt.
#
#   emu_up FILE         builds the topology, starts a ccnd per node, routes
#   emu_on NODE CMD...  runs CMD in NODE's namespace with NODE's ccnd
#   emu_addr NODE PEER  NODE's address on its link to PEER
#   emu_dev NODE PEER   NODE's interface on its link to PEER
#   emu_pid NODE        the pid of NODE's ccnd
#   emu_wait_content NODE URI  until something answers URI at NODE
#   emu_stats           each ccnd's status (JSON) into $EMU_DIR/stats/NODE.json
#   emu_face_count NODE KINDS METER  messages counted by a meter (datain,
#                       dataout, intrin, introut) on NODE's faces of KINDS
#                       (a regex: udp|tcp, unix)
#   emu_copies [NODE]   objects NODE's ccnd sent on network faces over the
#                       distinct objects its store took in
#   emu_median          the median of the numbers on stdin
#   emu_measure A B     measured one-way delay (ms) and loss (%) of link A-B
#   emu_down            stops everything and removes the namespaces
# Each route's face is in $EMU_DIR/routes.txt ("NODE PREFIX NEXT HOST:PORT",
# the address NODE's ccnd sends to).
# Set before sourcing: B (programs) and EMU_DIR (an empty folder).

: "${B:?}" "${EMU_DIR:?}"
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/tools/loss_lib.sh" || return 1
EMU_TAG=$(($$ % 10000))
EMU_NODES=()
EMU_LINKS=() # "A B rate delay loss" (empty fields as -)
EMU_PIDS=()
EMU_HOW=

emu_ns() { echo "emu$EMU_TAG$1"; }

emu_on() {
    local n=$1
    shift
    ip netns exec "$(emu_ns "$n")" env CCN_LOCAL_SOCKNAME="$EMU_DIR/$n/sock" CCNX_DIR="$EMU_DIR/$n" \
        CCND_KEYSTORE_DIRECTORY="$EMU_DIR/$n" CCND_LOG="$EMU_DIR/$n/ccnd.log" \
        CCN_LOCAL_PORT=9695 "$@"
}

# emu_link_index A B: the index of the link between A and B (either way).
emu_link_index() {
    local i
    for i in "${!EMU_LINKS[@]}"; do
        set -- "$1" "$2" ${EMU_LINKS[$i]}
        if { [ "$3" = "$1" ] && [ "$4" = "$2" ]; } || { [ "$3" = "$2" ] && [ "$4" = "$1" ]; }; then
            echo "$i"
            return 0
        fi
    done
    return 1
}

emu_addr() {
    local i
    i=$(emu_link_index "$1" "$2") || return 1
    set -- "$1" "$2" ${EMU_LINKS[$i]}
    [ "$1" = "$3" ] && echo "10.90.$i.1" || echo "10.90.$i.2"
}

emu_dev() { # emu_dev NODE PEER: NODE's interface on the link
    local i
    i=$(emu_link_index "$1" "$2") || return 1
    set -- "$1" "$2" ${EMU_LINKS[$i]}
    [ "$1" = "$3" ] && echo "l${i}a" || echo "l${i}b"
}

emu_field() { # emu_field KEY=VALUE... KEY: the value, or -
    local key=$1 kv
    shift
    for kv in "$@"; do
        [ "${kv%%=*}" = "$key" ] && { echo "${kv#*=}"; return; }
    done
    echo -
}

# Shapes one end (egress) of link i; prints what it got.
emu_shape() {
    local ns=$1 dev=$2 rate=$3 delay=$4 loss=$5 got=""
    if [ "$EMU_HOW" = netem ]; then
        local args=()
        [ "$delay" != - ] && args+=(delay "${delay}ms")
        [ "$loss" != - ] && args+=(loss "${loss}%")
        [ "$rate" != - ] && args+=(rate "$rate")
        [ ${#args[@]} -gt 0 ] && { tc -n "$ns" qdisc add dev "$dev" root netem "${args[@]}" || return 1; }
        got="netem ${args[*]}"
    else
        if [ "$rate" != - ]; then
            tc -n "$ns" qdisc add dev "$dev" root tbf rate "$rate" burst 64kb latency 400ms || return 1
            got="rate tbf $rate"
        fi
        if [ "$loss" != - ]; then
            loss_attach "$ns" "$dev" "$loss" || return 1
            got="$got${got:+, }loss bpf $loss%"
        fi
        [ "$delay" != - ] && got="$got${got:+, }delay relay ${delay}ms"
    fi
    echo "${got:-none}"
}

emu_parse() {
    local kind a b c
    while read -r kind a b c; do
        case "$kind" in
        node) EMU_NODES+=("$a") ;;
        link) EMU_LINKS+=("$a $b $(emu_field rate $c) $(emu_field delay $c) $(emu_field loss $c)") ;;
        route | "" | "#"*) ;;
        *) echo "emu: unknown statement '$kind'" >&2; return 1 ;;
        esac
    done < <(sed 's/#.*//' "$1")
}

emu_up() {
    local topo=$1
    emu_parse "$topo" || return 1
    mkdir -p "$EMU_DIR/stats"
    local n i
    for n in "${EMU_NODES[@]}"; do
        mkdir -p "$EMU_DIR/$n"
        ip netns add "$(emu_ns "$n")" && ip -n "$(emu_ns "$n")" link set lo up || return 1
    done
    : >"$EMU_DIR/links.txt"
    for i in "${!EMU_LINKS[@]}"; do
        set -- ${EMU_LINKS[$i]}
        ip link add "l${i}a" netns "$(emu_ns "$1")" type veth peer name "l${i}b" netns "$(emu_ns "$2")" &&
            ip -n "$(emu_ns "$1")" addr add "10.90.$i.1/24" dev "l${i}a" &&
            ip -n "$(emu_ns "$2")" addr add "10.90.$i.2/24" dev "l${i}b" &&
            ip -n "$(emu_ns "$1")" link set "l${i}a" up && ip -n "$(emu_ns "$2")" link set "l${i}b" up ||
            return 1
        if [ -z "$EMU_HOW" ]; then
            loss_init "$EMU_DIR" "$(emu_ns "$1")" "l${i}a"
            EMU_HOW=${LOSS_HOW:-none}
        fi
        local g1 g2
        g1=$(emu_shape "$(emu_ns "$1")" "l${i}a" "$3" "$4" "$5") &&
            g2=$(emu_shape "$(emu_ns "$2")" "l${i}b" "$3" "$4" "$5") || return 1
        echo "$1-$2: $g1 | $2-$1: $g2" >>"$EMU_DIR/links.txt"
    done
    for n in "${EMU_NODES[@]}"; do
        emu_on "$n" timeout 30 "$B/ccndstart" >/dev/null 2>"$EMU_DIR/$n/start.err" || return 1
    done
    local kind node prefix next
    while read -r kind node prefix next; do
        [ "$kind" = route ] && { emu_route "$node" "$prefix" "$next" || return 1; }
    done < <(sed 's/#.*//' "$topo")
}

# emu_wait_bound NODE PORT: until a UDP socket of NODE listens on PORT (10 s).
emu_wait_bound() {
    local i
    for i in $(seq 1000); do
        [ -n "$(ip netns exec "$(emu_ns "$1")" ss -Hlun "sport = :$2")" ] && return 0
        sleep 0.01
    done
    echo "emu: nothing listens on $1's UDP port $2" >&2
    return 1
}

# emu_route NODE PREFIX NEXT: over UDP, through a delay relay when needed.
emu_route() {
    local i to port
    i=$(emu_link_index "$1" "$3") || { echo "emu: no link $1-$3" >&2; return 1; }
    to=$(emu_addr "$3" "$1")
    set -- "$1" "$2" "$3" ${EMU_LINKS[$i]}
    if [ "$7" != - ] && [ "$EMU_HOW" != netem ]; then
        port=$((30000 + ${#EMU_PIDS[@]}))
        emu_on "$1" "$B/udp_delay" relay "127.0.0.1:$port" "$to:9695" "$7" &
        EMU_PIDS+=($!)
        # ccnd's face would take the relay's absence for a refusal
        emu_wait_bound "$1" "$port" || return 1
        emu_on "$1" "$B/ccndc" add "$2" udp 127.0.0.1 "$port" >/dev/null || return 1
        echo "$1 $2 $3 127.0.0.1:$port" >>"$EMU_DIR/routes.txt"
    else
        emu_on "$1" "$B/ccndc" add "$2" udp "$to" 9695 >/dev/null || return 1
        echo "$1 $2 $3 $to:9695" >>"$EMU_DIR/routes.txt"
    fi
}

# emu_wait_content NODE URI: until NODE's ccnd gets an answer under URI (30 s)
emu_wait_content() {
    local i
    for i in $(seq 30); do
        emu_on "$1" timeout 5 "$B/ccnpeek" -w 1 "$2" >/dev/null 2>&1 && return 0
    done
    echo "emu: nothing answers $2 at $1" >&2
    return 1
}

emu_pid() {
    emu_on "$1" "$B/ccndstatus" -j | grep -o '"pid":[0-9]*' | head -n 1 | cut -d: -f2
}

emu_stats() {
    local n
    for n in "${EMU_NODES[@]}"; do
        emu_on "$n" "$B/ccndstatus" -j >"$EMU_DIR/stats/$n.json" || return 1
    done
}

# Sum of a meter's totals (datain, dataout, ...) over the node's faces of
# the given kinds, from its stats file.
emu_face_count() {
    grep -E "\"kind\":\"($2)\".*\"http\":false" "$EMU_DIR/stats/$1.json" |
        grep -o "\"$3\":{\"total\":[0-9]*" | sed 's/.*"total"://' | awk '{s += $1} END {print s + 0}'
}

# emu_copies [NODE]: the copies of what NODE (default origin) published
# that left it, from the stats files: ContentObjects its ccnd sent on
# network faces over the distinct objects its content store took in
# (cobs.accessioned; a producer that hands an object twice counts once).
emu_copies() {
    local node=${1:-origin} made out
    made=$(grep -o '"accessioned":[0-9]*' "$EMU_DIR/stats/$node.json" | cut -d: -f2)
    out=$(emu_face_count "$node" 'udp|tcp' dataout)
    awk -v o="$out" -v m="${made:-0}" 'BEGIN {printf "%.3f", (m > 0 ? o / m : 0)}'
}

# emu_median: the median of the numbers on stdin, or -
emu_median() {
    sort -n | awk '{v[NR] = $1} END {print (NR ? v[int((NR + 1) / 2)] : "-")}'
}

# emu_measure A B: "DELAY_MS LOSS_PCT" of link A-B, A to B, with a probe
# through the same means (a relay of the same delay; the veth's own loss):
# half the smallest round trip of 100 probes (what the link itself adds;
# a busy machine only lengthens the others), and the share of 200,000
# datagrams that did not arrive (enough that a 2% loss is known to 0.03%).
emu_measure() {
    local i to delay loss
    i=$(emu_link_index "$1" "$2") || return 1
    to=$(emu_addr "$2" "$1")
    set -- "$1" "$2" ${EMU_LINKS[$i]}
    emu_on "$2" "$B/udp_delay" echo "$to:7" &
    EMU_PIDS+=($!)
    local target="$to:7" rtt
    if [ "$6" != - ] && [ "$EMU_HOW" != netem ]; then
        emu_on "$1" "$B/udp_delay" relay 127.0.0.1:7 "$to:7" "$6" &
        EMU_PIDS+=($!)
        target=127.0.0.1:7
    fi
    emu_wait_bound "$2" 7 && { [ "$target" != 127.0.0.1:7 ] || emu_wait_bound "$1" 7; } || return 1
    rtt=$(emu_on "$1" "$B/udp_delay" ping "$target" 100 | cut -d' ' -f3)
    emu_on "$2" timeout 60 "$B/udp_delay" sink "$to:9" 1000 >"$EMU_DIR/sink.out" &
    local sinkpid=$!
    emu_wait_bound "$2" 9 || return 1
    emu_on "$1" "$B/udp_delay" blast "$to:9" 200000
    wait "$sinkpid"
    loss=$(awk '{printf "%.2f", 100 * (1 - $1 / 200000)}' "$EMU_DIR/sink.out")
    delay=$(awk -v r="$rtt" 'BEGIN {printf "%.2f", r / 2}')
    echo "$delay $loss"
}

emu_down() {
    local p n
    for p in "${EMU_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    for n in "${EMU_NODES[@]}"; do
        emu_on "$n" "$B/ccndstop" >/dev/null 2>&1
        ip netns pids "$(emu_ns "$n")" 2>/dev/null | xargs -r kill 2>/dev/null
        ip netns del "$(emu_ns "$n")" 2>/dev/null
    done
    wait 2>/dev/null
    EMU_PIDS=()
}
