// ctest-labels: threads
// The worker's async loop against a scripted fake engine: completions out of
// order, short transfers, failures and Busy. Every I/O is accounted exactly
// once.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <utility>

#include "fake_engine.h"
#include "run/coordinator.h"
#include "run/worker.h"
#include "stats/summary.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::FakeEngine;
using testing::FakeLedger;
using testing::FakeScript;
using testing::TestJob;

struct FakeRun {
  RunResult result;
  std::shared_ptr<FakeLedger> ledger = std::make_shared<FakeLedger>();
};

FakeRun RunFake(const JobSpec& job, FakeScript script) {
  FakeRun fr;
  RunOptions opts;
  auto ledger = fr.ledger;
  opts.engine_factory = [script, ledger](const JobSpec&) {
    return std::unique_ptr<Engine>(new FakeEngine(script, ledger));
  };
  auto r = RunJobs({job}, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (r.ok()) fr.result = std::move(r).value();
  return fr;
}

constexpr uint64_t kWorkerBs = 4096;
constexpr uint64_t kN = 1000;

// An async engine syncs once at a loop boundary where one sync is owed, as
// fio 3.33's libaio does (loops=3 size=64k bs=4k fsync=4: 11 syncs; its sync
// engines issue 13, see RunCoordinatorTest.FsyncOwedAtALoopEndIsIssuedTwiceAsFio).
TEST(WorkerFakeEngineTest, AsyncEngineSyncsOnceAtALoopBoundary) {
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, 64 << 10);
  job.iodepth = 4;
  job.loops = 3;
  job.fsync_blocks = 4;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[1].ios, 48u);
  EXPECT_EQ(jr.stats.sync_ios, 11u);
}

// An I/O prepared after another was submitted starts its slat no earlier
// than that submit: a refill of 8 used to stamp all 8 at the top of the
// fill, so the k-th one's slat held the k-1 submits before it (libaio
// iodepth=8: 2.4, 4.6, ... 19 us where fio shows a flat 2-3 us).
TEST(WorkerFakeEngineTest, EachIoOfARefillIsStampedAfterThePreviousSubmit) {
  JobSpec job = TestJob("fake", RwMode::kRandRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 8;
  job.iodepth_batch_complete_min = 8;
  FakeRun fr = RunFake(job, FakeScript{});
  EXPECT_EQ(fr.ledger->completions, kN);
  EXPECT_EQ(fr.ledger->starts_before_an_issue, 0u);
}

TEST(WorkerFakeEngineTest, CleanRunCountsEveryIoOnce) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 16;
  job.iodepth_batch_submit = 4;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  const DirStats& rd = jr.stats.dir[0];
  EXPECT_EQ(jr.error, 0);
  EXPECT_EQ(rd.ios, kN);
  EXPECT_EQ(rd.bytes, kN * kWorkerBs);
  EXPECT_EQ(jr.stats.issued[0], kN);
  EXPECT_EQ(rd.clat.n, kN);
  EXPECT_EQ(rd.slat.n, kN);  // async engine: slat recorded
  EXPECT_EQ(rd.lat.n, kN);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(fr.ledger->completions, kN);
  EXPECT_EQ(fr.ledger->bytes_by_xfer.size(), kN);
  EXPECT_LE(fr.ledger->max_in_kernel, 16u);
  EXPECT_GT(fr.ledger->max_in_kernel, 1u);  // the queue really was kept full
  // Depth distribution: every I/O is counted at submit.
  uint64_t depth_total = 0;
  for (uint64_t v : jr.stats.depth.depth) depth_total += v;
  EXPECT_EQ(depth_total, kN);
  EXPECT_EQ(jr.stats.submitted, kN);
  EXPECT_EQ(jr.stats.reaped, kN);
  // The engine's reap system calls reach the job's stats (JSON reap_syscalls).
  EXPECT_GT(fr.ledger->waits, 0u);
  EXPECT_EQ(jr.stats.reap_syscalls, fr.ledger->waits);
}

// As fio: iodepth_batch_complete_max defaults to iodepth_batch_complete_min
// (1), so each reap takes one completion and its slot is refilled at once: a
// full queue stays at iodepth. Submits at depths 1..16, then every other at
// 16: fio's buckets 1, 2-3, 4-7, 8-15, 16-31 get 1, 2, 4, 8, kN - 15. (Reaping all
// that completed put half the I/Os of an io_uring QD32 job at depth 16-31.)
TEST(WorkerFakeEngineTest, FullQueueStaysAtIodepthReapingOneAtATime) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 16;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[0].ios, kN);
  const auto& d = jr.stats.depth;
  EXPECT_EQ(d.depth[0], 1u);
  EXPECT_EQ(d.depth[1], 2u);
  EXPECT_EQ(d.depth[2], 4u);
  EXPECT_EQ(d.depth[3], 8u);
  EXPECT_EQ(d.depth[4], kN - 15);
  EXPECT_EQ(d.depth[5], 0u);
  // One completion per reap, but the last 15 in one call at the end, as
  // fio (this test used to expect kN single reaps).
  EXPECT_EQ(d.complete_events, kN - 14);
  EXPECT_EQ(jr.stats.reaped, kN);

  // Asked for: up to 16 per reap; the fake engine completes everything it
  // holds, so the queue drains and refills and fewer reaps take them all.
  job.iodepth_batch_complete_max = 16;
  FakeRun all = RunFake(job, FakeScript{});
  const JobResult& ja = all.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(ja.stats.dir[0].ios, kN);
  EXPECT_LT(ja.stats.depth.complete_events, kN);
  EXPECT_LT(ja.stats.depth.depth[4], kN - 15);
}

