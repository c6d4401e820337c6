// ctest-labels: threads
// One conformance suite for every engine in EngineRegistry() that has an
// implementation (factory != null), and for each io_uring/libaio option
// combination, on tmpfs and ext4 files (buffered and O_DIRECT) and on a loop
// device when root. Engines that arrive later (the sync family) are picked up
// automatically. nowait is tested on its own (engine_io_uring_test.cc,
// engine_libaio_test.cc): buffered writes with RWF_NOWAIT are refused by
// design, so "writes read back" does not apply. The null engine is left out: it does no I/O by
// design, so "writes read back" cannot hold for it; nor do falloc and ftruncate, which move no
// data (tests/e2e/fileops_engines.sh checks them against fio), nor the file-metadata engines
// (engine_filemeta_test.cc, tests/e2e/filemeta_engines.sh).
//
// Each engine is driven directly through engine.h by tests/unit/engine_test_driver.h.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine_test_driver.h"
#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing_engine::CheckPattern;
using testing_engine::EngineRig;
using testing_engine::FillPattern;
using testing_engine::LoopDevice;

struct Variant {
  std::string engine;
  std::string label;
  std::function<void(JobSpec&)> tweak;
  bool poll_reap = false;
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.engine << "/" << v.label; }

std::vector<Variant> AllVariants() {
  std::vector<Variant> v;
  for (const auto& e : EngineRegistry()) {
    const std::string name = e.name;
    if (e.factory == nullptr || name == "null" || name == "falloc" || name == "ftruncate" ||
        name == "cpuio")
      continue;
    if (name == "filecreate" || name == "filestat" || name == "filedelete") continue;  // no data
    v.push_back({name, "default", [](JobSpec&) {}});
    if (name == "io_uring") {
      v.push_back({name, "force_async1", [](JobSpec& j) { j.force_async = 1; }});
      v.push_back({name, "force_async3", [](JobSpec& j) { j.force_async = 3; }});
      v.push_back({name, "fixedbufs", [](JobSpec& j) { j.fixedbufs = true; }});
      v.push_back({name, "registerfiles", [](JobSpec& j) { j.registerfiles = true; }});
      v.push_back({name, "sqthread_poll", [](JobSpec& j) { j.sqthread_poll = true; }});
      v.push_back({name, "sqthread_poll_cpu0", [](JobSpec& j) {
                     j.sqthread_poll = true;
                     j.sqthread_poll_cpu = 0;
                   }});
      v.push_back({name, "nonvectored0", [](JobSpec& j) { j.nonvectored = 0; }});
      v.push_back({name, "nonvectored1", [](JobSpec& j) { j.nonvectored = 1; }});
      v.push_back({name, "all_fixed", [](JobSpec& j) {
                     j.fixedbufs = true;
                     j.registerfiles = true;
                     j.sqthread_poll = true;
                   }});
      v.push_back({name, "poll_reap", [](JobSpec&) {}, true});
    }
    if (name == "libaio") {
      // The default reads the ring first; userspace_reap=0 is fio's io_getevents-only
      // reaping, and the poll variant reaps with min 0 from the ring.
      v.push_back({name, "getevents_reap", [](JobSpec& j) { j.userspace_reap = false; }});
      v.push_back({name, "userspace_reap", [](JobSpec& j) { j.userspace_reap = true; }, true});
    }
  }
  return v;
}

enum class Where { kTmpfs, kExt4, kExt4Direct, kLoopDirect };
const char* WhereName(Where w) {
  switch (w) {
    case Where::kTmpfs:
      return "tmpfs";
    case Where::kExt4:
      return "ext4";
    case Where::kExt4Direct:
      return "ext4_direct";
    case Where::kLoopDirect:
      return "loop_direct";
  }
  return "?";
}

constexpr uint64_t kConfBs = 4096;
constexpr uint64_t kConfBlocks = 64;
constexpr uint64_t kTargetBytes = kConfBlocks * kConfBs;

using Param = std::tuple<Variant, Where>;

class EngineConformanceTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    const auto& [variant, where] = GetParam();
    variant_ = variant;
    where_ = where;
    const EngineInfo* info = FindEngine(variant_.engine);
    ASSERT_NE(info, nullptr);
    Status probe = info->probe();
    if (!probe.ok()) GTEST_SKIP() << variant_.engine << " unavailable: " << probe.message();
    job_.name = "conformance";
    job_.ioengine = variant_.engine;
    job_.iodepth = 8;
    job_.direct = where_ == Where::kExt4Direct || where_ == Where::kLoopDirect;
    variant_.tweak(job_);

    const std::string base = where_ == Where::kTmpfs ? "/dev/shm" : "/var/tmp";
    dir_ = std::make_unique<TempDir>(base);
    ASSERT_TRUE(dir_->ok()) << "mkdtemp under " << base;
    if (where_ == Where::kLoopDirect) {
      loop_ = std::make_unique<LoopDevice>(dir_->path() + "/backing", kTargetBytes);
      if (!loop_->ok()) GTEST_SKIP() << "loop device: " << loop_->why();
      path_ = loop_->dev();
    } else {
      path_ = dir_->path() + "/target";
      // Written, not sparse: O_DIRECT reads of holes skip the alignment
      // checks on ext4, and real targets hold data.
      int fd = open(path_.c_str(), O_CREAT | O_RDWR, 0600);
      ASSERT_GE(fd, 0);
      std::vector<char> zeros(kTargetBytes, 0);
      ASSERT_EQ(pwrite(fd, zeros.data(), zeros.size(), 0), static_cast<ssize_t>(kTargetBytes));
      ASSERT_EQ(fsync(fd), 0);
      close(fd);
    }
  }

  // Opens the target with the job's flags and sets up a rig. Skips when the
  // engine's own pre-run check or Init says this kernel cannot do it.
  void OpenRig(EngineRig* rig, int oflags = O_RDWR, uint32_t depth = 8) {
    JobSpec job = job_;
    job.iodepth = depth;
    int fd = open(path_.c_str(), oflags | (job.direct ? O_DIRECT : 0) | O_CLOEXEC);
    ASSERT_GE(fd, 0) << "open " << path_ << ": " << strerror(errno);
    struct stat st;
    ASSERT_EQ(fstat(fd, &st), 0);
    std::vector<EngineFile> files(1);
    files[0].path = path_;
    files[0].fd = fd;
    files[0].is_block_device = S_ISBLK(st.st_mode);
    files[0].size = kTargetBytes;
    const EngineInfo* info = FindEngine(job.ioengine);
    if (info->check_job != nullptr) {
      Status c = info->check_job(job, files);
      if (c.code() == Status::Code::kUnsupported) {
        close(fd);
        GTEST_SKIP() << "check_job: " << c.message();
      }
      ASSERT_TRUE(c.ok()) << c.message();
    }
    Status st2 = rig->Open(job.ioengine, job, std::move(files));
    if (st2.code() == Status::Code::kUnsupported) GTEST_SKIP() << "Init: " << st2.message();
    ASSERT_TRUE(st2.ok()) << st2.message();
    rig->set_poll_reap(variant_.poll_reap);
  }

  Variant variant_;
  Where where_ = Where::kTmpfs;
  JobSpec job_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<LoopDevice> loop_;
  std::string path_;
};

// Writes every block in a shuffled order through the engine, reads them back
// through the engine, and checks them with plain pread: data intact and each
// offset honoured.
TEST_P(EngineConformanceTest, WritesReadBackIntactAtTheirOffsets) {
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<uint64_t> order(kConfBlocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  uint64_t writes = 0;
  Status st = rig.Run(
      kConfBlocks,
      [&](IoRequest* r, uint64_t i) {
        r->op = IoOp::kWrite;
        r->file_index = 0;
        r->offset = order[i] * kConfBs;
        r->length = kConfBs;
        FillPattern(r->buf, kConfBs, r->offset);
      },
      [&](IoRequest* r) {
        EXPECT_EQ(r->res, static_cast<int64_t>(kConfBs)) << "write at " << r->offset;
        ++writes;
      });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(writes, kConfBlocks);

  uint64_t reads = 0;
  st = rig.Run(
      kConfBlocks,
      [&](IoRequest* r, uint64_t i) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = order[kConfBlocks - 1 - i] * kConfBs;
        r->length = kConfBs;
        std::memset(r->buf, 0, kConfBs);
      },
      [&](IoRequest* r) {
        ASSERT_EQ(r->res, static_cast<int64_t>(kConfBs)) << "read at " << r->offset;
        EXPECT_TRUE(CheckPattern(r->buf, kConfBs, r->offset)) << "data at " << r->offset;
        ++reads;
      });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(reads, kConfBlocks);
  rig.Close();

  // Independent check, outside the engine.
  int fd = open(path_.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<char> buf(kTargetBytes);
  ASSERT_EQ(pread(fd, buf.data(), kTargetBytes, 0), static_cast<ssize_t>(kTargetBytes));
  close(fd);
  for (uint64_t b = 0; b < kConfBlocks; ++b)
    EXPECT_TRUE(CheckPattern(buf.data() + b * kConfBs, kConfBs, b * kConfBs)) << "block " << b;
}

// Exactly n completions for n requests at depth, each request once (the
// driver checks "once"), every byte accounted for.
TEST_P(EngineConformanceTest, ExactCompletionCountAtDepth) {
  EngineRig rig;
  OpenRig(&rig, O_RDWR, 16);
  if (IsSkipped() || HasFatalFailure()) return;
  constexpr uint64_t kN = 1000;
  uint64_t done = 0, bytes = 0;
  std::mt19937_64 rng(7);
  std::vector<uint64_t> offs(kN);
  for (auto& o : offs) o = (rng() % kConfBlocks) * kConfBs;
  Status st = rig.Run(
      kN,
      [&](IoRequest* r, uint64_t i) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = offs[i];
        r->length = kConfBs;
      },
      [&](IoRequest* r) {
        ++done;
        if (r->res > 0) bytes += static_cast<uint64_t>(r->res);
        EXPECT_EQ(r->res, static_cast<int64_t>(kConfBs));
      });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(done, kN);
  EXPECT_EQ(bytes, kN * kConfBs);
  if (!rig.engine()->IsSync()) {
    const EngineCounters& c = rig.engine()->counters();
    EXPECT_EQ(c.submitted, kN);
    EXPECT_EQ(c.reaped, kN);
    EXPECT_GE(c.submit_calls, 1u);
    EXPECT_LE(c.submit_calls, c.submitted);
  }
}

