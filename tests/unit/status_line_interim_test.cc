// Interim reports: interval differences of cumulative snapshots, JSON Lines,
// SIGUSR1 and the report schedule (injected times, a real signal).
#include <gtest/gtest.h>
#include <signal.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "report/interim.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::kSec;

TEST(InterimDiff, HistogramCountsSubtractExactly) {
  Histogram a, b;
  for (uint64_t v : {5, 100, 1000, 100000}) a.Add(v);
  b = a;
  for (uint64_t v : {100, 1000000, 1000000}) b.Add(v);
  const Histogram d = Diff(b, a);
  uint64_t total = 0;
  for (unsigned i = 0; i < Histogram::kNr; ++i) total += d.counts[i];
  EXPECT_EQ(total, 3u);
  EXPECT_EQ(d.counts[Histogram::ValueToIndex(100)], 1u);
  EXPECT_EQ(d.counts[Histogram::ValueToIndex(1000000)], 2u);
  EXPECT_EQ(d.counts[Histogram::ValueToIndex(5)], 0u);
}

TEST(InterimDiff, LatStatMeanStddevExactMinMaxFromHistogram) {
  LatStat earlier;
  Histogram eh;
  for (uint64_t v : {100, 200}) {
    earlier.Add(v);
    eh.Add(v);
  }
  LatStat later = earlier;
  Histogram lh = eh;
  for (uint64_t v : {15000, 30000}) {
    later.Add(v);
    lh.Add(v);
  }
  const Histogram ih = Diff(lh, eh);
  const LatStat d = Diff(later, earlier, ih);
  EXPECT_EQ(d.n, 2u);
  EXPECT_DOUBLE_EQ(d.Mean(), 22500.0);
  EXPECT_NEAR(d.Stddev(), 10606.6017, 1e-3);
  EXPECT_EQ(d.max, 30000u);  // the run's max moved in this interval: exact
  // The min did not move (100 stays the run's): the interval's lowest bucket.
  EXPECT_NEAR(static_cast<double>(d.min), 15000.0, 15000.0 * 0.0078);
  // An empty interval has no samples.
  EXPECT_EQ(Diff(later, later, Diff(lh, lh)).n, 0u);
}

// cmdprio's clat per priority: an interval has each priority's own change;
// a priority first seen in the interval counts from zero.
TEST(InterimDiff, PriosSubtractByValue) {
  DirStats earlier;
  earlier.prio_split = true;
  PrioStat& e0 = earlier.prios.emplace_back();
  e0.value = 0x4007;
  e0.lat.Add(100);
  e0.hist.Add(100);
  DirStats later = earlier;
  later.prios[0].lat.Add(300);
  later.prios[0].hist.Add(300);
  PrioStat& l1 = later.prios.emplace_back();
  l1.value = 0x2001;
  l1.lat.Add(500);
  l1.hist.Add(500);
  const DirStats d = Diff(later, earlier);
  EXPECT_TRUE(d.prio_split);
  ASSERT_EQ(d.prios.size(), 2u);
  EXPECT_EQ(d.prios[0].value, 0x4007);
  EXPECT_EQ(d.prios[0].lat.n, 1u);
  EXPECT_DOUBLE_EQ(d.prios[0].lat.Mean(), 300.0);
  EXPECT_EQ(d.prios[0].hist.counts[Histogram::ValueToIndex(100)], 0u);
  EXPECT_EQ(d.prios[1].value, 0x2001);
  EXPECT_EQ(d.prios[1].lat.n, 1u);
  EXPECT_EQ(d.prios[1].lat.max, 500u);
}

// A job's cumulative stats after `ios` I/Os of a known pattern per direction.
void AddIos(ThreadStats& t, Ddir dir, uint64_t n, uint64_t seed) {
  DirStats& d = t.dir[static_cast<int>(dir)];
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t lat = 1000 + (seed * 7919 + i * 104729) % 900000;
    ++d.ios;
    d.bytes += 4096;
    d.clat.Add(lat);
    d.clat_hist.Add(lat);
    d.lat.Add(lat + 50);
    d.lat_hist.Add(lat + 50);
    ++t.issued[static_cast<int>(dir)];
  }
  d.runtime_ns += kSec;
}

