/* ccnverify: check the signatures of the ContentObjects in ccnb files,
 * with the keys the objects carry or the ones given with -k. Fetches nothing. */
#include <ccnx/ccnb.h>
#include <ccnx/content.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/content_sign.h>
#include <ccnx/uri.h>
#include <ccnx/key.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

struct keyring {
    struct ccnx_key **keys;
    size_t count;
};

struct run {
    struct keyring ring;
    int bad; /* some object failed or some input could not be read */
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-k KEY.pem]... [FILE]...\n"
            "Verify the signature of every ContentObject in each FILE (ccnb messages back\n"
            "to back, as captured from a stream or datagrams; '-' or no FILE reads standard\n"
            "input). Interests, SequenceNumber elements and CCNProtocolDataUnit wrappers\n"
            "are handled; nothing is fetched from the network.\n"
            "\n"
            "An object is checked with the key in its KeyLocator when that key's digest is\n"
            "the object's PublisherPublicKeyDigest, else with a -k key of that digest.\n"
            "Prints 'OK <name>' or 'BAD <name>: <reason>' per object.\n"
            "\n"
            "  -k KEY.pem   a public (or private) key in PEM; may be repeated\n"
            "  -h, --help   show this help\n"
            "\n"
            "Exit status: 0 all objects verify, 1 some object is BAD or unreadable, 2 usage.\n",
            tool_name());
}

static void add_key(struct keyring *ring, const char *path)
{
    struct ccnx_key *k = NULL;
    int rc = ccnx_key_load_pem(path, NULL, &k);
    if (rc == CCNX_E_IO) {
        tool_die("cannot read key %s: %s", path, strerror(errno));
    }
    if (rc != 0) {
        tool_die("%s: not a PEM public or unencrypted private key (%s)", path, ccnx_strerror(rc));
    }
    struct ccnx_key **keys = realloc(ring->keys, (ring->count + 1) * sizeof *keys);
    if (keys == NULL) {
        tool_die("out of memory");
    }
    keys[ring->count++] = k;
    ring->keys = keys;
}

static const struct ccnx_key *find_key(const struct keyring *ring, const uint8_t *digest, size_t n)
{
    for (size_t i = 0; n == CCNX_SHA256_LEN && i < ring->count; i++) {
        if (memcmp(ccnx_key_digest(ring->keys[i]), digest, n) == 0) {
            return ring->keys[i];
        }
    }
    return NULL;
}

static void append_hex(struct ccnx_buf *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ccnx_buf_printf(out, "%02x", p[i]);
    }
}

/* Verifies one object; appends the reason to `line` and returns 0 when it verifies. */
static int check_object(struct run *run, const uint8_t *obj, const struct ccnx_content_parsed *pc,
                        struct ccnx_buf *line)
{
    struct ccnx_key *carried = NULL;
    const struct ccnx_key *key = NULL;
    if (ccnx_content_locator_key(obj, pc, &carried) == 0) {
        key = carried;
    } else {
        key = find_key(&run->ring, obj + pc->publisher.off, pc->publisher.len);
    }
    int rc = key != NULL ? ccnx_content_verify(obj, pc->object.len, pc, key) : CCNX_E_NOKEY;
    ccnx_key_destroy(carried);
    if (rc == 0) {
        return 0;
    }
    ccnx_buf_append_str(line, ": ");
    if (rc == CCNX_E_NOKEY) {
        ccnx_buf_append_str(line, "no key for publisher ");
        append_hex(line, obj + pc->publisher.off, pc->publisher.len);
    } else if (rc == CCNX_E_BADSIG) {
        ccnx_buf_append_str(line, "signature does not verify");
    } else if (rc == CCNX_E_UNSUPPORTED) {
        ccnx_buf_append_str(line, "signature algorithm not supported");
    } else if (rc == CCNX_E_VALUE) {
        ccnx_buf_append_str(line, "malformed Witness");
    } else {
        ccnx_buf_append_str(line, ccnx_strerror(rc));
    }
    return rc;
}

