// ctest-labels: threads
// latency_target: fio 3.33's queue depth search driven step by step
// (DepthSearch, exact depths), the options and their errors, and runs on the
// null engine whose outcome no timing can change (a target no I/O can miss,
// a target every I/O misses). The comparison with real fio is
// tests/e2e/latency_target.sh.
#include "run/latency_target.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "fake_engine.h"
#include "jobfile/parser.h"
#include "run/coordinator.h"
#include "test_util.h"

namespace iobench {
namespace {

using A = DepthSearch::Action;
using testing::kMs;
using testing::ParseNullJob;

JobSpec Lt(uint32_t iodepth, double percentile = 100, bool run = false) {
  JobSpec j;
  j.iodepth = iodepth;
  j.latency_target_ns = 10 * kMs;
  j.latency_window_ns = 1000 * kMs;
  j.latency_percentile = percentile;
  j.latency_run = run;
  return j;
}

TEST(DepthSearchTest, DoublesToIodepthThenRunsOneFinalWindow) {
  DepthSearch s(Lt(16));
  s.Restart(0, 0);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.Check(999 * kMs, 10), A::kNone);  // the window is not over
  EXPECT_EQ(s.depth(), 1u);
  uint64_t t = 0;
  for (uint32_t want : {2u, 4u, 8u, 16u}) {
    t += 1000 * kMs;
    EXPECT_EQ(s.Check(t, t / kMs), A::kNone);
    EXPECT_EQ(s.depth(), want);
  }
  t += 1000 * kMs;
  EXPECT_EQ(s.Check(t, t / kMs), A::kFinalRun);  // 32 is capped at 16: the same depth
  EXPECT_TRUE(s.final_run());
  s.NewCycle(t, 0);  // the statistics restarted
  s.Restart(t, 0);   // (a ramp end during the final run does not start over)
  EXPECT_EQ(s.depth(), 16u);
  EXPECT_EQ(s.Check(t + 1000 * kMs, 5), A::kDone);
}

TEST(DepthSearchTest, ASlowIoBisectsDownAndTheSearchSettlesBelowIt) {
  DepthSearch s(Lt(16));
  s.Restart(0, 0);
  uint64_t t = 0, ios = 0;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.Check(t += 1000 * kMs, ++ios), A::kNone);
  EXPECT_EQ(s.depth(), 8u);  // one I/O per window is enough: 1 of 1 met the target
  EXPECT_EQ(s.OnCompletion(10 * kMs), A::kNone);  // at the target is good
  EXPECT_EQ(s.OnCompletion(10 * kMs + 1), A::kDrain);
  EXPECT_EQ(s.depth(), 6u);  // (8 + 4) / 2
  s.NewCycle(t, 100);
  EXPECT_EQ(s.Check(t += 1000 * kMs, 200), A::kNone);
  EXPECT_EQ(s.depth(), 7u);                                // (6 + 8) / 2
  EXPECT_EQ(s.Check(t += 1000 * kMs, 300), A::kFinalRun);  // (7 + 8) / 2 == 7
  EXPECT_EQ(s.depth(), 7u);
}

TEST(DepthSearchTest, LatencyRunKeepsSearchingAndProbesOneDeeper) {
  DepthSearch s(Lt(16, 100, true));
  s.Restart(0, 0);
  uint64_t t = 0, ios = 0;
  for (int i = 0; i < 3; ++i) s.Check(t += 1000 * kMs, ios += 10);
  EXPECT_EQ(s.OnCompletion(11 * kMs), A::kDrain);  // at 8
  s.NewCycle(t, ios);
  EXPECT_EQ(s.Check(t += 1000 * kMs, ios += 10), A::kNone);
  EXPECT_EQ(s.depth(), 7u);
  // Just below the failing depth 8: three good windows in a row raise the
  // bound to 9, and the bisection moves up to 8.
  EXPECT_EQ(s.Check(t += 1000 * kMs, ios += 10), A::kNone);  // stable 1
  EXPECT_EQ(s.depth(), 7u);
  EXPECT_EQ(s.Check(t += 1000 * kMs, ios += 10), A::kNone);  // stable 2
  EXPECT_EQ(s.depth(), 7u);
  EXPECT_EQ(s.Check(t += 1000 * kMs, ios += 10), A::kNone);  // stable 3
  EXPECT_EQ(s.depth(), 8u);
  EXPECT_FALSE(s.final_run());
}

TEST(DepthSearchTest, AtDepthOneAFullTargetFailsTheJob) {
  DepthSearch s(Lt(4));
  s.Restart(0, 0);
  EXPECT_EQ(s.OnCompletion(20 * kMs), A::kFatal);
}

