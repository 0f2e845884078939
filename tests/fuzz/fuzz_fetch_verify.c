/* Fuzz target: any bytes as a ContentObject handed to the fetcher's
 * verifier (carried keys, Merkle Witness paths and the verified-root
 * cache, KeyName lookups without a connection), and as a pinned digest in
 * hex. The verifier must answer exactly once and agree with the core's own
 * verification whenever the object carries its key. */
#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/verifier.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct answer {
    int calls;
    int result;
};

static void note(void *arg, int result, const char *error, const uint8_t *obj, size_t len,
                 const struct ccnx_content_parsed *pc)
{
    (void)obj;
    (void)len;
    (void)pc;
    struct answer *a = arg;
    a->calls++;
    a->result = result;
    if (error == NULL || (result != 0 && error[0] == '\0')) {
        abort(); /* a refusal always says why */
    }
}

/* What the core says about an object that carries its key. */
static int core_verdict(const uint8_t *data, size_t size, const struct ccnx_content_parsed *pc)
{
    struct ccnx_key *k = NULL;
    int rc = ccnx_content_locator_key(data, pc, &k);
    if (rc == 0) {
        rc = ccnx_content_verify(data, size, pc, k);
    }
    ccnx_key_destroy(k);
    return rc;
}

static void check_object(const uint8_t *data, size_t size)
{
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(data, size, &pc) != 0) {
        return;
    }
    struct ccnx_verifier *v = NULL;
    if (ccnx_verifier_create(NULL, &v) != 0) {
        return;
    }
    /* twice: the second check goes through the key and root caches */
    for (int round = 0; round < 2; round++) {
        struct answer a = {0, 0};
        int rc = ccnx_verifier_check(v, data, size, &pc, note, &a);
        if (a.calls != 1 || a.result != rc || rc > 0) {
            abort();
        }
        int carried = pc.key_locator_kind == CCNX_KEYLOC_KEY ||
                      pc.key_locator_kind == CCNX_KEYLOC_CERTIFICATE;
        if (carried && (rc == 0) != (core_verdict(data, size, &pc) == 0)) {
            abort();
        }
    }
    ccnx_verifier_set_enabled(v, 0);
    if (ccnx_verifier_check(v, data, size, &pc, NULL, NULL) != 0) {
        abort();
    }
    ccnx_verifier_destroy(v);
}

static void check_pin(const uint8_t *data, size_t size)
{
    char text[160];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    struct ccnx_verifier *v = NULL;
    if (ccnx_verifier_create(NULL, &v) != 0) {
        return;
    }
    int rc = ccnx_verifier_pin_hex(v, text);
    if (rc != 0 && rc != CCNX_E_VALUE && rc != CCNX_E_NOMEM) {
        abort();
    }
    ccnx_verifier_destroy(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_object(data, size);
    check_pin(data, size);
    return 0;
}
