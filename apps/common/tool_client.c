#include "tool_client.h"

#include "tool.h"
#include "tool_signal.h"

#include <ccnx/buf.h>
#include <ccnx/error.h>
#include <ccnx/uri.h>

#include <stdlib.h>

struct ccnx_client *tool_client_open(void)
{
    struct ccnx_client *c = NULL;
    if (ccnx_client_open(&c) != 0) {
        if (c == NULL) {
            tool_die("out of memory");
        }
        tool_warn("%s", ccnx_client_error(c));
        ccnx_client_destroy(c);
        exit(TOOL_EXIT_FAILURE);
    }
    return c;
}

void tool_parse_uri(struct ccnx_name *name, const char *uri)
{
    if (ccnx_name_init(name) != 0) {
        tool_die("out of memory");
    }
    if (ccnx_uri_parse_str(name, uri) != 0) {
        tool_usage_error("'%s' is not a ccnx: URI (e.g. ccnx:/example/file)", uri);
    }
}

double tool_seconds(const char *text, char option, double min, double max)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= min && v <= max)) {
        tool_usage_error("-%c wants seconds from %g to %g, not '%s'", option, min, max, text);
    }
    return v;
}

#define CONFIRM_S      20  /* a loaded repository may take seconds to commit a batch */
#define CONFIRM_TRY_MS 250 /* a repository commits a finished write at once */

int tool_confirm_stored(struct ccnx_seqwriter *w, int scope)
{
    struct ccnx_repo_write_opts o;
    ccnx_repo_write_opts_init(&o);
    o.scope = scope;
    int64_t end = ccnx_client_now_ms() + CONFIRM_S * 1000;
    while (!tool_stop_requested && ccnx_client_now_ms() < end) {
        int rc = ccnx_seqwriter_confirm_stored(w, &o, CONFIRM_TRY_MS);
        if (rc == 0) {
            return 1;
        }
        if (rc == CCNX_E_IO) {
            tool_die("lost the connection to ccnd");
        }
        if (rc != CCNX_E_NOTFOUND) {
            tool_warn("cannot ask the repository for the final segment: %s", ccnx_strerror(rc));
            return 0;
        }
    }
    return 0;
}

const char *tool_uri(const uint8_t *enc, size_t len)
{
    static struct ccnx_buf text = CCNX_BUF_INIT;
    ccnx_buf_reset(&text);
    if (ccnx_uri_append(&text, enc, len) != 0) {
        return "(a malformed name)";
    }
    return ccnx_buf_cstr(&text);
}
