#!/bin/bash
# ccnr, the repository, with a private ccnd: ccnputfile stores a 3 MB file
# in it (start-write) and ccngetfile gets it back; the file is still served
# after ccnr restarts, and after ccnd restarts under a running ccnr (which
# registers again by itself); a checked start-write of a held segment gets
# a DATA reply, of an unknown one an INFO reply; ccnseqwriter -r stores a
# stream and ccncat reads it back; a second ccnr on the same directory, bad
# settings and a full store give clear messages.
set -u
CCNR_TEST_TAG=rd-ccnr
CCNR_TEST_PORT_BASE=14200
CCNR_TEST_PORT_SPAN=100
. "$(dirname "$0")/ccnr_lib.sh" || exit 1

# getfile TAG: fetches the file into $T/TAG and compares it.
getfile() {
    rm -f "$T/$1"
    timeout 60 "$B/ccngetfile" -q -t 3000 ccnx:/rt/file "$T/$1" 2>"$T/$1.get.err" || return 1
    cmp -s "$T/file" "$T/$1" || fail "$1: the fetched file differs"
}

head -c $((3 << 20)) /dev/urandom >"$T/file" || fail "cannot make the file"
start_ccnd
start_ccnr ccnr.err

# (a) ccnputfile stores the file and exits; ccngetfile gets it back.
timeout 120 "$B/ccnputfile" -v ccnx:/rt/file "$T/file" 2>"$T/put.err" || fail "ccnputfile exit $?"
VNAME=$(vname "$T/put.err")
[ -n "$VNAME" ] || fail "ccnputfile did not say what it published"
NSEG=$(sed -n 's/^ccnputfile: stored .* in a repository: 3145728 bytes in \([0-9]*\) segments.*/\1/p' \
    "$T/put.err")
[ -n "$NSEG" ] || fail "ccnputfile did not report the file stored in a repository"
grep -q "start-write of $VNAME from segment 0" "$T/ccnr.err" || fail "no start-write logged"
wait_log "$T/ccnr.err" "stored $VNAME: $NSEG objects, 0 already held" 50 ||
    fail "ccnr did not log $NSEG objects stored"
getfile got-a || fail "ccngetfile after ccnputfile"

# (b) ccnr and ccnd restart (ccnd's cache goes with it): ccnr serves the
# file; then ccnd alone restarts and ccnr serves again by itself.
stop_ccnr
# the file's segments and the policy object made at the first start
grep -q "stopping: $((NSEG + 1)) objects held" "$T/ccnr.err" || fail "ccnr's last line: objects held"
restart_ccnd
start_ccnr ccnr2.err
getfile got-b1 || fail "ccngetfile after restarting ccnr and ccnd"
restart_ccnd
ok=
for _ in $(seq 10); do
    getfile got-b2 && ok=1 && break
    sleep 0.5
done
[ -n "$ok" ] || fail "ccnr does not serve again after a ccnd restart"
kill -0 "$CCNR_PID" || fail "ccnr died with ccnd"

# (c) checked start-write of segment 0: DATA naming it; of a name not held,
# INFO (and ccnr tries to fetch it).
timeout 10 "$B/ccnpeek" "$VNAME/%00" >"$T/seg0" 2>"$T/peek.err" || fail "ccnpeek of segment 0"
DIGEST=$(sha256sum "$T/seg0" | cut -c1-64 | sed 's/../%&/g')
NONCE=%C1.N%00%01%02%03%04%05%06%07%08%09%0A%0B
timeout 10 "$B/ccnpeek" -s 1 -c "$VNAME/%C1.R.sw-c/$NONCE/%00/$DIGEST" >"$T/swc.ccnb" \
    2>"$T/swc.err" || fail "checked start-write: no reply"
"$B/ccn_ccnbtoxml" "$T/swc.ccnb" >"$T/swc.xml" 2>"$T/swc-xml.err" || fail "reply is not ccnb"
grep -q 'DATA' "$T/swc.xml" || fail "checked start-write of a held segment: not DATA"
grep -q "checked start-write: $VNAME/%00/[^/]* is held" "$T/ccnr2.err" ||
    fail "checked start-write: no log line naming the held object"
