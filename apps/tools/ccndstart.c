/* ccndstart: start ccnd in the background with the settings of
 * ~/.ccnx/ccndrc, wait until it answers, then apply ~/.ccnx/ccnd.conf with
 * ccndc, and start a repository (ccnr) when CCNR_GLOBAL_PREFIX is set. A
 * ccnd that already answers on the socket is left alone: stopping
 * someone's forwarder is ccndstop's job, asked for by name. */
#include <ccnx/error.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ccnd_link.h"
#include "lan.h"
#include "tool.h"

#define START_WAIT_MS 10000
#define DEFAULT_CAP   "50000" /* what the reference's script gives ccnd */
#define LAN_MAX_FACES 64
#define LAN_FLAGS     "3" /* ACTIVE | CHILD_INHERIT */
#define LAN_TTL       "1" /* the link only */

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-v] [--config-dir DIR] [--lan [IFACE...]] [--lan-prefix URI]\n"
            "       %s --exec [--config-dir DIR]\n"
            "       %s --configure [-v] [--config-dir DIR] [--lan [IFACE...]] [--lan-prefix URI]\n"
            "Start ccnd in the background and configure it:\n"
            "  1. settings VAR=value from $CCNX_DIR/ccndrc (default ~/.ccnx/ccndrc) are put\n"
            "     in ccnd's environment ('#' comments and 'export' are allowed);\n"
            "  2. ccnd is started in a session of its own, its messages going to $CCND_LOG\n"
            "     when set (the file is truncated), else to this terminal;\n"
            "  3. once it answers on its unix socket, $CCNX_DIR/ccnd.conf (default\n"
            "     ~/.ccnx/ccnd.conf) is applied with 'ccndc -f';\n"
            "  4. when CCNR_GLOBAL_PREFIX is set (in the environment or ccndrc), a\n"
            "     repository is started as well: ccnr with CCNR_DIRECTORY\n"
            "     $CCNX_DIR/repository (created if need be), its messages appended to\n"
            "     the file 'log' there.\n"
            "  5. with --lan (or CCND_LAN), the local networks are joined: a multicast\n"
            "     face on each interface named (all that are up and can multicast when\n"
            "     none is), IPv4 " LAN_GROUP4 " and IPv6 " LAN_GROUP6 ", port " LAN_PORT ",\n"
            "     with the LAN prefix (default ccnx:/) routed there.\n"
            "A ccnd already answering on the socket is not touched: stop it with ccndstop.\n"
            "\n"
            "For a service manager (the ccnd.service units run these two):\n"
            "  --exec              step 1, then become ccnd in the foreground (messages on\n"
            "                      standard error; READY=1 to $NOTIFY_SOCKET once listening)\n"
            "  --configure         wait until ccnd answers, then steps 3 and 5 (no ccnr)\n"
            "\n"
            "  --config-dir DIR    read ccndrc and ccnd.conf from DIR (the repository of\n"
            "                      step 4 too); keys stay in $CCNX_DIR\n"
            "  --lan [IFACE...]    join the LAN (CCND_LAN=all or CCND_LAN=\"eth0 wlan0\")\n"
            "  --lan-prefix URI    what the LAN serves (CCND_LAN_PREFIX; default ccnx:/)\n"
            "  -v                  say what was started\n"
            "  -h, --help          show this help\n"
            "\n"
            "Exit status: 0 started and configured, 1 a step failed, 2 usage.\n",
            tool_name(), tool_name(), tool_name());
}

/* Where ccndrc and ccnd.conf live: $CCNX_DIR, else ~/.ccnx. */
static void ccnx_dir(char *out, size_t n)
{
    const char *dir = getenv("CCNX_DIR");
    const char *home = getenv("HOME");
    if (dir != NULL && dir[0] != '\0') {
        snprintf(out, n, "%s", dir);
    } else {
        snprintf(out, n, "%s/.ccnx", home != NULL ? home : ".");
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 && strchr(" \t\r\n", s[len - 1]) != NULL) {
        s[--len] = '\0';
    }
    return s;
}

