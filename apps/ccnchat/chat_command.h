/* What the user typed: a message or one of the commands, shared by the
 * screen and the line mode. */
#ifndef CHAT_COMMAND_H
#define CHAT_COMMAND_H

enum chat_cmd {
    CHAT_CMD_NONE,    /* an empty line */
    CHAT_CMD_SAY,     /* a message: arg is the text */
    CHAT_CMD_ME,      /* /me ACTION */
    CHAT_CMD_NICK,    /* /nick NAME */
    CHAT_CMD_WHO,     /* /who */
    CHAT_CMD_HELP,    /* /help */
    CHAT_CMD_QUIT,    /* /quit */
    CHAT_CMD_UNKNOWN, /* /something else: arg is the word */
    CHAT_CMD_MISSING, /* a command without its argument: arg is the command */
};

/* Splits line (modified in place: trailing blanks removed) into a command
 * and its argument, which points into line. "//text" says "/text". */
enum chat_cmd chat_command_parse(char *line, const char **arg);

/* The help text, one command per line. */
extern const char *const chat_command_help[];

#endif
