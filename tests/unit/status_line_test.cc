// The status line: golden strings for given counters; the printer under a
// real pseudo-terminal (openpty) and into a real pipe; redraw timing from an
// injected clock (no sleeps).
#include "report/status_line.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::kMiB;
using testing::kMs;
using testing::kSec;
using testing::TestJob;

JobStatus Job(char state, uint8_t mask, uint64_t elapsed_ns, uint64_t planned_ns) {
  JobStatus j;
  j.state = state;
  j.open_files = 1;
  j.ddir_mask = mask;
  j.elapsed_ns = elapsed_ns;
  j.planned_ns = planned_ns;
  return j;
}

// The issue's example: two random readers and two random writers, 2 s into a
// 5 s run, moving 323 MiB/s and 12 MiB/s in the last second.
RunStatus Example(uint64_t t, uint64_t read_bytes, uint64_t read_ios, uint64_t write_bytes,
                  uint64_t write_ios) {
  RunStatus run;
  run.elapsed_ns = t;
  for (int i = 0; i < 2; ++i) {
    JobStatus r = Job('r', 0x1, t, 5 * kSec);
    r.bytes[0] = read_bytes / 2;
    r.ios[0] = read_ios / 2;
    run.jobs.push_back(r);
  }
  for (int i = 0; i < 2; ++i) {
    JobStatus w = Job('w', 0x2, t, 5 * kSec);
    w.bytes[1] = write_bytes / 2;
    w.ios[1] = write_ios / 2;
    run.jobs.push_back(w);
  }
  return run;
}

TEST(StatusLineFormat, CompactNumbersLikeFio) {
  EXPECT_EQ(FormatBytes(0), "0B");
  EXPECT_EQ(FormatBytes(1023), "1023B");
  EXPECT_EQ(FormatBytes(9999), "9999B");
  EXPECT_EQ(FormatBytes(10000), "9.76KiB");
  EXPECT_EQ(FormatBytes(12 * kMiB), "12.0MiB");
  EXPECT_EQ(FormatBytes(323 * kMiB), "323MiB");
  EXPECT_EQ(FormatBytes(500 * kMiB), "500MiB");
  EXPECT_EQ(FormatBytes(uint64_t{2} * 1024 * kMiB + 512 * kMiB), "2560MiB");
  EXPECT_EQ(FormatBytes(uint64_t{24} * 1024 * 1024 * kMiB), "24.0TiB");
  EXPECT_EQ(FormatCount(3001), "3001");
  EXPECT_EQ(FormatCount(9999), "9999");
  EXPECT_EQ(FormatCount(10000), "10.0k");
  EXPECT_EQ(FormatCount(82800), "82.8k");
  EXPECT_EQ(FormatCount(128000), "128k");
  EXPECT_EQ(FormatCount(6180000), "6180k");
  EXPECT_EQ(FormatCount(12345678), "12.3M");
  EXPECT_EQ(FormatEta(3), "00m:03s");
  EXPECT_EQ(FormatEta(3725), "01h:02m:05s");
  EXPECT_EQ(FormatEta(90061), "01d:01h:01m:01s");  // fio's "%02ud:"
  EXPECT_EQ(FormatEta(86400), "01d:00h:00m:00s");
  EXPECT_EQ(FormatEta(123 * 86400 + 59), "123d:00h:00m:59s");
}

TEST(StatusLineRender, IssueExampleGolden) {
  StatusLine line;
  const uint64_t r1 = 1000 * kMiB, w1 = 40 * kMiB;
  line.Render(Example(1 * kSec, r1, 200000, w1, 10000), 1 * kSec);
  const std::string s = line.Render(
      Example(2 * kSec, r1 + 323 * kMiB, 200000 + 82800, w1 + 12 * kMiB, 10000 + 3072), 2 * kSec);
  EXPECT_EQ(s,
            "Jobs: 4 (f=4): [r(2),w(2)][40.0%][r=323MiB/s,w=12.0MiB/s][r=82.8k,w=3072 IOPS]"
            "[eta 00m:03s]");
  EXPECT_EQ(line.last_eta_ns(), static_cast<int64_t>(3 * kSec));
}

TEST(StatusLineRender, FirstRenderRatesSinceRunStart) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 2 * kSec;
  JobStatus j = Job('R', 0x1, 2 * kSec, 4 * kSec);
  j.bytes[0] = 1000 * kMiB;
  j.ios[0] = 256000;
  run.jobs.push_back(j);
  EXPECT_EQ(line.Render(run, 100 * kSec),
            "Jobs: 1 (f=1): [R(1)][50.0%][r=500MiB/s][r=128k IOPS][eta 00m:02s]");
}

TEST(StatusLineRender, NoKnownEndShowsElapsedAndStatesAndRateLimits) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 65 * kSec + 300000000;
  JobStatus done = Job(job_state::kReaped, 0x3, 0, 0);
  JobStatus mixed = Job('M', 0x3, run.elapsed_ns, 0);  // size unknown, no runtime
  mixed.rate_bps = 12 * kMiB;
  JobStatus waiting = Job(job_state::kNotStarted, 0x1, 0, 0);
  JobStatus waiting2 = Job(job_state::kSetup, 0x1, 0, 0);
  run.jobs = {done, mixed, waiting, waiting2};
  EXPECT_EQ(line.Render(run, 65 * kSec + 300000000),
            "Jobs: 1 (f=1), 0B/s-12.0MiB/s: [_(1),M(1),P(2)][-.-%][r=0B/s,w=0B/s]"
            "[r=0,w=0 IOPS][elapsed 01m:05s]");
  EXPECT_EQ(line.last_eta_ns(), -1);
}

// A byte-rate limit and an IOPS limit among the jobs: fio 3.33 shows the
// bytes' range alone ("else if" in display_thread_status), and scripts parse
// the line; iobench showed both ("..., 100-500 IOPS: [...]"). A rate_min
// without a rate shows as fio's "6144KiB/s-0B/s".
TEST(StatusLineRender, ByteRateLimitHidesTheIopsLimitAsFio) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 10 * kSec;
  JobStatus bytes = Job('R', 0x1, 10 * kSec, 20 * kSec);
  bytes.rate_bps = 12 * kMiB;
  bytes.rate_min_bps = 6 * kMiB;
  JobStatus iops = Job('R', 0x1, 10 * kSec, 20 * kSec);
  iops.rate_iops = 500;
  iops.rate_iops_min = 100;
  run.jobs = {bytes, iops};
  std::string s = line.Render(run, 10 * kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=2), 6144KiB/s-12.0MiB/s: [R(2)]", 0), 0u) << s;
  run.jobs[0].rate_bps = 0;
  s = line.Render(run, 11 * kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=2), 6144KiB/s-0B/s: [R(2)]", 0), 0u) << s;
  run.jobs[0].rate_min_bps = 0;
  s = line.Render(run, 12 * kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=2), 100-500 IOPS: [R(2)]", 0), 0u) << s;
}