RunResult Snapshot(const ThreadStats& a, const ThreadStats& b, uint64_t t_ms) {
  RunResult r;
  GroupResult g;
  g.id = 0;
  for (int j = 0; j < 2; ++j) {
    JobResult job;
    job.name = "mix";
    job.jobnum = j;
    job.stats = j == 0 ? a : b;
    job.elapsed_ms = t_ms;
    job.runtime_ms = t_ms;
    g.jobs.push_back(std::move(job));
  }
  r.groups.push_back(std::move(g));
  DiskUtil disk;
  disk.name = "nvme0n1";
  disk.ios[0] = t_ms * 3;
  disk.io_ticks = t_ms / 2;
  disk.util = 50.0;
  r.disks.push_back(disk);
  return r;
}

// The sum of the per-interval numbers equals the final cumulative ones.
TEST(InterimReporterTest, IntervalsSumToTheFinalCountsExactly) {
  ThreadStats a, b;
  InterimReporter rep(StatusIntervalMode::kInterval);
  uint64_t sum_ios[2][kNumDdirs] = {}, sum_bytes = 0, sum_runtime_ms = 0, sum_hist = 0;
  uint64_t sum_disk_ios = 0;
  for (uint64_t k = 1; k <= 7; ++k) {
    AddIos(a, Ddir::kRead, 1000 + k * 37, k);
    AddIos(a, Ddir::kWrite, 10 * k, k + 100);
    AddIos(b, Ddir::kRead, 333 * k, k + 200);
    auto r = rep.Next(Snapshot(a, b, k * 1000));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const RunResult& iv = r.value();
    for (int j = 0; j < 2; ++j) {
      const ThreadStats& s = iv.groups[0].jobs[j].stats;
      for (int d = 0; d < kNumDdirs; ++d) {
        sum_ios[j][d] += s.dir[d].ios;
        sum_bytes += s.dir[d].bytes;
        for (unsigned i = 0; i < Histogram::kNr; ++i) sum_hist += s.dir[d].clat_hist.counts[i];
        EXPECT_EQ(s.dir[d].clat.n, s.dir[d].ios);
      }
      sum_runtime_ms += iv.groups[0].jobs[j].runtime_ms;
    }
    EXPECT_EQ(iv.groups[0].jobs[0].elapsed_ms, 1000u);  // each interval is 1 s
    sum_disk_ios += iv.disks[0].ios[0];
    EXPECT_DOUBLE_EQ(iv.disks[0].util, 50.0);
  }
  uint64_t final_bytes = 0, final_hist = 0;
  for (int d = 0; d < kNumDdirs; ++d) {
    EXPECT_EQ(sum_ios[0][d], a.dir[d].ios) << d;
    EXPECT_EQ(sum_ios[1][d], b.dir[d].ios) << d;
    final_bytes += a.dir[d].bytes + b.dir[d].bytes;
    for (unsigned i = 0; i < Histogram::kNr; ++i)
      final_hist += a.dir[d].clat_hist.counts[i] + b.dir[d].clat_hist.counts[i];
  }
  EXPECT_EQ(sum_bytes, final_bytes);
  EXPECT_EQ(sum_hist, final_hist);
  EXPECT_EQ(sum_runtime_ms, 2u * 7000);
  EXPECT_EQ(sum_disk_ios, 7000u * 3);
}

// Reports print a direction's runtime in whole (truncated) milliseconds:
// the intervals' must add up to the final one even when each interval is
// 1000.6 ms (three of them truncated on their own made 3000, not 3001).
TEST(InterimReporterTest, DirectionRuntimesAddUpInWholeMilliseconds) {
  ThreadStats a, b;
  InterimReporter rep(StatusIntervalMode::kInterval);
  uint64_t sum_ms = 0;
  for (uint64_t k = 1; k <= 3; ++k) {
    a.dir[0].runtime_ns = k * 1000600000ull;
    auto r = rep.Next(Snapshot(a, b, k * 1000));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    sum_ms += r->groups[0].jobs[0].stats.dir[0].runtime_ns / 1000000;
  }
  EXPECT_EQ(sum_ms, a.dir[0].runtime_ns / 1000000);
}

