/* VLC 3.0 access module "ccnx": plays ccnx: MRLs (ccnx:///video, and
 * ccnx:/video as typed, which VLC's command line turns into a file path)
 * from the stream model in ccnv_stream.h. VLC's input thread calls Open,
 * Read, Seek and Control; a blocking call is woken by VLC's interrupt. */
#define VLC_MODULE_COPYRIGHT "Copyright (C) 2026 The CCNx suite authors"
#define VLC_MODULE_LICENSE   VLC_LICENSE_LGPL_2_1_PLUS

#include <vlc_common.h>

#include <vlc_access.h>
#include <vlc_dialog.h>
#include <vlc_interrupt.h>
#include <vlc_plugin.h>

#include "ccnv_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int OpenCcnx(vlc_object_t *obj);
static int OpenTypedName(vlc_object_t *obj);
static void Close(vlc_object_t *obj);

static const char *const mode_values[] = {"auto", "live", "on-demand"};
static const char *const mode_texts[] = {
    "As the stream says (a live ccnsink stream joins near its live edge)",
    "Live: join near the live edge and keep up",
    "From the start, with seeking",
};

#define TIMEOUT_TEXT "Timeout (seconds)"
#define TIMEOUT_LONGTEXT                                                                           \
    "Seconds without an answer from the network before the stream stops with an error (the "       \
    "producer went silent, or nothing is published under the name)."
#define VERIFY_TEXT "Verify signatures"
#define VERIFY_LONGTEXT                                                                            \
    "Check every segment's signature, with the key named by its KeyLocator (fetched when "         \
    "needed). A segment that does not verify stops the stream with an error."
#define CACHING_TEXT "Live caching (ms)"
#define CACHING_LONGTEXT                                                                           \
    "Live streams: milliseconds of delay given to VLC's clock, the room frames have to arrive "    \
    "before they are due (ccnsrc's latency). Streams read from the start use VLC's network "       \
    "caching."
#define JOIN_BACK_TEXT "Live join: keyframe back (ms)"
#define JOIN_BACK_LONGTEXT                                                                         \
    "Live streams: start at the keyframe before the newest one when it is at most this many "      \
    "milliseconds older, so that the first picture shows at once (VLC's Matroska demuxer shows a " \
    "keyframe's pictures once the next keyframe has come); the stream then plays that much "       \
    "further behind its live edge. 0 starts at the newest keyframe."
#define MODE_TEXT "Live or from the start"
#define MODE_LONGTEXT                                                                              \
    "Where to start reading a stream that ccnsink publishes: at a keyframe near its live edge "    \
    "(live, see the live join option) or at its first byte (on demand). Streams without "          \
    "ccnsink's metadata are always read from the "                                                 \
    "start."

struct access_sys {
    struct ccnv_stream *stream;
    int error_shown;
};

static void wake(void *opaque)
{
    ccnv_stream_interrupt(opaque);
}

static void show_error(stream_t *access, const char *what, const char *why)
{
    msg_Err(access, "%s: %s", what, why);
    vlc_dialog_display_error(access, "CCNx", "%s: %s", what, why);
}

static ssize_t Read(stream_t *access, void *buf, size_t len)
{
    struct access_sys *sys = access->p_sys;
    vlc_interrupt_register(wake, sys->stream);
    ssize_t got = ccnv_stream_read(sys->stream, buf, len);
    vlc_interrupt_unregister();
    if (got >= 0) {
        return got;
    }
    if (ccnv_stream_interrupted(sys->stream)) {
        ccnv_stream_uninterrupt(sys->stream);
        return -1;
    }
    if (!sys->error_shown) {
        sys->error_shown = 1;
        show_error(access, "The stream stopped", ccnv_stream_error(sys->stream));
    }
    return 0;
}

static int Seek(stream_t *access, uint64_t pos)
{
    struct access_sys *sys = access->p_sys;
    struct ccnv_info info;
    ccnv_stream_info(sys->stream, &info);
    if (info.live) {
        msg_Err(access,
                "cannot seek to byte %" PRIu64 ": a live stream plays from its live edge "
                "(open it with :ccnx-mode=on-demand to seek)",
                pos);
        return VLC_EGENERIC;
    }
    vlc_interrupt_register(wake, sys->stream);
    int rc = ccnv_stream_seek(sys->stream, pos);
    vlc_interrupt_unregister();
    if (rc == CCNV_E_INTERRUPTED) {
        ccnv_stream_uninterrupt(sys->stream);
    }
    if (rc != 0) {
        msg_Err(access, "cannot seek to byte %" PRIu64 ": %s", pos,
                rc == CCNV_E_INTERRUPTED ? "interrupted" : ccnv_stream_error(sys->stream));
        return VLC_EGENERIC;
    }
    msg_Dbg(access, "seek to byte %" PRIu64, pos);
    return VLC_SUCCESS;
}

