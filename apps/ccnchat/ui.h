/* The two views of a chat: full screen (curses) and line mode. Each joins
 * the room, runs until the user leaves, and leaves cleanly. */
#ifndef CHAT_UI_H
#define CHAT_UI_H

#include <ccnx/client.h>

#include "chat_session.h"

/* Exit status: 0, or 1 when the room could not be joined. */
int chat_ui_line(struct ccnx_client *c, const struct chat_session_opts *o);
int chat_ui_curses(struct ccnx_client *c, const struct chat_session_opts *o);

/* How long a view may sleep in poll: the client's next timer, at most a
 * quarter second so connection changes show promptly. */
static inline int ui_poll_timeout(struct ccnx_client *c)
{
    int t = ccnx_client_timeout_ms(c);
    return t < 0 || t > 250 ? 250 : t;
}

#endif