TEST(InterimReporterTest, CumulativeModeIsTheSnapshot) {
  ThreadStats a, b;
  AddIos(a, Ddir::kRead, 10, 1);
  InterimReporter rep(StatusIntervalMode::kCumulative);
  ASSERT_TRUE(rep.Next(Snapshot(a, b, 1000)).ok());
  AddIos(a, Ddir::kRead, 5, 2);
  auto r = rep.Next(Snapshot(a, b, 2000));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, 15u);
}

TEST(InterimReporterTest, MismatchedSnapshotsAreAnError) {
  ThreadStats a, b;
  RunResult one = Snapshot(a, b, 1000);
  RunResult two = Snapshot(a, b, 2000);
  two.groups[0].jobs[1].name = "other";
  auto r = IntervalResult(two, one);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "interval report: job 1 of group 0 is 'mix' then 'other'");
  two.groups.clear();
  EXPECT_EQ(IntervalResult(two, one).status().message(),
            "interval report: snapshots have 1 and 0 groups");
}

TEST(InterimReporterTest, ParseMode) {
  EXPECT_EQ(ParseStatusIntervalMode("interval").value(), StatusIntervalMode::kInterval);
  EXPECT_EQ(ParseStatusIntervalMode("cumulative").value(), StatusIntervalMode::kCumulative);
  EXPECT_EQ(ParseStatusIntervalMode("delta").status().message(),
            "--status-interval-mode: 'delta' is not one of cumulative, interval");
}

TEST(InterimJson, OneDocumentOneLine) {
  const std::string pretty =
      "{\n  \"fio version\" : \"iobench-0.1\",\n  \"jobs\" : [\n    {\n      \"jobname\" : "
      "\"a b\",\n      \"read\" : { \"iops\" : 1.5 }\n    }\n  ]\n}\n";
  auto line = JsonToLine(pretty);
  ASSERT_TRUE(line.ok()) << line.status().ToString();
  EXPECT_EQ(
      *line,
      "{\"fio version\":\"iobench-0.1\",\"jobs\":[{\"jobname\":\"a b\",\"read\":{\"iops\":1.5}"
      "}]}\n");
  EXPECT_EQ(nlohmann::json::parse(*line), nlohmann::json::parse(pretty));
  EXPECT_FALSE(JsonToLine("{\"a\": ").ok());
  // Numbers keep the report's text (6 decimals, as the final report): a
  // re-dump printed 800.801270 as 800.80126953125. Blanks and escapes inside
  // strings stay.
  auto nums = JsonToLine(
      "{\n  \"bw_mean\" : 800.801270,\n  \"s\" : \"a \\\" b\\\\\",\n  \"n\" : 0.000000\n}\n");
  ASSERT_TRUE(nums.ok());
  EXPECT_EQ(*nums, "{\"bw_mean\":800.801270,\"s\":\"a \\\" b\\\\\",\"n\":0.000000}\n");
}

TEST(InterimSignal, Sigusr1SetsTheFlagOnce) {
  ASSERT_TRUE(InstallSigusr1Handler().ok());
  (void)TakeSigusr1();
  EXPECT_FALSE(TakeSigusr1());
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_TRUE(TakeSigusr1());
  EXPECT_FALSE(TakeSigusr1());
}

TEST(InterimSignal, ScheduleEveryIntervalAndOnSignal) {
  ASSERT_TRUE(InstallSigusr1Handler().ok());
  (void)TakeSigusr1();
  InterimSchedule s(kSec);
  EXPECT_FALSE(s.Due(kSec / 2));
  EXPECT_TRUE(s.Due(kSec));
  EXPECT_FALSE(s.Due(kSec + kSec / 2));
  EXPECT_TRUE(s.Due(3 * kSec + 700000000));   // late poll: one report...
  EXPECT_FALSE(s.Due(3 * kSec + 900000000));  // ...not a burst
  EXPECT_TRUE(s.Due(4 * kSec));
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_TRUE(s.Due(4 * kSec + 1));
  EXPECT_FALSE(s.Due(4 * kSec + 2));
  InterimSchedule signal_only(0);
  EXPECT_FALSE(signal_only.Due(100 * kSec));
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_TRUE(signal_only.Due(100 * kSec));
}

}  // namespace
}  // namespace iobench
