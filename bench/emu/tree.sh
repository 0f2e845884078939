# The tree of the experiments (origin_load.sh, live_load.sh), sourced:
# the origin, a core router 5 ms from it, two routers 5 ms below the core,
# six leaf routers 2 ms below those, every router link 100 Mbit/s, and
# hosts c1..cN spread over the leaves on 100 Mbit/s links that lose LOSS
# percent each way. Every node routes PREFIX towards the origin.
#
#   emu_tree N LOSS PREFIX    prints the topology file
emu_tree() {
    local n=$1 loss=$2 prefix=$3 m l c
    echo "node origin"
    echo "node core"
    echo "link origin core rate=100mbit delay=5"
    echo "route core $prefix origin"
    for m in 1 2; do
        echo "node mid$m"
        echo "link core mid$m rate=100mbit delay=5"
        echo "route mid$m $prefix core"
        for l in 1 2 3; do
            echo "node leaf$m$l"
            echo "link mid$m leaf$m$l rate=100mbit delay=2"
            echo "route leaf$m$l $prefix mid$m"
        done
    done
    for c in $(seq "$n"); do
        local leaf="leaf$(((c - 1) % 2 + 1))$(((c - 1) / 2 % 3 + 1))"
        echo "node c$c"
        if [ "$loss" = 0 ]; then
            echo "link $leaf c$c rate=100mbit"
        else
            echo "link $leaf c$c rate=100mbit loss=$loss"
        fi
        echo "route c$c $prefix $leaf"
    done
}
