#include "iobench/histogram.h"

#include <gtest/gtest.h>

namespace iobench {
namespace {

TEST(HistogramTest, IndexRoundTripWithinBound) {
  for (uint64_t v = 1; v < (1ull << 34); v = v * 3 / 2 + 1) {
    const unsigned idx = Histogram::ValueToIndex(v);
    const double rep = static_cast<double>(Histogram::IndexToValue(idx));
    EXPECT_LE(std::abs(rep - static_cast<double>(v)) / static_cast<double>(v), 1.0 / 64)
        << "value " << v;
  }
}

TEST(HistogramTest, SmallValuesAreExact) {
  for (uint64_t v = 0; v < 128; ++v)
    EXPECT_EQ(Histogram::IndexToValue(Histogram::ValueToIndex(v)), v);
}

}  // namespace
}  // namespace iobench
