#include "tool.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
