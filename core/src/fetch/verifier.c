/* The verifier: a key cache by publisher digest, key fetches by name, pins,
 * and Merkle batches checked through verifier_merkle.c (one RSA operation
 * and about one SHA-256 of the object per segment). */
#include "verifier_internal.h"

#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/interest.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>
#include <ccnx/key.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KEY_TIMEOUT_MS 4000

struct vkey {
    uint8_t digest[CCNX_DIGEST_LEN];
    struct ccnx_key *key;
    uint8_t *locator; /* Key/Certificate bytes it came from; NULL when fetched or added */
    size_t locator_len;
    struct vkey *next;
};

struct waiter {
    uint8_t *obj;
    size_t len;
    ccnx_verify_fn fn;
    void *arg;
    struct waiter *next;
};

/* A key being fetched by name, with the objects that wait for it. */
struct keyfetch {
    struct ccnx_verifier *v;
    uint8_t digest[CCNX_DIGEST_LEN];
    struct ccnx_buf uri;
    uint64_t id;
    struct waiter *waiters;
    struct keyfetch *next;
};

struct ccnx_verifier {
    struct ccnx_client *c;
    int enabled;
    int key_timeout_ms;
    struct vkey *keys;
    uint8_t (*pins)[CCNX_DIGEST_LEN];
    size_t npins;
    struct merkle_cache *merkle; /* Witness-signed objects, by batch */
    struct keyfetch *fetches;
    struct ccnx_buf err;
    struct ccnx_verifier_stats stats;
};

int ccnx_verifier_create(struct ccnx_client *c, struct ccnx_verifier **out)
{
    struct ccnx_verifier *v = calloc(1, sizeof *v);
    if (v == NULL) {
        return CCNX_E_NOMEM;
    }
    v->c = c;
    v->enabled = 1;
    v->key_timeout_ms = KEY_TIMEOUT_MS;
    ccnx_buf_init(&v->err);
    if (merkle_cache_create(&v->merkle) != 0) {
        free(v);
        return CCNX_E_NOMEM;
    }
    *out = v;
    return 0;
}

static void free_waiters(struct waiter *w)
{
    while (w != NULL) {
        struct waiter *next = w->next;
        free(w->obj);
        free(w);
        w = next;
    }
}

void ccnx_verifier_destroy(struct ccnx_verifier *v)
{
    if (v == NULL) {
        return;
    }
    while (v->fetches != NULL) {
        struct keyfetch *kf = v->fetches;
        v->fetches = kf->next;
        ccnx_client_cancel(v->c, kf->id);
        free_waiters(kf->waiters);
        ccnx_buf_free(&kf->uri);
        free(kf);
    }
    while (v->keys != NULL) {
        struct vkey *k = v->keys;
        v->keys = k->next;
        ccnx_key_destroy(k->key);
        free(k->locator);
        free(k);
    }
    free(v->pins);
    ccnx_buf_free(&v->err);
    merkle_cache_free(v->merkle);
    free(v);
}

void ccnx_verifier_set_enabled(struct ccnx_verifier *v, int on)
{
    v->enabled = on != 0;
}

int ccnx_verifier_enabled(const struct ccnx_verifier *v)
{
    return v != NULL && v->enabled;
}

void ccnx_verifier_set_key_timeout(struct ccnx_verifier *v, int ms)
{
    v->key_timeout_ms = ms > 0 ? ms : KEY_TIMEOUT_MS;
}

const struct ccnx_verifier_stats *ccnx_verifier_stats(const struct ccnx_verifier *v)
{
    return &v->stats;
}

int ccnx_verifier_pin(struct ccnx_verifier *v, const uint8_t *digest)
{
    uint8_t(*pins)[CCNX_DIGEST_LEN] = realloc(v->pins, (v->npins + 1) * sizeof *pins);
    if (pins == NULL) {
        return CCNX_E_NOMEM;
    }
    memcpy(pins[v->npins++], digest, CCNX_DIGEST_LEN);
    v->pins = pins;
    return 0;
}

