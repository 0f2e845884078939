/* A small producer: publishes one message under a name, signed with the
 * user's key (~/.ccnx/.ccnx_keystore, made on first use), and serves it
 * until a consumer has fetched all of it.
 *
 *   hello_producer ccnx:/example/hello "Hello, world"
 *
 * Built against the installed library: see README.md in this folder. */
#include <ccnx/client.h>
#include <ccnx/error.h>
#include <ccnx/name.h>
#include <ccnx/seqwriter.h>
#include <ccnx/uri.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hello_producer URI MESSAGE\n");
        return 2;
    }
    struct ccnx_name name;
    ccnx_name_init(&name);
    if (ccnx_uri_parse_str(&name, argv[1]) != 0) {
        fprintf(stderr, "hello_producer: %s is not a ccnx: URI\n", argv[1]);
        return 2;
    }

    /* Connect to the local ccnd (started with ccndstart). */
    struct ccnx_client *client;
    if (ccnx_client_open(&client) != 0) {
        fprintf(stderr, "hello_producer: %s\n",
                client != NULL ? ccnx_client_error(client) : "out of memory");
        return 1;
    }

    /* A seqwriter names the message URI/<version>/<segment>, signs it and
     * answers the Interests ccnd sends for it. */
    struct ccnx_seqwriter_opts opts;
    ccnx_seqwriter_opts_init(&opts);
    opts.keep_all = 1;
    struct ccnx_seqwriter *writer;
    int rc = ccnx_seqwriter_create(client, &name, &opts, &writer);
    if (rc == 0) {
        rc = ccnx_client_wait_registered(client, ccnx_seqwriter_filter_id(writer), 5000);
    }
    if (rc != 0) {
        fprintf(stderr, "hello_producer: cannot publish: %s\n", ccnx_strerror(rc));
        ccnx_client_destroy(client);
        return 1;
    }
    long taken = ccnx_seqwriter_write(writer, argv[2], strlen(argv[2]));
    if (taken < 0 || ccnx_seqwriter_close(writer) != 0) {
        fprintf(stderr, "hello_producer: cannot sign the message\n");
        return 1;
    }
    printf("serving %s\n", argv[1]);
    fflush(stdout);

    /* Run the client's loop until every segment was sent once. */
    while (!ccnx_seqwriter_all_sent(writer)) {
        if (ccnx_client_run(client, 1000) < 0) {
            fprintf(stderr, "hello_producer: lost ccnd: %s\n", ccnx_client_error(client));
            return 1;
        }
    }
    ccnx_client_run(client, 100); /* let the last answer leave */
    ccnx_seqwriter_destroy(writer);
    ccnx_client_destroy(client);
    ccnx_name_free(&name);
    return 0;
}