timeout 10 "$B/ccnpeek" -s 1 -c "ccnx:/rt/none/%FD%01/%C1.R.sw-c/$NONCE/%00/$DIGEST" \
    >"$T/swc2.ccnb" 2>"$T/swc2.err" || fail "checked start-write of a missing object: no reply"
"$B/ccn_ccnbtoxml" "$T/swc2.ccnb" >"$T/swc2.xml" 2>"$T/swc2-xml.err" || fail "reply 2 is not ccnb"
grep -q 'INFO' "$T/swc2.xml" || fail "checked start-write of a missing object: not INFO"

# (c0) ccnseqwriter -r streams standard input into the repository and exits
# once ccnr itself answers for the final segment.
head -c 300000 /dev/urandom >"$T/stream"
timeout 60 "$B/ccnseqwriter" -r -v ccnx:/st/stream <"$T/stream" 2>"$T/seqw.err" ||
    fail "ccnseqwriter -r: $(tail -n 2 "$T/seqw.err")"
timeout 30 "$B/ccncat" ccnx:/st/stream >"$T/stream.back" 2>"$T/stream-cat.err" ||
    fail "ccncat of the stream ccnseqwriter stored: $(cat "$T/stream-cat.err")"
cmp -s "$T/stream" "$T/stream.back" || fail "the stream read back differs from what was written"

# (c1) the reference's own start-write Interest (ccnseqwriter -r, from the
# vectors), sent as its bytes over TCP: the reply is a RepositoryInfo INFO.
exec 3<>"/dev/tcp/127.0.0.1/$CCN_LOCAL_PORT" || fail "no TCP connection to ccnd"
cat "${CCNX_VECTORS:?}/int_repo_start_write.ccnb" >&3
timeout 3 cat <&3 >"$T/vec-reply.ccnb"
exec 3<&-
"$B/ccn_ccnbtoxml" "$T/vec-reply.ccnb" >"$T/vec-reply.xml" 2>/dev/null ||
    fail "reply to the reference's start-write is not ccnb"
grep -q '<Name><Component ccnbencoding="text">example</Component>' "$T/vec-reply.xml" ||
    fail "reply to the reference's start-write is not named by it: $(cat "$T/vec-reply.xml")"
"$B/ccn_ccnbtoxml" -x "$T/vec-reply.ccnb" >"$T/vec-reply.hex" 2>/dev/null || fail "ccn_ccnbtoxml -x"
grep -q '<Content ccnbencoding="hexBinary">[0-9A-F]*494E464F' "$T/vec-reply.hex" ||
    fail "reply to the reference's start-write is no RepositoryInfo INFO: $(tr -d "\\n" <"$T/vec-reply.xml")"

# (c2) name enumeration: a Collection of what the repository holds right
# under a prefix, signed by it; ccnls lists it; a new child, a new list.
timeout 10 "$B/ccnpeek" -c "ccnx:/rt/%C1.E.be" >"$T/ne.ccnb" 2>"$T/ne.err" ||
    fail "name enumeration of ccnx:/rt: no reply"
"$B/ccn_ccnbtoxml" "$T/ne.ccnb" >"$T/ne.xml" 2>"$T/ne-xml.err" || fail "enumeration: not ccnb"
grep -q '<Collection><Link><Name><Component ccnbencoding="text">file</Component></Name></Link></Collection>' \
    "$T/ne.xml" || fail "enumeration of ccnx:/rt does not list exactly 'file': $(cat "$T/ne.xml")"
timeout 10 "$B/ccnpeek" -c "ccnx:/rt/file/%C1.E.be" >"$T/ne2.ccnb" 2>"$T/ne2.err" ||
    fail "name enumeration of ccnx:/rt/file: no reply"
