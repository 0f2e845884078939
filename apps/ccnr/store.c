/* The repository store (see store.h): two LMDB databases in one
 * environment, "objects" (flat full name -> encoded object) and "meta" (the
 * format tag and the byte counter, so the counts survive a restart without
 * a scan: the object count is LMDB's own entry count). */
#include "store.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/match.h>
#include <ccnx/namekey.h>

#include <lmdb.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

#define FORMAT_KEY   "format"
#define FORMAT_VALUE "ccnr-store 1"
#define BYTES_KEY    "bytes"

/* One object the lookup walk has seen: the walk names its choice by the
 * value's address, and the copy needs the length too. */
struct seen {
    const uint8_t *p;
    size_t n;
};

struct ccnr_store {
    MDB_env *env;
    MDB_dbi objects_db, meta;
    size_t maxkey;
    MDB_txn *wtxn; /* the open batch, or NULL */
    int wfailed;   /* the error that spoilt the open batch, or 0 */
    uint64_t batch_objects, batch_bytes;
    MDB_txn *rtxn;           /* kept between reads (reset), so a read costs no allocation */
    int rdepth;              /* nested reads: a children() callback may read too */
    uint64_t objects, bytes; /* committed */
    struct ccnr_store_stats st;
    struct ccnx_buf key;  /* scratch key for add and has */
    struct ccnx_buf skey; /* scratch key for the lookup walk's seeks */
    struct ccnx_buf seen; /* struct seen records of the lookup walk */
};

/* ---- Errors ---- */

static int map_error(int rc)
{
    switch (rc) {
    case MDB_MAP_FULL:
    case MDB_TXN_FULL: /* a batch too large for one transaction: the same remedy */
        return CCNR_STORE_E_FULL;
    case ENOSPC: /* a page write or the file's growth met a full disk */
    case EDQUOT:
        return CCNR_STORE_E_DISK;
    case ENOMEM:
        return CCNX_E_NOMEM;
    default:
        return CCNX_E_IO;
    }
}

static const char *describe(int rc)
{
    switch (rc) {
    case MDB_INVALID:
    case MDB_VERSION_MISMATCH:
    case MDB_INCOMPATIBLE:
        return "it holds data of a different format";
    case MDB_MAP_FULL:
        return "the capacity is too small to hold even an empty store";
    default:
        return mdb_strerror(rc); /* errno values become strerror's text */
    }
}

static void set_err(char *err, size_t errlen, const char *path, const char *why)
{
    if (err != NULL && errlen > 0) {
        snprintf(err, errlen, "cannot open the repository store in %s: %s", path, why);
    }
}

/* ---- Opening ---- */

static int get_u64(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t *out)
{
    MDB_val k = {strlen(name), (void *)name}, v;
    int rc = mdb_get(txn, dbi, &k, &v);
    if (rc != 0) {
        return rc;
    }
    if (v.mv_size != 8) {
        return MDB_INCOMPATIBLE;
    }
    const uint8_t *p = v.mv_data;
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) {
        x = x << 8 | p[i];
    }
    *out = x;
    return 0;
}

static int put_u64(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t x)
{
    uint8_t p[8];
    for (int i = 7; i >= 0; i--, x >>= 8) {
        p[i] = (uint8_t)x;
    }
    MDB_val k = {strlen(name), (void *)name}, v = {sizeof p, p};
    return mdb_put(txn, dbi, &k, &v, 0);
}

/* Opens both databases and checks (or, in a new store, writes) the format
 * tag and the byte counter. An LMDB code. */