TEST(StatusLineRender, SizeBasedEstimateAndLaterGroups) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 10 * kSec;
  JobStatus j = Job('W', 0x2, 10 * kSec, 0);
  j.planned_bytes = 1024 * kMiB;
  j.bytes[1] = 256 * kMiB;  // a quarter in 10 s: 30 s to go
  j.rate_iops = 5000;
  j.rate_iops_min = 100;
  run.jobs.push_back(j);
  EXPECT_EQ(line.Render(run, 10 * kSec),
            "Jobs: 1 (f=1), 100-5000 IOPS: [W(1)][25.0%][w=25.6MiB/s][w=0 IOPS][eta 00m:30s]");
  // The limits as plain numbers, as fio prints them ("32.0k" before).
  run.jobs[0].rate_iops = 32000;
  EXPECT_EQ(line.Render(run, 10 * kSec).rfind("Jobs: 1 (f=1), 100-32000 IOPS: [W(1)]", 0), 0u);
  run.jobs[0].rate_iops = 5000;
  // A later phase (stonewall), planned at 60 s: it follows this one.
  JobStatus later = Job(job_state::kNotStarted, 0x1, 0, 60 * kSec);
  later.phase = 1;
  run.jobs.push_back(later);
  StatusLine fresh;
  std::string s = fresh.Render(run, 10 * kSec);
  EXPECT_NE(s.find("[W(1),P(1)][10.0%]"), std::string::npos) << s;
  EXPECT_NE(s.find("[eta 01m:30s]"), std::string::npos) << s;
  // A later run (sweep point) planned at 60 s, after both.
  run.later_ns = 60 * kSec;
  StatusLine sweep;
  s = sweep.Render(run, 10 * kSec);
  EXPECT_NE(s.find("[6.2%]"), std::string::npos) << s;  // 10 s of 160
  EXPECT_NE(s.find("[eta 02m:30s]"), std::string::npos) << s;
}

// The % never goes back: a job slower than it was holds it still, and the
// ETA tells the rest.
TEST(StatusLineRender, PercentNeverGoesBack) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 20 * kSec;  // 10 s of layout, then the job
  JobStatus j = Job('W', 0x2, 10 * kSec, 0);
  j.planned_bytes = 1024 * kMiB;
  j.bytes[1] = 512 * kMiB;  // half in 10 s: 10 s to go, 20 of 30 s
  run.jobs.push_back(j);
  std::string s = line.Render(run, 20 * kSec);
  EXPECT_NE(s.find("[66.6%]"), std::string::npos) << s;
  run.elapsed_ns = 30 * kSec;
  run.jobs[0].elapsed_ns = 20 * kSec;  // stalled: 20 s to go, 30 of 50 s
  s = line.Render(run, 30 * kSec);
  EXPECT_NE(s.find("[66.6%]"), std::string::npos) << s;
  EXPECT_NE(s.find("[eta 00m:20s]"), std::string::npos) << s;
}

// A job at 1000 IOPS of 4 KiB whose 2 s ramp ends half-way through the
// interval: its counters restart at 0, and the 500 I/Os since the ramp end
// are rated over the 0.5 s since, not the whole second (500 IOPS before).
RunStatus Ramped(uint64_t now, uint64_t since, uint64_t ios) {
  RunStatus run;
  run.elapsed_ns = now;
  JobStatus j = Job('r', 0x1, now, 0);
  j.counting_since_ns = since;
  j.ios[0] = ios;
  j.bytes[0] = ios * 4096;
  run.jobs.push_back(j);
  return run;
}

TEST(StatusLineRender, RampEndRatesOverTheTimeSinceCountingRestarted) {
  StatusLine line;
  // The job started at 1 ns (counting since its start, the ramp counting).
  line.Render(Ramped(1 * kSec, 1, 1000), 1 * kSec);
  EXPECT_NE(line.Render(Ramped(2 * kSec, 1, 2000), 2 * kSec).find("[r=1000 IOPS]"),
            std::string::npos);
  const std::string s = line.Render(Ramped(3 * kSec, 2 * kSec + kSec / 2, 500), 3 * kSec);
  EXPECT_NE(s.find("[r=4000KiB/s][r=1000 IOPS]"), std::string::npos) << s;
  // The next interval is an ordinary one again.
  EXPECT_NE(
      line.Render(Ramped(4 * kSec, 2 * kSec + kSec / 2, 1500), 4 * kSec).find("[r=1000 IOPS]"),
      std::string::npos);
}

TEST(StatusLineRender, RampEndJustNowKeepsThePreviousRate) {
  StatusLine line;
  line.Render(Ramped(1 * kSec, 1, 1000), 1 * kSec);
  line.Render(Ramped(2 * kSec, 1, 1800), 2 * kSec);  // 800 IOPS in the last second
  // Restarted 10 ms ago with 10 I/Os: too little to rate; 800 stays.
  const std::string s = line.Render(Ramped(3 * kSec, 3 * kSec - kSec / 100, 10), 3 * kSec);
  EXPECT_NE(s.find("[r=800 IOPS]"), std::string::npos) << s;
  // Then rated on what it did since the restart.
  EXPECT_NE(
      line.Render(Ramped(4 * kSec, 3 * kSec - kSec / 100, 1010), 4 * kSec).find("[r=1000 IOPS]"),
      std::string::npos);
}

// The job's next run (a sweep point, a --repeat) started 20 ms before the
// line: too little to rate on, so the last run's rate stays; it showed the
// 100 I/Os of those 20 ms over the whole second (r=100 IOPS at rate_iops=5000).
TEST(StatusLineRender, ANewRunJustStartedKeepsThePreviousRate) {
  StatusLine line;
  line.Render(Ramped(1 * kSec, 1, 5000), 1 * kSec);
  line.Render(Ramped(2 * kSec, 1, 10000), 2 * kSec);
  RunStatus next = Ramped(3 * kSec, 3 * kSec - kSec / 50, 100);
  next.jobs[0].elapsed_ns = kSec / 50;  // the job itself started then, no ramp
  std::string s = line.Render(next, 3 * kSec);
  EXPECT_NE(s.find("[r=5000 IOPS]"), std::string::npos) << s;
  next = Ramped(4 * kSec, 3 * kSec - kSec / 50, 5100);
  next.jobs[0].elapsed_ns = kSec + kSec / 50;
  s = line.Render(next, 4 * kSec);
  EXPECT_NE(s.find("[r=5000 IOPS]"), std::string::npos) << s;
}

