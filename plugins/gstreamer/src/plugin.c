/* The "ccnx" GStreamer plugin: ccnsink and ccnsrc. */
#include "gstccnsink.h"
#include "gstccnsrc.h"

#include <gst/gst.h>

static gboolean plugin_init(GstPlugin *plugin)
{
    return gst_element_register(plugin, "ccnsink", GST_RANK_NONE, GST_TYPE_CCNSINK) &&
           gst_element_register(plugin, "ccnsrc", GST_RANK_PRIMARY, GST_TYPE_CCNSRC);
}

#define PACKAGE "ccnx-suite"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, ccnx,
                  "CCNx content-centric networking: stream media under a name", plugin_init,
                  CCNGST_VERSION, "LGPL", "ccnx-suite", "https://github.com/ProjectCCNx/ccnx")
