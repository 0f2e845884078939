#!/bin/bash
# ccnr's status server (CCNR_STATUS_PORT): after ccnputfile stores a file,
# GET /?f=json reports the objects held (the segments ccnputfile reported)
# and the start-write, and GET / shows the same in HTML; after a ccnd
# restart (ccnr reconnects by itself) ccngetfile is served by ccnr and the
# page counts the hits. A bad request gets 400, an unknown page 404, a POST
# 405, an endless request 400; clients that connect and send nothing do not
# stop ccnr from serving content, and are closed after a few seconds.
# CCNR_STATUS_PORT=abc and a bad CCNR_LISTEN_ON are clear settings errors.
# Of 70 start-writes at once for streams no one publishes, 64 are answered
# (that many fetches run at most) and 6 are counted as refused.
# Out of file descriptors, ccnr says so and pauses accepting instead of
# spinning on the queued connection, and serves the page again once
# descriptors are free.
set -u
CCNR_TEST_TAG=ss-status
CCNR_TEST_PORT_BASE=14450
CCNR_TEST_PORT_SPAN=25
. "$(dirname "$0")/ccnr_lib.sh" || exit 1
# ccnr's status port: the upper half of this test's range, clear of ccnd's
SP=$((CCN_LOCAL_PORT + 25))
# http REQUEST OUT: sends REQUEST (printf %b escapes) to the status port
# and writes the whole reply to OUT.
http() {
    exec 3<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot connect to the status port $SP"
    printf '%b' "$1" >&3
    timeout 10 cat <&3 >"$2"
    exec 3<&-
}
# status_line FILE: the reply's status code.
status_line() { sed -n '1s/^HTTP\/1\.[01] \([0-9]*\) .*/\1/p' "$1"; }
# json_num FILE KEY: the number after "KEY": in the JSON reply.
json_num() { grep -o "\"$2\":[0-9]*" "$1" | head -n 1 | cut -d: -f2; }

# Settings errors name the variable and the fix, before anything starts.
CCNR_STATUS_PORT=abc "$B/ccnr" >/dev/null 2>"$T/bad-port.err" && fail "CCNR_STATUS_PORT=abc accepted"
grep -q "CCNR_STATUS_PORT=abc is not a TCP port: use a number from 1 to 65535" "$T/bad-port.err" ||
    fail "CCNR_STATUS_PORT=abc: unclear message: $(cat "$T/bad-port.err")"
CCNR_STATUS_PORT=$SP CCNR_LISTEN_ON="127.0.0.1,localhost" "$B/ccnr" >/dev/null \
    2>"$T/bad-listen.err" && fail "CCNR_LISTEN_ON with a host name accepted"
grep -q 'CCNR_LISTEN_ON=127.0.0.1,localhost: "localhost" is not an IP address' "$T/bad-listen.err" ||
    fail "bad CCNR_LISTEN_ON: unclear message: $(cat "$T/bad-listen.err")"

head -c 300000 /dev/urandom >"$T/file" || fail "cannot make the file"
start_ccnd
# Both loopback addresses where the host has ::1.
LISTEN=127.0.0.1 HOST6=127.0.0.1
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null; then
    LISTEN="127.0.0.1; ::1" HOST6=::1
fi
CCNR_STATUS_PORT=$SP CCNR_LISTEN_ON="$LISTEN" start_ccnr ccnr.err

# (a) Before any start-write (the store may hold the repository's policy).
http 'GET /?f=json HTTP/1.0\r\n\r\n' "$T/j0"
[ "$(status_line "$T/j0")" = 200 ] || fail "GET /?f=json: $(head -n 1 "$T/j0")"
grep -q '^Content-Type: application/json' "$T/j0" || fail "JSON reply without its type"
O0=$(json_num "$T/j0" objects)
S0=$(json_num "$T/j0" stored)
[ -n "$O0" ] && [ "$S0" = "$O0" ] || fail "objects held and stored differ at start: $(cat "$T/j0")"
[ "$(json_num "$T/j0" start_writes)" = 0 ] || fail "start-writes before any: $(cat "$T/j0")"
grep -q "\"directory\":\"$CCNR_DIRECTORY\"" "$T/j0" || fail "JSON without the directory"

# (b) ccnputfile stores the file: the page counts its segments.
timeout 120 "$B/ccnputfile" -v ccnx:/st/file "$T/file" 2>"$T/put.err" || fail "ccnputfile exit $?"
NSEG=$(sed -n 's/^ccnputfile: stored .* in a repository: 300000 bytes in \([0-9]*\) segments.*/\1/p' \
    "$T/put.err")
[ -n "$NSEG" ] && [ "$NSEG" -gt 1 ] || fail "ccnputfile did not report the segments stored"
for _ in $(seq 50); do
    http 'GET /?f=json HTTP/1.1\r\nHost: localhost\r\n\r\n' "$T/j1"
    [ "$(json_num "$T/j1" objects)" = $((O0 + NSEG)) ] && break
    sleep 0.1
