/* What both views share: carrying out a typed line, and the parts of a
 * message line (time, who, marks). */
#ifndef CHAT_APP_H
#define CHAT_APP_H

#include <signal.h>

#include <ccnx/buf.h>

#include "chat_session.h"

/* Set by SIGINT, SIGTERM and SIGHUP: the views leave cleanly. */
extern volatile sig_atomic_t chat_app_stop;
void chat_app_signals(void);

/* Carries out a typed line: sends it, or runs the command (its output goes
 * to the model as notices). 1 when the user asked to leave. */
int chat_app_line(struct chat_session *s, char *line);

/* "HH:MM" in local time for a version's ticks. */
void chat_app_clock(uint64_t ticks, char out[6]);
/* "[nick HH:MM] text" (a notice: "*** text"), with "(unverified) " before
 * the text of a message whose signature failed. */
int chat_app_format(const struct chat_model *m, const struct chat_msg *msg, struct ccnx_buf *out);

#endif
