/* Typed lines and message lines. See chat_app.h. */
#include "chat_app.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <ccnx/client.h>
#include <ccnx/naming.h>

#include "chat_command.h"

#define WHO_WINDOW_MS (15 * 60 * 1000)

volatile sig_atomic_t chat_app_stop;

static void on_signal(int sig)
{
    (void)sig;
    chat_app_stop = 1;
}

void chat_app_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: poll returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void who(struct chat_session *s)
{
    struct chat_model *m = chat_session_model(s);
    int64_t now = ccnx_client_now_ms();
    char name[CHAT_NICK_MAX], line[256];
    chat_session_notice(s, "members seen in the last 15 minutes:");
    for (size_t i = 0; i < chat_model_member_count(m); i++) {
        const struct chat_member *mb = chat_model_member_at(m, i);
        if (mb->departed || now - mb->last_seen_ms > WHO_WINDOW_MS)
            continue;
        snprintf(line, sizeof line, "  %-20s key %02x%02x%02x%02x..., %llu messages%s",
                 chat_model_name(m, mb->digest, name), mb->digest[0], mb->digest[1], mb->digest[2],
                 mb->digest[3], (unsigned long long)mb->messages,
                 mb->hidden ? ", flooding (some hidden)" : "");
        chat_session_notice(s, line);
    }
}

int chat_app_line(struct chat_session *s, char *line)
{
    const char *arg;
    char msg[300];
    switch (chat_command_parse(line, &arg)) {
    case CHAT_CMD_NONE:
        return 0;
    case CHAT_CMD_SAY:
        if (chat_session_send(s, arg) < 0)
            chat_session_notice(s, "the message could not be signed");
        return 0;
    case CHAT_CMD_ME:
        chat_session_action(s, arg);
        return 0;
    case CHAT_CMD_NICK:
        if (chat_session_set_nick(s, arg) < 0)
            chat_session_notice(s, "that nickname cannot be used");
        return 0;
    case CHAT_CMD_WHO:
        who(s);
        return 0;
    case CHAT_CMD_HELP:
        for (size_t i = 0; chat_command_help[i] != NULL; i++)
            chat_session_notice(s, chat_command_help[i]);
        return 0;
    case CHAT_CMD_QUIT:
        return 1;
    case CHAT_CMD_MISSING:
        snprintf(msg, sizeof msg, "/%s needs an argument (/help lists the commands)", arg);
        chat_session_notice(s, msg);
        return 0;
    case CHAT_CMD_UNKNOWN:
        snprintf(msg, sizeof msg, "unknown command /%.200s (/help lists the commands)", arg);
        chat_session_notice(s, msg);
        return 0;
    }
    return 0;
}

void chat_app_clock(uint64_t ticks, char out[6])
{
    time_t t = (time_t)(ticks / CCNX_TIMESTAMP_HZ);
    struct tm tm;
    if (localtime_r(&t, &tm) == NULL || strftime(out, 6, "%H:%M", &tm) == 0)
        snprintf(out, 6, "--:--");
}

int chat_app_format(const struct chat_model *m, const struct chat_msg *msg, struct ccnx_buf *out)
{
    if (msg->kind == CHAT_MSG_NOTICE)
        return ccnx_buf_printf(out, "*** %s", msg->text);
    char name[CHAT_NICK_MAX], clock[6];
    chat_app_clock(msg->ticks, clock);
    return ccnx_buf_printf(out, "[%s %s] %s%s", chat_model_name(m, msg->publisher, name), clock,
                           msg->verify == CHAT_FAILED ? "(unverified) " : "", msg->text);
}
