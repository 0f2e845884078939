/* ccninitkeystore: create the user's CCNx keystore (a new RSA key and its
 * self-signed certificate in .ccnx/.ccnx_keystore). */
#include <ccnx/error.h>
#include <ccnx/key.h>
#include <ccnx/keystore.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

#define DEFAULT_VALIDITY_DAYS 30

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [-f] [-u USERNAME] [-l KEYLENGTH] [-v DAYS] [-p PASSWORD] [DIRECTORY]\n"
            "Create the CCNx user keystore: a new RSA key and a self-signed certificate\n"
            "in DIRECTORY/.ccnx/.ccnx_keystore, or without DIRECTORY in $CCNX_DIR/.ccnx_keystore\n"
            "when CCNX_DIR is set, else in $HOME/.ccnx/.ccnx_keystore.\n"
            "Prints the publisher key digest (SHA-256 of the public key) in hex.\n"
            "\n"
            "  -f           replace an existing keystore\n"
            "  -u USERNAME  certificate subject (default: the user name of the effective uid)\n"
            "  -l KEYLENGTH RSA key length in bits, at least 512 (default %d)\n"
            "  -v DAYS      days the certificate stays valid (default %d)\n"
            "  -p PASSWORD  keystore password (default: $CCNX_KEYSTORE_PASSWORD, else the\n"
            "               password every CCNx program uses)\n"
            "  -h, --help   show this help\n",
            tool_name(), CCNX_KEY_DEFAULT_BITS, DEFAULT_VALIDITY_DAYS);
}

/* DIRECTORY/.ccnx/.ccnx_keystore, making DIRECTORY/.ccnx if needed. */
static void path_in(const char *dir, struct ccnx_buf *path)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        tool_die("%s: %s", dir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        tool_die("%s: not a directory; give the directory that holds (or will hold) .ccnx", dir);
    }
    ccnx_buf_printf(path, "%s/.ccnx/%s", dir, CCNX_KEYSTORE_FILENAME);
}

/* Fills opt and *password from the options; returns the index of the first operand. */
static int parse_options(int argc, char **argv, struct ccnx_keystore_options *opt,
                         const char **password)
{
    int c;
    opterr = 0; /* we word the messages ourselves */
    while ((c = getopt(argc, argv, "fu:l:v:p:")) != -1) {
        switch (c) {
        case 'f':
            opt->overwrite = 1;
            break;
        case 'u':
            opt->subject = optarg;
            break;
        case 'l':
            opt->bits = (unsigned)tool_number(optarg, "-l", 512, 16384);
            break;
        case 'v':
            opt->validity_days = (int)tool_number(optarg, "-v", 1, 365000);
            break;
        case 'p':
            *password = optarg;
            break;
        default:
            if (optopt != 0 && strchr("ulvp", optopt) != NULL) {
                tool_usage_error("-%c needs a value", optopt);
            }
            tool_usage_error("unknown option '-%c'", optopt);
        }
    }
    if (argc - optind > 1) {
        tool_usage_error("give at most one DIRECTORY");
    }
    return optind;
}

int main(int argc, char **argv)
{
    tool_init(argv[0]);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (tool_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
    }
    struct ccnx_keystore_options opt = {0, DEFAULT_VALIDITY_DAYS, NULL, 0};
    const char *password = NULL;
    int first = parse_options(argc, argv, &opt, &password);
    struct ccnx_buf path = CCNX_BUF_INIT;
    if (first < argc) {
        path_in(argv[first], &path);
    } else if (ccnx_keystore_default_path(&path) != 0) {
        tool_die("neither CCNX_DIR nor HOME is set; give a DIRECTORY");
    }
    const char *file = ccnx_buf_cstr(&path);
    if (file == NULL) {
        tool_die("out of memory");
    }
    struct ccnx_keystore *ks = NULL;
    int rc = ccnx_keystore_create(file, password, &opt, &ks);
    if (rc == CCNX_E_IO && errno == EEXIST) {
        tool_die("%s already exists; use -f to replace it", file);
    }
    if (rc == CCNX_E_IO) {
        tool_die("cannot write %s: %s", file, strerror(errno));
    }
    if (rc != 0) {
        tool_die("cannot create %s: %s", file, ccnx_strerror(rc));
    }
    const uint8_t *d = ccnx_keystore_digest(ks);
    for (size_t i = 0; i < CCNX_SHA256_LEN; i++) {
        printf("%02x", d[i]);
    }
    printf("\n");
    fprintf(stderr, "%s: created %s\n", tool_name(), file);
    ccnx_keystore_destroy(ks);
    ccnx_buf_free(&path);
    return fflush(stdout) == 0 ? 0 : TOOL_EXIT_FAILURE;
}
