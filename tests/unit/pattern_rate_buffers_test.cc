// Unit tests for RateLimiter and BufferFiller (run/pattern.h). The rate
// limiter is driven with synthetic clock values: nothing sleeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "run/pattern.h"

namespace iobench {
namespace {

TEST(PatternRateTest, NoRateGivesNoLimiter) {
  JobSpec job;
  EXPECT_EQ(RateLimiter::Create(job, 1, 1), nullptr);
}

TEST(PatternRateTest, LinearBytesPerSecond) {
  JobSpec job;
  job.rate[0] = 1'000'000;  // rate=1000000 (bytes/s) for reads only
  auto rl = RateLimiter::Create(job, 1, 1);
  ASSERT_NE(rl, nullptr);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 0u);          // the first goes at once
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 4'096'000u);  // due at 4096 B / 1 MB/s
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 1'000'000), 7'192'000u);
  EXPECT_EQ(rl->DelayNs(Ddir::kWrite, 4096, 0), 0u);  // writes are not limited
  // Late by far: no wait, and the schedule does not shift (no drift).
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 1'000'000'000), 0u);
  // 4 I/Os were accounted: the 5th is due at 4 * 4096 / 1e6 s, whatever the
  // calls in between.
  auto rl2 = RateLimiter::Create(job, 1, 1);
  for (int i = 0; i < 4; ++i) (void)rl2->DelayNs(Ddir::kRead, 4096, 999'999'999);
  EXPECT_EQ(rl2->DelayNs(Ddir::kRead, 4096, 0), 16'384'000u);
}

TEST(PatternRateTest, LinearDoesNotDriftOverManyIos) {
  JobSpec job;
  job.rate[1] = 3'000'000;  // 3 MB/s: 4096 B every 1365333.33 ns
  auto rl = RateLimiter::Create(job, 1, 1);
  uint64_t now = 0;
  for (int i = 0; i < 1'000'000; ++i) now += rl->DelayNs(Ddir::kWrite, 4096, now);
  // The last I/O (index 999999) is due at 999999 * 4096 / 3e6 s, to the ns.
  EXPECT_EQ(now, static_cast<uint64_t>(999'999ULL * 4096 * 1'000'000'000ULL / 3'000'000));
}

TEST(PatternRateTest, RateIopsUsesTheSmallestBlockSize) {
  JobSpec job;
  job.rate_iops[0] = 1000;
  job.bs[0] = {4096, 16384, {}};
  auto rl = RateLimiter::Create(job, 1, 1);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 0u);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 1'000'000u);  // 1 ms per 4k I/O
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 8192, 0), 2'000'000u);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 4'000'000u);  // the 8k one counted twice
}

