/* The repository daemon's parts: its settings (settings.c), the log,
 * answering Interests from the store and the repository protocol's
 * start-write commands (serve.c), and the fetches that store what a
 * start-write asked for (write.c). One thread, driven by the client's loop. */
#ifndef CCNR_H
#define CCNR_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <ccnx/client.h>
#include <ccnx/verifier.h>
#include <ccnx/name.h>
#include <ccnx/keystore.h>

#include "store.h"

/* CCNR_DEBUG levels, as the reference names them. */
enum ccnr_level {
    CCNR_NONE,
    CCNR_SEVERE,
    CCNR_ERROR,
    CCNR_WARNING,
    CCNR_INFO,
    CCNR_FINE,
    CCNR_FINER,
    CCNR_FINEST,
};

#define CCNR_LISTEN_MAX 8 /* addresses in CCNR_LISTEN_ON */

/* The status server's settings (status.h). */
struct ccnr_status_set {
    unsigned port;                       /* CCNR_STATUS_PORT, 0: no status server */
    char listen_on_text[512];            /* CCNR_LISTEN_ON as given, for messages */
    char listen_on[CCNR_LISTEN_MAX][64]; /* its numeric addresses */
    int listen_count;                    /* 0: the default, localhost */
};

/* The Sync agent's settings (CCNS_*, as the reference names them). */
struct ccnr_sync_set {
    long enable;           /* CCNS_ENABLE */
    long heartbeat_us;     /* CCNS_HEARTBEAT_MICROS: the agent's tick */
    long ra_lifetime_s;    /* CCNS_ROOT_ADVISE_LIFETIME */
    long nf_lifetime_s;    /* CCNS_NODE_FETCH_LIFETIME: Node Fetch and content Interests */
    long fetch_busy;       /* CCNS_MAX_FETCH_BUSY: fetches at once per slice */
    long scope;            /* CCNS_SYNC_SCOPE */
    enum ccnr_level debug; /* CCNS_DEBUG (default: CCNR_DEBUG's level) */
};

struct ccnr_settings {
    char dir[PATH_MAX];             /* CCNR_DIRECTORY */
    struct ccnx_name global_prefix; /* CCNR_GLOBAL_PREFIX */
    enum ccnr_level debug;          /* CCNR_DEBUG */
    int start_write_scope_limit;    /* CCNR_START_WRITE_SCOPE_LIMIT, 0..3 */
    int verify;                     /* CCNR_VERIFY: check signatures on ingest (default 1) */
    uint64_t max_bytes;             /* CCNR_MAX_BYTES, 0: the store's default */
    struct ccnr_status_set status;  /* CCNR_STATUS_PORT, CCNR_LISTEN_ON */
    struct ccnr_sync_set sync;      /* CCNS_* */
};

/* Reads the environment and then $CCNR_DIRECTORY/config (whose values win,
 * as the reference's manual says). 0, or -1 with a sentence in err that
 * names the variable (or the file and line) and the fix. */
int ccnr_settings_load(struct ccnr_settings *s, char *err, size_t errlen);
void ccnr_settings_free(struct ccnr_settings *s);

/* Log lines on stderr, "ccnr: <LEVEL>: <message>", when level is at most
 * the CCNR_DEBUG level. */