// loops: each pass ends by reaping everything in flight (fio's do_io
// returns per loop and its cleanup reaps what is left in one call), so the
// next pass ramps up from depth 1 again and never overlaps the previous
// one's I/O. 4 passes of 64 I/Os at iodepth=16: per pass 1, 2, 4, 8 and 49
// I/Os in the buckets 1, 2-3, 4-7, 8-15, 16-31 (fio 3.33 on loops=8 size=256k
// iodepth=64: 1=1.56 2=3.125 ... 32=50 >=64=1.56), and 64 - 14 reap calls.
// (The worker used to go straight on with the next pass: 1, 2, 4, 8, 241.)
TEST(WorkerFakeEngineTest, LoopsDrainTheQueueBetweenPassesAsFio) {
  for (RwMode rw : {RwMode::kRead, RwMode::kRandRead}) {
    JobSpec job = TestJob("fake", rw, kWorkerBs, 64 * kWorkerBs);
    job.iodepth = 16;
    job.loops = 4;
    FakeRun fr = RunFake(job, FakeScript{});
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(jr.stats.dir[0].ios, 256u);
    const auto& d = jr.stats.depth;
    EXPECT_EQ(d.depth[0], 4u);
    EXPECT_EQ(d.depth[1], 8u);
    EXPECT_EQ(d.depth[2], 16u);
    EXPECT_EQ(d.depth[3], 32u);
    EXPECT_EQ(d.depth[4], 196u);
    EXPECT_EQ(d.depth[5], 0u);
    EXPECT_EQ(d.complete_events, 4 * (64u - 14));
    EXPECT_EQ(fr.ledger->overlaps, 0u);  // no pass reads a block the last one has in flight
    EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  }
}

// An io_size job asks for another pass once the last one has drained, as
// fio's keep_running does after do_io: what completed meanwhile counts.
TEST(WorkerFakeEngineTest, IoSizeBeyondSizeDrainsEachPass) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 64 * kWorkerBs);
  job.iodepth = 16;
  job.io_size = 160 * kWorkerBs;  // 2.5 passes
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[0].ios, 160u);
  EXPECT_EQ(jr.stats.depth.depth[0], 3u);  // three passes, each from depth 1
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);

  // A random writer without a random map is the exception: fio's do_io
  // writes io_size before it returns, so its passes within io_size follow
  // each other without a drain, and each of `loops` writes io_size (fio 3.33
  // with size=256k io_size=1m loops=2: 512 writes, >=64=75.39%).
  job.rw = RwMode::kRandWrite;
  job.norandommap = true;
  for (uint32_t loops = 1; loops <= 2; ++loops) {
    job.loops = loops;
    FakeRun w = RunFake(job, FakeScript{});
    const JobResult& jw = w.result.groups.at(0).jobs.at(0);
    EXPECT_EQ(jw.error, 0) << jw.error_message;
    EXPECT_EQ(jw.stats.dir[1].ios, 160u * loops);
    EXPECT_EQ(jw.stats.depth.depth[0], loops);  // one ramp per loop
    EXPECT_EQ(w.ledger->protocol_errors, 0u);
  }
}

// time_based wraps without draining, as fio's do_io does (it resets the
// file in place): depth 1 only at the start. A sequential job over several
// files is the exception in fio (all its files done ends do_io): every pass
// starts from depth 1. Both counts follow from the I/Os issued, whatever
// the runtime allowed.
TEST(WorkerFakeEngineTest, TimeBasedDrainsOnlyWhereFioDoes) {
  struct Case {
    RwMode rw;
    uint32_t nrfiles;
    bool drains;
  } cases[] = {{RwMode::kRead, 1, false},
               {RwMode::kRandRead, 1, false},
               {RwMode::kRandRead, 2, false},
               {RwMode::kRead, 2, true}};
  for (const Case& c : cases) {
    JobSpec job = TestJob("fake", c.rw, kWorkerBs, 64 * kWorkerBs);
    job.iodepth = 16;
    job.nrfiles = c.nrfiles;
    job.time_based = true;
    job.runtime_ns = 20'000'000;
    FakeRun fr = RunFake(job, FakeScript{});
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    const uint64_t issued = jr.stats.issued[0];
    if (issued <= 128) GTEST_SKIP() << "fewer than two passes ran in 20 ms";
    EXPECT_EQ(jr.stats.depth.depth[0], c.drains ? (issued + 63) / 64 : 1u)
        << "rw " << static_cast<int>(c.rw) << " nrfiles " << c.nrfiles;
    EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  }
}

// read_iolog timing on a device slower than the log: each entry goes out
// when its delay has passed, with the earlier ones still in flight. The
// worker used to block for a completion whenever the next entry was not due,
// so it issued one entry per completion (in flight never above 1 here) and a
// dense log replayed three times slower than fio.
TEST(WorkerFakeEngineTest, ReplayIssuesOnTimeWhileIoIsInFlight) {
  char dir[] = "/dev/shm/iobench-fake-replay-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string log = std::string(dir) + "/log";
  {
    std::ofstream out(log);
    out << "fio version 3 iolog\n0 /nowhere/a add\n0 /nowhere/a open\n";
    for (int i = 0; i < 8; ++i)  // one read every 2 ms (v3 times are in us)
      out << 1000 + 2000 * i << " /nowhere/a read " << i * kWorkerBs << " " << kWorkerBs << "\n";
  }
  JobSpec job = TestJob("fake-replay", RwMode::kRead, kWorkerBs, 0);
  job.read_iolog = log;
  job.iodepth = 16;
  FakeScript slow;
  slow.complete_only_when_waited = true;
  FakeRun fr = RunFake(job, slow);
  std::remove(log.c_str());
  rmdir(dir);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[0].ios, 8u);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(fr.ledger->max_in_kernel, 8u);  // all eight out before any completed
  // At most one wait before each of the next seven entries, none longer
  // than an entry's delay. How many there are is the scheduler's: a wake-up
  // 14 ms late makes every later entry due at once (the overshoot carries
  // over, as fio's time_offset), so no wait at all is right then (seen in
  // 11 of 200 runs on a loaded machine). ReplayDueNs's arithmetic is
  // tested in replay_test.cc.
  EXPECT_LE(fr.ledger->timed_waits, 7u);
  EXPECT_LE(fr.ledger->max_timeout_ns, 2'000'000u);
}

