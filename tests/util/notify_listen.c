/* notify_listen: the service manager's end of the readiness protocol, for
 * tests of the service units without systemd.
 *
 *   notify_listen PATH
 *
 * Binds a unix datagram socket at PATH (as $NOTIFY_SOCKET names it), prints
 * "listening", then each message received on a line of its own (a message's
 * newlines become spaces). Exits on SIGTERM, or by itself after two minutes. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define LIFETIME_S 120

int main(int argc, char **argv)
{
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    if (argc != 2 || strlen(argv[1]) >= sizeof sun.sun_path) {
        fprintf(stderr, "usage: notify_listen PATH (shorter than %zu bytes)\n",
                sizeof sun.sun_path);
        return 2;
    }
    memcpy(sun.sun_path, argv[1], strlen(argv[1]));
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
        perror("notify_listen: bind");
        return 1;
    }
    signal(SIGALRM, SIG_DFL);
    alarm(LIFETIME_S);
    printf("listening\n");
    fflush(stdout);
    char msg[4096];
    for (;;) {
        ssize_t n = recv(fd, msg, sizeof msg - 1, 0);
        if (n < 0) {
            perror("notify_listen: recv");
            return 1;
        }
        for (ssize_t i = 0; i < n; i++) {
            msg[i] = msg[i] == '\n' ? ' ' : msg[i];
        }
        msg[n] = '\0';
        printf("%s\n", msg);
        fflush(stdout);
    }
}
