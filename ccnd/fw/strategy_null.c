/* Forwards nothing: Interests under the prefix are answered only from the
 * content store or by local producers reached through the internal face. */
#include <stddef.h>

#include "fw/strategy.h"

const struct strategy strategy_null = {
    .name = "null",
    .on_interest = NULL,
    .on_timer = NULL,
    .on_satisfied = NULL,
    .on_expired = NULL,
};
