#!/bin/bash
# The repository policy: the first start stores the default policy (Namespace
# /) under <global prefix>/data/policy.xml; a new policy written there with
# ccnputfile (start-write) takes effect at once: a start-write under /denied
# gets no repository while one under /allowed is stored, and content held
# outside the namespaces is no longer served; after ccnr and ccnd restart the
# new policy is still in force; a policy naming another global prefix is
# stored but not used.
set -u
CCNR_TEST_TAG=po-policy
CCNR_TEST_PORT_BASE=14400
CCNR_TEST_PORT_SPAN=50
. "$(dirname "$0")/ccnr_lib.sh" || exit 1
export CCNR_GLOBAL_PREFIX=ccnx:/po/repo
GP=ccnx:/po/repo
# put NAME TAG: ccnputfile of $T/file under NAME, waiting 2 s for a repository
put() {
    timeout 60 "$B/ccnputfile" -v -w 2 -x 1 "$1" "$T/file" 2>"$T/$2.err"
}
stored() { grep -q "^ccnputfile: stored .* in a repository" "$T/$1.err"; }
# policy XML for namespace $1 and global prefix $2 into $T/$3.ccnb
policy() {
    printf '<Policy><PolicyVersion>1.5</PolicyVersion><LocalName>Repository</LocalName>%s%s</Policy>\n' \
        "<GlobalPrefix>$2</GlobalPrefix>" "<Namespace>$1</Namespace>" >"$T/$3.xml"
    (cd "$T" && "$B/ccn_xmltoccnb" "$3.xml") || fail "ccn_xmltoccnb $3.xml"
}

head -c 20000 /dev/urandom >"$T/file"
start_ccnd
start_ccnr r1.err

# (a) the default policy is stored and in force
grep -q "policy created: .*namespaces ccnx:/ (global prefix $GP)" "$T/r1.err" ||
    fail "no log line for the default policy"
timeout 10 "$B/ccnpeek" -c "$GP/data/policy.xml" >"$T/p0.ccnb" 2>"$T/peek0.err" ||
    fail "ccnpeek of the policy"
"$B/ccn_ccnbtoxml" "$T/p0.ccnb" >"$T/p0.xml" 2>"$T/x0.err" || fail "ccn_ccnbtoxml of the policy"
grep -q "<Namespace>/</Namespace>" "$T/p0.xml" || fail "default policy: $(cat "$T/p0.xml")"
grep -q "<GlobalPrefix>$GP</GlobalPrefix>" "$T/p0.xml" || fail "default policy: $(cat "$T/p0.xml")"
put ccnx:/old/file old || fail "ccnputfile under /old"
stored old || fail "a start-write under /old is refused by the default policy"

# (b) a new policy, written like any content, takes effect at once
policy /allowed "$GP" allowed
timeout 60 "$B/ccnputfile" -v -w 2 -x 1 "$GP/data/policy.xml" "$T/allowed.ccnb" 2>"$T/pput.err" ||
    fail "ccnputfile of the policy"
stored pput || fail "the new policy was not stored"
wait_log "$T/r1.err" "policy replaced: .*namespaces ccnx:/allowed \\(global prefix $GP\\)" 50 ||
    fail "the new policy did not take effect"
# ccnr registers the new namespace and withdraws ccnx:/ without waiting:
# go on once ccnd's table shows both
fib_switched() {
    "$B/ccndstatus" >"$T/fib" 2>&1 || return 1
    grep -q '^ ccnx:/allowed face: ' "$T/fib" && ! grep -q '^ ccnx:/ face: ' "$T/fib"
}
for _ in $(seq 300); do
    fib_switched && break
    kill -0 "$CCNR_PID" || fail "ccnr died"
    sleep 0.05
done
fib_switched || fail "ccnd's routes did not follow the new policy: $(cat "$T/fib")"
put ccnx:/denied/file denied
stored denied && fail "a start-write under /denied was honoured"
grep -q "start-write of ccnx:/denied" "$T/r1.err" && fail "ccnr saw the start-write under /denied"
put ccnx:/allowed/file allowed1 || fail "ccnputfile under /allowed"
stored allowed1 || fail "a start-write under /allowed was not honoured"

# (c) after ccnr and ccnd restart (ccnd's cache gone) the policy is still in force
stop_ccnr
restart_ccnd
start_ccnr r2.err
grep -q "policy loaded: .*namespaces ccnx:/allowed (global prefix $GP)" "$T/r2.err" ||
    fail "the new policy is not in force after a restart"
put ccnx:/denied/file denied2
stored denied2 && fail "a start-write under /denied was honoured after a restart"
put ccnx:/allowed/file allowed2 || fail "ccnputfile under /allowed after a restart"
stored allowed2 || fail "a start-write under /allowed was not honoured after a restart"
OLD=$(vname "$T/old.err")
timeout 10 "$B/ccnpeek" -w 1 "$OLD/%00" >/dev/null 2>&1 && fail "content under /old is still served"
timeout 10 "$B/ccnpeek" -c -v "$GP/data/policy.xml" >"$T/p1.ccnb" 2>/dev/null ||
    fail "ccnpeek of the new policy"
cmp -s "$T/p1.ccnb" "$T/allowed.ccnb" || fail "the newest policy differs from the one written"

# (d) a policy naming another global prefix is stored but not used
policy /other ccnx:/elsewhere other
timeout 60 "$B/ccnputfile" -v -w 2 -x 1 "$GP/data/policy.xml" "$T/other.ccnb" 2>"$T/oput.err" ||
    fail "ccnputfile of the second policy"
stored oput || fail "the second policy was not stored"
wait_log "$T/r2.err" "new policy $GP/data/policy.xml/[^ ]* stored but not used: its GlobalPrefix differs" 50 ||
    fail "no log line for the policy not used"
put ccnx:/allowed/file allowed3 || fail "ccnputfile under /allowed after a refused policy"
stored allowed3 || fail "the refused policy changed what is accepted"
stop_ccnr
echo "ok: test_ccnr_policy"
