#!/bin/bash
# ccnchat full screen, driven through tmux: a member on the screen talks
# with one in line mode; the input line's editing keys and history, /nick
# seen by the other member, UTF-8, an escape sequence from the network shown
# as text, the members pane, a ccnd restart, a flood held back,
# PageUp/PageDown, a resize, and Ctrl-C leaving with the farewell.
set -u
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
CHAT_TEST_TAG=chatscreen
CHAT_TEST_PORT_BASE=16050
. "$(dirname "$0")/chat_lib.sh" || exit 1
ROOM=ccnx:/testroom1
start_ccnd
start_chat bob $ROOM
start_screen alice $ROOM 100 24 -- --flood 20,0
wait_screen alice "bob has entered ccnx:/testroom1"
wait_screen alice "Members (2)"
screen_text alice | head -n 1 | grep -q "ccnx:/testroom1 | ccnd .*: connected | 2 members | you: alice" ||
    fail "status line: $(screen_text alice | head -n 1)"
screen_text alice | tail -n 2 | head -n 1 | grep -q "Enter send" || fail "no key line"

# Messages both ways, UTF-8 included.
say bob "héllo alice ✓"
wait_screen alice "bob: héllo alice ✓"
type_keys alice "grüße, bob 👋"
keys alice Enter
wait_for bob "] grüße, bob 👋"

# Editing: Ctrl-W, Home, End, Ctrl-U, cursor keys, Up for the history.
type_keys alice "abc def"
keys alice C-w
type_keys alice "xyz"
keys alice Home
type_keys alice ">"
keys alice End Enter
wait_for bob "] >abc xyz"
type_keys alice "garbage"
keys alice C-u
type_keys alice "clean"
keys alice Left Left BSpace Enter
wait_for bob "] clan"
keys alice Up Up Enter
wait_for bob "] >abc xyz"
[ "$(grep -cF "] >abc xyz" "$T/bob.out")" = 2 ] || fail "Up did not bring the line back"

# A line longer than the screen scrolls sideways and is sent whole.
long="start-$(printf 'x%.0s' $(seq 150))-end"
type_keys alice "$long"
for _ in $(seq 100); do screen_text alice | tail -n 1 | grep -q -- "-end$" && break; sleep 0.05; done
screen_text alice | tail -n 1 | grep -q -- "xx-end$" || fail "the input line does not show its end"
keys alice Enter
wait_for bob "] $long"

# /nick reaches the other member.
type_keys alice "/nick alicia"
keys alice Enter
type_keys alice "now as alicia"
keys alice Enter
wait_for bob "[alicia "
grep -F "now as alicia" "$T/bob.out" | grep -q '^\[alicia ' || fail "bob did not see the new nick"

# An escape sequence from a member is shown as text, not obeyed.
say bob $'\e[2J\e[31mRED\e]0;pwned\a'
wait_screen alice "^[[2J^[[31mRED^[]0;pwned^G"
tm display-message -p -t alice '#{pane_title}' | grep -q pwned && fail "the title was changed"

# ccnd restarts: the screen says so and the chat carries on.
timeout 10 "$B/ccndstop" || fail "ccndstop"
start_ccnd
wait_screen alice "connected to ccnd again"
wait_for bob "*** connected to ccnd again"
say bob "after restart"
wait_screen alice "bob: after restart"

# A member who floods: what is left of his 20 shows, the rest is hidden
# and counted. Alice's limit (--flood 20,0) never refills, so what shows
# does not depend on how fast the lines arrive.
for i in $(seq 40); do say bob "line $i"; done
wait_for bob "] line 40"
wait_screen alice "bob is flooding the room: messages hidden"
screen_text alice | grep -qE "bob: line [0-9]+( |$)" || fail "no line of the flood is shown"
screen_text alice | grep -q "bob: line 21" && fail "a flood was shown in full"

# Scrolling back: PageUp shows older lines, PageDown the newest again.
keys alice PPage
wait_screen alice "scrolled back"
screen_text alice | grep -q "is flooding" && fail "PageUp did not scroll"
keys alice NPage NPage
for _ in $(seq 100); do screen_text alice | grep -q "scrolled back" || break; sleep 0.05; done
wait_screen alice "bob is flooding the room"

# A narrower, shorter terminal: redrawn to fit, the members pane folded away.
tm resize-window -t alice -x 60 -y 12
for _ in $(seq 100); do
    [ "$(screen_text alice | wc -l)" = 12 ] && ! screen_text alice | grep -q "Members (" && break
    sleep 0.05
done
screen_text alice >"$T/small.screen"
[ "$(wc -l <"$T/small.screen")" = 12 ] || fail "not 12 rows after the resize"
grep -q "Members (" "$T/small.screen" && fail "the members pane still shows at 60 columns"
head -n 1 "$T/small.screen" | grep -q "ccnx:/testroom1" || fail "status line lost: $(cat "$T/small.screen")"
tail -n 1 "$T/small.screen" | grep -q "^>" || fail "input line lost: $(cat "$T/small.screen")"
grep -q "is flooding" "$T/small.screen" || fail "newest line lost after resize"

# Ctrl-C leaves cleanly: the farewell reaches bob, the program exits 0.
keys alice C-c
wait_for bob "] === alicia leaving chat"
for _ in $(seq 200); do [ -s "$T/alice.exit" ] && break; sleep 0.05; done
[ "$(cat "$T/alice.exit" 2>/dev/null)" = "exit 0" ] || fail "ccnchat did not exit 0 after Ctrl-C"
leave bob
echo "ok: ccnchat screen"