// thinktime_blocks_type, as fio 3.33 (checked with write_iolog bursts on
// libaio, iodepth=4, thinktime_blocks=6, 30 I/Os: complete 9,6,6,6,3; issue
// 6,6,6,6,6). The check runs once per issued I/O: complete pauses after
// issuing 9, 15, 21, 27 (4; after 30 only 27 had completed); issue after 6,
// 12, 18, 24 and 30 (5, the last after the job's last I/O, as fio).
TEST(WorkerFakeEngineTest, ThinktimeBlocksCountCompletedOrIssuedIos) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 30 * kWorkerBs);
  job.iodepth = 4;
  job.thinktime_ns = 1000;
  job.thinktime_blocks = 6;
  FakeRun complete = RunFake(job, FakeScript{});
  EXPECT_EQ(complete.result.groups.at(0).jobs.at(0).stats.dir[0].ios, 30u);
  EXPECT_EQ(complete.result.groups.at(0).jobs.at(0).think_stalls, 4u);
  job.thinktime_blocks_complete = false;
  FakeRun issue = RunFake(job, FakeScript{});
  EXPECT_EQ(issue.result.groups.at(0).jobs.at(0).think_stalls, 5u);
}

// A job that ends on number_ios thinks after its last I/O too, as fio and
// as a job ending on its bytes (above) do: number_ios=3 thinktime=200ms ran
// 400 ms in iobench, 600 ms in fio. Here 30 of 100 blocks, issue mode: 5.
TEST(WorkerFakeEngineTest, ThinktimeAfterTheLastIoOfNumberIos) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 100 * kWorkerBs);
  job.iodepth = 4;
  job.thinktime_ns = 1000;
  job.thinktime_blocks = 6;
  job.thinktime_blocks_complete = false;
  job.number_ios = 30;
  const JobResult jr = RunFake(job, FakeScript{}).result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[0].ios, 30u);
  EXPECT_EQ(jr.think_stalls, 5u);
  job.iodepth = 1;
  job.thinktime_blocks = 1;
  job.number_ios = 3;
  EXPECT_EQ(RunFake(job, FakeScript{}).result.groups.at(0).jobs.at(0).think_stalls, 3u);
}

// thinktime_iotime: with thinktime_blocks not given only the time counts (an
// hour: no pause in this job); given, whichever comes first.
TEST(WorkerFakeEngineTest, ThinktimeIotimeAloneOrWithBlocks) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 30 * kWorkerBs);
  job.iodepth = 4;
  job.thinktime_ns = 1000;
  job.thinktime_iotime_ns = 3600ull * 1000000000;
  auto stalls = [&] {
    return RunFake(job, FakeScript{}).result.groups.at(0).jobs.at(0).think_stalls;
  };
  EXPECT_EQ(stalls(), 0u);
  job.thinktime_blocks = 6;
  job.thinktime_blocks_complete = false;
  job.settings.push_back({"thinktime_blocks", "6", OptionSource::kJob, "t.fio", 3});
  EXPECT_EQ(stalls(), 5u);  // after 6, 12, 18, 24, 30
}

// fio's first thinktime_iotime pause comes after iotime + thinktime of I/O,
// the later ones after iotime (thinktime=100ms, iotime=300ms: pauses at 400,
// 800, 1200 ms). Here iotime is 20 ms and thinktime 10 s: the 25 I/Os take at
// least 24 ms at rate_iops=1000, past iotime, and end long before 10.02 s, so
// no pause is due (one pause of 10 s before the fix).
TEST(WorkerFakeEngineTest, ThinktimeIotimeFirstPauseAfterIotimePlusThinktime) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 100 * kWorkerBs);
  job.thinktime_ns = 10ull * 1000000000;
  job.thinktime_iotime_ns = 20ull * 1000000;
  job.rate_iops[0] = 1000;
  job.number_ios = 25;
  const JobResult jr = RunFake(job, FakeScript{}).result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[0].ios, 25u);
  EXPECT_EQ(jr.think_stalls, 0u);
}

// A pause in the middle of a batch: the I/Os prepared after it are stamped
// after it. Their slat and lat included the 100 ms pause before (iodepth=4:
// the three I/Os after each pause had slat >= thinktime).
TEST(WorkerFakeEngineTest, ThinktimeIsNotSubmissionLatency) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 10 * kWorkerBs);
  job.iodepth = 4;
  job.thinktime_ns = 100ull * 1000000;
  job.thinktime_blocks = 6;
  job.thinktime_blocks_complete = false;
  const JobResult jr = RunFake(job, FakeScript{}).result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.think_stalls, 1u);
  EXPECT_EQ(jr.stats.dir[0].ios, 10u);
  EXPECT_LT(jr.stats.dir[0].slat.max, job.thinktime_ns);
  EXPECT_LT(jr.stats.dir[0].lat.max, job.thinktime_ns);
}

TEST(WorkerFakeEngineTest, ShortTransfersAreRequeuedFailuresCountedBusyRetried) {
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 8;
  job.iodepth_batch_submit = 3;
  job.continue_on_error = kCoeAll;
  FakeScript script;
  script.short_every = 5;
  script.fail_every = 7;
  script.busy_every = 11;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  const DirStats& wr = jr.stats.dir[1];
  const FakeLedger& l = *fr.ledger;
  EXPECT_EQ(l.protocol_errors, 0u);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_GT(l.shorts, 0u);
  EXPECT_GT(l.failures, 0u);
  EXPECT_GT(l.busy, 0u);
  // Every planned I/O ends exactly once: complete or failed. A failed one is
  // in total_ios (fio's total_io_u), not dropped: fio's drop_ios stays 0.
  // The rest of a short transfer is issued as an I/O of its own, and the
  // short part counts in total_ios, as fio counts both (a short 384k write
  // whose rest fails: issued 2, short 1, total_ios 2).
  EXPECT_EQ(jr.stats.issued[1], kN + l.shorts);
  EXPECT_EQ(wr.ios + wr.failed, kN);
  EXPECT_EQ(ReportedIos(wr), kN + l.shorts);
  EXPECT_EQ(wr.errors, l.failures);
  EXPECT_EQ(wr.failed, l.failures);
  EXPECT_EQ(wr.dropped, 0u);
  EXPECT_EQ(jr.stats.dropped_issued[1], 0u);
  EXPECT_EQ(wr.short_ios, l.shorts);
  EXPECT_EQ(jr.stats.short_issued[1], l.shorts);
  EXPECT_EQ(wr.bytes, wr.ios * kWorkerBs);
  // Each completed I/O got exactly its block size across its parts.
  uint64_t complete = 0;
  for (const auto& [off, bytes] : l.bytes_by_xfer) {
    EXPECT_LE(bytes, kWorkerBs) << "offset " << off;
    complete += bytes == kWorkerBs;
  }
  EXPECT_EQ(complete, wr.ios);
  EXPECT_EQ(jr.stats.first_error.err, EIO);
  EXPECT_EQ(jr.stats.total_errors, l.failures);
}