// rate_ignore_thinktime: a pause moves the schedule instead of being caught
// up; a pause longer than one period leaves the next I/O due at once.
TEST(PatternRateTest, PausedMovesTheScheduleAsFio) {
  JobSpec job;
  job.rate_iops[0] = 1000;  // one 4k read per ms
  job.bs[0] = {4096, 4096, {}};
  auto rl = RateLimiter::Create(job, 1, 1);
  for (int i = 0; i < 10; ++i) (void)rl->DelayNs(Ddir::kRead, 4096, 0);
  // 10 issued: the next is due at 10 ms. A 500 ms pause ends at 510 ms: no
  // pause accounting means 500 I/Os are due at once (catch-up).
  auto catchup = RateLimiter::Create(job, 1, 1);
  for (int i = 0; i < 10; ++i) (void)catchup->DelayNs(Ddir::kRead, 4096, 0);
  EXPECT_EQ(catchup->DelayNs(Ddir::kRead, 4096, 510'000'000), 0u);
  EXPECT_EQ(catchup->DelayNs(Ddir::kRead, 4096, 510'000'000), 0u);
  // Paused(500 ms): 500 I/Os' bytes count as issued, less one block.
  rl->Paused(500'000'000);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 510'000'000), 0u);          // due at 509 ms: at once
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 510'000'000), 0u);          // due at 510 ms
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 510'000'000), 1'000'000u);  // then 1 per ms
  // A pause shorter than a period moves the schedule by its length.
  auto shortp = RateLimiter::Create(job, 1, 1);
  (void)shortp->DelayNs(Ddir::kRead, 4096, 0);  // next due at 1 ms
  shortp->Paused(300'000);
  // Counted in whole bytes, as fio: 300 us miss 1228 bytes, so the I/O is
  // due at (4096 + 1228) B / 4,096,000 B/s = 1,299,804 ns.
  EXPECT_EQ(shortp->DelayNs(Ddir::kRead, 4096, 300'000), 999'804u);
  // Directions without a rate are untouched.
  EXPECT_EQ(rl->DelayNs(Ddir::kWrite, 4096, 0), 0u);
}

// Restart (the ramp's end): the schedule starts over at the new epoch, so
// the rate a ramp left unused is not spent in a burst after it, as fio
// resets its rate counters there.
TEST(PatternRateTest, RestartForgetsTheRampsSchedule) {
  JobSpec job;
  job.rate_iops[0] = 1000;  // one 4k read per ms
  job.bs[0] = {4096, 4096, {}};
  auto rl = RateLimiter::Create(job, 1, 1);
  for (int i = 0; i < 10; ++i) (void)rl->DelayNs(Ddir::kRead, 4096, 0);
  // 10 issued in a 1 s ramp: 990 I/Os would be due at once at its end.
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 1'000'000'000), 0u);
  rl->Restart();
  // Times now count from the ramp's end: one I/O at once, then 1 per ms.
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 0u);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 1'000'000u);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 4096, 0), 2'000'000u);
  // Poisson arrivals start over too.
  job.rate_process = RateProcess::kPoisson;
  auto po = RateLimiter::Create(job, 1, 1);
  for (int i = 0; i < 100; ++i) (void)po->DelayNs(Ddir::kRead, 4096, 0);
  po->Restart();
  EXPECT_EQ(po->DelayNs(Ddir::kRead, 4096, 0), 0u);
  EXPECT_LT(po->DelayNs(Ddir::kRead, 4096, 0), 50'000'000u);  // one gap, not 100
}

TEST(PatternRateTest, BytesRateWinsOverIops) {
  JobSpec job;
  job.rate[0] = 8192 * 1000;
  job.rate_iops[0] = 10;
  auto rl = RateLimiter::Create(job, 1, 1);
  (void)rl->DelayNs(Ddir::kRead, 8192, 0);
  EXPECT_EQ(rl->DelayNs(Ddir::kRead, 8192, 0), 1'000'000u);
}

TEST(PatternRateTest, NumjobsShareDividesTheRate) {
  JobSpec job;
  job.rate_iops[2] = 1000;
  auto rl = RateLimiter::Create(job, 4, 1);
  (void)rl->DelayNs(Ddir::kTrim, 4096, 0);
  EXPECT_EQ(rl->DelayNs(Ddir::kTrim, 4096, 0), 4'000'000u);  // 250 IO/s
  auto rl0 = RateLimiter::Create(job, 0, 1);                 // 0 reads as 1
  (void)rl0->DelayNs(Ddir::kTrim, 4096, 0);
  EXPECT_EQ(rl0->DelayNs(Ddir::kTrim, 4096, 0), 1'000'000u);
}

TEST(PatternRateTest, PoissonHasTheRightMeanAndExponentialGaps) {
  JobSpec job;
  job.rate_iops[0] = 1000;
  job.rate_process = RateProcess::kPoisson;
  auto rl = RateLimiter::Create(job, 1, 77);
  const int n = 200000;
  std::vector<double> due(n);
  for (int i = 0; i < n; ++i) due[i] = static_cast<double>(rl->DelayNs(Ddir::kRead, 4096, 0));
  double sum = 0, sum2 = 0;
  for (int i = 1; i < n; ++i) {
    const double g = due[i] - due[i - 1];
    ASSERT_GE(g, 0.0);
    sum += g;
    sum2 += g * g;
  }
  const double mean = sum / (n - 1);
  const double sd = std::sqrt(sum2 / (n - 1) - mean * mean);
  EXPECT_NEAR(mean, 1e6, 1e6 * 0.01);
  EXPECT_NEAR(sd / mean, 1.0, 0.02);  // exponential: stddev == mean
  // Same seed, same schedule.
  auto again = RateLimiter::Create(job, 1, 77);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(static_cast<double>(again->DelayNs(Ddir::kRead, 4096, 0)), due[i]);
}

