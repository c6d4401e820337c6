// io_uring engine: probes, pre-run refusals (with the exact reasons the user
// reads), depth limits, and the options the conformance suite cannot cover.
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine_test_driver.h"
#include "engines/async_common.h"
#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing_engine::EngineRig;
using testing_engine::LoopDevice;

constexpr uint64_t kUringBs = 4096;

class IoUringTest : public ::testing::Test {
 protected:
  void SetUp() override {
    info_ = FindEngine("io_uring");
    ASSERT_NE(info_, nullptr);
    ASSERT_NE(info_->factory, nullptr);
    Status p = info_->probe();
    if (!p.ok()) GTEST_SKIP() << "io_uring unavailable: " << p.message();
    job_.name = "t";
    job_.ioengine = "io_uring";
    job_.iodepth = 8;
  }

  // A data file of `bytes` under `dir`.
  static std::string MakeFile(const std::string& dir, uint64_t bytes) {
    std::string path = dir + "/data";
    int fd = open(path.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
    std::vector<char> buf(bytes, 'd');
    if (fd >= 0) {
      (void)!pwrite(fd, buf.data(), buf.size(), 0);
      close(fd);
    }
    return path;
  }

  static std::vector<EngineFile> Files(const std::string& path, int oflags) {
    std::vector<EngineFile> f(1);
    f[0].path = path;
    f[0].fd = open(path.c_str(), oflags | O_CLOEXEC);
    return f;
  }

  // The engine set up by hand over `files` and a request pool of the test's
  // own (the rig's pool is exactly iodepth long); its Init status in *st.
  std::unique_ptr<Engine> InitEngine(uint32_t depth, std::vector<EngineFile>* files,
                                     std::vector<IoRequest>* pool, Status* st) {
    EngineContext ctx;
    ctx.job = &job_;
    ctx.iodepth = depth;
    ctx.files = files;
    ctx.requests = pool;
    auto eng = info_->factory();
    *st = eng->Init(ctx);
    return eng;
  }

  const EngineInfo* info_ = nullptr;
  JobSpec job_;
};

TEST_F(IoUringTest, CmdEngineSaysNotAvailableYet) {
  const EngineInfo* cmd = FindEngine("io_uring_cmd");
  ASSERT_NE(cmd, nullptr);
  EXPECT_EQ(cmd->factory, nullptr);
  Status st = cmd->probe();
  EXPECT_EQ(st.code(), Status::Code::kUnsupported);
  EXPECT_EQ(st.message(), "io_uring_cmd (NVMe passthrough) is not available in iobench yet");
}

TEST_F(IoUringTest, UncachedOnTmpfsIsRefusedNamingFileFsAndKernel) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  std::string path = MakeFile(dir.path(), 8 * kUringBs);
  job_.uncached = true;
  std::vector<EngineFile> files(1);
  files[0].path = path;
  Status st = info_->check_job(job_, files);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kUnsupported);
  EXPECT_NE(st.message().find(path), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("on tmpfs"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("kernel " + KernelRelease()), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("uncached=1 (RWF_DONTCACHE)"), std::string::npos);
}

TEST_F(IoUringTest, UncachedOnExt4ReadsAndWrites) {
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  std::string path = MakeFile(dir.path(), 8 * kUringBs);
  job_.uncached = true;
  auto files = Files(path, O_RDWR);
  Status st = info_->check_job(job_, files);
  if (st.code() == Status::Code::kUnsupported) GTEST_SKIP() << st.message();
  ASSERT_TRUE(st.ok()) << st.message();
  EngineRig rig;
  ASSERT_TRUE(rig.Open("io_uring", job_, std::move(files)).ok());
  std::vector<char> data(kUringBs, 'u');
  auto w = rig.One(IoOp::kWrite, kUringBs, kUringBs, data.data());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, static_cast<int64_t>(kUringBs));
  std::vector<char> back(kUringBs);
  auto r = rig.One(IoOp::kRead, kUringBs, kUringBs, back.data());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, static_cast<int64_t>(kUringBs));
  EXPECT_EQ(back, data);
}

TEST_F(IoUringTest, HipriNeedsDirect) {
  job_.hipri = true;
  Status st = info_->check_job(job_, {});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "io_uring: hipri=1 needs direct=1 (polled completions exist only for O_DIRECT I/O)");
}