// A short write whose rest fails (ENOSPC on a nearly full filesystem): the
// rest is an I/O of its own and the error names its range, as fio 3.33
// does (a 384k write cut short at 1 MiB of a 1 MiB tmpfs: issued 4 with
// short 1, "write offset=1048576, buflen=131072"). Completions in order:
// two full writes, the third short (half), its rest fails.
TEST(WorkerFakeEngineTest, ShortWriteWhoseRestFailsCountsAndNamesTheRest) {
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, kN * kWorkerBs);
  FakeScript script;
  script.short_every = 3;
  script.fail_every = 4;
  script.fail_errno = ENOSPC;
  script.reverse = false;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  const DirStats& wr = jr.stats.dir[1];
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(jr.error, ENOSPC);
  EXPECT_EQ(jr.stats.issued[1], 4u);
  EXPECT_EQ(jr.stats.short_issued[1], 1u);
  EXPECT_EQ(wr.ios, 2u);
  EXPECT_EQ(wr.failed, 1u);
  EXPECT_EQ(ReportedIos(wr), 4u);
  EXPECT_EQ(wr.bytes, 2 * kWorkerBs);  // the short write's part is not counted
  constexpr uint64_t kRest = 2 * kWorkerBs + kWorkerBs / 2;
  EXPECT_EQ(jr.stats.first_error.offset, kRest);
  EXPECT_NE(jr.error_message.find(" offset=" + std::to_string(kRest) +
                                  " length=" + std::to_string(kWorkerBs / 2) + ": "),
            std::string::npos)
      << jr.error_message;
}

TEST(WorkerFakeEngineTest, FirstErrorStopsTheJobWithoutContinueOnError) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 4;
  FakeScript script;
  script.fail_every = 50;
  script.reverse = false;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, EIO);
  EXPECT_EQ(jr.stats.dir[0].errors, 1u);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_LT(jr.stats.issued[0], kN);
  EXPECT_EQ(jr.stats.dir[0].ios + jr.stats.dir[0].failed, jr.stats.issued[0]);
  EXPECT_EQ(jr.stats.dir[0].failed, 1u);  // the failed read is an I/O, as fio
  // In order: completion 50 is the I/O at block 49.
  EXPECT_EQ(jr.stats.first_error.offset, 49 * kWorkerBs);
  EXPECT_NE(jr.error_message.find("Input/output error"), std::string::npos) << jr.error_message;
  EXPECT_EQ(fr.result.exit_code, 1);
}

TEST(WorkerFakeEngineTest, StopReapsWhatIsInFlight) {
  JobSpec job = TestJob("fake", RwMode::kRandWrite, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 32;
  job.iodepth_batch_submit = 4;
  job.time_based = true;
  job.runtime_ns = 120ull * 1000 * 1000 * 1000;
  FakeScript script;
  script.short_every = 13;
  auto ledger = std::make_shared<FakeLedger>();
  std::atomic<int> stop{0};
  RunOptions opts;
  opts.stop_signal = &stop;
  opts.on_tick = [&stop](const std::vector<const LiveCounters*>&) { stop.store(SIGINT); };
  opts.engine_factory = [script, ledger](const JobSpec&) {
    return std::unique_ptr<Engine>(new FakeEngine(script, ledger));
  };
  auto r = RunJobs({job}, opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->interrupted);
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_TRUE(jr.interrupted);
  EXPECT_EQ(ledger->protocol_errors, 0u);
  // Every queued part came back, and every issued I/O was completed in full
  // (the rest of a short transfer is issued as an I/O of its own, as in fio).
  EXPECT_EQ(ledger->completions, ledger->queued);
  EXPECT_EQ(jr.stats.dir[1].ios + jr.stats.dir[1].short_ios, jr.stats.issued[1]);
  EXPECT_EQ(jr.stats.dir[1].short_ios, ledger->shorts);
  EXPECT_GT(jr.stats.dir[1].ios, 0u);
}

// A job the runtime ends drains its depth one completion per call, where
// fio reaps it in one: the stuck-job watchdog sees progress only as
// completions, and one call that waits for a deep queue on a slow device
// showed none for longer than its grace (the job called stuck, its results
// lost). Only a job that ran out of I/O takes the rest in one call.
TEST(WorkerFakeEngineTest, RuntimeEndDrainsOneCompletionPerCall) {
  JobSpec job = TestJob("fake", RwMode::kRandRead, kWorkerBs, 64 * kWorkerBs);
  job.iodepth = 16;
  job.time_based = true;
  job.runtime_ns = 20'000'000;
  FakeScript script;
  script.max_per_reap = 1;  // the engine gives back only what it must
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(fr.ledger->completions, fr.ledger->queued);
  EXPECT_EQ(fr.ledger->max_min_asked, 1u);
}

TEST(WorkerFakeEngineTest, IodepthLowDrainsBeforeRefilling) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 16;
  job.iodepth_low = 4;
  job.iodepth_batch_submit = 16;
  FakeScript script;
  script.max_per_reap = 1;  // the engine gives back only what it must
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(jr.stats.dir[0].ios, kN);
  // A full queue of 16 is reaped down to the low-water mark of 4, one
  // completion per call as fio does (this test used to expect one call
  // asking for 12: fio never asks for more than iodepth_batch_complete_min).
  // The end of the job takes the last 4 in one call.
  EXPECT_EQ(fr.ledger->max_min_asked, 4u);
  EXPECT_EQ(fr.ledger->max_in_kernel, 16u);
}

