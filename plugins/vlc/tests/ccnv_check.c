/* The VLC tests' checker: libvlc plays an MRL with a video output that
 * counts pictures (the vmem callbacks, nothing on screen) and reports
 *
 *   frames=<pictures shown> first_ms=<open to first picture, -1 none>
 *   ended=<0|1> error=<0|1>
 *
 * on stdout; VLC's error messages (and error dialogs) go to stderr, with
 * the module's debug messages under -v. It stops at the end of the media,
 * on an error, after -n pictures, or after -t seconds, whichever first.
 * Exit 0 when the media ended or -n pictures were shown, else 1.
 *
 *   ccnv_check [-n PICTURES] [-t SECONDS] [-v] [-p] MRL [:option ...]
 *
 * -p: MRL is a path, turned into a file: MRL as the vlc program turns its
 * arguments without "://" (so "ccnx:/name" as typed).
 *
 * Options after the MRL are media options (":ccnx-mode=live",
 * ":start-time=5"). Late pictures are shown, not dropped, so that the count
 * is the stream's on a busy machine too. Unlike the vlc program, libvlc
 * runs as root. */
#include <vlc/vlc.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long frames, want = -1;
static int ended, failed, verbose, as_path;
static double opened_at, first_ms = -1;
static libvlc_media_player_t *player;
static uint8_t *pixels; /* three planes, each as large as a 32-bit picture */
static size_t plane_size;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Pictures are taken in the decoder's own chroma, so that VLC needs no
 * converter: room for three planes of up to four bytes a pixel. */
static unsigned format_cb(void **opaque, char *chroma, unsigned *width, unsigned *height,
                          unsigned *pitches, unsigned *lines)
{
    (void)opaque;
    (void)chroma;
    unsigned pitch = (*width * 4 + 63) & ~63u;
    for (int i = 0; i < 3; i++) {
        pitches[i] = pitch;
        lines[i] = *height + 16;
    }
    free(pixels);
    plane_size = (size_t)pitch * (*height + 16);
    pixels = calloc(3, plane_size);
    return pixels != NULL ? 1 : 0;
}

static void *lock_cb(void *opaque, void **planes)
{
    (void)opaque;
    for (int i = 0; i < 3; i++) {
        planes[i] = pixels + i * plane_size;
    }
    return NULL;
}

static void display_cb(void *opaque, void *picture)
{
    (void)opaque;
    (void)picture;
    pthread_mutex_lock(&lock);
    if (frames++ == 0) {
        first_ms = now_ms() - opened_at;
    }
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void on_event(const libvlc_event_t *e, void *opaque)
{
    (void)opaque;
    pthread_mutex_lock(&lock);
    if (e->type == libvlc_MediaPlayerEndReached) {
        ended = 1;
    } else if (e->type == libvlc_MediaPlayerEncounteredError) {
        failed = 1;
    }
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void on_log(void *data, int level, const libvlc_log_t *ctx, const char *fmt, va_list args)
{
    (void)data;
    const char *module = NULL, *file = NULL;
    unsigned line = 0;
    libvlc_log_get_context(ctx, &module, &file, &line);
    int ours = module != NULL && strcmp(module, "ccnx") == 0;
    if (level < LIBVLC_ERROR && !(verbose && ours)) {
        return;
    }
    char text[2048];
    vsnprintf(text, sizeof text, fmt, args);
    fprintf(stderr, "vlc %s %s: %s\n", module != NULL ? module : "?",
            level >= LIBVLC_ERROR ? "error" : "debug", text);
}

static void dialog_error(void *data, const char *title, const char *text)
{
    (void)data;
    fprintf(stderr, "vlc dialog: %s: %s\n", title, text);
}

static int wait_done(double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)seconds;
    pthread_mutex_lock(&lock);
    int rc = 0;
    while (!ended && !failed && (want < 0 || frames < want) && rc == 0) {
        rc = pthread_cond_timedwait(&cond, &lock, &until);
    }
    int ok = ended || (want >= 0 && frames >= want);
    pthread_mutex_unlock(&lock);
    return ok;
}

int main(int argc, char **argv)
{
    double seconds = 30;
    int opt;
    while ((opt = getopt(argc, argv, "+n:t:vp")) != -1) {
        if (opt == 'n') {
            want = atol(optarg);
        } else if (opt == 't') {
            seconds = atof(optarg);
        } else if (opt == 'v') {
            verbose = 1;
        } else if (opt == 'p') {
            as_path = 1;
        } else {
            fprintf(stderr,
                    "usage: ccnv_check [-n PICTURES] [-t SECONDS] [-v] [-p] MRL [:option ...]\n");
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr,
                "usage: ccnv_check [-n PICTURES] [-t SECONDS] [-v] [-p] MRL [:option ...]\n");
        return 2;
    }
    const char *args[] = {"--no-audio",      "--aout=dummy",          "--no-osd",
                          "--no-stats",      "--no-media-library",    "--no-video-title-show",
                          "--ignore-config", "--no-drop-late-frames", "--no-skip-frames"};
    libvlc_instance_t *vlc = libvlc_new(sizeof args / sizeof args[0], args);
    if (vlc == NULL) {
        fprintf(stderr, "ccnv_check: libvlc_new failed\n");
        return 2;
    }
    libvlc_log_set(vlc, on_log, NULL);
    static const libvlc_dialog_cbs dialogs = {.pf_display_error = dialog_error};
    libvlc_dialog_set_callbacks(vlc, &dialogs, NULL);
    libvlc_media_t *media = as_path ? libvlc_media_new_path(vlc, argv[optind])
                                    : libvlc_media_new_location(vlc, argv[optind]);
    for (int i = optind + 1; i < argc; i++) {
        libvlc_media_add_option(media, argv[i]);
    }
    player = libvlc_media_player_new_from_media(media);
    libvlc_video_set_callbacks(player, lock_cb, NULL, display_cb, NULL);
    libvlc_video_set_format_callbacks(player, format_cb, NULL);
    libvlc_event_manager_t *em = libvlc_media_player_event_manager(player);
    libvlc_event_attach(em, libvlc_MediaPlayerEndReached, on_event, NULL);
    libvlc_event_attach(em, libvlc_MediaPlayerEncounteredError, on_event, NULL);
    opened_at = now_ms();
    libvlc_media_player_play(player);
    int ok = wait_done(seconds);
    libvlc_media_player_stop(player);
    pthread_mutex_lock(&lock);
    printf("frames=%ld first_ms=%.0f ended=%d error=%d\n", frames, first_ms, ended, failed);
    pthread_mutex_unlock(&lock);
    libvlc_media_player_release(player);
    libvlc_media_release(media);
    libvlc_release(vlc);
    free(pixels);
    return ok ? 0 : 1;
}