// A job in its ramp_time: fio's line rates none of its I/O, and shows
// "-.-%" while every running job ramps (ioengine=null ramp_time=2 runtime=2:
// fio 3.33 "Jobs: 1 (f=0): [/(1)][-.-%][eta 00m:02s]"; iobench showed
// "[/(1)][25.9%][r=67.2GiB/s][r=17.6M IOPS][eta 00m:03s]").
TEST(StatusLineRender, ARampingJobIsNotRatedAndShowsNoPercent) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = 1 * kSec;
  JobStatus ramp = Job(job_state::kRamp, 0x1, 1 * kSec, 4 * kSec);
  ramp.ramp_ns = 2 * kSec;
  ramp.counting_since_ns = 1;
  ramp.ios[0] = 17600000;
  ramp.bytes[0] = ramp.ios[0] * 4096;
  run.jobs.push_back(ramp);
  EXPECT_EQ(line.Render(run, 1 * kSec), "Jobs: 1 (f=0): [/(1)][-.-%][eta 00m:03s]");
  // Beside a job held at 50 MiB/s: that job's rate alone (fio: r=50.0MiB/s;
  // iobench showed r=46.8GiB/s), and a percent, which it measures.
  JobStatus paced = Job('R', 0x1, 1 * kSec, 4 * kSec);
  paced.counting_since_ns = 1;
  paced.rate_bps = 50 * kMiB;
  paced.bytes[0] = 50 * kMiB;
  paced.ios[0] = 50 * kMiB / 4096;
  run.jobs.push_back(paced);
  StatusLine mixed;
  const std::string s = mixed.Render(run, 1 * kSec);
  EXPECT_EQ(s,
            "Jobs: 2 (f=1), 0B/s-50.0MiB/s: [/(1),R(1)][25.0%][r=50.0MiB/s][r=12.8k IOPS]"
            "[eta 00m:03s]");
  // The ramp's end: its counters restart, and it is rated from there.
  run.elapsed_ns = 3 * kSec;
  run.jobs[0].state = 'R';
  run.jobs[0].elapsed_ns = 3 * kSec;
  run.jobs[0].counting_since_ns = 2 * kSec;
  run.jobs[0].ios[0] = 1000;
  run.jobs[0].bytes[0] = 1000 * 4096;
  run.jobs[1].elapsed_ns = 3 * kSec;
  run.jobs[1].bytes[0] = 150 * kMiB;
  run.jobs[1].ios[0] = 150 * kMiB / 4096;
  const std::string after = mixed.Render(run, 3 * kSec);
  EXPECT_NE(after.find("[r=53.9MiB/s][r=13.8k IOPS]"), std::string::npos) << after;
}

// A ramp that ends just before the next line (the last eighth of the
// interval) carries the ramp's rate for that line, as any restart does: not
// shown while it ramped, but the best figure there is. Rated over the whole
// interval, the 10 ms since its end showed r=10 IOPS for a job at 1000.
TEST(StatusLineRender, ARampEndingJustNowCarriesItsRampRate) {
  StatusLine line;
  RunStatus run = Ramped(1 * kSec, 1, 1000);
  run.jobs[0].state = job_state::kRamp;
  run.jobs[0].ramp_ns = 2 * kSec;
  line.Render(run, 1 * kSec);
  run = Ramped(2 * kSec, 1, 2000);
  run.jobs[0].state = job_state::kRamp;
  run.jobs[0].ramp_ns = 2 * kSec;
  EXPECT_EQ(line.Render(run, 2 * kSec).find("IOPS"), std::string::npos);
  run = Ramped(3 * kSec, 3 * kSec - kSec / 100, 10);
  run.jobs[0].ramp_ns = 2 * kSec;
  const std::string s = line.Render(run, 3 * kSec);
  EXPECT_NE(s.find("[r=4000KiB/s][r=1000 IOPS]"), std::string::npos) << s;
}

// The worker stores its running letter at the ramp's end just before
// measured_since_ns: a Load between the two sees the letter with the
// ramp's counters, which must not be rated either.
TEST(StatusLineRender, LoadTakesTheRampAsOverOnlyWhenMeasuringStarted) {
  LiveCounters live;
  JobStatus j;
  j.ramp_ns = 2 * kSec;
  live.start_ns.store(1 * kSec);
  live.state.store('R');
  j.Load(live, 3 * kSec);
  EXPECT_TRUE(j.Ramping());
  live.measured_since_ns.store(3 * kSec);
  j.Load(live, 3 * kSec);
  EXPECT_FALSE(j.Ramping());
  live.state.store(job_state::kRamp);
  j.Load(live, 3 * kSec);
  EXPECT_TRUE(j.Ramping());
  JobStatus no_ramp;  // ramp_time=0: counting from the start is measuring
  live.measured_since_ns.store(0);
  live.state.store('R');
  no_ramp.Load(live, 3 * kSec);
  EXPECT_FALSE(no_ramp.Ramping());
}

// A size-limited job's ramp moves bytes of its size (fio's and iobench's
// size=64m rate=16m ramp_time=2 ends after 4 s, 32 MiB measured), but its
// counters restart from 0 at the ramp's end: the ETA counted the ramp's
// 32 MiB as still to go ("[eta 04m:13s]" on the line after the ramp).
TEST(StatusLineRender, ARampsBytesCountTowardTheSize) {
  LiveCounters live;
  JobStatus j;
  j.ramp_ns = 2 * kSec;
  j.planned_bytes = 64 * kMiB;
  j.ddir_mask = 0x1;
  live.start_ns.store(1);
  live.state.store(job_state::kRamp);
  live.bytes[0].store(31 * kMiB);
  j.Load(live, 2 * kSec - kSec / 16);
  EXPECT_EQ(j.ramp_bytes, 0u);
  // The ramp ended at 2 s; 8 MiB since, at 2.5 s.
  live.state.store('R');
  live.bytes[0].store(8 * kMiB);
  live.measured_since_ns.store(2 * kSec);
  j.Load(live, 2 * kSec + kSec / 2);
  EXPECT_EQ(j.ramp_bytes, 31 * kMiB);
  j.Load(live, 2 * kSec + kSec / 2);  // kept at later Loads
  EXPECT_EQ(j.ramp_bytes, 31 * kMiB);
  RunStatus run;
  run.elapsed_ns = 2 * kSec + kSec / 2;
  run.run_elapsed_ns = run.elapsed_ns;
  run.jobs.push_back(j);
  // 39 MiB in 2.5 s: 25 MiB left, 1.6 s.
  StatusLine line;
  const std::string s = line.Render(run, 2 * kSec + kSec / 2);
  EXPECT_NE(s.find("[R(1)][60.9%]"), std::string::npos) << s;
  EXPECT_NE(s.find("[eta 00m:02s]"), std::string::npos) << s;
}

// The worker zeroes its counters at the ramp's end a moment before it stores
// measured_since_ns: a Load in between saw 0 bytes with the ramp's letter,
// and the next one took those 0 bytes as the ramp's (the ETA counted the
// whole size as still to go).
TEST(StatusLineRender, ARampsBytesSurviveALoadBetweenZeroAndMeasuring) {
  LiveCounters live;
  JobStatus j;
  j.ramp_ns = 2 * kSec;
  j.ddir_mask = 0x1;
  live.start_ns.store(1);
  live.state.store(job_state::kRamp);
  live.bytes[0].store(31 * kMiB);
  j.Load(live, 2 * kSec - kSec / 16);
  live.bytes[0].store(0);  // zeroed; the letter and measured_since_ns not yet
  j.Load(live, 2 * kSec);
  EXPECT_EQ(j.ramp_bytes, 0u);
  live.state.store('R');
  live.bytes[0].store(8 * kMiB);
  live.measured_since_ns.store(2 * kSec);
  j.Load(live, 2 * kSec + kSec / 2);
  EXPECT_EQ(j.ramp_bytes, 31 * kMiB);
}