done
[ "$(json_num "$T/j1" objects)" = $((O0 + NSEG)) ] ||
    fail "objects held is not $O0 + $NSEG: $(cat "$T/j1")"
[ "$(json_num "$T/j1" stored)" = $((S0 + NSEG)) ] || fail "stored since start is not $S0 + $NSEG"
[ "$(json_num "$T/j1" start_writes)" = 1 ] || fail "the start-write was not counted"
[ "$(json_num "$T/j1" bytes)" -gt 300000 ] || fail "bytes held below the file's size"
[ "$(json_num "$T/j1" refused)" = 0 ] || fail "objects refused"
if command -v jq >/dev/null; then
    sed '1,/^\r$/d' "$T/j1" | jq -e '.store.objects' >/dev/null || fail "the reply is not JSON"
fi
http 'GET / HTTP/1.0\r\n\r\n' "$T/h1"
[ "$(status_line "$T/h1")" = 200 ] || fail "GET /: $(head -n 1 "$T/h1")"
grep -q '^Content-Type: text/html' "$T/h1" || fail "HTML reply without its type"
grep -q "<tr><th>Objects held</th><td>$((O0 + NSEG))</td></tr>" "$T/h1" || fail "HTML: objects held"
grep -q "<tr><th>Start-writes since start</th><td>1</td></tr>" "$T/h1" ||
    fail "HTML: start-writes"
grep -q "$CCNR_DIRECTORY" "$T/h1" || fail "HTML: the directory"
http 'GET /?r=5 HTTP/1.0\r\n\r\n' "$T/h2"
grep -q "http-equiv='refresh' content='5'" "$T/h2" || fail "GET /?r=5 does not refresh"

# (c) Errors.
http 'BLAH\r\n\r\n' "$T/e1"
[ "$(status_line "$T/e1")" = 400 ] || fail "a bad request: $(head -n 1 "$T/e1")"
http 'GET /nope HTTP/1.0\r\n\r\n' "$T/e2"
[ "$(status_line "$T/e2")" = 404 ] || fail "an unknown page: $(head -n 1 "$T/e2")"
http 'GET /?f=xml HTTP/1.0\r\n\r\n' "$T/e3"
[ "$(status_line "$T/e3")" = 404 ] || fail "an unknown format: $(head -n 1 "$T/e3")"
http 'POST / HTTP/1.0\r\n\r\n' "$T/e4"
[ "$(status_line "$T/e4")" = 405 ] || fail "POST: $(head -n 1 "$T/e4")"
http "GET /$(head -c 4000 /dev/zero | tr '\0' a)" "$T/e5"
[ "$(status_line "$T/e5")" = 400 ] || fail "an endless request: $(head -n 1 "$T/e5")"
http 'GET / HTTP/1.0\r\n\0\r\n\r\n\r\n' "$T/e6"
[ "$(status_line "$T/e6")" = 200 ] || fail "headers with odd bytes: $(head -n 1 "$T/e6")"

# (d) ccnd restarts (its cache goes): ccnr reconnects and serves the file
# while every client place is taken by a connection that sends nothing.
restart_ccnd
exec 4<>"/dev/tcp/127.0.0.1/$SP" 5<>"/dev/tcp/127.0.0.1/$SP" 6<>"/dev/tcp/$HOST6/$SP" \
    7<>"/dev/tcp/127.0.0.1/$SP" 8<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot open idle connections"
ok=
for _ in $(seq 10); do
    timeout 60 "$B/ccngetfile" -q -t 3000 ccnx:/st/file "$T/got" 2>"$T/get.err" && ok=1 && break
    sleep 0.3
done
[ -n "$ok" ] || fail "ccngetfile while idle clients hold the status server"
cmp -s "$T/file" "$T/got" || fail "the fetched file differs"
for fd in 4 5 6 7 8; do
    timeout 10 cat <&$fd >"$T/idle$fd" || fail "idle connection $fd not closed by ccnr"
done
exec 4<&- 5<&- 6<&- 7<&- 8<&-
[ ! -s "$T/idle4" ] || fail "an idle connection got a reply"
http 'GET /?f=json HTTP/1.0\r\n\r\n' "$T/j2"
[ "$(json_num "$T/j2" hits)" -ge "$NSEG" ] || fail "ccnr's hits below $NSEG: $(cat "$T/j2")"
[ "$(json_num "$T/j2" lookups)" -ge "$(json_num "$T/j2" hits)" ] || fail "lookups below hits"
kill -0 "$CCNR_PID" || fail "ccnr died"