/* ccndrc is a shell fragment in the reference; the assignments are what
 * matters, so those are honoured and anything else is pointed out. */
static void read_ccndrc(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return;
    }
    char line[1024];
    for (int lineno = 1; fgets(line, sizeof line, f) != NULL; lineno++) {
        char *s = trim(line);
        if (s[0] == '#' || s[0] == '\0') {
            continue;
        }
        if (strncmp(s, "export ", 7) == 0) {
            s = trim(s + 7);
        }
        char *eq = strchr(s, '=');
        size_t namelen = eq != NULL ? (size_t)(eq - s) : 0;
        if (namelen == 0 || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                      "0123456789_") != namelen) {
            tool_warn("%s:%d: ignored (not VAR=value)", path, lineno);
            continue;
        }
        *eq = '\0';
        char *value = eq + 1;
        size_t vlen = strlen(value);
        if (vlen >= 2 && (value[0] == '"' || value[0] == '\'') && value[vlen - 1] == value[0]) {
            value[vlen - 1] = '\0';
            value++;
        }
        setenv(s, value, 1);
    }
    fclose(f);
}

/* Starts program `name` (ccnd, ccnr) in a session of its own, its output
 * going to the file `log` (truncated, or appended to with `append`) when
 * given, else to this terminal. `logvar` names the setting, for messages. */
static pid_t spawn(const char *name, const char *log, int append, const char *logvar)
{
    char exe[PATH_MAX];
    tool_sibling(name, exe, sizeof exe);
    int logfd = -1;
    if (log != NULL && log[0] != '\0') {
        logfd = open(log, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
        if (logfd < 0) {
            tool_die("cannot write the log file %s (%s): %s", log, logvar, strerror(errno));
        }
    }
    pid_t pid = fork();
    if (pid < 0) {
        tool_die("cannot start %s: %s", name, strerror(errno));
    }
    if (pid == 0) {
        /* A session of its own: the terminal closing does not stop ccnd. */
        setsid();
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(logfd >= 0 ? logfd : null, 1);
        }
        if (logfd >= 0) {
            dup2(logfd, 2);
        }
        execvp(exe, (char *[]){(char *)name, NULL});
        fprintf(stderr, "ccndstart: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    if (logfd >= 0) {
        close(logfd);
    }
    return pid;
}

/* Returns once ccnd answers on path; dies with the reason when it exits
 * (pid, when it is our child; 0 for a ccnd started by someone else) or
 * stays silent. */
static void wait_up(pid_t pid, const char *path, const char *log)
{
    for (long waited = 0; waited < START_WAIT_MS; waited += 20) {
        long peer;
        if (ccnd_link_peer_pid(path, &peer) == 0) {
            return;
        }
        int status;
        if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
            tool_die("ccnd exited at once (%s %d)%s%s", WIFEXITED(status) ? "status" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                     log != NULL && log[0] != '\0' ? "; its messages are in " : "",
                     log != NULL && log[0] != '\0' ? log : "");
        }
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
    }
    tool_die("ccnd does not answer on %s after %d s", path, START_WAIT_MS / 1000);
}

