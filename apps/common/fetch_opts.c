#include "fetch_opts.h"

#include "tool.h"

#include <stdlib.h>

void fetch_opts_init(struct fetch_opts *o, int argc)
{
    ccnx_fetch_params_init(&o->p);
    o->verify = 1;
    o->verbose = 0;
    o->npins = 0;
    o->check = NULL;
    o->pins = calloc((size_t)argc + 1, sizeof *o->pins);
    if (o->pins == NULL || ccnx_verifier_create(NULL, &o->check) != 0) {
        tool_die("out of memory");
    }
}

int fetch_opts_take(struct fetch_opts *o, int ch, const char *arg)
{
    switch (ch) {
    case 'a':
        o->p.allow_stale = 1;
        return 1;
    case 'c':
        o->p.chunk_names = 1;
        o->p.resolve = 0; /* such streams have no version */
        return 1;
    case 'p':
        o->p.max_window = (unsigned)tool_number(arg, "-p", 1, 4096);
        return 1;
    case 's':
        o->p.scope = (int)tool_number(arg, "-s", 0, 3);
        return 1;
    case 't':
        o->p.timeout_ms = (int)tool_number(arg, "-t", 1, 3600000);
        return 1;
    case 'u':
        o->p.resolve = 0;
        return 1;
    case 'P':
        if (ccnx_verifier_pin_hex(o->check, arg) != 0) {
            tool_usage_error("-P needs a publisher key digest as 64 hex digits, not '%s'", arg);
        }
        o->pins[o->npins++] = arg;
        return 1;
    case 'V':
        o->verify = 0;
        return 1;
    case 'v':
        o->verbose = 1;
        return 1;
    default:
        return 0;
    }
}

struct ccnx_verifier *fetch_opts_verifier(const struct fetch_opts *o, struct ccnx_client *c)
{
    struct ccnx_verifier *v = NULL;
    if (ccnx_verifier_create(c, &v) != 0) {
        tool_die("out of memory");
    }
    ccnx_verifier_set_enabled(v, o->verify);
    for (size_t i = 0; i < o->npins; i++) {
        if (ccnx_verifier_pin_hex(v, o->pins[i]) != 0) {
            tool_die("out of memory");
        }
    }
    return v;
}

void fetch_opts_free(struct fetch_opts *o)
{
    ccnx_verifier_destroy(o->check);
    o->check = NULL;
    free(o->pins);
    o->pins = NULL;
}
