/* plugin.c: the symbols Wireshark looks for when it loads the plugin.
 *
 * Copyright (C) 2026 The CCNx suite authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Wireshark 4.0 finds plugin_version, plugin_want_major/minor and
 * plugin_register; 4.2 also asks plugin_describe what kind of plugin this
 * is; 4.4 and later replace all of them with one wireshark_load_module
 * symbol, written by the WIRESHARK_PLUGIN_REGISTER_EPAN macro.
 */
#include "ccn.h"

#include <ws_version.h>

#if CCN_WS_42
#include <wsutil/plugins.h>
#endif

#ifndef CCN_PLUGIN_VERSION
#define CCN_PLUGIN_VERSION "0.0.0"
#endif

void proto_register_ccn(void);
void proto_reg_handoff_ccn(void);

#ifdef WIRESHARK_PLUGIN_REGISTER /* 4.4 and later */

static void plugin_register(void)
{
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_ccn;
    plug.register_handoff = proto_reg_handoff_ccn;
    proto_register_plugin(&plug);
}

static struct ws_module module = {
    .flags = WS_PLUGIN_DESC_DISSECTOR,
    .version = CCN_PLUGIN_VERSION,
    .spdx_id = "GPL-2.0-or-later",
    .home_url = "",
    .blurb = "CCNx 0.x ccnb dissector (Interest, ContentObject, ccnd control messages)",
    .register_cb = &plugin_register,
};

WIRESHARK_PLUGIN_REGISTER_EPAN(&module, 0)

#else /* 4.0 and 4.2 */

WS_DLL_PUBLIC_DEF const char plugin_version[] = CCN_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_ccn;
    plug.register_handoff = proto_reg_handoff_ccn;
    proto_register_plugin(&plug);
}

#ifdef WS_PLUGIN_DESC_DISSECTOR /* 4.2 */
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif

#endif