TEST(StatusLineRender, JobsAreRatedEachOnItsOwnCounters) {
  StatusLine line;
  RunStatus run = Ramped(1 * kSec, 1, 1000);
  run.jobs.push_back(run.jobs[0]);
  line.Render(run, 1 * kSec);
  // Job 0 goes on at 1000 IOPS; job 1's ramp ended 0.25 s ago (250 I/Os
  // since): 1000 + 1000. A summed counter went down, and the old code
  // rated the sum of both over the second: 1000 + 250 - 1000.
  run = Ramped(2 * kSec, 1, 2000);
  run.jobs.push_back(Ramped(2 * kSec, 2 * kSec - kSec / 4, 250).jobs[0]);
  const std::string s = line.Render(run, 2 * kSec);
  EXPECT_NE(s.find("[r=2000 IOPS]"), std::string::npos) << s;
}

TEST(StatusLineRender, AJobStartingMidIntervalIsRatedSinceItsStart) {
  StatusLine line;
  RunStatus run = Ramped(1 * kSec, 1, 1000);
  line.Render(run, 1 * kSec);
  // A new phase: the slot now holds a job that started 0.4 s ago (no ramp:
  // it counts from its start) and did 400 I/Os.
  run = Ramped(2 * kSec, 2 * kSec - 2 * kSec / 5, 400);
  const std::string s = line.Render(run, 2 * kSec);
  EXPECT_NE(s.find("[r=1000 IOPS]"), std::string::npos) << s;
}

TEST(StatusLineRender, JobStatusLoadGivesElapsedAndCountingStart) {
  LiveCounters live;
  JobStatus j;
  j.Load(live, 5 * kSec);
  EXPECT_EQ(j.elapsed_ns, 0u);  // not started
  EXPECT_EQ(j.counting_since_ns, 0u);
  live.start_ns.store(2 * kSec);
  live.ios[0].store(7);
  j.Load(live, 5 * kSec);
  EXPECT_EQ(j.elapsed_ns, 3 * kSec);
  EXPECT_EQ(j.counting_since_ns, 2 * kSec);  // ramp: counts since the start
  EXPECT_EQ(j.ios[0], 7u);
  live.measured_since_ns.store(4 * kSec);
  j.Load(live, 5 * kSec);
  EXPECT_EQ(j.elapsed_ns, 3 * kSec);
  EXPECT_EQ(j.counting_since_ns, 4 * kSec);
}

TEST(StatusLineRender, EtaModeParsing) {
  EXPECT_EQ(ParseEtaMode("always").value(), EtaMode::kAlways);
  EXPECT_EQ(ParseEtaMode("AUTO").value(), EtaMode::kAuto);
  EXPECT_EQ(ParseEtaMode("never").value(), EtaMode::kNever);
  EXPECT_EQ(ParseEtaMode("sometimes").status().message(),
            "--eta: 'sometimes' is not one of auto, always, never");
  EXPECT_EQ(RunningLetter(RwMode::kRandRW), 'm');
  EXPECT_EQ(RunningLetter(RwMode::kTrim), 'D');
}

TEST(StatusLineRender, PlanFromSpec) {
  JobSpec spec;
  spec.rw = RwMode::kRandRW;
  spec.io_size = 0;
  spec.loops = 2;
  spec.rate_iops[0] = 1000;
  spec.rate_iops[1] = 500;
  spec.rate_iops[2] = 700;  // trim: randrw does none, so it does not count
  JobStatus sized = JobStatus::FromSpec(spec, 64 * kMiB);
  EXPECT_EQ(sized.ddir_mask, 0x3);
  EXPECT_EQ(sized.planned_bytes, 128 * kMiB);
  EXPECT_EQ(sized.planned_ns, 0u);
  EXPECT_EQ(sized.rate_iops, 1500u);
  spec.time_based = true;
  spec.runtime_ns = 60 * kSec;
  spec.ramp_time_ns = 5 * kSec;
  JobStatus timed = JobStatus::FromSpec(spec, 64 * kMiB);
  EXPECT_EQ(timed.planned_bytes, 0u);
  EXPECT_EQ(timed.planned_ns, 65 * kSec);
  // A runtime shorter than the ramp ends inside it when the job waits on
  // its rate (both directions limited here), as in fio 3.33 ...
  spec.ramp_time_ns = 90 * kSec;
  EXPECT_EQ(JobStatus::FromSpec(spec, 64 * kMiB).planned_ns, 60 * kSec);
  // ... and counts after it otherwise: writes unlimited, or no rate at all.
  spec.rate_iops[1] = 0;
  EXPECT_EQ(JobStatus::FromSpec(spec, 64 * kMiB).planned_ns, 150 * kSec);
  spec.rate_iops[0] = 0;
  EXPECT_EQ(JobStatus::FromSpec(spec, 64 * kMiB).planned_ns, 150 * kSec);
}

// ----------------------------------------------------------------- printer

std::string Drain(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

class Pty {
 public:
  explicit Pty(unsigned short cols = 0) {
    winsize ws{};
    ws.ws_col = cols;
    ws.ws_row = 24;
    ok_ = ::openpty(&master_, &slave_, nullptr, nullptr, &ws) == 0;
    if (!ok_) return;
    termios t;
    ::tcgetattr(slave_, &t);
    ::cfmakeraw(&t);  // no "\n" -> "\r\n": count exactly what was written
    ::tcsetattr(slave_, TCSANOW, &t);
    ::fcntl(master_, F_SETFL, O_NONBLOCK);
  }
  ~Pty() {
    if (ok_) {
      ::close(master_);
      ::close(slave_);
    }
  }
  bool ok() const { return ok_; }
  int master() const { return master_; }
  int slave() const { return slave_; }

 private:
  bool ok_ = false;
  int master_ = -1, slave_ = -1;
};

RunStatus Simple(uint64_t t) {
  RunStatus run;
  run.elapsed_ns = t;
  JobStatus j = Job('R', 0x1, t, 10 * kSec);
  j.bytes[0] = t / kSec * 4096 * 1000;
  j.ios[0] = t / kSec * 1000;
  run.jobs.push_back(j);
  return run;
}

TEST(StatusPrinterTest, RedrawsInPlaceOnATerminalOncePerInterval) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 0});
  ASSERT_TRUE(p.enabled());
  int draws = 0;
  for (uint64_t t = 0; t <= 10 * kSec; t += kSec / 10) draws += p.Update(Simple(t), t);
  EXPECT_EQ(draws, 11);  // t = 0, 1, ..., 10 s
  p.Finish();
  EXPECT_FALSE(p.Update(Simple(11 * kSec), 11 * kSec));
  const std::string out = Drain(pty.master());
  EXPECT_EQ(std::count(out.begin(), out.end(), '\r'), 12);  // 11 draws + the final clear
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 0);
  // The last draw, then the final clear blanks it and returns the cursor.
  const std::string last = "Jobs: 1 (f=1): [R(1)][100.0%][r=4000KiB/s][r=1000 IOPS][eta 00m:00s]";
  const std::string tail = last + "\r" + std::string(last.size(), ' ') + "\r";
  ASSERT_GE(out.size(), tail.size());
  EXPECT_EQ(out.substr(out.size() - tail.size()), tail);
  // The first draw, before a full period was measured, shows no rate (fio
  // waits for one); the second rates the first second.
  EXPECT_EQ(out.rfind("Jobs: 1 (f=1): [R(1)][0.0%][eta 00m:10s]\r"
                      "Jobs: 1 (f=1): [R(1)][10.0%][r=4000KiB/s][r=1000 IOPS][eta 00m:09s]\r",
                      0),
            0u)
      << out;
}