static int setup(struct ccnr_store *s)
{
    MDB_txn *txn;
    int rc = mdb_txn_begin(s->env, NULL, 0, &txn);
    if (rc != 0) {
        return rc;
    }
    MDB_stat st;
    MDB_val k = {strlen(FORMAT_KEY), FORMAT_KEY}, v;
    if ((rc = mdb_dbi_open(txn, "objects", MDB_CREATE, &s->objects_db)) != 0 ||
        (rc = mdb_dbi_open(txn, "meta", MDB_CREATE, &s->meta)) != 0 ||
        (rc = mdb_stat(txn, s->objects_db, &st)) != 0) {
        goto out;
    }
    rc = mdb_get(txn, s->meta, &k, &v);
    if (rc == MDB_NOTFOUND && st.ms_entries == 0) {
        v = (MDB_val){strlen(FORMAT_VALUE), FORMAT_VALUE};
        if ((rc = mdb_put(txn, s->meta, &k, &v, 0)) != 0 ||
            (rc = put_u64(txn, s->meta, BYTES_KEY, 0)) != 0) {
            goto out;
        }
    } else if (rc == MDB_NOTFOUND ||
               (rc == 0 && (v.mv_size != strlen(FORMAT_VALUE) ||
                            memcmp(v.mv_data, FORMAT_VALUE, v.mv_size) != 0))) {
        rc = MDB_INCOMPATIBLE;
    }
    if (rc != 0 || (rc = get_u64(txn, s->meta, BYTES_KEY, &s->bytes)) != 0) {
        goto out;
    }
    s->objects = st.ms_entries;
    return mdb_txn_commit(txn);
out:
    mdb_txn_abort(txn);
    return rc;
}

/* The map size: max_bytes rounded up to whole OS pages, as LMDB wants. */
static size_t map_size(uint64_t max_bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    uint64_t pg = page > 0 ? (uint64_t)page : 4096;
    if (max_bytes == 0) {
        max_bytes = CCNR_STORE_DEFAULT_BYTES;
    }
    if (max_bytes > SIZE_MAX - pg) {
        max_bytes = SIZE_MAX - pg;
    }
    return (size_t)((max_bytes + pg - 1) / pg * pg);
}

struct ccnr_store *ccnr_store_open(const char *dir, uint64_t max_bytes, char *err, size_t errlen)
{
    char path[4096];
    if (dir == NULL || snprintf(path, sizeof path, "%s/store", dir) >= (int)sizeof path) {
        set_err(err, errlen, dir != NULL ? dir : "(null)", "the path is too long");
        return NULL;
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        set_err(err, errlen, path, strerror(errno));
        return NULL;
    }
    struct ccnr_store *s = calloc(1, sizeof *s);
    if (s == NULL) {
        set_err(err, errlen, path, strerror(ENOMEM));
        return NULL;
    }
    ccnx_buf_init(&s->key);
    ccnx_buf_init(&s->skey);
    ccnx_buf_init(&s->seen);
    int rc = mdb_env_create(&s->env);
    if (rc == 0) {
        int dead;
        /* NOTLS: the lookups' read transaction lives beside an open batch. */
        if ((rc = mdb_env_set_maxdbs(s->env, 2)) != 0 ||
            (rc = mdb_env_set_mapsize(s->env, map_size(max_bytes))) != 0 ||
            (rc = mdb_env_open(s->env, path, MDB_NOTLS, 0666)) != 0 ||
            (rc = mdb_reader_check(s->env, &dead)) != 0 || (rc = setup(s)) != 0) {
            mdb_env_close(s->env);
            s->env = NULL;
        }
    }
    if (rc != 0) {
        set_err(err, errlen, path, describe(rc));
        free(s);
        return NULL;
    }
    int mk = mdb_env_get_maxkeysize(s->env);
    s->maxkey = mk > 0 && mk < CCNR_STORE_KEY_MAX ? (size_t)mk : CCNR_STORE_KEY_MAX;
    return s;
}

void ccnr_store_close(struct ccnr_store *s)
{
    if (s == NULL) {
        return;
    }
    ccnr_store_abort(s);
    if (s->rtxn != NULL) {
        mdb_txn_abort(s->rtxn);
    }
    mdb_env_close(s->env);
    ccnx_buf_free(&s->key);
    ccnx_buf_free(&s->skey);
    ccnx_buf_free(&s->seen);
    free(s);
}

/* ---- Keys ---- */

/* The flat full name of (name, digest) in s->key; its length, or a
 * negative error (CCNX_E_INVAL for a malformed Name). */
static ssize_t full_key(struct ccnr_store *s, const uint8_t *name, size_t name_len,
                        const uint8_t digest[32])
{
    ccnx_buf_reset(&s->key);
    uint8_t *p = ccnx_buf_reserve(&s->key, name_len + CCNX_NAMEKEY_DIGEST_LEN);
    size_t len;
    if (p == NULL) {
        return CCNX_E_NOMEM;
    }
    if (ccnx_namekey_from_name(name, name_len, p, &len, NULL) != 0) {
        return CCNX_E_INVAL;
    }
    return (ssize_t)(len + ccnx_namekey_put_comp(p + len, digest, 32));
}

