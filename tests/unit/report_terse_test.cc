// Terse v3: field count and the positions of key values, checked against
// fio's layout (and against a real fio 3.33 line when fio is installed).
#include <fmt/printf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "iobench/report.h"
#include "report/fio_report.h"
#include "report_testdata.h"
#include "stats/summary.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::Lines;

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  for (char c : line) {
    if (c == ';') {
      f.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  f.push_back(cur);
  return f;
}

std::string Terse(const RunResult& run, int version = 3) {
  std::ostringstream out;
  ReportOptions opts;
  opts.terse_version = version;
  EXPECT_TRUE(WriteTerse(run, opts, out).ok());
  return out.str();
}

TEST(ReportTerseTest, OneHundredThirtyFieldsWithOneDisk) {
  const auto lines = Lines(Terse(testdata::MakeRun(false)));
  ASSERT_EQ(lines.size(), 2u) << "one line per job without group_reporting";
  for (const auto& l : lines) EXPECT_EQ(Split(l).size(), 130u) << l;
  RunResult run = testdata::MakeRun(true);
  run.disks.clear();
  const auto merged = Lines(Terse(run));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(Split(merged[0]).size(), 121u);
}

// A loop device's backing disk is not among the disks fio 3.33 lists: it
// gets no fields, so the line has fio's 130 and ends with the loop
// device's util (it had 139, the last one the backing disk's).
TEST(ReportTerseTest, OnlyTheDisksFioListsGetFields) {
  RunResult run = testdata::MakeRun(false, 1);
  run.disks[0].name = "loop0";
  DiskUtil backing = testdata::MakeDisk();
  backing.util = 12.5;
  backing.fio_lists = false;
  run.disks.push_back(backing);
  for (int version : {3, 4, 5}) {
    const auto f = Split(Lines(Terse(run, version))[0]);
    EXPECT_EQ(f.size(), version == 3 ? 130u : version == 4 ? 171u : 189u) << "v" << version;
    EXPECT_EQ(f[f.size() - 9], "loop0") << "v" << version;
    EXPECT_EQ(f.back(), "77.07%") << "v" << version;
  }
}

TEST(ReportTerseTest, FieldPositions) {
  const RunResult run = testdata::MakeRun(false, 1);
  const JobResult& j = run.groups[0].jobs[0];
  const auto f = Split(Lines(Terse(run))[0]);
  ASSERT_EQ(f.size(), 130u);
  EXPECT_EQ(f[0], "3");
  EXPECT_EQ(f[1], "iobench-0.1.0");
  EXPECT_EQ(f[2], "t");
  EXPECT_EQ(f[3], "0");
  EXPECT_EQ(f[4], "0");
  // read: io KiB, bw KiB/s, iops, runtime ms
  EXPECT_EQ(f[5], std::to_string(4000 * 4096 / 1024));
  EXPECT_EQ(f[6], std::to_string(4000ull * 4096 * 1000 / 2001 / 1024));
  EXPECT_EQ(f[7], std::to_string(4000ull * 1000 / 2001));
  EXPECT_EQ(f[8], "2001");
  // slat min/max in µs (integer division, as fio)
  EXPECT_EQ(f[9], std::to_string(j.stats.dir[0].slat.Min() / 1000));
  EXPECT_EQ(f[10], std::to_string(j.stats.dir[0].slat.max / 1000));
  EXPECT_EQ(f[13], std::to_string(j.stats.dir[0].clat.Min() / 1000));
  EXPECT_EQ(f[17], "1.000000%=" + std::to_string(Percentile(j.stats.dir[0].clat_hist, 1) / 1000));
  EXPECT_EQ(f[33],
            "99.990000%=" + std::to_string(Percentile(j.stats.dir[0].clat_hist, 99.99) / 1000));
  EXPECT_EQ(f[34], "0%=0") << "17 percentiles, 20 slots";
  EXPECT_EQ(f[36], "0%=0");
  EXPECT_EQ(f[37], std::to_string(j.stats.dir[0].lat.Min() / 1000));
  // write block starts at 46
  EXPECT_EQ(f[46], std::to_string(3900 * 4096 / 1024));
  EXPECT_EQ(f[48], std::to_string(3900ull * 1000 / 2001));
  EXPECT_EQ(f[49], "2001");
  // cpu
  EXPECT_EQ(f[87], "2.998501%");  // 60000 µs over 2001 ms
  EXPECT_EQ(f[89], "12043");
  EXPECT_EQ(f[91], "15");
  // IO depths 1..>=64
  EXPECT_EQ(f[92], "0.1%");
  EXPECT_EQ(f[95], "99.9%");
  EXPECT_EQ(f[98], "0.0%");
  // disk
  EXPECT_EQ(f[121], "vda");
  EXPECT_EQ(f[122], "86059");
  EXPECT_EQ(f[123], "85762");
  EXPECT_EQ(f[128], "21383");
  EXPECT_EQ(f[129], "77.07%");
}

// The read bandwidth fields (41..45) are over fio's whole-KiB/s samples:
// "3000;4000;43.771886%;3500.000000;707.106781" (the mean was 3500.99; the
// aggregate, 7996.002 KiB/s, is cut to 7996 by fio 3.33's terse line, and
// not by its normal per= and JSON bw_agg: 43.771875 there).
TEST(ReportTerseTest, BwFieldsAreOverWholeKibSamples) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].stats.dir[0].bw_samples = {{500, 3000 * 1024 + 1000},
                                                   {1000, 4000 * 1024 + 1023}};
  const auto f = Split(Lines(Terse(run))[0]);
  ASSERT_EQ(f.size(), 130u);
  EXPECT_EQ(f[6], "7996") << "the aggregate per= divides by";
  EXPECT_EQ(f[41], "3000");
  EXPECT_EQ(f[42], "4000");
  EXPECT_EQ(f[43], "43.771886%");
  EXPECT_EQ(f[44], "3500.000000");
  EXPECT_EQ(f[45], "707.106781");
}

