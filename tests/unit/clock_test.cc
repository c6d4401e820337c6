#include "iobench/clock.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace iobench {
namespace {

// The TSC path must agree with CLOCK_MONOTONIC: after calibration, both
// clocks advance by the same amount over a busy 20 ms interval (to 0.1 %).
TEST(ClockTest, TscAgreesWithMonotonic) {
  if (InitClock(ClockSource::kTsc) != ClockSource::kTsc)
    GTEST_SKIP() << "the kernel does not use the TSC as its clocksource here";
  const uint64_t n0 = MonotonicNs(), t0 = NowNs();
  while (MonotonicNs() - n0 < 20000000) {
  }
  const uint64_t n1 = MonotonicNs(), t1 = NowNs();
  const double dn = static_cast<double>(n1 - n0), dt = static_cast<double>(t1 - t0);
  EXPECT_NEAR(dt / dn, 1.0, 1e-3);
  EXPECT_LT(std::llabs(static_cast<long long>(t1) - static_cast<long long>(n1)), 100000);
  EXPECT_STREQ(ClockSourceName(), "tsc");
}

TEST(ClockTest, ClockGettimeFallback) {
  EXPECT_EQ(InitClock(ClockSource::kClockGettime), ClockSource::kClockGettime);
  const uint64_t a = NowNs(), b = NowNs();
  EXPECT_LE(a, b);
  EXPECT_STREQ(ClockSourceName(), "clock_gettime");
  InitClock();
}

TEST(ClockTest, Monotonic) {
  InitClock();
  uint64_t prev = NowNs();
  for (int i = 0; i < 100000; ++i) {
    const uint64_t now = NowNs();
    ASSERT_GE(now, prev);
    prev = now;
  }
}

}  // namespace
}  // namespace iobench