int ccnx_verifier_pin_hex(struct ccnx_verifier *v, const char *text)
{
    uint8_t d[CCNX_DIGEST_LEN];
    size_t n = 0;
    int half = -1;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == ':') {
            continue;
        }
        if (!isxdigit((unsigned char)*p) || n == sizeof d) {
            return CCNX_E_VALUE;
        }
        int x = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
        if (half < 0) {
            half = x;
        } else {
            d[n++] = (uint8_t)(half << 4 | x);
            half = -1;
        }
    }
    if (n != sizeof d || half >= 0) {
        return CCNX_E_VALUE;
    }
    return ccnx_verifier_pin(v, d);
}

static struct vkey *find_key(const struct ccnx_verifier *v, const uint8_t *digest)
{
    for (struct vkey *k = v->keys; k != NULL; k = k->next) {
        if (memcmp(k->digest, digest, CCNX_DIGEST_LEN) == 0) {
            return k;
        }
    }
    return NULL;
}

/* Takes ownership of key; locator (may be NULL) is copied. */
static struct vkey *cache_key(struct ccnx_verifier *v, struct ccnx_key *key, const uint8_t *locator,
                              size_t locator_len)
{
    struct vkey *k = calloc(1, sizeof *k);
    if (k != NULL && locator != NULL && locator_len > 0) {
        k->locator = malloc(locator_len);
        if (k->locator == NULL) {
            free(k);
            k = NULL;
        } else {
            memcpy(k->locator, locator, locator_len);
            k->locator_len = locator_len;
        }
    }
    if (k == NULL) {
        ccnx_key_destroy(key);
        return NULL;
    }
    memcpy(k->digest, ccnx_key_digest(key), CCNX_DIGEST_LEN);
    k->key = key;
    k->next = v->keys;
    v->keys = k;
    return k;
}

int ccnx_verifier_add_key(struct ccnx_verifier *v, const struct ccnx_key *key)
{
    size_t n;
    const uint8_t *der = ccnx_key_der(key, &n);
    struct ccnx_key *copy = NULL;
    int rc = ccnx_key_from_der(der, n, &copy);
    if (rc != 0) {
        return rc;
    }
    return cache_key(v, copy, NULL, 0) != NULL ? 0 : CCNX_E_NOMEM;
}

/* ---- Messages ---- */

static void append_hex8(struct ccnx_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n && i < 8; i++) {
        ccnx_buf_printf(b, "%02x", p[i]);
    }
    if (n > 8) {
        ccnx_buf_append_str(b, "...");
    }
}

static const char *say(struct ccnx_verifier *v, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc, int rc)
{
    struct ccnx_buf *b = &v->err;
    const uint8_t *pub = obj + pc->publisher.off;
    ccnx_buf_reset(b);
    if (rc == CCNX_E_BADSIG) {
        ccnx_buf_append_str(b, "signature of ");
        ccnx_uri_append(b, obj + pc->name.off, pc->name.len);
        ccnx_buf_append_str(b, " does not verify with key ");
        append_hex8(b, pub, pc->publisher.len);
    } else if (rc == CCNX_E_NOKEY) {
        ccnx_buf_append_str(b, "no key for ");
        ccnx_uri_append(b, obj + pc->name.off, pc->name.len);
        ccnx_buf_append_str(b, ": its KeyLocator carries no key of its publisher ");
        append_hex8(b, pub, pc->publisher.len);
    } else if (rc == CCNX_E_UNSUPPORTED) {
        ccnx_uri_append(b, obj + pc->name.off, pc->name.len);
        ccnx_buf_append_str(b, ": signature algorithm not supported");
    } else {
        ccnx_uri_append(b, obj + pc->name.off, pc->name.len);
        ccnx_buf_printf(b, ": %s", ccnx_strerror(rc));
    }
    return ccnx_buf_cstr(b) != NULL ? (const char *)b->data : "out of memory";
}

static int pinned(const struct ccnx_verifier *v, const uint8_t *obj,
                  const struct ccnx_content_parsed *pc)
{
    if (v->npins == 0) {
        return 1;
    }
    for (size_t i = 0; pc->publisher.len == CCNX_DIGEST_LEN && i < v->npins; i++) {
        if (memcmp(v->pins[i], obj + pc->publisher.off, CCNX_DIGEST_LEN) == 0) {
            return 1;
        }
    }
    return 0;
}

