/* ccndstop: stop the ccnd that listens on the local unix socket. The
 * kernel tells which process owns the socket; that process gets SIGTERM,
 * on which ccnd closes its faces and removes the socket before exiting. */
#include <ccnx/error.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ccnd_link.h"
#include "tool.h"

#define STOP_WAIT_MS 10000

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-v]\n"
            "Stop the ccnd listening on the local unix socket (/tmp/.ccnd.sock, or as\n"
            "CCN_LOCAL_SOCKNAME and CCN_LOCAL_PORT say) and wait until it is gone.\n"
            "\n"
            "  -v          say which process was stopped\n"
            "  -h, --help  show this help\n"
            "\n"
            "Exit status: 0 stopped, 1 no ccnd there or it could not be stopped, 2 usage.\n",
            tool_name());
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* A zombie has exited already; only its parent's wait is missing. */
static int is_alive(long pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
        return 0;
    }
    char stat_path[64], line[256];
    snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", pid);
    FILE *f = fopen(stat_path, "r");
    if (f == NULL) {
        return 1;
    }
    const char *state = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
    fclose(f);
    return !(state != NULL && state[1] == ' ' && state[2] == 'Z');
}

/* Gone means: the process no longer exists and the socket file is removed
 * (or no longer answers, when ccnd died without cleaning up). */
static int wait_gone(long pid, const char *path)
{
    for (long waited = 0; waited < STOP_WAIT_MS; waited += 20) {
        struct stat st;
        long now;
        if (!is_alive(pid) && (stat(path, &st) != 0 || ccnd_link_peer_pid(path, &now) != 0)) {
            return 0;
        }
        sleep_ms(20);
    }
    return -1;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "-v") != 0) {
            tool_usage_error("unknown argument '%s'", argv[i]);
        }
        verbose = 1;
    }
    char path[200];
    if (ccnd_link_address(path, sizeof path) < 0 || getenv("CCN_LOCAL_TRANSPORT") != NULL) {
        /* Only the unix socket tells who the owner is: ask for it alone. */
        unsetenv("CCN_LOCAL_TRANSPORT");
        if (ccnd_link_address(path, sizeof path) < 0) {
            tool_die("CCN_LOCAL_SOCKNAME is too long for a unix socket path");
        }
    }
    long pid = 0;
    int res = ccnd_link_peer_pid(path, &pid);
    if (res == CCNX_E_NOTFOUND) {
        tool_die("no ccnd at %s: nothing to stop", path);
    }
    if (res != 0) {
        tool_die("cannot tell which process serves %s on this system", path);
    }
    if (kill((pid_t)pid, SIGTERM) != 0) {
        tool_die("cannot stop ccnd (pid %ld) on %s: %s", pid, path,
                 errno == EPERM ? "it belongs to another user" : strerror(errno));
    }
    if (wait_gone(pid, path) != 0) {
        tool_die("ccnd (pid %ld) on %s is still running %d s after SIGTERM", pid, path,
                 STOP_WAIT_MS / 1000);
    }
    if (verbose) {
        printf("stopped ccnd (pid %ld) on %s\n", pid, path);
    }
    return 0;
}