// Terse v3 folds the nsec latency buckets into the first usec one as their
// unrounded share, as fio's stat_calc_lat_nu: two nsec buckets of 0.001%
// each are shown as 0.01% apiece elsewhere, but add 0.002 here (the sum of
// the shown shares made 100.02%).
TEST(ReportTerseTest, NsecBucketsFoldIntoTheFirstUsecOneUnrounded) {
  RunResult run = testdata::MakeRun(false, 1);
  ThreadStats& ts = run.groups[0].jobs[0].stats;
  for (auto& d : ts.dir) d.clat_hist = Histogram();
  ts.dir[0].clat_hist.Add(600);
  ts.dir[0].clat_hist.Add(800);
  for (int i = 0; i < 99998; ++i) ts.dir[0].clat_hist.Add(1500);
  const auto f = Split(Lines(Terse(run))[0]);
  ASSERT_EQ(f.size(), 130u);
  EXPECT_EQ(f[99], "100.00%");  // lat_2us: 99.998 + 0.002
  EXPECT_EQ(f[100], "0.00%");
}

TEST(ReportTerseTest, ContinueOnErrorAddsErrorFields) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.spec.continue_on_error = kCoeAll;
  j.stats.total_errors = 4;  // one of them in a class continue_on_error does not cover
  j.stats.coe_errors = 3;
  j.stats.first_error.err = 5;
  j.stats.coe_first_error = 5;
  j.spec.description = "my job";
  const auto f = Split(Lines(Terse(run))[0]);
  ASSERT_EQ(f.size(), 133u);
  EXPECT_EQ(f[4], "5");    // err: the first tolerated error, as fio shows it
  EXPECT_EQ(f[130], "3");  // fio's total_err
  EXPECT_EQ(f[131], "5");
  EXPECT_EQ(f[132], "my job");
}

// fio's first_error beside total_err is the first error it counted: an
// error of a class continue_on_error does not cover (a fatal ENOSPC with
// continue_on_error=read) gives 0 there, while err= still shows it.
TEST(ReportTerseTest, FirstErrorFieldIsTheFirstCountedOne) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.spec.continue_on_error = kCoeRead;
  j.error = 28;
  j.stats.total_errors = 1;
  j.stats.first_error.err = 28;
  const auto f = Split(Lines(Terse(run))[0]);
  ASSERT_EQ(f.size(), 132u);
  EXPECT_EQ(f[4], "28");
  EXPECT_EQ(f[130], "0");
  EXPECT_EQ(f[131], "0");
}

