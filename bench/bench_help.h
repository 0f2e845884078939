/* --help for the benchmark programs, which are run by hand: when any
 * argument is -h or --help, the usage goes to standard output and the
 * program exits 0 before doing any work. */
#ifndef BENCH_HELP_H
#define BENCH_HELP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void bench_help(int argc, char **argv, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
    }
}

#endif