static int Control(stream_t *access, int query, va_list args)
{
    struct access_sys *sys = access->p_sys;
    struct ccnv_info info;
    ccnv_stream_info(sys->stream, &info);
    switch (query) {
    /* Fast seeking, said of a stream read from the start: the module's
     * own thread already reads up to 16 MB ahead, and VLC puts its
     * prefetch filter (another thread, another copy of every byte) only
     * in front of accesses that cannot seek fast. Without it a 100 MB
     * file went 15% faster (docs/benchmarks.md). */
    case STREAM_CAN_FASTSEEK:
    case STREAM_CAN_CONTROL_PACE:
        *va_arg(args, bool *) = !info.live;
        return VLC_SUCCESS;
    /* A live stream says it can seek too, though Seek refuses to: VLC's
     * Matroska demuxer takes no WebM stream it cannot seek in ("cannot
     * find any cluster"), and libavformat, which VLC then tries, probes
     * the stream at the live rate (docs/benchmarks.md, "The live join,
     * again"). The demuxer does not seek a live stream on its own; a
     * user's seek gets Seek's message. */
    case STREAM_CAN_SEEK:
        *va_arg(args, bool *) = true;
        return VLC_SUCCESS;
    case STREAM_CAN_PAUSE:
        *va_arg(args, bool *) = true;
        return VLC_SUCCESS;
    case STREAM_GET_SIZE:
        if (!info.size_known) {
            return VLC_EGENERIC;
        }
        *va_arg(args, uint64_t *) = info.size;
        return VLC_SUCCESS;
    case STREAM_GET_PTS_DELAY:
        *va_arg(args, int64_t *) =
            INT64_C(1000) *
            var_InheritInteger(access, info.live ? "ccnx-live-caching" : "network-caching");
        return VLC_SUCCESS;
    case STREAM_GET_CONTENT_TYPE:
        if (info.content_type[0] == '\0') {
            return VLC_EGENERIC;
        }
        *va_arg(args, char **) = strdup(info.content_type);
        return VLC_SUCCESS;
    case STREAM_SET_PAUSE_STATE: /* the queue fills up and the fetch pauses */
        return VLC_SUCCESS;
    default:
        return VLC_EGENERIC;
    }
}

static enum ccnv_mode mode_option(stream_t *access)
{
    char *mode = var_InheritString(access, "ccnx-mode");
    enum ccnv_mode m = CCNV_MODE_AUTO;
    if (mode != NULL && strcmp(mode, "live") == 0) {
        m = CCNV_MODE_LIVE;
    } else if (mode != NULL && strcmp(mode, "on-demand") == 0) {
        m = CCNV_MODE_ON_DEMAND;
    } else if (mode != NULL && strcmp(mode, "auto") != 0) {
        msg_Warn(access, "unknown ccnx-mode \"%s\": auto, live or on-demand; using auto", mode);
    }
    free(mode);
    return m;
}

static int OpenUri(stream_t *access, const char *uri)
{
    struct ccnv_options o;
    ccnv_options_init(&o);
    o.timeout_ms = 1000 * (int)var_InheritInteger(access, "ccnx-timeout");
    o.verify = var_InheritBool(access, "ccnx-verify");
    o.mode = mode_option(access);
    o.join_back_ms = (int)var_InheritInteger(access, "ccnx-live-join-back");

    struct access_sys *sys = calloc(1, sizeof *sys);
    if (sys == NULL) {
        return VLC_ENOMEM;
    }
    char err[600];
    int rc = ccnv_stream_start(uri, &o, &sys->stream, err, sizeof err);
    if (rc == 0) {
        vlc_interrupt_register(wake, sys->stream);
        rc = ccnv_stream_wait_ready(sys->stream, err, sizeof err);
        vlc_interrupt_unregister();
    }
    if (rc != 0) {
        if (rc != CCNV_E_INTERRUPTED) {
            show_error(access, "Cannot play", err);
        }
        ccnv_stream_close(sys->stream);
        free(sys);
        return VLC_EGENERIC;
    }
    struct ccnv_info info;
    ccnv_stream_info(sys->stream, &info);
    msg_Dbg(access, "reading %s from segment %" PRIu64 ": %s%s%s (newest %" PRIu64 ")", info.uri,
            info.start_segment, info.live ? "live" : "from the start",
            info.with_meta ? ", a ccnsink stream " : "", info.content_type, info.newest_segment);
    if (info.live) {
        msg_Dbg(access, "live: the newest keyframe starts segment %" PRIu64 "%s", info.newest_key,
                info.newest_key != info.start_segment ? "; joined at the keyframe before it" : "");
    }
    access->p_sys = sys;
    access->pf_read = Read;
    access->pf_block = NULL;
    access->pf_seek = Seek;
    access->pf_control = Control;
    return VLC_SUCCESS;
}