// A read that crosses the end of a file returns the bytes that exist; a read
// at or past the end returns 0. Block devices end on a block boundary, so
// there only the "at the end" half applies.
TEST_P(EngineConformanceTest, ShortReadAtEofAndZeroPastIt) {
  if (where_ != Where::kLoopDirect) {
    int fd = open(path_.c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, static_cast<off_t>(3 * kConfBs + 100)), 0);
    std::vector<char> data(3 * kConfBs + 100);
    FillPattern(data.data(), data.size(), 0);
    ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<char> got(kConfBs);
  if (where_ != Where::kLoopDirect) {
    auto r = rig.One(IoOp::kRead, 3 * kConfBs, kConfBs, got.data());
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(*r, 100);
    EXPECT_TRUE(CheckPattern(got.data(), 100, 3 * kConfBs));
    auto past = rig.One(IoOp::kRead, 4 * kConfBs, kConfBs, got.data());
    ASSERT_TRUE(past.ok());
    EXPECT_EQ(*past, 0);
  } else {
    auto at_end = rig.One(IoOp::kRead, kTargetBytes, kConfBs, got.data());
    ASSERT_TRUE(at_end.ok());
    EXPECT_EQ(*at_end, 0);
  }
}

// A file removed and created again between passes (unlink_each_loop): once
// told (FileReopened), the engine writes to the new file at the offset asked,
// not to the removed one (a mapping, a registered file) and not at the old
// descriptor's position (sync, vsync: the write at 4096 followed one that
// ended there, so the lseek was skipped and it landed at 0).
TEST_P(EngineConformanceTest, WritesGoToAFileReplacedBetweenPasses) {
  if (where_ == Where::kLoopDirect) GTEST_SKIP() << "a device is never replaced";
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<char> data(kConfBs);
  FillPattern(data.data(), data.size(), 0);
  auto first = rig.One(IoOp::kWrite, 0, kConfBs, data.data());
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_EQ(*first, static_cast<int64_t>(kConfBs));
  ASSERT_EQ(unlink(path_.c_str()), 0);
  // Laid out at the old size, so the mmap engine can map it (its check_job
  // refuses the empty files of unlink_each_loop).
  const int fd =
      open(path_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC | (job_.direct ? O_DIRECT : 0), 0600);
  ASSERT_GE(fd, 0) << strerror(errno);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kTargetBytes)), 0);
  Status st = rig.Reopen(0, fd);
  ASSERT_TRUE(st.ok()) << st.message();
  FillPattern(data.data(), data.size(), kConfBs);
  auto second = rig.One(IoOp::kWrite, kConfBs, kConfBs, data.data());
  ASSERT_TRUE(second.ok()) << second.status().message();
  ASSERT_EQ(*second, static_cast<int64_t>(kConfBs));
  auto sync = rig.One(IoOp::kFsync, 0, 0);
  ASSERT_TRUE(sync.ok()) << sync.status().message();
  rig.Close();
  std::vector<char> got(2 * kConfBs, 'x');
  const int check = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(check, 0);
  ASSERT_EQ(pread(check, got.data(), got.size(), 0), static_cast<ssize_t>(got.size()));
  close(check);
  EXPECT_TRUE(CheckPattern(got.data() + kConfBs, kConfBs, kConfBs))
      << "the write after the replacement is not at its offset in the new file";
  EXPECT_EQ(std::count(got.begin(), got.begin() + kConfBs, '\0'), static_cast<long>(kConfBs))
      << "the new file's first block was written";
}