// The rates are measured over 95% of the interval at least (fio's
// eta_time_within_slack): the first draw, 5 ms into a rate=20m run, showed
// [w=21.7MiB/s] (4 writes of 64 KiB over 5 ms... rounded by the clock);
// fio draws no rate before a full period. A draw sooner than that after the
// last measurement (an interim report's Clear redraws at once) shows the
// rates measured then, and the next window runs from that measurement.
TEST(StatusPrinterTest, RatesWaitForAFullWindow) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  StatusPrinter p(fds[1], {EtaMode::kAlways, kSec, 0});
  auto run = [](uint64_t t, uint64_t ios) {
    RunStatus r;
    r.elapsed_ns = t;
    JobStatus j = Job('W', 0x2, t, 10 * kSec);
    j.counting_since_ns = 1;
    j.ios[1] = ios;
    j.bytes[1] = ios * 64 * 1024;
    r.jobs.push_back(j);
    return r;
  };
  ASSERT_TRUE(p.Update(run(5 * kMs, 2), 5 * kMs));
  ASSERT_TRUE(p.Update(run(kSec + 5 * kMs, 322), kSec + 5 * kMs));
  p.Clear();  // an interim report
  ASSERT_TRUE(p.Update(run(kSec + 305 * kMs, 420), kSec + 305 * kMs));
  ASSERT_TRUE(p.Update(run(2 * kSec + 305 * kMs, 738), 2 * kSec + 305 * kMs));
  ::close(fds[1]);
  const std::string out = Drain(fds[0]);
  ::close(fds[0]);
  const auto lines = [&] {
    std::vector<std::string> v;
    size_t at = 0;
    for (size_t end; (end = out.find_first_of("\r\n", at)) != std::string::npos; at = end + 1)
      if (end > at) v.push_back(out.substr(at, end - at));
    return v;
  }();
  ASSERT_EQ(lines.size(), 4u) << out;
  EXPECT_EQ(lines[0], "Jobs: 1 (f=1): [W(1)][0.0%][eta 00m:10s]");
  EXPECT_NE(lines[1].find("[w=20.0MiB/s][w=320 IOPS]"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("[w=20.0MiB/s][w=320 IOPS]"), std::string::npos) << lines[2];
  // 416 writes in the 1.3 s since the measurement at 1.005 s.
  EXPECT_NE(lines[3].find("[w=20.0MiB/s][w=320 IOPS]"), std::string::npos) << lines[3];
}

TEST(StatusPrinterTest, ShorterLineOverwritesLeftovers) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 0});
  RunStatus longer = Simple(kSec);
  longer.jobs[0].rate_bps = 100 * kMiB;  // adds ", 0B/s-100MiB/s"
  ASSERT_TRUE(p.Update(longer, kSec));
  const std::string first = Drain(pty.master());
  ASSERT_TRUE(p.Update(Simple(2 * kSec), 2 * kSec));
  const std::string second = Drain(pty.master());
  ASSERT_EQ(first.size(), second.size());  // padded to cover the old text
  EXPECT_EQ(
      second.substr(second.find(']', second.find("[eta")) + 1),
      std::string(first.size() - 1 - (second.find(']', second.find("[eta")) + 1), ' ') + "\r");
}

TEST(StatusPrinterTest, NeverWiderThanTheTerminal) {
  Pty pty(40);
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 0});
  ASSERT_TRUE(p.Update(Simple(kSec), kSec));
  const std::string out = Drain(pty.master());
  EXPECT_EQ(out, "Jobs: 1 (f=1): [R(1)][10.0%][r=4000KiB/\r");
}

// The width is read at each draw: a window made narrower cuts the next line
// to its new width, blanks included (the width was read once, at the start,
// and the line wrapped after a resize). At width 1 nothing but the '\r' fits.
TEST(StatusPrinterTest, AResizedTerminalCutsTheNextLineToItsNewWidth) {
  Pty pty(80);
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 0});
  ASSERT_TRUE(p.Update(Simple(kSec), kSec));
  EXPECT_EQ(Drain(pty.master()),
            "Jobs: 1 (f=1): [R(1)][10.0%][r=4000KiB/s][r=1000 IOPS][eta 00m:09s]\r");
  auto resize = [&](unsigned short cols) {
    winsize ws{};
    ws.ws_col = cols;
    ws.ws_row = 24;
    return ::ioctl(pty.master(), TIOCSWINSZ, &ws) == 0;
  };
  ASSERT_TRUE(resize(30));
  ASSERT_TRUE(p.Update(Simple(2 * kSec), 2 * kSec));
  EXPECT_EQ(Drain(pty.master()), "Jobs: 1 (f=1): [R(1)][20.0%][\r");
  ASSERT_TRUE(resize(1));
  ASSERT_TRUE(p.Update(Simple(3 * kSec), 3 * kSec));
  EXPECT_EQ(Drain(pty.master()), "\r");
  ASSERT_TRUE(resize(20));
  ASSERT_TRUE(p.Update(Simple(4 * kSec), 4 * kSec));
  EXPECT_EQ(Drain(pty.master()), "Jobs: 1 (f=1): [R(1\r");
  p.Finish();
  EXPECT_EQ(Drain(pty.master()), std::string(19, ' ') + "\r");
}

TEST(StatusPrinterTest, EtaNewlineKeepsALineEveryPeriod) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 2 * kSec});
  for (uint64_t t = 0; t <= 4 * kSec; t += kSec) ASSERT_TRUE(p.Update(Simple(t), t));
  const std::string out = Drain(pty.master());
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2);  // at 2 s and 4 s
  EXPECT_NE(out.find("[eta 00m:08s]\r\n"), std::string::npos) << out;
}

// Polled every 20 ms with a little lateness, as the coordinator does: a
// draw every interval from the first, none skipped for a poll that came a
// few ms before "one interval since the previous draw".
TEST(StatusPrinterTest, DrawsStayOnTheIntervalGridWhenPolled) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, kSec});
  std::vector<uint64_t> drawn;
  const uint64_t poll = kSec / 50;
  for (uint64_t t = 3 * kSec / 1000; t <= 10 * kSec; t += poll + (t / poll % 3) * kSec / 1000)
    if (p.Update(Simple(t), t)) drawn.push_back(t);
  ASSERT_EQ(drawn.size(), 10u);
  for (size_t i = 1; i < drawn.size(); ++i) {
    EXPECT_GE(drawn[i], drawn[0] + i * kSec) << i;
    EXPECT_LT(drawn[i], drawn[0] + i * kSec + 2 * poll) << i;
  }
  const std::string out = Drain(pty.master());
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 9);  // every draw after the first
}

TEST(StatusPrinterTest, IntervalBelowFioMinimumIsRaised) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, 1000, 0});  // 1 us asked
  int draws = 0;
  for (uint64_t t = 0; t < kSec; t += kSec / 100) draws += p.Update(Simple(t), t);
  EXPECT_EQ(draws, 4);  // 0, 250, 500, 750 ms
}

