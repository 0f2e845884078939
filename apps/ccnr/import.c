/* Bulk import (RepoProtocol.txt, %C1.R.af): merging a file of back-to-back
 * ccnb ContentObjects into the store, for the daemon's command and for
 * `ccnr import FILE`.
 *
 * The file is read twice. The first pass only cuts it with the skeleton
 * decoder and parses every object, so that a truncated or foreign element
 * anywhere refuses the whole file before anything is stored (the
 * reference also parses the file completely before merging it). The
 * second pass skips what is held, verifies the rest and adds it in
 * batches.
 *
 * Verification is synchronous and never fetches: a key carried in the
 * KeyLocator (Key or Certificate), a self-signed KEY object of the same
 * file, or one the verifier already knows is used, and an object that
 * would need its key fetched by name from elsewhere is refused
 * like one whose signature fails. An import thus takes one pass of the
 * daemon's loop, however many objects it holds, and its answer is final. */
#include "ccnr.h"

#include "tool.h"

#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/repo.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>
#include <ccnx/verifier.h>
#include <ccnx/fetch.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define IMPORT_BATCH 256

struct import {
    struct ccnr_store *store;
    struct ccnx_verifier *v;
    const uint8_t *p; /* the whole file */
    size_t size;
    struct ccnr_import_counts *n;
    int batch_open;
    uint64_t pending;              /* added to the open batch */
    struct ccnx_buf first_refusal; /* why the first refused object was refused */
    char *msg;
    size_t msglen;
};