# (d2) More start-writes than ccnr runs fetches at once, each sent once.
# ccnr is stopped while they are sent and continued once ccnd has them all,
# so they reach it together however slowly 70 ccnpeek start: a fetch with
# no answer gives up after 8 s, and one that ended in the middle of a slow
# burst would leave room for a 65th.
ccnd_json_num() { "$B/ccndstatus" -j 2>/dev/null | grep -o "\"$1\":[0-9]*" | cut -d: -f2; }
http 'GET /?f=json HTTP/1.0\r\n\r\n' "$T/j3b"
SW0=$(json_num "$T/j3b" start_writes)
IN0=$(ccnd_json_num interests_in)
kill -STOP "$CCNR_PID"
PIDS=()
for i in $(seq 70); do
    "$B/ccnpeek" -o -s 1 -l 30 -w 60 "ccnx:/st/none$i/%FD%01/%C1.R.sw/%C1.N%00$i" \
        >/dev/null 2>&1 &
    PIDS+=($!)
done
for _ in $(seq 600); do
    [ $(($(ccnd_json_num interests_in) - IN0)) -ge 70 ] && break
    sleep 0.1
done
kill -CONT "$CCNR_PID"
[ $(($(ccnd_json_num interests_in) - IN0)) -ge 70 ] || fail "ccnd did not get the 70 start-writes"
for _ in $(seq 600); do
    http 'GET /?f=json HTTP/1.0\r\n\r\n' "$T/j4"
    [ $(($(json_num "$T/j4" start_writes) - SW0 + $(json_num "$T/j4" start_writes_refused))) -ge 70 ] &&
        break
    sleep 0.1
done
[ "$(json_num "$T/j4" start_writes_refused)" = 6 ] ||
    fail "start-writes refused: not 6: $(cat "$T/j4")"
[ $(($(json_num "$T/j4" start_writes) - SW0)) = 64 ] || fail "start-writes run: not 64: $(cat "$T/j4")"
grep -q 'WARNING: start-write of ccnx:/st/none[0-9]*/%FD%01 not answered: 64 start-writes are running' \
    "$CCNR_LOG" || fail "no warning for the start-writes beyond 64"
# Every one that runs is answered (its ccnpeek exits 0); the 6 others
# never are, and are stopped once the 64 have exited.
ANSWERED=0
for _ in $(seq 600); do
    LEFT=()
    for p in "${PIDS[@]}"; do
        if kill -0 "$p" 2>/dev/null; then
            LEFT+=("$p")
        elif wait "$p"; then
            ANSWERED=$((ANSWERED + 1))
        fi
    done
    PIDS=("${LEFT[@]}")
    [ $ANSWERED -ge 64 ] && break
    sleep 0.1
done
[ ${#PIDS[@]} -gt 0 ] && kill "${PIDS[@]}" 2>/dev/null
wait "${PIDS[@]}" 2>/dev/null
[ "$ANSWERED" = 64 ] || fail "$ANSWERED of 70 start-writes answered, not 64"

# (e) No descriptor left for the next client: accept fails with EMFILE and
# the connection stays queued, so the listening socket stays readable.
# The limit is 13, the number of entries ccnr polls (poll refuses more
# entries than the limit); the connections opened are one more than the
# free descriptors below it, which must be fewer than the 4 client places.
if command -v prlimit >/dev/null; then
    # CCNR_PID is the timeout command's; ccnr is its child.
    RPID=$(pgrep -P "$CCNR_PID" -x ccnr) || fail "no ccnr process under $CCNR_PID"
    OPEN=$(find "/proc/$RPID/fd" -mindepth 1 -printf '%f\n')
    NFREE=0
    for fd in $(seq 0 12); do grep -qx "$fd" <<<"$OPEN" || NFREE=$((NFREE + 1)); done
    if [ "$NFREE" -ge 1 ] && [ "$NFREE" -le 3 ]; then
        prlimit --pid "$RPID" --nofile=13 || fail "prlimit"
        CONN=()
        for _ in $(seq $((NFREE + 1))); do
            exec {fd}<>"/dev/tcp/127.0.0.1/$SP" || fail "cannot connect to the status port"
            CONN+=("$fd")
        done
        wait_log "$CCNR_LOG" 'status: accept failed: Too many open files; not accepting for' 50 ||
            fail "no warning when accept fails for want of descriptors"
        sleep 2.5
        N=$(grep -c 'status: accept failed' "$CCNR_LOG")
        [ "$N" -le 5 ] || fail "ccnr spins on the failing accept: $N warnings in about 3 s"
        for fd in "${CONN[@]}"; do exec {fd}<&-; done
        ok=
        for _ in $(seq 30); do
            http 'GET /?f=json HTTP/1.0\r\n\r\n' "$T/j3"
            [ "$(status_line "$T/j3")" = 200 ] && ok=1 && break
            sleep 0.2
        done
        [ -n "$ok" ] || fail "the status page did not come back once descriptors were free"
    else
        echo "(e) skipped: $NFREE descriptors free below 13 in ccnr"
    fi
fi
stop_ccnr
echo "PASS"
