/* ccnsrc's decisions (ccnsrc_decide.h). */
#include "ccnsrc_decide.h"

void ccnsrc_plan_from_meta(const struct ccngst_meta *m, enum ccnsrc_mode mode,
                           struct ccnsrc_plan *out)
{
    out->live = mode == CCNSRC_MODE_AUTO ? m->h.live : mode == CCNSRC_MODE_LIVE;
    out->start_segment = out->live ? m->h.key_segment : 0;
    out->last_segment = m->h.segment;
    out->duration = -1;
    for (size_t i = 0; i < m->count; i++) {
        const struct ccngst_buf_rec *b = &m->bufs[i];
        if (b->pts >= 0 && b->duration >= 0 && b->pts + b->duration > out->duration) {
            out->duration = b->pts + b->duration;
        }
    }
}

int ccnsrc_probe_may_retry(int attempts)
{
    return attempts < PROBE_ATTEMPTS;
}

int ccnsrc_probe_overdue(uint64_t mark, uint64_t segments)
{
    return segments >= mark + PROBE_AFTER;
}

int ccnsrc_probe_window_ms(double srtt_ms)
{
    double ms = PROBE_RTTS * srtt_ms;
    ms = ms < PROBE_MIN_MS ? PROBE_MIN_MS : ms;
    return (int)(ms > PROBE_MS ? PROBE_MS : ms);
}
