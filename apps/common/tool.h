/* Small helpers shared by the command-line tools: program name, messages
 * that name the cause, and exit codes. */
#ifndef CCNX_TOOL_H
#define CCNX_TOOL_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes: 0 success, 1 a checked failure (bad signature, bad input), 2 usage error. */
#define TOOL_EXIT_FAILURE 1
#define TOOL_EXIT_USAGE   2

/* Sets the program name used in messages (basename of argv[0]). */
void tool_init(const char *argv0);
const char *tool_name(void);
/* "<prog>: <message>\n" on stderr. */
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tool_warn, then exit(TOOL_EXIT_FAILURE). */
void tool_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "<prog>: <message>\nTry '<prog> --help'.\n", then exit(TOOL_EXIT_USAGE). */
void tool_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
struct ccnx_dtag_dict;
/* The -d option: adds the csv dictionary at path to *dict (created on first
 * use); a missing or malformed file is a usage error naming the line. */
void tool_load_dict(struct ccnx_dtag_dict **dict, const char *path);
/* getopt returned ':' or '?' (with opterr = 0 and a leading ':' in the
 * option string): a usage error naming the option. */
void tool_bad_option(int ch, char **argv) __attribute__((noreturn));
/* 1 if argv[i] is "-h" or "--help". */
int tool_is_help(const char *arg);
/* Before getopt (which does not know long options): when any argument is
 * "--help", prints usage on standard output and exits 0. Also sets opterr
 * to 0, as the tools report bad options themselves (tool_bad_option). */
void tool_help_first(int argc, char **argv, void (*usage)(FILE *));
/* A decimal number in [lo, hi] from an option's argument, else a usage
 * error naming the option (`what`, e.g. "-p"). */
long tool_number(const char *s, const char *what, long lo, long hi);
/* The same check for text that is not an option (a command's words): 0
 * with the number in *out, or -1 for the caller to report. */
int tool_parse_long(const char *s, long lo, long hi, long *out);

/* The path of program `name` installed beside this one (the build tree
 * and an installation both keep them together), else `name` for PATH to
 * find. */
void tool_sibling(const char *name, char *out, size_t n);

#endif
