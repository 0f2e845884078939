/* Fuzz target for the repository store: the input goes in as an object
 * (a committed batch when it is accepted, which must then be found by its
 * full name), then is used as an Interest to look up and as a prefix whose
 * children are listed. One store, in a temporary folder made on the first
 * call and removed at exit, holds everything the run adds. */
#include "store.h"

#include <ccnx/content.h>
#include <ccnx/error.h>
#include <ccnx/interest.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            abort();                                                                               \
    } while (0)

static char dir[] = "/tmp/st-fuzz-XXXXXX";
static struct ccnr_store *store;

static void cleanup(void)
{
    char path[64];
    ccnr_store_close(store);
    snprintf(path, sizeof path, "%s/store/data.mdb", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/store/lock.mdb", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/store", dir);
    rmdir(path);
    rmdir(dir);
}

static struct ccnr_store *get_store(void)
{
    if (store == NULL) {
        char err[256];
        CHECK(mkdtemp(dir) != NULL);
        store = ccnr_store_open(dir, (uint64_t)64 << 20, err, sizeof err);
        CHECK(store != NULL);
        atexit(cleanup);
    }
    return store;
}

static void add_object(struct ccnr_store *s, const uint8_t *data, size_t size)
{
    CHECK(ccnr_store_begin(s) == 0);
    int r = ccnr_store_add(s, data, size);
    CHECK(r == CCNR_STORE_ADDED || r == CCNR_STORE_DUPLICATE || r == CCNX_E_INVAL ||
          r == CCNR_STORE_E_NAME || r == CCNR_STORE_E_FULL);
    if (r != CCNR_STORE_ADDED) {
        ccnr_store_abort(s);
        return;
    }
    if (ccnr_store_commit(s) != 0) {
        return; /* a full map: the object is not held */
    }
    struct ccnx_content_parsed pc;
    uint8_t digest[32];
    CHECK(ccnx_content_parse(data, size, &pc) == 0);
    CHECK(ccnx_content_digest(data, size, digest) == 0);
    CHECK(ccnr_store_has(s, data + pc.name.off, pc.name.len, digest) == 1);
}

static int count(void *arg, const uint8_t *comp, size_t n)
{
    (void)comp;
    (void)n;
    ++*(size_t *)arg;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnr_store *s = get_store();
    add_object(s, data, size);
    struct ccnx_interest_parsed pi;
    if (ccnx_interest_parse(data, size, &pi) == 0) {
        struct ccnx_buf out = CCNX_BUF_INIT;
        int r = ccnr_store_lookup(s, data, &pi, &out);
        CHECK(r == 0 || r == 1);
        if (r == 1) {
            struct ccnx_content_parsed pc;
            CHECK(ccnx_content_parse(out.data, out.len, &pc) == 0);
        }
        ccnx_buf_free(&out);
        size_t n = 0;
        CHECK(ccnr_store_children(s, data + pi.name.off, pi.name.len, count, &n) == 0);
    }
    size_t n = 0;
    int r = ccnr_store_children(s, data, size, count, &n);
    CHECK(r == 0 || r == CCNX_E_INVAL);
    return 0;
}
