/* Verifying what arrives against a trust policy: signatures checked with
 * the key each object names, keys fetched by name once, publishers pinned.
 * Asynchronous checks are driven by the client's loop (see <ccnx/fetch.h>). */
#ifndef CCNX_VERIFIER_H
#define CCNX_VERIFIER_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/content.h>
#include <ccnx/key.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* ---- Verification ----
 *
 * By default an object must verify with the key its KeyLocator names: a Key
 * or Certificate carried in the locator (its digest must equal the object's
 * PublisherPublicKeyDigest), or a KeyName, in which case the key object is
 * fetched by name once and kept by publisher digest (its content is the DER
 * public key, whose digest must equal the object's publisher digest).
 * Pinning restricts the publishers accepted; verification can be turned off.
 * Merkle-batched objects (Witness) cost one RSA operation per batch: a
 * verified (root, signature, key) triple is remembered. */
struct ccnx_verifier;

/* Allocates a verifier. c (may be NULL: then KeyName keys cannot be
 * fetched) is used to fetch keys by name; the verifier does not own it. */
int ccnx_verifier_create(struct ccnx_client *c, struct ccnx_verifier **out);
/* Cancels key fetches in progress (their objects are dropped silently). */
void ccnx_verifier_destroy(struct ccnx_verifier *v);
/* on = 0: every object is accepted unchecked (an explicit choice). */
void ccnx_verifier_set_enabled(struct ccnx_verifier *v, int on);
int ccnx_verifier_enabled(const struct ccnx_verifier *v);
/* Accepts only objects whose publisher digest is one of the pinned ones
 * (once any is pinned). digest is CCNX_DIGEST_LEN bytes. */
int ccnx_verifier_pin(struct ccnx_verifier *v, const uint8_t *digest);
/* Pins a digest given as 64 hex digits (':' separators allowed);
 * CCNX_E_VALUE otherwise. */
int ccnx_verifier_pin_hex(struct ccnx_verifier *v, const char *text);
/* Trusts a key already at hand (copied) as if fetched by name. */
int ccnx_verifier_add_key(struct ccnx_verifier *v, const struct ccnx_key *k);
/* Time allowed to fetch a key by name (default 4000 ms). */
void ccnx_verifier_set_key_timeout(struct ccnx_verifier *v, int ms);

/* Verification result for obj (the caller's bytes, or the verifier's copy
 * when the result comes later): 0 accepted, else a CCNX_E_* code with a
 * sentence such as "signature of ccnx:/a/b does not verify with key
 * 1a2b3c4d..." or "key ccnx:/k not found": CCNX_E_BADSIG, CCNX_E_NOKEY
 * (no usable key: none named, a wrong digest, a pin refused) or
 * CCNX_E_KEYNOTFOUND (the named key could not be fetched). */
typedef void (*ccnx_verify_fn)(void *arg, int result, const char *error, const uint8_t *obj,
                               size_t len, const struct ccnx_content_parsed *pc);

/* Checks obj[0..len) (parsed as *pc). When the key is at hand the result is
 * immediate: fn (may be NULL then) is called before this returns and the
 * return value is the result. When a key must be fetched the object is
 * copied, 1 is returned and fn is called later from the client loop. */
int ccnx_verifier_check(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                        const struct ccnx_content_parsed *pc, ccnx_verify_fn fn, void *arg);
/* 1 when code says an object came and verification refused it (the three
 * codes above), 0 for anything else: a timeout, a lost connection. */
int ccnx_verify_refused(int code);
/* Forgets the checks waiting for a key whose arg is `arg` (no callback). */
void ccnx_verifier_cancel(struct ccnx_verifier *v, void *arg);
/* The same, running the client loop while a key is fetched; the reason of
 * a refusal goes to err (may be NULL). Not from inside a callback of the
 * client (a content or timeout handler): the loop does not run nested
 * there, and a key to fetch would never arrive; use ccnx_verifier_check. */
int ccnx_verifier_check_sync(struct ccnx_verifier *v, const uint8_t *obj, size_t len,
                             const struct ccnx_content_parsed *pc, struct ccnx_buf *err);

struct ccnx_verifier_stats {
    uint64_t verified;     /* objects accepted after checking */
    uint64_t rsa_ops;      /* signature operations actually performed */
    uint64_t keys_fetched; /* keys fetched by name */
};
const struct ccnx_verifier_stats *ccnx_verifier_stats(const struct ccnx_verifier *v);

CCNX_API_END

#endif
