/* The explorer's listing speed, run by bench/ccnexplore.sh:
 *
 *   explore_bench make FILE PREFIX N   N one-segment objects PREFIX/item-NNNNN
 *                                       (Merkle-signed) into FILE, for ccnr import
 *   explore_bench list PREFIX ROWS     discovers PREFIX's children as the screen
 *                                       does; prints the ms until ROWS children
 *                                       are known (a first screenful) and until
 *                                       discovery ends, and the children found */
#include <ccnx/client.h>
#include <ccnx/naming.h>
#include <ccnx/content_sign.h>
#include <ccnx/key.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <stdlib.h>

#include "bench_help.h"
#include "explore_disco.h"
#include "explore_tree.h"

static const char usage[] = "Usage: explore_bench make FILE PREFIX N | list PREFIX ROWS\n"
                            "Makes a repository's load, or times ccnexplore's discovery of\n"
                            "PREFIX's children (first ROWS children, then all).\n";

static int make(const char *file, const char *prefix, long n)
{
    struct ccnx_key *key;
    struct ccnx_buf out = CCNX_BUF_INIT;
    struct ccnx_content_params *p = calloc((size_t)n, sizeof *p);
    struct ccnx_name *names = calloc((size_t)n, sizeof *names);
    uint8_t final[CCNX_NUMERIC_MAX_LEN];
    int flen = ccnx_naming_segment_build(0, final);
    if (p == NULL || names == NULL || ccnx_key_generate(1024, &key) != 0)
        return 1;
    for (long i = 0; i < n; i++) {
        char comp[32];
        snprintf(comp, sizeof comp, "item-%05ld", i);
        ccnx_name_init(&names[i]);
        if (ccnx_uri_parse_str(&names[i], prefix) != 0 || ccnx_name_append_str(&names[i], comp) ||
            ccnx_naming_append_segment(&names[i], 0) != 0)
            return 1;
        ccnx_content_params_init(&p[i]);
        p[i].name = names[i].enc.data;
        p[i].name_len = names[i].enc.len;
        p[i].content = (const uint8_t *)comp;
        p[i].content_len = 10;
        p[i].final_block_id = final;
        p[i].final_block_id_len = (size_t)flen;
    }
    FILE *f = fopen(file, "wb");
    int r = f != NULL ? ccnx_content_sign_batch(&out, p, (size_t)n, key, NULL) : 1;
    r = r == 0 && fwrite(out.data, 1, out.len, f) == out.len ? 0 : 1;
    if (f != NULL)
        r |= fclose(f) != 0;
    return r;
}

static int list(const char *prefix, long rows)
{
    struct ccnx_client *c;
    struct ccnx_name name;
    struct ex_tree t;
    struct ex_disco *d;
    struct ex_disco_opts o;
    struct ex_disco_events ev = {0};
    ex_disco_opts_init(&o);
    ccnx_name_init(&name);
    if (ccnx_client_open(&c) != 0 || ccnx_uri_parse_str(&name, prefix) != 0 ||
        ex_tree_init(&t, &name) != 0 || ex_disco_create(c, &t, &o, &ev, &d) != 0) {
        fprintf(stderr, "explore_bench: cannot start (is ccnd running?)\n");
        return 1;
    }
    int64_t start = ccnx_client_now_ms(), first = -1;
    ex_disco_explore(d, &t.root);
    while (!ex_disco_explored(&t.root)) {
        ccnx_client_run(c, 1);
        if (first < 0 && (long)t.root.nkids >= rows)
            first = ccnx_client_now_ms() - start;
    }
    printf("%lld %lld %zu\n", (long long)first, (long long)(ccnx_client_now_ms() - start),
           t.root.nkids);
    ex_disco_destroy(d);
    ex_tree_free(&t);
    ccnx_name_free(&name);
    ccnx_client_destroy(c);
    return 0;
}

int main(int argc, char **argv)
{
    bench_help(argc, argv, usage);
    if (argc == 5 && strcmp(argv[1], "make") == 0)
        return make(argv[2], argv[3], atol(argv[4]));
    if (argc == 4 && strcmp(argv[1], "list") == 0)
        return list(argv[2], atol(argv[3]));
    fputs(usage, stderr);
    return 2;
}
