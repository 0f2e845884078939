/* The options ccncat and ccngetfile share: the reference's ccncat options
 * (-a allow stale, -p pipeline, -s scope, -u unversioned) plus -c chunks
 * (ccnsendchunks' naming), -t timeout, -v verbose and verification (-V
 * off, -P pinned publisher digest). */
#ifndef CCNX_TOOL_FETCH_OPTS_H
#define CCNX_TOOL_FETCH_OPTS_H

#include <stddef.h>

#include <ccnx/verifier.h>
#include <ccnx/fetch.h>

#define FETCH_OPTS_LETTERS "acp:s:t:uP:Vv" /* for the getopt string */

struct fetch_opts {
    struct ccnx_fetch_params p;
    const char **pins; /* -P arguments, checked while parsing */
    size_t npins;
    int verify, verbose;
    struct ccnx_verifier *check; /* validates -P while parsing */
};

void fetch_opts_init(struct fetch_opts *o, int argc);
/* 1 when ch is one of the shared options (now applied), 0 when it is not;
 * a bad value is a usage error. */
int fetch_opts_take(struct fetch_opts *o, int ch, const char *arg);
/* A verifier for c as the options say, or exit when out of memory. */
struct ccnx_verifier *fetch_opts_verifier(const struct fetch_opts *o, struct ccnx_client *c);
void fetch_opts_free(struct fetch_opts *o);

#endif
