// ctest-labels: threads
// Steady state detection (steadystate=, ss_dur=, ss_ramp=): the criterion on
// exact sample windows (the values fio 3.33 printed for the same samples),
// the option parsing and its errors, the group consistency check, and runs
// on the null engine (attained / not attained, group_reporting), with
// limits wide enough that no timing makes them flaky. The comparison with
// real fio is tests/e2e/steadystate.sh. The reports' lines and fields (also
// latency_target's) are checked against fio's output for the same figures.
#include "run/steadystate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "fake_engine.h"
#include "iobench/report.h"
#include "jobfile/parser.h"
#include "report_testdata.h"
#include "run/coordinator.h"
#include "test_util.h"

namespace iobench {
namespace {

using M = JobSpec::SteadyStateMode;
using testing::ParseNullJob;

nlohmann::ordered_json Json(const RunResult& run) {
  std::ostringstream out;
  EXPECT_TRUE(WriteJson(run, ReportOptions{}, false, out).ok());
  return nlohmann::ordered_json::parse(out.str());
}

JobSpec SsJob(M mode, double limit, bool pct, uint64_t dur) {
  JobSpec j;
  j.ss_mode = mode;
  j.ss_limit = limit;
  j.ss_percent = pct;
  j.ss_dur_s = dur;
  return j;
}

// fio 3.33, rate_iops=1000, ss=iops:0.001%, ss_dur=3: not attained with
// iops [1013, 1007, 1001], criterion "0.595829%", max_deviation 6.
TEST(SteadyStateWindowTest, MeanDeviationPercentAsFio) {
  SteadyStateWindow w(SsJob(M::kIops, 0.001, true, 3));
  EXPECT_FALSE(w.Add(4149301, 1013));
  EXPECT_FALSE(w.Add(4124700, 1007));
  EXPECT_FALSE(w.Add(4100100, 1001));
  const SteadyStateResult r = w.Result();
  EXPECT_TRUE(r.enabled);
  EXPECT_FALSE(r.attained);
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{1013, 1007, 1001}));
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{4149301, 4124700, 4100100}));
  EXPECT_DOUBLE_EQ(r.max_deviation, 6.0);
  EXPECT_EQ(r.slope, 0.0);
  EXPECT_NEAR(r.criterion, 0.595829, 1e-6);
  // The same samples against 1%: attained on the third.
  SteadyStateWindow w1(SsJob(M::kIops, 1, true, 3));
  EXPECT_FALSE(w1.Add(4149301, 1013));
  EXPECT_FALSE(w1.Add(4124700, 1007));
  EXPECT_TRUE(w1.Add(4100100, 1001));
  EXPECT_TRUE(w1.Result().attained);
}

// fio 3.33, numjobs=2 group_reporting, ss=iops_slope:2%, ss_dur=2: attained
// with iops [1014, 997], slope -17, criterion "-1.691542%" (the percentage
// divides by the integer mean 1005, not 1005.5).
TEST(SteadyStateWindowTest, SlopePercentUsesTheIntegerMeanAndItsAbsoluteValue) {
  SteadyStateWindow w(SsJob(M::kIopsSlope, 2, true, 2));
  EXPECT_FALSE(w.Add(4153344, 1014));
  EXPECT_TRUE(w.Add(4087840, 997));
  const SteadyStateResult r = w.Result();
  EXPECT_TRUE(r.attained);
  EXPECT_DOUBLE_EQ(r.slope, -17.0);
  EXPECT_EQ(r.max_deviation, 0.0);
  EXPECT_NEAR(r.criterion, -1.691542, 1e-6);
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{1014, 997}));
}

TEST(SteadyStateWindowTest, AbsoluteBandwidthSlope) {
  // bw 100, 200, 300, 400: slope 100 B/s per second.
  SteadyStateWindow w(SsJob(M::kBwSlope, 100, false, 4));
  for (uint64_t v : {100, 200, 300}) EXPECT_FALSE(w.Add(v, 1));
  EXPECT_FALSE(w.Add(400, 1));  // |100| < 100 is false
  EXPECT_DOUBLE_EQ(w.Result().slope, 100.0);
  EXPECT_DOUBLE_EQ(w.Result().criterion, 100.0);
  EXPECT_TRUE(w.Add(400, 1));  // 200 300 400 400: slope 70
  EXPECT_DOUBLE_EQ(w.Result().slope, 70.0);
  EXPECT_EQ(w.Result().bw, (std::vector<uint64_t>{200, 300, 400, 400}));
}