TEST(StatusPrinterTest, ClearThenRedrawImmediately) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kAuto, kSec, 0});
  ASSERT_TRUE(p.Update(Simple(kSec), kSec));
  const size_t len = Drain(pty.master()).size() - 1;
  p.Clear();
  EXPECT_EQ(Drain(pty.master()), std::string(len, ' ') + "\r");
  p.Clear();  // nothing shown: nothing written
  EXPECT_EQ(Drain(pty.master()), "");
  EXPECT_TRUE(p.Update(Simple(kSec + 1), kSec + 1));  // an interim report was printed
}

TEST(StatusPrinterTest, AutoPrintsNothingIntoAPipe) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK), 0);
  {
    StatusPrinter p(fds[1], {EtaMode::kAuto, kSec, 0});
    EXPECT_FALSE(p.enabled());
    for (uint64_t t = 0; t <= 3 * kSec; t += kSec) EXPECT_FALSE(p.Update(Simple(t), t));
    p.Finish();
  }
  EXPECT_EQ(Drain(fds[0]), "");
  {
    StatusPrinter never(fds[1], {EtaMode::kNever, kSec, 0});
    EXPECT_FALSE(never.Update(Simple(0), 0));
  }
  EXPECT_EQ(Drain(fds[0]), "");
  {
    StatusPrinter always(fds[1], {EtaMode::kAlways, kSec, 0});  // the user asked
    EXPECT_TRUE(always.Update(Simple(0), 0));
    EXPECT_EQ(Drain(fds[0]), "Jobs: 1 (f=1): [R(1)][0.0%][eta 00m:10s]\r");
    // Not a terminal: the line ends before a report, as fio's "\r\n"
    // (blanks and '\r' went in front of the report's first line).
    always.Finish();
    EXPECT_EQ(Drain(fds[0]), "\n");
  }
  ::close(fds[0]);
  ::close(fds[1]);
}

// The reports go to --output=FILE, not into the line's pipe: the line is
// not ended there before them (fio writes '\r' alone); it was "\r\n" before
// each interim report and at the end.
TEST(StatusPrinterTest, APipeWithoutTheReportsGetsNoNewlines) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK), 0);
  StatusPrinterOptions opts{EtaMode::kAlways, kSec, 0};
  opts.reports_here = false;
  StatusPrinter p(fds[1], opts);
  EXPECT_TRUE(p.Update(Simple(0), 0));
  p.Clear();  // an interim report, written to the other file
  EXPECT_FALSE(p.Update(Simple(kSec / 2), kSec / 2));  // the schedule goes on
  EXPECT_TRUE(p.Update(Simple(kSec), kSec));
  p.Finish();
  const std::string out = Drain(fds[0]);
  EXPECT_EQ(out.find('\n'), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\r'), 2) << out;
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(StatusPrinterTest, NeverOnATerminalPrintsNothing) {
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinter p(pty.slave(), {EtaMode::kNever, kSec, 0});
  EXPECT_FALSE(p.enabled());
  EXPECT_FALSE(p.Update(Simple(0), 0));
  EXPECT_EQ(Drain(pty.master()), "");
}

// ------------------------------------------------ states, plans, progress

// fio counts as running only RUNNING, VERIFYING, FSYNCING, PRE_READING,
// FINISHING and RAMP; C, I and P are pending. A job waiting for its
// startdelay (I) was counted with its files and rate limit.
TEST(StatusLineStates, OnlyFiosRunningStatesCount) {
  for (char c : std::string("RrWwMmDdp/FVf")) EXPECT_TRUE(StateIsRunning(c)) << c;
  for (char c : std::string("PCIE_XK")) EXPECT_FALSE(StateIsRunning(c)) << c;
  EXPECT_FALSE(StateIsRunning(job_state::kNotStarted));
  for (char c : std::string("E_XK")) EXPECT_TRUE(StateIsDone(c)) << c;
  for (char c : std::string("PCIrW/V")) EXPECT_FALSE(StateIsDone(c)) << c;
}

// The issue's jobs: one in its ramp, one writing, one waiting for its
// startdelay; 1000 IOPS each. fio 3.33: "Jobs: 2 (f=1), 0-1000 IOPS" (a
// ramping job counts, but adds no files and no rate limits).
TEST(StatusLineStates, RampAddsNoFilesOrRatesAndPendingJobsDoNotCount) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = kSec;
  for (char c : {job_state::kRamp, 'W', job_state::kInitialized}) {
    JobStatus j = Job(c, c == 'W' ? 0x2 : 0x1, kSec, 3 * kSec);
    j.rate_iops = 1000;
    run.jobs.push_back(j);
  }
  std::string s = line.Render(run, kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=1), 0-1000 IOPS: [/(1),W(1),I(1)]", 0), 0u) << s;
  run.jobs[2].state = job_state::kCreated;
  s = line.Render(run, 2 * kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=1), 0-1000 IOPS: [/(1),W(1),C(1)]", 0), 0u) << s;
  run.jobs[0].state = 'r';  // the ramp is over
  s = line.Render(run, 3 * kSec);
  EXPECT_EQ(s.rfind("Jobs: 2 (f=2), 0-2000 IOPS: [r(1),W(1),C(1)]", 0), 0u) << s;
}

// Ended jobs show the letter their worker stored: X an error, K a signal,
// E exited (not yet torn down), _ reaped; none of them counts.
TEST(StatusLineStates, EndedLettersAsStored) {
  StatusLine line;
  RunStatus run;
  run.elapsed_ns = kSec;
  for (char c : {job_state::kError, job_state::kSignal, job_state::kExited, job_state::kReaped})
    run.jobs.push_back(Job(c, 0x1, kSec, 2 * kSec));
  run.jobs.push_back(Job('r', 0x1, kSec, 2 * kSec));
  const std::string s = line.Render(run, kSec);
  EXPECT_EQ(s.rfind("Jobs: 1 (f=1): [X(1),K(1),E(1),_(1),r(1)][50.0%]", 0), 0u) << s;
}

TEST(StatusLinePlan, FromSpecPacesSizeLimitedJobsAndCountsVerifyReads) {
  JobSpec w = TestJob("w", RwMode::kWrite, 4096, 8 * kMiB);
  w.rate[1] = 4 * kMiB;  // 8 MiB at 4 MiB/s: 2 s
  JobStatus j = JobStatus::FromSpec(w, w.size);
  EXPECT_EQ(j.planned_bytes, 8 * kMiB);
  EXPECT_EQ(j.paced_ns, 2 * kSec);
  w.verify.type = VerifyType::kCrc32c;  // the written bytes are read back (fio's eta)
  EXPECT_EQ(JobStatus::FromSpec(w, w.size).planned_bytes, 16 * kMiB);
  // randrw, 75 % reads limited to 256 IOPS of 4 KiB (1 MiB/s), writes
  // unlimited: 3 MiB of reads take 3 s.
  JobSpec m = TestJob("m", RwMode::kRandRW, 4096, 4 * kMiB);
  m.rwmixread = 75;
  m.rate_iops[0] = 256;
  EXPECT_EQ(JobStatus::FromSpec(m, m.size).paced_ns, 3 * kSec);
  // time_based without a runtime runs size-based (as RunJobs runs it).
  JobSpec u = TestJob("u", RwMode::kRead, 4096, 8 * kMiB);
  u.time_based = true;
  EXPECT_EQ(JobStatus::FromSpec(u, u.size).planned_bytes, 8 * kMiB);
  u.startdelay_ns = kSec;
  u.startdelay_max_ns = 3 * kSec;
  EXPECT_EQ(JobStatus::FromSpec(u, u.size).startdelay_ns, 2 * kSec);  // the middle
}

