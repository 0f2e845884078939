/* Each forwarding strategy on its own, through the services of
 * fw/strategy.h implemented here as a recorder: which faces get the
 * Interest at once, which later and when, and what a strategy learns from
 * answers and timeouts under one prefix (its per-prefix state). */
#include "testutil.h"

#include <stdalign.h>
#include <string.h>

#include "fw/strategy.h"

#define MAXREC    32
#define RTE_LIMIT 160000

struct strategy_ctx {
    alignas(16) unsigned char state[STRATEGY_STATE_SIZE]; /* one prefix's memory */
    unsigned sent[MAXREC];                                /* faces sent to at once, in order */
    size_t nsent;
    struct {
        unsigned face;
        uint64_t delay;
    } sched[MAXREC]; /* faces scheduled, in order */
    size_t nsched;
    uint64_t timer; /* the last strategy_set_timer delay */
    int timer_set;
    unsigned refused; /* a face whose sends fail (0: none) */
    uint32_t rnd;
};

int strategy_send(struct strategy_ctx *ctx, unsigned faceid)
{
    if (faceid == ctx->refused) {
        return -1;
    }
    assert_true(ctx->nsent < MAXREC);
    ctx->sent[ctx->nsent++] = faceid;
    return 0;
}

void strategy_schedule(struct strategy_ctx *ctx, unsigned faceid, uint64_t delay)
{
    assert_true(ctx->nsched < MAXREC);
    ctx->sched[ctx->nsched].face = faceid;
    ctx->sched[ctx->nsched++].delay = delay;
}

void strategy_set_timer(struct strategy_ctx *ctx, uint64_t delay)
{
    ctx->timer = delay;
    ctx->timer_set = 1;
}

int strategy_was_sent(const struct strategy_ctx *ctx, unsigned faceid)
{
    for (size_t i = 0; i < ctx->nsent; i++) {
        if (ctx->sent[i] == faceid) {
            return 1;
        }
    }
    return 0;
}

void *strategy_state(struct strategy_ctx *ctx)
{
    return ctx->state;
}

uint64_t strategy_now(const struct strategy_ctx *ctx)
{
    (void)ctx;
    return 0;
}

uint32_t strategy_random(struct strategy_ctx *ctx)
{
    ctx->rnd = ctx->rnd * 1103515245u + 12345u;
    return ctx->rnd >> 8;
}

uint64_t strategy_rte_limit(const struct strategy_ctx *ctx)
{
    (void)ctx;
    return RTE_LIMIT;
}

/* A new pending Interest under the same prefix: what was sent is
 * forgotten, the prefix's state is kept. */
static void next_interest(struct strategy_ctx *ctx)
{
    ctx->nsent = ctx->nsched = 0;
    ctx->timer_set = 0;
}

static const unsigned FACES[] = {11, 12, 13};

static void test_parallel_sends_to_every_face_once(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    ctx.sent[ctx.nsent++] = 12; /* already sent there */
    strategy_parallel.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.nsent, 3);
    assert_int_equal(ctx.sent[1], 11);
    assert_int_equal(ctx.sent[2], 13);
    next_interest(&ctx);
    strategy_parallel.on_interest(&ctx, FACES, 3, 0); /* aggregated: nothing */
    assert_int_equal(ctx.nsent, 0);
    assert_null(strategy_parallel.on_timer);
}

static void test_loadsharing_rotates_and_moves_on_when_late(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    unsigned first[4];
    for (int i = 0; i < 4; i++) {
        next_interest(&ctx);
        strategy_loadsharing.on_interest(&ctx, FACES, 3, 1);
        assert_int_equal(ctx.nsent, 1);
        assert_true(ctx.timer_set);
        assert_int_equal(ctx.timer, RTE_LIMIT);
        first[i] = ctx.sent[0];
    }
    assert_int_equal(first[0], 11);
    assert_int_equal(first[1], 12);
    assert_int_equal(first[2], 13);
    assert_int_equal(first[3], 11);
    /* late: the next face in turn, never one already tried */
    strategy_loadsharing.on_timer(&ctx, FACES, 3);
    assert_int_equal(ctx.nsent, 2);
    assert_int_equal(ctx.sent[1], 12);
    /* a face that refuses is passed over */
    next_interest(&ctx);
    ctx.refused = 13;
    strategy_loadsharing.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.nsent, 1);
    assert_int_equal(ctx.sent[0], 11);
}