TEST_F(IoUringTest, HipriOnTmpfsIsRefused) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  job_.hipri = true;
  job_.direct = true;
  std::vector<EngineFile> files(1);
  files[0].path = path;
  Status st = info_->check_job(job_, files);
  EXPECT_EQ(st.code(), Status::Code::kUnsupported);
  EXPECT_EQ(st.message(),
            "io_uring: hipri needs a block device with poll queues (nvme "
            "poll_queues=N); " +
                path + " is not on a block device");
}

TEST_F(IoUringTest, HipriOnLoopDeviceIsRefusedNamingIt) {
  TempDir dir("/var/tmp");
  LoopDevice loop(dir.path() + "/backing", 1 << 20);
  if (!loop.ok()) GTEST_SKIP() << "loop device: " << loop.why();
  job_.hipri = true;
  job_.direct = true;
  std::vector<EngineFile> files(1);
  files[0].path = loop.dev();
  Status st = info_->check_job(job_, files);
  EXPECT_EQ(st.code(), Status::Code::kUnsupported);
  const std::string name = loop.dev().substr(loop.dev().rfind('/') + 1);
  EXPECT_EQ(st.message(),
            "io_uring: hipri needs a block device with poll queues (nvme "
            "poll_queues=N); " +
                loop.dev() + " (" + name + ") has none");
}

TEST_F(IoUringTest, DepthAboveTheRingLimitIsRefused) {
  job_.iodepth = 65537;
  Status st = info_->check_job(job_, {});
  EXPECT_EQ(st.code(), Status::Code::kResourceLimit);
  EXPECT_NE(st.message().find("iodepth=65537 is above the ring limit of 65536"), std::string::npos)
      << st.message();
}

// Trims are done in the call, as fio's io_uring does them (sync_engine_test
// TrimPunchesHolesInFiles runs them).
TEST_F(IoUringTest, TrimIsAccepted) {
  job_.rw = RwMode::kRandTrim;
  Status st = info_->check_job(job_, {});
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST_F(IoUringTest, SqthreadPollCpuWithoutSqthreadPollIsInvalid) {
  job_.sqthread_poll_cpu = 0;
  Status st = info_->check_job(job_, {});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
}

// A CPU that does not exist is refused before the run naming it (the ring
// setup said only "io_uring: io_uring: setup (...): Invalid argument", exit 1).
TEST_F(IoUringTest, SqthreadPollCpuThatDoesNotExistIsRefusedBeforeTheRun) {
  const int cpu = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF)) + 3;
  job_.sqthread_poll = true;
  job_.sqthread_poll_cpu = cpu;
  Status st = info_->check_job(job_, {});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("io_uring: sqthread_poll_cpu=" + std::to_string(cpu) + ": CPU " +
                              std::to_string(cpu) + " does not exist or is offline"),
            std::string::npos)
      << st.message();
  // Should the ring be set up anyway, its error carries no engine prefix
  // of its own (the worker adds "io_uring: ").
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  EngineRig rig;
  st = rig.Open("io_uring", job_, Files(path, O_RDONLY));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message().rfind("setup (sq=", 0), 0u) << st.message();
}

// A pool deeper than the largest SQ (32768): Queue returns kBusy when the SQ
// is full and the run still completes every I/O exactly once.
TEST_F(IoUringTest, DepthBeyondTheSqSizeCompletesEverything) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), 64 * kUringBs);
  job_.iodepth = 40000;
  EngineRig rig;
  Status st = rig.Open("io_uring", job_, Files(path, O_RDONLY), 512);
  ASSERT_TRUE(st.ok()) << st.message();
  constexpr uint64_t kN = 100000;
  uint64_t done = 0;
  st = rig.Run(
      kN,
      [](IoRequest* r, uint64_t i) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = (i % 512) * 512;
        r->length = 512;
      },
      [&](IoRequest* r) {
        ++done;
        EXPECT_EQ(r->res, 512);
      });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(done, kN);
  EXPECT_EQ(rig.engine()->counters().submitted, kN);
  EXPECT_EQ(rig.engine()->counters().reaped, kN);
}