// Phases as the coordinator makes them (stonewall, a new job file), one
// slot per clone; a run's plan is its phases one after another, each as
// long as its longest job; startdelay counts from the run's start.
TEST(StatusLinePlan, PhasesFollowEachOther) {
  JobSpec a = TestJob("a", RwMode::kRead, 4096, kMiB);
  a.time_based = true;
  a.runtime_ns = kSec;
  a.numjobs = 2;
  JobSpec b = a;
  b.name = "b";
  b.numjobs = 1;
  b.stonewall = true;
  b.runtime_ns = 2 * kSec;
  b.startdelay_ns = 1500 * kMs;  // 0.5 s left when its phase starts at 1 s
  JobSpec c = TestJob("c", RwMode::kWrite, 4096, 8 * kMiB);
  c.job_file_index = 1;
  c.rate[1] = 4 * kMiB;                                      // 2 s
  JobSpec d = TestJob("d", RwMode::kWrite, 4096, 8 * kMiB);  // same file, same phase as c
  d.job_file_index = 1;
  d.rate[1] = 8 * kMiB;
  const std::vector<JobStatus> plan = PlanRun({a, b, c, d});
  ASSERT_EQ(plan.size(), 5u);
  const uint32_t phases[] = {0, 0, 1, 2, 2};
  for (size_t i = 0; i < plan.size(); ++i) EXPECT_EQ(plan[i].phase, phases[i]) << i;
  EXPECT_EQ(RunRemainingNs(plan, 0), static_cast<int64_t>(1 * kSec + 2500 * kMs + 2 * kSec));
  // A size-limited job without a rate limit: nothing tells how long it takes.
  JobSpec e = TestJob("e", RwMode::kRead, 4096, 8 * kMiB);
  e.stonewall = true;
  EXPECT_EQ(RunRemainingNs(PlanRun({a, e}), 0), -1);
}

// A pending size-limited job without a rate limit goes at the speed per job
// seen so far (the same device).
TEST(StatusLinePlan, PendingSizeLimitedJobAtTheSpeedSoFar) {
  JobStatus run1 = Job('W', 0x2, 2 * kSec, 0);
  run1.planned_bytes = 400 * kMiB;
  run1.bytes[1] = 100 * kMiB;  // 50 MiB/s: 6 s left
  JobStatus next = Job(job_state::kNotStarted, 0x1, 0, 0);
  next.planned_bytes = 200 * kMiB;  // 4 s at 50 MiB/s
  next.phase = 1;
  EXPECT_EQ(RunRemainingNs({run1, next}, 2 * kSec), static_cast<int64_t>(10 * kSec));
}

// A size far beyond what its rate moves in the runtime (size=1000p at
// rate=1k, runtime=3): the size's estimate, 10^24 ns, saturates at 2^63 - 1
// instead of a cast that came out negative ("unknown": -.-%, where fio shows
// [75.0%][eta 00m:01s]), so the runtime bounds the ETA. Without a runtime,
// the estimate is the saturated one (fio: 0.0% and an ETA in days).
TEST(StatusLinePlan, RuntimeBoundsASizeEstimatePast63Bits) {
  JobSpec s = TestJob("x", RwMode::kRead, 4096, uint64_t{1000} << 50);
  s.rate[0] = 1024;
  s.runtime_ns = 3 * kSec;
  JobStatus j = JobStatus::FromSpec(s, s.size);
  EXPECT_EQ(j.planned_ns, 3 * kSec);
  EXPECT_EQ(j.paced_ns, static_cast<uint64_t>(INT64_MAX));
  EXPECT_EQ(RunRemainingNs({j}, 0), static_cast<int64_t>(3 * kSec));  // not started yet
  j.state = 'R';
  j.elapsed_ns = 2 * kSec;
  j.bytes[0] = 2048;
  EXPECT_EQ(RunRemainingNs({j}, 2 * kSec), static_cast<int64_t>(kSec));
  RunStatus run;
  run.elapsed_ns = run.run_elapsed_ns = 2 * kSec;
  run.jobs = {j};
  StatusLine line;
  const std::string timed = line.Render(run, 2 * kSec);
  EXPECT_NE(timed.find("[R(1)][66.6%]"), std::string::npos) << timed;
  EXPECT_NE(timed.find("[eta 00m:01s]"), std::string::npos) << timed;

  run.jobs[0].planned_ns = 0;  // no runtime: the size's estimate
  EXPECT_EQ(RunRemainingNs(run.jobs, 2 * kSec), INT64_MAX);
  // A later sweep point of unknown length at that pace saturates too.
  run.later_unplanned = 2;
  StatusLine line2;
  const std::string sized = line2.Render(run, 2 * kSec);
  EXPECT_NE(sized.find("[R(1)][0.0%]"), std::string::npos) << sized;
  EXPECT_NE(sized.find("[eta 106751d:23h:47m:17s]"), std::string::npos) << sized;
}

// Synthetic progress through a session: `steps` draws every 50 ms while a
// phase runs, checking that the % never goes down, the ETA never goes up,
// and the letters.
struct ProgressCheck {
  StatusLine line;
  double pct = -1;
  int64_t eta = INT64_MAX;
  std::vector<std::string> lines;

  static double Pct(const std::string& s) {
    const size_t end = s.find("%]");
    const size_t begin = s.rfind('[', end);
    return end == std::string::npos ? -1 : std::stod(s.substr(begin + 1, end - begin - 1));
  }
  void Draw(const SessionProgress& p, uint64_t now, const std::string& letters) {
    const std::string s = line.Render(p.status(), now);
    lines.push_back(s);
    EXPECT_NE(s.find(letters), std::string::npos) << s;
    const double now_pct = Pct(s);
    EXPECT_GE(now_pct, pct) << s;
    EXPECT_LE(line.last_eta_ns(), eta) << s;
    EXPECT_GE(line.last_eta_ns(), 0) << s;
    pct = now_pct;
    eta = line.last_eta_ns();
  }
};

// Runs one phase of one time-based job from `start` for `len`, 50 ms
// steps, 100 ms of setup before it.
void RunPhase(SessionProgress* p, ProgressCheck* check, const JobSpec& spec, LiveCounters* live,
              uint64_t* clock, uint64_t len, const std::string& letters) {
  *clock += 100 * kMs;
  p->PhaseStart({&spec}, *clock);
  const uint64_t start = *clock;
  live->start_ns.store(start);
  live->state.store(static_cast<uint8_t>(RunningLetter(spec.rw)));
  for (; *clock <= start + len; *clock += 50 * kMs) {
    live->ios[0].store((*clock - start) / kMs);
    live->bytes[0].store((*clock - start) / kMs * 4096);
    p->Load({live}, *clock);
    check->Draw(*p, *clock, letters);
  }
  live->state.store(job_state::kReaped);
  p->Load({live}, *clock);  // on_phase_end
}