// A write on a read-only descriptor fails with -EBADF in res, not with a
// Status and not silently.
TEST_P(EngineConformanceTest, WriteOnReadOnlyFdIsEbadf) {
  EngineRig rig;
  OpenRig(&rig, O_RDONLY);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<char> data(kConfBs, 'x');
  auto r = rig.One(IoOp::kWrite, 0, kConfBs, data.data());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, -EBADF);
  // The engine keeps working after an error.
  auto ok = rig.One(IoOp::kRead, 0, kConfBs, data.data());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, static_cast<int64_t>(kConfBs));
}

// O_DIRECT at an offset that is not block aligned: -EINVAL in res.
TEST_P(EngineConformanceTest, MisalignedDirectIoIsEinval) {
  if (where_ != Where::kExt4Direct && where_ != Where::kLoopDirect)
    GTEST_SKIP() << "only O_DIRECT targets enforce alignment";
  if (std::get<0>(GetParam()).engine == "mmap")
    GTEST_SKIP() << "mmap copies through the page cache: no alignment rule (its check_job "
                    "asks for page-multiple blocks with direct=1, as fio)";
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  auto r = rig.One(IoOp::kRead, 1, kConfBs);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, -EINVAL);
}

// fsync and fdatasync after writes complete with res == 0.
TEST_P(EngineConformanceTest, FsyncAndFdatasyncComplete) {
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<char> data(kConfBs);
  FillPattern(data.data(), kConfBs, kConfBs);
  auto w = rig.One(IoOp::kWrite, kConfBs, kConfBs, data.data());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(*w, static_cast<int64_t>(kConfBs));
  auto f = rig.One(IoOp::kFsync, 0, 0);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(*f, 0);
  auto d = rig.One(IoOp::kFdatasync, 0, 0);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(*d, 0);
}

// sync_file_range (sync_file_range=...:N) of a written range completes with
// res == 0 on every engine (libaio does it in the call: there is no aio op).
TEST_P(EngineConformanceTest, SyncFileRangeCompletes) {
  EngineRig rig;
  OpenRig(&rig);
  if (IsSkipped() || HasFatalFailure()) return;
  std::vector<char> data(kConfBs);
  FillPattern(data.data(), kConfBs, 0);
  auto w = rig.One(IoOp::kWrite, 0, kConfBs, data.data());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(*w, static_cast<int64_t>(kConfBs));
  auto s = rig.One(IoOp::kSyncFileRange, 0, kConfBs);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(*s, 0);
}

// ReapFor (the worker's wait while a read_iolog entry is not due): each
// completion comes back once, a wait with I/O in flight returns it, and with
// nothing in flight the wait ends empty after its timeout instead of hanging.
TEST_P(EngineConformanceTest, TimedReapsReturnEachCompletionOnce) {
  EngineRig rig;
  OpenRig(&rig, O_RDWR, 8);
  if (IsSkipped() || HasFatalFailure()) return;
  if (rig.engine()->IsSync()) GTEST_SKIP() << "a sync engine completes in Queue: nothing to reap";
  // 10 s: far longer than any read here takes, so an empty return means the
  // engine did not wait for what was in flight.
  rig.set_timed_reap(10'000'000'000ull);
  rig.set_poll_reap(false);  // the poll variants too: this test waits
  constexpr uint64_t kN = 200;
  uint64_t done = 0;
  Status st = rig.Run(
      kN,
      [&](IoRequest* r, uint64_t i) {
        r->op = IoOp::kRead;
        r->file_index = 0;
        r->offset = (i * 37 % kConfBlocks) * kConfBs;
        r->length = kConfBs;
      },
      [&](IoRequest* r) {
        ++done;
        EXPECT_EQ(r->res, static_cast<int64_t>(kConfBs));
      });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(done, kN);
  EXPECT_EQ(rig.engine()->counters().reaped, kN);
  EXPECT_GT(rig.timed_reaps(), 0u);
  EXPECT_EQ(rig.timed_empty(), 0u);
  IoRequest* out[8];
  auto empty = rig.engine()->ReapFor(8, out, 1'000'000);  // 1 ms, nothing in flight
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(*empty, 0u);
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  const auto& [v, w] = info.param;
  std::string s = v.engine + "_" + v.label + "_" + WhereName(w);
  for (char& c : s)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineConformanceTest,
                         ::testing::Combine(::testing::ValuesIn(AllVariants()),
                                            ::testing::Values(Where::kTmpfs, Where::kExt4,
                                                              Where::kExt4Direct,
                                                              Where::kLoopDirect)),
                         ParamName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EngineConformanceTest);

}  // namespace
}  // namespace iobench