// reap_syscalls counts the reaps that had to enter the kernel to wait: at
// depth 1 nothing is in the CQ when the reap looks (the read has just been
// submitted), so every reap waits; none is counted twice.
TEST_F(IoUringTest, ReapSyscallsCountTheWaits) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), 64 * kUringBs);
  job_.iodepth = 1;
  EngineRig rig;
  ASSERT_TRUE(rig.Open("io_uring", job_, Files(path, O_RDONLY)).ok());
  constexpr uint64_t kN = 200;
  Status st = rig.Run(
      kN,
      [](IoRequest* r, uint64_t i) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = (i % 64) * kUringBs;
        r->length = kUringBs;
      },
      [](IoRequest* r) { EXPECT_EQ(r->res, static_cast<int64_t>(kUringBs)); });
  ASSERT_TRUE(st.ok()) << st.message();
  const EngineCounters& c = rig.engine()->counters();
  EXPECT_EQ(c.reaped, kN);
  EXPECT_EQ(c.reap_calls, kN);
  EXPECT_GE(c.reap_syscalls, 1u);
  EXPECT_LE(c.reap_syscalls, c.reap_calls);
}

// A reap with min 0 that enters the kernel (DEFER_TASKRUN runs completions
// only there) is a reap call even when it finds nothing: IOS/call's reap
// figure divides by the reaps, and the system calls are a subset of them.
// Before, an empty polling reap counted a system call and no call, and a
// polling job printed "reap=1.00" over millions of io_uring_enter calls
// (tests/e2e/ios_per_call_polling.sh runs such a job).
TEST_F(IoUringTest, EmptyPollThatEntersTheKernelIsAReapCall) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), 64 * kUringBs);
  job_.iodepth = 8;
  EngineRig rig;
  ASSERT_TRUE(rig.Open("io_uring", job_, Files(path, O_RDONLY)).ok());
  IoRequest* out[8];
  ASSERT_TRUE(rig.engine()->Reap(0, 8, out).ok());  // nothing in flight: an empty poll
  const EngineCounters& c = rig.engine()->counters();
  if (c.reap_syscalls == 0) GTEST_SKIP() << "the ring answers a min=0 reap without the kernel";
  EXPECT_EQ(c.reaped, 0u);
  EXPECT_EQ(c.reap_calls, 1u);
  EXPECT_EQ(c.reap_syscalls, 1u);
}

TEST_F(IoUringTest, NowaitOnTmpfsIsRefused) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  job_.nowait = true;
  std::vector<EngineFile> files(1);
  files[0].path = path;
  Status st = info_->check_job(job_, files);
  EXPECT_EQ(st.code(), Status::Code::kUnsupported);
  EXPECT_NE(st.message().find("nowait=1 (RWF_NOWAIT) is not supported for " + path + " on tmpfs"),
            std::string::npos)
      << st.message();
}

// Cached data reads fine with RWF_NOWAIT; a buffered ext4 write, which would
// block, is refused (-EAGAIN) rather than silently waited for.
TEST_F(IoUringTest, NowaitReadsCachedDataAndRefusesBlockingWrites) {
  TempDir dir("/var/tmp");
  std::string path = MakeFile(dir.path(), 8 * kUringBs);  // just written: cached
  job_.nowait = true;
  auto files = Files(path, O_RDWR);
  ASSERT_TRUE(info_->check_job(job_, files).ok());
  EngineRig rig;
  ASSERT_TRUE(rig.Open("io_uring", job_, std::move(files)).ok());
  std::vector<char> buf(kUringBs);
  auto r = rig.One(IoOp::kRead, 0, kUringBs, buf.data());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, static_cast<int64_t>(kUringBs));
  // ext4 buffered writes cannot promise not to block (6.18: -EAGAIN); a
  // kernel that learns to may complete them. Either way nothing else.
  std::vector<char> data(kUringBs, 'w');
  auto w = rig.One(IoOp::kWrite, 0, kUringBs, data.data());
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(*w == -EAGAIN || *w == static_cast<int64_t>(kUringBs)) << *w;
}

// sqthread_poll registers the files, as fio's fio_ioring_init does
// ("sqthread submission requires registered files"): once the ring is set
// up, the job's fd is pointed at /dev/null, and a read still gets the file's
// data through the registered file (through the fd it would read 0 bytes).
TEST_F(IoUringTest, SqthreadPollUsesRegisteredFiles) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  job_.sqthread_poll = true;
  auto files = Files(path, O_RDONLY);
  ASSERT_GE(files[0].fd, 0);
  const int fd = files[0].fd;
  EngineRig rig;
  Status st = rig.Open("io_uring", job_, std::move(files));
  if (!st.ok()) GTEST_SKIP() << "SQPOLL ring unavailable: " << st.message();
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(null_fd, 0);
  ASSERT_EQ(dup2(null_fd, fd), fd);
  close(null_fd);
  std::vector<char> buf(kUringBs, 0);
  auto r = rig.One(IoOp::kRead, 0, kUringBs, buf.data());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, static_cast<int64_t>(kUringBs));
  EXPECT_EQ(buf[0], 'd');
}

