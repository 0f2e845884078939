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
# sends none, so the others show its key's digest. Then two windows of one
# account of ours, with two nicknames, are two members to all three.
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
    local account=$T/$who
    [ "$who" = amy ] && account=$T/alice # a second window of alice's account
    local env=(env CCN_LOCAL_PORT="$port" CCN_LOCAL_SOCKNAME="$T/$node.sock" CCNX_DIR="$account")
    case $who in
    jbob) bg_in "$who" "$T/$who.in" "${env[@]}" CCNX_USER_NAME=jbob "$REF/bin/ccnchat" -text "$ROOM" ;;
    carol) bg_in "$who" "$T/$who.in" "${env[@]}" "$REF/bin/ccnc" -d "$ROOM" ;;
    alice | amy) bg_in "$who" "$T/$who.in" "${env[@]}" USER="$who" "$B/ccnchat" --line "$ROOM" ;;
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

# account_round: two windows of one account of ours (alice and amy, one
# keystore, a key of its own per nickname) are two members to every chat:
# the Java chat shows each line under its nickname, ccnc under two key
# digests, and each of ours the other's name.
account_round() {
    ROOM=ccnx:/interop/account/room
    join jbob A
    shows jbob "jbob has entered"
    join alice A
    shows jbob "alice has entered"
    join amy A
    shows jbob "amy has entered"
    shows alice "] amy has entered"
    join carol A
    shows carol "amy has entered"
    says alice "from alice, one account"
    shows amy "] from alice, one account"
    shows jbob "]: from alice, one account"
    shows carol "from alice, one account"
    says amy "from amy, one account"
    shows alice "] from amy, one account"
    shows jbob "]: from amy, one account"
    shows carol "from amy, one account"
    grep -F "] from amy, one account" "$T/alice.log" | grep -q '^\[amy ' ||
        fail "alice shows amy's line under another name: $(grep -F "from amy" "$T/alice.log")"
    grep -F "] from alice, one account" "$T/amy.log" | grep -q '^\[alice ' ||
        fail "amy shows alice's line under another name: $(grep -F "from alice" "$T/amy.log")"
    grep -F "]: from amy, one account" "$T/jbob.log" | grep -q '\[amy ' ||
        fail "the Java chat shows amy's line under another name: $(grep -F "from amy" "$T/jbob.log")"
    grep -F "]: from alice, one account" "$T/jbob.log" | grep -q '\[alice ' ||
        fail "the Java chat shows alice's line under another name: $(grep -F "from alice" "$T/jbob.log")"
    local da dm
    da=$(grep -F "from alice, one account" "$T/carol.log" | tail -n 1 | awk '{print $1}')
    dm=$(grep -F "from amy, one account" "$T/carol.log" | tail -n 1 | awk '{print $1}')
    [ -n "$da" ] && [ "$da" != "$dm" ] || fail "ccnc shows alice and amy as one key: '$da' '$dm'"
    leaves carol
    leaves amy
    leaves alice
    leaves jbob
    ok "account: two windows of one account are two members to the Java chat, ccnc and ours"
    rm -f "$T"/{jbob,carol,alice,amy}.in "$T"/{jbob,carol,alice,amy}.log
}

start_ccnd A ours
start_ccnd B ref
link A B ccnx:/interop/split
link B A ccnx:/interop/split
room_round ours A A A
room_round ref B B B
room_round split B A A
account_round
echo "all chat interop checks passed"