static int say(struct import *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int say(struct import *im, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(im->msg, im->msglen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The object starting at *off: 1 with its length in *len and parsed in
 * *pc, 0 at the end of the file, or -1 with the reason in im->msg. */
static int next_object(struct import *im, size_t off, size_t *len, struct ccnx_content_parsed *pc)
{
    if (off == im->size) {
        return 0;
    }
    struct ccnx_skel sk;
    ccnx_skel_init(&sk);
    size_t used = 0;
    int rc = ccnx_skel_feed(&sk, im->p + off, im->size - off, &used);
    if (rc == 0) {
        return say(im, "truncated object at offset %zu (the file ends inside it)", off);
    }
    if (rc < 0) {
        return say(im, "malformed ccnb at offset %zu: %s", off, ccnx_strerror(rc));
    }
    if (sk.top_dtag != CCNX_DTAG_ContentObject) {
        return say(im, "the element at offset %zu is not a ContentObject", off);
    }
    rc = ccnx_content_parse(im->p + off, used, pc);
    if (rc != 0) {
        return say(im, "malformed ContentObject at offset %zu: %s", off, ccnx_strerror(rc));
    }
    *len = used;
    return 1;
}

/* A KEY object that signs itself (its publisher is the key it holds, and
 * the signature verifies with it) is trusted as a key carried in a
 * KeyLocator is: the objects of the file that name it by KeyName then
 * verify, as they do for a consumer that fetches it. A repository's file
 * holds its publishers' keys this way (the reference's Java tools name
 * their key and store it beside what they publish). */
static void learn_key(struct import *im, const uint8_t *obj, size_t len,
                      const struct ccnx_content_parsed *pc)
{
    struct ccnx_key *key = NULL;
    if (im->v == NULL || pc->type != CCNX_TYPE_KEY || pc->publisher.len != CCNX_DIGEST_LEN ||
        ccnx_key_from_der(obj + pc->content_value.off, pc->content_value.len, &key) != 0) {
        return;
    }
    if (memcmp(ccnx_key_digest(key), obj + pc->publisher.off, CCNX_DIGEST_LEN) == 0 &&
        ccnx_content_verify(obj, len, pc, key) == 0) {
        ccnx_verifier_add_key(im->v, key);
    }
    ccnx_key_destroy(key);
}

static int check_whole_file(struct import *im)
{
    struct ccnx_content_parsed pc;
    size_t off = 0, len = 0;
    int rc;
    while ((rc = next_object(im, off, &len, &pc)) == 1) {
        learn_key(im, im->p + off, len, &pc);
        off += len;
        im->n->objects++;
    }
    return rc;
}

static void refuse(struct import *im, const uint8_t *obj, const struct ccnx_content_parsed *pc,
                   const char *why)
{
    if (im->n->refused++ == 0) {
        ccnx_uri_append(&im->first_refusal, obj + pc->name.off, pc->name.len);
        ccnx_buf_printf(&im->first_refusal, ": %s", why);
    }
}

static const char *refusal_reason(int rc)
{
    switch (rc) {
    case CCNX_E_BADSIG:
        return "its signature does not verify";
    case CCNX_E_NOKEY:
    case CCNX_E_KEYNOTFOUND:
    case CCNX_E_INVAL:
        return "its key is neither in its KeyLocator nor known to the repository";
    case CCNR_STORE_E_NAME:
        return "its name is too long to be stored";
    default:
        return ccnx_strerror(rc);
    }
}

/* One object: skipped when held, else verified and added. 0, or a store
 * error that loses the open batch. */
static int import_one(struct import *im, const uint8_t *obj, size_t len,
                      const struct ccnx_content_parsed *pc)
{
    uint8_t digest[32];
    int rc = ccnx_content_digest(obj, len, digest);
    rc = rc == 0 ? ccnr_store_has(im->store, obj + pc->name.off, pc->name.len, digest) : rc;
    if (rc == 1) {
        im->n->held++;
        return 0;
    }
    rc = rc == 0 && im->v != NULL ? ccnx_verifier_check(im->v, obj, len, pc, NULL, NULL) : rc;
    if (rc != 0) {
        refuse(im, obj, pc, refusal_reason(rc));
        return 0;
    }
    rc = ccnr_store_add_parsed(im->store, obj, len, pc, digest);
    if (rc == CCNR_STORE_ADDED) {
        im->pending++;
    } else if (rc == CCNR_STORE_DUPLICATE) {
        im->n->held++; /* twice in the file */
    } else if (rc == CCNR_STORE_E_NAME || rc == CCNX_E_INVAL) {
        refuse(im, obj, pc, refusal_reason(rc));
    } else {
        return rc;
    }
    return 0;
}

static int store_failed(struct import *im, int rc)
{
    return say(im, "the store failed after %llu objects were imported: %s",
               (unsigned long long)im->n->imported, ccnr_store_strerror(rc));
}

/* Ends the open batch: committed when it holds objects, else dropped. */
static int end_batch(struct import *im)
{
    im->batch_open = 0;
    if (im->pending == 0) {
        ccnr_store_abort(im->store);
        return 0;
    }
    int rc = ccnr_store_commit(im->store);
    if (rc != 0) {
        return store_failed(im, rc);
    }
    im->n->imported += im->pending;
    im->pending = 0;
    return 0;
}

static int merge(struct import *im)
{
    struct ccnx_content_parsed pc;
    size_t off = 0, len = 0;
    while (next_object(im, off, &len, &pc) == 1) {
        int rc = im->batch_open ? 0 : ccnr_store_begin(im->store);
        im->batch_open = rc == 0;
        rc = rc == 0 ? import_one(im, im->p + off, len, &pc) : rc;
        if (rc != 0) {
            if (im->batch_open) {
                ccnr_store_abort(im->store);
            }
            return store_failed(im, rc);
        }
        if (im->pending >= IMPORT_BATCH && end_batch(im) != 0) {
            return -1;
        }
        off += len;
    }
    return im->batch_open ? end_batch(im) : 0;
}

static int summarize(struct import *im)
{
    if (im->n->refused == 0) {
        snprintf(im->msg, im->msglen, "OK");
        return 0;
    }
    snprintf(im->msg, im->msglen,
             "%llu of %llu objects refused (the first: %s); %llu imported, %llu already held",
             (unsigned long long)im->n->refused, (unsigned long long)im->n->objects,
             ccnx_buf_cstr(&im->first_refusal), (unsigned long long)im->n->imported,
             (unsigned long long)im->n->held);
    return 1;
}

int ccnr_import_file(struct ccnr_store *s, struct ccnx_verifier *v, const char *path,
                     struct ccnr_import_counts *n, char *msg, size_t msglen)
{
    struct import im = {s, v, NULL, 0, n, 0, 0, CCNX_BUF_INIT, msg, msglen};
    memset(n, 0, sizeof *n);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : EINVAL;
        if (fd >= 0) {
            close(fd);
        }
        return say(&im, "cannot read %s: %s", path,
                   e == EINVAL ? "not a regular file" : strerror(e));
    }
    im.size = (size_t)st.st_size;
    void *map = im.size > 0 ? mmap(NULL, im.size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (map == MAP_FAILED) {
        return say(&im, "cannot map %s: %s", path, strerror(errno));
    }
    im.p = map;
    int rc = check_whole_file(&im);
    if (rc != 0) {
        size_t used = strlen(msg);
        snprintf(msg + used, msglen - used, "; nothing imported");
    }
    rc = rc == 0 ? merge(&im) : rc;
    rc = rc == 0 ? summarize(&im) : rc;
    if (map != NULL) {
        munmap(map, im.size);
    }
    ccnx_buf_free(&im.first_refusal);
    return rc;
}

/* ---- The %C1.R.af command ---- */

#define AF_MARKER     "\xC1.R.af~"
#define AF_MARKER_LEN 7

int ccnr_import_is_request(const uint8_t *comp, size_t n)
{
    return n >= AF_MARKER_LEN - 1 && memcmp(comp, AF_MARKER, AF_MARKER_LEN - 1) == 0;
}

/* The file name after "%C1.R.af~": a simple name, as the protocol asks. */
static const char *bad_file_name(const uint8_t *comp, size_t n)
{
    if (n <= AF_MARKER_LEN || comp[AF_MARKER_LEN - 1] != '~') {
        return "missing or malformed bulk import name component (%C1.R.af~<filename>)";
    }
    const uint8_t *name = comp + AF_MARKER_LEN;
    size_t len = n - AF_MARKER_LEN;
    if (memchr(name, '/', len) != NULL) {
        return "the bulk import file name must be a simple name, without '/'";
    }
    if (memchr(name, 0, len) != NULL || (len == 1 && name[0] == '.') ||
        (len == 2 && memcmp(name, "..", 2) == 0) || len > NAME_MAX) {
        return "the bulk import file name is not a usable file name";
    }
    return NULL;
}

int ccnr_import_request(struct ccnr *r, const uint8_t *comp, size_t n, char *msg, size_t msglen)
{
    const char *bad = bad_file_name(comp, n);
    if (bad != NULL) {
        snprintf(msg, msglen, "%s", bad);
        ccnr_log(CCNR_WARNING, "bulk import refused: %s", msg);
        return -1;
    }
    char path[PATH_MAX + NAME_MAX + 16];
    snprintf(path, sizeof path, "%s/import/%.*s", r->set.dir, (int)(n - AF_MARKER_LEN),
             (const char *)comp + AF_MARKER_LEN);
    /* the store has one write batch: what start-writes added goes first */
    int rc = ccnr_write_commit(r);
    struct ccnr_import_counts c = {0};
    if (rc != 0) {
        snprintf(msg, msglen, "the store failed: %s", ccnx_strerror(rc));
    } else {
        rc = ccnr_import_file(r->store, r->set.verify ? r->verifier : NULL, path, &c, msg, msglen);
    }
    r->refused += c.refused;
    r->imports++;
    r->imported += c.imported;
    if (c.imported > 0) {
        ccnr_sync_rescan(r);
    }
    if (rc < 0) {
        ccnr_log(CCNR_WARNING, "bulk import of %s failed: %s", path, msg);
        return rc;
    }
    /* processed through: the file goes, as in the reference, also when
     * some objects were refused (importing it again would refuse them
     * again) */
    if (unlink(path) != 0) {
        ccnr_log(CCNR_WARNING, "cannot remove %s after importing it: %s", path, strerror(errno));
    }
    ccnr_log(rc == 0 ? CCNR_INFO : CCNR_WARNING,
             "bulk import of %s: %llu objects imported, %llu already held, %llu refused%s%s", path,
             (unsigned long long)c.imported, (unsigned long long)c.held,
             (unsigned long long)c.refused, rc == 0 ? "" : ": ", rc == 0 ? "" : msg);
    return rc;
}

/* ---- ccnr import FILE ---- */

#define ANSWER_TIMEOUT_MS 8000

/* Copies file into <dir>/import/ under a new name; 0 with that name in
 * name (its last part), else -1 after saying why. */
static int copy_in(const char *dir, const char *file, char *path, size_t pathlen, const char **name)
{
    snprintf(path, pathlen, "%s/import", dir);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        tool_warn("cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    const char *base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;
    snprintf(path, pathlen, "%s/import/%.64s.XXXXXX", dir, base);
    int out = mkstemp(path);
    int in = open(file, O_RDONLY | O_CLOEXEC);
    if (out < 0 || in < 0) {
        tool_warn("cannot %s: %s", out < 0 ? "create a file in the import folder" : "read the file",
                  strerror(errno));
        if (out >= 0) {
            close(out);
            unlink(path);
        }
        return -1;
    }
    char buf[65536];
    ssize_t got;
    int rc = 0;
    while (rc == 0 && (got = read(in, buf, sizeof buf)) != 0) {
        rc = got < 0 || write(out, buf, (size_t)got) != got ? -1 : 0;
    }
    if (rc != 0 || close(out) != 0) {
        tool_warn("cannot copy %s to %s: %s", file, path, strerror(errno));
        unlink(path);
        rc = -1;
    }
    close(in);
    *name = strrchr(path, '/') + 1;
    return rc;
}

static int build_request(struct ccnx_buf *interest, const char *name)
{
    struct ccnx_buf comp = CCNX_BUF_INIT;
    ccnx_buf_append(&comp, AF_MARKER, AF_MARKER_LEN);
    ccnx_buf_append_str(&comp, name);
    struct ccnx_name n;
    ccnx_name_init(&n);
    int rc = ccnx_buf_status(&comp);
    rc = rc == 0 ? ccnx_name_append(&n, comp.data, comp.len) : rc;
    if (rc == 0) {
        struct ccnx_interest_params ip;
        ccnx_interest_params_init(&ip);
        ip.name = n.enc.data;
        ip.name_len = n.enc.len;
        ip.scope = 1;
        ip.lifetime_units = (int64_t)ANSWER_TIMEOUT_MS * 4096 / 1000;
        rc = ccnx_interest_build(interest, &ip);
    }
    ccnx_name_free(&n);
    ccnx_buf_free(&comp);
    return rc;
}

/* The InfoString of the reply, or -1 after saying why there is none. */
static int ask(struct ccnx_client *c, const char *name, struct ccnx_buf *info)
{
    struct ccnx_verifier *v = NULL;
    struct ccnx_buf interest = CCNX_BUF_INIT, obj = CCNX_BUF_INIT, err = CCNX_BUF_INIT;
    int rc = build_request(&interest, name);
    rc = rc == 0 ? ccnx_verifier_create(c, &v) : rc;
    rc = rc == 0
             ? ccnx_fetch_object(c, v, interest.data, interest.len, ANSWER_TIMEOUT_MS, &obj, &err)
             : rc;
    struct ccnx_content_parsed pc;
    struct ccnx_repo_info ri;
    if (rc == CCNX_E_NOTFOUND) {
        tool_warn("no answer from the repository through ccnd at %s within %d s (%s)",
                  ccnx_client_where(c), ANSWER_TIMEOUT_MS / 1000, ccnx_buf_cstr(&err));
    } else if (rc != 0) {
        tool_warn("asking the repository failed: %s",
                  err.len > 0 ? ccnx_buf_cstr(&err) : ccnx_strerror(rc));
    } else if (ccnx_content_parse(obj.data, obj.len, &pc) != 0 ||
               ccnx_repo_info_parse(obj.data + pc.content_value.off, pc.content_value.len, &ri) !=
                   0 ||
               !ri.has_info_string) {
        tool_warn("the answer to the import request is no RepositoryInfo with an InfoString");
        rc = -1;
    } else {
        const uint8_t *body = obj.data + pc.content_value.off;
        ccnx_buf_append(info, body + ri.info_string.off, ri.info_string.len);
    }
    ccnx_verifier_destroy(v);
    ccnx_buf_free(&interest);
    ccnx_buf_free(&obj);
    ccnx_buf_free(&err);
    return rc == 0 ? 0 : -1;
}

static int import_through_ccnr(const struct ccnr_settings *set, const char *file, long pid)
{
    char path[PATH_MAX + 128];
    const char *name;
    if (copy_in(set->dir, file, path, sizeof path, &name) != 0) {
        return TOOL_EXIT_FAILURE;
    }
    struct ccnx_client *c = NULL;
    struct ccnx_buf info = CCNX_BUF_INIT;
    int rc = ccnx_client_open(&c);
    if (rc != 0) {
        tool_warn("a ccnr (pid %ld) runs on %s, but ccnd cannot be reached: %s", pid, set->dir,
                  c != NULL ? ccnx_client_error(c) : "out of memory");
    } else {
        ccnx_client_set_reconnect(c, 0);
        rc = ask(c, name, &info);
    }
    int ok = rc == 0 && strcmp(ccnx_buf_cstr(&info), "OK") == 0;
    if (ok) {
        printf("%s imported by the repository (pid %ld) on %s: OK\n", file, pid, set->dir);
    } else {
        if (rc == 0) {
            tool_warn("the repository (pid %ld) did not import %s: %s", pid, file,
                      ccnx_buf_cstr(&info));
        }
        /* the copy is ours: nobody else would ever remove it */
        unlink(path);
    }
    ccnx_buf_free(&info);
    ccnx_client_destroy(c);
    return ok ? 0 : TOOL_EXIT_FAILURE;
}

static int import_here(const struct ccnr_settings *set, const char *file)
{
    char err[1024];
    struct ccnr_store *s = ccnr_store_open(set->dir, set->max_bytes, err, sizeof err);
    if (s == NULL) {
        tool_warn("%s", err);
        return TOOL_EXIT_FAILURE;
    }
    struct ccnx_verifier *v = NULL;
    struct ccnr_import_counts c;
    int rc = set->verify ? ccnx_verifier_create(NULL, &v) : 0;
    if (rc != 0) {
        snprintf(err, sizeof err, "%s", ccnx_strerror(rc));
        rc = -1;
    } else {
        rc = ccnr_import_file(s, v, file, &c, err, sizeof err);
    }
    if (rc >= 0) {
        printf("%s imported into %s: %llu objects imported, %llu already held, %llu refused\n",
               file, set->dir, (unsigned long long)c.imported, (unsigned long long)c.held,
               (unsigned long long)c.refused);
    }
    if (rc != 0) {
        tool_warn("%s", err);
    }
    ccnx_verifier_destroy(v);
    ccnr_store_close(s);
    return rc == 0 ? 0 : TOOL_EXIT_FAILURE;
}

/* The lock of a repository that is starting is held while its file is
 * still empty: wait until it serves (its pid appears) or goes away,
 * checking every READY_POLL_MS, for at most READY_WAIT_MS. */
#define READY_WAIT_MS 10000
#define READY_POLL_MS 20

static int lock_or_wait_ready(const struct ccnr_settings *set, long *holder)
{
    int said = 0;
    for (int waited = 0;; waited += READY_POLL_MS) {
        int fd = ccnr_lock_try(set->dir, holder);
        if (fd >= 0 || *holder > 0) {
            return fd;
        }
        if (waited >= READY_WAIT_MS) {
            tool_warn("%s is still locked by a repository that does not serve yet (or by another "
                      "`ccnr import`) after %d s: see that process's log",
                      set->dir, READY_WAIT_MS / 1000);
            return -2;
        }
        if (!said) {
            tool_warn("waiting for the repository starting on %s", set->dir);
            said = 1;
        }
        poll(NULL, 0, READY_POLL_MS);
    }
}

int ccnr_import_main(const struct ccnr_settings *set, const char *file)
{
    struct stat st;
    int e = stat(file, &st) != 0 ? errno : 0;
    if (e != 0 || !S_ISREG(st.st_mode)) {
        tool_warn("cannot import %s: %s", file, e != 0 ? strerror(e) : "not a regular file");
        return TOOL_EXIT_FAILURE;
    }
    long holder = 0;
    int fd = lock_or_wait_ready(set, &holder);
    if (fd == -2) {
        return TOOL_EXIT_FAILURE;
    }
    if (fd < 0) {
        return import_through_ccnr(set, file, holder);
    }
    int rc = import_here(set, file);
    close(fd);
    return rc;
}
