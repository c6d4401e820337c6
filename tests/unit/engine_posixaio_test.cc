// ctest-labels: threads
// posixaio engine: what the conformance suite does not cover. Shutdown with
// requests in flight (an aiocb is glibc's until aio_return: Shutdown must
// cancel or wait, never leave a helper writing into freed memory), an
// aio_fsync that glibc refuses at submission (handed back once, by Reap),
// the depth limit, and the thread name the helper CPU sampler keys on.
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine_test_driver.h"
#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;

constexpr uint64_t kPosixAioBs = 4096;

std::string ThreadName() {
  char name[16] = {};
  prctl(PR_GET_NAME, name);
  return name;
}

class PosixAioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const EngineInfo* info = FindEngine("posixaio");
    ASSERT_NE(info, nullptr);
    ASSERT_NE(info->factory, nullptr);
    Status p = info->probe();
    if (!p.ok()) GTEST_SKIP() << "posixaio unavailable: " << p.message();
    job_.name = "t";
    job_.ioengine = "posixaio";
  }
  // A pool of `depth` requests over one 64-block file of zeros, opened O_RDWR.
  Status Open(uint32_t depth) {
    path_ = dir_.path() + "/data";
    int fd = open(path_.c_str(), O_CREAT | O_RDWR, 0600);
    if (fd < 0) return Status::Internal("open");
    std::vector<char> zeros(64 * kPosixAioBs, 0);
    (void)!pwrite(fd, zeros.data(), zeros.size(), 0);
    close(fd);
    std::vector<EngineFile> files(1);
    files[0].path = path_;
    files[0].fd = open(path_.c_str(), O_RDWR | O_CLOEXEC);
    files[0].size = 64 * kPosixAioBs;
    job_.iodepth = depth;
    IOB_RETURN_IF_ERROR(rig_.Open("posixaio", job_, std::move(files), kPosixAioBs));
    engine_ = rig_.engine();
    return Status::Ok();
  }

  JobSpec job_;
  TempDir dir_{"/dev/shm"};
  std::string path_;
  testing_engine::EngineRig rig_;  // declared after dir_: shut down before it goes
  Engine* engine_ = nullptr;
};

// Writes in flight at Shutdown: it returns only when glibc is done with every
// aiocb and buffer. Afterwards each block holds either its write or the old
// zeros, never anything else, and scribbling over the buffers changes nothing.
TEST_F(PosixAioTest, ShutdownWithRequestsInFlightWaitsForThem) {
  ASSERT_TRUE(Open(16).ok());
  for (uint32_t i = 0; i < 16; ++i) {
    IoRequest& r = rig_.request(i);
    r.op = IoOp::kWrite;
    r.offset = i * kPosixAioBs;
    r.length = kPosixAioBs;
    std::memset(r.buf, 'a' + static_cast<int>(i), kPosixAioBs);
    ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  }
  auto c = engine_->Commit();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, 16u);
  engine_->Shutdown();
  // glibc must not write from these any more.
  std::memset(rig_.buffer_base(), 'X', 16 * kPosixAioBs);
  int fd = open(path_.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<char> got(kPosixAioBs);
  for (uint32_t i = 0; i < 16; ++i) {
    ASSERT_EQ(pread(fd, got.data(), kPosixAioBs, i * kPosixAioBs),
              static_cast<ssize_t>(kPosixAioBs));
    const char want = static_cast<char>('a' + i);
    EXPECT_TRUE(got[0] == want || got[0] == 0) << "block " << i;
    for (uint64_t b = 1; b < kPosixAioBs; ++b)
      if (got[b] != got[0]) {
        ADD_FAILURE() << "block " << i << " torn at " << b;
        break;
      }
  }
  close(fd);
}

// glibc's aio_fsync checks the descriptor at submission (fcntl F_GETFL):
// one that is not open is refused there with EBADF, and the request comes
// back once, from Reap, with -EBADF.
TEST_F(PosixAioTest, RefusedSubmissionCompletesOnceWithTheError) {
  ASSERT_TRUE(Open(4).ok());
  IoRequest& r = rig_.request(0);
  r.op = IoOp::kFsync;
  r.fd = -1;
  ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  auto c = engine_->Commit();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, 1u);
  IoRequest* out[4];
  auto n = engine_->Reap(1, 4, out);
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(*n, 1u);
  EXPECT_EQ(out[0], &r);
  EXPECT_EQ(r.res, -EBADF);
  auto none = engine_->Reap(0, 4, out);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0u);
}

// The worker's thread carries "iob-aio-<tid>" while the engine is up, so the
// helpers glibc starts from it inherit the name (helper_cpu.h); Shutdown
// gives the old name back.
TEST_F(PosixAioTest, NamesTheWorkerThreadForItsHelpers) {
  const std::string before = ThreadName();
  ASSERT_TRUE(Open(2).ok());
  EXPECT_EQ(ThreadName(), "iob-aio-" + std::to_string(gettid()));
  engine_->Shutdown();
  EXPECT_EQ(ThreadName(), before);
}

// The probe makes no request, so it leaves no glibc helper behind: such a
// helper idles for a second and served the run's first job with the
// prober's I/O priority and CPUs (prioclass=1 prio=2 reached the block layer
// as the default). A job's own requests start its helpers from its thread.
TEST_F(PosixAioTest, TheProbeStartsNoHelperThread) {
  ASSERT_TRUE(FindEngine("posixaio")->probe().ok());  // SetUp probed too
  // A glibc helper carries the name of the thread that started it,
  // "iob-aio-<tid>": each such thread's <tid> must be a live thread (one
  // that ran the engine here), never a prober that has gone.
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(e.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("iob-aio-", 0) != 0) continue;
    EXPECT_TRUE(std::filesystem::exists("/proc/self/task/" + name.substr(8)))
        << "thread " << e.path().filename().string() << " is " << name;
  }
}

TEST_F(PosixAioTest, DepthAboveTheLimitIsRefusedBeforeTheRun) {
  job_.iodepth = 70000;
  Status st = FindEngine("posixaio")->check_job(job_, {});
  EXPECT_EQ(st.code(), Status::Code::kResourceLimit);
  EXPECT_NE(st.message().find("posixaio: iodepth=70000"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace iobench