// fio 3.33 reaps what is still in flight at the end of a job in one call
// (libaio iodepth=16 over 32 I/Os: "complete" 4=94.44%, 16=5.56%: 17 single
// reaps, the last one when the queue was full after the last I/O, then 15
// at once). iobench used to take them one at a time (4=100%).
TEST(WorkerFakeEngineTest, EndOfJobReapsWhatIsInFlightInOneCall) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 32 * kWorkerBs);
  job.iodepth = 16;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(jr.stats.dir[0].ios, 32u);
  EXPECT_EQ(fr.ledger->max_min_asked, 15u);
  EXPECT_EQ(jr.stats.depth.complete_events, 18u);
  EXPECT_EQ(jr.stats.depth.complete[1], 17u);  // 1-4
  EXPECT_EQ(jr.stats.depth.complete[3], 1u);   // 9-16
}

// fio 3.33, libaio iodepth=8 iodepth_low=2 over 256 I/Os: "complete" 4=100%.
// Each drain to the low-water mark is 6 reap calls of one completion;
// iobench used to make it one call of 6 (8=91.3%).
TEST(WorkerFakeEngineTest, IodepthLowReapsOneCallPerCompletion) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 256 * kWorkerBs);
  job.iodepth = 8;
  job.iodepth_low = 2;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(jr.stats.dir[0].ios, 256u);
  EXPECT_EQ(fr.ledger->max_in_kernel, 8u);
  // Buckets 0, 1-4, 5-8, ...: every call handed back 1 to 4.
  EXPECT_EQ(jr.stats.depth.complete[1], jr.stats.depth.complete_events);
  EXPECT_EQ(jr.stats.depth.complete[2], 0u);
  EXPECT_EQ(jr.stats.depth.complete_events, 253u);  // 252 single ones, then the last 4 at once
}

TEST(WorkerFakeEngineTest, IgnoreErrorListsTheErrno) {
  JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 100 * kWorkerBs);
  job.iodepth = 4;
  job.ignore_error[0] = {ENOSPC};
  job.continue_on_error = kCoeRead;  // as the parser sets it with the list
  FakeScript script;
  script.fail_every = 10;
  script.fail_errno = ENOSPC;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0);
  EXPECT_EQ(jr.stats.dir[0].errors, 10u);
  EXPECT_EQ(jr.stats.dir[0].ios, 90u);
  // The reports show the first tolerated error, as fio's err= does.
  EXPECT_EQ(jr.shown_error(), ENOSPC);
  EXPECT_NE(jr.shown_error_message().find("No space left"), std::string::npos)
      << jr.shown_error_message();
}

// A failed fsync is a sync I/O that failed, as fio's DDIR_SYNC: it counts in
// the sync total_ios ("issued rwts" 4th field) and total_err, never as a
// write (a write device failing every flush showed 287 writes for 256).
TEST(WorkerFakeEngineTest, FailedFsyncCountsAsASyncNotAWrite) {
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, 64 << 10);
  job.iodepth = 4;
  job.fsync_blocks = 4;
  job.continue_on_error = kCoeAll;
  const FakeRun clean = RunFake(job, FakeScript{});
  const uint64_t syncs = clean.result.groups.at(0).jobs.at(0).stats.sync_ios;
  ASSERT_GT(syncs, 0u);
  FakeScript script;
  script.fail_syncs = true;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(fr.ledger->failures, syncs);
  EXPECT_EQ(jr.stats.dir[1].ios, 16u);
  EXPECT_EQ(jr.stats.dir[1].failed, 0u);
  EXPECT_EQ(jr.stats.sync_ios, syncs);
  EXPECT_EQ(jr.stats.total_errors, syncs);
  EXPECT_EQ(jr.shown_error(), EIO);
  EXPECT_EQ(jr.shown_error_message().rfind("fsync ", 0), 0u) << jr.shown_error_message();
}

// A failed sync names the offset its slot last carried, the Nth write's at
// iodepth=1, as fio 3.33 ("fio: io_u error on file /dev/null: Invalid
// argument: sync offset=12288, buflen=0" for rw=write bs=4k fsync=4, and
// "datasync offset=12288" with fdatasync=4). iobench named offset 0, and
// called an fdatasync an fsync.
TEST(WorkerFakeEngineTest, FailedSyncNamesTheOffsetOfTheWriteBeforeIt) {
  for (bool data : {false, true}) {
    JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, 64 << 10);
    (data ? job.fdatasync_blocks : job.fsync_blocks) = 4;
    FakeScript script;
    script.fail_syncs = true;
    FakeRun fr = RunFake(job, script);
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.error, EIO);
    EXPECT_EQ(jr.stats.dir[1].ios, 4u);
    const std::string& m = jr.shown_error_message();
    EXPECT_EQ(m.rfind(data ? "fdatasync " : "fsync ", 0), 0u) << m;
    EXPECT_NE(m.find(" offset=12288 length=0: "), std::string::npos) << m;
    EXPECT_EQ(jr.stats.first_error.offset, 12288u);
  }
}

// fio's td_non_fatal_error: continue_on_error alone goes on after EIO and
// EILSEQ only; any other errno stops the job at its first occurrence.
TEST(WorkerFakeEngineTest, ContinueOnErrorAloneStopsAtAnErrnoOtherThanEio) {
  for (int err : {ENOSPC, EAGAIN, EIO}) {
    JobSpec job = TestJob("fake", RwMode::kRead, kWorkerBs, 100 * kWorkerBs);
    job.continue_on_error = kCoeAll;
    FakeScript script;
    script.fail_every = 10;
    script.fail_errno = err;
    script.reverse = false;
    FakeRun fr = RunFake(job, script);
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    if (err == EIO) {
      EXPECT_EQ(jr.error, 0);
      EXPECT_EQ(jr.stats.dir[0].errors, 10u);
      EXPECT_EQ(jr.stats.dir[0].ios, 90u);
    } else {
      EXPECT_EQ(jr.error, err);
      EXPECT_EQ(jr.stats.dir[0].errors, 1u) << err;
      EXPECT_EQ(jr.stats.dir[0].ios, 9u) << err;
    }
  }
}

