/* ccnsrc's decisions, free of GStreamer types so they are unit-tested
 * (tests/unit/plugins/gstreamer/test_ccnsrc_decide.c): what a stream's
 * metadata says to play (live from the newest keyframe, or from the
 * start), and when the probe for that metadata counts as unanswered. The
 * network side (ccnsrc_fetch.c) acts on them. */
#ifndef CCNSRC_DECIDE_H
#define CCNSRC_DECIDE_H

#include <stdint.h>

#include "streammeta.h"

/* The probe: one Interest for the newest metadata segment. An attempt
 * lasts PROBE_MS at most. A producer of metadata answers it about as fast
 * as it answers for data, so an attempt counts as unanswered once
 * PROBE_AFTER data segments asked for after it have come (a measure in the
 * data's own progress, which a busy machine or a slow link stretches
 * exactly as much as the probe's answer; a fixed time would not). When the
 * data has all come, an attempt gets PROBE_RTTS of its round trips (at
 * least PROBE_MIN_MS). After PROBE_ATTEMPTS the stream is plain bytes. */
#define PROBE_MS       500
#define PROBE_AFTER    8
#define PROBE_RTTS     4
#define PROBE_MIN_MS   50
#define PROBE_ATTEMPTS 3

/* The element's mode property, in the values GstCcnSrcMode has. */
enum ccnsrc_mode { CCNSRC_MODE_AUTO, CCNSRC_MODE_LIVE, CCNSRC_MODE_ON_DEMAND };

struct ccnsrc_plan {
    int live;               /* joined at the newest keyframe, timing as live */
    uint64_t start_segment; /* the first data segment to fetch */
    uint64_t last_segment;  /* the metadata segment read */
    int64_t duration;       /* ns, the end of the last buffer listed; -1 unknown */
};

/* What to play, from the newest metadata segment and the mode: AUTO follows
 * the stream's own live flag, the others force it. */
void ccnsrc_plan_from_meta(const struct ccngst_meta *m, enum ccnsrc_mode mode,
                           struct ccnsrc_plan *out);

/* 1 when another probe attempt may go out after `attempts` of them. */
int ccnsrc_probe_may_retry(int attempts);
/* 1 when the attempt sent with the data fetch at `mark` segments is
 * overdue now that `segments` have come. */
int ccnsrc_probe_overdue(uint64_t mark, uint64_t segments);
/* The time an attempt gets once all the data has come, from the data's
 * smoothed round trip. */
int ccnsrc_probe_window_ms(double srtt_ms);

#endif
