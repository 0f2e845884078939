#!/bin/bash
# Several local users on one ccnd (run as root): every user can connect to
# its unix socket (mode 0666 whatever the umask), and a control request
# that removes or changes a face or a registration another uid made is
# refused (403), unless it comes from root or ccnd's own uid; the face's
# owner decides what is routed to it; a strategy choice belongs to whoever
# made it and may not touch another user's registrations. Over the unix
# socket and over TCP from a loopback address.
set -u
B=${CCNX_BIN:?}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to act as other users"; exit 0; }
command -v setpriv >/dev/null || { echo "SKIP: no setpriv (util-linux)"; exit 0; }
T=$(mktemp -d /tmp/ccndusers-XXXXXX) || exit 1
chmod 755 "$T"
export CCN_LOCAL_PORT=$((16400 + $$ % 50)) CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/root" CCND_KEYSTORE_DIRECTORY="$T/ccnd"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN CCND_LOG CCND_DEBUG
ALICE=40001 BOB=40002
CCND=
cleanup() {
    [ -n "$CCND" ] && kill "$CCND" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    tail -n 3 "$T"/*.err 2>/dev/null
    exit 1
}
# as UID COMMAND...: runs a tool as that user, with a keystore of its own.
as() {
    local uid=$1
    shift
    mkdir -p "$T/u$uid" && chown "$uid:$uid" "$T/u$uid"
    setpriv --reuid="$uid" --regid="$uid" --clear-groups \
        env CCNX_DIR="$T/u$uid" timeout 30 "$@"
}
# the face ccnd made towards UDP port $1 on 127.0.0.1
face_to() {
    "$B/ccndstatus" -j | tr '{' '\n' | grep "\"remote\":\"127.0.0.1:$1\"" |
        sed -n 's/.*"faceid":\([0-9]*\).*/\1/p' | head -n 1
}
registered() { "$B/ccndstatus" -j | grep -q "\"prefix\":\"$1\",\"strategy\""; }

mkdir -p "$CCNX_DIR" "$CCND_KEYSTORE_DIRECTORY"
(umask 077 && exec "$B/ccnd" 2>"$T/ccnd.err") &
CCND=$!
for _ in $(seq 300); do [ -S "$T/sock.$CCN_LOCAL_PORT" ] && break; sleep 0.1; done
mode=$(stat -c %a "$T/sock.$CCN_LOCAL_PORT") || fail "no socket"
[ "$mode" = 666 ] || fail "the socket's mode is $mode under umask 077, not 666"

# Alice makes a face and a registration; Bob may not remove or change them.
as $ALICE "$B/ccndc" add ccnx:/alice udp 127.0.0.1 9001 2>"$T/alice.err" ||
    fail "alice cannot use ccnd: $(cat "$T/alice.err")"
FACE=$(face_to 9001)
[ -n "$FACE" ] || fail "no face to port 9001"
registered ccnx:/alice || fail "alice's registration is missing"
as $BOB "$B/ccndc" del ccnx:/alice face "$FACE" 2>"$T/bob.err" && fail "bob removed alice's registration"
grep -q "403" "$T/bob.err" || fail "bob's refusal does not say 403: $(cat "$T/bob.err")"
as $BOB "$B/ccndc" add ccnx:/alice face "$FACE" 8 2>/dev/null && fail "bob changed alice's registration"
as $BOB "$B/ccndc" destroyface "$FACE" 2>"$T/bob.err" && fail "bob destroyed alice's face"
grep -q "403" "$T/bob.err" || fail "bob's refusal does not say 403: $(cat "$T/bob.err")"
registered ccnx:/alice || fail "alice's registration went"

# Over TCP from this host, ccnd finds the user from the connecting socket.
as $BOB env CCN_LOCAL_TRANSPORT=tcp "$B/ccndc" destroyface "$FACE" 2>"$T/bob.err" &&
    fail "bob destroyed alice's face over TCP"
grep -q "403" "$T/bob.err" || fail "bob's refusal over TCP does not say 403: $(cat "$T/bob.err")"
as $ALICE env CCN_LOCAL_TRANSPORT=tcp "$B/ccndc" add ccnx:/alice/tcp face "$FACE" 2>"$T/alice.err" ||
    fail "alice cannot register over TCP: $(cat "$T/alice.err")"
