/* Assertions for the suites' hot loops. Check records the place of every ck_assert through a
 * pipe to its parent (a system call each), so a loop asserting on every neuron of thousands of
 * samples spends most of its time in write(2) (check_bound: 31.6 s against 2.3 s, check_refine:
 * 42 s against 9 s). These test with `if` and fail through ck_abort_msg, which reports the same
 * place and message. */
#ifndef VFY_TEST_REQUIRE_H
#define VFY_TEST_REQUIRE_H

#include <check.h>

#define REQUIRE_MSG(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)
#define REQUIRE(cond) REQUIRE_MSG(cond, "Assertion '%s' failed", #cond)

#endif