static int verify_with(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                       const struct ccnx_content_parsed *pc, const struct ccnx_key *key)
{
    if (pc->witness.len > 0 && pc->digest_algorithm.len == 0 && pc->signature_bits.len > 0 &&
        pc->signature_bits.len <= MERKLE_SIG_MAX) {
        return merkle_cache_verify(v->merkle, obj, pc, key, &v->stats.rsa_ops);
    }
    v->stats.rsa_ops++;
    return ccnx_content_verify(obj, len, pc, key);
}

/* ---- Checking one object with the keys at hand ---- */

/* The key named by a carried Key or Certificate: the cached one when the
 * bytes are the same as last time (no parse), else parsed and cached. */
static int carried_key(struct ccnx_verifier *v, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc, const struct ccnx_key **out)
{
    const uint8_t *loc = obj + pc->key_locator_value.off;
    size_t n = pc->key_locator_value.len;
    struct vkey *k =
        pc->publisher.len == CCNX_DIGEST_LEN ? find_key(v, obj + pc->publisher.off) : NULL;
    if (k != NULL && k->locator_len == n && memcmp(k->locator, loc, n) == 0) {
        *out = k->key;
        return 0;
    }
    struct ccnx_key *key = NULL;
    int rc = ccnx_content_locator_key(obj, pc, &key);
    if (rc != 0) {
        return rc == CCNX_E_VALUE ? CCNX_E_NOKEY : rc;
    }
    k = cache_key(v, key, loc, n);
    if (k == NULL) {
        return CCNX_E_NOMEM;
    }
    *out = k->key;
    return 0;
}

/* 0 verified, 1 a key must be fetched, else the reason code. */
static int check_now(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                     const struct ccnx_content_parsed *pc)
{
    const struct ccnx_key *key = NULL;
    int rc;
    if (pc->key_locator_kind == CCNX_KEYLOC_KEY ||
        pc->key_locator_kind == CCNX_KEYLOC_CERTIFICATE) {
        rc = carried_key(v, obj, pc, &key);
    } else {
        struct vkey *k =
            pc->publisher.len == CCNX_DIGEST_LEN ? find_key(v, obj + pc->publisher.off) : NULL;
        if (k == NULL) {
            /* a key is looked for by name only for a publisher digest of the
             * right size: it is what the fetched key must match */
            return pc->key_locator_kind == CCNX_KEYLOC_KEYNAME &&
                           pc->publisher.len == CCNX_DIGEST_LEN && pc->key_name.len > 0
                       ? 1
                       : CCNX_E_NOKEY;
        }
        key = k->key;
        rc = 0;
    }
    if (rc == 0) {
        rc = verify_with(v, obj, len, pc, key);
    }
    if (rc == 0) {
        v->stats.verified++;
    }
    return rc;
}

static int pin_refusal(struct ccnx_verifier *v, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg)
{
    ccnx_buf_reset(&v->err);
    ccnx_buf_append_str(&v->err, "publisher ");
    append_hex8(&v->err, obj + pc->publisher.off, pc->publisher.len);
    ccnx_buf_append_str(&v->err, " of ");
    ccnx_uri_append(&v->err, obj + pc->name.off, pc->name.len);
    ccnx_buf_append_str(&v->err, " is not a pinned publisher");
    if (fn != NULL) {
        fn(arg, CCNX_E_NOKEY, ccnx_buf_cstr(&v->err), obj, pc->object.len, pc);
    }
    return CCNX_E_NOKEY;
}

static int start_key_fetch(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg);

int ccnx_verifier_check(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg)
{
    if (v == NULL || !v->enabled) {
        if (fn != NULL) {
            fn(arg, 0, "", obj, len, pc);
        }
        return 0;
    }
    if (!pinned(v, obj, pc)) {
        return pin_refusal(v, obj, pc, fn, arg);
    }
    int rc = check_now(v, obj, len, pc);
    if (rc == 1) {
        rc = start_key_fetch(v, obj, len, pc, fn, arg);
        if (rc == 1) {
            return 1;
        }
    }
    if (fn != NULL) {
        const char *why = rc == 0                    ? ""
                          : rc == CCNX_E_KEYNOTFOUND ? ccnx_buf_cstr(&v->err)
                                                     : say(v, obj, pc, rc);
        fn(arg, rc, why != NULL ? why : "out of memory", obj, len, pc);
    }
    return rc;
}

