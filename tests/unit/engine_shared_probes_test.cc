// The pre-run checks pvsync2 and io_uring share (engines/async_common.h):
// the same job is refused, or accepted, the same way by both engines, before
// any I/O, with a message that names the engine, the option, the target and
// the reason. Flags the kernel would not honour are never silently ignored.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "engine_test_driver.h"
#include "engines/async_common.h"
#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing_engine::LoopDevice;

// The engines that take RWF_* flags per I/O.
const char* const kFlagEngines[] = {"pvsync2", "io_uring"};

JobSpec FlagJob(const std::string& engine) {
  JobSpec j;
  j.name = "t";
  j.ioengine = engine;
  j.iodepth = 1;
  return j;
}

// check_job of `engine` for `job` on one target; an engine this machine
// cannot run (io_uring disabled by sysctl) is skipped by the caller.
Status Check(const JobSpec& job, const std::string& path) {
  const EngineInfo* info = FindEngine(job.ioengine);
  EXPECT_NE(info, nullptr) << job.ioengine;
  if (info == nullptr || info->check_job == nullptr) return Status::Internal("no check_job");
  std::vector<EngineFile> files(1);
  files[0].path = path;
  return info->check_job(job, files);
}

bool Runnable(const std::string& engine) {
  const EngineInfo* info = FindEngine(engine);
  return info != nullptr && info->probe().ok();
}

// What the kernel answers to a one-byte preadv2 with `flags` on `path`:
// 0 when it accepts it, else the errno.
int KernelAnswer(const std::string& path, int flags) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  char byte = 0;
  iovec iov{&byte, 1};
  const int err = preadv2(fd, &iov, 1, 0, flags) < 0 ? errno : 0;
  close(fd);
  return err;
}

// A block device's node lives on devtmpfs: the refusal must name the device,
// not "tmpfs", and not advise another filesystem for a device.
TEST(EngineSharedProbesTest, UncachedOnABlockDeviceNamesTheDevice) {
  TempDir dir("/var/tmp");
  LoopDevice loop(dir.path() + "/backing", 1 << 20);
  if (!loop.ok()) GTEST_SKIP() << "loop device: " << loop.why();
  const int answer = KernelAnswer(loop.dev(), kRwfDontcache);
  if (answer != EOPNOTSUPP && answer != EINVAL)
    GTEST_SKIP() << "kernel " << KernelRelease() << " answers " << answer << " to RWF_DONTCACHE on "
                 << loop.dev();
  for (const char* engine : kFlagEngines) {
    SCOPED_TRACE(engine);
    if (!Runnable(engine)) continue;
    JobSpec j = FlagJob(engine);
    j.uncached = true;
    Status st = Check(j, loop.dev());
    EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.message();
    EXPECT_NE(st.message().find(std::string(engine) +
                                ": uncached=1 (RWF_DONTCACHE) is not supported for " + loop.dev() +
                                ": the block device does not support RWF_DONTCACHE with kernel " +
                                KernelRelease()),
              std::string::npos)
        << st.message();
    EXPECT_EQ(st.message().find("tmpfs"), std::string::npos) << st.message();
    EXPECT_EQ(st.message().find("put the file on"), std::string::npos) << st.message();
  }
}

// direct=1 skips the probe: O_DIRECT I/O is issued without RWF_DONTCACHE
// (it would do nothing there), so a filesystem that refuses the flag for
// buffered I/O (tmpfs) has nothing to refuse, and fio 3.33 runs such a job.
// (The run notes that uncached=1 does nothing for O_DIRECT I/O.)
TEST(EngineSharedProbesTest, UncachedWithDirectIsNotProbed) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/f";
  if (int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0600); fd >= 0) close(fd);
  const int answer = KernelAnswer(path, kRwfDontcache);
  if (answer != EOPNOTSUPP && answer != EINVAL)
    GTEST_SKIP() << "kernel " << KernelRelease() << " accepts RWF_DONTCACHE on tmpfs";
  for (const char* engine : kFlagEngines) {
    SCOPED_TRACE(engine);
    if (!Runnable(engine)) continue;
    JobSpec j = FlagJob(engine);
    j.uncached = true;
    j.direct = true;
    Status st = Check(j, path);
    EXPECT_TRUE(st.ok()) << st.message();
  }
}

