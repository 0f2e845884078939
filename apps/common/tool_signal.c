/* Stop signals for the tools (see tool_signal.h). */
#include "tool_signal.h"

#include "tool.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t tool_stop_requested;

/* Built before it is armed: a handler may only write(2) what is ready. */
static char exit_msg[256];
static volatile sig_atomic_t exit_len;

static void on_stop(int sig)
{
    (void)sig;
    if (exit_len > 0) {
        ssize_t n = write(2, exit_msg, (size_t)exit_len);
        (void)n;
        _exit(TOOL_EXIT_FAILURE);
    }
    tool_stop_requested = 1;
}

void tool_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void tool_stop_exits(const char *doing)
{
    if (doing == NULL) {
        exit_len = 0;
        return;
    }
    int n = snprintf(exit_msg, sizeof exit_msg, "%s: interrupted while %s\n", tool_name(), doing);
    exit_len = n < 0 ? 0 : (n < (int)sizeof exit_msg ? n : (int)sizeof exit_msg - 1);
    /* A signal that came before the line above only set the flag, and the
     * loop about to run would not see it: it ends the program now. One
     * that comes after is the handler's. */
    if (tool_stop_requested) {
        on_stop(0);
    }
}
