#include "tool.h"

#include <ccnx/dtag.h>
#include <ccnx/error.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *progname = "ccnx";

void tool_init(const char *argv0)
{
    if (argv0 != NULL && argv0[0] != '\0') {
        const char *slash = strrchr(argv0, '/');
        progname = slash != NULL ? slash + 1 : argv0;
    }
}

const char *tool_name(void)
{
    return progname;
}

__attribute__((format(printf, 1, 0))) static void vwarn(const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", progname);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void tool_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

void tool_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
    exit(TOOL_EXIT_FAILURE);
}

void tool_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try '%s --help'.\n", progname);
    exit(TOOL_EXIT_USAGE);
}

int tool_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void tool_help_first(int argc, char **argv, void (*usage)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            exit(0);
        }
    }
    opterr = 0;
}

void tool_load_dict(struct ccnx_dtag_dict **dict, const char *path)
{
    if (*dict == NULL && (*dict = ccnx_dtag_dict_create()) == NULL) {
        tool_die("out of memory");
    }
    int bad_line = 0;
    int res = ccnx_dtag_dict_load(*dict, path, &bad_line);
    if (res == CCNX_E_IO) {
        tool_usage_error("cannot read dictionary %s: %s", path, strerror(errno));
    }
    if (res != 0) {
        tool_usage_error("dictionary %s, line %d: expected \"number,Name\" (%s)", path, bad_line,
                         ccnx_strerror(res));
    }
}

void tool_bad_option(int ch, char **argv)
{
    if (ch == ':') {
        tool_usage_error("option -%c needs an argument", optopt);
    }
    if (optopt != 0) {
        tool_usage_error("unknown option -%c", optopt);
    }
    tool_usage_error("unknown option %s", argv[optind - 1]);
}

int tool_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || end == s || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

long tool_number(const char *s, const char *what, long lo, long hi)
{
    long v = 0;
    if (tool_parse_long(s, lo, hi, &v) != 0) {
        tool_usage_error("%s must be a number from %ld to %ld, not '%s'", what, lo, hi, s);
    }
    return v;
}

/* A program installed beside this one, else found on PATH. */
void tool_sibling(const char *name, char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            int len2 = snprintf(out, n, "%s/%s", self, name);
            if (len2 > 0 && (size_t)len2 < n && access(out, X_OK) == 0) {
                return;
            }
        }
    }
    snprintf(out, n, "%s", name);
}