// tmpfs cannot honour RWF_NOWAIT (EOPNOTSUPP): every I/O would fail, so every
// engine with the flag refuses the job before the run (pvsync2 used to start
// it and fail at the first I/O).
TEST(EngineSharedProbesTest, NowaitOnTmpfsIsRefusedByEveryEngine) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/f";
  if (int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0600); fd >= 0) close(fd);
  if (KernelAnswer(path, kRwfNowait) != EOPNOTSUPP)
    GTEST_SKIP() << "kernel " << KernelRelease() << " accepts RWF_NOWAIT on tmpfs";
  for (const char* engine : {"pvsync2", "io_uring", "libaio"}) {
    SCOPED_TRACE(engine);
    if (!Runnable(engine)) continue;
    JobSpec j = FlagJob(engine);
    j.nowait = true;
    Status st = Check(j, path);
    EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.message();
    EXPECT_NE(
        st.message().find(std::string(engine) + ": nowait=1 (RWF_NOWAIT) is not supported for " +
                          path + " on tmpfs with kernel " + KernelRelease()),
        std::string::npos)
        << st.message();
    EXPECT_NE(st.message().find("every I/O would fail"), std::string::npos) << st.message();
  }
}

// A target whose directories the run will create is probed in the nearest
// existing parent: it was skipped, and the run made the directories and the
// file, then failed at its first I/O. Nothing is left behind.
TEST(EngineSharedProbesTest, FlagsAreProbedWhereMissingDirectoriesWillBe) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string probe = dir.path() + "/p";
  if (int fd = open(probe.c_str(), O_CREAT | O_WRONLY, 0600); fd >= 0) close(fd);
  const bool nowait_refused = KernelAnswer(probe, kRwfNowait) == EOPNOTSUPP;
  const int dontcache = KernelAnswer(probe, kRwfDontcache);
  const bool uncached_refused = dontcache == EOPNOTSUPP || dontcache == EINVAL;
  unlink(probe.c_str());
  if (!nowait_refused && !uncached_refused)
    GTEST_SKIP() << "kernel " << KernelRelease()
                 << " accepts RWF_NOWAIT and RWF_DONTCACHE on tmpfs";
  for (const std::string& path : {dir.path() + "/a/f", dir.path() + "/a/b/c/f"}) {
    for (const char* engine : kFlagEngines) {
      SCOPED_TRACE(std::string(engine) + " " + path);
      if (!Runnable(engine)) continue;
      for (int flag = 0; flag < 2; ++flag) {
        JobSpec j = FlagJob(engine);
        (flag == 0 ? j.nowait : j.uncached) = true;
        if (!(flag == 0 ? nowait_refused : uncached_refused)) continue;
        Status st = Check(j, path);
        EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.message();
        EXPECT_NE(st.message().find(std::string(flag == 0 ? "nowait=1" : "uncached=1") + " (RWF_" +
                                    (flag == 0 ? "NOWAIT" : "DONTCACHE") +
                                    ") is not supported for " + path + " on tmpfs"),
                  std::string::npos)
            << st.message();
      }
    }
  }
  struct stat st;
  EXPECT_NE(stat((dir.path() + "/a").c_str(), &st), 0) << "the probe made a directory";
}

// hipri=1 on a block device without poll queues (a loop device): refused by
// both engines before the run, naming the device.
TEST(EngineSharedProbesTest, HipriWithoutPollQueuesIsRefusedByBothEngines) {
  TempDir dir("/var/tmp");
  LoopDevice loop(dir.path() + "/backing", 1 << 20);
  if (!loop.ok()) GTEST_SKIP() << "loop device: " << loop.why();
  const std::string name = loop.dev().substr(loop.dev().rfind('/') + 1);
  for (const char* engine : kFlagEngines) {
    SCOPED_TRACE(engine);
    if (!Runnable(engine)) continue;
    JobSpec j = FlagJob(engine);
    j.hipri = true;
    j.direct = true;
    Status st = Check(j, loop.dev());
    EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.message();
    EXPECT_EQ(st.message(), std::string(engine) +
                                ": hipri needs a block device with poll queues (nvme "
                                "poll_queues=N); " +
                                loop.dev() + " (" + name + ") has none");
    j.direct = false;
    st = Check(j, loop.dev());
    EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.message();
  }
}

}  // namespace
}  // namespace iobench