/* Runs ccndc with argv (argv[0] "ccndc"); 0 when it succeeded. */
static int run_ccndc(char *const argv[])
{
    char exe[PATH_MAX];
    tool_sibling("ccndc", exe, sizeof exe);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(exe, argv);
        fprintf(stderr, "ccndstart: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                   WEXITSTATUS(status) == 0
               ? 0
               : -1;
}

static int apply_conf(const char *conf, int verbose)
{
    struct stat st;
    if (stat(conf, &st) != 0) {
        return 0;
    }
    if (run_ccndc((char *[]){"ccndc", verbose ? "-v" : "-f", verbose ? "-f" : (char *)conf,
                             verbose ? (char *)conf : NULL, NULL}) != 0) {
        tool_warn("ccnd is running, but %s was not applied in full (see above)", conf);
        return -1;
    }
    return 0;
}

/* LAN mode: a multicast face per interface and family, `prefix` routed
 * to each. 0, or -1 after saying what failed (ccnd keeps running). */
static int join_lan(const char *const *ifaces, size_t n, const char *prefix, int verbose)
{
    struct lan_face faces[LAN_MAX_FACES];
    char err[256];
    int count = lan_faces(ifaces, n, faces, LAN_MAX_FACES, err, sizeof err);
    if (count < 0) {
        tool_warn("ccnd is running, but the LAN was not joined: %s", err);
        return -1;
    }
    int failed = 0;
    for (int i = 0; i < count; i++) {
        struct lan_face *f = &faces[i];
        if (run_ccndc((char *[]){"ccndc", "add", (char *)prefix, "udp", (char *)f->group, LAN_PORT,
                                 LAN_FLAGS, LAN_TTL, f->ifaddr, NULL}) != 0) {
            tool_warn("cannot join %s on %s (%s): see above", f->group, f->ifname, f->ifaddr);
            failed = 1;
        } else if (verbose) {
            printf("LAN: %s on %s, %s:%s from %s\n", prefix, f->ifname, f->group, LAN_PORT,
                   f->ifaddr);
        }
    }
    fflush(stdout);
    return failed ? -1 : 0;
}

/* Splits a CCND_LAN value ("all", or interface names separated by blanks
 * or commas) into names; returns how many (0 for all). */
static size_t lan_names(char *value, const char **names, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *w = strtok_r(value, " ,\t", &save); w != NULL && n < max;
         w = strtok_r(NULL, " ,\t", &save)) {
        if (strcmp(w, "all") != 0) {
            names[n++] = w;
        }
    }
    return n;
}

/* The repository, when CCNR_GLOBAL_PREFIX asks for one (as the reference's
 * ccndstart does). It connects to ccnd on its own; what it says goes to
 * the log in its directory. */
static void start_repository(const char *dir, int verbose)
{
    const char *prefix = getenv("CCNR_GLOBAL_PREFIX");
    if (prefix == NULL || prefix[0] == '\0') {
        return;
    }
    char repo[PATH_MAX], log[PATH_MAX + 8];
    snprintf(repo, sizeof repo, "%s/repository", dir);
    if (mkdir(repo, 0755) != 0 && errno != EEXIST) {
        tool_die("cannot create the repository directory %s: %s", repo, strerror(errno));
    }
    snprintf(log, sizeof log, "%s/log", repo);
    setenv("CCNR_DIRECTORY", repo, 1);
    pid_t pid = spawn("ccnr", log, 1, "the repository's log");
    if (verbose) {
        printf("started ccnr (pid %ld) in %s for %s\n", (long)pid, repo, prefix);
        fflush(stdout);
    }
}

enum start_mode { START_BACKGROUND, START_EXEC, START_CONFIGURE };

struct start_opts {
    enum start_mode mode;
    const char *config_dir;
    int verbose;
    int lan;
    const char *lan_ifaces[LAN_MAX_FACES];
    size_t n_ifaces;
    const char *lan_prefix;
};

static void parse_args(int argc, char **argv, struct start_opts *o)
{
    for (int i = 1; i < argc; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            exit(0);
        } else if (strcmp(argv[i], "-v") == 0) {
            o->verbose = 1;
        } else if (strcmp(argv[i], "--lan") == 0) {
            o->lan = 1;
            while (i + 1 < argc && argv[i + 1][0] != '-' && o->n_ifaces < LAN_MAX_FACES) {
                o->lan_ifaces[o->n_ifaces++] = argv[++i];
            }
        } else if (strcmp(argv[i], "--lan-prefix") == 0 && i + 1 < argc) {
            o->lan_prefix = argv[++i];
        } else if (strcmp(argv[i], "--config-dir") == 0 && i + 1 < argc) {
            o->config_dir = argv[++i];
        } else if (strcmp(argv[i], "--exec") == 0 && o->mode == START_BACKGROUND) {
            o->mode = START_EXEC;
        } else if (strcmp(argv[i], "--configure") == 0 && o->mode == START_BACKGROUND) {
            o->mode = START_CONFIGURE;
        } else {
            tool_usage_error("unknown argument '%s'", argv[i]);
        }
    }
}

