// Unit tests for the random sources under the I/O pattern (run/random.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "run/random.h"

namespace iobench::prng {
namespace {

TEST(PatternRandomTest, TausSameSeedSameStreamDifferentSeedDifferent) {
  Taus88 a(42), b(42), c(43);
  Taus258 x(42), y(42), z(43);
  int same_ac = 0, same_xz = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint32_t va = a.Next(), vc = c.Next();
    EXPECT_EQ(va, b.Next());
    same_ac += va == vc;
    const uint64_t vx = x.Next(), vz = z.Next();
    EXPECT_EQ(vx, y.Next());
    same_xz += vx == vz;
  }
  EXPECT_LT(same_ac, 3);
  EXPECT_EQ(same_xz, 0);
}

TEST(PatternRandomTest, UniformBelowStaysInRangeAndIsFlat) {
  for (bool wide : {false, true}) {
    Uniform u;
    u.Seed(7, wide);
    std::vector<int> hist(10, 0);
    for (int i = 0; i < 100000; ++i) {
      const uint64_t v = u.Below(10);
      ASSERT_LT(v, 10u);
      ++hist[v];
    }
    for (int h : hist) EXPECT_NEAR(h, 10000, 500) << "wide=" << wide;
    for (int i = 0; i < 1000; ++i) ASSERT_LT(u.Below(5'000'000'000ULL), 5'000'000'000ULL);
    for (int i = 0; i < 1000; ++i) {
      const double d = u.Unit();
      ASSERT_GE(d, 0.0);
      ASSERT_LT(d, 1.0);
      ASSERT_GT(u.UnitNonZero(), 0.0);
    }
  }
}

// Every width's taps give a register that runs through all 2^w - 1 values.
TEST(PatternRandomTest, LfsrTapsAreMaximalLengthForSmallWidths) {
  for (int w = 2; w <= 20; ++w) {
    const uint64_t taps = Lfsr::TapsForWidth(w);
    ASSERT_NE(taps & (1ULL << (w - 1)), 0u) << "width " << w;
    ASSERT_EQ(taps >> w, 0u) << "width " << w;
    uint64_t s = 1, period = 0;
    do {
      s = (s >> 1) ^ ((0 - (s & 1)) & taps);
      ++period;
    } while (s != 1 && period <= (1ULL << w));
    EXPECT_EQ(period, (1ULL << w) - 1) << "width " << w;
  }
  for (int w = 21; w <= 64; ++w) {
    const uint64_t taps = Lfsr::TapsForWidth(w);
    EXPECT_NE(taps & (1ULL << (w - 1)), 0u) << "width " << w;
    if (w < 64) {
      EXPECT_EQ(taps >> w, 0u) << "width " << w;
    }
  }
}

TEST(PatternRandomTest, LfsrVisitsEveryValueOncePerRun) {
  for (uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 8ULL, 1000ULL, 12345ULL, 65536ULL}) {
    Lfsr l;
    l.Init(n, 99);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<uint8_t> seen(n, 0);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = l.Next();
        ASSERT_LT(v, n);
        ASSERT_EQ(seen[v]++, 0) << "n=" << n << " value " << v << " twice in pass " << pass;
      }
    }
  }
}

uint64_t BruteFindFree(const std::vector<bool>& used, uint64_t from) {
  const uint64_t n = used.size();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t b = (from + i) % n;
    if (!used[b]) return b;
  }
  return n;
}

TEST(PatternRandomTest, BlockMapFindFreeMatchesBruteForce) {
  for (uint64_t n : {1ULL, 63ULL, 64ULL, 65ULL, 4096ULL, 4097ULL, 262144ULL, 300001ULL}) {
    BlockMap m;
    m.Init(n);
    std::vector<bool> used(n, false);
    Uniform u;
    u.Seed(n, false);
    uint64_t set = 0;
    // Fill to about 99.9%, checking lookups along the way.
    while (set < n - n / 1000) {
      const uint64_t from = u.Below(n);
      const uint64_t got = m.FindFree(from);
      if (set % 97 == 0 || n < 5000) {
        ASSERT_EQ(got, BruteFindFree(used, from)) << "n=" << n;
      }
      ASSERT_FALSE(m.IsSet(got));
      ASSERT_TRUE(m.Set(got));
      ASSERT_FALSE(m.Set(got));
      used[got] = true;
      ++set;
      ASSERT_EQ(m.free_count(), n - set);
    }
    for (int i = 0; i < 200 && m.free_count() > 0; ++i) {
      const uint64_t from = u.Below(n);
      ASSERT_EQ(m.FindFree(from), BruteFindFree(used, from)) << "n=" << n;
    }
    m.Clear();
    EXPECT_EQ(m.free_count(), n);
    EXPECT_EQ(m.FindFree(n - 1), n - 1);
  }
}

