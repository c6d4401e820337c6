// unified_rw_reporting (none / mixed / both), stats=0 and significant_figures
// in the normal, terse and JSON reports: where fio 3.33 prints the "mixed"
// direction, and that its figures are the directions' sums.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "iobench/report.h"
#include "report/fio_report.h"
#include "report_testdata.h"
#include "stats/summary.h"

namespace iobench {
namespace {

using U = JobSpec::UnifiedRw;

// One job: 4000 reads and 3900 writes of 4 KiB over 2001 ms (report_testdata.h).
RunResult OneJob(U mode, bool group_reporting = false, uint32_t numjobs = 1) {
  RunResult run = testdata::MakeRun(group_reporting, numjobs);
  for (auto& j : run.groups[0].jobs) j.spec.unified_rw_reporting = mode;
  return run;
}

std::string NormalOf(const RunResult& run) {
  std::ostringstream out;
  EXPECT_TRUE(WriteNormal(run, ReportOptions{}, out).ok());
  return out.str();
}

std::string TerseOf(const RunResult& run, int version) {
  ReportOptions o;
  o.terse_version = version;
  std::ostringstream out;
  EXPECT_TRUE(WriteTerse(run, o, out).ok());
  return out.str();
}

// Lines that start with `prefix`, in order.
std::vector<std::string> LinesStarting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

size_t FieldCount(const std::string& line) {
  size_t n = 1;
  for (char c : line) n += c == ';';
  return n;
}

TEST(UnifiedRwReportTest, MixedSumsTheDirectionsIntoOne) {
  const RunResult run = OneJob(U::kMixed);
  const auto records = RecordsForGroup(run.groups[0]);
  ASSERT_EQ(records.size(), 1u);
  ASSERT_NE(records[0].mixed, nullptr);
  const DirStats& m = *records[0].mixed;
  EXPECT_EQ(m.ios, 7900u);
  EXPECT_EQ(m.bytes, 7900u * 4096);
  EXPECT_EQ(m.clat.n, 7900u);
  EXPECT_EQ(HistogramTotal(m.clat_hist), 7900u);
  EXPECT_EQ(m.runtime_ns, 2001000000u);
  // The windows' bandwidths add up: min, max and mean are the sums of the
  // directions', the sample counts too (fio: samples=6 for 3 + 3 windows).
  const SampleStat& r = records[0].bw[0];
  const SampleStat& w = records[0].bw[1];
  EXPECT_EQ(records[0].mixed_bw.min, r.min + w.min);
  EXPECT_EQ(records[0].mixed_bw.max, r.max + w.max);
  EXPECT_DOUBLE_EQ(records[0].mixed_bw.mean, r.mean + w.mean);
  EXPECT_EQ(records[0].mixed_bw.samples, 8u);
  EXPECT_EQ(records[0].mixed_iops.samples, 8u);
}

TEST(UnifiedRwReportTest, NoneHasNoMixedRecord) {
  const RunResult run = OneJob(U::kNone);
  const auto records = RecordsForGroup(run.groups[0]);
  EXPECT_EQ(records[0].mixed, nullptr);
  const GroupTotals t = ComputeGroupTotals(run.groups[0], records);
  EXPECT_EQ(t.max_run_ms[kMixedDdir], 0u);
  EXPECT_EQ(ReportedDirs(records[0], t).size(), 3u);
}

TEST(UnifiedRwReportTest, GroupMixedSumsJobsWithoutTheirOwnMixed) {
  // [a] unified_rw_reporting=both, [b] none, one group: fio's MIXED line
  // sums both jobs' I/O; iobench's held a's alone.
  RunResult run = testdata::MakeRun(/*group_reporting=*/false, 2);
  run.groups[0].jobs[0].spec.unified_rw_reporting = U::kBoth;
  const auto records = RecordsForGroup(run.groups[0]);
  ASSERT_EQ(records.size(), 2u);
  ASSERT_EQ(records[1].mixed, nullptr);
  const GroupTotals t = ComputeGroupTotals(run.groups[0], records);
  EXPECT_EQ(t.io_bytes[kMixedDdir], 2 * 7900u * 4096);
  EXPECT_EQ(t.io_bytes[kMixedDdir], t.io_bytes[0] + t.io_bytes[1]);
  EXPECT_EQ(t.agg_bw[kMixedDdir], t.agg_bw[0] + t.agg_bw[1]);
  const std::string o = NormalOf(run);
  const auto mixed = LinesStarting(o, "  MIXED: ");
  ASSERT_EQ(mixed.size(), 1u) << o;
  EXPECT_NE(mixed[0].find("io=61.7MiB (64.7MB)"), std::string::npos) << mixed[0];
}

TEST(UnifiedRwReportTest, NormalMixedPrintsOnlyTheMixedDirection) {
  const std::string o = NormalOf(OneJob(U::kMixed));
  // 7900 I/Os in 2001 ms; 32,358,400 bytes.
  EXPECT_EQ(
      LinesStarting(o, "  mixed: "),
      std::vector<std::string>{"  mixed: IOPS=3948, BW=15.4MiB/s (16.2MB/s)(30.9MiB/2001msec)"});
  EXPECT_TRUE(LinesStarting(o, "  read: ").empty()) << o;
  EXPECT_TRUE(LinesStarting(o, "  write: ").empty()) << o;
  EXPECT_EQ(
      LinesStarting(o, "     issued rwts: "),
      std::vector<std::string>{"     issued rwts: total=7900,0,0,0 short=0,0,0,0 dropped=0,0,0,0"});
  EXPECT_EQ(
      LinesStarting(o, "  MIXED: "),
      std::vector<std::string>{"  MIXED: bw=15.4MiB/s (16.2MB/s), 15.4MiB/s-15.4MiB/s "
                               "(16.2MB/s-16.2MB/s), io=30.9MiB (32.4MB), run=2001-2001msec"});
  EXPECT_TRUE(LinesStarting(o, "   READ: ").empty()) << o;
  EXPECT_TRUE(LinesStarting(o, "  WRITE: ").empty()) << o;
  // The mixed block has fio's latency and sample lines.
  EXPECT_NE(o.find("  mixed: IOPS=3948, BW=15.4MiB/s (16.2MB/s)(30.9MiB/2001msec)\n    slat "),
            std::string::npos)
      << o;
  EXPECT_EQ(LinesStarting(o, "   bw (").size(), 1u);
  EXPECT_NE(o.find(", samples=8\n   iops        : "), std::string::npos) << o;
}

TEST(UnifiedRwReportTest, NormalBothPrintsTheDirectionsThenMixed) {
  const std::string o = NormalOf(OneJob(U::kBoth));
  const size_t r = o.find("\n  read: IOPS=");
  const size_t w = o.find("\n  write: IOPS=");
  const size_t m = o.find("\n  mixed: IOPS=3948, BW=15.4MiB/s (16.2MB/s)(30.9MiB/2001msec)\n");
  ASSERT_NE(r, std::string::npos) << o;
  ASSERT_NE(w, std::string::npos) << o;
  ASSERT_NE(m, std::string::npos) << o;
  EXPECT_LT(r, w);
  EXPECT_LT(w, m);
  EXPECT_EQ(LinesStarting(o, "     issued rwts: "),
            std::vector<std::string>{
                "     issued rwts: total=4000,3900,0,0 short=0,0,0,0 dropped=0,0,0,0"});
  const size_t gr = o.find("\n   READ: bw=");
  const size_t gw = o.find("\n  WRITE: bw=");
  const size_t gm = o.find("\n  MIXED: bw=15.4MiB/s (16.2MB/s), ");
  ASSERT_NE(gr, std::string::npos) << o;
  ASSERT_NE(gw, std::string::npos) << o;
  ASSERT_NE(gm, std::string::npos) << o;
  EXPECT_LT(gr, gw);
  EXPECT_LT(gw, gm);
  EXPECT_EQ(LinesStarting(o, "   bw (").size(), 3u);
}

TEST(UnifiedRwReportTest, GroupReportingMixesTheMergedRecord) {
  const std::string o = NormalOf(OneJob(U::kMixed, /*group_reporting=*/true, /*numjobs=*/2));
  EXPECT_EQ(LinesStarting(o, "     issued rwts: "),
            std::vector<std::string>{
                "     issued rwts: total=15800,0,0,0 short=0,0,0,0 dropped=0,0,0,0"});
  const auto mixed = LinesStarting(o, "  mixed: IOPS=7896, ");
  EXPECT_EQ(mixed.size(), 1u) << o;
  // Two jobs' four windows per direction: 16 samples summed.
  EXPECT_NE(o.find(", samples=16\n"), std::string::npos) << o;
}

TEST(UnifiedRwReportTest, JsonKeysFollowTheMode) {
  auto keys = [](U mode) {
    const auto doc = BuildJsonReport(OneJob(mode), ReportOptions{}, false);
    std::vector<std::string> k;
    for (const auto& [key, v] : doc["jobs"][0].items())
      if (key == "read" || key == "write" || key == "trim" || key == "sync" || key == "mixed")
        k.push_back(key);
    return k;
  };
  EXPECT_EQ(keys(U::kNone), (std::vector<std::string>{"read", "write", "trim", "sync"}));
  // fio 3.33: no "sync" object with mixed.
  EXPECT_EQ(keys(U::kMixed), (std::vector<std::string>{"mixed"}));
  EXPECT_EQ(keys(U::kBoth), (std::vector<std::string>{"read", "write", "trim", "sync", "mixed"}));

  const auto doc = BuildJsonReport(OneJob(U::kBoth), ReportOptions{}, true);
  const auto& m = doc["jobs"][0]["mixed"];
  EXPECT_EQ(m["total_ios"], 7900u);
  EXPECT_EQ(m["io_bytes"], 7900u * 4096);
  EXPECT_EQ(m["io_kbytes"], 7900u * 4);
  EXPECT_EQ(m["runtime"], 2001u);
  EXPECT_EQ(m["bw_bytes"], 7900ull * 4096 * 1000 / 2001);
  EXPECT_EQ(m["clat_ns"]["N"], 7900u);
  EXPECT_EQ(m["bw_samples"], 8u);
  EXPECT_EQ(m["iops_samples"], 8u);
  uint64_t bins = 0;
  for (const auto& [k, v] : m["clat_ns"]["bins"].items()) bins += v.get<uint64_t>();
  EXPECT_EQ(bins, 7900u);
}

TEST(UnifiedRwReportTest, TerseBlocksFollowTheMode) {
  // fio 3.33: v3 has read and write blocks (no trim); mixed has the mixed
  // block alone; both adds it after the directions. A v3 block is 40
  // fields, a v5 block 47.
  const std::string none3 = TerseOf(OneJob(U::kNone), 3);
  const std::string mixed3 = TerseOf(OneJob(U::kMixed), 3);
  const std::string both3 = TerseOf(OneJob(U::kBoth), 3);
  EXPECT_EQ(FieldCount(none3) - FieldCount(mixed3), 41u);
  EXPECT_EQ(FieldCount(both3) - FieldCount(none3), 41u);
  const std::string none5 = TerseOf(OneJob(U::kNone), 5);
  const std::string mixed5 = TerseOf(OneJob(U::kMixed), 5);
  const std::string both5 = TerseOf(OneJob(U::kBoth), 5);
  EXPECT_EQ(FieldCount(none5) - FieldCount(mixed5), 2 * 47u);
  EXPECT_EQ(FieldCount(both5) - FieldCount(none5), 47u);
  // The mixed block starts with io_kbytes, bw KiB/s, IOPS and runtime.
  EXPECT_EQ(mixed3.rfind("3;iobench-0.1.0;t;0;0;31600;15792;3948;2001;", 0), 0u) << mixed3;
}

TEST(StatsOptionReportTest, StatsZeroJobIsLeftOut) {
  RunResult run = testdata::MakeRun(/*group_reporting=*/false, 2);
  run.groups[0].jobs[0].spec.stats = false;
  const auto records = RecordsForGroup(run.groups[0]);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].result.jobnum, 1);
  const GroupTotals t = ComputeGroupTotals(run.groups[0], records);
  EXPECT_EQ(t.io_bytes[0], 4000u * 4096);  // the other job's alone
  const std::string o = NormalOf(run);
  EXPECT_EQ(LinesStarting(o, "t: (groupid=0, jobs=1)").size(), 1u) << o;
  const auto doc = BuildJsonReport(run, ReportOptions{}, false);
  EXPECT_EQ(doc["jobs"].size(), 1u);
  std::istringstream terse(TerseOf(run, 3));
  int lines = 0;
  for (std::string l; std::getline(terse, l);) ++lines;
  EXPECT_EQ(lines, 1);