// With SQPOLL the kernel thread posts a request's CQE before it moves the SQ
// head past its SQE, so at iodepth=1 the request just reaped can find the
// one-entry SQ still full with nothing queued. Queue answered kBusy there,
// and the worker, with nothing in flight, failed the read with EBUSY (2 runs
// in 5 under load). The same SQ state, made deterministic: this thread runs
// SCHED_FIFO on the SQ thread's CPU, so that thread cannot take the SQE
// committed first until this one blocks. Queue of a second request must
// wait for the slot (and so let the SQ thread run), never answer kBusy with
// everything committed.
TEST_F(IoUringTest, SqthreadPollWaitsForTheSqSlotWhenAllIsCommitted) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &saved)) ++cpu;
  ASSERT_LT(cpu, CPU_SETSIZE);
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  job_.iodepth = 1;
  job_.sqthread_poll = true;
  job_.sqthread_poll_cpu = cpu;
  std::vector<EngineFile> files = Files(path, O_RDONLY);
  ASSERT_GE(files[0].fd, 0);
  std::vector<char> bufs(2 * kUringBs);
  std::vector<IoRequest> pool(2);  // one more than the SQ holds
  for (uint32_t i = 0; i < 2; ++i) {
    pool[i].index = i;
    pool[i].op = IoOp::kRead;
    pool[i].fd = files[0].fd;
    pool[i].file_index = 0;
    pool[i].length = kUringBs;
    pool[i].buf = bufs.data() + i * kUringBs;
  }
  Status st;
  auto eng = InitEngine(1, &files, &pool, &st);
  if (!st.ok()) {
    eng->Shutdown();
    close(files[0].fd);
    GTEST_SKIP() << "SQPOLL ring unavailable: " << st.message();
  }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  sched_param fifo{};
  fifo.sched_priority = 1;
  const bool rt = sched_setscheduler(0, SCHED_FIFO, &fifo) == 0;
  QueueResult first = QueueResult::kBusy, second = QueueResult::kBusy;
  Result<unsigned> committed = 0u;
  if (rt) {
    first = eng->Queue(&pool[0]);
    committed = eng->Commit();
    second = eng->Queue(&pool[1]);  // the SQ thread has not run since: the SQ is full
    sched_param other{};
    sched_setscheduler(0, SCHED_OTHER, &other);
  }
  sched_setaffinity(0, sizeof(saved), &saved);
  if (!rt) {
    eng->Shutdown();
    close(files[0].fd);
    GTEST_SKIP() << "SCHED_FIFO refused: " << std::strerror(errno);
  }
  EXPECT_EQ(first, QueueResult::kQueued);
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(*committed, 1u);
  EXPECT_EQ(second, QueueResult::kQueued) << "kBusy with every SQE committed";
  unsigned reaped = 0;
  if (second == QueueResult::kQueued) {
    auto c = eng->Commit();
    ASSERT_TRUE(c.ok()) << c.status().message();
    EXPECT_EQ(*c, 1u);
  }
  const unsigned want = second == QueueResult::kQueued ? 2 : 1;
  IoRequest* out[2] = {};
  while (reaped < want) {
    auto r = eng->Reap(1, 2, out);
    ASSERT_TRUE(r.ok()) << r.status().message();
    for (unsigned i = 0; i < *r; ++i) EXPECT_EQ(out[i]->res, static_cast<int64_t>(kUringBs));
    reaped += *r;
  }
  eng->Shutdown();
  close(files[0].fd);
}

TEST_F(IoUringTest, FixedbufsNeedTheBufferRegion) {
  TempDir dir("/dev/shm");
  std::string path = MakeFile(dir.path(), kUringBs);
  job_.fixedbufs = true;
  std::vector<EngineFile> files = Files(path, O_RDONLY);
  std::vector<IoRequest> pool(8);
  Status st;
  auto eng = InitEngine(8, &files, &pool, &st);
  EXPECT_EQ(st.code(), Status::Code::kInternal);
  // No "io_uring: " prefix from Init: the worker names the engine.
  EXPECT_EQ(st.message(), "fixedbufs needs the worker's contiguous buffer region");
  eng->Shutdown();
  close(files[0].fd);
}

}  // namespace
}  // namespace iobench
