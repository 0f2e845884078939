/* Per-face counts: adding and taking agree with a plain array under many
 * faces and random order (so growth and removal by shifting keep every
 * face findable), and counts never go below 0. */
#include "testutil.h"

#include "table/facecount.h"

#include <stdlib.h>

#define FACES 300

static void test_against_array(void **state)
{
    (void)state;
    struct facecount fc = FACECOUNT_INIT;
    static unsigned want[FACES];
    assert_int_equal(facecount_get(&fc, 7), 0);
    facecount_sub(&fc, 7); /* nothing to take */
    srand(12345);
    for (int step = 0; step < 200000; step++) {
        /* Ids spread like slot|generation ones, many sharing low bits. */
        unsigned k = (unsigned)rand() % FACES;
        unsigned id = (k << 18) | (k & 7);
        if (rand() % 3 != 0) {
            assert_int_equal(facecount_add(&fc, id), 0);
            want[k]++;
        } else {
            facecount_sub(&fc, id);
            want[k] -= want[k] > 0;
        }
        if (step % 10007 == 0) {
            size_t faces = 0;
            for (unsigned j = 0; j < FACES; j++) {
                assert_int_equal(facecount_get(&fc, (j << 18) | (j & 7)), want[j]);
                faces += want[j] > 0;
            }
            assert_int_equal(facecount_faces(&fc), faces);
        }
    }
    /* Emptied one by one, the table holds nothing. */
    for (unsigned j = 0; j < FACES; j++) {
        while (want[j] > 0) {
            facecount_sub(&fc, (j << 18) | (j & 7));
            want[j]--;
        }
        assert_int_equal(facecount_get(&fc, (j << 18) | (j & 7)), 0);
    }
    assert_int_equal(facecount_faces(&fc), 0);
    facecount_free(&fc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