/* Turns key[0..len) into the smallest byte string greater than every
 * string that starts with it; its length, 0 when there is none. */
static size_t prefix_successor(uint8_t *key, size_t len)
{
    while (len > 0 && key[len - 1] == 0xFF) {
        len--;
    }
    if (len > 0) {
        key[len - 1]++;
    }
    return len;
}

/* ---- Batches ---- */

int ccnr_store_begin(struct ccnr_store *s)
{
    if (s == NULL || s->wtxn != NULL) {
        return CCNX_E_INVAL;
    }
    int rc = mdb_txn_begin(s->env, NULL, 0, &s->wtxn);
    if (rc != 0) {
        s->wtxn = NULL;
        return map_error(rc);
    }
    s->wfailed = 0;
    s->batch_objects = s->batch_bytes = 0;
    return 0;
}

int ccnr_store_add(struct ccnr_store *s, const uint8_t *obj, size_t len)
{
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    if (s != NULL && obj != NULL &&
        (ccnx_content_parse(obj, len, &pc) != 0 || ccnx_content_digest(obj, len, digest) != 0)) {
        s->st.refused++;
        return CCNX_E_INVAL;
    }
    return ccnr_store_add_parsed(s, obj, len, &pc, digest);
}

int ccnr_store_add_parsed(struct ccnr_store *s, const uint8_t *obj, size_t len,
                          const struct ccnx_content_parsed *pc, const uint8_t digest[32])
{
    if (s == NULL || s->wtxn == NULL || obj == NULL || pc == NULL || digest == NULL) {
        return CCNX_E_INVAL;
    }
    if (s->wfailed != 0) {
        return s->wfailed;
    }
    ssize_t klen = full_key(s, obj + pc->name.off, pc->name.len, digest);
    if (klen < 0 || (size_t)klen > s->maxkey) {
        s->st.refused++;
        return klen < 0 ? (int)klen : CCNR_STORE_E_NAME;
    }
    MDB_val k = {(size_t)klen, s->key.data}, v = {len, (void *)obj};
    int rc = mdb_put(s->wtxn, s->objects_db, &k, &v, MDB_NOOVERWRITE);
    if (rc == MDB_KEYEXIST) {
        s->st.duplicates++;
        return CCNR_STORE_DUPLICATE;
    }
    if (rc != 0) {
        /* LMDB leaves a transaction unusable after a failed write. */
        s->wfailed = map_error(rc);
        s->st.refused++;
        return s->wfailed;
    }
    s->batch_objects++;
    s->batch_bytes += len;
    return CCNR_STORE_ADDED;
}

/* LMDB reports a short page write as EIO, and a full disk ends a write
 * short: an I/O error with (almost) no room left is a full disk. */
static int commit_error(struct ccnr_store *s, int rc)
{
    const char *path;
    struct statvfs fs;
    if (rc == EIO && mdb_env_get_path(s->env, &path) == 0 && statvfs(path, &fs) == 0 &&
        (uint64_t)fs.f_bavail * fs.f_frsize < s->batch_bytes + ((uint64_t)1 << 20)) {
        return CCNR_STORE_E_DISK;
    }
    return map_error(rc);
}

int ccnr_store_commit(struct ccnr_store *s)
{
    if (s == NULL || s->wtxn == NULL) {
        return CCNX_E_INVAL;
    }
    int rc = s->wfailed;
    if (rc != 0) {
        ccnr_store_abort(s);
        return rc;
    }
    rc = put_u64(s->wtxn, s->meta, BYTES_KEY, s->bytes + s->batch_bytes);
    if (rc != 0) {
        ccnr_store_abort(s);
        return map_error(rc);
    }
    rc = mdb_txn_commit(s->wtxn); /* frees the transaction, committed or not */
    s->wtxn = NULL;
    if (rc != 0) {
        return commit_error(s, rc);
    }
    s->objects += s->batch_objects;
    s->bytes += s->batch_bytes;
    s->st.added += s->batch_objects;
    return 0;
}

void ccnr_store_abort(struct ccnr_store *s)
{
    if (s != NULL && s->wtxn != NULL) {
        mdb_txn_abort(s->wtxn);
        s->wtxn = NULL;
        s->wfailed = 0;
    }
}

/* ---- Reads ---- */