// rate_process=poisson counts I/Os, not bytes, as fio 3.33 does: gaps of mean
// 1/IOPS whatever each I/O's size (rate_iops=1000 with a 4k..64k split:
// 1 ms apart on average for 64k I/Os too; bytes would make it 16 ms).
TEST(PatternRateTest, PoissonSpacesIosNotBytes) {
  JobSpec job;
  job.rate_iops[0] = 1000;
  job.bs[0] = {4096, 65536, {}};
  job.rate_process = RateProcess::kPoisson;
  auto rl = RateLimiter::Create(job, 1, 5);
  const int n = 20000;
  uint64_t last = 0;
  for (int i = 0; i < n; ++i) last = rl->DelayNs(Ddir::kRead, 65536, 0);
  EXPECT_NEAR(static_cast<double>(last) / (n - 1), 1e6, 1e6 * 0.03);
}

// fio's rate_ddir (io_u.c): the drawn direction when it is due; else the
// other one when that is due and has an rwmix share; else the one due first.
TEST(PatternRateTest, SteerFollowsFioRateDdir) {
  JobSpec job;
  job.rw = RwMode::kRandRW;
  job.rate_iops[0] = 1000;  // a read every 1 ms
  job.rate_iops[1] = 500;   // a write every 2 ms
  for (auto& b : job.bs) b.min = b.max = 4096;
  auto rl = RateLimiter::Create(job, 1, 1);
  // Nothing issued yet: both are due, the draw stands.
  EXPECT_EQ(rl->Steer(Ddir::kRead, 0, true), Ddir::kRead);
  EXPECT_EQ(rl->Steer(Ddir::kWrite, 0, true), Ddir::kWrite);
  (void)rl->DelayNs(Ddir::kRead, 4096, 0);  // next read due at 1 ms
  // Reads ahead, writes due: a read's turn goes to a write...
  EXPECT_EQ(rl->Steer(Ddir::kRead, 0, true), Ddir::kWrite);
  // ...unless writes have no rwmix share (rwmixread=100).
  EXPECT_EQ(rl->Steer(Ddir::kRead, 0, false), Ddir::kRead);
  (void)rl->DelayNs(Ddir::kWrite, 4096, 0);  // next write due at 2 ms
  // Both ahead: the one due first, whichever was drawn.
  EXPECT_EQ(rl->Steer(Ddir::kRead, 500'000, true), Ddir::kRead);
  EXPECT_EQ(rl->Steer(Ddir::kWrite, 500'000, true), Ddir::kRead);
  // At 1 ms reads are due again: the draw stands for reads; a drawn write
  // (due at 2 ms) goes to reads.
  EXPECT_EQ(rl->Steer(Ddir::kRead, 1'000'000, true), Ddir::kRead);
  EXPECT_EQ(rl->Steer(Ddir::kWrite, 1'000'000, true), Ddir::kRead);
  EXPECT_EQ(rl->Steer(Ddir::kWrite, 2'000'000, true), Ddir::kWrite);
  // An unrated direction is always due.
  JobSpec reads_only = job;
  reads_only.rate_iops[1] = 0;
  auto r2 = RateLimiter::Create(reads_only, 1, 1);
  (void)r2->DelayNs(Ddir::kRead, 4096, 0);
  EXPECT_EQ(r2->Steer(Ddir::kRead, 0, true), Ddir::kWrite);
}

// A fake clock that moves only when the job must wait, as a worker on an
// infinitely fast device: each direction then runs at its own rate whatever
// rwmixread draws (fio 3.33, rw=randrw rwmixread=50 rate_iops=300,100: 300
// reads/s and 100 writes/s), because a direction ahead of its rate lends its
// turn to the other. Waiting for the drawn direction would give 100 reads/s.
struct FakeClockSteer final : DdirSteer {
  RateLimiter* rl = nullptr;
  uint64_t now = 0;
  Ddir Steer(Ddir drawn, bool other_ok) override { return rl->Steer(drawn, now, other_ok); }
};

void RunMixed(uint32_t rwmixread, uint64_t seconds, uint64_t* reads, uint64_t* writes) {
  JobSpec job;
  job.rw = RwMode::kRandRW;
  job.rwmixread = rwmixread;
  job.norandommap = true;
  job.rate_iops[0] = 300;
  job.rate_iops[1] = 100;
  for (auto& b : job.bs) b.min = b.max = 4096;
  const uint64_t size = 1ULL << 30;
  auto p = IoPattern::Create(job, {PatternRegion{0, size, 0, size}}, 1);
  ASSERT_TRUE(p.ok());
  auto rl = RateLimiter::Create(job, 1, 1);
  FakeClockSteer steer;
  steer.rl = rl.get();
  (*p)->SetSteer(&steer);
  *reads = *writes = 0;
  IoPlan plan;
  for (;;) {
    ASSERT_TRUE((*p)->Next(&plan));
    const uint64_t due = steer.now + rl->DelayNs(plan.ddir, plan.length, steer.now);
    if (due >= seconds * 1'000'000'000ULL) break;
    steer.now = due;
    ++(plan.ddir == Ddir::kRead ? *reads : *writes);
  }
}

TEST(PatternRateTest, MixedJobRunsEachDirectionAtItsRate) {
  uint64_t r = 0, w = 0;
  RunMixed(50, 3, &r, &w);
  EXPECT_EQ(r, 900u);
  EXPECT_EQ(w, 300u);
  RunMixed(70, 3, &r, &w);
  EXPECT_EQ(r, 900u);
  EXPECT_EQ(w, 300u);
  // rwmixread=100: no write is ever drawn, and reads do not lend to them.
  RunMixed(100, 3, &r, &w);
  EXPECT_EQ(r, 900u);
  EXPECT_EQ(w, 0u);
}

// rate_iops_min as fio 3.33's check_min_rate: nothing in the first 2 s, the
// first check after that opens a window, and a window of rate_cycle ms below
// the minimum fails the job (fake clock; counts are completions so far).
TEST(PatternRateTest, MinRateIsCheckedPerCycleAfterTwoSeconds) {
  JobSpec job;
  EXPECT_EQ(MinRateCheck::Create(job), nullptr);
  job.rate_iops_min[0] = 100;
  job.ratecycle_ms = 500;
  auto c = MinRateCheck::Create(job);
  ASSERT_NE(c, nullptr);
  uint64_t bytes[kNumDdirs] = {0, 0, 0}, ios[kNumDdirs] = {0, 0, 0};
  constexpr uint64_t kMs = 1'000'000;
  // 10 IO/s for the first 2 s: not judged (fio's settle period).
  for (uint64_t t = 100; t < 2000; t += 100) {
    ++ios[0];
    EXPECT_TRUE(c->Check(t * kMs, bytes, ios)) << t;
  }
  ++ios[0];
  EXPECT_TRUE(c->Check(2000 * kMs, bytes, ios));  // opens the window
  ios[0] += 60;
  EXPECT_TRUE(c->Check(2400 * kMs, bytes, ios));  // window not over yet
  ++ios[0];                                       // 122 IO/s over 500 ms: met
  EXPECT_TRUE(c->Check(2500 * kMs, bytes, ios));  // and the next window opens
  ios[0] += 49;
  EXPECT_TRUE(c->Check(2999 * kMs, bytes, ios));  // 499 ms: not over yet
  // Nothing completed since the last call: judged all the same, as fio
  // judges every direction that completed anything so far (its bytes_done):
  // 49 I/Os in 600 ms, 81 IO/s. (A pause that completes nothing is no
  // excuse: thinktime=1s fails rate_min=10k in fio.)
  EXPECT_FALSE(c->Check(3100 * kMs, bytes, ios));
  EXPECT_EQ(c->Failure(), "read IOPS 81 over 600 ms is below rate_iops_min=100");
}

// A direction with a minimum that has completed nothing at all is not judged
// (fio's check_min_rate skips a direction whose bytes_done is 0): rw=read
// with rate_iops_min=100,100 fails on its reads only.
TEST(PatternRateTest, MinRateSkipsADirectionThatDidNothing) {
  JobSpec job;
  job.rate_iops_min[0] = job.rate_iops_min[1] = 100;
  job.ratecycle_ms = 1000;
  auto c = MinRateCheck::Create(job);
  uint64_t bytes[kNumDdirs] = {0, 0, 0}, ios[kNumDdirs] = {300, 0, 0};
  constexpr uint64_t kMs = 1'000'000;
  EXPECT_TRUE(c->Check(2000 * kMs, bytes, ios));
  ios[0] += 150;
  EXPECT_TRUE(c->Check(3000 * kMs, bytes, ios));  // reads met; writes not judged
  ios[0] += 50;
  EXPECT_FALSE(c->Check(4000 * kMs, bytes, ios));
  EXPECT_EQ(c->Failure(), "read IOPS 50 over 1000 ms is below rate_iops_min=100");
}

// rate_cycle=0, which fio 3.33 takes: each check judges the window since
// the last, once it is 1 ms or more (fio works in whole ms and skips an
// empty span); the same jobs pass and fail as with rate_cycle=1 in fio
// (thinktime=1s rate_min=10k fails at 4096 B/s over 1000 ms in both).
TEST(PatternRateTest, MinRateCycleZero) {
  JobSpec job;
  job.rate_iops_min[0] = 100;
  job.ratecycle_ms = 0;
  auto c = MinRateCheck::Create(job);
  uint64_t bytes[kNumDdirs] = {0, 0, 0}, ios[kNumDdirs] = {1, 0, 0};
  constexpr uint64_t kMs = 1'000'000;
  EXPECT_TRUE(c->Check(2000 * kMs, bytes, ios));            // opens the window
  EXPECT_TRUE(c->Check(2000 * kMs + kMs / 2, bytes, ios));  // under 1 ms: not judged
  ios[0] += 1;
  EXPECT_TRUE(c->Check(2010 * kMs, bytes, ios));   // 1 I/O in 10 ms: 100 IOPS
  EXPECT_FALSE(c->Check(2030 * kMs, bytes, ios));  // none in 20 ms
  EXPECT_EQ(c->Failure(), "read IOPS 0 over 20 ms is below rate_iops_min=100");
}

TEST(PatternRateTest, MinBandwidthPerDirection) {
  JobSpec job;
  job.rate_min[1] = 1'000'000;  // writes only
  auto c = MinRateCheck::Create(job);
  uint64_t bytes[kNumDdirs] = {0, 0, 0}, ios[kNumDdirs] = {0, 0, 0};
  constexpr uint64_t kMs = 1'000'000;
  ios[0] = ios[1] = 1;
  EXPECT_TRUE(c->Check(2000 * kMs, bytes, ios));
  // Reads are not limited; writes do 999000 B/s over the 1000 ms cycle.
  ios[0] = ios[1] = 2;
  bytes[1] = 999'000;
  EXPECT_FALSE(c->Check(3000 * kMs, bytes, ios));
  EXPECT_EQ(c->Failure(), "write bandwidth 999000 B/s over 1000 ms is below rate_min=1000000 B/s");
}

size_t CountZero(const std::vector<uint8_t>& b) {
  size_t n = 0;
  for (uint8_t c : b) n += c == 0;
  return n;
}

// Reads overwrite their buffers, so a job that never writes must not pay for
// filling iodepth x bs of memory before the run (seed 002: 20000 x 64k).
TEST(PatternBuffersTest, JobsThatDoNotWriteLeaveTheBufferAlone) {
  for (RwMode rw : {RwMode::kRead, RwMode::kRandRead, RwMode::kTrim, RwMode::kRandTrim}) {
    JobSpec job;
    job.rw = rw;
    BufferFiller f(job, 1);
    std::vector<uint8_t> b(8192, 0xa5);
    f.FillInitial(b.data(), b.size());
    EXPECT_EQ(std::vector<uint8_t>(8192, 0xa5), b) << static_cast<int>(rw);
  }
  for (RwMode rw : {RwMode::kWrite, RwMode::kRandWrite, RwMode::kReadWrite, RwMode::kRandRW,
                    RwMode::kTrimWrite, RwMode::kRandTrimWrite}) {
    JobSpec job;
    job.rw = rw;
    BufferFiller f(job, 1);
    std::vector<uint8_t> b(8192, 0xa5);
    f.FillInitial(b.data(), b.size());
    EXPECT_NE(std::vector<uint8_t>(8192, 0xa5), b) << static_cast<int>(rw);
  }
}

TEST(PatternBuffersTest, ZeroBuffersStayZero) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  job.zero_buffers = true;
  BufferFiller f(job, 1);
  std::vector<uint8_t> b(65536, 0xff);
  f.FillInitial(b.data(), b.size());
  EXPECT_EQ(CountZero(b), b.size());
  // Untouched: the worker keeps its start stamp (no clock read).
  EXPECT_FALSE(f.BeforeWrite(b.data(), b.size()));
  EXPECT_EQ(CountZero(b), b.size());
}

TEST(PatternBuffersTest, DefaultIsRandomAndScrambleChangesEveryBlock) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  BufferFiller f(job, 1);
  std::vector<uint8_t> b(65536, 0);
  f.FillInitial(b.data(), b.size());
  EXPECT_LT(CountZero(b), 65536u / 256 * 2);  // random bytes: ~1/256 zero
  std::vector<uint8_t> prev = b;
  for (int w = 0; w < 3; ++w) {
    // Touched: the worker stamps the I/O's start after it.
    EXPECT_TRUE(f.BeforeWrite(b.data(), b.size()));
    size_t changed_blocks = 0, changed_bytes = 0;
    for (size_t blk = 0; blk < b.size(); blk += 512) {
      const bool diff = std::memcmp(&b[blk], &prev[blk], 512) != 0;
      changed_blocks += diff;
      for (size_t i = blk; i < blk + 512; ++i) changed_bytes += b[i] != prev[i];
    }
    EXPECT_EQ(changed_blocks, 128u) << "write " << w;
    EXPECT_LE(changed_bytes, 128u * 8) << "scrambling must stay cheap";
    prev = b;
  }
  // Two fillers with the same seed give the same bytes.
  BufferFiller g(job, 1);
  std::vector<uint8_t> c(65536, 0);
  g.FillInitial(c.data(), c.size());
  std::vector<uint8_t> d(65536, 0);
  BufferFiller h(job, 1);
  h.FillInitial(d.data(), d.size());
  EXPECT_EQ(c, d);
}

TEST(PatternBuffersTest, ScrambleOffKeepsTheBuffer) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  job.scramble_buffers = false;
  BufferFiller f(job, 1);
  std::vector<uint8_t> b(8192);
  f.FillInitial(b.data(), b.size());
  const std::vector<uint8_t> before = b;
  EXPECT_FALSE(f.BeforeWrite(b.data(), b.size()));
  EXPECT_EQ(b, before);
}

TEST(PatternBuffersTest, RefillBuffersRewritesEverything) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  job.refill_buffers = true;
  BufferFiller f(job, 1);
  std::vector<uint8_t> b(8192);
  f.FillInitial(b.data(), b.size());
  const std::vector<uint8_t> before = b;
  EXPECT_TRUE(f.BeforeWrite(b.data(), b.size()));
  size_t same = 0;
  for (size_t i = 0; i < b.size(); ++i) same += b[i] == before[i];
  EXPECT_LT(same, 8192u / 256 * 2);
}

TEST(PatternBuffersTest, BufferPatternRepeats) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  job.buffer_pattern = {0xde, 0xad, 0xbe};
  BufferFiller f(job, 1);
  std::vector<uint8_t> b(10000);
  f.FillInitial(b.data(), b.size());
  for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b[i], job.buffer_pattern[i % 3]) << i;
  EXPECT_FALSE(f.BeforeWrite(b.data(), b.size()));  // no scrambling of a pattern
  for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b[i], job.buffer_pattern[i % 3]) << i;
}

