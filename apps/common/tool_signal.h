/* SIGINT and SIGTERM for tools that stop cleanly (finish a segment, remove
 * a temporary file): the handler only sets a flag their loops test. While
 * a blocking library call runs a loop of its own, which no flag reaches, a
 * signal instead ends the program at once, saying what it interrupted. */
#ifndef CCNX_TOOL_SIGNAL_H
#define CCNX_TOOL_SIGNAL_H

#include <signal.h>

/* Set once SIGINT or SIGTERM arrived (after tool_catch_stop). */
extern volatile sig_atomic_t tool_stop_requested;

void tool_catch_stop(void);
/* From now on a signal exits at once (status 1) with "<prog>: interrupted
 * while <doing>", and so does one that already came; NULL goes back to
 * setting the flag. */
void tool_stop_exits(const char *doing);

#endif
