/* ccn_xmltoccnb: encode XML text files as ccnb (binary XML). */
#include <ccnx/buf.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>

#include "tool.h"
#include "xmlenc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void usage(void)
{
    printf("Usage: %s [-w] [-d dict]... file...\n"
           "Encode XML files as ccnb (CCNx binary XML).\n"
           "\n"
           "  -w          drop character data made only of whitespace (indentation)\n"
           "  -d dict     extra DTAG names from a csv file (\"number,Name\" lines); repeatable\n"
           "  -h, --help  show this help\n"
           "\n"
           "Each file NAME.xml is written as NAME.ccnb in the current directory (other\n"
           "names get .ccnb appended). A file named - reads standard input and writes\n"
           "standard output. Exit status: 0 success, 1 unreadable or malformed input,\n"
           "2 usage error.\n",
           tool_name());
}

struct options {
    struct xmlenc_opts enc;
    struct ccnx_dtag_dict *dict;
};

struct warn_ctx {
    const char *label;
};

static void print_warning(void *arg, unsigned long line, unsigned long column, const char *msg)
{
    const struct warn_ctx *w = arg;
    tool_warn("%s:%lu:%lu: warning: %s", w->label, line, column, msg);
}

/* NAME.xml -> NAME.ccnb, in the current directory as the reference tool
 * does; the caller frees the result. */
static char *output_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcasecmp(base + n - 4, ".xml") == 0) {
        n -= 4;
    }
    char *name = malloc(n + sizeof ".ccnb");
    if (name != NULL) {
        memcpy(name, base, n);
        memcpy(name + n, ".ccnb", sizeof ".ccnb");
    }
    return name;
}

static int write_output(const char *path, const struct ccnx_buf *b)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    const char *label = f == stdout ? "standard output" : path;
    if (f == NULL) {
        tool_warn("cannot create %s: %s (check that the current directory is writable)", path,
                  strerror(errno));
        return 1;
    }
    int bad = b->len > 0 && fwrite(b->data, 1, b->len, f) != b->len;
    bad |= f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (bad) {
        tool_warn("cannot write %s: %s", label, strerror(errno));
        if (f != stdout) {
            unlink(path); /* leave no truncated encoding behind */
        }
        return 1;
    }
    return 0;
}

/* Returns 0, or 1 when the file could not be read, parsed or written. */
static int convert_file(const char *path, const struct options *o)
{
    int filter = strcmp(path, "-") == 0;
    const char *label = filter ? "standard input" : path;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    if (ccnx_buf_read_file(&in, path) != 0) {
        tool_warn("cannot read %s: %s", label, strerror(errno));
        ccnx_buf_free(&in);
        return 1;
    }
    struct warn_ctx w = {label};
    struct xmlenc_opts eo = o->enc;
    eo.warn = print_warning;
    eo.warn_arg = &w;
    struct xmlenc_error err;
    int res = xmlenc_convert(&out, (const char *)in.data, in.len, &eo, &err);
    int failed = 0;
    if (res == CCNX_E_XML) {
        tool_warn("%s:%lu:%lu: %s", label, err.line, err.column, err.message);
        failed = 1;
    } else if (res != 0) {
        tool_warn("%s: %s", label, ccnx_strerror(res));
        failed = 1;
    } else {
        char *name = filter ? NULL : output_name(path);
        if (!filter && name == NULL) {
            tool_warn("out of memory");
            failed = 1;
        } else {
            failed = write_output(filter ? "-" : name, &out);
        }
        free(name);
    }
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
    return failed;
}

static void parse_args(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":wd:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'w':
            o->enc.toss_white = 1;
            break;
        case 'd':
            tool_load_dict(&o->dict, optarg);
            o->enc.dict = o->dict;
            break;
        case 'h':
            usage();
            exit(0);
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind >= argc) {
        tool_usage_error("no input file given (use - to filter standard input)");
    }
}

int main(int argc, char **argv)
{
    struct options o;
    memset(&o, 0, sizeof o);
    tool_init(argv[0]);
    parse_args(argc, argv, &o);
    int failed = 0;
    for (int i = optind; i < argc; i++) {
        failed |= convert_file(argv[i], &o);
    }
    ccnx_dtag_dict_destroy(o.dict);
    return failed ? TOOL_EXIT_FAILURE : 0;
}