/* ---- Keys fetched by name ---- */

static void keyfetch_unlink(struct keyfetch *kf)
{
    struct keyfetch **pp = &kf->v->fetches;
    while (*pp != kf) {
        pp = &(*pp)->next;
    }
    *pp = kf->next;
}

/* Every waiting object is checked again now that the key is cached (or
 * refused with the fetch's reason when it is not). */
static void keyfetch_finish(struct keyfetch *kf, int failed)
{
    struct ccnx_verifier *v = kf->v;
    keyfetch_unlink(kf);
    struct waiter *w = kf->waiters;
    while (w != NULL) {
        struct ccnx_content_parsed pc;
        int rc = ccnx_content_parse(w->obj, w->len, &pc);
        if (rc == 0 && failed) {
            ccnx_buf_reset(&v->err);
            ccnx_buf_printf(&v->err, "key %s not found (needed to verify ",
                            ccnx_buf_cstr(&kf->uri) ? (const char *)kf->uri.data : "?");
            ccnx_uri_append(&v->err, w->obj + pc.name.off, pc.name.len);
            ccnx_buf_append_str(&v->err, ")");
            w->fn(w->arg, CCNX_E_KEYNOTFOUND, ccnx_buf_cstr(&v->err), w->obj, w->len, &pc);
        } else if (rc == 0) {
            rc = check_now(v, w->obj, w->len, &pc);
            rc = rc == 1 ? CCNX_E_NOKEY : rc;
            w->fn(w->arg, rc, rc == 0 ? "" : say(v, w->obj, &pc, rc), w->obj, w->len, &pc);
        } else {
            w->fn(w->arg, rc, "object does not parse", w->obj, w->len, NULL);
        }
        struct waiter *next = w->next;
        free(w->obj);
        free(w);
        w = next;
    }
    ccnx_buf_free(&kf->uri);
    free(kf);
}

static void key_arrived(void *arg, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc)
{
    (void)len;
    struct keyfetch *kf = arg;
    struct ccnx_key *key = NULL;
    int rc = ccnx_key_from_der(obj + pc->content_value.off, pc->content_value.len, &key);
    if (rc == 0 && memcmp(ccnx_key_digest(key), kf->digest, CCNX_DIGEST_LEN) != 0) {
        ccnx_key_destroy(key);
        rc = CCNX_E_NOKEY;
    }
    if (rc == 0 && cache_key(kf->v, key, NULL, 0) != NULL) {
        kf->v->stats.keys_fetched++;
        keyfetch_finish(kf, 0);
    } else {
        keyfetch_finish(kf, 1);
    }
}

static void key_timeout(void *arg)
{
    keyfetch_finish(arg, 1);
}

static int add_waiter(struct keyfetch *kf, const uint8_t *obj, size_t len, ccnx_verify_fn fn,
                      void *arg)
{
    struct waiter *w = calloc(1, sizeof *w);
    if (w == NULL || (w->obj = malloc(len)) == NULL) {
        free(w);
        return CCNX_E_NOMEM;
    }
    memcpy(w->obj, obj, len);
    w->len = len;
    w->fn = fn;
    w->arg = arg;
    w->next = kf->waiters;
    kf->waiters = w;
    return 1;
}

static int express_key(struct ccnx_verifier *v, struct keyfetch *kf, const uint8_t *obj,
                       const struct ccnx_content_parsed *pc)
{
    struct ccnx_interest_params ip;
    ccnx_interest_params_init(&ip);
    ip.name = obj + pc->key_name.off;
    ip.name_len = pc->key_name.len;
    if (pc->key_name_publisher.len == CCNX_DIGEST_LEN) {
        ip.publisher = obj + pc->key_name_publisher.off;
        ip.publisher_len = pc->key_name_publisher.len;
    }
    struct ccnx_buf msg = CCNX_BUF_INIT;
    int rc = ccnx_interest_build(&msg, &ip);
    struct ccnx_express_opts o = {key_arrived,       key_timeout, kf,
                                  v->key_timeout_ms, 0,           CCNX_REEXPRESS_MS};
    if (rc == 0) {
        rc = ccnx_client_express(v->c, msg.data, msg.len, &o, &kf->id);
    }
    ccnx_buf_free(&msg);
    return rc;
}