static int read_begin(struct ccnr_store *s)
{
    if (s->rdepth > 0) {
        s->rdepth++;
        return 0;
    }
    int rc = s->rtxn != NULL ? mdb_txn_renew(s->rtxn)
                             : mdb_txn_begin(s->env, NULL, MDB_RDONLY, &s->rtxn);
    if (rc != 0) {
        if (s->rtxn != NULL) {
            mdb_txn_abort(s->rtxn);
            s->rtxn = NULL;
        }
        return map_error(rc);
    }
    s->rdepth = 1;
    return 0;
}

/* Ends a read; the snapshot is released so it pins no old pages. */
static void read_end(struct ccnr_store *s)
{
    if (--s->rdepth == 0) {
        mdb_txn_reset(s->rtxn);
    }
}

int ccnr_store_has(struct ccnr_store *s, const uint8_t *name, size_t name_len,
                   const uint8_t digest[32])
{
    if (s == NULL || name == NULL || digest == NULL) {
        return CCNX_E_INVAL;
    }
    ssize_t klen = full_key(s, name, name_len, digest);
    if (klen < 0) {
        return (int)klen;
    }
    if ((size_t)klen > s->maxkey) {
        return 0; /* could never have been added */
    }
    int rc = read_begin(s);
    if (rc != 0) {
        return rc;
    }
    MDB_val k = {(size_t)klen, s->key.data}, v;
    rc = mdb_get(s->rtxn, s->objects_db, &k, &v);
    read_end(s);
    return rc == 0 ? 1 : rc == MDB_NOTFOUND ? 0 : map_error(rc);
}

/* ---- Lookup: the shared pick over an LMDB cursor ---- */

struct walk {
    struct ccnr_store *s;
    MDB_cursor *cur;
    int valid; /* the cursor is on an entry */
    int err;   /* the first error met; the walk then sees an empty store */
    struct ccnx_content_parsed pc;
};

static void walk_get(struct walk *w, MDB_val *k, MDB_cursor_op op)
{
    MDB_val v;
    int rc = mdb_cursor_get(w->cur, k, &v, op);
    w->valid = rc == 0;
    if (rc != 0 && rc != MDB_NOTFOUND && w->err == 0) {
        w->err = map_error(rc);
    }
}

/* Positions on the first entry at or after key[0..len), or after its
 * whole subtree (after_subtree). */
static void walk_position(struct walk *w, uint8_t *key, size_t len, int after_subtree)
{
    MDB_val k;
    if (len > w->s->maxkey) {
        /* No stored key lies under a key this long, and the first stored
         * key after it is the first one after its truncation. */
        k = (MDB_val){w->s->maxkey, key};
        walk_get(w, &k, MDB_SET_RANGE);
        if (w->valid && k.mv_size == w->s->maxkey && memcmp(k.mv_data, key, k.mv_size) == 0) {
            walk_get(w, &k, MDB_NEXT);
        }
        return;
    }
    if (after_subtree && (len = prefix_successor(key, len)) == 0) {
        w->valid = 0; /* the whole key space lies under it */
        return;
    }
    k = (MDB_val){len, key};
    walk_get(w, &k, len == 0 ? MDB_FIRST : MDB_SET_RANGE);
}

static void walk_seek(void *store, const struct ccnx_match_key *mk, int floor)
{
    struct walk *w = store;
    struct ccnx_buf *b = &w->s->skey;
    size_t len;
    ccnx_buf_reset(b);
    uint8_t *key =
        ccnx_buf_reserve(b, mk->len + (mk->has_child ? mk->child_n + CCNX_NAMEKEY_COMP_MAX : 0));
    if (key == NULL || ccnx_namekey_from_name(mk->name, mk->len, key, &len, NULL) != 0) {
        w->valid = 0;
        if (w->err == 0) {
            w->err = key == NULL ? CCNX_E_NOMEM : CCNX_E_INVAL;
        }
        return;
    }
    if (mk->has_child) {
        len += ccnx_namekey_put_comp(key + len, mk->child, mk->child_n);
    }
    walk_position(w, key, len, floor >= 0);
}

static void walk_next(void *store)
{
    struct walk *w = store;
    if (w->valid) {
        MDB_val k;
        walk_get(w, &k, MDB_NEXT);
    }
}

