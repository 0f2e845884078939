/* The "ccnx" GStreamer plugin: ccnsink and ccnsrc. */
#include "gstccnsink.h"
#include "gstccnsrc.h"

#include <gst/gst.h>

static gboolean plugin_init(GstPlugin *plugin)
{
    gboolean ok = GST_ELEMENT_REGISTER(ccnsink, plugin);
    ok &= GST_ELEMENT_REGISTER(ccnsrc, plugin);
    return ok;
}

#define PACKAGE "ccnx-suite"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, ccnx,
                  "CCNx content-centric networking: stream media under a name", plugin_init,
                  CCNGST_VERSION, "LGPL", "ccnx-suite", "https://github.com/ProjectCCNx/ccnx")