/* Joins the fetch of the same key when one is under way. */
static int start_key_fetch(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                           const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg)
{
    const uint8_t *digest = obj + pc->publisher.off;
    for (struct keyfetch *kf = v->fetches; kf != NULL; kf = kf->next) {
        if (memcmp(kf->digest, digest, CCNX_DIGEST_LEN) == 0) {
            return fn != NULL ? add_waiter(kf, obj, len, fn, arg) : CCNX_E_INVAL;
        }
    }
    ccnx_buf_reset(&v->err);
    ccnx_buf_append_str(&v->err, "key ");
    ccnx_uri_append(&v->err, obj + pc->key_name.off, pc->key_name.len);
    if (v->c == NULL || fn == NULL) {
        ccnx_buf_append_str(&v->err, " not found (no connection to fetch it with)");
        return CCNX_E_KEYNOTFOUND;
    }
    struct keyfetch *kf = calloc(1, sizeof *kf);
    if (kf == NULL) {
        return CCNX_E_NOMEM;
    }
    kf->v = v;
    memcpy(kf->digest, digest, CCNX_DIGEST_LEN);
    ccnx_buf_init(&kf->uri);
    ccnx_uri_append(&kf->uri, obj + pc->key_name.off, pc->key_name.len);
    int rc = add_waiter(kf, obj, len, fn, arg);
    if (rc == 1) {
        kf->next = v->fetches;
        v->fetches = kf;
        rc = express_key(v, kf, obj, pc);
        if (rc != 0) {
            keyfetch_unlink(kf);
        }
    }
    if (rc != 1 && rc != 0) {
        free_waiters(kf->waiters);
        ccnx_buf_free(&kf->uri);
        free(kf);
        return rc;
    }
    return 1;
}

/* ---- Synchronous form ---- */

struct sync_result {
    int done;
    int rc;
    struct ccnx_buf *err;
};

static void sync_done(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                      const struct ccnx_content_parsed *pc)
{
    (void)obj;
    (void)len;
    (void)pc;
    struct sync_result *s = arg;
    s->done = 1;
    s->rc = result;
    if (s->err != NULL && result != 0) {
        ccnx_buf_reset(s->err);
        ccnx_buf_append_str(s->err, error);
    }
}

int ccnx_verifier_check_sync(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                             const struct ccnx_content_parsed *pc, struct ccnx_buf *err)
{
    struct sync_result s = {0, 0, err};
    int rc = ccnx_verifier_check(v, obj, len, pc, sync_done, &s);
    if (rc != 1) {
        return rc;
    }
    int64_t end = ccnx_client_now_ms() + v->key_timeout_ms + 1000;
    while (!s.done && ccnx_client_now_ms() < end) {
        if (ccnx_client_run(v->c, 20) < 0) {
            break;
        }
    }
    if (!s.done) {
        ccnx_verifier_cancel(v, &s);
        return CCNX_E_KEYNOTFOUND;
    }
    return s.rc;
}

int ccnx_verify_refused(int code)
{
    return code == CCNX_E_BADSIG || code == CCNX_E_NOKEY || code == CCNX_E_KEYNOTFOUND;
}

void ccnx_verifier_cancel(struct ccnx_verifier *v, void *arg)
{
    for (struct keyfetch *kf = v != NULL ? v->fetches : NULL; kf != NULL; kf = kf->next) {
        struct waiter **pp = &kf->waiters;
        while (*pp != NULL) {
            struct waiter *w = *pp;
            if (w->arg == arg) {
                *pp = w->next;
                free(w->obj);
                free(w);
            } else {
                pp = &w->next;
            }
        }
    }
}
