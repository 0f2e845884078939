/* The full-screen view (ncursesw). */
#ifndef EXPLORE_UI_H
#define EXPLORE_UI_H

#include <ccnx/client.h>

#include "explore_disco.h"
#include "explore_tree.h"

/* Runs until the user quits; returns the exit status. The URI copied with
 * 'c' (if any) is printed on standard output after the screen is restored.
 * mouse: clicks select and open (--mouse). */
int ex_ui_run(struct ccnx_client *c, struct ex_tree *t, const struct ex_disco_opts *o, int mouse);

#endif