TEST(SteadyStateWindowTest, RollsOldestFirstAndPadsAShortWindowWithZeros) {
  SteadyStateWindow w(SsJob(M::kBw, 0, false, 4));  // criterion < 0: never
  EXPECT_FALSE(w.Add(10, 1));
  EXPECT_FALSE(w.Add(20, 2));
  EXPECT_FALSE(w.Add(30, 3));
  SteadyStateResult r = w.Result();
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{10, 20, 30, 0}));
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{1, 2, 3, 0}));
  EXPECT_EQ(r.criterion, 0.0);  // never evaluated
  for (uint64_t v : {40, 50, 60}) EXPECT_FALSE(w.Add(v, v / 10));
  r = w.Result();
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{30, 40, 50, 60}));
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{3, 4, 5, 6}));
  EXPECT_DOUBLE_EQ(r.max_deviation, 15.0);
  EXPECT_DOUBLE_EQ(r.criterion, 15.0);
}

TEST(SteadyStateWindowTest, AZeroMeanNeverAttainsAPercentage) {
  SteadyStateWindow w(SsJob(M::kIops, 50, true, 2));
  EXPECT_FALSE(w.Add(0, 0));
  EXPECT_FALSE(w.Add(0, 0));
  EXPECT_TRUE(std::isnan(w.Result().criterion));
}

// --- reports -----------------------------------------------------------------

// The run of MeanDeviationPercentAsFio's samples, as a report gets it.
RunResult SsRun() {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.spec.ss_mode = M::kIops;
  j.spec.ss_limit = 0.001;
  j.spec.ss_percent = true;
  j.spec.ss_dur_s = 3;
  SteadyStateWindow w(j.spec);
  w.Add(4149301, 1013);
  w.Add(4124700, 1007);
  w.Add(4100100, 1001);
  j.steadystate = w.Result();
  return run;
}

// fio 3.33 printed this line for these samples.
TEST(SteadyStateReportTest, NormalLineAsFio) {
  std::ostringstream out;
  ASSERT_TRUE(WriteNormal(SsRun(), ReportOptions{}, out).ok());
  EXPECT_NE(out.str().find("     latency   : target=0, window=0, percentile=100.00%, depth=8\n"
                           "  steadystate  : attained=no, bw=4028KiB/s (4028kB/s), iops=1007, "
                           "iops mean dev=0.596%\n"),
            std::string::npos)
      << out.str();
  // A slope in absolute units: no '%'.
  RunResult run = SsRun();
  JobResult& j = run.groups[0].jobs[0];
  j.spec.ss_mode = M::kBwSlope;
  j.spec.ss_percent = false;
  j.steadystate.criterion = -12.5;
  std::ostringstream out2;
  ASSERT_TRUE(WriteNormal(run, ReportOptions{}, out2).ok());
  EXPECT_NE(out2.str().find(", iops=1007, bw slope=-12.500\n"), std::string::npos) << out2.str();
  // No steady state: no line.
  std::ostringstream out3;
  ASSERT_TRUE(WriteNormal(testdata::MakeRun(false, 1), ReportOptions{}, out3).ok());
  EXPECT_EQ(out3.str().find("steadystate"), std::string::npos);
}