  // group_reporting merges only the reported jobs.
  RunResult g = testdata::MakeRun(/*group_reporting=*/true, 2);
  g.groups[0].jobs[1].spec.stats = false;
  const auto merged = RecordsForGroup(g.groups[0]);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].members, 1u);
  EXPECT_EQ(merged[0].result.stats.dir[0].ios, 4000u);
  // Every job stats=0: fio prints the group header with no lines.
  g.groups[0].jobs[0].spec.stats = false;
  EXPECT_TRUE(RecordsForGroup(g.groups[0]).empty());
  const std::string none = NormalOf(g);
  EXPECT_NE(none.find("Run status group 0 (all jobs):\n"), std::string::npos);
  EXPECT_TRUE(LinesStarting(none, "   READ:").empty());
}

// fio takes a group_reporting group's percentile settings from its last
// job: [a] percentile_list=50, [b] percentile_list=90:99 reports 90 and 99.
TEST(GroupReportingPercentiles, TheLastJobsSettingsAsFio) {
  RunResult g = testdata::MakeRun(/*group_reporting=*/true, 2);
  g.groups[0].jobs[0].spec.percentile_list = {50};
  g.groups[0].jobs[1].spec.percentile_list = {90, 99};
  g.groups[0].jobs[1].spec.clat_percentiles = false;
  const auto merged = RecordsForGroup(g.groups[0]);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].result.spec.percentile_list, (std::vector<double>{90, 99}));
  EXPECT_FALSE(merged[0].result.spec.clat_percentiles);
}