as $ALICE env CCN_LOCAL_TRANSPORT=tcp "$B/ccndc" del ccnx:/alice/tcp face "$FACE" 2>"$T/alice.err" ||
    fail "alice cannot remove her own registration over TCP: $(cat "$T/alice.err")"

# Bob may add to Alice's face, and Alice, its owner, may remove that.
as $BOB "$B/ccndc" add ccnx:/bob face "$FACE" 2>"$T/bob.err" || fail "bob cannot add: $(cat "$T/bob.err")"
as $ALICE "$B/ccndc" del ccnx:/bob face "$FACE" 2>"$T/alice.err" ||
    fail "alice cannot remove what is routed to her face: $(cat "$T/alice.err")"
registered ccnx:/bob && fail "bob's registration on alice's face stayed"

# A strategy choice has an owner. Bob may not cut off a prefix a producer
# of root's serves (setstrategy null above its registration), nor change
# or remove a choice Alice made; each chooses where nothing of another's
# is, and root anywhere.
echo served | "$B/ccnpoke" -w 30 ccnx:/rootp/obj 2>"$T/poke.err" &
POKE=$!
for _ in $(seq 300); do registered ccnx:/rootp/obj && break; sleep 0.1; done
registered ccnx:/rootp/obj || fail "ccnpoke did not register"
as $BOB "$B/ccndc" setstrategy ccnx:/rootp null 2>"$T/bob.err" && fail "bob blackholed root's prefix"
grep -q "403" "$T/bob.err" || fail "bob's refusal does not say 403: $(cat "$T/bob.err")"
as $BOB "$B/ccndc" setstrategy ccnx:/ null 2>/dev/null && fail "bob blackholed ccnx:/"
[ "$(timeout 10 "$B/ccnpeek" -c -w 5 ccnx:/rootp/obj)" = served ] || fail "root's producer was cut off"
wait "$POKE"
as $ALICE "$B/ccndc" setstrategy ccnx:/alice/s loadsharing 2>"$T/alice.err" ||
    fail "alice cannot choose a strategy under her prefix: $(cat "$T/alice.err")"
as $BOB "$B/ccndc" setstrategy ccnx:/alice/s parallel 2>"$T/bob.err" && fail "bob changed alice's strategy"
grep -q "403" "$T/bob.err" || fail "bob's refusal does not say 403: $(cat "$T/bob.err")"
as $BOB "$B/ccndc" removestrategy ccnx:/alice/s 2>/dev/null && fail "bob removed alice's strategy"
"$B/ccndc" getstrategy ccnx:/alice/s | grep -q loadsharing || fail "alice's strategy changed"
as $ALICE "$B/ccndc" removestrategy ccnx:/alice/s 2>"$T/alice.err" ||
    fail "alice cannot remove her own strategy: $(cat "$T/alice.err")"
as $BOB "$B/ccndc" setstrategy ccnx:/bobs parallel 2>"$T/bob.err" ||
    fail "bob cannot choose a strategy where nothing is: $(cat "$T/bob.err")"
"$B/ccndc" removestrategy ccnx:/bobs 2>"$T/root.err" || fail "root cannot remove bob's strategy"

# Bob's own face is his to destroy; root may destroy Alice's.
as $BOB "$B/ccndc" create udp 127.0.0.1 9002 2>"$T/bob.err" || fail "bob create: $(cat "$T/bob.err")"
BOBFACE=$(face_to 9002)
as $ALICE "$B/ccndc" destroyface "$BOBFACE" 2>/dev/null && fail "alice destroyed bob's face"
as $BOB "$B/ccndc" destroyface "$BOBFACE" 2>"$T/bob.err" || fail "bob cannot destroy his own face"
"$B/ccndc" destroyface "$FACE" 2>"$T/root.err" || fail "root cannot destroy alice's face"
registered ccnx:/alice && fail "alice's registration outlived her face"
kill -0 "$CCND" || fail "ccnd died"
echo "ok"