TEST(SteadyStateReportTest, JsonObjectAsFio) {
  std::ostringstream out;
  ASSERT_TRUE(WriteJson(SsRun(), ReportOptions{}, false, out).ok());
  // fio's text for these samples, float fields with six decimals.
  EXPECT_NE(out.str().find("\"ss\" : \"iops:0.001000%\""), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"max_deviation\" : 6.000000"), std::string::npos);
  const auto doc = nlohmann::ordered_json::parse(out.str());
  const auto& job = doc["jobs"][0];
  const auto& ss = job["steadystate"];
  std::vector<std::string> keys;
  for (auto it = job.begin(); it != job.end(); ++it) keys.push_back(it.key());
  ASSERT_GE(keys.size(), 3u);
  EXPECT_EQ(keys[keys.size() - 3], "latency_window");
  EXPECT_EQ(keys[keys.size() - 2], "steadystate");  // after desc (when there is one), as fio
  EXPECT_EQ(ss["duration"], 3);
  EXPECT_EQ(ss["attained"], 0);
  EXPECT_EQ(ss["criterion"], "0.595829%");
  EXPECT_EQ(ss["slope"], 0.0);
  EXPECT_EQ(ss["data"]["bw_mean"], 4124700u);
  EXPECT_EQ(ss["data"]["iops_mean"], 1007u);
  EXPECT_EQ(ss["data"]["iops"], (std::vector<uint64_t>{1013, 1007, 1001}));
  EXPECT_EQ(ss["data"]["bw"], (std::vector<uint64_t>{4149301, 4124700, 4100100}));
  EXPECT_FALSE(Json(testdata::MakeRun(false, 1))["jobs"][0].contains("steadystate"));
}

// latency_target's fields (fio's units: target ns, window us) and the depth
// the search found; fio 3.33 printed this line for such a run.
TEST(SteadyStateReportTest, LatencyTargetLineAndFields) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.spec.iodepth = 16;
  j.spec.latency_target_ns = 10000000;
  j.spec.latency_window_ns = 200000000;
  j.latency_depth = 16;
  std::ostringstream out;
  ASSERT_TRUE(WriteNormal(run, ReportOptions{}, out).ok());
  EXPECT_NE(out.str().find(
                "     latency   : target=10000000, window=200000, percentile=100.00%, depth=16\n"),
            std::string::npos)
      << out.str();
  j.spec.latency_percentile = 99.5;
  j.latency_depth = 5;
  const auto doc = Json(run);
  EXPECT_EQ(doc["jobs"][0]["latency_depth"], 5);
  EXPECT_EQ(doc["jobs"][0]["latency_target"], 10000000);
  EXPECT_EQ(doc["jobs"][0]["latency_window"], 200000);
  EXPECT_EQ(doc["jobs"][0]["latency_percentile"], 99.5);
}

// --- options ---------------------------------------------------------------

