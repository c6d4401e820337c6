#include "stats/disk_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "sys/target.h"
#include "sys_test_util.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using iobench::testing::LoopExt4;
using iobench::testing::TempDir;
using iobench::testing::WriteFile;

TEST(DiskUtilTest, UnknownDisksAreDropped) {
  DiskUtilTracker t({{"iobench-no-such-disk"}});
  t.Start();
  EXPECT_TRUE(t.Stop().empty());
}

TEST(DiskUtilTest, TmpfsTargetsHaveNoDisks) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE(DisksForTargets({dir.path() + "/f"}).empty());
}

TEST(DiskUtilTest, LoopDeviceCountsWritesAndReads) {
  LoopExt4 loop;
  if (!loop.ready()) GTEST_SKIP() << "loop device: " << loop.skip_reason();
  TempDir shm("/dev/shm");
  ASSERT_TRUE(shm.ok());
  const std::string file = loop.mount_point() + "/f";
  ASSERT_TRUE(WriteFile(file, 4096));

  // The disks: the loop device, then whatever holds its backing image;
  // tmpfs adds nothing and duplicates are dropped.
  // fio 3.33 lists the loop device alone: a loop device has no slaves.
  auto info = sys::ResolveTarget(file);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->fio_disks, std::vector<std::string>{loop.name()});
  const std::vector<TrackedDisk> disks = DisksForTargets({file, shm.path() + "/x", file});
  ASSERT_EQ(disks.size(), info->disks.size());
  for (size_t i = 0; i < disks.size(); ++i) {
    EXPECT_EQ(disks[i].name, info->disks[i]);
    EXPECT_EQ(disks[i].fio_lists, i == 0) << disks[i].name;
  }
  ASSERT_FALSE(disks.empty());
  EXPECT_EQ(disks[0].name, loop.name());
  // The loop device itself as the target: the same.
  auto dev = sys::ResolveTarget(loop.device());
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(dev->fio_disks, std::vector<std::string>{loop.name()});

  ASSERT_TRUE(loop.Unmount());
  DiskUtilTracker t({{loop.name()}});
  t.Start();
  // 256 direct 4 KiB writes, then 64 direct reads, straight to the device.
  const int fd = open(loop.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0) << strerror(errno);
  void* raw = nullptr;
  ASSERT_EQ(posix_memalign(&raw, 4096, 4096), 0);
  std::unique_ptr<void, decltype(&free)> buf(raw, &free);
  memset(buf.get(), 0x5a, 4096);
  for (int i = 0; i < 256; ++i)
    ASSERT_EQ(pwrite(fd, buf.get(), 4096, off_t(i) * 8192), 4096) << strerror(errno);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(pread(fd, buf.get(), 4096, off_t(i) * 8192), 4096) << strerror(errno);
  close(fd);
  const std::vector<DiskUtil> u = t.Stop();
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].name, loop.name());
  // Non-adjacent offsets: nothing to merge, so each I/O is counted once.
  EXPECT_EQ(u[0].ios[1] + u[0].merges[1], 256u);
  EXPECT_EQ(u[0].ios[0] + u[0].merges[0], 64u);
  EXPECT_EQ(u[0].sectors[1], 256u * 8);
  EXPECT_EQ(u[0].sectors[0], 64u * 8);
  EXPECT_GE(u[0].util, 0.0);
  EXPECT_LE(u[0].util, 100.0);
}

}  // namespace
}  // namespace iobench
