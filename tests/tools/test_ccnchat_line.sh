#!/bin/bash
# ccnchat in line mode through pipes, three members on one ccnd: messages,
# /nick, /me, order, a late joiner's history, escape sequences shown inert, a
# message whose key cannot be found shown unverified, objects under the room
# that are not messages ignored, a ccnd restart in the middle (the members
# reconnect, and history then comes from the members' own stores), the
# farewell, two windows of one account as two members, and a nickname two
# keys use told apart.
set -u
CHAT_TEST_TAG=chatline
CHAT_TEST_PORT_BASE=16000
. "$(dirname "$0")/chat_lib.sh" || exit 1
ROOM=ccnx:/testroom1
start_ccnd

start_chat alice $ROOM
start_chat bob $ROOM
wait_for bob "] alice has entered ccnx:/testroom1"
# A new member's first line waits for its name: never the key digest here.
wait_for alice "] bob has entered ccnx:/testroom1"
grep -q '^\[bob [0-9:]*\] bob has entered' "$T/alice.out" ||
    fail "bob's greeting without his name: $(grep "has entered" "$T/alice.out")"
say alice "hello from alice"
wait_for bob "[alice "
wait_for bob "] hello from alice"
grep -qE '^\[alice [0-9]{2}:[0-9]{2}\] hello from alice$' "$T/bob.out" ||
    fail "line format: $(grep hello "$T/bob.out")"

say bob "/nick robert"
say bob "after nick"
wait_for alice "[robert "
wait_for alice "] after nick"
grep -F "after nick" "$T/alice.out" | grep -q '^\[robert ' || fail "the nickname did not reach alice"
say alice "/me waves"
wait_for bob "] * alice waves"
# Commands answer on the member's own output.
say alice "/help"
wait_for alice "*** /nick NAME"
say alice "/who"
wait_for alice "*** members seen in the last 15 minutes:"
wait_for alice "***   robert "

# Escape sequences and bidirectional overrides from a member reach the
# other's output inert.
say bob $'colour \e[31mRED\e[0m title \e]0;pwned\a rtl \u202eabc'
wait_for alice "colour ^[[31mRED^[[0m title ^[]0;pwned^G rtl <U+202E>abc"
if grep -q $'\e' "$T/alice.out"; then fail "a raw ESC reached alice's output"; fi

# Another publisher's message in the reference's form (ccnpoke -V %00
# writes <room>/%FD<now>/%00 with FinalBlockID); then one from a stranger
# whose KeyLocator names a key that cannot be found: it shows, marked.
mkdir -p "$T/poker"
echo -n "from ccnpoke" | CCNX_DIR="$T/poker" timeout 10 "$B/ccnpoke" -f -V %00 $ROOM ||
    fail "ccnpoke"
wait_for alice "] from ccnpoke"
mkdir -p "$T/stranger"
echo -n "keyless" | CCNX_DIR="$T/stranger" timeout 10 "$B/ccnpoke" -f -k ccnx:/no/such/key \
    -V %00 $ROOM || fail "ccnpoke -k"
wait_for alice "] (unverified) keyless"
# Objects under the room that are not messages are ignored, and the
# Interests move past them (the chat goes on).
echo junk | CCNX_DIR="$T/poker" timeout 10 "$B/ccnpoke" -f $ROOM/junk/x || fail "ccnpoke junk"
echo junk | CCNX_DIR="$T/poker" timeout 10 "$B/ccnpoke" -f $ROOM/%FD%01/x || fail "ccnpoke junk"
say alice "still here"
wait_for bob "] still here"

# ccnd restarts: both reconnect and carry on.
timeout 10 "$B/ccndstop" || fail "ccndstop"
start_ccnd
wait_for alice "*** connected to ccnd again"
wait_for bob "*** connected to ccnd again"
grep -q "^\*\*\* lost ccnd at .*: reconnecting" "$T/alice.out" || fail "no reconnecting notice"
say alice "after the restart"
wait_for bob "] after the restart"

# A late joiner: the new ccnd's cache is empty, so the history comes from
# alice's and bob's stores, in order.
start_chat carol $ROOM
wait_for carol "] hello from alice"
wait_for carol "] after nick"
wait_for carol "] after the restart"
a=$(line_of carol "] hello from alice")
b=$(line_of carol "] after nick")
c=$(line_of carol "] after the restart")
[ "$a" -lt "$b" ] && [ "$b" -lt "$c" ] || fail "history out of order ($a $b $c)"
[ "$(grep -cF "] hello from alice" "$T/carol.out")" = 1 ] || fail "a duplicate in carol's history"

# Leaving: the others see the farewell.
leave alice
wait_for bob "] === alice leaving chat"
wait_for carol "] === alice leaving chat"
say carol "/quit"
wait "${CHAT_PID[carol]}" || fail "carol exited with $?"
wait_for bob "] === carol leaving chat"
leave bob

# Two windows of one account (one keystore, two nicknames) are two members:
# each sees the other's lines under the right name, and both in /who.
ROOM2=ccnx:/testroom2
CHAT_ACCOUNT="$T/account" start_chat dave $ROOM2
CHAT_ACCOUNT="$T/account" start_chat erin $ROOM2
wait_for dave "] erin has entered ccnx:/testroom2"
say erin "hi dave"
wait_for dave "] hi dave"
grep -F "] hi dave" "$T/dave.out" | grep -q '^\[erin ' || fail "erin's line under another name: $(grep -F "hi dave" "$T/dave.out")"
say dave "hi erin"
wait_for erin "] hi erin"
grep -F "] hi erin" "$T/erin.out" | grep -q '^\[dave ' || fail "dave's line under another name: $(grep -F "hi erin" "$T/erin.out")"
say dave "/who"
wait_for dave "***   erin "
grep -q '^\*\*\*   dave ' "$T/dave.out" || fail "dave is not a member of his own room"
# A nickname taken by another key: both holders show their key's first bytes.
CHAT_ACCOUNT="$T/intruder" start_chat intruder $ROOM2 -q -n dave
say intruder "i am dave"
wait_for erin "] i am dave"
grep -F "] i am dave" "$T/erin.out" | grep -qE '^\[dave~[0-9a-f]{4} ' ||
    fail "the second dave is not told apart: $(grep -F "i am dave" "$T/erin.out")"
say dave "the first dave"
wait_for erin "] the first dave"
first=$(grep -F "] the first dave" "$T/erin.out" | sed -n 's/^\[\(dave~[0-9a-f]*\) .*/\1/p')
second=$(grep -F "] i am dave" "$T/erin.out" | sed -n 's/^\[\(dave~[0-9a-f]*\) .*/\1/p')
[ -n "$first" ] && [ "$first" != "$second" ] || fail "two daves read the same: '$first' '$second'"
leave intruder
leave dave
leave erin
echo "ok: ccnchat line mode"