TEST(PatternRandomTest, BlockMapFreeRun) {
  BlockMap m;
  m.Init(200);
  ASSERT_TRUE(m.Set(70));
  EXPECT_EQ(m.FreeRun(0, 1000), 70u);
  EXPECT_EQ(m.FreeRun(60, 5), 5u);
  EXPECT_EQ(m.FreeRun(70, 5), 0u);
  EXPECT_EQ(m.FreeRun(71, 1000), 129u);  // stops at the end of the map
  EXPECT_EQ(m.FreeRun(199, 4), 1u);
}

// The sampled zipf frequencies match the exact probabilities 1/r^theta / H.
// fio accepts any theta but 1.0: 0 is uniform, a negative theta favours the
// high ranks.
TEST(PatternRandomTest, ZipfMatchesExactProbabilities) {
  for (double theta : {0.8, 1.0, 1.2, 0.0, -1.0}) {
    const uint64_t n = 200000;
    Zipf z;
    z.Init(theta, n);
    double h = 0;
    for (uint64_t r = 1; r <= n; ++r) h += std::pow(static_cast<double>(r), -theta);
    Uniform u;
    u.Seed(5, true);
    const int samples = 2'000'000;
    std::vector<uint32_t> count(n, 0);
    for (int i = 0; i < samples; ++i) {
      const uint64_t r = z.Rank(u.Unit());
      ASSERT_LT(r, n);
      ++count[r];
    }
    for (uint64_t r = 0; r < 5; ++r) {
      const double p = std::pow(static_cast<double>(r + 1), -theta) / h;
      EXPECT_NEAR(count[r] / double(samples), p, 4 * std::sqrt(p / samples) + 1e-4)
          << "theta " << theta << " rank " << r;
    }
    // Shares of the head (exact table) and of bands in the tail (integral).
    for (auto [lo, hi] : {std::pair<uint64_t, uint64_t>{0, 1024}, {1024, 10000}, {10000, n}}) {
      double p = 0, got = 0;
      for (uint64_t r = lo; r < hi; ++r) {
        p += std::pow(static_cast<double>(r + 1), -theta) / h;
        got += count[r];
      }
      EXPECT_NEAR(got / samples, p, 0.003) << "theta " << theta << " ranks " << lo << "-" << hi;
    }
  }
}

// The extremes the job-file parser allows (-10 and 100) on a 2^40-block
// file: every draw is a valid rank and the math stays finite.
TEST(PatternRandomTest, ZipfExtremeThetasStayInRange) {
  for (double theta : {-10.0, 100.0}) {
    const uint64_t n = uint64_t{1} << 40;
    Zipf z;
    z.Init(theta, n);
    Uniform u;
    u.Seed(9, true);
    uint64_t hi = 0, low_half = 0;
    for (int i = 0; i < 100000; ++i) {
      const uint64_t r = z.Rank(u.Unit());
      ASSERT_LT(r, n) << "theta " << theta;
      hi = std::max(hi, r);
      low_half += r < n / 2;
    }
    if (theta > 0) {
      EXPECT_EQ(hi, 0u);  // 1/r^100: rank 0 holds all but ~1e-30 of the mass
    } else {
      // r^10: the lower half holds 2^-11 of the mass, 48.8 of 100,000 draws
      // (standard deviation 7).
      EXPECT_GT(low_half, 20u);
      EXPECT_LT(low_half, 85u);
    }
  }
}

}  // namespace
}  // namespace iobench::prng
