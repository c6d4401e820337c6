// ctest-labels: threads
// HelperCpuSampler: io-wq CPU shows up when io_uring punts to its workers
// (force_async=1), and stays near zero when it does not. Also the per-job
// split arithmetic.
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_driver.h"
#include "iobench/engine.h"
#include "stats/helper_cpu.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing_engine::EngineRig;

TEST(HelperCpuSplitTest, ProportionalAndSumsToTheWhole) {
  HelperCpu g;
  g.iowq_user_us = 10;
  g.iowq_sys_us = 1000;
  g.sqpoll_sys_us = 7;
  g.other_sys_us = 3;
  g.peak_threads = 12;
  auto parts = SplitHelperCpu(g, {1, 3, 0});
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].iowq_sys_us, 250u);
  EXPECT_EQ(parts[1].iowq_sys_us, 750u);
  EXPECT_EQ(parts[2].iowq_sys_us, 0u);
  EXPECT_EQ(parts[0].iowq_user_us, 2u);  // floor(10 * 1/4)
  // floor(10 * 3/4) + the rounding remainder: it goes to the last job with a
  // weight, never to a job that made no submissions (a psync job in an
  // io_uring group got 1 us of io-wq CPU and a helpers line of zeros).
  EXPECT_EQ(parts[1].iowq_user_us, 8u);
  EXPECT_EQ(parts[2].iowq_user_us, 0u);
  EXPECT_EQ(parts[2].other_sys_us, 0u);
  uint64_t sq = 0;
  for (const auto& p : parts) sq += p.sqpoll_sys_us;
  EXPECT_EQ(sq, 7u);
  EXPECT_EQ(parts[0].peak_threads, 12u);
  EXPECT_EQ(parts[1].peak_threads, 12u);
  EXPECT_EQ(parts[2].peak_threads, 0u);
  auto equal = SplitHelperCpu(g, {0, 0});
  EXPECT_EQ(equal[0].iowq_sys_us, 500u);
  EXPECT_EQ(equal[1].iowq_sys_us, 500u);
  EXPECT_TRUE(SplitHelperCpu(g, {}).empty());
}

// A QA run with SQPOLL: the process used 81 ms user + 2912 ms system, the
// worker's own thread 326 ms user (the per-thread tick split disagrees with
// the process's) + 300 ms system, the SQPOLL thread 2200 ms system. The
// helpers are what the process used beyond the worker: 2367 ms, of which
// 167 ms not tracked ("other"). User and system taken apart gave the helpers
// 2612 ms, and own + helpers 3238 ms, more than the process used.
TEST(HelperCpuSplitTest, HelpersAreTheProcessTotalLessTheWorkers) {
  HelperCpuDetail d;
  d.process_user_us = 81000;
  d.process_sys_us = 2912000;
  CpuUsage own;
  own.user_us = 326000;
  own.sys_us = 300000;
  HelperCpu tracked;
  tracked.sqpoll_sys_us = 2200000;
  AttributeHelperCpu(&d, own, tracked);
  EXPECT_EQ(d.all_helpers_user_us, 0u);
  EXPECT_EQ(d.all_helpers_sys_us, 2367000u);
  EXPECT_EQ(d.cpu.sqpoll_sys_us, 2200000u);
  EXPECT_EQ(d.cpu.other_user_us, 0u);
  EXPECT_EQ(d.cpu.other_sys_us, 167000u);
  EXPECT_EQ(
      own.user_us + own.sys_us + d.cpu.sqpoll_sys_us + d.cpu.other_user_us + d.cpu.other_sys_us,
      d.process_user_us + d.process_sys_us);
  // Splits that agree keep their parts; the sampler's own CPU is left out.
  HelperCpuDetail e;
  e.process_user_us = 500;
  e.process_sys_us = 4000;
  e.sampler_user_us = 10;
  e.sampler_sys_us = 20;
  own.user_us = 300;
  own.sys_us = 1000;
  tracked = HelperCpu();
  tracked.iowq_user_us = 100;
  tracked.iowq_sys_us = 2000;
  AttributeHelperCpu(&e, own, tracked);
  EXPECT_EQ(e.all_helpers_user_us, 190u);
  EXPECT_EQ(e.all_helpers_sys_us, 2980u);
  EXPECT_EQ(e.cpu.iowq_user_us, 100u);
  EXPECT_EQ(e.cpu.other_user_us, 90u);
  EXPECT_EQ(e.cpu.other_sys_us, 980u);
  // Tracked helpers above the total (tick rounding): no "other", no wrap.
  HelperCpuDetail f;
  f.process_sys_us = 1000;
  own = CpuUsage();
  tracked = HelperCpu();
  tracked.iowq_sys_us = 1010;
  AttributeHelperCpu(&f, own, tracked);
  EXPECT_EQ(f.cpu.other_user_us + f.cpu.other_sys_us, 0u);
}

