// fio's number formatting and latency unit choice. Expected strings are
// taken from fio 3.33 output on the same values.
#include <gtest/gtest.h>

#include "stats/units.h"

namespace iobench {
namespace {

TEST(StatsUnitsTest, CountsLikeFioIops) {
  EXPECT_EQ(FormatNumber(82800, 4, false, NumUnit::kNone), "82.8k");
  EXPECT_EQ(FormatNumber(5461333, 4, false, NumUnit::kNone), "5461k");
  EXPECT_EQ(FormatNumber(153400, 4, false, NumUnit::kNone), "153k");
  EXPECT_EQ(FormatNumber(23200, 4, false, NumUnit::kNone), "23.2k");
  EXPECT_EQ(FormatNumber(4801, 4, false, NumUnit::kNone), "4801");
  EXPECT_EQ(FormatNumber(153, 4, false, NumUnit::kNone), "153");
  EXPECT_EQ(FormatNumber(0, 4, false, NumUnit::kNone), "0");
  EXPECT_EQ(FormatNumber(1234567, 4, false, NumUnit::kNone), "1235k");
  EXPECT_EQ(FormatNumber(12345678, 4, false, NumUnit::kNone), "12.3M");
  // Rounding that carries into a new digit keeps the decimals, as fio 3.33
  // prints it (`fio --bs=99960 --kb_base=1000` shows "100.0kB", `--bs=10237`
  // "10.00KiB"; a real run printed "(100.0MB/s)").
  EXPECT_EQ(FormatNumber(9999, 4, false, NumUnit::kNone), "9999");
  EXPECT_EQ(FormatNumber(9996000, 4, false, NumUnit::kNone), "9996k");
  EXPECT_EQ(FormatNumber(99960, 4, false, NumUnit::kNone), "100.0k");
  EXPECT_EQ(FormatNumber(99960, 4, false, NumUnit::kBytes), "100.0kB");
  EXPECT_EQ(FormatNumber(99999999, 4, false, NumUnit::kBytesPerSec), "100.0MB/s");
  EXPECT_EQ(FormatNumber(9998, 4, true, NumUnit::kBytes), "9998B");
  EXPECT_EQ(FormatNumber(10237, 4, true, NumUnit::kBytes), "10.00KiB");
  EXPECT_EQ(FormatNumber(9996, 4, false, NumUnit::kNone), "9996");
  EXPECT_EQ(FormatNumber(99949, 4, false, NumUnit::kNone), "99.9k");
}

TEST(StatsUnitsTest, BytesAndBandwidth) {
  EXPECT_EQ(FormatNumber(67108864, 4, true, NumUnit::kBytes), "64.0MiB");
  EXPECT_EQ(FormatNumber(67108864, 4, false, NumUnit::kBytes), "67.1MB");
  EXPECT_EQ(FormatNumber(1617ull << 20, 4, true, NumUnit::kBytes), "1617MiB");
  EXPECT_EQ(FormatNumber(1048576, 4, true, NumUnit::kBytes), "1024KiB");
  EXPECT_EQ(FormatNumber(1048576, 4, false, NumUnit::kBytes), "1049kB");
  EXPECT_EQ(FormatNumber(4096, 4, true, NumUnit::kBytes), "4096B");
  EXPECT_EQ(FormatNumber(65536, 4, true, NumUnit::kBytes), "64.0KiB");
  EXPECT_EQ(FormatNumber(22369621333ull, 4, true, NumUnit::kBytesPerSec), "20.8GiB/s");
  EXPECT_EQ(FormatNumber(22369621333ull, 4, false, NumUnit::kBytesPerSec), "22.4GB/s");
  // fio: "BW=90.6MiB/s (95.0MB/s)" for 181 MiB in 2001 ms.
  EXPECT_EQ(FormatBandwidthPair(95014042, 1024, 0), "90.6MiB/s (95.0MB/s)");
  EXPECT_EQ(FormatBandwidthPair(339000000, 1024, 0), "323MiB/s (339MB/s)");
  EXPECT_EQ(FormatBandwidthPair(339000000, 1000, 0), "339MB/s (323MiB/s)");
  EXPECT_EQ(FormatBandwidthPair(339000000, 1024, 1), "2586Mibit/s (2712Mbit/s)");
  EXPECT_EQ(FormatBandwidthPair(339000000, 1024, 8), "323MiB/s (339MB/s)") << "8: bytes, as fio";
  EXPECT_EQ(FormatBytesPair(378535936, 1024), "361MiB (379MB)");
}

TEST(StatsUnitsTest, LatencyMinMaxWidthSix) {
  EXPECT_EQ(FormatNumber(4552900, 6, false, NumUnit::kNone), "4552.9k");
  EXPECT_EQ(FormatNumber(12049000, 6, false, NumUnit::kNone), "12049k");
  EXPECT_EQ(FormatNumber(9313, 6, false, NumUnit::kNone), "9313");
}

TEST(StatsUnitsTest, LatencyUnitChoice) {
  // fio: "clat (nsec): min=811, max=12049k" — min too small for usec.
  ScaledLat s = ScaleLatency(811, 12049000, 4586.29, 190737.55);
  EXPECT_STREQ(s.unit, "nsec");
  EXPECT_EQ(s.min, 811u);
  // fio: "slat (usec): min=3, max=2487, avg= 5.02".
  s = ScaleLatency(3595, 2487000, 5020.0, 12280.0);
  EXPECT_STREQ(s.unit, "usec");
  EXPECT_EQ(s.min, 3u);
  EXPECT_EQ(s.max, 2487u);
  EXPECT_DOUBLE_EQ(s.mean, 5.02);
  // Small max stays in nsec even with a large min.
  EXPECT_STREQ(ScaleLatency(10519, 57976, 13462.14, 2609.65).unit, "nsec");
  s = ScaleLatency(3000000, 150000000, 5e6, 2e6);
  EXPECT_STREQ(s.unit, "msec");
  EXPECT_EQ(s.min, 3u);
  EXPECT_EQ(s.max, 150u);
  // fio's nsec_to_usec/nsec_to_msec also want the stddev above 1 us / 1 ms:
  // a flat run with one outlier stays a unit lower.
  s = ScaleLatency(3000000, 150000000, 5e6, 1e6);
  EXPECT_STREQ(s.unit, "usec");
  EXPECT_EQ(s.min, 3000u);
  EXPECT_STREQ(ScaleLatency(2500, 150000, 2600.0, 1000.0).unit, "nsec");
  EXPECT_STREQ(ScaleLatency(2500, 150000, 2600.0, 1000.5).unit, "usec");
}

TEST(StatsUnitsTest, PercentileScale) {
  PercentileScale p = ChoosePercentileScale(900, 11993088);
  EXPECT_STREQ(p.unit, "nsec");
  p = ChoosePercentileScale(82000, 3097000);
  EXPECT_STREQ(p.unit, "usec");
  EXPECT_EQ(p.steps, 1);
  EXPECT_EQ(ScalePercentileValue(81920, 1), 82u) << "rounded up, as fio";
  EXPECT_EQ(ScalePercentileValue(82000, 1), 82u);
  p = ChoosePercentileScale(2500000, 200000000);
  EXPECT_STREQ(p.unit, "msec");
  EXPECT_EQ(ScalePercentileValue(2500000, 2), 3u);
}

}  // namespace
}  // namespace iobench