static const void *walk_current(void *store, struct ccnx_match_candidate *out)
{
    struct walk *w = store;
    MDB_val k, v;
    if (!w->valid || mdb_cursor_get(w->cur, &k, &v, MDB_GET_CURRENT) != 0) {
        return NULL;
    }
    if (k.mv_size < CCNX_NAMEKEY_DIGEST_LEN ||
        ccnx_content_parse(v.mv_data, v.mv_size, &w->pc) != 0) {
        w->valid = 0; /* only a damaged file holds such an entry */
        w->err = CCNX_E_IO;
        return NULL;
    }
    struct ccnx_buf *seen = &w->s->seen;
    if (seen->len == 0 ||
        ((const struct seen *)(const void *)(seen->data + seen->len) - 1)->p != v.mv_data) {
        struct seen rec = {v.mv_data, v.mv_size};
        if (ccnx_buf_append(seen, &rec, sizeof rec) != 0) {
            w->valid = 0;
            w->err = CCNX_E_NOMEM;
            return NULL;
        }
    }
    /* A read transaction's values stay mapped until it ends. */
    *out = (struct ccnx_match_candidate){v.mv_data, v.mv_size, &w->pc,
                                         (const uint8_t *)k.mv_data + k.mv_size - 32, 0};
    return v.mv_data;
}

static const struct ccnx_match_cursor_ops walk_ops = {walk_seek, walk_next, walk_current};

/* Hands the chosen object to fn (the walk saw it, so it is in the seen
 * list): 1, or fn's error. */
static int emit_seen(struct ccnr_store *s, const void *chosen, ccnr_store_answer_fn fn, void *arg)
{
    const struct seen *v = (const struct seen *)(const void *)s->seen.data;
    for (size_t i = s->seen.len / sizeof *v; i-- > 0;) {
        if (v[i].p == chosen) {
            int rc = fn(arg, v[i].p, v[i].n);
            return rc == 0 ? 1 : rc;
        }
    }
    return CCNX_E_IO;
}

#define LOOKUP_WALK 2  /* lookup_plain: the Interest needs the walk */
#define EXACT_STEPS 64 /* keys looked at for an exactly named object before the walk takes over */

/* The first object named exactly by the flat name key[0..klen): its key is
 * the name and a digest (CCNX_NAMEKEY_DIGEST_LEN bytes); longer keys
 * starting the same way lie under a 32-byte child and are passed. */
static int first_exact(MDB_cursor *cur, uint8_t *key, size_t klen, MDB_val *k, MDB_val *v)
{
    key[klen] = 32; /* the digest's length byte: the seek starts at the digests */
    *k = (MDB_val){klen + 1, key};
    int rc = mdb_cursor_get(cur, k, v, MDB_SET_RANGE);
    for (int i = 0; rc == 0 && i < EXACT_STEPS; i++) {
        if (k->mv_size <= klen || memcmp(k->mv_data, key, klen + 1) != 0) {
            return MDB_NOTFOUND;
        }
        if (k->mv_size == klen + CCNX_NAMEKEY_DIGEST_LEN) {
            return 0;
        }
        rc = mdb_cursor_get(cur, k, v, MDB_NEXT);
    }
    return rc == 0 ? LOOKUP_WALK : rc;
}

/* Most Interests name what they want and carry at most MaxSuffixComponents
 * 1 (a segment of a file): every object under the name (or named exactly
 * by it) matches, so the answer is the first such key, found without
 * reading and parsing the objects on the way. 1 with the answer handed to
 * fn, 0 for none, LOOKUP_WALK, or a negative error. */