static void content_object(struct run *run, const char *file, const uint8_t *obj, size_t len,
                           size_t at)
{
    struct ccnx_content_parsed pc;
    int rc = ccnx_content_parse(obj, len, &pc);
    if (rc != 0) {
        printf("BAD %s: ContentObject at byte %zu does not parse: %s\n", file, at,
               ccnx_strerror(rc));
        run->bad = 1;
        return;
    }
    struct ccnx_buf line = CCNX_BUF_INIT;
    ccnx_uri_append(&line, obj + pc.name.off, pc.name.len);
    rc = check_object(run, obj, &pc, &line);
    if (rc != 0) {
        run->bad = 1;
    }
    const char *text = ccnx_buf_cstr(&line);
    if (text == NULL) {
        tool_die("out of memory");
    }
    printf("%s %s\n", rc == 0 ? "OK" : "BAD", text);
    ccnx_buf_free(&line);
}

/* One top-level element; wrappers are opened, everything else but
 * ContentObjects is skipped. */
static void element(struct run *run, const char *file, const uint8_t *p, size_t len, size_t at)
{
    struct ccnx_ccnb_reader r;
    ccnx_ccnb_reader_init(&r, p, len, 0);
    int64_t dtag = ccnx_ccnb_peek_dtag(&r);
    if (dtag == CCNX_DTAG_ContentObject) {
        content_object(run, file, p, len, at);
        return;
    }
    if (dtag != CCNX_DTAG_CCNProtocolDataUnit) {
        return;
    }
    ccnx_ccnb_enter(&r, CCNX_DTAG_CCNProtocolDataUnit);
    while (r.err == 0 && !ccnx_ccnb_at_closer(&r)) {
        size_t end;
        if (ccnx_ccnb_element_end(p, len, r.pos, &end) != 0) {
            break;
        }
        element(run, file, p + r.pos, end - r.pos, at + r.pos);
        r.pos = end;
    }
}

/* Cuts the file into top-level elements the way a face frames a stream. */
static void verify_file(struct run *run, const char *file)
{
    struct ccnx_buf data = CCNX_BUF_INIT;
    if (ccnx_buf_read_file(&data, file) != 0) {
        tool_warn("cannot read %s: %s", file, strerror(errno));
        run->bad = 1;
        return;
    }
    struct ccnx_skel skel;
    ccnx_skel_init(&skel);
    skel.max_element = data.len > skel.max_element ? data.len : skel.max_element;
    size_t start = 0, pos = 0;
    while (pos < data.len) {
        size_t used = 0;
        int rc = ccnx_skel_feed(&skel, data.data + pos, data.len - pos, &used);
        pos += used;
        if (rc < 0) {
            printf("BAD %s: malformed ccnb in the element at byte %zu: %s\n", file, start,
                   ccnx_strerror(rc));
            run->bad = 1;
            break;
        }
        if (rc == 1) {
            element(run, file, data.data + start, pos - start, start);
            start = pos;
        }
    }
    if (start < pos && pos == data.len && ccnx_skel_idle(&skel) == 0 && skel.err == 0) {
        printf("BAD %s: the element at byte %zu is truncated\n", file, start);
        run->bad = 1;
    }
    ccnx_buf_free(&data);
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    struct run run = {{NULL, 0}, 0};
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-k") == 0) {
            if (++i == argc) {
                tool_usage_error("-k needs a key file (PEM)");
            }
            add_key(&run.ring, argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            tool_usage_error("unknown option '%s'", argv[i]);
        } else {
            nfiles++;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-k") == 0) {
            i++;
        } else {
            verify_file(&run, argv[i]);
        }
    }
    if (nfiles == 0) {
        verify_file(&run, "-");
    }
    for (size_t i = 0; i < run.ring.count; i++) {
        ccnx_key_destroy(run.ring.keys[i]);
    }
    free(run.ring.keys);
    if (fflush(stdout) != 0) {
        return TOOL_EXIT_FAILURE;
    }
    return run.bad ? TOOL_EXIT_FAILURE : 0;
}
