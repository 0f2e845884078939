/* The environment variables libccnx honours, read in one place (env.c).
 * Not installed. */
#ifndef CCNX_ENV_H
#define CCNX_ENV_H

/* NULL when unset or empty (the password: only when unset). */
struct ccnx_env {
    const char *transport;         /* CCN_LOCAL_TRANSPORT: "tcp" or the unix socket */
    const char *port;              /* CCN_LOCAL_PORT */
    const char *sockname;          /* CCN_LOCAL_SOCKNAME */
    const char *ccnx_dir;          /* CCNX_DIR: the user's keystore folder */
    const char *home;              /* HOME */
    const char *keystore_password; /* CCNX_KEYSTORE_PASSWORD */
};
void ccnx_env_read(struct ccnx_env *e);

#endif