// The error that stops the job is named (file, operation, offset, length)
// even after errors the policy let through: its message used to be a bare
// strerror, since only the first error's was built.
TEST(WorkerFakeEngineTest, FatalErrorAfterToleratedOnesNamesItsIo) {
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, 100 * kWorkerBs);
  job.ignore_error[1] = {EINVAL};
  job.continue_on_error = kCoeWrite;  // as the parser sets it with the list
  FakeScript script;
  script.fail_every = 10;
  script.fail_errno = EINVAL;
  script.fail_at = 25;  // the write at block 24
  script.fail_at_errno = ENOSPC;
  script.reverse = false;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, ENOSPC);
  EXPECT_EQ(jr.stats.first_error.err, EINVAL);
  EXPECT_EQ(jr.stats.dir[1].errors, 3u);  // EINVAL at 10 and 20, ENOSPC at 25
  EXPECT_EQ(jr.error_message,
            "write " + jr.stats.first_error.file + " offset=" + std::to_string(24 * kWorkerBs) +
                " length=" + std::to_string(kWorkerBs) + ": " + std::strerror(ENOSPC));
  EXPECT_EQ(fr.result.exit_code, 1);
}

// serialize_overlap: random writes over 4 blocks at iodepth 8 overlap all
// the time; with the option no I/O is queued while one on the same bytes is
// in flight, and every I/O still runs.
TEST(WorkerFakeEngineTest, SerializeOverlapNeverQueuesOverlappingIos) {
  for (bool serialize : {false, true}) {
    JobSpec job = TestJob("fake", RwMode::kRandWrite, kWorkerBs, 4 * kWorkerBs);
    job.iodepth = 8;
    job.norandommap = true;
    job.loops = 100;  // 4 writes a pass
    job.serialize_overlap = serialize;
    FakeScript script;
    script.max_per_reap = 1;
    FakeRun fr = RunFake(job, script);
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    EXPECT_EQ(fr.ledger->protocol_errors, 0u);
    EXPECT_EQ(jr.stats.dir[1].ios, 400u);
    if (serialize)
      EXPECT_EQ(fr.ledger->overlaps, 0u);
    else
      EXPECT_GT(fr.ledger->overlaps, 0u);  // the test can tell
  }
}

TEST(ErrorToleratedTest, ClassesListsAndTheDefaultList) {
  JobSpec job;
  // Nothing set: every error stops the job.
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kRead, EIO));
  job.continue_on_error = kCoeRead;
  EXPECT_TRUE(ErrorTolerated(job, Ddir::kRead, EIO));
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kRead, ENOSPC));
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kWrite, EIO));
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kTrim, EIO));  // trim is in fio's write class
  // EILSEQ is the verify class whatever the direction.
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kRead, EILSEQ));
  job.continue_on_error = kCoeVerify;
  EXPECT_TRUE(ErrorTolerated(job, Ddir::kRead, EILSEQ));
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kRead, EIO));
  // A class's list replaces the default EIO/EILSEQ list.
  job.continue_on_error = kCoeIo;
  job.ignore_error[1] = {ENOSPC};
  EXPECT_TRUE(ErrorTolerated(job, Ddir::kWrite, ENOSPC));
  EXPECT_TRUE(ErrorTolerated(job, Ddir::kTrim, ENOSPC));
  EXPECT_FALSE(ErrorTolerated(job, Ddir::kWrite, EIO));
  EXPECT_TRUE(ErrorTolerated(job, Ddir::kRead, EIO));  // the read list is still the default
}

// iodepth_batch_complete_min=0 with _max=0 is fio's io_in_polling: after
// each I/O it looks for a completion without blocking until one came, so
// the queue holds one I/O (fio, libaio iodepth=8: IO depths 1=100%, every
// io_getevents with min_nr 0). Setting _max keeps the batch mode.
TEST(WorkerFakeEngineTest, BatchCompleteMinZeroPollsAfterEachIo) {
  JobSpec job = TestJob("fake", RwMode::kRandRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 8;
  job.iodepth_batch_complete_min = 0;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[0].ios, kN);
  EXPECT_EQ(fr.ledger->max_in_kernel, 1u);
  EXPECT_EQ(fr.ledger->waits, 0u);  // no reap that blocks
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  // iodepth_batch does not hold I/Os back in this mode: fio's getevents
  // commits what is queued before it looks (iobench queued 8 and then
  // submitted them together: IO depths 8=100%, fio 1=100%).
  job.iodepth_batch_submit = 8;
  fr = RunFake(job, FakeScript{});
  EXPECT_EQ(fr.result.groups.at(0).jobs.at(0).stats.dir[0].ios, kN);
  EXPECT_EQ(fr.ledger->max_in_kernel, 1u);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  job.iodepth_batch_submit = 1;
  job.iodepth_batch_complete_max = 8;
  fr = RunFake(job, FakeScript{});
  EXPECT_EQ(fr.ledger->max_in_kernel, 8u);
}

TEST(WorkerFakeEngineTest, BatchCompleteMinAndSubmitBatches) {
  JobSpec job = TestJob("fake", RwMode::kRandRead, kWorkerBs, kN * kWorkerBs);
  job.iodepth = 32;
  job.iodepth_batch_submit = 8;
  job.iodepth_batch_complete_min = 8;
  job.iodepth_batch_complete_max = 16;
  FakeRun fr = RunFake(job, FakeScript{});
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  EXPECT_EQ(fr.ledger->protocol_errors, 0u);
  EXPECT_EQ(jr.stats.dir[0].ios, kN);
  // Submissions are batched (at most 8 per Commit), so there are far fewer
  // submit events than I/Os, and none larger than 8.
  uint64_t events = 0;
  for (uint64_t v : jr.stats.depth.submit) events += v;
  EXPECT_EQ(events, jr.stats.depth.submit_events);
  EXPECT_GE(jr.stats.depth.submit_events, kN / 8);
  EXPECT_LT(jr.stats.depth.submit_events, kN / 2);
  for (int b = 3; b < 7; ++b) EXPECT_EQ(jr.stats.depth.submit[b], 0u) << b;
  EXPECT_EQ(jr.stats.submitted, kN);
}

