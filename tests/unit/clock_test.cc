#include "iobench/clock.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace iobench {
namespace {

// Options in ms or us become ns saturating: a duration past 64 bits of ns
// is "never", not the short one a wrapped product gives (2^58 ms is 0 mod
// 2^64 ns; 18446744073710 ms is 448384 ns).
TEST(ClockTest, OptionDurationsSaturate) {
  EXPECT_EQ(MsToNs(500), 500000000u);
  EXPECT_EQ(UsToNs(7), 7000u);
  EXPECT_EQ(MsToNs(18446744073709), 18446744073709000000u);  // the last ms that fits
  EXPECT_EQ(MsToNs(18446744073710), UINT64_MAX);
  EXPECT_EQ(MsToNs(uint64_t{1} << 58), UINT64_MAX);
  EXPECT_EQ(UsToNs(18446744073709552), UINT64_MAX);
  EXPECT_EQ(SaturatingAddNs(UINT64_MAX - 5, 5), UINT64_MAX);
  EXPECT_EQ(SaturatingAddNs(UINT64_MAX - 5, 6), UINT64_MAX);
  EXPECT_EQ(SaturatingAddNs(10, 6), 16u);
}

// (CLOCK_MONOTONIC, NowNs()) at one moment: the NowNs() read between two
// monotonic reads at most 20 us apart (a preemption between them is retried).
void Pair(uint64_t* n, uint64_t* t) {
  for (;;) {
    const uint64_t a = MonotonicNs();
    const uint64_t x = NowNs();
    const uint64_t b = MonotonicNs();
    if (b - a < 20000) {
      *n = a + (b - a) / 2;
      *t = x;
      return;
    }
  }
}

// The TSC path must agree with CLOCK_MONOTONIC: after calibration, both
// clocks advance by the same amount over 100 ms (to 0.1 %), and read the
// same time (to 100 us).
TEST(ClockTest, TscAgreesWithMonotonic) {
  if (InitClock(ClockSource::kTsc) != ClockSource::kTsc)
    GTEST_SKIP() << "the CPU does not report an invariant TSC (constant_tsc, nonstop_tsc)";
  uint64_t n0 = 0, t0 = 0, n1 = 0, t1 = 0;
  Pair(&n0, &t0);
  while (MonotonicNs() - n0 < 100000000) {
  }
  Pair(&n1, &t1);
  const double dn = static_cast<double>(n1 - n0), dt = static_cast<double>(t1 - t0);
  EXPECT_NEAR(dt / dn, 1.0, 1e-3);
  EXPECT_LT(std::llabs(static_cast<long long>(t1) - static_cast<long long>(n1)), 100000);
  EXPECT_STREQ(ClockSourceName(), "tsc");
  InitClock();
}

// clocksource=cpu, named in a job, takes the TSC whenever it is invariant
// (as fio 3.33); by default the kernel's clocksource must be the TSC too.
TEST(ClockTest, ByNameTheTscNeedsOnlyToBeInvariant) {
  EXPECT_EQ(InitClock(ClockSource::kTsc) == ClockSource::kTsc, TscInvariant());
  InitClock();
}

TEST(ClockTest, ByDefaultTheKernelsClocksourceDecides) {
  EXPECT_EQ(InitClock() == ClockSource::kTsc, KernelClockSource() == "tsc" && TscInvariant())
      << "kernel clocksource " << KernelClockSource();
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
