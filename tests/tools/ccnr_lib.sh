# Shared by the ccnr tool tests (test_ccnr*.sh), which source it after
# `set -u`; its name does not start with test_, so it is not registered as a
# test of its own. Every test runs its own ccnd and repository in a
# directory of its own, on a port of its own, with none of the user's
# settings, so that the tests can run at once and on any machine.
#
# Set by the test before sourcing:
#   CCNR_TEST_TAG        the temporary directory is /tmp/TAG-XXXXXX
#   CCNR_TEST_PORT_BASE  ccnd's port is BASE + $$ % SPAN: each test keeps a
#   CCNR_TEST_PORT_SPAN  range that no other ccnr test uses
#   CCNR_TEST_DEBUG      the repository's CCNR_DEBUG (INFO if unset)
# A test that starts more than ccnr and ccnd defines extra_cleanup: cleanup
# calls it once ccnr has been signalled and before it waits for the
# children, so that no child the test left running holds the exit up.

B=${CCNX_BIN:?}
T=$(mktemp -d "/tmp/${CCNR_TEST_TAG:?}-XXXXXX") || exit 1
export CCN_LOCAL_PORT=$((${CCNR_TEST_PORT_BASE:?} + $$ % ${CCNR_TEST_PORT_SPAN:?}))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
# every ccnr setting a test does not set itself, so the defaults are tested
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCNR_START_WRITE_SCOPE_LIMIT CCNR_MAX_BYTES \
    CCNR_STATUS_PORT CCNR_LISTEN_ON CCNR_VERIFY
export CCNR_DIRECTORY="$T/repo"
export CCNR_DEBUG=${CCNR_TEST_DEBUG:-INFO}
CCNR_PID=
CCNR_LOG=

cleanup() {
    [ -n "$CCNR_PID" ] && kill "$CCNR_PID" 2>/dev/null
    if declare -F extra_cleanup >/dev/null; then
        extra_cleanup
    fi
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*"
    tail -n 8 "$T"/*.err 2>/dev/null
    exit 1
}

# start_ccnr LOG: ccnr in the background (at most 300 s), its stderr added
# to $T/LOG; returns once this ccnr has said that it serves, which it does
# after registering with ccnd and marking its directory's lock as ready.
# Only what this ccnr added to LOG counts: a test may start several ccnr
# on one log. Settings given on the call (VAR=value start_ccnr LOG) reach
# ccnr.
start_ccnr() {
    CCNR_LOG="$T/$1"
    local from=$(($(stat -c %s "$CCNR_LOG" 2>/dev/null || echo 0) + 1))
    timeout 300 "$B/ccnr" 2>>"$CCNR_LOG" &
    CCNR_PID=$!
    while kill -0 "$CCNR_PID" 2>/dev/null; do
        tail -c +"$from" "$CCNR_LOG" | grep -q "ccnr: INFO: serving $CCNR_DIRECTORY" && return 0
        sleep 0.05
    done
    fail "ccnr did not start: $(tail -n 3 "$CCNR_LOG")"
}

# stop_ccnr: SIGTERM is how ccnr is meant to be stopped, so anything but a
# clean exit is a failure, and so is a sanitizer's report (in the
# sanitizer build, UBSan reports and goes on).
stop_ccnr() {
    kill -TERM "$CCNR_PID"
    wait "$CCNR_PID"
    local rc=$?
    CCNR_PID=
    [ "$rc" = 0 ] || fail "ccnr stopped by SIGTERM: exit $rc"
    grep -Eq 'Sanitizer|runtime error' "$CCNR_LOG" && fail "ccnr: sanitizer report"
    return 0
}

# Without CCNR_GLOBAL_PREFIX, or ccndstart would start a repository of its
# own next to the one under test.
start_ccnd() {
    env -u CCNR_GLOBAL_PREFIX timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" ||
        fail "ccndstart"
}
# restart_ccnd: also empties ccnd's cache, which would otherwise answer in
# place of the repository.
restart_ccnd() {
    "$B/ccndstop" >/dev/null 2>&1
    start_ccnd
}

# wait_log FILE PATTERN TENTHS: 0 once grep -E finds PATTERN in FILE.
wait_log() {
    for _ in $(seq "$3"); do
        grep -Eq "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# vname FILE: the versioned name that ccnputfile -v said it publishes.
vname() { sed -n 's/^ccnputfile: publishing .* as //p' "$1"; }

mkdir -p "$CCNX_DIR" "$CCNR_DIRECTORY" || fail "cannot make $CCNX_DIR and $CCNR_DIRECTORY"
