/* ccnchat's parsers (apps/ccnchat): the classification of objects that
 * answer a room's Interests, the model fed with what it accepts, the text
 * sanitizer, the command parser and the input line, on arbitrary bytes. */
#include "chat_command.h"
#include "chat_model.h"
#include "chat_text.h"
#include "chat_wire.h"
#include "input_line.h"

#include <ccnx/content.h>
#include <ccnx/uri.h>
#include <ccnx/utf8.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void feed_object(const uint8_t *data, size_t size)
{
    struct ccnx_content_parsed pc;
    if (ccnx_content_parse(data, size, &pc) != 0)
        return;
    struct chat_model *m = chat_model_create();
    /* The room is the object's name without its last two components, so
     * well-formed messages get past the first checks. */
    struct ccnx_name room;
    ccnx_name_init(&room);
    if (m != NULL && ccnx_name_set_ccnb(&room, data + pc.name.off, pc.name.len) == 0) {
        for (size_t cut = 0; cut <= 4 && cut <= room.count; cut++) {
            struct ccnx_name r;
            ccnx_name_init(&r);
            ccnx_name_copy(&r, &room);
            ccnx_name_truncate(&r, room.count - cut);
            struct chat_wire_obj w;
            struct chat_comp first;
            int has_first;
            if (chat_wire_parse(&r, data, &pc, &w, &first, &has_first) == 0) {
                if (w.kind == CHAT_WIRE_MESSAGE)
                    chat_model_add(m, &w.version, w.publisher, w.text, w.text_len, CHAT_FAILED, 0,
                                   0, NULL);
                else
                    chat_model_set_nick(m, w.publisher, &w.version, w.text, w.text_len, 0);
            } else if (has_first) {
                chat_model_seen(m, &first);
            }
            struct chat_exclude x;
            chat_model_live_exclude(m, 0, &x);
            chat_model_history_exclude(m, &x);
            ccnx_name_free(&r);
        }
    }
    ccnx_name_free(&room);
    chat_model_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ccnx_buf b;
    ccnx_buf_init(&b);
    chat_text_sanitize(data, size, 0, &b);
    ccnx_buf_free(&b);
    feed_object(data, size);

    char *line = malloc(size + 1);
    if (line != NULL) {
        memcpy(line, data, size);
        line[size] = '\0';
        const char *arg;
        chat_command_parse(line, &arg);
        free(line);
    }
    static struct input_line in;
    input_init(&in);
    for (size_t i = 0; i < size;) {
        uint32_t cp;
        int k = ccnx_utf8_decode(data + i, size - i, &cp);
        if (k == 0) {
            i++;
            input_kill_word(&in);
            continue;
        }
        input_insert(&in, cp);
        if (cp == '<')
            input_left(&in);
        i += (size_t)k;
    }
    free(input_take(&in));
    input_free(&in);
    return 0;
}