// A group of 1.2 s, then (stonewall) another of 1.2 s: the % went 23.7% ...
// 85.3% and back to 53.6% when the second started (only the running
// phase's jobs were known, and later phases were planned at nothing).
TEST(SessionProgressTest, PercentAndEtaGoOnAcrossStonewallPhases) {
  JobSpec a = TestJob("a", RwMode::kRandRead, 4096, kMiB);
  a.time_based = true;
  a.runtime_ns = 1200 * kMs;
  JobSpec b = a;
  b.name = "b";
  b.rw = RwMode::kWrite;
  b.stonewall = true;
  SessionProgress p(0);
  p.SetPlan({RunRemainingNs(PlanRun({a, b}), 0)});
  p.StartRun(0, {a, b}, 0);
  ProgressCheck check;
  uint64_t clock = 0;
  LiveCounters la, lb;
  RunPhase(&p, &check, a, &la, &clock, 1200 * kMs, "[r(1),P(1)]");
  // 0.6 s into the first phase (draw 13): 0.6 s of it left, and 1.2 s of the next.
  EXPECT_NE(check.lines.at(12).find("[eta 00m:02s]"), std::string::npos) << check.lines.at(12);
  const double end_of_first = check.pct;
  EXPECT_GT(end_of_first, 45.0);
  EXPECT_LT(end_of_first, 55.0);
  RunPhase(&p, &check, b, &lb, &clock, 1200 * kMs, "[_(1),W(1)]");
  EXPECT_GT(check.pct, 95.0);
}

// --sweep iodepth=1,2 of 1 s time-based points: point 1 reached only 79%
// (the later points were planned at 0 during the first run) and point 2
// restarted at 34% (planned as if one more followed it).
TEST(SessionProgressTest, PercentAndEtaGoOnAcrossSweepPoints) {
  JobSpec a = TestJob("a", RwMode::kRandRead, 4096, kMiB);
  a.time_based = true;
  a.runtime_ns = kSec;
  const int64_t len = RunRemainingNs(PlanRun({a}), 0);
  EXPECT_EQ(len, static_cast<int64_t>(kSec));
  SessionProgress p(0);
  p.SetPlan({len, len});
  ProgressCheck check;
  uint64_t clock = 0;
  for (size_t run = 0; run < 2; ++run) {
    p.StartRun(run, {a}, clock);
    LiveCounters live;
    RunPhase(&p, &check, a, &live, &clock, kSec, "[r(1)]");
    p.EndRun(clock);
    if (run == 0) {
      EXPECT_GT(check.pct, 45.0);
      EXPECT_LT(check.pct, 55.0);
    }
  }
  EXPECT_GT(check.pct, 95.0);
}

// Points whose jobs give no plan (size-limited, no rate): each counts as
// long as this one while it is the first, then at the pace of those done.
TEST(SessionProgressTest, UnplannedSweepPointsAtThePaceSoFar) {
  JobSpec a = TestJob("a", RwMode::kRead, 4096, 400 * kMiB);
  EXPECT_EQ(RunRemainingNs(PlanRun({a}), 0), -1);
  SessionProgress p(0);
  p.SetPlan({-1, -1, -1});
  p.StartRun(0, {a}, 0);
  p.PhaseStart({&a}, 1);
  LiveCounters live;
  live.start_ns.store(1);  // (0 is "not started")
  live.state.store('R');
  live.bytes[0].store(100 * kMiB);  // a quarter in 1 s: 3 s left, 4 s a run
  p.Load({&live}, kSec + 1);
  StatusLine line;
  line.Render(p.status(), kSec + 1);
  EXPECT_EQ(line.last_eta_ns(), static_cast<int64_t>(3 * kSec + 2 * 4 * kSec));
  p.EndRun(2 * kSec);  // it took 2 s: the two left count 2 s each
  p.StartRun(1, {a}, 2 * kSec);
  EXPECT_EQ(p.status().pace_ns, 2 * kSec);
  EXPECT_EQ(p.status().later_unplanned, 1u);
  EXPECT_EQ(p.status().jobs.at(0).state, job_state::kNotStarted);
}

// The line is never drawn when the report goes to stdout in formats
// without normal: JSON or terse with status bytes in it did not parse.
TEST(StatusLineAllowedTest, OnlyBesideANormalReportOrAnOutputFile) {
  using F = std::vector<std::string>;
  EXPECT_TRUE(StatusLineAllowed(F{"normal"}, true));
  EXPECT_TRUE(StatusLineAllowed(F{"json", "normal"}, true));
  EXPECT_TRUE(StatusLineAllowed(F{"normal", "table"}, true));
  for (const F& f : {F{"json"}, F{"json+"}, F{"terse"}, F{"json", "terse"}, F{"table"}}) {
    EXPECT_FALSE(StatusLineAllowed(f, true)) << f[0];
    EXPECT_TRUE(StatusLineAllowed(f, false)) << f[0];  // --output=FILE: fio draws it
  }
}

// --output naming stdout itself (/dev/stdout, /proc/self/fd/1, the file
// or pipe stdout is) is the report on stdout: "the report is elsewhere"
// drew the line into the JSON document there.
TEST(StatusLineAllowedTest, AnOutputThatIsTheStreamItselfIsTheReportThere) {
  EXPECT_TRUE(ReportGoesToFd("", 1));
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string self = "/proc/self/fd/" + std::to_string(fds[1]);
  EXPECT_TRUE(ReportGoesToFd(self, fds[1]));
  EXPECT_TRUE(ReportGoesToFd("/proc/self/fd/" + std::to_string(fds[0]), fds[1]));  // same pipe
  char tmpl[] = "/tmp/iobench_same_fd_XXXXXX";
  const int f = ::mkstemp(tmpl);
  ASSERT_GE(f, 0);
  EXPECT_TRUE(ReportGoesToFd(tmpl, f));        // stdout redirected to the --output file
  EXPECT_FALSE(ReportGoesToFd(tmpl, fds[1]));  // another file: the report is elsewhere
  EXPECT_FALSE(ReportGoesToFd(self, f));
  EXPECT_FALSE(ReportGoesToFd(std::string(tmpl) + ".none", f));  // not created yet
  ::unlink(tmpl);
  ::close(f);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(StatusPrinterTest, NotAllowedPrintsNothingEvenWhenAlways) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  StatusPrinterOptions opts{EtaMode::kAlways, kSec, 0};
  opts.allowed = false;
  StatusPrinter p(fds[1], opts);
  EXPECT_FALSE(p.enabled());
  EXPECT_FALSE(p.Update(Simple(0), 0));
  p.Finish();
  EXPECT_EQ(Drain(fds[0]), "");
  ::close(fds[0]);
  ::close(fds[1]);
  Pty pty;
  if (!pty.ok()) GTEST_SKIP() << "openpty failed: no pseudo-terminals here";
  StatusPrinterOptions tty_opts{EtaMode::kAuto, kSec, 0};
  tty_opts.allowed = false;  // a terminal whose output is captured (script, ssh -t)
  StatusPrinter t(pty.slave(), tty_opts);
  EXPECT_FALSE(t.Update(Simple(0), 0));
  EXPECT_EQ(Drain(pty.master()), "");
}

}  // namespace
}  // namespace iobench