// write_iolog logs each I/O once, as issued: a short transfer's remainder,
// which the worker issues as an I/O of its own (total_ios counts it, as
// fio's), gets no line. fio 3.33 logs the remainder again at its advanced
// offset with the whole length (log_io_u prints buflen), so a replay of its
// log issues that length twice (fill_device on a 1 MiB tmpfs, bs=48k: fio's
// log replays 23 writes, 1130496 bytes, for a job of 22, 1081344 bytes); a
// kept difference (docs/replay.md).
TEST(WorkerFakeEngineTest, WriteIologLogsAShortTransferOnce) {
  testing::TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  constexpr uint64_t kIos = 64;
  JobSpec job = TestJob("fake", RwMode::kWrite, kWorkerBs, kIos * kWorkerBs);
  job.iodepth = 4;
  job.directory = dir.path();
  job.write_iolog = dir.path() + "/w.log";
  FakeScript script;
  script.short_every = 5;
  FakeRun fr = RunFake(job, script);
  const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
  ASSERT_EQ(jr.error, 0) << jr.error_message;
  ASSERT_GT(fr.ledger->shorts, 0u);
  EXPECT_EQ(jr.stats.issued[1], kIos + fr.ledger->shorts);  // the remainders are issued
  std::ifstream in(job.write_iolog);
  std::string line;
  std::vector<uint64_t> offsets;
  while (std::getline(in, line)) {
    char file[512], act[16];
    unsigned long long t, off, len;
    if (std::sscanf(line.c_str(), "%llu %511s %15s %llu %llu", &t, file, act, &off, &len) != 5 ||
        std::string(act) != "write")
      continue;
    EXPECT_EQ(len, kWorkerBs) << line;
    offsets.push_back(off);
  }
  ASSERT_EQ(offsets.size(), kIos) << "one line per planned write, none for a remainder";
  std::sort(offsets.begin(), offsets.end());
  for (uint64_t i = 0; i < kIos; ++i) EXPECT_EQ(offsets[i], i * kWorkerBs);
}

}  // namespace
}  // namespace iobench

namespace iobench {
namespace {

// Records, from the worker's own thread, where and how it was scheduled.
struct SchedSeen {
  std::mutex mu;
  std::vector<int> cpus, nices, ioprios;
  // Per worker, its job's name and the one CPU it may run on (-1: several).
  std::vector<std::pair<std::string, int>> pinned;
};

class SchedProbeEngine final : public Engine {
 public:
  explicit SchedProbeEngine(SchedSeen* seen, std::string job = "")
      : seen_(seen), job_(std::move(job)) {}
  Status Init(const EngineContext&) override {
    const long tid = syscall(SYS_gettid);
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return Status::Internal("sched_getaffinity");
    int only = -1;
    for (int c = 0; c < CPU_SETSIZE && CPU_COUNT(&set) == 1; ++c)
      if (CPU_ISSET(c, &set)) only = c;
    std::lock_guard<std::mutex> lock(seen_->mu);
    seen_->pinned.emplace_back(job_, only);
    seen_->cpus.push_back(sched_getcpu());
    seen_->nices.push_back(getpriority(PRIO_PROCESS, static_cast<id_t>(tid)));
    seen_->ioprios.push_back(static_cast<int>(syscall(SYS_ioprio_get, 1, tid)));
    return Status::Ok();
  }
  QueueResult Queue(IoRequest* req) override {
    req->res = static_cast<int64_t>(req->length);
    return QueueResult::kCompleted;
  }
  bool IsSync() const override { return true; }