void ccnr_log_set_level(enum ccnr_level level);
void ccnr_log(enum ccnr_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line at that level whatever CCNR_DEBUG says (for parts with a level
 * of their own, such as the Sync agent's CCNS_DEBUG). */
void ccnr_log_line(enum ccnr_level level, const char *line);

struct ccnr_write;
struct ccnr_policy_state;
struct ccnr_sync;

struct ccnr {
    struct ccnr_settings set;
    struct ccnx_client *c;
    struct ccnr_store *store;
    struct ccnx_keystore *ks;
    struct ccnx_verifier *verifier;
    struct ccnr_write *writes; /* fetches started by start-write */
    int batch_open;            /* objects added since the last commit */
    unsigned batch_objects;
    uint64_t commit_timer; /* pending commit of a batch (0: none) */
    uint64_t reap_timer;   /* pending removal of finished fetches (0: none) */
    uint64_t refused;      /* objects that failed verification or could not be stored */
    /* the policy in force (policy_apply.c) */
    struct ccnr_policy_state *policy;
    uint64_t start_writes;         /* fetches started by start-writes since start */
    uint64_t start_writes_refused; /* not answered: CCNR_MAX_WRITES were running */
    uint64_t imports;              /* bulk import commands handled since start */
    uint64_t imported;             /* objects they added */
    int full_rc;                   /* the store filled up (CCNR_STORE_E_FULL or _DISK), or 0 */
    int64_t full_ms;               /* when it last did */
    struct ccnr_sync *sync;        /* the Sync agent, NULL when CCNS_ENABLE=0 */
};

/* serve.c: the filters on the policy's namespaces, registered with ccnd
 * (waits for ccnd's answers). 0, or negative with ccnx_client_error
 * saying why. */
int ccnr_serve_start(struct ccnr *r);

/* policy_apply.c: loads the policy from the store (creating the default
 * one there when none qualifies) and sets a filter calling fn on each of
 * its namespaces and the global prefix, registered with ccnd (waits for
 * the answers). 0, or negative (logged, or ccnx_client_error). */
int ccnr_policy_start(struct ccnr *r, ccnx_interest_fn fn);
/* A start-write of prefix was stored: when it is a new version of the
 * policy that qualifies, it takes effect now; else the reason is logged. */
void ccnr_policy_written(struct ccnr *r, const struct ccnx_name *prefix);
void ccnr_policy_stop(struct ccnr *r);

/* write.c: fetches prefix (a versioned name, copied) from start_segment on
 * and stores every verified object; nothing when a fetch of the same
 * prefix is running. 0, or a negative error (logged). */
int ccnr_write_start(struct ccnr *r, const struct ccnx_name *prefix, uint64_t start_segment);
/* Makes the objects added so far durable (their fetches count them as
 * stored); on failure the batch is lost and its fetches stop. 0, or the
 * store's error. */
int ccnr_write_commit(struct ccnr *r);
/* Adds one verified object to the open batch (opened when none is),
 * committed with the batch: a ccnr_store_add result, or a negative error
 * (the batch was lost then, and fetches with objects in it stopped). */
int ccnr_write_store(struct ccnr *r, const uint8_t *obj, size_t len);
/* Commits what is pending and ends every fetch (for shutting down). */
void ccnr_write_stop_all(struct ccnr *r);
/* Fetches running at once at most. Each keeps up to a window of Interests
 * in ccnd's PIT; more start-writes than this, from one writer gone wrong
 * or many, are not answered (the writer hears of no repository) and are
 * counted. */
#define CCNR_MAX_WRITES 64
/* 1 when a new fetch may start now. */
int ccnr_write_has_room(const struct ccnr *r);
/* After the store filled up, start-writes are refused for this long (then
 * a new one tries again: space may have been made). */
#define CCNR_FULL_REFUSE_MS 10000
/* Why start-writes are refused now (the store filled up less than
 * CCNR_FULL_REFUSE_MS ago), or NULL. */
const char *ccnr_write_refusal(const struct ccnr *r);
/* Calls fn for each fetch still running, with its prefix (a URI) and the
 * objects it stored so far (committed), for the status page. */
void ccnr_write_foreach(const struct ccnr *r,
                        void (*fn)(void *arg, const char *uri, uint64_t stored), void *arg);

/* sync_agent.c: the Sync agent (docs/sync.md). Loads the slices stored in
 * the repository and starts following them; 0 (also with CCNS_ENABLE=0) or
 * a negative error (logged). */
int ccnr_sync_start(struct ccnr *r);
/* An object was added to the store: a Create Slice request, or content of
 * a slice's collection. */
void ccnr_sync_stored(struct ccnr *r, const uint8_t *obj, size_t len);
/* Objects were added without passing ccnr_sync_stored (a bulk import). */
void ccnr_sync_rescan(struct ccnr *r);
void ccnr_sync_stop(struct ccnr *r);
/* For the status page: the agent's counts since start (all 0 when Sync is
 * off), and each slice followed, with its names and root hash (hex). */
struct ccnr_sync_counts {
    int enabled;
    uint64_t names_fetched, nodes_fetched, refused, advises_answered, nodes_answered;
};
void ccnr_sync_get_counts(const struct ccnr *r, struct ccnr_sync_counts *out);
void ccnr_sync_foreach(const struct ccnr *r,
                       void (*fn)(void *arg, const char *topo, const char *prefix, size_t names,
                                  const char *root),
                       void *arg);

/* main.c: takes the directory's lock (the lock file left empty): its fd,
 * or -1 when another process holds it, with the pid of a repository that
 * serves in *holder (0 while it is starting, or for a `ccnr import`). Dies
 * on other failures. */
int ccnr_lock_try(const char *dir, long *holder);
/* Writes our pid into the lock file: the repository serves from now on. */
void ccnr_lock_mark_ready(int fd);

/* import.c: bulk import (RepoProtocol.txt, %C1.R.af). */
struct ccnr_import_counts {
    uint64_t objects;  /* in the file */
    uint64_t imported; /* added and committed */
    uint64_t held;     /* already in the store (or twice in the file) */
    uint64_t refused;  /* not verified or not storable */
};
/* Imports the ContentObjects of the file at path into the store, checking
 * signatures with v without fetching keys (v NULL: none checked, as
 * CCNR_VERIFY=0 asks). msg gets "OK" or a diagnostic.
 * 0: all imported or held; 1: some refused, the others imported; -1:
 * the file was unreadable or malformed (nothing imported) or the store
 * failed (batches committed before stay). */
int ccnr_import_file(struct ccnr_store *s, struct ccnx_verifier *v, const char *path,
                     struct ccnr_import_counts *n, char *msg, size_t msglen);
/* 1 when the name component is a bulk import command (%C1.R.af...). */
int ccnr_import_is_request(const uint8_t *comp, size_t n);
/* Carries out the command in comp (%C1.R.af~<filename>) on
 * $CCNR_DIRECTORY/import/<filename>, removing the file once processed;
 * msg gets the InfoString of the reply. The result of ccnr_import_file. */
int ccnr_import_request(struct ccnr *r, const uint8_t *comp, size_t n, char *msg, size_t msglen);
/* `ccnr import FILE`: the exit status. */
int ccnr_import_main(const struct ccnr_settings *set, const char *file);

#endif