TEST(SteadyStateOptionsTest, ValuesAndAliases) {
  auto r = ParseNullJob("ss_dur=3\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& d = r->jobs.at(0);
  EXPECT_EQ(d.ss_dur_s, 3u);
  EXPECT_EQ(d.ss_mode, M::kIopsSlope);  // fio's default iops_slope:0.01%
  EXPECT_DOUBLE_EQ(d.ss_limit, 0.01);
  EXPECT_TRUE(d.ss_percent);
  EXPECT_EQ(d.ss_ramp_ns, 0u);

  r = ParseNullJob("steadystate=bw:1m\nsteadystate_duration=2500ms\nss_ramp=1500ms\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& b = r->jobs.at(0);
  EXPECT_EQ(b.ss_mode, M::kBw);
  EXPECT_DOUBLE_EQ(b.ss_limit, 1048576.0);  // absolute bandwidth: size suffixes
  EXPECT_FALSE(b.ss_percent);
  EXPECT_EQ(b.ss_dur_s, 2u);  // whole seconds, as fio
  EXPECT_EQ(b.ss_ramp_ns, 1500000000u);

  r = ParseNullJob("ss=iops:2.5\nss_dur=1\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).ss_mode, M::kIops);
  EXPECT_DOUBLE_EQ(r->jobs.at(0).ss_limit, 2.5);
  EXPECT_FALSE(r->jobs.at(0).ss_percent);

  r = ParseNullJob("ss=bw_slope:0.5%\nss_dur=4\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).ss_mode, M::kBwSlope);
  EXPECT_DOUBLE_EQ(r->jobs.at(0).ss_limit, 0.5);
  EXPECT_TRUE(r->jobs.at(0).ss_percent);
  EXPECT_TRUE(r->jobs.at(0).unimplemented.empty());
}

TEST(SteadyStateOptionsTest, BadValuesNameTheOptionAndLine) {
  const struct {
    const char* line;
    const char* says;
  } cases[] = {
      {"ss=foo:1", "t.fio:4:"},
      {"ss=foo:1", "the criterion must be iops, iops_slope, bw or bw_slope"},
      {"ss=iops", "give a limit after the criterion, e.g. iops:1%"},
      {"ss=iops:abc", "the limit 'abc' is not a number"},
      {"ss=iops:1k", "the limit '1k' is not a number"},
      {"ss=iops:-1", "the limit must not be negative"},
      {"ss=bw:-1m", "the limit must not be negative"},
      {"ss=bw:x%", "the limit 'x' is not a number"},
      {"ss_dur=500ms", "steadystate_duration=500ms is shorter than one sample"},
      {"ss_dur=-1", "option 'ss_dur' is out of range"},  // named as written
      {"ss_dur=1000000000", "steadystate_duration=1000000000 is longer than a week"},
      {"ss_ramp=-2", "option 'ss_ramp' is out of range"},
  };
  for (const auto& c : cases) {
    auto r = ParseNullJob(std::string(c.line) + "\n");
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_NE(r.status().message().find(c.says), std::string::npos)
        << c.line << ": " << r.status().message();
  }
}

TEST(SteadyStateOptionsTest, ASlopeNeedsTwoSamples) {
  auto r = ParseNullJob("ss=iops_slope:1%\nss_dur=1\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto run = RunJobs(r->jobs, {});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("needs at least 2 samples"), std::string::npos)
      << run.status().message();
}

// --- runs on the null engine -----------------------------------------------

JobSpec NullSs(const std::string& name) {
  JobSpec j = testing::TestJob(name, RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "null";
  j.time_based = true;
  j.rate_iops[0] = 200;
  return j;
}

TEST(SteadyStateRunTest, DifferentSettingsInOneGroupAreRefusedAsFio) {
  JobSpec a = NullSs("a"), b = NullSs("b");
  a.ss_dur_s = 2;
  auto r = RunJobs({a, b}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("job 'b' and job 'a' are in the same reporting group with "
                                      "different steadystate"),
            std::string::npos)
      << r.status().message();
  b.ss_dur_s = 2;
  b.ss_limit = 1;
  EXPECT_FALSE(RunJobs({a, b}, {}).ok());
  b.stonewall = true;  // its own group: fine
  b.runtime_ns = 1;
  a.runtime_ns = 1;
  EXPECT_TRUE(RunJobs({a, b}, {}).ok());
}

// A limit no sample window can miss (every deviation is below 1000% of the
// mean once each second saw I/O): the job stops after two samples, long
// before its runtime.
TEST(SteadyStateRunTest, AttainedStopsTheJob) {
  JobSpec j = NullSs("ss");
  j.runtime_ns = 60ull * 1000000000;
  j.ss_mode = M::kIops;
  j.ss_limit = 1000;
  j.ss_dur_s = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_TRUE(jr.steadystate.enabled);
  EXPECT_TRUE(jr.steadystate.attained);
  ASSERT_EQ(jr.steadystate.iops.size(), 2u);
  EXPECT_GT(jr.steadystate.iops[0], 0u);
  EXPECT_GT(jr.steadystate.iops[1], 0u);
  EXPECT_EQ(jr.steadystate.bw[0] / 4096, jr.steadystate.iops[0]);
  EXPECT_LT(jr.runtime_ms, 30000u);
  EXPECT_FALSE(jr.interrupted);
  EXPECT_EQ(jr.error, 0);
  EXPECT_EQ(r->exit_code, 0);
}

// Never attained (a deviation is never below 0): the job runs its whole
// runtime; samples at 1 s and 2 s of a 2.5 s run, the third slot empty.
TEST(SteadyStateRunTest, NotAttainedRunsToTheEnd) {
  JobSpec j = NullSs("ss");
  j.runtime_ns = 2500ull * 1000000;
  j.ss_mode = M::kBw;
  j.ss_limit = 0;
  j.ss_dur_s = 3;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_FALSE(jr.steadystate.attained);
  ASSERT_EQ(jr.steadystate.bw.size(), 3u);
  EXPECT_GT(jr.steadystate.bw[0], 0u);
  EXPECT_GT(jr.steadystate.bw[1], 0u);
  EXPECT_EQ(jr.steadystate.bw[2], 0u);
  EXPECT_EQ(jr.steadystate.criterion, 0.0);
  EXPECT_GE(jr.runtime_ms, 2500u);
}

// With group_reporting the group's clones are one unit: their summed rate
// is sampled, and all of them stop together with the same result.
TEST(SteadyStateRunTest, GroupReportingJudgesTheGroup) {
  JobSpec j = NullSs("grp");
  j.numjobs = 2;
  j.group_reporting = true;
  j.runtime_ns = 60ull * 1000000000;
  j.ss_mode = M::kIopsSlope;
  j.ss_limit = 1e9;
  j.ss_dur_s = 2;
  JobSpec other = NullSs("alone");  // another group, no steady state: runs its time
  other.stonewall = true;
  other.runtime_ns = 300ull * 1000000;
  auto r = RunJobs({j, other}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& jobs = r->groups.at(0).jobs;
  ASSERT_EQ(jobs.size(), 2u);
  for (const JobResult& jr : jobs) {
    EXPECT_TRUE(jr.steadystate.attained);
    EXPECT_LT(jr.runtime_ms, 30000u);
  }
  EXPECT_EQ(jobs[0].steadystate.iops, jobs[1].steadystate.iops);
  // The group's rate: both clones' I/O (each ~200 IO/s).
  EXPECT_EQ(jobs[0].steadystate.clones, (std::vector<uint32_t>{2, 2}));
  EXPECT_GT(jobs[0].steadystate.iops[1], 0u);
  EXPECT_FALSE(r->groups.at(1).jobs.at(0).steadystate.enabled);
  EXPECT_GE(r->groups.at(1).jobs.at(0).runtime_ms, 300u);
}

// A group whose runtime is whole seconds: its last tick falls exactly at the
// first clone's end and microseconds before the others'. That sample holds
// every clone's last second (it held only the clones that had not ended, a
// quarter or three quarters of the group, and the group never attained).
TEST(SteadyStateRunTest, AGroupsLastSampleHoldsEveryClone) {
  JobSpec j = NullSs("grp");
  j.numjobs = 4;
  j.group_reporting = true;
  j.runtime_ns = 2ull * 1000000000;
  j.ss_mode = M::kIops;
  j.ss_limit = 0;  // never attained: both samples are kept
  j.ss_dur_s = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& jobs = r->groups.at(0).jobs;
  ASSERT_EQ(jobs.size(), 4u);
  const SteadyStateResult& ss = jobs[0].steadystate;
  ASSERT_EQ(ss.iops.size(), 2u);
  // Four clones at 200 IO/s each, every one of them in both samples. (Not
  // the rates, 800 a second: a thread that stalls 150 ms across a tick
  // catches up after it, and one sample is then 550, the next 1,170.)
  EXPECT_EQ(ss.clones, (std::vector<uint32_t>{4, 4})) << "the last second lost clones";
  EXPECT_GT(ss.iops[0], 0u);
  EXPECT_GT(ss.iops[1], 0u);
  for (const JobResult& jr : jobs) EXPECT_EQ(jr.steadystate.iops, ss.iops);
}

// fio's examples/steadystate.fio: numjobs=4, group_reporting, ss_ramp. The
// first sample after the ramp holds the whole group (it held one clone: the
// ramp was counted from each clone's start, microseconds after the group's
// first tick, so three clones were still "ramping" at it).
TEST(SteadyStateRunTest, TheFirstSampleAfterTheRampHoldsEveryClone) {
  JobSpec j = NullSs("grp");
  j.numjobs = 4;
  j.group_reporting = true;
  j.runtime_ns = 3ull * 1000000000;
  j.ss_ramp_ns = 1000000000;
  j.ss_mode = M::kIops;
  j.ss_limit = 0;  // never attained: both samples are kept
  j.ss_dur_s = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const SteadyStateResult& ss = r->groups.at(0).jobs.at(0).steadystate;
  ASSERT_EQ(ss.iops.size(), 2u);
  // Every clone in both samples, as above.
  EXPECT_EQ(ss.clones, (std::vector<uint32_t>{4, 4}))
      << "the first sample after the ramp lost clones";
  EXPECT_GT(ss.iops[0], 0u);
  EXPECT_GT(ss.iops[1], 0u);
}

}  // namespace
}  // namespace iobench
