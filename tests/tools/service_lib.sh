# shellcheck shell=bash
# Runs a systemd service unit's commands the way systemd would, for the
# tests of the units on machines where systemd is not the init (containers,
# CI). What is honoured: Environment=, EnvironmentFile= (a leading '-'
# allows it to be missing), StateDirectory= (made under STATE_ROOT),
# User= and Group= (when root and the user exists), Type=notify (READY=1
# awaited on a NOTIFY_SOCKET of its own), ExecStart= as the main process,
# ExecStartPost= once it is ready, TimeoutStopSec= on stop.
#
#   . service_lib.sh
#   unit_start UNIT_FILE STATE_ROOT   (sets UNIT_PID; fails on no READY=1)
#   unit_stop                         (SIGTERM, then at most TimeoutStopSec)
# Needs $T (a scratch folder), $TESTS_BIN (notify_listen) and fail().

# wait_for SECONDS COMMAND...: until COMMAND succeeds; 1 after SECONDS
wait_for() { # SECONDS COMMAND...
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.05
    done
}

# unit_get FILE KEY: the values of KEY= lines, one per line
unit_get() { sed -n "s/^$2=//p" "$1"; }

# unit_env FILE: the environment the unit gives its commands, as VAR=value
# lines (Environment= first, then the files of EnvironmentFile=)
unit_env() {
    local f
    unit_get "$1" Environment | tr ' ' '\n'
    while read -r f; do
        [ -n "$f" ] || continue
        if [ "${f#-}" != "$f" ]; then
            [ -e "${f#-}" ] || continue
            f=${f#-}
        fi
        [ -r "$f" ] || fail "EnvironmentFile $f is missing"
        grep -E '^[A-Za-z_][A-Za-z0-9_]*=' "$f"
    done < <(unit_get "$1" EnvironmentFile)
}

# unit_cmd FILE CMD...: runs CMD with the unit's environment and user (in
# place of the calling shell with UNIT_EXEC=1, so that a background call's
# pid is the command's)
unit_cmd() {
    local file=$1 user group as=()
    shift
    user=$(unit_get "$file" User)
    group=$(unit_get "$file" Group)
    if [ -n "$user" ] && [ "$(id -u)" = 0 ] && id "$user" >/dev/null 2>&1; then
        as=(setpriv --reuid="$user" --regid="${group:-$user}" --init-groups)
    fi
    local -a envs
    mapfile -t envs < <(unit_env "$file")
    if [ "${UNIT_EXEC:-0}" = 1 ]; then
        exec env "${envs[@]}" "${as[@]}" "$@"
    fi
    env "${envs[@]}" "${as[@]}" "$@"
}

unit_start() {
    UNIT_FILE=$1
    local root=$2 d user
    user=$(unit_get "$UNIT_FILE" User)
    for d in $(unit_get "$UNIT_FILE" StateDirectory); do
        mkdir -p "$root/$d"
        chmod "$(unit_get "$UNIT_FILE" StateDirectoryMode | sed 's/^$/0755/')" "$root/$d"
        [ -n "$user" ] && [ "$(id -u)" = 0 ] && id "$user" >/dev/null 2>&1 &&
            chown "$user:$(unit_get "$UNIT_FILE" Group | sed "s/^$/$user/")" "$root/$d"
    done
    UNIT_NOTIFY="$T/notify.$(basename "$UNIT_FILE")"
    rm -f "$UNIT_NOTIFY" "$UNIT_NOTIFY.out"
    "$TESTS_BIN/notify_listen" "$UNIT_NOTIFY" >"$UNIT_NOTIFY.out" &
    UNIT_LISTENER=$!
    wait_for 10 grep -q listening "$UNIT_NOTIFY.out" || fail "notify_listen did not start"
    [ "$(id -u)" = 0 ] && chmod 0666 "$UNIT_NOTIFY"
    local -a start
    read -r -a start <<<"$(unit_get "$UNIT_FILE" ExecStart)"
    NOTIFY_SOCKET=$UNIT_NOTIFY UNIT_EXEC=1 unit_cmd "$UNIT_FILE" "${start[@]}" \
        >"$T/$(basename "$UNIT_FILE").log" 2>&1 &
    UNIT_PID=$!
    wait_for 20 grep -q "^READY=1" "$UNIT_NOTIFY.out" ||
        fail "$(basename "$UNIT_FILE") did not say READY=1: $(tail -n 5 "$T/$(basename "$UNIT_FILE").log")"
    local post
    while read -r post; do
        [ -n "$post" ] || continue
        read -r -a start <<<"$post"
        unit_cmd "$UNIT_FILE" "${start[@]}" >>"$T/$(basename "$UNIT_FILE").post.log" 2>&1 ||
            fail "ExecStartPost $post failed: $(tail -n 5 "$T/$(basename "$UNIT_FILE").post.log")"
    done < <(unit_get "$UNIT_FILE" ExecStartPost)
}

# unit_stop: SIGTERM to the main process, which must end within the
# unit's TimeoutStopSec (after which systemd would kill it); "took" is
# printed in milliseconds
unit_stop() {
    local limit start_ms
    limit=$(unit_get "$UNIT_FILE" TimeoutStopSec)
    start_ms=$(date +%s%3N)
    kill -TERM "$UNIT_PID"
    wait_for "${limit:-90}" sh -c "! kill -0 $UNIT_PID 2>/dev/null" ||
        fail "$(basename "$UNIT_FILE") still runs ${limit}s after SIGTERM"
    wait "$UNIT_PID" 2>/dev/null
    UNIT_STOP_MS=$(($(date +%s%3N) - start_ms))
    kill "$UNIT_LISTENER" 2>/dev/null
    wait "$UNIT_LISTENER" 2>/dev/null
}
