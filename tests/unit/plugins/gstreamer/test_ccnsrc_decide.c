/* ccnsrc's decisions without GStreamer: the plan a stream's metadata gives
 * in each mode (where to start, live or not, the duration), and the
 * probe's policy (attempts, overdue by the data's progress, the window
 * once the data has all come). */
#include "testutil.h"

#include "ccnsrc_decide.h"

#include <string.h>

static void meta(struct ccngst_meta *m, int live, uint64_t segment, uint64_t key_segment)
{
    memset(m, 0, sizeof *m);
    m->h.live = live;
    m->h.segment = segment;
    m->h.key_segment = key_segment;
}

static void add_buf(struct ccngst_meta *m, int64_t pts, int64_t duration)
{
    m->bufs[m->count].pts = pts;
    m->bufs[m->count].dts = -1;
    m->bufs[m->count].duration = duration;
    m->count++;
}

static void test_live_stream_joined_at_its_newest_keyframe(void **state)
{
    (void)state;
    struct ccngst_meta m;
    struct ccnsrc_plan p;
    meta(&m, 1, 120, 112);
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_AUTO, &p);
    assert_int_equal(p.live, 1);
    assert_int_equal(p.start_segment, 112);
    assert_int_equal(p.last_segment, 120);
    /* on demand, forced: the same stream from its start */
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_ON_DEMAND, &p);
    assert_int_equal(p.live, 0);
    assert_int_equal(p.start_segment, 0);
}

static void test_ended_stream_played_from_the_start(void **state)
{
    (void)state;
    struct ccngst_meta m;
    struct ccnsrc_plan p;
    meta(&m, 0, 40, 33);
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_AUTO, &p);
    assert_int_equal(p.live, 0);
    assert_int_equal(p.start_segment, 0);
    /* live, forced: joined at its newest keyframe all the same */
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_LIVE, &p);
    assert_int_equal(p.live, 1);
    assert_int_equal(p.start_segment, 33);
}

static void test_duration_is_the_end_of_the_last_timed_buffer(void **state)
{
    (void)state;
    struct ccngst_meta m;
    struct ccnsrc_plan p;
    meta(&m, 0, 9, 8);
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_AUTO, &p);
    assert_true(p.duration == -1); /* no buffers listed: unknown */
    add_buf(&m, 1000, 40);
    add_buf(&m, 2000, 40);
    add_buf(&m, 1500, 40); /* out of order: the latest end still wins */
    add_buf(&m, 9000, -1); /* no duration: not counted */
    add_buf(&m, -1, 40);   /* no timestamp: not counted */
    ccnsrc_plan_from_meta(&m, CCNSRC_MODE_AUTO, &p);
    assert_true(p.duration == 2040);
}

static void test_probe_policy(void **state)
{
    (void)state;
    assert_true(ccnsrc_probe_may_retry(0));
    assert_true(ccnsrc_probe_may_retry(PROBE_ATTEMPTS - 1));
    assert_false(ccnsrc_probe_may_retry(PROBE_ATTEMPTS));
    /* overdue once PROBE_AFTER data segments asked for after it came */
    assert_false(ccnsrc_probe_overdue(100, 100 + PROBE_AFTER - 1));
    assert_true(ccnsrc_probe_overdue(100, 100 + PROBE_AFTER));
    /* the window: a few round trips, within [PROBE_MIN_MS, PROBE_MS] */
    assert_int_equal(ccnsrc_probe_window_ms(0.2), PROBE_MIN_MS);
    assert_int_equal(ccnsrc_probe_window_ms(30), PROBE_RTTS * 30);
    assert_int_equal(ccnsrc_probe_window_ms(10000), PROBE_MS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_stream_joined_at_its_newest_keyframe),
        cmocka_unit_test(test_ended_stream_played_from_the_start),
        cmocka_unit_test(test_duration_is_the_end_of_the_last_timed_buffer),
        cmocka_unit_test(test_probe_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
