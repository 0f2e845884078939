/* ccnr: the repository. Keeps ContentObjects in a store under
 * $CCNR_DIRECTORY, answers Interests for them through the local ccnd, and
 * stores content that publishers offer with the start-write protocol. */
#include "ccnr.h"
#include "status.h"

#include "tool.h"
#include "tool_signal.h"

#include <ccnx/error.h>
#include <ccnx/local.h>
#include <ccnx/uri.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define KEYSTORE_FILE "ccnx_repository_keystore"
#define LOCK_FILE     "ccnr.lock"
#define LOOP_SLICE_MS 200
/* The reference repository's keystore password, so that a keystore it
 * made can be used here and the other way round. */
#define KEYSTORE_PASSWORD "Th1s 1s n0t 8 g00d R3p0s1t0ry p8ssw0rd!"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: ccnr [-h]\n"
            "       ccnr import FILE\n"
            "The CCNx repository: keeps ContentObjects in $CCNR_DIRECTORY, answers\n"
            "Interests for them through the local ccnd, and stores what publishers offer\n"
            "with a start-write (ccnputfile, ccnseqwriter -r). Runs in the foreground\n"
            "until SIGINT or SIGTERM; log lines go to standard error.\n"
            "\n"
            "Settings (environment, overridden by NAME=VALUE lines in $CCNR_DIRECTORY/config):\n"
            "  CCNR_DIRECTORY       where the store lives (default: the current directory;\n"
            "                       it must exist)\n"
            "  CCNR_GLOBAL_PREFIX   the repository's name (default ccnx:/parc.com/csl/ccn/Repos)\n"
            "  CCNR_DEBUG           NONE SEVERE ERROR WARNING INFO FINE FINER FINEST\n"
            "                       (default WARNING)\n"
            "  CCNR_START_WRITE_SCOPE_LIMIT  0..3 (default 3): answer start-writes whose\n"
            "                       Scope is at most this; 0 is read-only, 3 unlimited\n"
            "  CCNR_MAX_BYTES       the store's capacity, e.g. 4G (default 16G)\n"
            "  CCNR_VERIFY          1: check signatures on ingest (default); 0: do not\n"
            "  CCNR_STATUS_PORT     TCP port of the status page (HTML at /, JSON at\n"
            "                       /?f=json); unset: none\n"
            "  CCNR_LISTEN_ON       its addresses (default 127.0.0.1 and ::1)\n"
            "  CCNS_ENABLE          1: keep the slices made by ccnsyncslice in Sync with\n"
            "                       the neighbours' repositories (default); 0: no Sync\n"
            "  CCNS_DEBUG           the Sync agent's log level (default: CCNR_DEBUG's)\n"
            "  CCNS_HEARTBEAT_MICROS, CCNS_ROOT_ADVISE_LIFETIME, CCNS_NODE_FETCH_LIFETIME,\n"
            "  CCNS_MAX_FETCH_BUSY, CCNS_SYNC_SCOPE: the Sync agent's timing (see ccnr(1))\n"
            "ccnd is found as by every client (CCN_LOCAL_PORT, CCN_LOCAL_SOCKNAME).\n"
            "\n"
            "ccnr import FILE merges the ContentObjects of FILE (back-to-back ccnb, as\n"
            "ccnb files hold them) into the repository on $CCNR_DIRECTORY: through the\n"
            "ccnr running there (the bulk import command %%C1.R.af, sent through ccnd),\n"
            "or directly when none runs. Objects whose signature does not verify with a\n"
            "key they carry, or one the file holds as a self-signed KEY object, are\n"
            "refused. Exit 0 when everything was imported or held.\n"
            "\n"
            "  -h, --help  show this help\n"
            "\n"
            "Exit status: 0 stopped by a signal, 1 failure (bad setting, directory in use\n"
            "by another ccnr, store or keystore unusable, no ccnd), 2 usage.\n");
}

/* Keeps a second repository out of the directory: the lock lasts as long
 * as the process (the kernel drops it even after kill -9). The file stays
 * empty until the repository serves (ccnr_lock_mark_ready), so that
 * `ccnr import` can tell a repository that is starting from one that
 * answers. */
int ccnr_lock_try(const char *dir, long *holder)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, LOCK_FILE);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        tool_die("cannot create %s: %s: make CCNR_DIRECTORY writable", path, strerror(errno));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) {
            tool_die("cannot lock %s: %s", path, strerror(errno));
        }
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        *holder = n > 0 ? strtol(pid, NULL, 10) : 0;
        close(fd);
        return -1;
    }
    if (ftruncate(fd, 0) != 0) {
        ccnr_log(CCNR_WARNING, "cannot empty %s: %s", path, strerror(errno));
    }
    return fd;
}

void ccnr_lock_mark_ready(int fd)
{
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (pwrite(fd, pid, (size_t)n, 0) != n) {
        ccnr_log(CCNR_WARNING, "cannot write the pid into %s: %s", LOCK_FILE, strerror(errno));
    }
}

static int lock_directory(const char *dir)
{
    long holder = 0;
    int fd = ccnr_lock_try(dir, &holder);
    if (fd < 0 && holder > 0) {
        tool_die("another ccnr is already using %s (pid %ld holds %s/%s): stop it first or set "
                 "CCNR_DIRECTORY to another directory",
                 dir, holder, dir, LOCK_FILE);
    }
    if (fd < 0) {
        tool_die("%s/%s is held by a ccnr that is starting or by a `ccnr import`: wait for it "
                 "or set CCNR_DIRECTORY to another directory",
                 dir, LOCK_FILE);
    }
    return fd;
}