static void test_null_forwards_nothing(void **state)
{
    (void)state;
    assert_null(strategy_null.on_interest);
    assert_null(strategy_null.on_timer);
    assert_string_equal(strategy_null.name, "null");
}

static void test_default_without_history_spreads_the_faces(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.nsent, 0); /* nobody is known to answer: none at once */
    assert_int_equal(ctx.nsched, 3);
    assert_int_equal(ctx.sched[0].delay, 4000); /* the first after 4 ms */
    for (size_t i = 1; i < ctx.nsched; i++) {
        assert_true(ctx.sched[i].delay >= ctx.sched[i - 1].delay);
        assert_true(ctx.sched[i].delay <= 4000 + 2 * 75000);
    }
}

static void test_default_prefers_the_face_that_answered(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    strategy_default.on_satisfied(&ctx, 12, 8000);
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.nsent, 1);
    assert_int_equal(ctx.sent[0], 12);
    assert_int_equal(ctx.timer, 9000); /* 9/8 of its first round trip */
    assert_int_equal(ctx.nsched, 2);   /* the others later, after the prediction */
    for (size_t i = 0; i < ctx.nsched; i++) {
        assert_true(ctx.sched[i].face != 12);
        assert_true(ctx.sched[i].delay >= 9000);
    }
    /* a slower face answering does not take the choice */
    strategy_default.on_satisfied(&ctx, 13, 20000);
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.sent[0], 12);
    /* a faster one does, and the previous choice is tried first after it */
    strategy_default.on_satisfied(&ctx, 11, 1000);
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.sent[0], 11);
    assert_int_equal(ctx.sched[0].face, 12);
}

static void test_default_predicts_longer_after_a_timeout(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    strategy_default.on_satisfied(&ctx, 11, 8000);
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.timer, 9000);
    strategy_default.on_timer(&ctx, FACES, 3); /* late: grows by an eighth */
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.timer, 9000 + 9000 / 8);
    for (int i = 0; i < 100; i++) {
        strategy_default.on_timer(&ctx, FACES, 3);
    }
    next_interest(&ctx);
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    assert_int_equal(ctx.timer, RTE_LIMIT); /* never beyond the forwarder's limit */
}

static void test_default_probes_another_face_now_and_then(void **state)
{
    (void)state;
    struct strategy_ctx ctx = {0};
    strategy_default.on_interest(&ctx, FACES, 3, 1);
    strategy_default.on_satisfied(&ctx, 11, 1000);
    int probes = 0;
    for (int i = 0; i < 128; i++) {
        next_interest(&ctx);
        strategy_default.on_interest(&ctx, FACES, 3, 1);
        assert_int_equal(ctx.sent[0], 11);
        if (ctx.nsent == 2) {
            assert_true(ctx.sent[1] == 12 || ctx.sent[1] == 13);
            probes++;
        }
    }
    assert_int_equal(probes, 2); /* one Interest in 64 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_sends_to_every_face_once),
        cmocka_unit_test(test_loadsharing_rotates_and_moves_on_when_late),
        cmocka_unit_test(test_null_forwards_nothing),
        cmocka_unit_test(test_default_without_history_spreads_the_faces),
        cmocka_unit_test(test_default_prefers_the_face_that_answered),
        cmocka_unit_test(test_default_predicts_longer_after_a_timeout),
        cmocka_unit_test(test_default_probes_another_face_now_and_then),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
