#!/bin/bash
# Bulk import into ccnr (RepoProtocol.txt, %C1.R.af) with the reference's
# signed vectors: `ccnr import FILE` alone on the directory and through a
# running ccnr; the objects are then served byte for byte; importing again
# finds them held; truncated files and foreign elements import nothing; a
# file name with '/' and a missing file get a diagnostic; objects whose
# signature fails or whose key is not carried are refused and counted,
# unless the file also holds that key as a self-signed KEY object; a
# repository that ignores the command gives "no answer".
set -u
V=${CCNX_VECTORS:?}
CCNR_TEST_TAG=im-import
CCNR_TEST_PORT_BASE=14300
CCNR_TEST_PORT_SPAN=50
. "$(dirname "$0")/ccnr_lib.sh" || exit 1

# import TAG FILE: runs ccnr import; its exit status in $RC and $T/TAG.rc
# (for a run in the background), output in $T/TAG.out/.err
import() {
    timeout 60 "$B/ccnr" import "$2" >"$T/$1.out" 2>"$T/$1.err"
    RC=$?
    echo "$RC" >"$T/$1.rc"
}
expect() { # TAG RC TEXT: exit status and a line of stdout or stderr
    [ "$RC" = "$2" ] || fail "$1: exit $RC, expected $2"
    grep -qF -- "$3" "$T/$1.out" "$T/$1.err" || fail "$1: no '$3' in: $(cat "$T/$1.out" "$T/$1.err")"
}
# served NAME VECTOR: the repository answers NAME with exactly the vector's bytes
served() {
    timeout 20 "$B/ccnpeek" -w 4 "$1" >"$T/peek" 2>"$T/peek.err" || fail "$1 not served"
    cmp -s "$T/peek" "$V/$2.ccnb" || fail "$1: served object differs from $2"
}
not_served() {
    ! timeout 20 "$B/ccnpeek" -w 1 "$1" >/dev/null 2>&1 || fail "$1 is served"
}
# command URI: the InfoString part of the repository's answer, in $T/reply
command() { timeout 20 "$B/ccnpeek" -c -s 1 -w 4 "$1" >"$T/reply" 2>"$T/reply.err"; }

cd "$V" || fail "no vectors"
cat co_data_fresh.ccnb co_final_block.ccnb co_stream_seg0.ccnb co_stream_seg1.ccnb \
    co_stream_seg2.ccnb co_key.ccnb co_binary_name.ccnb >"$T/good.ccnb"
cat co_extopt.ccnb co_link.ccnb co_gone.ccnb >"$T/good2.ccnb"
# a byte of co_data_large's 4000-byte Content flipped: its signature fails
cp co_data_large.ccnb "$T/flipped.ccnb"
OFF=$(($(stat -c %s co_data_large.ccnb) - 1000))
printf '\x5a' | dd of="$T/flipped.ccnb" bs=1 seek=$OFF conv=notrunc status=none
cmp -s co_data_large.ccnb "$T/flipped.ccnb" && fail "byte not flipped"
# a KeyName locator before any object carrying that key: nothing to verify with
cat co_keyname_locator.ccnb co_data_empty.ccnb "$T/flipped.ccnb" >"$T/refused.ccnb"
cat co_nack.ccnb "$T/flipped.ccnb" >"$T/refused2.ccnb"
cat co_extopt.ccnb co_link.ccnb >"$T/trunc.ccnb"
head -c 100 co_gone.ccnb >>"$T/trunc.ccnb"
TRUNC_AT=$(($(stat -c %s co_extopt.ccnb) + $(stat -c %s co_link.ccnb)))
cat co_extopt.ccnb ctl_ccnd_key_interest.ccnb >"$T/foreign.ccnb"
FOREIGN_AT=$(stat -c %s co_extopt.ccnb)
cd "$T" || fail "cd"

# (a) no ccnr running: the store is opened directly.
import a1 good.ccnb
expect a1 0 "7 objects imported, 0 already held, 0 refused"
import a2 good.ccnb
expect a2 0 "0 objects imported, 7 already held, 0 refused"
import a3 trunc.ccnb
expect a3 1 "truncated object at offset $TRUNC_AT"
grep -qF "nothing imported" a3.err || fail "a3: does not say nothing was imported"
import a4 foreign.ccnb
expect a4 1 "the element at offset $FOREIGN_AT is not a ContentObject"
import a5 refused.ccnb
expect a5 1 "1 objects imported, 0 already held, 2 refused"
expect a5 1 "ccnx:/example/vec/data/keyname: its key is neither in its KeyLocator nor known"
# A file that also holds the key an object names (a self-signed KEY object,
# as a repository's file holds its publishers' keys), even after it: the
# object verifies (in a store of its own, so no earlier import taught it).
cat "$V/co_keyname_locator.ccnb" "$V/co_key.ccnb" >keyed.ccnb
mkdir "$T/keyed"
CCNR_DIRECTORY="$T/keyed" import a7 keyed.ccnb
expect a7 0 "2 objects imported, 0 already held, 0 refused"
import a6 "$T/nosuch"
expect a6 1 "cannot import $T/nosuch"
[ -e good.ccnb ] || fail "ccnr import removed the user's file"

