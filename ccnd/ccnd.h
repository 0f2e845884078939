/* The forwarder assembled: event loop, faces, forwarding. main.c reads the
 * configuration and runs one of these. */
#ifndef CCND_CCND_H
#define CCND_CCND_H

#include <stddef.h>

#include "config.h"

struct ccnd;

/* Opens the listeners the configuration asks for (unix socket, TCP and UDP
 * on the port) and the forwarding tables. On failure returns NULL with a
 * message naming the cause and the fix in err. */
struct ccnd *ccnd_create(const struct ccnd_config *cfg, char *err, size_t n);
/* Runs until SIGTERM or SIGINT; returns 0 after a clean shutdown. */
int ccnd_run(struct ccnd *d);
void ccnd_destroy(struct ccnd *d);

#endif