static int OpenCcnx(vlc_object_t *obj)
{
    stream_t *access = (stream_t *)obj;
    const char *loc = access->psz_location != NULL ? access->psz_location : "";
    while (*loc == '/') { /* ccnx:///video and ccnx://video alike */
        loc++;
    }
    char *uri;
    if (asprintf(&uri, "ccnx:/%s", loc) < 0) {
        return VLC_ENOMEM;
    }
    int rc = OpenUri(access, uri);
    free(uri);
    return rc;
}

/* A file path <cwd>/ccnx:/name that does not exist: "vlc ccnx:/name". */
static int OpenTypedName(vlc_object_t *obj)
{
    stream_t *stream = (stream_t *)obj;
    const char *path = stream->psz_filepath;
    char cwd[4096];
    if (path == NULL || getcwd(cwd, sizeof cwd) == NULL || access(path, F_OK) == 0) {
        return VLC_EGENERIC;
    }
    size_t clen = strcmp(cwd, "/") == 0 ? 0 : strlen(cwd);
    static const char typed[] = "/ccnx:/";
    if (strncmp(path, cwd, clen) != 0 || strncmp(path + clen, typed, sizeof typed - 1) != 0) {
        return VLC_EGENERIC;
    }
    char *uri;
    if (asprintf(&uri, "ccnx:%s", path + clen + sizeof typed - 2) < 0) {
        return VLC_ENOMEM;
    }
    msg_Dbg(stream, "\"%s\" does not exist: read as the name %s", path, uri);
    int rc = OpenUri(stream, uri);
    free(uri);
    return rc;
}

static void Close(vlc_object_t *obj)
{
    stream_t *access = (stream_t *)obj;
    struct access_sys *sys = access->p_sys;
    struct ccnv_stats st;
    ccnv_stream_stats(sys->stream, &st);
    msg_Dbg(access,
            "%" PRIu64 " segments, %" PRIu64 " bytes, %" PRIu64 " interests, %" PRIu64
            " retransmissions, rtt %.1f ms",
            st.segments, st.bytes, st.interests, st.retransmissions, st.rtt_ms);
    ccnv_stream_close(sys->stream);
    free(sys);
}

/* The module's descriptor, last: VLC's descriptor macros read as a
 * nested list, which clang-format would run together, and code after
 * them would be indented as their continuation. */
/* clang-format off */
vlc_module_begin()
    set_shortname("CCNx")
    set_description("CCNx content-centric networking input")
    set_category(CAT_INPUT)
    set_subcategory(SUBCAT_INPUT_ACCESS)
    add_integer_with_range("ccnx-timeout", 10, 1, 3600, TIMEOUT_TEXT, TIMEOUT_LONGTEXT, true)
    add_bool("ccnx-verify", true, VERIFY_TEXT, VERIFY_LONGTEXT, true)
    add_string("ccnx-mode", "auto", MODE_TEXT, MODE_LONGTEXT, false)
        change_string_list(mode_values, mode_texts)
    add_integer_with_range("ccnx-live-caching", 200, 0, 60000, CACHING_TEXT, CACHING_LONGTEXT, true)
    add_integer_with_range("ccnx-live-join-back", 2000, 0, 60000, JOIN_BACK_TEXT, JOIN_BACK_LONGTEXT,
                           true)
    set_capability("access", 0)
    add_shortcut("ccnx")
    set_callbacks(OpenCcnx, Close)

    /* "vlc ccnx:/video": VLC takes an argument without "://" for a file
     * name relative to the current directory. This is tried before VLC's
     * own file access (priority 50), which would show an error dialog for
     * a missing file, and takes only a path <cwd>/ccnx:/... that does not
     * exist. */
    add_submodule()
    set_description("CCNx names typed as ccnx:/name")
    set_capability("access", 60)
    add_shortcut("file")
    set_callbacks(OpenTypedName, Close)
vlc_module_end()
    /* clang-format on */
