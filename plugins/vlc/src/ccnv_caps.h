/* What the VLC module takes from a ccnsink stream's caps (GStreamer's
 * text form, carried in the stream's metadata: docs/gstreamer.md): the
 * media type, which VLC uses as the stream's content type, and the
 * container's stream headers, which a viewer joining a live stream has
 * missed and which must come before the first byte it reads (the EBML
 * header and Tracks of a WebM stream, Ogg's first pages).
 *
 * The caps text comes from the network: both functions are total over
 * arbitrary bytes (fuzz target fuzz_vlc_caps). No VLC or GStreamer types. */
#ifndef CCNV_CAPS_H
#define CCNV_CAPS_H

#include <ccnx/buf.h>

#include <stddef.h>

/* The media type (the caps' first structure name, "video/webm"), copied
 * into out as a C string. 0, or CCNX_E_VALUE when the caps do not start
 * with type "/" subtype or it does not fit in room. */
int ccnv_caps_media_type(const char *caps, size_t n, char *out, size_t room);

/* Appends the bytes of every buffer in the caps' `streamheader` field
 * (an array of hexadecimal buffers) to out, in order. 0 with nothing
 * appended when the field is absent; CCNX_E_VALUE when it is present but
 * not an array of well-formed buffers; CCNX_E_NOMEM. */
int ccnv_caps_stream_headers(const char *caps, size_t n, struct ccnx_buf *out);

#endif