static int lookup_plain(struct ccnr_store *s, const uint8_t *ibuf,
                        const struct ccnx_interest_parsed *pi, ccnr_store_answer_fn fn, void *arg)
{
    int exact = pi->has_max_suffix && pi->max_suffix == 1;
    if ((pi->has_min_suffix && pi->min_suffix > 1) || (pi->has_max_suffix && !exact) ||
        pi->exclude.len != 0 || pi->publisher.len != 0 ||
        (pi->child_selector > 0 && (pi->child_selector & 1) != 0)) {
        return LOOKUP_WALK;
    }
    ccnx_buf_reset(&s->skey);
    uint8_t *key = ccnx_buf_reserve(&s->skey, pi->name.len + 1);
    size_t klen;
    if (key == NULL ||
        ccnx_namekey_from_name(ibuf + pi->name.off, pi->name.len, key, &klen, NULL) != 0 ||
        klen + CCNX_NAMEKEY_DIGEST_LEN > s->maxkey) {
        return LOOKUP_WALK; /* the walk reports these cases its own way */
    }
    MDB_cursor *cur;
    int rc = mdb_cursor_open(s->rtxn, s->objects_db, &cur);
    if (rc != 0) {
        return map_error(rc);
    }
    MDB_val k = {klen, key}, v;
    rc = mdb_cursor_get(cur, &k, &v, klen == 0 ? MDB_FIRST : MDB_SET_RANGE);
    rc = rc == 0 && (k.mv_size < klen || memcmp(k.mv_data, key, klen) != 0) ? MDB_NOTFOUND : rc;
    if (rc == 0 && k.mv_size == klen) {
        /* The Interest names an object with its digest: that object, first
         * under the name, has no suffix at all. */
        rc = pi->has_min_suffix && pi->min_suffix > 0 ? LOOKUP_WALK : 0;
    } else if (rc == 0 && exact) {
        rc = first_exact(cur, key, klen, &k, &v);
    }
    if (rc == 0) {
        rc = fn(arg, v.mv_data, v.mv_size);
        rc = rc == 0 ? 1 : rc;
    } else if (rc != LOOKUP_WALK) {
        rc = rc == MDB_NOTFOUND ? 0 : map_error(rc);
    }
    mdb_cursor_close(cur);
    return rc;
}

int ccnr_store_answer(struct ccnr_store *s, const uint8_t *ibuf,
                      const struct ccnx_interest_parsed *pi, ccnr_store_answer_fn fn, void *arg)
{
    if (s == NULL || ibuf == NULL || pi == NULL || fn == NULL) {
        return CCNX_E_INVAL;
    }
    int rc = read_begin(s);
    if (rc != 0) {
        return rc;
    }
    if ((rc = lookup_plain(s, ibuf, pi, fn, arg)) != LOOKUP_WALK) {
        read_end(s);
        s->st.lookups++;
        s->st.hits += rc == 1;
        return rc;
    }
    struct walk w;
    memset(&w, 0, sizeof w);
    w.s = s;
    if ((rc = mdb_cursor_open(s->rtxn, s->objects_db, &w.cur)) != 0) {
        read_end(s);
        return map_error(rc);
    }
    /* Like the reference repository, answer whatever AnswerOriginKind
     * says: its content-store bit is about caches, and a repository's
     * objects are not stale. */
    struct ccnx_interest_parsed any = *pi;
    any.answer_origin_kind = CCNX_AOK_CS | CCNX_AOK_STALE;
    ccnx_buf_reset(&s->seen);
    const void *chosen = ccnx_match_pick_cursor(&walk_ops, &w, ibuf, &any, CCNX_MATCH_MAX_PROBES);
    rc = w.err != 0 ? w.err : chosen == NULL ? 0 : emit_seen(s, chosen, fn, arg);
    mdb_cursor_close(w.cur);
    read_end(s);
    s->st.lookups++;
    s->st.hits += rc == 1;
    return rc;
}

static int copy_out(void *arg, const uint8_t *obj, size_t len)
{
    struct ccnx_buf *out = arg;
    ccnx_buf_reset(out);
    return ccnx_buf_append(out, obj, len) == 0 ? 0 : CCNX_E_NOMEM;
}

int ccnr_store_lookup(struct ccnr_store *s, const uint8_t *ibuf,
                      const struct ccnx_interest_parsed *pi, struct ccnx_buf *out)
{
    return out == NULL ? CCNX_E_INVAL : ccnr_store_answer(s, ibuf, pi, copy_out, out);
}

/* ---- Children ---- */

/* Reports the next component of each subtree under prefix key
 * key[0..plen); key has room for plen + the longest key's bytes. */