TEST(DepthSearchTest, APercentileIsJudgedPerWindow) {
  DepthSearch s(Lt(4, 50));
  s.Restart(0, 0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s.OnCompletion(20 * kMs), A::kNone);
  // 4 of 10 met the target: 40 % < 50 %; at depth 1 nothing changes and the
  // window goes on (fio does not restart it).
  EXPECT_EQ(s.Check(1000 * kMs, 10), A::kNone);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.Check(1500 * kMs, 20), A::kNone);  // 14 of 20 over the longer window
  EXPECT_EQ(s.depth(), 2u);
  // A window without any I/O is not a success (0/0).
  EXPECT_EQ(s.Check(2500 * kMs, 20), A::kDrain);
  EXPECT_EQ(s.depth(), 1u);
}

// --- options ---------------------------------------------------------------

TEST(LatencyTargetOptionsTest, UnitsAndDefaults) {
  auto r = ParseNullJob("latency_target=10\nlatency_window=2s\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& j = r->jobs.at(0);
  EXPECT_EQ(j.latency_target_ns, 10000u);  // microseconds without a unit
  EXPECT_EQ(j.latency_window_ns, 2000000000u);
  EXPECT_EQ(j.latency_percentile, 100.0);
  EXPECT_FALSE(j.latency_run);
  EXPECT_TRUE(j.unimplemented.empty());
  r = ParseNullJob("latency_target=1ms\nlatency_percentile=99.9\nlatency_run=1\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).latency_target_ns, 1000000u);
  EXPECT_DOUBLE_EQ(r->jobs.at(0).latency_percentile, 99.9);
  EXPECT_TRUE(r->jobs.at(0).latency_run);
}

TEST(LatencyTargetOptionsTest, BadValuesNameTheOptionAndLine) {
  const struct {
    const char* line;
    const char* says;
  } cases[] = {
      {"latency_percentile=101", "latency_percentile 101 is outside 0..100"},
      {"latency_percentile=-1", "latency_percentile -1 is outside 0..100"},
      {"latency_percentile=high", "latency_percentile 'high' is not a number"},
      {"latency_percentile=high", "t.fio:4:"},
      {"latency_target=-5", "latency_target"},
      {"latency_window=abc", "latency_window"},
  };
  for (const auto& c : cases) {
    auto r = ParseNullJob(std::string(c.line) + "\n");
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_NE(r.status().message().find(c.says), std::string::npos)
        << c.line << ": " << r.status().message();
  }
}

// --- runs on the null engine -----------------------------------------------

JobSpec NullLt(uint64_t target_ns, double percentile) {
  JobSpec j = testing::TestJob("lt", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "null";
  j.time_based = true;
  j.runtime_ns = 60000 * kMs;
  j.rate_iops[0] = 5000;
  j.iodepth = 8;
  j.latency_target_ns = target_ns;
  j.latency_window_ns = 100 * kMs;
  j.latency_percentile = percentile;
  return j;
}

// No null I/O takes 10 s: every window succeeds, the depth doubles to
// iodepth (1, 2, 4, 8), one final window runs there, and the job ends.
TEST(LatencyTargetRunTest, ATargetEveryIoMeetsEndsAtIodepthAfterOneFinalWindow) {
  auto r = RunJobs({NullLt(10000 * kMs, 100)}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.latency_depth, 8u);
  EXPECT_LT(jr.runtime_ms, 30000u);  // ended by the search, not the runtime
  EXPECT_GE(jr.runtime_ms, 100u);    // the statistics cover the final window only
  EXPECT_GT(jr.stats.dir[0].ios, 0u);
  EXPECT_FALSE(jr.interrupted);
}

// Every I/O takes more than 1 ns: at depth 1 with latency_percentile=100
// the first one fails the job with ETIMEDOUT, as fio.
TEST(LatencyTargetRunTest, ATargetNoIoMeetsFailsTheJob) {
  auto r = RunJobs({NullLt(1, 100)}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, ETIMEDOUT);
  EXPECT_NE(jr.error_message.find("exceeds latency_target (1 nsec) at queue depth 1"),
            std::string::npos)
      << jr.error_message;
  EXPECT_EQ(jr.stats.dir[0].ios, 1u);  // the I/O that failed it is counted, as fio
  EXPECT_EQ(jr.latency_depth, 1u);
  EXPECT_EQ(r->exit_code, 1);
}

// disable_lat: no latency is measured, so (as in fio) nothing misses even a
// 1 ns target and the search ends at iodepth.
TEST(LatencyTargetRunTest, WithoutLatenciesNothingMissesTheTarget) {
  JobSpec j = NullLt(1, 100);
  j.disable_lat = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.latency_depth, 8u);
  EXPECT_LT(jr.runtime_ms, 30000u);
}

// Below 100 % a missed target only keeps the depth at 1: the job runs its
// runtime.
TEST(LatencyTargetRunTest, APercentileNoWindowMeetsStaysAtDepthOne) {
  JobSpec j = NullLt(1, 50);
  j.runtime_ns = 350 * kMs;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.latency_depth, 1u);
  EXPECT_GE(jr.runtime_ms, 350u);
}

}  // namespace
}  // namespace iobench