// fio's man page: v2 has no version field, no disk fields and the
// description on a line of its own; v2/v4/v5 add trim; v5 adds the bw
// sample count and IOPS min, max, mean, stdev, samples per direction.
TEST(ReportTerseTest, VersionsTwoFourFive) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].spec.description = "my job";
  const JobRecord rec = RecordsForGroup(run.groups[0])[0];

  const auto v2 = Lines(Terse(run, 2));
  ASSERT_EQ(v2.size(), 2u);
  const auto f2 = Split(v2[0]);
  EXPECT_EQ(f2.size(), 161u) << "4 + 3 * 41 + 34, no disk fields";
  EXPECT_EQ(f2[0], "2");
  EXPECT_EQ(f2[1], "t");
  EXPECT_EQ(f2[4], std::to_string(4000 * 4096 / 1024));
  EXPECT_EQ(v2[1], ";my job");

  const auto f4 = Split(Lines(Terse(run, 4))[0]);
  EXPECT_EQ(f4.size(), 5u + 3 * 41 + 34 + 9 + 1);
  EXPECT_EQ(f4[0], "4");
  EXPECT_EQ(f4[1], "iobench-0.1.0");
  EXPECT_EQ(f4[46], std::to_string(3900 * 4096 / 1024)) << "write block at 46";
  EXPECT_EQ(f4[87], "0") << "trim block at 87";
  EXPECT_EQ(f4[128], "2.998501%") << "cpu after trim";
  EXPECT_EQ(f4[162], "vda");
  EXPECT_EQ(f4.back(), "my job");

  const auto f5 = Split(Lines(Terse(run, 5))[0]);
  EXPECT_EQ(f5.size(), 5u + 3 * 47 + 34 + 9 + 1);
  EXPECT_EQ(f5[0], "5");
  // read: ..., bw min/max/agg/mean/dev at 41..45, then samples, then iops.
  EXPECT_EQ(f5[46], std::to_string(rec.bw[0].samples));
  EXPECT_EQ(f5[47], std::to_string(rec.iops[0].min));
  EXPECT_EQ(f5[48], std::to_string(rec.iops[0].max));
  EXPECT_EQ(f5[49], fmt::sprintf("%f", rec.iops[0].mean));
  EXPECT_EQ(f5[51], std::to_string(rec.iops[0].samples));
  EXPECT_EQ(f5[52], std::to_string(3900 * 4096 / 1024)) << "write block at 52";
  EXPECT_EQ(f5[99], "0") << "trim block at 99";
  EXPECT_EQ(f5[140], "0") << "trim bw samples";
  EXPECT_EQ(f5[143], "0.000000") << "trim iops mean";
  EXPECT_EQ(f5[145], "0") << "trim iops samples";
  EXPECT_EQ(f5[146], "2.998501%");
  EXPECT_EQ(f5[180], "vda");

  std::ostringstream out;
  ReportOptions bad;
  bad.terse_version = 1;
  EXPECT_FALSE(WriteTerse(run, bad, out).ok());
}

// --repeat's median has no RunResult: its terse records are written from
// the merged JSON document. From one run's own document they are that run's
// records, field for field, in every version and record shape.
TEST(ReportTerseTest, FromJsonIsTheRunsOwnRecord) {
  std::vector<RunResult> runs;
  runs.push_back(testdata::MakeRun(false));
  runs.push_back(testdata::MakeRun(true));
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].spec.description = "my job";
  runs.back().groups[0].jobs[0].spec.continue_on_error = kCoeAll;
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].stats.dir[1] = DirStats{};  // a direction without I/O
  runs.back().groups[0].jobs[0].stats.issued[1] = 0;
  runs.back().disks.clear();
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].spec.lat_percentiles = true;
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].spec.clat_percentiles = false;
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].spec.unified_rw_reporting = JobSpec::UnifiedRw::kBoth;
  runs.push_back(testdata::MakeRun(false, 1));
  runs.back().groups[0].jobs[0].spec.unified_rw_reporting = JobSpec::UnifiedRw::kMixed;
  for (size_t i = 0; i < runs.size(); ++i)
    for (int version = 2; version <= 5; ++version) {
      ReportOptions opts;
      opts.terse_version = version;
      std::ostringstream from_json;
      ASSERT_TRUE(
          WriteTerseFromJson(runs[i], BuildJsonReport(runs[i], opts, false), opts, from_json).ok());
      EXPECT_EQ(from_json.str(), Terse(runs[i], version)) << "run " << i << ", v" << version;
    }
}

