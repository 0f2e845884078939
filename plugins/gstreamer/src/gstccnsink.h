/* ccnsink: publishes what it receives as a CCNx stream (streamwriter.h)
 * and answers the Interests of any number of viewers through ccnd. */
#ifndef GST_CCNSINK_H
#define GST_CCNSINK_H

#include <gst/base/gstbasesink.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_CCNSINK (gst_ccnsink_get_type())
G_DECLARE_FINAL_TYPE(GstCcnSink, gst_ccnsink, GST, CCNSINK, GstBaseSink)
GST_ELEMENT_REGISTER_DECLARE(ccnsink);

G_END_DECLS

#endif
