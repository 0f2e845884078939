/* A small consumer: fetches the newest version of what is published under
 * a name, checks every segment's signature, and prints it.
 *
 *   hello_consumer ccnx:/example/hello
 *
 * Built against the installed library: see README.md in this folder. */
#include <ccnx/buf.h>
#include <ccnx/client.h>
#include <ccnx/fetch.h>
#include <ccnx/name.h>
#include <ccnx/uri.h>
#include <ccnx/verifier.h>

#include <stdio.h>

static void print_segment(void *arg, uint64_t segment, const uint8_t *p, size_t n)
{
    (void)arg;
    (void)segment;
    fwrite(p, 1, n, stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hello_consumer URI\n");
        return 2;
    }
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, argv[1]) != 0) {
        fprintf(stderr, "hello_consumer: %s is not a ccnx: URI\n", argv[1]);
        return 2;
    }
    struct ccnx_client *client;
    if (ccnx_client_open(&client) != 0) {
        fprintf(stderr, "hello_consumer: %s\n",
                client != NULL ? ccnx_client_error(client) : "out of memory");
        return 1;
    }
    /* The verifier fetches the publisher's key named in each segment. */
    struct ccnx_verifier *verifier;
    if (ccnx_verifier_create(client, &verifier) != 0) {
        fprintf(stderr, "hello_consumer: out of memory\n");
        return 1;
    }

    struct ccnx_fetch_params p;
    ccnx_fetch_params_init(&p); /* finds the newest version first */
    p.name = &name;
    p.verifier = verifier;
    p.on_data = print_segment; /* ccnx_fetch_run returns the end's result */
    struct ccnx_buf error = CCNX_BUF_INIT;
    int rc = ccnx_fetch_run(client, &p, NULL, &error);
    if (rc != 0) {
        fprintf(stderr, "hello_consumer: %s\n", ccnx_buf_cstr(&error));
    } else {
        printf("\n");
    }
    ccnx_buf_free(&error);
    ccnx_verifier_destroy(verifier);
    ccnx_client_destroy(client);
    ccnx_name_free(&name);
    return rc == 0 ? 0 : 1;
}
