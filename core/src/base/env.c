/* The one place libccnx reads the environment: the reference's variables
 * that say where the local ccnd is and where the user's keystore lives.
 * Programs read their own settings themselves; the library reads only
 * these, which every client shares. */
#include "env.h"

#include <ccnx/local.h>

#include <stdlib.h>

static const char *nonempty(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' ? v : NULL;
}

void ccnx_env_read(struct ccnx_env *e)
{
    e->transport = nonempty("CCN_LOCAL_TRANSPORT");
    e->port = nonempty(CCNX_ENV_PORT);
    e->sockname = nonempty(CCNX_ENV_SOCKNAME);
    e->ccnx_dir = nonempty("CCNX_DIR");
    e->home = nonempty("HOME");
    e->keystore_password = getenv("CCNX_KEYSTORE_PASSWORD"); /* an empty one is a password */
}
