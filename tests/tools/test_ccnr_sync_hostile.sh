#!/bin/bash
# A Sync neighbour that lies (tests/util/sync_liar.c) to our repository:
# a root node whose hash is not the sum of its names, an honest node of
# names outside the slice, a composite whose only child is itself. Each is
# refused and counted (the log, the status page's sync.refused), nothing of
# it is stored, the repository keeps answering, and it does not ask again
# and again: a lie is excluded from its Root Advise after the first time.
# Finally the slice is deleted: the repository stops following it, also
# after a restart.
set -u
CCNR_TEST_TAG=ccnr-sync-hostile
CCNR_TEST_PORT_BASE=14500
CCNR_TEST_PORT_SPAN=25
. "$(dirname "$0")/ccnr_lib.sh"
LIAR=${CCNX_TESTS_BIN:?}/sync_liar
SP=$((CCN_LOCAL_PORT + 25)) # the status port: 14525-14549
LIAR_PID=
extra_cleanup() { [ -n "$LIAR_PID" ] && kill "$LIAR_PID" 2>/dev/null; }

TOPO=ccnx:/hs/topo
DATA=ccnx:/hs/data
start_ccnd
CCNS_DEBUG=FINER CCNR_STATUS_PORT=$SP start_ccnr ccnr.err
"$B/ccnsyncslice" create "$TOPO" "$DATA" 2>"$T/slice.err" || fail "ccnsyncslice create"
wait_log "$T/ccnr.err" "following slice $TOPO $DATA" 100 || fail "the slice is not followed"
head -c 9000 /dev/urandom >"$T/f"
"$B/ccnputfile" "$DATA/f" "$T/f" 2>"$T/put.err" || fail "ccnputfile"
wait_log "$T/ccnr.err" "sync: root [0-9a-f]*, 3 names" 100 || fail "the repository did not list its file"

# status FIELD: a number of the status page's "sync" object
status() {
    exec 3<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot connect to the status port"
    printf 'GET /?f=json HTTP/1.0\r\n\r\n' >&3
    tr -d '\n' <&3 | grep -o "\"sync\":{[^}]*" | grep -o "\"$1\":[0-9]*" | cut -d: -f2
    exec 3<&-
}
objects() {
    exec 3<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot connect to the status port"
    printf 'GET /?f=json HTTP/1.0\r\n\r\n' >&3
    tr -d '\n' <&3 | grep -o '"store":{"objects":[0-9]*' | cut -d: -f3
    exec 3<&-
}
held=$(objects)

for mode in wronghash outside loop; do
    before=$(grep -Ec "a neighbour's (root )?node was refused" "$T/ccnr.err")
    "$LIAR" "$mode" "$TOPO" "$DATA" >"$T/liar-$mode.out" 2>"$T/liar-$mode.err" &
    LIAR_PID=$!
    wait_log "$T/liar-$mode.out" "^ready" 100 || fail "sync_liar $mode did not start"
    case $mode in
    wronghash) what="a neighbour's (root )?node was refused" ;;
    outside) what="compared a neighbour's tree: 1 nodes, 3 names missing" ;;
    loop) what="a neighbour's (root )?node was refused" ;;
    esac
    # the liar advises its root: the repository fetches that node
    wait_log "$T/ccnr.err" "$what" 100 || fail "$mode: not seen ($what)"
    kill "$LIAR_PID"
    wait "$LIAR_PID" 2>/dev/null
    LIAR_PID=
    kill -0 "$CCNR_PID" 2>/dev/null || fail "$mode: the repository died"
    # a lie is excluded once seen: a wrong root is refused once, not on every heartbeat
    taken=$(($(grep -Ec "a neighbour's (root )?node was refused" "$T/ccnr.err") - before))
    [ "$taken" -le 2 ] || fail "$mode: the same lie was taken again: refused $taken times"
    echo "ok: $mode refused"
done
refused=$(status refused)
[ "${refused:-0}" -ge 5 ] || fail "sync.refused is ${refused:-none}, not at least 5 (2 nodes, 3 names)"
[ "$(objects)" = "$held" ] || fail "the repository stored something of the liars': $(objects) objects, $held before"
"$B/ccnpeek" -c "$DATA/f" >/dev/null 2>&1 || fail "the repository no longer answers"
echo "ok: refused and counted ($refused), nothing stored, still serving"

# A deleted slice is followed no more, also after a restart (the status
# page lists the slices followed).
slices() {
    exec 3<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot connect to the status port"
    printf 'GET /?f=json HTTP/1.0\r\n\r\n' >&3
    tr -d '\n' <&3 | grep -o '"slices":\[[^]]*\]'
    exec 3<&-
}
no_slice() { [ "$(slices)" = '"slices":[]' ]; }
no_slice && fail "the status page lists no slice before the deletion"
"$B/ccnsyncslice" delete "$TOPO" "$DATA" 2>"$T/delete.err" || fail "ccnsyncslice delete"
wait_log "$T/ccnr.err" "sync: a slice was deleted" 100 || fail "the deletion was not seen"
no_slice || fail "a deleted slice is still listed: $(slices)"
stop_ccnr
CCNR_STATUS_PORT=$SP start_ccnr ccnr2.err
no_slice || fail "the deleted slice is followed again after a restart: $(slices)"
echo "ok: a deleted slice is followed no more, also after a restart"