// With percentiles on, fio names the listed percentiles even in a direction
// without I/O ("1.000000%=0"); only the slots past the list read "0%=0".
TEST(ReportTerseTest, EmptyDirectionNamesItsPercentiles) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].stats.dir[1] = DirStats{};
  run.groups[0].jobs[0].stats.issued[1] = 0;
  const auto f = Split(Lines(Terse(run))[0]);
  EXPECT_EQ(f[58], "1.000000%=0");
  EXPECT_EQ(f[74], "99.990000%=0");
  EXPECT_EQ(f[75], "0%=0");
  run.groups[0].jobs[0].spec.clat_percentiles = false;
  const auto off = Split(Lines(Terse(run))[0]);
  EXPECT_EQ(off[58], "0%=0");
  EXPECT_EQ(off[17], "0%=0") << "no percentiles at all when they are off";
}

// Each field's shape: integer, float, percent, or "p%=v".
std::string Shape(const std::string& field) {
  static const std::regex kInt("^[0-9]+$"), kFloat("^[0-9]+\\.[0-9]+$"),
      kPct("^[0-9]+(\\.[0-9]+)?%$"), kPctVal("^[0-9.]+%=[0-9]+$");
  if (std::regex_match(field, kInt)) return "int";
  if (std::regex_match(field, kFloat)) return "float";
  if (std::regex_match(field, kPct)) return "pct";
  if (std::regex_match(field, kPctVal)) return "pctval";
  return "str";
}

class ReportTerseFioTest : public ::testing::TestWithParam<int> {};

TEST_P(ReportTerseFioTest, SameShapeAsRealFio) {
  if (std::system("command -v fio >/dev/null 2>&1") != 0) GTEST_SKIP() << "fio is not installed";
  const int version = GetParam();
  // The null engine does no disk I/O, so fio prints no disk fields (v3: 121).
  // Only reads: the empty write direction shows how fio fills it.
  const std::string cmd =
      "fio --name=t --ioengine=null --size=8m --rw=randread --bs=4k --output-format=terse "
      "--terse-version=" +
      std::to_string(version) + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string fio_out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) fio_out.append(buf, n);
  ASSERT_EQ(pclose(p), 0);
  const auto fio_lines = Lines(fio_out);
  ASSERT_FALSE(fio_lines.empty());
  const auto want = Split(fio_lines.back());
  RunResult run = testdata::MakeRun(false, 1);
  run.disks.clear();
  run.groups[0].jobs[0].stats.dir[1] = DirStats{};
  run.groups[0].jobs[0].stats.issued[1] = 0;
  const auto got = Split(Lines(Terse(run, version))[0]);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (version == 2 ? i == 1 : (i == 1 || i == 2)) continue;  // version and job name
    if (Shape(want[i]) == "pctval") {  // the percentile's name must match too
      EXPECT_EQ(got[i].substr(0, got[i].find('=')), want[i].substr(0, want[i].find('=')))
          << "field " << i;
      continue;
    }
    // fio's null engine has no slat; zero-valued fields of either side may be
    // "0" vs "0.000000" only where fio itself prints both forms.
    EXPECT_EQ(Shape(got[i]), Shape(want[i]))
        << "field " << i << ": ours '" << got[i] << "' fio '" << want[i] << "'";
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, ReportTerseFioTest, ::testing::Values(2, 3, 4, 5));

}  // namespace
}  // namespace iobench
