/* Building signed ContentObjects (one at a time or as a Merkle-signed
 * batch) and verifying them (ContentObject.txt, SignatureGeneration.txt).
 *
 * The encoding follows the reference byte for byte: SignedInfo holds
 * PublisherPublicKeyDigest, Timestamp, Type (omitted for DATA),
 * FreshnessSeconds, FinalBlockID, KeyLocator and ExtOpt in that order; the
 * signature covers the bytes from the start of Name to the end of Content.
 */
#ifndef CCNX_CONTENT_SIGN_H
#define CCNX_CONTENT_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/content.h>
#include <ccnx/key.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* ---- Building ---- */

struct ccnx_content_params {
    const uint8_t *name; /* encoded Name element (required) */
    size_t name_len;
    uint32_t type;                 /* enum ccnx_content_type; DATA is not encoded */
    int64_t freshness;             /* FreshnessSeconds, -1 to omit */
    const uint8_t *final_block_id; /* FinalBlockID value; NULL to omit */
    size_t final_block_id_len;
    /* Timestamp: when timestamp_value is not NULL its bytes are written as
     * they are (re-encoding), else `timestamp` (1/4096 s since the epoch,
     * see <ccnx/naming.h>) is used, and a negative `timestamp` means "now". */
    const uint8_t *timestamp_value;
    size_t timestamp_value_len;
    int64_t timestamp;
    /* KeyLocator. KEY: key_locator_value is DER SubjectPublicKeyInfo, NULL
     * meaning the signing key's public half. CERTIFICATE: the certificate
     * bytes. KEYNAME: the encoded Name element of the key, optionally with
     * key_name_publisher (a 32-byte PublisherPublicKeyDigest). NONE: omitted. */
    enum ccnx_key_locator_kind key_locator;
    const uint8_t *key_locator_value;
    size_t key_locator_value_len;
    const uint8_t *key_name_publisher;
    size_t key_name_publisher_len;
    const uint8_t *ext_opt; /* ExtOpt value; NULL or length 0 to omit */
    size_t ext_opt_len;
    const uint8_t *content; /* Content value (may be NULL when content_len is 0) */
    size_t content_len;
};

/* Defaults: DATA, no FreshnessSeconds, no FinalBlockID, time now, the
 * signer's key in KeyLocator/Key (as the reference tools do), no ExtOpt,
 * empty content. */
void ccnx_content_params_init(struct ccnx_content_params *p);

/* Appends one ContentObject signed with `key` (which must hold a private
 * key: CCNX_E_NOKEY otherwise) to out. */
int ccnx_content_sign(struct ccnx_buf *out, const struct ccnx_content_params *p,
                      const struct ccnx_key *key);

/* Appends n ContentObjects signed together with one RSA operation over the
 * root of a Merkle hash tree; each object carries its Witness. offsets, when
 * not NULL, holds n + 1 entries and gets where each object starts in out and
 * (last) where the batch ends. A batch of one is signed individually (no
 * Witness), as the reference does. */
int ccnx_content_sign_batch(struct ccnx_buf *out, const struct ccnx_content_params *p, size_t n,
                            const struct ccnx_key *key, size_t *offsets);

/* ---- Verifying ---- */

/* Verifies the signature of a parsed ContentObject (pc from
 * ccnx_content_parse over buf[0..len)) with `key`, with or without a
 * Witness. 0 when it verifies; CCNX_E_BADSIG when it does not;
 * CCNX_E_UNSUPPORTED for a digest algorithm or Witness kind we do not
 * know; CCNX_E_VALUE for a malformed Witness; CCNX_E_NOKEY when key is NULL. */
int ccnx_content_verify(const uint8_t *buf, size_t len, const struct ccnx_content_parsed *pc,
                        const struct ccnx_key *key);

/* The key a ContentObject carries in its KeyLocator (a Key, or the public
 * key of a Certificate), returned only when its digest equals the object's
 * PublisherPublicKeyDigest. Allocates *out. CCNX_E_NOKEY when the locator
 * carries no key or a key of someone else; CCNX_E_VALUE when the key bytes
 * are malformed. */
int ccnx_content_locator_key(const uint8_t *buf, const struct ccnx_content_parsed *pc,
                             struct ccnx_key **out);

CCNX_API_END

#endif
