/* Who a chat is: a key of its own for each nickname.
 *
 * Members are told apart by the key that signs their messages, as the
 * reference's chats tell them apart. Two windows of one account, each
 * signing with the account's key, were one member to everyone. So each
 * nickname gets a key of its own, kept beside the user's keystore in
 * <that directory>/chat/<nickname>.ccnx_keystore (made on first use, with
 * the user's keystore password): two nicknames are two members, and one
 * nickname keeps its identity from one run to the next. */
#ifndef CHAT_IDENTITY_H
#define CHAT_IDENTITY_H

#include <ccnx/buf.h>
#include <ccnx/keystore.h>

/* Appends the keystore path for nick (bytes other than letters, digits,
 * '-', '_' and '.' written as %XX). 0 or a CCNX_E* code (no home). */
int chat_identity_path(const char *nick, struct ccnx_buf *out);
/* Opens, or makes, nick's keystore. 0, or a code with a sentence in err. */
int chat_identity_open(const char *nick, struct ccnx_keystore **out, struct ccnx_buf *err);

#endif
