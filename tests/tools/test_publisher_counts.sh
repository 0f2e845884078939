#!/bin/bash
# Publisher reports: after known traffic under a prefix a local producer
# registered, ccnd's status page (JSON, XML, HTML) and ccndstatus show the
# exact counts: Interests seen, answered from the content store, forwarded
# to the producer.
set -u
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/pubcount-XXXXXX) || exit 1
export CCN_LOCAL_PORT=$((16200 + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user" CCND_KEYSTORE_DIRECTORY="$T" CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCND_LAN
PUT=
cleanup() {
    [ -n "$PUT" ] && kill "$PUT" 2>/dev/null
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    tail -n 5 "$T"/*.err 2>/dev/null
    exit 1
}
mkdir -p "$CCNX_DIR"
timeout 30 "$B/ccndstart" >/dev/null 2>"$T/start.err" || fail "ccndstart"
printf 'counted\n' >"$T/file"
timeout 120 "$B/ccnputfile" -r -x 100 ccnx:/pub/file "$T/file" >/dev/null 2>"$T/put.err" &
PUT=$!
for _ in $(seq 300); do
    "$B/ccndstatus" -j 2>/dev/null | grep -q '"prefix":"ccnx:/pub/file"' && break
    sleep 0.1
done
"$B/ccndstatus" -j | grep -q '"prefix":"ccnx:/pub/file","seen":0,"from_store":0,"to_producer":0' ||
    fail "no counters for the registered prefix: $("$B/ccndstatus" -j | tail -n 2)"

# 1: to the producer; 2: the same name, from the store; 3: a name the
# producer does not have, to the producer and unanswered. Each ccnpeek
# sends its Interest once (-o), whatever the machine's load.
timeout 10 "$B/ccnpeek" -o ccnx:/pub/file >/dev/null 2>"$T/peek1.err" || fail "first ccnpeek"
timeout 10 "$B/ccnpeek" -o ccnx:/pub/file >/dev/null 2>"$T/peek2.err" || fail "second ccnpeek"
timeout 10 "$B/ccnpeek" -o -w 0.3 ccnx:/pub/file/nothing >/dev/null 2>&1 && fail "an answer for nothing"
# Interests outside the prefix are not counted.
timeout 10 "$B/ccnpeek" -w 0.3 ccnx:/elsewhere >/dev/null 2>&1

"$B/ccndstatus" -j >"$T/status.json" || fail "ccndstatus -j"
grep -q '"publishers":\[{"prefix":"ccnx:/pub/file","seen":3,"from_store":1,"to_producer":2}\]' \
    "$T/status.json" || fail "JSON: $(grep -A1 publishers "$T/status.json")"
"$B/ccndstatus" -x | grep -q "<publisher><prefix>ccnx:/pub/file</prefix><seen>3</seen><fromstore>1</fromstore><toproducer>2</toproducer></publisher>" ||
    fail "XML: $("$B/ccndstatus" -x | grep -o '<publishers>.*</publishers>')"
"$B/ccndstatus" | grep -q "ccnx:/pub/file Interests: 3 from the store: 1 to the producer: 2" ||
    fail "text: $("$B/ccndstatus" | tail -n 4)"
echo "ok"