static struct ccnx_keystore *open_keystore(const char *dir)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, KEYSTORE_FILE);
    struct ccnx_keystore *ks = NULL;
    int rc = ccnx_keystore_open(path, KEYSTORE_PASSWORD, &ks);
    if (rc == CCNX_E_NOTFOUND) {
        struct ccnx_keystore_options opt = {.subject = "Repository"};
        rc = ccnx_keystore_create(path, KEYSTORE_PASSWORD, &opt, &ks);
        if (rc == 0) {
            ccnr_log(CCNR_WARNING, "new repository key saved in %s", path);
        }
    }
    if (rc != 0) {
        tool_die("cannot open or create the repository keystore %s: %s: remove it if it is "
                 "damaged (a new key is then made)",
                 path, ccnx_strerror(rc));
    }
    return ks;
}

static void open_all(struct ccnr *r)
{
    char err[512];
    r->store = ccnr_store_open(r->set.dir, r->set.max_bytes, err, sizeof err);
    if (r->store == NULL) {
        tool_die("%s", err);
    }
    r->ks = open_keystore(r->set.dir);
    int rc = ccnx_client_open(&r->c);
    if (rc != 0) {
        tool_die("%s", r->c != NULL ? ccnx_client_error(r->c) : "out of memory");
    }
    ccnx_client_set_keystore(r->c, r->ks);
    if (ccnx_verifier_create(r->c, &r->verifier) != 0) {
        tool_die("out of memory");
    }
    if (ccnr_serve_start(r) != 0) {
        tool_die("cannot load the policy or register its namespaces with ccnd at %s: %s",
                 ccnx_client_where(r->c), ccnx_client_error(r->c));
    }
    ccnr_sync_start(r);
}

static void close_all(struct ccnr *r)
{
    ccnr_sync_stop(r);
    ccnr_write_stop_all(r);
    struct ccnr_store_stats st;
    ccnr_store_get_stats(r->store, &st);
    ccnr_log(CCNR_INFO, "stopping: %llu objects held, %llu stored and %llu refused since start",
             (unsigned long long)st.objects, (unsigned long long)st.added,
             (unsigned long long)r->refused);
    ccnx_verifier_destroy(r->verifier);
    ccnr_policy_stop(r);
    ccnx_client_destroy(r->c);
    ccnr_store_close(r->store);
    ccnx_keystore_destroy(r->ks);
    ccnr_settings_free(&r->set);
}

/* The loop: poll() over the client's connection (none while it is
 * reconnecting: its timers bring the next attempt) and the status
 * server's sockets, waking at least every LOOP_SLICE_MS to see the stop
 * flag. The client reconnects by itself after a ccnd restart and registers
 * the policy's namespaces again, so losing ccnd is not a reason to stop. */
static void run_loop(struct ccnr *r, struct ccnr_status *st)
{
    struct pollfd p[1 + CCNR_STATUS_MAX_FDS];
    while (!tool_stop_requested) {
        p[0] = (struct pollfd){ccnx_client_fd(r->c), ccnx_client_poll_events(r->c), 0};
        nfds_t n = 1 + ccnr_status_poll_fill(st, p + 1);
        int wait = LOOP_SLICE_MS;
        int t = ccnx_client_timeout_ms(r->c);
        wait = t >= 0 && t < wait ? t : wait;
        t = ccnr_status_timeout_ms(st);
        wait = t >= 0 && t < wait ? t : wait;
        if (poll(p, n, wait) < 0) {
            if (errno != EINTR) {
                tool_die("poll failed: %s", strerror(errno));
            }
            continue;
        }
        ccnr_status_process(st, p + 1);
        ccnx_client_process(r->c);
    }
}

/* ccnr import FILE: through a ccnr running on the directory, or alone. */
static int import_command(int argc, char **argv)
{
    if (argc != 3) {
        tool_usage_error("ccnr import takes one argument, the file to import");
    }
    struct ccnr_settings set;
    char err[1024];
    if (ccnr_settings_load(&set, err, sizeof err) != 0) {
        tool_die("%s", err);
    }
    ccnr_log_set_level(set.debug);
    int rc = ccnr_import_main(&set, argv[2]);
    ccnr_settings_free(&set);
    return rc;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    tool_help_first(argc, argv, usage);
    if (argc > 1 && strcmp(argv[1], "import") == 0) {
        return import_command(argc, argv);
    }
    if (argc > 1) {
        if (tool_is_help(argv[1])) {
            usage(stdout);
            return 0;
        }
        tool_usage_error("unexpected argument '%s': ccnr takes its settings from the environment",
                         argv[1]);
    }
    static struct ccnr r;
    char err[1024];
    if (ccnr_settings_load(&r.set, err, sizeof err) != 0) {
        tool_die("%s", err);
    }
    ccnr_log_set_level(r.set.debug);
    int lock_fd = lock_directory(r.set.dir);
    tool_catch_stop();
    open_all(&r);
    ccnr_lock_mark_ready(lock_fd);
    struct ccnx_buf u = CCNX_BUF_INIT;
    ccnx_uri_append_name(&u, &r.set.global_prefix);
    ccnr_log(CCNR_INFO, "serving %s (%s) through ccnd at %s", r.set.dir, ccnx_buf_cstr(&u),
             ccnx_client_where(r.c));
    ccnx_buf_free(&u);
    struct ccnr_status *st = NULL;
    if (ccnr_status_open(&r, &st, err, sizeof err) != 0) {
        tool_die("%s", err);
    }
    if (ccnx_local_notify(getenv("NOTIFY_SOCKET"), "READY=1") != 0) {
        ccnr_log(CCNR_WARNING, "could not tell the service manager it is ready (NOTIFY_SOCKET)");
    }
    run_loop(&r, st);
    ccnx_local_notify(getenv("NOTIFY_SOCKET"), "STOPPING=1");
    ccnr_status_close(st);
    close_all(&r);
    close(lock_fd);
    return 0;
}