TEST(SignificantFiguresReportTest, DigitsOfTheNormalFigures) {
  RunResult run = OneJob(U::kNone);
  run.groups[0].jobs[0].spec.significant_figures = 6;
  std::string o = NormalOf(run);
  // 4000 reads in 2001 ms: 8,187,906 B/s, 16,384,000 bytes (fio 3.33 prints
  // the same strings for the same numbers: checked with its num2str).
  EXPECT_EQ(LinesStarting(o, "  read: "),
            std::vector<std::string>{
                "  read: IOPS=1999, BW=7996.0KiB/s (8187.9kB/s)(16000KiB/2001msec)"});
  EXPECT_EQ(
      LinesStarting(o, "   READ: "),
      std::vector<std::string>{"   READ: bw=7996.0KiB/s (8187.9kB/s), 7996.0KiB/s-7996.0KiB/s "
                               "(8187.9kB/s-8187.9kB/s), io=16000KiB (16384kB), "
                               "run=2001-2001msec"});
  run.groups[0].jobs[0].spec.significant_figures = 1;
  o = NormalOf(run);
  EXPECT_EQ(LinesStarting(o, "  read: "),
            std::vector<std::string>{"  read: IOPS=2k, BW=8MiB/s (8MB/s)(0GiB/2001msec)"});
}

}  // namespace
}  // namespace iobench