# (b) the objects are served once a ccnr runs; the malformed files left nothing.
start_ccnd
start_ccnr ccnr.err
served ccnx:/example/vec/data/hello co_data_fresh
served ccnx:/example/vec/stream/%FD%06%B1%12%1D%95%18/%00%02 co_stream_seg2
served ccnx:/example/vec/data/empty co_data_empty
not_served ccnx:/example/vec/data/extopt
not_served ccnx:/example/vec/data/keyname
not_served ccnx:/example/vec/data/large

# (c) through the running ccnr (%C1.R.af~<name> through ccnd).
import c1 good2.ccnb
expect c1 0 ": OK"
served ccnx:/example/vec/data/extopt co_extopt
served ccnx:/example/vec/links/hello co_link
[ -z "$(ls -A "$CCNR_DIRECTORY/import")" ] || fail "c1: the imported file was not removed"
import c2 good2.ccnb
expect c2 0 ": OK"
grep -q "bulk import of .*: 0 objects imported, 3 already held, 0 refused" ccnr.err ||
    fail "c2: ccnr did not log the objects as held"
import c3 foreign.ccnb
expect c3 1 "is not a ContentObject"
import c4 trunc.ccnb
expect c4 1 "truncated object at offset $TRUNC_AT"
import c5 refused2.ccnb
expect c5 1 "1 of 2 objects refused"
served ccnx:/example/vec/data/nack co_nack
[ -z "$(ls -A "$CCNR_DIRECTORY/import")" ] || fail "c3-c5: files left in the import folder"

# (d) the protocol itself: a file name with '/', a missing file.
command "ccnx:/%C1.R.af~a%2Fb" || fail "d1: no answer"
grep -qF "without '/'" reply || fail "d1: no diagnostic for a name with '/'"
command "ccnx:/%C1.R.af~nosuch" || fail "d2: no answer"
grep -qF "import/nosuch" reply || fail "d2: no diagnostic naming the missing file"
kill -0 "$CCNR_PID" || fail "ccnr died"

# (e) a repository that ignores the command (Scope above its limit).
stop_ccnr
export CCNR_START_WRITE_SCOPE_LIMIT=0
start_ccnr ccnr.err
import e1 good2.ccnb
expect e1 1 "no answer from the repository through ccnd at"
[ -z "$(ls -A "$CCNR_DIRECTORY/import")" ] || fail "e1: the copy was left in the import folder"
stop_ccnr

# (f) CCNR_VERIFY=0, in a fresh store: nothing is checked, so what was
# refused above goes in; a value other than 0 or 1 is a settings error.
unset CCNR_START_WRITE_SCOPE_LIMIT
export CCNR_DIRECTORY="$T/unchecked"
mkdir -p "$CCNR_DIRECTORY"
CCNR_VERIFY=0 import f1 refused.ccnb
expect f1 0 "3 objects imported, 0 already held, 0 refused"
CCNR_VERIFY=2 import f2 refused.ccnb
expect f2 1 "CCNR_VERIFY=2 is not 0 or 1"

# (g) a repository that is starting holds the lock before it serves (the
# lock file still empty): an import waits for it instead of deciding that
# none runs; once the lock is free it imports directly.
export CCNR_DIRECTORY="$T/starting"
mkdir -p "$CCNR_DIRECTORY"
LOCK="$CCNR_DIRECTORY/ccnr.lock"
: >"$LOCK"
mkfifo "$T/release"
flock "$LOCK" cat "$T/release" >/dev/null &
HOLDER=$!
extra_cleanup() { [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null; }
while flock -n "$LOCK" true; do
    kill -0 "$HOLDER" 2>/dev/null || fail "g1: flock(1) could not hold $LOCK"
    sleep 0.01
done
import g1 good.ccnb &
IMPORT=$!
wait_log "$T/g1.err" "waiting for the repository starting on $CCNR_DIRECTORY" 600 ||
    fail "g1: ccnr import did not wait for the starting repository: $(cat "$T/g1.err")"
echo >"$T/release"
wait "$HOLDER"
HOLDER=
wait "$IMPORT"
RC=$(cat "$T/g1.rc")
expect g1 0 "7 objects imported, 0 already held, 0 refused"
echo "PASS"
