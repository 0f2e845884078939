#!/bin/bash
# Three chats in one room: the reference's Java chat (ccnchat -text), its C
# chat (ccnc) and ours, each seeing the others' lines, joins and leaves; on
# our ccnd, on the reference's, and split across the two joined over UDP.
# The Java client connects over TCP from a dual-stack socket and registers
# the room for itself (unreg, then selfreg, on its own face): our ccnd once
# refused it that ("the registration belongs to another user"), so its lines
# never left. Members speak one at a time and wait until the others showed
# the line, as people do: the Java chat asks only for the newest message it
# has not seen, so lines sent at the same moment may pass it by on any
# forwarder.
#
# What each shows of a line: ours "[NICK HH:MM] text", the Java chat
# "[NICK HH:MM]: text", ccnc "DIGEST text" (6 hex digits of the key's
# digest; it shows no nicknames). The Java chat publishes its nickname
# (CCNX_USER_NAME) under <room>/Users, ours in its member objects; ccnc
# sends none, so the others show its key's digest.
set -u
INTEROP_TAG=interop-chat
INTEROP_PORT_BASE=18100
. "$(dirname "$0")/interop_lib.sh"
have_java || { echo "SKIP: no Java runtime for the reference's Java chat (apt-get install default-jre-headless)"; exit 77; }

declare -A FD PID NODE

# join MEMBER NODE: MEMBER (jbob: Java, carol: ccnc, alice: ours) joins
# the room through forwarder NODE, reading a FIFO the test holds open.
join() {
    local who=$1 node=$2 port fd
    eval "port=\$PORT_$node"
    NODE[$who]=$node
    mkdir -p "$T/$who"
    mkfifo "$T/$who.in"
    exec {fd}<>"$T/$who.in"
    FD[$who]=$fd
    HELD_FDS+=("$fd")
    local env=(env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$node.sock" CCNX_DIR="$T/$who")
    case $who in
    jbob) bg_in "$who" "$T/$who.in" "${env[@]}" CCNX_USER_NAME=jbob "$REF/bin/ccnchat" -text "$ROOM" ;;
    carol) bg_in "$who" "$T/$who.in" "${env[@]}" "$REF/bin/ccnc" -d "$ROOM" ;;
    alice) bg_in "$who" "$T/$who.in" "${env[@]}" USER=alice "$B/ccnchat" --line "$ROOM" ;;
    esac
    PID[$who]=$BG_PID
}

# shows MEMBER TEXT: until MEMBER's output holds a line with TEXT (60 s).
shows() {
    wait_for 60 grep -qF -- "$2" "$T/$1.log" || fail "$1 never showed '$2'"
}

# says MEMBER TEXT: MEMBER sends a line (the Java chat takes a line only
# after an empty one switched it to input mode).
says() {
    if [ "$1" = jbob ]; then
        printf '\n%s\n' "$2" >&"${FD[$1]}"
    else
        printf '%s\n' "$2" >&"${FD[$1]}"
    fi
}

# leaves MEMBER: ours and ccnc leave at the end of their input; the Java
# chat only by a signal (and sends no farewell).
leaves() {
    eval "exec ${FD[$1]}>&-"
    local keep=() fd
    for fd in "${HELD_FDS[@]}"; do [ "$fd" = "${FD[$1]}" ] || keep+=("$fd"); done
    HELD_FDS=("${keep[@]}")
    if [ "$1" = jbob ]; then
        stop_bg "${PID[$1]}"
    else
        wait_for 30 eval "! kill -0 ${PID[$1]} 2>/dev/null" || fail "$1 did not leave"
    fi
}

# room_round TAG NODE_JAVA NODE_C NODE_OURS
room_round() {
    local tag=$1
    ROOM=ccnx:/interop/$tag/room
    join jbob "$2"
    shows jbob "jbob has entered"
    join alice "$4"
    shows alice "alice has entered"
    shows jbob "[alice "
    shows jbob "alice has entered"
    join carol "$3"
    shows carol "alice has entered"

    says alice "from alice $tag"
    shows jbob "[alice "
    shows jbob "]: from alice $tag"
    shows carol "from alice $tag"

    says carol "from carol $tag"
    shows alice "from carol $tag"
    shows jbob "from carol $tag"

    says jbob "from jbob $tag"
    shows alice "] from jbob $tag"
    grep -F "] from jbob $tag" "$T/alice.log" | grep -q '^\[jbob ' ||
        fail "ours shows the Java chat's line without its nickname: $(grep -F "from jbob" "$T/alice.log")"
    shows carol "from jbob $tag"

    leaves carol
    shows alice "leaving chat"
    leaves alice
    shows jbob "alice leaving chat"
    leaves jbob
    ok "$tag: Java ccnchat on $2, ccnc on $3, ours on $4: every line, join and leave seen"
    rm -f "$T"/{jbob,carol,alice}.in "$T"/{jbob,carol,alice}.log
}

start_ccnd A ours
start_ccnd B ref
link A B ccnx:/interop/split
link B A ccnx:/interop/split
room_round ours A A A
room_round ref B B B
room_round split B A A
echo "all chat interop checks passed"
