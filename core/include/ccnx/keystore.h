/* The user keystore: the private key every publishing program signs with. */
#ifndef CCNX_KEYSTORE_H
#define CCNX_KEYSTORE_H

#include <stddef.h>
#include <stdint.h>

#include <ccnx/buf.h>
#include <ccnx/key.h>

#include <ccnx/api.h>

CCNX_API_BEGIN

/* ---- The user keystore ----
 *
 * A PKCS#12 file holding one private key and its self-signed certificate
 * under the friendly name "ccnxuser", protected by the password every CCNx
 * program knows unless CCNX_KEYSTORE_PASSWORD says otherwise. New files use
 * pbeWithSHA1And3-KeyTripleDES-CBC for both bags and a SHA-1 MAC: OpenSSL 1.x
 * and 3.x read them without extra providers. Files protected with the older
 * 40-bit RC2 (what OpenSSL 1.x wrote by default) are read by loading the
 * OpenSSL "legacy" provider (with "default") into the default library
 * context for the time of the retry. */
#define CCNX_KEYSTORE_DEFAULT_PASSWORD "Th1s1sn0t8g00dp8ssw0rd."
#define CCNX_KEYSTORE_FILENAME         ".ccnx_keystore"
#define CCNX_KEYSTORE_ALIAS            "ccnxuser"
#define CCNX_KEYSTORE_DEFAULT_DAYS     3650

struct ccnx_keystore;

/* Appends the default keystore path: $CCNX_DIR/.ccnx_keystore when CCNX_DIR
 * is set and not empty, else $HOME/.ccnx/.ccnx_keystore (CCNX_E_NOTFOUND
 * when neither variable is set). */
int ccnx_keystore_default_path(struct ccnx_buf *out);
/* $CCNX_KEYSTORE_PASSWORD when set, else CCNX_KEYSTORE_DEFAULT_PASSWORD. */
const char *ccnx_keystore_default_password(void);

/* Opens a keystore (path/password NULL: the defaults). Allocates *out.
 * CCNX_E_NOTFOUND when the file does not exist, CCNX_E_KEYSTORE when it
 * cannot be decrypted (wrong password) or holds no key and certificate. */
int ccnx_keystore_open(const char *path, const char *password, struct ccnx_keystore **out);

struct ccnx_keystore_options {
    unsigned bits;       /* RSA key size; 0: CCNX_KEY_DEFAULT_BITS */
    int validity_days;   /* certificate lifetime; <= 0: CCNX_KEYSTORE_DEFAULT_DAYS */
    const char *subject; /* certificate CN; NULL: the user name of the effective uid */
    int overwrite;       /* replace an existing file instead of CCNX_E_INVAL */
};
/* Creates a keystore with a new key (path/password/opt NULL: the defaults),
 * making the file's directory (mode 0700) when missing and the file with
 * mode 0600. An existing file is an error (errno EEXIST, CCNX_E_IO) unless
 * opt->overwrite. Allocates *out when out is not NULL. */
int ccnx_keystore_create(const char *path, const char *password,
                         const struct ccnx_keystore_options *opt, struct ccnx_keystore **out);
/* Opens the keystore, creating it with default options when the file does
 * not exist (what every publishing program does on first use). */
int ccnx_keystore_open_or_create(const char *path, const char *password,
                                 struct ccnx_keystore **out);
void ccnx_keystore_destroy(struct ccnx_keystore *ks);

/* The key (private and public), owned by ks. */
const struct ccnx_key *ccnx_keystore_key(const struct ccnx_keystore *ks);
/* Shorthand for ccnx_key_digest(ccnx_keystore_key(ks)). */
const uint8_t *ccnx_keystore_digest(const struct ccnx_keystore *ks);
/* DER of the certificate, owned by ks. */
const uint8_t *ccnx_keystore_certificate(const struct ccnx_keystore *ks, size_t *len);

CCNX_API_END

#endif