/* CCND_LAN and CCND_LAN_PREFIX (from the environment or ccndrc) when the
 * command line did not say. */
static void lan_settings(struct start_opts *o)
{
    static char value[1024];
    const char *lan = getenv("CCND_LAN");
    if (!o->lan && lan != NULL && lan[0] != '\0') {
        snprintf(value, sizeof value, "%s", lan);
        o->lan = 1;
        o->n_ifaces = lan_names(value, o->lan_ifaces, LAN_MAX_FACES);
    }
    if (o->lan_prefix == NULL) {
        const char *p = getenv("CCND_LAN_PREFIX");
        o->lan_prefix = p != NULL && p[0] != '\0' ? p : "ccnx:/";
    }
}

/* --exec: ccnd itself, in this process, so that a service manager watches
 * and signals the forwarder and not a launcher. */
static void exec_ccnd(void)
{
    char exe[PATH_MAX];
    tool_sibling("ccnd", exe, sizeof exe);
    execv(exe, (char *[]){"ccnd", NULL});
    tool_die("cannot run %s: %s", exe, strerror(errno));
}

/* Steps 3 and 5: ccnd.conf, then the LAN. 0, or -1 when one was not applied in full. */
static int configure(const struct start_opts *o, const char *conf)
{
    int applied = apply_conf(conf, o->verbose);
    if (o->lan && join_lan(o->lan_ifaces, o->n_ifaces, o->lan_prefix, o->verbose) != 0) {
        applied = -1;
    }
    return applied;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct start_opts o = {0};
    parse_args(argc, argv, &o);
    char dir[PATH_MAX - 32], rc[PATH_MAX], conf[PATH_MAX], path[200];
    if (o.config_dir != NULL) {
        snprintf(dir, sizeof dir, "%s", o.config_dir);
    } else {
        ccnx_dir(dir, sizeof dir);
    }
    snprintf(rc, sizeof rc, "%s/ccndrc", dir);
    snprintf(conf, sizeof conf, "%s/ccnd.conf", dir);
    read_ccndrc(rc);
    lan_settings(&o);
    setenv("CCND_CAP", DEFAULT_CAP, 0);
    unsetenv("CCN_LOCAL_TRANSPORT"); /* ccnd's own socket is the one to watch */
    if (ccnd_link_address(path, sizeof path) < 0) {
        tool_die("CCN_LOCAL_SOCKNAME is too long for a unix socket path");
    }
    if (o.mode == START_CONFIGURE) {
        wait_up(0, path, NULL);
        return configure(&o, conf) == 0 ? 0 : TOOL_EXIT_FAILURE;
    }
    long running;
    if (ccnd_link_peer_pid(path, &running) == 0) {
        tool_die("ccnd is already running (pid %ld) on %s; ccndstop stops it", running, path);
    }
    if (o.mode == START_EXEC) {
        exec_ccnd();
    }
    const char *log = getenv("CCND_LOG");
    pid_t pid = spawn("ccnd", log, 0, "CCND_LOG");
    wait_up(pid, path, log);
    if (o.verbose) {
        printf("started ccnd (pid %ld) on %s\n", (long)pid, path);
        fflush(stdout);
    }
    int applied = configure(&o, conf);
    start_repository(dir, o.verbose);
    return applied == 0 ? 0 : TOOL_EXIT_FAILURE;
}
