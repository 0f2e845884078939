/* A key per nickname (see chat_identity.h). */
#include "chat_identity.h"

#include <ccnx/error.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* Longest nickname part of a file name, in bytes of the nickname. */
#define NAME_BYTES 64

int chat_identity_path(const char *nick, struct ccnx_buf *out)
{
    struct ccnx_buf dir = CCNX_BUF_INIT;
    int rc = ccnx_keystore_default_path(&dir);
    if (rc != 0) {
        ccnx_buf_free(&dir);
        return rc;
    }
    const char *d = ccnx_buf_cstr(&dir);
    const char *slash = strrchr(d, '/');
    ccnx_buf_append(out, d, slash != NULL ? (size_t)(slash - d) : 0);
    ccnx_buf_append_str(out, slash != NULL ? "/chat/" : "chat/");
    for (size_t i = 0; nick[i] != '\0' && i < NAME_BYTES; i++) {
        unsigned char c = (unsigned char)nick[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || (c == '.' && i > 0)) {
            ccnx_buf_append_byte(out, c);
        } else {
            ccnx_buf_printf(out, "%%%02X", c);
        }
    }
    ccnx_buf_append_str(out, CCNX_KEYSTORE_FILENAME); /* "<nick>.ccnx_keystore" */
    ccnx_buf_free(&dir);
    return ccnx_buf_status(out);
}

/* The directory of path (its last slash cut), made with mode 0700 along
 * with its parent when missing. */
static int make_dirs(const char *path, struct ccnx_buf *err)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    size_t n = slash != NULL ? (size_t)(slash - path) : 0;
    if (n == 0 || n >= sizeof dir) {
        return 0;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    char *up = strrchr(dir, '/');
    if (up != NULL && up != dir) {
        *up = '\0';
        mkdir(dir, 0700); /* ~/.ccnx: it may exist already */
        *up = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        ccnx_buf_printf(err, "cannot make %s for the nickname's key: %s", dir, strerror(errno));
        return CCNX_E_IO;
    }
    return 0;
}

int chat_identity_open(const char *nick, struct ccnx_keystore **out, struct ccnx_buf *err)
{
    struct ccnx_buf path = CCNX_BUF_INIT;
    int rc = chat_identity_path(nick, &path);
    if (rc != 0) {
        ccnx_buf_printf(err, "no place for the nickname's key (set HOME or CCNX_DIR)");
    }
    rc = rc == 0 ? make_dirs(ccnx_buf_cstr(&path), err) : rc;
    if (rc == 0) {
        rc = ccnx_keystore_open_or_create(ccnx_buf_cstr(&path), ccnx_keystore_default_password(),
                                          out);
        if (rc != 0) {
            ccnx_buf_printf(err, "cannot open or make the key for '%s' (%s): %s", nick,
                            ccnx_buf_cstr(&path), ccnx_strerror(rc));
        }
    }
    ccnx_buf_free(&path);
    return rc;
}
