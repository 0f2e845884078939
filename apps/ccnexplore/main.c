/* ccnexplore: browse the CCNx namespace below a prefix as a tree, full
 * screen, or print it with --list. Options and the choice of view. */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <ccnx/client.h>
#include <ccnx/uri.h>

#include "explore_disco.h"
#include "explore_list.h"
#include "explore_tree.h"
#include "explore_ui.h"
#include "tool.h"
#include "tool_client.h"

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: ccnexplore [options] [ccnx:/PREFIX]\n"
            "Browse the names below PREFIX (default ccnx:/) as a tree: what repositories\n"
            "list, what the local cache holds and what producers answer, with details,\n"
            "signature checks, preview, fetch, put and play.\n"
            "\n"
            "  -l, --list          print the tree as text and exit (no screen)\n"
            "  -d, --depth N       levels --list explores (default 1)\n"
            "  -w, --wait MS       how long an unanswered round waits (default %d)\n"
            "  -r, --rounds N      Exclude-walk rounds per name at most (default %d)\n"
            "  -n, --no-verify     do not check signatures\n"
            "  -m, --mouse         use the mouse (click selects, double click opens)\n"
            "  -h, --help          this text\n"
            "\n"
            "Keys on the screen are shown in its bottom line; F1 or ? lists them all.\n"
            "ccnd is found as every tool finds it (CCN_LOCAL_PORT, CCN_LOCAL_SOCKNAME).\n"
            "See ccnexplore(1).\n",
            EX_WAIT_MS_DEFAULT, EX_WALK_ROUNDS_DEFAULT);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"list", no_argument, NULL, 'l'},       {"depth", required_argument, NULL, 'd'},
        {"wait", required_argument, NULL, 'w'}, {"rounds", required_argument, NULL, 'r'},
        {"no-verify", no_argument, NULL, 'n'},  {"mouse", no_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
    };
    struct ex_disco_opts o;
    int list = 0, depth = 1, mouse = 0, ch;
    setlocale(LC_ALL, "");
    tool_init(argv[0]);
    ex_disco_opts_init(&o);
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ld:w:r:nmh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'l':
            list = 1;
            break;
        case 'd':
            depth = (int)tool_number(optarg, "--depth", 1, 64);
            break;
        case 'w':
            o.wait_ms = (int)tool_number(optarg, "--wait", 10, 600000);
            break;
        case 'r':
            o.walk_rounds = (int)tool_number(optarg, "--rounds", 1, 1000000);
            break;
        case 'n':
            o.verify = 0;
            break;
        case 'm':
            mouse = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (argc - optind > 1)
        tool_usage_error("one prefix at a time");
    struct ccnx_name prefix;
    tool_parse_uri(&prefix, optind < argc ? argv[optind] : "ccnx:/");
    if (!list && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
        tool_usage_error("the screen needs a terminal; use --list to print the tree");

    struct ccnx_client *c;
    if (ccnx_client_open(&c) < 0) {
        fprintf(stderr, "ccnexplore: %s\n", c != NULL ? ccnx_client_error(c) : "out of memory");
        ccnx_client_destroy(c);
        return 1;
    }
    struct ex_tree t;
    if (ex_tree_init(&t, &prefix) != 0)
        tool_die("out of memory");
    int rc = list ? ex_list_run(c, &t, &o, depth, stdout) : ex_ui_run(c, &t, &o, mouse);
    ex_tree_free(&t);
    ccnx_name_free(&prefix);
    ccnx_client_destroy(c);
    return rc;
}