"$B/ccn_ccnbtoxml" "$T/ne2.ccnb" >"$T/ne2.xml" 2>/dev/null || fail "enumeration 2: not ccnb"
grep -Eq '<Link><Name><Component ccnbencoding="(base64Binary">/Q|hexBinary">FD)' "$T/ne2.xml" ||
    fail "enumeration of ccnx:/rt/file does not list its version: $(cat "$T/ne2.xml")"
timeout 10 "$B/ccnpeek" -w 1 "ccnx:/rt/nothing/%C1.E.be" >/dev/null 2>&1 &&
    fail "enumeration of a prefix the repository does not hold was answered"
timeout 20 "$B/ccnls" ccnx:/rt >"$T/ls.out" 2>"$T/ls.err" || fail "ccnls ccnx:/rt: $(cat "$T/ls.err")"
grep -Eq '^file( |$)' "$T/ls.out" || fail "ccnls ccnx:/rt does not list file: $(cat "$T/ls.out")"

# (d) a second ccnr on the same directory refuses to start.
timeout 30 "$B/ccnr" 2>"$T/second.err"
rc=$?
[ "$rc" = 1 ] || fail "second ccnr: exit $rc"
grep -q "another ccnr is already using $CCNR_DIRECTORY" "$T/second.err" || fail "second ccnr: message"
stop_ccnr

# (e) bad settings: exit 1 and a message naming the variable and the fix;
# the config file wins over the environment.
bad() { # TAG EXPECTED-TEXT, with the environment set by the caller
    timeout 30 "$B/ccnr" 2>"$T/$1.err"
    local rc=$?
    [ "$rc" = 1 ] || fail "$1: exit $rc"
    grep -qF "$2" "$T/$1.err" || fail "$1: message: $(cat "$T/$1.err")"
}
CCNR_START_WRITE_SCOPE_LIMIT=7 bad scope "CCNR_START_WRITE_SCOPE_LIMIT=7 is out of range: use 0"
CCNR_DIRECTORY="$T/missing" bad nodir "CCNR_DIRECTORY=$T/missing: No such file or directory: create"
CCNR_DEBUG=LOUD bad debug "CCNR_DEBUG=LOUD is not a level"
mkdir "$T/conf"
printf '# comment\nCCNR_START_WRITE_SCOPE_LIMIT = 9\n' >"$T/conf/config"
CCNR_DIRECTORY="$T/conf" CCNR_START_WRITE_SCOPE_LIMIT=1 bad conf \
    "$T/conf/config line 2: CCNR_START_WRITE_SCOPE_LIMIT=9 is out of range"
printf 'CCNR_COLOUR=blue\n' >"$T/conf/config"
CCNR_DIRECTORY="$T/conf" bad unknown "unknown setting CCNR_COLOUR"
"$B/ccnr" -x 2>"$T/usage.err"
[ $? = 2 ] || fail "ccnr -x: not a usage error"

# A store smaller than the file: "repository full", ccnr keeps running,
# and the writer hears of it within seconds (it asks again after a second
# without progress and is refused), not after its 20 s stall timeout.
mkdir "$T/small"
CCNR_DIRECTORY="$T/small" CCNR_MAX_BYTES=1M start_ccnr full.err
timeout 120 "$B/ccnputfile" ccnx:/rt/big "$T/file" 2>"$T/put-full.err" &
put=$!
wait_log "$T/full.err" "ccnr: ERROR: stopped storing ccnx:/rt/big/.*: repository full" 300 ||
    fail "full store: no 'repository full' line"
full_at=$(date +%s)
wait "$put"
rc=$?
took=$(($(date +%s) - full_at))
[ "$rc" = 1 ] || fail "the writer into a full store exited $rc, not 1"
grep -q "does not take ccnx:/rt/big.*: repository full" "$T/put-full.err" ||
    fail "the writer was not told the store is full: $(tail -n 2 "$T/put-full.err")"
[ "$took" -lt 10 ] || fail "the writer learned of the full store only after $took s"
grep -q "start-write of ccnx:/rt/big/.* refused: repository full" "$T/full.err" ||
    fail "ccnr did not log the refusal"
kill -0 "$CCNR_PID" || fail "ccnr died when its store was full"
stop_ccnr
echo "ok"
