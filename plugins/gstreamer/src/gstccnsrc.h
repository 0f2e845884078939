/* ccnsrc: plays a CCNx stream: one that ccnsink publishes (its buffers,
 * caps and timing restored from the metadata beside it), or any segmented
 * stream that ccnputfile or ccnseqwriter published (then as bytes, like
 * filesrc). */
#ifndef GST_CCNSRC_H
#define GST_CCNSRC_H

#include <gst/base/gstpushsrc.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_CCNSRC (gst_ccnsrc_get_type())
G_DECLARE_FINAL_TYPE(GstCcnSrc, gst_ccnsrc, GST, CCNSRC, GstPushSrc)
GST_ELEMENT_REGISTER_DECLARE(ccnsrc);

typedef enum {
    GST_CCNSRC_MODE_AUTO,
    GST_CCNSRC_MODE_LIVE,
    GST_CCNSRC_MODE_ON_DEMAND,
} GstCcnSrcMode;
GType gst_ccnsrc_mode_get_type(void);

G_END_DECLS

#endif