TEST(PatternBuffersTest, CompressPercentageIsTheZeroShareOfEachChunk) {
  for (uint32_t perc : {10u, 50u, 70u, 100u}) {
    JobSpec job;
    job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
    job.buffer_compress_percentage = perc;
    job.buffer_compress_chunk = 512;
    BufferFiller f(job, 3);
    std::vector<uint8_t> b(1 << 20, 0xff);
    f.FillInitial(b.data(), b.size());
    // Within each 512-byte chunk, the tail (perc% of it) is all zeros.
    const size_t fixed = 512 - 512 * (100 - perc) / 100;
    for (size_t c = 0; c < b.size(); c += 512)
      for (size_t i = 512 - fixed; i < 512; ++i) ASSERT_EQ(b[c + i], 0) << "perc " << perc;
    const double zero_share = static_cast<double>(CountZero(b)) / b.size();
    EXPECT_NEAR(zero_share, perc / 100.0 + (100 - perc) / 100.0 / 256, 0.005) << perc;
    // Partial percentages refill on each write and keep the share.
    const std::vector<uint8_t> before = b;
    f.BeforeWrite(b.data(), b.size());
    EXPECT_NEAR(static_cast<double>(CountZero(b)) / b.size(), zero_share, 0.005);
    if (perc < 100) {
      EXPECT_NE(b, before);
    } else {
      EXPECT_EQ(b, before);
    }
  }
}

