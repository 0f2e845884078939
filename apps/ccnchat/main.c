/* ccnchat: talk in a room named by a ccnx: URI, with the reference's chats
 * and our own, over any ccnd. Options and the choice of view. */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ccnx/client.h>

#include "chat_app.h"
#include "tool.h"
#include "ui.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "Usage: ccnchat [options] ccnx:/ROOM\n"
        "Talk with everyone in ROOM, on this host or any host whose ccnd routes ROOM here.\n"
        "Full screen on a terminal; line mode (lines in, \"[nick HH:MM] text\" out)\n"
        "when standard input or output is not a terminal.\n"
        "\n"
        "  -n, --nick NAME        be known as NAME (default: $USER)\n"
        "  -l, --line             line mode even on a terminal\n"
        "  -H, --history N        messages pulled from the room on joining (default %d, 0: none)\n"
        "  -k, --keep N           own messages kept to answer late joiners (default %d)\n"
        "  -D, --drop-unverified  drop messages whose signature fails (default: show them marked)\n"
        "  -x, --freshness SECS   FreshnessSeconds of our messages (default: none)\n"
        "  -F, --flood N[,RATE]   show N messages of a member at once, then RATE a second;\n"
        "                         the rest are hidden and counted (default %g,%g; 0: no limit)\n"
        "  -q, --quiet            no greeting and farewell\n"
        "  -h, --help             this text\n"
        "\n"
        "Commands: /nick NAME, /me ACTION, /who, /help, /quit (Ctrl-C also leaves).\n"
        "The key is the default keystore (~/.ccnx/.ccnx_keystore, made when missing);\n"
        "ccnd is found as every tool finds it (CCN_LOCAL_PORT, CCN_LOCAL_SOCKNAME).\n"
        "See ccnchat(1).\n",
        CHAT_HISTORY_DEFAULT, CHAT_KEEP_DEFAULT, CHAT_FLOOD_BURST, CHAT_FLOOD_RATE);
}

/* --flood N[,RATE]: N a whole number, RATE a decimal one (messages a
 * second); RATE keeps its default when left out. */
static void parse_flood(const char *arg, struct chat_session_opts *o)
{
    char *end;
    double rate = o->flood_rate;
    unsigned long n = strtoul(arg, &end, 10);
    int ok = end != arg && arg[0] != '-' && n <= 100000;
    if (ok && *end == ',') {
        const char *r = end + 1;
        rate = strtod(r, &end);
        ok = end != r && rate >= 0 && rate <= 100000; /* NaN fails too */
    }
    if (!ok || *end != '\0')
        tool_usage_error("--flood takes N or N,RATE, e.g. --flood 20,10 (0: no limit)");
    o->flood_burst = (double)n;
    o->flood_rate = rate;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"nick", required_argument, NULL, 'n'},
        {"line", no_argument, NULL, 'l'},
        {"history", required_argument, NULL, 'H'},
        {"keep", required_argument, NULL, 'k'},
        {"drop-unverified", no_argument, NULL, 'D'},
        {"freshness", required_argument, NULL, 'x'},
        {"quiet", no_argument, NULL, 'q'},
        {"flood", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct chat_session_opts o;
    int line = 0, ch;
    setlocale(LC_ALL, "");
    tool_init(argv[0]);
    chat_session_opts_init(&o);
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":n:lH:k:Dx:qF:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'n':
            o.nick = optarg;
            break;
        case 'l':
            line = 1;
            break;
        case 'H':
            o.history = (size_t)tool_number(optarg, "--history", 0, 100000);
            o.no_history = o.history == 0;
            break;
        case 'k':
            o.keep = (size_t)tool_number(optarg, "--keep", 1, 100000);
            break;
        case 'D':
            o.drop_unverified = 1;
            break;
        case 'x':
            o.freshness = tool_number(optarg, "--freshness", 0, 2147483647);
            break;
        case 'q':
            o.quiet = 1;
            break;
        case 'F':
            parse_flood(optarg, &o);
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind != argc - 1)
        tool_usage_error(optind == argc ? "which room? e.g. ccnchat ccnx:/testroom1"
                                        : "one room at a time");
    o.room = argv[optind];
    if (!line && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
        line = 1;

    struct ccnx_client *c;
    if (ccnx_client_open(&c) < 0) {
        fprintf(stderr, "ccnchat: %s\n", c != NULL ? ccnx_client_error(c) : "out of memory");
        ccnx_client_destroy(c);
        return 1;
    }
    chat_app_signals();
    int rc = line ? chat_ui_line(c, &o) : chat_ui_curses(c, &o);
    ccnx_client_destroy(c);
    return rc;
}
