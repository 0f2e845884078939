/* A key per nickname (see chat_identity.h). */
#include "chat_identity.h"

#include <ccnx/error.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* Longest nickname part of a file name, in bytes of the nickname. */
#define NAME_BYTES 64

/* Appends the directory of the user's keystore (no slash at the end; empty
 * for a keystore named without one). */
static int keystore_dir(struct ccnx_buf *out)
{
    size_t start = out->len;
    int rc = ccnx_keystore_default_path(out);
    if (rc == 0) {
        const char *p = ccnx_buf_cstr(out) + start;
        const char *slash = strrchr(p, '/');
        out->len = start + (slash != NULL ? (size_t)(slash - p) : 0);
    }
    return rc;
}

int chat_identity_path(const char *nick, struct ccnx_buf *out)
{
    size_t start = out->len;
    int rc = keystore_dir(out);
    if (rc != 0) {
        return rc;
    }
    ccnx_buf_append_str(out, out->len > start ? "/chat/" : "chat/");
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
    return ccnx_buf_status(out);
}

int chat_identity_open(const char *nick, struct ccnx_keystore **out, struct ccnx_buf *err)
{
    struct ccnx_buf dir = CCNX_BUF_INIT, path = CCNX_BUF_INIT;
    int rc = keystore_dir(&dir);
    rc = rc == 0 ? chat_identity_path(nick, &path) : rc;
    if (rc != 0) {
        ccnx_buf_printf(err, "no place for the nickname's key (set HOME or CCNX_DIR)");
    } else if (dir.len > 0 && mkdir(ccnx_buf_cstr(&dir), 0700) != 0 && errno != EEXIST) {
        /* the keystore makes its own directory (chat/), not the one above */
        ccnx_buf_printf(err, "cannot make %s for the nickname's key: %s", ccnx_buf_cstr(&dir),
                        strerror(errno));
        rc = CCNX_E_IO;
    } else {
        rc = ccnx_keystore_open_or_create(ccnx_buf_cstr(&path), ccnx_keystore_default_password(),
                                          out);
        if (rc != 0) {
            ccnx_buf_printf(err, "cannot open or make the key for '%s' (%s): %s", nick,
                            ccnx_buf_cstr(&path), ccnx_strerror(rc));
        }
    }
    ccnx_buf_free(&dir);
    ccnx_buf_free(&path);
    return rc;
}
