// JSON "eta" of interim reports: the run's time left as the status line
// estimates it (SnapshotRemainingNs), fio's INT_MAX before 3 s, 0 in the
// final report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "iobench/report.h"
#include "report/fio_report.h"
#include "report/status_line.h"
#include "report_testdata.h"

namespace iobench {
namespace {

constexpr uint64_t kStartMs = 1796027080000ull;
constexpr int64_t kSecond = 1000000000;
constexpr uint64_t kFioUnknown = 2147483647;

// A time_based job of `runtime_s` that started 100 ms into the run.
JobResult TimeBased(const std::string& name, int groupid, uint64_t runtime_s) {
  JobResult j = testdata::MakeJob(name, groupid, 0, 1, 7);
  j.spec.time_based = true;
  j.spec.runtime_ns = runtime_s * kSecond;
  j.start_ms = kStartMs + 100;
  return j;
}

// A snapshot `at_ms` into the run: the started jobs' counters as of then.
RunResult Snapshot(std::vector<JobResult> jobs, uint64_t at_ms) {
  RunResult run;
  run.snapshot = true;
  run.start_ms = kStartMs;
  run.timestamp_ms = kStartMs + at_ms;
  run.timestamp_s = run.timestamp_ms / 1000;
  for (JobResult& j : jobs) {
    if (j.start_ms != 0) {
      j.end_ms = run.timestamp_ms;
      j.elapsed_ms = at_ms;
    }
    if (run.groups.empty() || run.groups.back().id != j.groupid)
      run.groups.push_back(GroupResult{j.groupid, {}});
    run.groups.back().jobs.push_back(std::move(j));
  }
  return run;
}

std::vector<uint64_t> Etas(const RunResult& run) {
  const nlohmann::ordered_json doc = BuildJsonReport(run, ReportOptions{}, false);
  std::vector<uint64_t> out;
  for (const auto& j : doc["jobs"]) out.push_back(j["eta"].get<uint64_t>());
  return out;
}

TEST(InterimEtaTest, TimeBasedRunCountsDown) {
  // 4.1 s into a 10 s job that started at 0.1 s: 6 s left, as the line's ETA.
  const RunResult run = Snapshot({TimeBased("a", 0, 10)}, 4100);
  EXPECT_EQ(SnapshotRemainingNs(run), 6 * kSecond);
  EXPECT_EQ(Etas(run), std::vector<uint64_t>{6});
  // Rounded up as the line shows it: 5.5 s left is 6.
  EXPECT_EQ(Etas(Snapshot({TimeBased("a", 0, 10)}, 4600)), std::vector<uint64_t>{6});
}

TEST(InterimEtaTest, FioSaysUnknownBeforeThreeSeconds) {
  // fio's calc_thread_status estimates nothing while its clock (the
  // records' "elapsed", rounded up) is under 3 s: INT_MAX, as fio 3.33.
  const RunResult run = Snapshot({TimeBased("a", 0, 10)}, 1500);
  EXPECT_EQ(BuildJsonReport(run, ReportOptions{}, false)["jobs"][0]["elapsed"], 2);
  EXPECT_EQ(Etas(run), std::vector<uint64_t>{kFioUnknown});
  EXPECT_EQ(Etas(Snapshot({TimeBased("a", 0, 10)}, 2001)), std::vector<uint64_t>{9});
}

TEST(InterimEtaTest, FinalReportKeepsZero) {
  RunResult run = Snapshot({TimeBased("a", 0, 10)}, 4100);
  run.snapshot = false;
  EXPECT_EQ(Etas(run), std::vector<uint64_t>{0});
}

// An interim record says it is one, with no exit code yet: every record
// used to carry exit_code 0 and partial false, so a file whose last record
// was interim (the run killed, its output full) read as a run that ended
// well. The final record keeps its exit code.
TEST(InterimEtaTest, InterimRecordSaysSoAndHasNoExitCode) {
  RunResult run = Snapshot({TimeBased("a", 0, 10)}, 4100);
  auto ib = BuildJsonReport(run, ReportOptions{}, false)["iobench"];
  EXPECT_EQ(ib["interim"], true);
  EXPECT_EQ(ib["partial"], true);
  EXPECT_TRUE(ib["exit_code"].is_null());
  run.snapshot = false;
  run.exit_code = 1;
  ib = BuildJsonReport(run, ReportOptions{}, false)["iobench"];
  EXPECT_FALSE(ib.contains("interim"));
  EXPECT_EQ(ib["partial"], false);
  EXPECT_EQ(ib["exit_code"], 1);
}

TEST(InterimEtaTest, SizeBasedAtItsSpeedSoFar) {
  JobResult j = TimeBased("a", 0, 0);
  j.spec.time_based = false;
  j.spec.rw = RwMode::kRead;
  j.spec.size = 100 << 20;
  j.stats = ThreadStats();
  j.stats.dir[0].bytes = 25 << 20;  // a quarter in 4 s: 12 s left
  EXPECT_EQ(Etas(Snapshot({j}, 4100)), std::vector<uint64_t>{12});
}

TEST(InterimEtaTest, LaterPhaseAndEndedJobs) {
  // a runs (6 s left), b waits behind a stonewall for its 5 s: 11 s.
  JobResult b = TimeBased("b", 1, 5);
  b.spec.stonewall = true;
  b.start_ms = 0;
  EXPECT_EQ(Etas(Snapshot({TimeBased("a", 0, 10), b}, 4100)), (std::vector<uint64_t>{11, 11}));
  // A job that failed has ended: nothing left of it.
  JobResult failed = TimeBased("a", 0, 10);
  failed.error = 5;
  EXPECT_EQ(Etas(Snapshot({failed, b}, 4100)), (std::vector<uint64_t>{5, 5}));
}

}  // namespace
}  // namespace iobench
