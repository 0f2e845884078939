/* ccn_ccnbtoxml: print ccnb (binary XML) files as XML text. */
#include <ccnx/buf.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>
#include <ccnx/xml.h>

#include "tool.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    printf("Usage: %s [-b] [-v] [-x] [-i] [-s pat] [-d dict]... file...\n"
           "Print ccnb (CCNx binary XML) files as XML text on standard output.\n"
           "\n"
           "  -b          binary BLOBs only: never ccnbencoding=\"text\", no base64 line breaks\n"
           "  -x          show binary BLOBs as hexBinary instead of base64Binary\n"
           "  -v          verbose: after binary name components, a comment with their URI form\n"
           "  -i, --indent  readable layout: one element per line, indented by depth\n"
           "  -s pat      write each top-level element to its own file pat00000.xml,\n"
           "              pat00001.xml, ... instead of standard output\n"
           "  -d dict     extra DTAG names from a csv file (\"number,Name\" lines); repeatable\n"
           "  -h, --help  show this help\n"
           "\n"
           "A file named - is standard input. Exit status: 0 success, 1 unreadable or\n"
           "malformed input, 2 usage error.\n",
           tool_name());
}

struct options {
    unsigned flags;
    const char *split;
    struct ccnx_dtag_dict *dict;
};

/* Where -s output goes: numbering continues across input files. */
struct splitter {
    const char *pattern;
    unsigned next;
    int failed;
};

static int write_all(FILE *f, const void *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

static int write_split_file(void *arg, struct ccnx_buf *out)
{
    struct splitter *s = arg;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s%05u.xml", s->pattern, s->next);
    if (n < 0 || (size_t)n >= sizeof path) {
        tool_warn("output name from pattern '%s' is too long", s->pattern);
        s->failed = 1;
        return CCNX_E_INVAL;
    }
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        tool_warn("cannot create %s: %s (check that its folder exists and is writable)", path,
                  strerror(errno));
        s->failed = 1;
        return CCNX_E_IO;
    }
    /* Each piece is a document of its own, so ccn_xmltoccnb takes it alone. */
    static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    int bad = write_all(f, decl, sizeof decl - 1) | write_all(f, out->data, out->len);
    if (fclose(f) != 0 || bad) {
        tool_warn("cannot write %s: %s", path, strerror(errno));
        s->failed = 1;
        return CCNX_E_IO;
    }
    s->next++;
    ccnx_buf_reset(out);
    return 0;
}

static void report_oddities(const char *path, const struct ccnx_xml_report *rep)
{
    if (rep->unknown_dtags > 0) {
        tool_warn(
            "%s: %zu element(s) with DTAG numbers missing from the dictionary (first: %" PRIu64
            ") shown as UNKNOWN_DTAG; name them with -d dict",
            path, rep->unknown_dtags, rep->first_unknown_dtag);
    }
    if (rep->untagged_blobs > 0) {
        tool_warn("%s: %zu BLOB(s) not first in their element shown as base64 without "
                  "ccnbencoding; this XML will not convert back to the same bytes",
                  path, rep->untagged_blobs);
    }
}

/* Returns 0, or 1 when the file could not be read or converted. */
static int convert_file(const char *path, const struct options *o, struct splitter *split)
{
    const char *label = strcmp(path, "-") == 0 ? "standard input" : path;
    struct ccnx_buf in = CCNX_BUF_INIT, out = CCNX_BUF_INIT;
    int failed = 0;
    if (ccnx_buf_read_file(&in, path) != 0) {
        tool_warn("cannot read %s: %s", label, strerror(errno));
        ccnx_buf_free(&in);
        return 1;
    }
    struct ccnx_xml_opts xo = {o->flags, o->dict, NULL, NULL};
    if (split != NULL) {
        xo.flags |= CCNX_XML_NO_DECLARATION;
        xo.element_done = write_split_file;
        xo.arg = split;
    }
    struct ccnx_xml_report rep;
    int res = ccnx_xml_from_ccnb(&out, in.data, in.len, &xo, &rep);
    if (split == NULL) {
        /* Like the reference, show what was converted before any error. */
        if (write_all(stdout, out.data, out.len) != 0 || fflush(stdout) != 0) {
            tool_warn("cannot write standard output: %s", strerror(errno));
            failed = 1;
        }
    } else if (res == 0 && out.len > 0) {
        res = write_split_file(split, &out); /* top-level data after the last element */
    }
    if (res != 0 && !(split != NULL && split->failed)) {
        tool_warn("%s: not valid ccnb at byte %zu of %zu: %s", label, rep.err_off, in.len,
                  ccnx_strerror(res));
    }
    report_oddities(label, &rep);
    ccnx_buf_free(&in);
    ccnx_buf_free(&out);
    return failed || res != 0;
}

static void parse_args(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"indent", no_argument, NULL, 'i'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":bvxis:d:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'b':
            o->flags |= CCNX_XML_FORCE_BINARY;
            break;
        case 'v':
            o->flags |= CCNX_XML_VERBOSE;
            break;
        case 'x':
            o->flags |= CCNX_XML_PREFER_HEX;
            break;
        case 'i':
            o->flags |= CCNX_XML_INDENT;
            break;
        case 's':
            if (optarg[0] == '\0') {
                tool_usage_error("-s needs a non-empty file name pattern");
            }
            o->split = optarg;
            break;
        case 'd':
            tool_load_dict(&o->dict, optarg);
            break;
        case 'h':
            usage();
            exit(0);
        default:
            tool_bad_option(ch, argv);
        }
    }
    if (optind >= argc) {
        tool_usage_error("no input file given (use - to read standard input)");
    }
}

int main(int argc, char **argv)
{
    struct options o = {0, NULL, NULL};
    tool_init(argv[0]);
    parse_args(argc, argv, &o);
    struct splitter split = {o.split, 0, 0};
    int failed = 0;
    for (int i = optind; i < argc; i++) {
        failed |= convert_file(argv[i], &o, o.split != NULL ? &split : NULL);
    }
    ccnx_dtag_dict_destroy(o.dict);
    return failed ? TOOL_EXIT_FAILURE : 0;
}