// The helper threads alive in this process now (io-wq, SQPOLL, posixaio's):
// earlier tests in the same process leave some behind for a while (glibc's
// AIO threads idle for a second before they exit; io-wq workers go when
// their ring's teardown has run).
int LiveHelperThreads() {
  int n = 0;
  std::error_code ec;
  for (const auto& t : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(t.path() / "comm");
    std::string comm;
    std::getline(in, comm);
    for (const char* p : {"iou-wrk-", "iou-sqp-", "iob-aio-"})
      if (comm.rfind(p, 0) == 0) ++n;
  }
  return n;
}

// A precondition, not a timing: waits (up to 10 s) for the helper threads
// of earlier tests in this process to exit. False: some are still alive.
bool NoHelpersLeft() {
  for (int i = 0; i < 1000 && LiveHelperThreads() > 0; ++i) usleep(10000);
  return LiveHelperThreads() == 0;
}

// A thread's own CPU: the exact total (CLOCK_THREAD_CPUTIME_ID) split in
// getrusage's tick-sampled ratio. getrusage alone read 0 for a job shorter
// than a tick, or 130 % of its runtime.
TEST(ThreadCpuTest, CpuSinceSplitsTheExactTotal) {
  auto reading = [](uint64_t user_us, uint64_t sys_us, uint64_t ns) {
    CpuUsage c;
    c.user_us = user_us;
    c.sys_us = sys_us;
    c.thread_ns = ns;
    c.ctx = 5;
    return c;
  };
  // A tick in user space during the interval: all of it user time.
  CpuUsage d = CpuSince(reading(0, 0, 1'000'000), reading(4000, 0, 3'500'000));
  EXPECT_EQ(d.user_us, 2500u);
  EXPECT_EQ(d.sys_us, 0u);
  // Ticks in both: the interval's ratio (not the cumulative one, whose
  // shift made one part go negative).
  d = CpuSince(reading(4000, 0, 4'000'000), reading(8000, 12000, 12'000'000));
  EXPECT_EQ(d.user_us, 2000u);
  EXPECT_EQ(d.sys_us, 6000u);
  // No tick in the interval: the thread's overall ratio.
  d = CpuSince(reading(8000, 0, 8'000'000), reading(8000, 0, 9'000'000));
  EXPECT_EQ(d.user_us, 1000u);
  EXPECT_EQ(d.sys_us, 0u);
  // No tick ever: all system time, as for the kernel's helpers.
  d = CpuSince(CpuUsage(), reading(0, 0, 700'000));
  EXPECT_EQ(d.user_us + d.sys_us, 700u);
  EXPECT_EQ(d.sys_us, 700u);
  EXPECT_EQ(d.ctx, 5u);
  // Without the exact clock, getrusage's own deltas.
  d = CpuSince(reading(10, 20, 0), reading(30, 70, 0));
  EXPECT_EQ(d.user_us, 20u);
  EXPECT_EQ(d.sys_us, 50u);
}

// A short burst of work is never reported as no CPU at all (getrusage's
// figures stay 0 until a scheduler tick lands in the thread).
TEST(ThreadCpuTest, ShortWorkIsCounted) {
  const CpuUsage start = HelperCpuSampler::ThreadCpuNow();
  ASSERT_GT(start.thread_ns, 0u);
  timespec t0{}, t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  volatile uint64_t x = 0;
  do {  // 1 ms of this thread's CPU, however long it takes
    for (int i = 0; i < 1000; ++i) x = x + i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000L);
  const CpuUsage d = CpuSince(start, HelperCpuSampler::ThreadCpuNow());
  EXPECT_GE(d.user_us + d.sys_us, 1000u);
}

TEST(HelperCpuSamplerTest, NoHelpersWithoutIoUring) {
  if (!NoHelpersLeft())
    GTEST_SKIP() << "helper threads of earlier tests in this process are still alive after 10 s";
  HelperCpuSampler s(20);
  const CpuUsage own0 = HelperCpuSampler::ThreadCpuNow();
  ASSERT_TRUE(s.Start().ok());
  volatile uint64_t x = 0;
  for (int i = 0; i < 2000000; ++i) x = x + static_cast<uint64_t>(i);
  usleep(60000);
  const CpuUsage own1 = HelperCpuSampler::ThreadCpuNow();
  s.Stop();
  CpuUsage own;
  own.user_us = own1.user_us - own0.user_us;
  own.sys_us = own1.sys_us - own0.sys_us;
  HelperCpuDetail d = s.Detail(own);
  EXPECT_EQ(d.cpu.peak_threads, 0u);
  EXPECT_EQ(d.cpu.iowq_user_us + d.cpu.iowq_sys_us, 0u);
  EXPECT_EQ(d.cpu.sqpoll_user_us + d.cpu.sqpoll_sys_us, 0u);
  EXPECT_GE(d.samples, 1u);
}

// Seed 000/001: buffered 4k random reads of a cold ext4 file with io_uring
// at QD 32. The measured quantities are counts of threads and whether CPU
// is zero, not timings.
class HelperCpuIoUringTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kFileBytes = 64ull << 20;
  static constexpr uint64_t kBs = 4096;
  static constexpr uint64_t kReads = 8192;

  void SetUp() override {
    const EngineInfo* info = FindEngine("io_uring");
    ASSERT_NE(info, nullptr);
    Status p = info->probe();
    if (!p.ok()) GTEST_SKIP() << "io_uring unavailable: " << p.message();
    // The sampler counts every helper of the process: a posixaio test's
    // idle AIO thread made peak_threads one more than the io-wq peak.
    if (!NoHelpersLeft())
      GTEST_SKIP() << "helper threads of earlier tests in this process are still alive after 10 s";
    dir_ = std::make_unique<TempDir>("/var/tmp");
    ASSERT_TRUE(dir_->ok());
    path_ = dir_->path() + "/cold";
    int fd = open(path_.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    std::vector<char> chunk(1 << 20, 'c');
    for (uint64_t off = 0; off < kFileBytes; off += chunk.size())
      ASSERT_EQ(pwrite(fd, chunk.data(), chunk.size(), static_cast<off_t>(off)),
                static_cast<ssize_t>(chunk.size()));
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }

  // Drops the file's pages, then runs kReads random reads and returns what
  // the sampler saw.
  // The I/O runs on its own thread (like a worker); the number the kernel
  // names its helpers with (KernelTid) goes to *tid.
  // stop_after_exit: the coordinator's order (Stop after the worker thread
  // has exited); the worker calls SampleNow() before it tears its ring down.
  HelperCpuDetail Measure(uint32_t force_async, HelperCpuSampler* sampler_out = nullptr,
                          pid_t* tid = nullptr, bool sqpoll = false, bool stop_after_exit = false) {
    HelperCpuSampler local(50);
    HelperCpuSampler& sampler = sampler_out != nullptr ? *sampler_out : local;
    EXPECT_TRUE(sampler.Start().ok());
    CpuUsage own;
    std::thread worker([&] {
      if (tid != nullptr) *tid = HelperCpuSampler::KernelTid();
      const CpuUsage own0 = HelperCpuSampler::ThreadCpuNow();
      RunReads(force_async, sqpoll);
      const CpuUsage own1 = HelperCpuSampler::ThreadCpuNow();
      own.user_us = own1.user_us - own0.user_us;
      own.sys_us = own1.sys_us - own0.sys_us;
      if (stop_after_exit)
        sampler.SampleNow();
      else
        sampler.Stop();  // before the ring goes away: the helpers are still alive
      rig_.Close();
    });
    worker.join();
    if (stop_after_exit) sampler.Stop();
    return sampler.Detail(own);
  }

  void RunReads(uint32_t force_async, bool sqpoll = false) {
    int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    JobSpec job;
    job.name = "helpers";
    job.ioengine = "io_uring";
    job.iodepth = 32;
    job.force_async = force_async;
    job.sqthread_poll = sqpoll;
    std::vector<EngineFile> files(1);
    files[0].path = path_;
    files[0].fd = fd;
    EngineRig& rig = rig_;
    Status st = rig.Open("io_uring", job, std::move(files));
    EXPECT_TRUE(st.ok()) << st.message();
    std::mt19937_64 rng(1);
    uint64_t bad = 0;
    if (st.ok()) {
      st = rig.Run(
          kReads,
          [&](IoRequest* r, uint64_t) {
            r->op = IoOp::kRead;
            r->file_index = 0;
            r->offset = (rng() % (kFileBytes / kBs)) * kBs;
            r->length = kBs;
          },
          [&](IoRequest* r) { bad += r->res != static_cast<int64_t>(kBs); });
      EXPECT_TRUE(st.ok()) << st.message();
    }
    EXPECT_EQ(bad, 0u);
  }

  EngineRig rig_;

  std::unique_ptr<TempDir> dir_;
  std::string path_;
};

TEST_F(HelperCpuIoUringTest, ForceAsyncShowsIoWqWorkers) {
  HelperCpuDetail d = Measure(1);
  RecordProperty("iowq_sys_us", std::to_string(d.cpu.iowq_sys_us));
  RecordProperty("peak_iowq", std::to_string(d.peak_iowq_threads));
  RecordProperty("all_helpers_sys_us", std::to_string(d.all_helpers_sys_us));
  EXPECT_GT(d.cpu.iowq_user_us + d.cpu.iowq_sys_us, 0u);
  EXPECT_GT(d.peak_iowq_threads, 1u);
  EXPECT_EQ(d.peak_sqpoll_threads, 0u);
  EXPECT_EQ(d.cpu.peak_threads, d.peak_iowq_threads);
  // RUSAGE_SELF bounds what the per-thread samples attribute (both count
  // the same CPU; /proc ticks are coarser, so allow one tick per thread seen).
  EXPECT_LE(d.cpu.iowq_user_us + d.cpu.iowq_sys_us,
            d.all_helpers_user_us + d.all_helpers_sys_us + 10000ull * (d.peak_iowq_threads + 1));
}

// The kernel names io-wq workers after the thread that owns the ring, so
// the helpers are attributed to the job's worker thread, not to the process.
TEST_F(HelperCpuIoUringTest, ForThreadAttributesHelpersToTheRingOwner) {
  HelperCpuSampler sampler(50);
  pid_t tid = 0;
  HelperCpuDetail d = Measure(1, &sampler, &tid, /*sqpoll=*/false, /*stop_after_exit=*/true);
  ASSERT_NE(tid, 0);
  ASSERT_NE(tid, getpid());
  HelperCpu mine = sampler.ForThread(0, tid);
  EXPECT_EQ(mine.iowq_sys_us, d.cpu.iowq_sys_us);
  EXPECT_GT(mine.iowq_sys_us, 0u);
  EXPECT_EQ(mine.peak_threads, d.peak_iowq_threads);
  HelperCpu none = sampler.ForThread(getpid(), getpid());
  EXPECT_EQ(none.iowq_sys_us + none.sqpoll_sys_us, 0u);
  EXPECT_EQ(none.peak_threads, 0u);
}

// sqthread_poll: one SQPOLL thread, named after the worker, doing the
// submissions (so it has run: CPU > 0).
TEST_F(HelperCpuIoUringTest, SqpollThreadIsCounted) {
  HelperCpuSampler sampler(50);
  pid_t tid = 0;
  HelperCpuDetail d = Measure(0, &sampler, &tid, /*sqpoll=*/true);
  RecordProperty("sqpoll_sys_us", std::to_string(d.cpu.sqpoll_sys_us));
  EXPECT_EQ(d.peak_sqpoll_threads, 1u);
  EXPECT_GT(d.cpu.sqpoll_sys_us, 0u);
  EXPECT_EQ(sampler.ForThread(0, tid).sqpoll_sys_us, d.cpu.sqpoll_sys_us);
}

// With SQPOLL the SQPOLL thread submits, so the io-wq workers are its own:
// "iou-wrk-<SQPOLL thread's tid>", not the worker's. They still served the
// worker's ring: its io-wq CPU and its peak (SQPOLL thread + workers) were
// missing from ForThread and went to every job by submissions.
TEST_F(HelperCpuIoUringTest, ForThreadFollowsSqpollToItsIoWqWorkers) {
  HelperCpuSampler sampler(50);
  pid_t tid = 0;
  HelperCpuDetail d = Measure(1, &sampler, &tid, /*sqpoll=*/true, /*stop_after_exit=*/true);
  ASSERT_NE(tid, 0);
  ASSERT_GT(d.peak_iowq_threads, 0u) << "no io-wq worker under SQPOLL on this kernel";
  HelperCpu mine = sampler.ForThread(0, tid);
  EXPECT_GT(mine.iowq_sys_us, 0u);
  EXPECT_EQ(mine.iowq_sys_us, d.cpu.iowq_sys_us);
  EXPECT_EQ(mine.sqpoll_sys_us, d.cpu.sqpoll_sys_us);
  EXPECT_EQ(mine.peak_threads, d.cpu.peak_threads);
  EXPECT_GE(mine.peak_threads, 2u);
}

// A SQPOLL thread spins from its first I/O to sq_thread_idle (1 s) after
// its last. A job's figure is the difference of its helpers' readings when
// its period begins and just before it ends, from their thread CPU clocks
// (exact at the call): one thread cannot use more CPU than the wall time
// between them, however loaded the machine. A 9 ms job read sqpoll=135%,
// counted to a /proc scan after its end. What it spins after the end is in
// the whole interval's figure only.
TEST_F(HelperCpuIoUringTest, SqpollPeriodIsAtMostItsWallTime) {
  HelperCpuSampler sampler(50);
  ASSERT_TRUE(sampler.Start().ok());
  const pid_t tid = HelperCpuSampler::CurrentTid();
  const pid_t ktid = HelperCpuSampler::KernelTid();
  ASSERT_NE(ktid, 0);
  int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  JobSpec job;
  job.name = "sqpoll";
  job.ioengine = "io_uring";
  job.iodepth = 8;
  job.sqthread_poll = 1;
  std::vector<EngineFile> files(1);
  files[0].path = path_;
  files[0].fd = fd;
  Status st = rig_.Open("io_uring", job, std::move(files));
  ASSERT_TRUE(st.ok()) << st.message();
  // The SQPOLL thread names itself when it first runs.
  std::vector<pid_t> mine;
  for (int i = 0; i < 1000 && mine.empty(); ++i) {
    (void)sampler.SampleForThread(tid, ktid, /*scan=*/true, &mine);
    if (mine.empty()) usleep(1000);
  }
  ASSERT_FALSE(mine.empty()) << "no iou-sqp thread after 1 s";
  const auto t0 = std::chrono::steady_clock::now();
  const HelperCpu before = sampler.SampleForThread(tid, ktid, /*scan=*/false, &mine);
  std::mt19937_64 rng(1);
  st = rig_.Run(
      2048,
      [&](IoRequest* r, uint64_t) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = (rng() % (kFileBytes / kBs)) * kBs;
        r->length = kBs;
      },
      [](IoRequest*) {});
  EXPECT_TRUE(st.ok()) << st.message();
  std::vector<HelperCpuSampler::Reading> end;
  HelperCpuSampler::ReadThreads(mine, &end);
  const auto t1 = std::chrono::steady_clock::now();
  usleep(20000);  // the SQPOLL thread spins on
  sampler.EndPeriod(end);
  sampler.SampleNow();
  sampler.Stop();
  rig_.Close();
  const uint64_t wall_us =
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count());
  const HelperCpu period = sampler.ForThread(tid, ktid, /*to_period_end=*/true);
  const HelperCpu whole = sampler.ForThread(tid, ktid);
  ASSERT_GE(period.sqpoll_sys_us, before.sqpoll_sys_us);
  const uint64_t in_period = period.sqpoll_sys_us - before.sqpoll_sys_us;
  RecordProperty("sqpoll_period_us", std::to_string(in_period));
  RecordProperty("wall_us", std::to_string(wall_us));
  EXPECT_GT(in_period, 0u);
  EXPECT_LE(in_period, wall_us + 1);  // +1: each reading is truncated to µs
  EXPECT_GE(whole.sqpoll_sys_us, period.sqpoll_sys_us);
}

TEST_F(HelperCpuIoUringTest, WithoutForceAsyncNoIoWqWorkers) {
  HelperCpuDetail d = Measure(0);
  RecordProperty("iowq_sys_us", std::to_string(d.cpu.iowq_sys_us));
  RecordProperty("peak_iowq", std::to_string(d.peak_iowq_threads));
  RecordProperty("all_helpers_sys_us", std::to_string(d.all_helpers_sys_us));
  // ext4 buffered reads retry from the page-cache wake-up (FMODE_BUF_RASYNC)
  // instead of blocking an io-wq worker, so no worker pool forms. A kernel
  // may still punt the odd request, hence "at most one".
  EXPECT_LE(d.peak_iowq_threads, 1u);
  EXPECT_EQ(d.peak_sqpoll_threads, 0u);
}

}  // namespace
}  // namespace iobench