TEST(PatternBuffersTest, CompressWithPatternAndWholeBufferChunk) {
  JobSpec job;
  job.rw = RwMode::kWrite;  // only jobs that write fill their buffers
  job.buffer_compress_percentage = 75;
  job.buffer_compress_chunk = 0;  // one random/fixed split per buffer
  job.buffer_pattern = {'a', 'b'};
  BufferFiller f(job, 3);
  std::vector<uint8_t> b(4096);
  f.FillInitial(b.data(), b.size());
  for (size_t i = 1024; i < 4096; ++i) ASSERT_EQ(b[i], (i - 1024) % 2 ? 'b' : 'a') << i;
  size_t pattern_like = 0;
  for (size_t i = 0; i + 1 < 1024; i += 2) pattern_like += b[i] == 'a' && b[i + 1] == 'b';
  EXPECT_LT(pattern_like, 5u);
}

// dedupe_percentage: that share of 1,024 4k writes repeats an earlier
// buffer (fio 3.33 on the same 4 MiB write: 513 distinct blocks in repeat
// mode, 514 in working_set mode, 100 at 90 % with compression); in
// working_set mode every repeat is one of the first unique buffers (here
// 102: 10 % of 4 MiB in 4k blocks).
TEST(BufferFillerTest, DedupePercentageRepeatsEarlierBuffers) {
  struct Seen {
    size_t distinct = 0;
    bool repeats_from_first = true;  // every repeat is one of the first 102 distinct
  };
  auto run = [](JobSpec job) {
    job.rw = RwMode::kWrite;
    job.size = 4 << 20;
    for (auto& b : job.bs) b.min = b.max = 4096;
    BufferFiller f(job, 1);
    std::vector<uint8_t> buf(4096);
    std::map<std::string, size_t> rank;  // content -> order of first appearance
    Seen out;
    for (int i = 0; i < 1024; ++i) {
      f.BeforeWrite(buf.data(), buf.size());
      auto [it, fresh] = rank.emplace(std::string(buf.begin(), buf.end()), rank.size());
      if (!fresh && it->second >= 102) out.repeats_from_first = false;
    }
    out.distinct = rank.size();
    return out;
  };
  JobSpec job;
  EXPECT_EQ(run(job).distinct, 1024u);  // refill off, scramble on: every write differs
  job.dedupe_percentage = 50;
  Seen repeat = run(job);
  EXPECT_GT(repeat.distinct, 450u);
  EXPECT_LT(repeat.distinct, 575u);
  EXPECT_FALSE(repeat.repeats_from_first);  // repeat: the last unique one, late ones too
  job.dedupe_working_set = true;
  job.dedupe_working_set_percentage = 10;
  Seen ws = run(job);
  EXPECT_GT(ws.distinct, 450u);
  EXPECT_LT(ws.distinct, 575u);
  EXPECT_TRUE(ws.repeats_from_first);
  job.dedupe_working_set = false;
  job.dedupe_percentage = 90;
  job.buffer_compress_percentage = 50;
  Seen ninety = run(job);
  EXPECT_GT(ninety.distinct, 70u);
  EXPECT_LT(ninety.distinct, 140u);
}