static int walk_children(MDB_cursor *cur, uint8_t *key, size_t plen,
                         int (*fn)(void *arg, const uint8_t *comp, size_t n), void *arg)
{
    MDB_val k = {plen, key}, v;
    int rc = mdb_cursor_get(cur, &k, &v, plen == 0 ? MDB_FIRST : MDB_SET_RANGE);
    while (rc == 0) {
        size_t pos = plen, n;
        if (k.mv_size <= plen || memcmp(k.mv_data, key, plen) != 0) {
            return 0; /* past the prefix's subtree */
        }
        if (ccnx_namekey_next_comp(k.mv_data, k.mv_size, &pos, &n) != 1) {
            return CCNX_E_IO; /* only a damaged file holds such a key */
        }
        memcpy(key + plen, (const uint8_t *)k.mv_data + plen, pos - plen);
        if (fn(arg, (const uint8_t *)k.mv_data + pos - n, n) != 0) {
            return 0;
        }
        size_t slen = prefix_successor(key, pos);
        if (slen <= plen) {
            return 0; /* every later key lies past the prefix's subtree */
        }
        k = (MDB_val){slen, key};
        rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
    }
    return rc == MDB_NOTFOUND ? 0 : map_error(rc);
}

int ccnr_store_children(struct ccnr_store *s, const uint8_t *prefix, size_t prefix_len,
                        int (*fn)(void *arg, const uint8_t *comp, size_t n), void *arg)
{
    if (s == NULL || prefix == NULL || fn == NULL) {
        return CCNX_E_INVAL;
    }
    /* Own buffer: fn may call back into the store. */
    uint8_t *key = malloc(prefix_len + s->maxkey + 1);
    size_t plen;
    if (key == NULL) {
        return CCNX_E_NOMEM;
    }
    int rc = ccnx_namekey_from_name(prefix, prefix_len, key, &plen, NULL) != 0 ? CCNX_E_INVAL : 0;
    if (rc == 0 && plen < s->maxkey && (rc = read_begin(s)) == 0) {
        MDB_cursor *cur;
        rc = mdb_cursor_open(s->rtxn, s->objects_db, &cur);
        if (rc == 0) {
            rc = walk_children(cur, key, plen, fn, arg);
            mdb_cursor_close(cur);
        } else {
            rc = map_error(rc);
        }
        read_end(s);
    }
    free(key);
    return rc;
}

int ccnr_store_walk(struct ccnr_store *s, const uint8_t *prefix, size_t prefix_len,
                    int (*fn)(void *arg, const uint8_t *obj, size_t len), void *arg)
{
    uint8_t *key = malloc(prefix_len + 1);
    size_t plen;
    int rc = key == NULL ? CCNX_E_NOMEM : 0;
    if (rc == 0 && ccnx_namekey_from_name(prefix, prefix_len, key, &plen, NULL) != 0) {
        rc = CCNX_E_INVAL;
    }
    if (rc == 0 && (rc = read_begin(s)) == 0) {
        MDB_cursor *cur;
        int orc = mdb_cursor_open(s->rtxn, s->objects_db, &cur);
        rc = orc == 0 ? 0 : map_error(orc);
        MDB_val k = {plen, key}, v;
        int mrc = rc == 0 ? mdb_cursor_get(cur, &k, &v, plen == 0 ? MDB_FIRST : MDB_SET_RANGE) : 0;
        while (rc == 0 && mrc == 0 && k.mv_size >= plen && memcmp(k.mv_data, key, plen) == 0 &&
               fn(arg, v.mv_data, v.mv_size) == 0) {
            mrc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
        }
        if (rc == 0) {
            rc = mrc == 0 || mrc == MDB_NOTFOUND ? 0 : map_error(mrc);
            mdb_cursor_close(cur);
        }
        read_end(s);
    }
    free(key);
    return rc;
}

/* ---- Stats ---- */

void ccnr_store_get_stats(struct ccnr_store *s, struct ccnr_store_stats *out)
{
    if (s == NULL || out == NULL) {
        return;
    }
    *out = s->st;
    out->objects = s->objects;
    out->bytes = s->bytes;
    MDB_envinfo info;
    MDB_stat st;
    if (mdb_env_info(s->env, &info) == 0 && mdb_env_stat(s->env, &st) == 0) {
        out->map_bytes = info.me_mapsize;
        out->used_bytes = (uint64_t)(info.me_last_pgno + 1) * st.ms_psize;
    }
}

const char *ccnr_store_strerror(int rc)
{
    switch (rc) {
    case CCNR_STORE_E_FULL:
        return "repository full (CCNR_MAX_BYTES)";
    case CCNR_STORE_E_DISK:
        return "repository full: no space left on the disk holding the store";
    case CCNR_STORE_E_NAME:
        return "name too long to be stored";
    default:
        return ccnx_strerror(rc);
    }
}