 private:
  SchedSeen* seen_;
  std::string job_;
};

TEST(WorkerSchedulingTest, CpusAllowedSplitNiceAndIoprio) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two CPUs";
  SchedSeen seen;
  JobSpec j = TestJob("sched", RwMode::kRead, 4096, 64 << 10);
  j.numjobs = 2;
  j.cpus_allowed = {1, 0};
  j.cpus_allowed_policy = CpusAllowedPolicy::kSplit;
  j.nice = 5;
  j.prioclass = 2;
  j.prio = 3;
  RunOptions opts;
  opts.engine_factory = [&seen](const JobSpec&) {
    return std::unique_ptr<Engine>(new SchedProbeEngine(&seen));
  };
  auto r = RunJobs({j}, opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(seen.cpus.size(), 2u);
  std::sort(seen.cpus.begin(), seen.cpus.end());
  EXPECT_EQ(seen.cpus, (std::vector<int>{0, 1}));  // clone k runs on cpus_allowed[k]
  // nice=5 is an increment on the niceness the run started with (ctest
  // under `nice -n 10` runs the jobs at 15), clamped to 19.
  errno = 0;
  const int start = getpriority(PRIO_PROCESS, 0);
  ASSERT_EQ(errno, 0);
  const int want = std::min(start + 5, 19);
  EXPECT_EQ(seen.nices, (std::vector<int>{want, want}));
  EXPECT_EQ(seen.ioprios, (std::vector<int>{(2 << 13) | 3, (2 << 13) | 3}));
}

// cpus_allowed_policy=split counts every worker of the run, as fio's
// td->thread_number - 1 does: separate jobs sharing a list spread over it
// (jobs a, b and c with numjobs=2 on 0-1: 0, 1, 0, 1), not each on its first CPU.
TEST(WorkerSchedulingTest, CpusAllowedSplitCountsAcrossJobs) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two CPUs";
  std::vector<JobSpec> jobs;
  for (const char* name : {"a", "b", "c"}) {
    JobSpec j = TestJob(name, RwMode::kRead, 4096, 64 << 10);
    j.cpus_allowed = {0, 1};
    j.cpus_allowed_policy = CpusAllowedPolicy::kSplit;
    jobs.push_back(j);
  }
  jobs[2].numjobs = 2;
  SchedSeen seen;
  RunOptions opts;
  opts.engine_factory = [&seen](const JobSpec& job) {
    return std::unique_ptr<Engine>(new SchedProbeEngine(&seen, job.name));
  };
  auto r = RunJobs(jobs, opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::sort(seen.pinned.begin(), seen.pinned.end());
  EXPECT_EQ(seen.pinned,
            (std::vector<std::pair<std::string, int>>{{"a", 0}, {"b", 1}, {"c", 0}, {"c", 1}}));
}

// prio/prioclass as fio's ioprio_value(): an unset level is 0 (not 4), and
// class 0 (or none given) is best effort; prioclass=0 must not fail with EINVAL.
TEST(WorkerSchedulingTest, PrioclassAloneIsLevelZeroAndClassZeroIsBestEffort) {
  struct Case {
    std::optional<int> cls, level;
    int want;
  };
  const Case cases[] = {
      {2, std::nullopt, 2 << 13},       {0, std::nullopt, 2 << 13}, {3, std::nullopt, 3 << 13},
      {std::nullopt, 5, (2 << 13) | 5}, {0, 6, (2 << 13) | 6},      {2, 7, (2 << 13) | 7},
  };
  for (const Case& c : cases) {
    SchedSeen seen;
    JobSpec j = TestJob("io", RwMode::kRead, 4096, 64 << 10);
    j.prioclass = c.cls;
    j.prio = c.level;
    RunOptions opts;
    opts.engine_factory = [&seen](const JobSpec&) {
      return std::unique_ptr<Engine>(new SchedProbeEngine(&seen));
    };
    auto r = RunJobs({j}, opts);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->groups.at(0).jobs.at(0).error, 0) << r->groups.at(0).jobs.at(0).error_message;
    EXPECT_EQ(seen.ioprios, (std::vector<int>{c.want}))
        << "prioclass=" << c.cls.value_or(-1) << " prio=" << c.level.value_or(-1);
  }
}

// cmdprio_bssplit entries of class 0 are best effort, as fio's
// ioprio_value() makes them: 4k/50/0/3 carries 2/3 (the kernel refuses class
// 0 with a level), and 4k/50/0/0 is 2/0, a priority of its own beside the
// job's 0/0 (fio reports both).
TEST(WorkerCmdprioTest, BssplitClassZeroIsBestEffort) {
  for (const auto& [level, want] : {std::pair{3, (2 << 13) | 3}, std::pair{0, 2 << 13}}) {
    JobSpec job = TestJob("cp", RwMode::kRandRead, kWorkerBs, kN * kWorkerBs);
    job.ioengine = "io_uring";
    job.iodepth = 4;
    job.cmdprio_bssplit[0] = {{kWorkerBs, 50, 0, level}};
    FakeRun fr = RunFake(job, FakeScript{});
    const JobResult& jr = fr.result.groups.at(0).jobs.at(0);
    std::vector<uint16_t> values;
    uint64_t n = 0;
    for (const PrioStat& p : jr.stats.dir[0].prios) {
      values.push_back(p.value);
      n += p.lat.n;
    }
    EXPECT_EQ(values, (std::vector<uint16_t>{0, static_cast<uint16_t>(want)})) << level;
    EXPECT_EQ(n, kN);
  }
}

// An engine that fails to start, naming itself or not.
class FailingInitEngine final : public Engine {
 public:
  explicit FailingInitEngine(std::string msg) : msg_(std::move(msg)) {}
  Status Init(const EngineContext&) override { return Status::Limit(msg_); }
  QueueResult Queue(IoRequest*) override { return QueueResult::kCompleted; }
  bool IsSync() const override { return true; }

 private:
  std::string msg_;
};

// "libaio: libaio: io_setup(8): ...": the worker added the engine's name to
// a message that already began with it.
TEST(WorkerInitErrorTest, EngineNameOnceInTheMessage) {
  for (const char* msg : {"null: io_setup(8): Resource temporarily unavailable", "no rings"}) {
    JobSpec j = TestJob("e", RwMode::kRead, 4096, 64 << 10);
    j.ioengine = "null";
    RunOptions opts;
    opts.engine_factory = [msg](const JobSpec&) {
      return std::unique_ptr<Engine>(new FailingInitEngine(msg));
    };
    auto r = RunJobs({j}, opts);
    std::string all = r.ok() ? "" : r.status().message();
    if (r.ok())
      for (const auto& g : r->groups)
        for (const auto& jr : g.jobs) all += jr.error_message;
    EXPECT_EQ(all.find("null: null:"), std::string::npos) << all;
    const std::string want =
        std::string(msg).rfind("null: ", 0) == 0 ? msg : "null: " + std::string(msg);
    EXPECT_NE(all.find(want), std::string::npos) << all;
  }
}

}  // namespace
}  // namespace iobench

namespace iobench {
namespace {

// Records the offsets one worker issues.
class OffsetRecorder final : public Engine {
 public:
  explicit OffsetRecorder(std::vector<uint64_t>* out) : out_(out) { out_->reserve(4096); }
  Status Init(const EngineContext&) override { return Status::Ok(); }
  QueueResult Queue(IoRequest* req) override {
    out_->push_back(req->offset);
    req->res = static_cast<int64_t>(req->length);
    return QueueResult::kCompleted;
  }
  bool IsSync() const override { return true; }

 private:
  std::vector<uint64_t>* out_;
};

std::vector<std::vector<uint64_t>> RecordOffsets(const JobSpec& job) {
  auto seqs = std::make_shared<std::vector<std::vector<uint64_t>>>(job.numjobs);
  auto next = std::make_shared<std::atomic<size_t>>(0);
  RunOptions opts;
  opts.engine_factory = [seqs, next](const JobSpec&) {
    return std::unique_ptr<Engine>(new OffsetRecorder(&(*seqs)[(*next)++]));
  };
  auto r = RunJobs({job}, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return *seqs;
}

TEST(WorkerSeedTest, SameJobSameOffsetsAndClonesDiffer) {
  JobSpec j = TestJob("seed", RwMode::kRandRead, 4096, 4 << 20);
  j.numjobs = 2;
  j.number_ios = 200;
  const auto a = RecordOffsets(j);
  const auto b = RecordOffsets(j);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].size(), 200u);
  EXPECT_EQ(a, b);        // randrepeat=1: repeatable run to run
  EXPECT_NE(a[0], a[1]);  // but each clone has its own sequence
  j.randseed = 42;
  const auto c = RecordOffsets(j);
  EXPECT_NE(c, a);  // randseed changes the sequence
  EXPECT_EQ(c, RecordOffsets(j));
}

}  // namespace
}  // namespace iobench
