/* Shared by the unit tests: UTest() is Criterion's Test() that also fails on memory leaks when
 * built with AddressSanitizer.
 *
 * Criterion ignores how a worker process ends once its test has finished (and, with --tap,
 * discards the worker's stderr), so LeakSanitizer's report at exit would never fail a test.
 * UTest therefore runs the body and then asks LeakSanitizer for a check inside the test.
 */
#ifndef UPK_UNIT_H
#define UPK_UNIT_H

#include <criterion/criterion.h>

#if defined(__SANITIZE_ADDRESS__)
#define UPK_HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UPK_HAVE_LSAN 1
#endif
#endif

#ifdef UPK_HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#define UPK_CHECK_LEAKS()                                                                          \
  cr_assert_eq(__lsan_do_recoverable_leak_check(), 0,                                              \
               "memory leaked (run this test without --tap to see LeakSanitizer's report)")
#else
#define UPK_CHECK_LEAKS() ((void)0)
#endif

#define UTest(suite, name, ...)                                                                    \
  static void suite##_##name##_body(void);                                                         \
  Test(suite, name, ##__VA_ARGS__) {                                                               \
    suite##_##name##_body();                                                                       \
    UPK_CHECK_LEAKS();                                                                             \
  }                                                                                                \
  static void suite##_##name##_body(void)

#endif