// fio 3.33 re-seeds its buffer contents at each loop start (randrepeat=1, no
// randseed) after having filled its iodepth buffers from the same stream:
// loop 2's refilled writes are loop 1's, iodepth writes late
// (tests/e2e/loop_buffers.sh measures both tools). Scrambling goes on.
TEST(BufferFillerTest, ReseedRepeatsTheFillsAfterTheInitialOnes) {
  auto loops = [](JobSpec job, uint32_t slots, uint32_t fills) {
    job.rw = RwMode::kWrite;
    job.size = 1 << 20;
    for (auto& b : job.bs) b.min = b.max = 4096;
    BufferFiller f(job, 1);
    std::vector<uint8_t> area(4096 * slots);
    f.FillInitial(area.data(), 4096, slots, fills);
    std::vector<std::string> out[2];
    std::vector<uint8_t> buf(4096);
    for (auto& loop : out) {
      for (int i = 0; i < 12; ++i) {
        f.BeforeWrite(buf.data(), buf.size());
        loop.emplace_back(buf.begin(), buf.end());
      }
      f.Reseed();
    }
    return std::pair(out[0], out[1]);
  };
  // Loop 2's write k + shift is loop 1's write k, for every k.
  auto shifted_by = [](const std::pair<std::vector<std::string>, std::vector<std::string>>& l,
                       size_t shift) {
    for (size_t k = 0; k + shift < l.second.size(); ++k)
      if (l.second[k + shift] != l.first[k]) return false;
    return l.second[0] != l.first[0];
  };
  JobSpec job;
  job.refill_buffers = true;
  EXPECT_TRUE(shifted_by(loops(job, 1, 1), 1));
  EXPECT_TRUE(shifted_by(loops(job, 4, 4), 4));
  EXPECT_TRUE(shifted_by(loops(job, 1, 3), 3));  // psync iodepth=3: one buffer, three fills
  job.refill_buffers = false;
  job.buffer_compress_percentage = 50;
  EXPECT_TRUE(shifted_by(loops(job, 2, 2), 2));
  job.buffer_compress_percentage = 0;
  job.dedupe_percentage = 50;
  EXPECT_TRUE(shifted_by(loops(job, 1, 1), 1));
  job.dedupe_working_set = true;
  EXPECT_TRUE(shifted_by(loops(job, 2, 2), 2));
  job = JobSpec();  // scrambled: no write of loop 2 is one of loop 1's
  auto [first, second] = loops(job, 1, 1);
  for (const auto& w : second) EXPECT_EQ(std::count(first.begin(), first.end(), w), 0);
}

}  // namespace
}  // namespace iobench
