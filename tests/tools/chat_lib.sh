# Shared by the ccnchat tests (sourced after `set -u`; its name does not
# start with test_). Each test has its own folder, ccnd port and keys; each
# chat runs in line mode under `timeout`, reads a FIFO the test keeps open
# and writes to $T/NAME.out.
#
# Set by the test before sourcing: CHAT_TEST_TAG (folder /tmp/TAG-XXXXXX)
# and CHAT_TEST_PORT_BASE (ccnd's port is BASE + $$ % 50).
B=${CCNX_BIN:?}
T=$(mktemp -d "/tmp/${CHAT_TEST_TAG:?}-XXXXXX") || exit 1
export CCN_LOCAL_PORT=$((${CHAT_TEST_PORT_BASE:?} + $$ % 50))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNX_DIR
declare -A CHAT_FD CHAT_PID
BG_PIDS=()
# A command prefix for the chats started next (a test with network
# namespaces sets it to `ip netns exec NS env CCN_LOCAL_SOCKNAME=...`).
CHAT_PREFIX=()

chat_cleanup() {
    tmux -S "$T/tmux.sock" kill-server 2>/dev/null
    for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap chat_cleanup EXIT

fail() {
    echo "FAIL: $*"
    for f in "$T"/*.out "$T"/*.err; do [ -s "$f" ] && { echo "== $f"; tail -n 12 "$f"; }; done
    exit 1
}

# without_chat_fds CMD...: closes the write ends of the members' FIFOs and
# execs CMD, so a member sees the end of its input when the test closes it
# (a ccnd or chat started later must not hold it open). Call it in a
# subshell or in the background.
without_chat_fds() {
    for fd in "${CHAT_FD[@]}"; do eval "exec $fd>&-"; done
    exec "$@"
}

start_ccnd() {
    (without_chat_fds timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.err") || fail "ccndstart"
}

# start_chat NAME ROOM [OPTIONS...]: a member called NAME with an account
# of its own ($T/NAME, or CHAT_ACCOUNT when set: one account for several),
# in the background; returns once it has joined (its greeting shows).
start_chat() {
    local name=$1 room=$2 account=${CHAT_ACCOUNT:-$T/$1}
    shift 2
    mkdir -p "$account"
    mkfifo "$T/$name.in" || fail "mkfifo"
    without_chat_fds "${CHAT_PREFIX[@]}" timeout 120 env USER="$name" CCNX_DIR="$account" \
        "$B/ccnchat" --line "$@" "$room" <"$T/$name.in" >"$T/$name.out" 2>"$T/$name.err" &
    CHAT_PID[$name]=$!
    BG_PIDS+=($!)
    local fd
    exec {fd}>"$T/$name.in"
    CHAT_FD[$name]=$fd
    case " $* " in *" -q "*) return 0 ;; esac
    wait_for "$name" "] $name has entered "
}

# say NAME LINE: NAME types LINE.
say() { printf '%s\n' "$2" >&"${CHAT_FD[$1]}"; }

# leave NAME: closes NAME's input (it leaves) and waits for it to exit.
leave() {
    eval "exec ${CHAT_FD[$1]}>&-"
    wait "${CHAT_PID[$1]}" || fail "$1 exited with $?"
}

# wait_for NAME TEXT: until NAME's output has a line containing TEXT (at
# most 30 s, or until NAME exits).
wait_for() {
    for _ in $(seq 600); do
        grep -qF -- "$2" "$T/$1.out" 2>/dev/null && return 0
        kill -0 "${CHAT_PID[$1]}" 2>/dev/null || { grep -qF -- "$2" "$T/$1.out" && return 0; break; }
        sleep 0.05
    done
    fail "$1 never showed '$2'"
}

# line_of NAME TEXT: the number of NAME's first output line holding TEXT.
line_of() { grep -nF -- "$2" "$T/$1.out" | head -n 1 | cut -d: -f1; }

# ---- Screens in tmux (a server of the test's own) ----
TMUX_SOCK="$T/tmux.sock"
tm() { tmux -S "$TMUX_SOCK" "$@"; }
# start_screen NAME ROOM COLS ROWS [ENV...] [-- OPTION...]: ccnchat full
# screen in a tmux session called NAME; returns once its greeting shows.
# The first screen starts the tmux server (in CHAT_PREFIX's namespace, if
# any).
start_screen() {
    local name=$1 room=$2 cols=$3 rows=$4 env=() opts=()
    shift 4
    while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
    [ $# -gt 0 ] && shift && opts=("$@")
    mkdir -p "$T/$name"
    "${CHAT_PREFIX[@]}" tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -s "$name" -x "$cols" -y "$rows" \
        "env LANG=C.UTF-8 USER=$name CCNX_DIR=$T/$name ${env[*]} timeout --foreground 300 $B/ccnchat ${opts[*]} $room; \
         echo \"exit \$?\" >$T/$name.exit; sleep 60" || fail "tmux new-session"
    wait_screen "$name" "$name has entered"
}
screen_text() { tm capture-pane -p -t "$1"; }
# wait_screen NAME TEXT: until NAME's screen shows TEXT (at most 30 s).
wait_screen() {
    for _ in $(seq 600); do
        screen_text "$1" | grep -qF -- "$2" && return 0
        sleep 0.05
    done
    screen_text "$1" >"$T/$1.screen"
    fail "the screen of $1 never showed '$2': $(cat "$T/$1.screen")"
}
# type_keys NAME TEXT: types TEXT literally; keys NAME KEY...: tmux key names.
type_keys() { tm send-keys -t "$1" -l -- "$2"; }
keys() {
    local name=$1
    shift
    tm send-keys -t "$name" "$@"
}
