/* Typed lines. See chat_command.h. */
#include "chat_command.h"

#include <string.h>

const char *const chat_command_help[] = {
    "/nick NAME    be known as NAME (a member object the other chats read)",
    "/me ACTION    say \"* nick ACTION\"",
    "/who          list the members seen recently",
    "/help         this list",
    "/quit         leave the room (Ctrl-C too); others see you leave",
    "//text        say a line that starts with /",
    NULL,
};

static const struct {
    const char *word;
    enum chat_cmd cmd;
    int needs_arg;
} commands[] = {
    {"me", CHAT_CMD_ME, 1},     {"nick", CHAT_CMD_NICK, 1}, {"who", CHAT_CMD_WHO, 0},
    {"help", CHAT_CMD_HELP, 0}, {"quit", CHAT_CMD_QUIT, 0}, {"exit", CHAT_CMD_QUIT, 0},
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

enum chat_cmd chat_command_parse(char *line, const char **arg)
{
    size_t n = strlen(line);
    while (n > 0 && is_blank(line[n - 1]))
        line[--n] = '\0';
    *arg = line;
    if (n == 0)
        return CHAT_CMD_NONE;
    if (line[0] != '/')
        return CHAT_CMD_SAY;
    if (line[1] == '/') {
        *arg = line + 1;
        return CHAT_CMD_SAY;
    }
    char *word = line + 1, *rest = word;
    while (*rest != '\0' && !is_blank(*rest))
        rest++;
    size_t wlen = (size_t)(rest - word);
    while (is_blank(*rest))
        rest++;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strlen(commands[i].word) != wlen || strncmp(word, commands[i].word, wlen) != 0)
            continue;
        if (commands[i].needs_arg && *rest == '\0') {
            *arg = commands[i].word;
            return CHAT_CMD_MISSING;
        }
        *arg = rest;
        return commands[i].cmd;
    }
    word[wlen] = '\0';
    *arg = word;
    return CHAT_CMD_UNKNOWN;
}
