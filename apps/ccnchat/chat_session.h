/* A member in a room: the network side of the chat, on the client library.
 *
 * It keeps one Interest for new messages standing (re-expressed at once
 * after each answer and each timeout), walks back through the room's
 * recent history on joining, watches each member's member object for
 * nicknames, verifies every object, and answers Interests for its own last
 * messages and its member object from a bounded store, so late joiners get
 * history even after the forwarders' caches have dropped it.
 *
 * Everything runs from the client's loop; views drive it through
 * ccnx_client_run or ccnx_client_process and read the model. */
#ifndef CHAT_SESSION_H
#define CHAT_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/client.h>

#include "chat_model.h"

#define CHAT_KEEP_DEFAULT    100 /* own messages answered to late joiners */
#define CHAT_HISTORY_DEFAULT 100 /* messages pulled on joining */

struct chat_session_opts {
    const char *room;    /* ccnx: URI */
    const char *nick;    /* NULL: $USER, else the key digest's first bytes */
    size_t keep;         /* 0: CHAT_KEEP_DEFAULT */
    size_t history;      /* messages pulled on joining; 0: CHAT_HISTORY_DEFAULT */
    int no_history;      /* pull none */
    int drop_unverified; /* drop messages whose signature fails (else mark them) */
    int64_t freshness;   /* FreshnessSeconds of our messages, -1 none */
    int quiet;           /* no greeting and farewell */
    double flood_burst;  /* the flood limit (chat_model_set_flood); 0 burst: none */
    double flood_rate;
};
void chat_session_opts_init(struct chat_session_opts *o);

enum chat_event {
    CHAT_EV_MESSAGE,      /* a message or notice was added: msg */
    CHAT_EV_HISTORY_DONE, /* the walk back through history ended */
    CHAT_EV_CHANGED,      /* members, nicknames or connection changed */
};
typedef void (*chat_event_fn)(void *arg, enum chat_event ev, const struct chat_msg *msg);

struct chat_session;

/* Joins the room (the client is the caller's and must outlive the session):
 * registers the room's prefix, publishes the member object and the
 * greeting, starts the Interests. 0, or a negative code with a sentence in
 * err (a bad room URI, no key). */
int chat_session_create(struct ccnx_client *c, const struct chat_session_opts *o, chat_event_fn fn,
                        void *arg, struct chat_session **out, struct ccnx_buf *err);
/* Leaves: sends the farewell (unless quiet) and runs the loop until it was
 * written or `ms` passed, then stops everything. */
void chat_session_destroy(struct chat_session *s, int ms);

/* Sends one message (UTF-8 text, no newline). 0, or a negative code. A
 * message made while ccnd is away is kept and answered when it returns. */
int chat_session_send(struct chat_session *s, const char *text);
/* "/me waves" as the reference chats show it: "* nick waves". */
int chat_session_action(struct chat_session *s, const char *text);
/* Publishes a new member object with the nickname. */
int chat_session_set_nick(struct chat_session *s, const char *nick);
/* A line of the program's own (trusted text) in the room's scrollback,
 * announced to the view like a message. */
void chat_session_notice(struct chat_session *s, const char *text);
const char *chat_session_nick(const struct chat_session *s);
const char *chat_session_room(const struct chat_session *s);
const uint8_t *chat_session_digest(const struct chat_session *s);
struct chat_model *chat_session_model(struct chat_session *s);
/* Call after each turn of the loop: notices connection changes. */
void chat_session_poll(struct chat_session *s);
int chat_session_history_done(const struct chat_session *s);

#endif
