#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>

#include "sys/host.h"
#include "sys/procfs.h"
#include "sys/target.h"
#include "sys_test_util.h"
#include "temp_dir.h"

namespace iobench::sys {
namespace {

using iobench::testing::RunCmd;
using iobench::testing::TempDir;
using iobench::testing::WriteFile;

bool OnFs(const std::string& path, uint32_t magic) {
  struct statfs s;
  return statfs(path.c_str(), &s) == 0 && static_cast<uint32_t>(s.f_type) == magic;
}

// The disk under `path` the way an admin would find it: lsblk-style sysfs walk.
std::string DiskOf(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  int rc = 0;
  std::string link = RunCmd("readlink -f /sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" +
                                std::to_string(minor(st.st_dev)),
                            &rc);
  if (rc != 0) return "";
  if (access((link + "/partition").c_str(), F_OK) == 0) link = link.substr(0, link.rfind('/'));
  return link.substr(link.rfind('/') + 1);
}

TEST(SysFsTypeTest, MagicNames) {
  EXPECT_EQ(FsMagicName(0xEF53), "ext4");
  EXPECT_EQ(FsMagicName(0x58465342), "xfs");
  EXPECT_EQ(FsMagicName(0x9123683E), "btrfs");
  EXPECT_EQ(FsMagicName(0x01021994), "tmpfs");
  EXPECT_EQ(FsMagicName(0x858458f6), "ramfs");
  EXPECT_EQ(FsMagicName(0x6969), "nfs");
  EXPECT_EQ(FsMagicName(0x794c7630), "overlay");
  EXPECT_EQ(FsMagicName(0xF2F52010), "f2fs");
  EXPECT_EQ(FsMagicName(0x65735546), "fuse");
  EXPECT_EQ(FsMagicName(0x2fc12fc1), "zfs");
  EXPECT_EQ(FsMagicName(0xca451a4e), "bcachefs");
  EXPECT_EQ(FsMagicName(0xFF534D42), "cifs");
  EXPECT_EQ(FsMagicName(0x73717368), "squashfs");
  EXPECT_EQ(FsMagicName(0x2011BAB0), "exfat");
  EXPECT_EQ(FsMagicName(0x4d44), "vfat");
  EXPECT_EQ(FsMagicName(0x12345678), "");
}

TEST(SysFsTypeTest, TmpfsAndExt4AndNotYetCreatedPaths) {
  ASSERT_TRUE(OnFs("/dev/shm", TMPFS_MAGIC)) << "/dev/shm is not tmpfs on this machine";
  auto fs = FsTypeName("/dev/shm");
  ASSERT_TRUE(fs.ok()) << fs.status().ToString();
  EXPECT_EQ(*fs, "tmpfs");
  // A file that does not exist yet: its parent's filesystem.
  fs = FsTypeName("/dev/shm/does/not/exist/yet");
  ASSERT_TRUE(fs.ok());
  EXPECT_EQ(*fs, "tmpfs");

  if (!OnFs("/var/tmp", EXT4_SUPER_MAGIC)) GTEST_SKIP() << "/var/tmp is not ext4 here";
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  fs = FsTypeName(dir.path() + "/new-file");
  ASSERT_TRUE(fs.ok());
  EXPECT_EQ(*fs, "ext4");
}

TEST(SysTargetTest, TmpfsFileHasNoBlockDevice) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  auto info = ResolveTarget(file);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE(info->exists);
  EXPECT_TRUE(info->is_regular_file);
  EXPECT_FALSE(info->is_block_device);
  EXPECT_EQ(info->size_bytes, 1u << 20);
  EXPECT_EQ(info->ctx.path, file);
  EXPECT_EQ(info->ctx.fs_type, "tmpfs");
  EXPECT_EQ(info->ctx.device, "");
  EXPECT_TRUE(info->disks.empty());
  ASSERT_EQ(info->notes.size(), 1u);
  EXPECT_EQ(info->notes[0], "tmpfs: no block device, the data lives in memory (page cache)");
  EXPECT_EQ(TargetDeviceLabel(info->ctx), "none (tmpfs: data in memory)");
  EXPECT_EQ(info->ctx.rotational, -1);
  EXPECT_EQ(info->ctx.logical_block_size, 0u);
}

TEST(SysTargetTest, Ext4FileResolvesToTheDiskAndItsQueueSettings) {
  if (!OnFs("/var/tmp", EXT4_SUPER_MAGIC)) GTEST_SKIP() << "/var/tmp is not ext4 here";
  const std::string disk = DiskOf("/var/tmp");
  if (disk.empty()) GTEST_SKIP() << "/var/tmp has no block device in /sys/dev/block";
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 4096));
  // A target that does not exist yet (to be created) resolves the same.
  for (const std::string& p : {file, dir.path() + "/to-be-created"}) {
    const TargetContext ctx = DescribeTarget(p);
    EXPECT_EQ(ctx.path, p);
    EXPECT_EQ(ctx.fs_type, "ext4");
    EXPECT_EQ(ctx.device, disk);
    const std::string q = "/sys/block/" + disk + "/queue/";
    EXPECT_EQ(ctx.read_ahead_kb, *ReadIntFile(q + "read_ahead_kb"));
    EXPECT_EQ(ctx.nr_requests, *ReadIntFile(q + "nr_requests"));
    EXPECT_EQ(ctx.rotational, *ReadIntFile(q + "rotational"));
    EXPECT_EQ(ctx.logical_block_size, uint32_t(*ReadIntFile(q + "logical_block_size")));
    EXPECT_EQ(ctx.physical_block_size, uint32_t(*ReadIntFile(q + "physical_block_size")));
    EXPECT_EQ(ctx.write_cache, *ReadFirstLine(q + "write_cache"));
    const std::string sched = *ReadFirstLine(q + "scheduler");
    if (sched.find('[') != std::string::npos) {
      EXPECT_NE(sched.find("[" + ctx.scheduler + "]"), std::string::npos) << sched;
    }
    EXPECT_EQ(ctx.scheduler.find('['), std::string::npos);
  }
  auto info = ResolveTarget(file);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->disks.back(), disk);
  EXPECT_EQ(info->bottom_disks, std::vector<std::string>{disk});
}

TEST(SysTargetTest, NotYetCreatedPathUsesTheNearestParent) {
  // A file the job will create: described by the nearest existing parent.
  auto info = ResolveTarget("/dev/shm/iobench-no-such-dir/x/y");
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->exists);
  EXPECT_EQ(info->probed_path, "/dev/shm");
  EXPECT_EQ(info->ctx.fs_type, "tmpfs");
}

TEST(SysTargetTest, IsBlockDevice) {
  EXPECT_FALSE(IsBlockDevice("/dev/shm"));
  EXPECT_FALSE(IsBlockDevice("/dev/null"));
  EXPECT_FALSE(IsBlockDevice("/dev/iobench-no-such-device"));
  struct stat st;
  if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode)) {
    EXPECT_TRUE(IsBlockDevice("/dev/loop0"));
  }
}

// PageCacheResidency's percent, -1 on any error.
double PageCachePercent(const std::string& path, uint64_t offset, uint64_t len) {
  auto r = PageCacheResidency(path, offset, len);
  return r.ok() ? *r : -1.0;
}

TEST(SysPageCacheTest, TmpfsFilesAreAlwaysCachedAndEmptyRegionsAreZero) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  EXPECT_DOUBLE_EQ(PageCachePercent(file, 0, 0), 100.0);
  EXPECT_DOUBLE_EQ(PageCachePercent(file, 4096, 8192), 100.0);
  EXPECT_DOUBLE_EQ(PageCachePercent(file, 2 << 20, 0), 0.0);  // past the end
  const std::string empty = dir.path() + "/empty";
  ASSERT_TRUE(WriteFile(empty, 0));
  EXPECT_DOUBLE_EQ(PageCachePercent(empty, 0, 0), 0.0);
  EXPECT_EQ(PageCachePercent(dir.path() + "/missing", 0, 0), -1.0);
  auto r = PageCacheResidency(dir.path() + "/missing", 0, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "page cache residency: open " + dir.path() + "/missing: No such file or directory");
  r = PageCacheResidency(dir.path(), 0, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kUnsupported);
}

TEST(SysPageCacheTest, HugeSparseFileIsMappedInWindows) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/sparse";
  const uint64_t size = 3ull << 30;  // three 1 GiB windows, all holes but the last page
  const int fd = open(file.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0);
  char page[4096] = {1};
  ASSERT_EQ(pwrite(fd, page, sizeof(page), static_cast<off_t>(size - 4096)), 4096);
  close(fd);
  const double pages = static_cast<double>(size / 4096);
  EXPECT_NEAR(PageCachePercent(file, 0, 0), 100.0 / pages, 1e-9);
  EXPECT_DOUBLE_EQ(PageCachePercent(file, size - 4096, 4096), 100.0);
  EXPECT_DOUBLE_EQ(PageCachePercent(file, 0, 1 << 20), 0.0);
}

// A region above kPageCacheMaxExamined is sampled (mincore costs ~3 s per
// TiB even over holes: a whole 15 TiB file took 43 s), overlapping ranges
// count once, and a stop signal ends the measuring.
TEST(SysPageCacheTest, LargeRegionsAreSampledAndRangesMerged) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/sparse";
  const uint64_t size = 1ull << 40;
  const int fd = open(file.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0);
  char page[4096] = {1};
  ASSERT_EQ(pwrite(fd, page, sizeof(page), 0), 4096);  // in the first slice
  close(fd);
  auto r = PageCacheResidencyOf(file, {{0, 0}});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->region_bytes, size);
  EXPECT_EQ(r->examined_bytes, kPageCacheMaxExamined);
  EXPECT_DOUBLE_EQ(r->percent, 100.0 * 4096 / static_cast<double>(kPageCacheMaxExamined));
  r = PageCacheResidencyOf(file, {{0, 8192}, {4096, 8192}, {size - 4096, 8192}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->region_bytes, 16384u);  // [0, 12 KiB) and the last page
  EXPECT_EQ(r->examined_bytes, 16384u);
  EXPECT_DOUBLE_EQ(r->percent, 25.0);
  std::atomic<int> stop{2};
  r = PageCacheResidencyOf(file, {{0, 0}}, &stop);
  EXPECT_EQ(r.status().code(), Status::Code::kInterrupted);
}

TEST(SysPageCacheTest, Ext4ReadIsCachedAndDontneedDropsIt) {
  if (!OnFs("/var/tmp", EXT4_SUPER_MAGIC)) GTEST_SKIP() << "/var/tmp is not ext4 here";
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  constexpr size_t kSize = 8 << 20;
  ASSERT_TRUE(WriteFile(file, kSize));  // written and fsynced: pages clean
  const int fd = open(file.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  EXPECT_LE(PageCachePercent(file, 0, 0), 1.0);
  // Read only the first 2 MiB with readahead off: that is cached. Clean ext4
  // pages can be reclaimed at any time when other tests load the machine, so
  // "cached" means at least 99%, and "not cached" at most 1%.
  ASSERT_EQ(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
  std::vector<char> buf(1 << 20);
  ASSERT_EQ(pread(fd, buf.data(), buf.size(), 0), ssize_t(buf.size()));
  ASSERT_EQ(pread(fd, buf.data(), buf.size(), 1 << 20), ssize_t(buf.size()));
  EXPECT_GE(PageCachePercent(file, 0, 2 << 20), 99.0);
  EXPECT_LE(PageCachePercent(file, 4 << 20, 4 << 20), 1.0);
  // Whole file read.
  for (size_t off = 0; off < kSize; off += buf.size())
    ASSERT_EQ(pread(fd, buf.data(), buf.size(), off), ssize_t(buf.size()));
  EXPECT_GE(PageCachePercent(file, 0, 0), 99.0);
  ASSERT_EQ(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  EXPECT_LE(PageCachePercent(file, 0, 0), 1.0);
  close(fd);
}

// RWF_DONTCACHE support depends on kernel and filesystem; whichever way it
// goes, the answer must be OK or Unsupported with the file, fs and kernel.
void ExpectDontcacheAnswer(const std::string& file, const std::string& fs) {
  const int fd = open(file.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  Status st = ProbeDontcache(fd, file);
  close(fd);
  if (st.ok()) return;
  ASSERT_EQ(st.code(), Status::Code::kUnsupported) << st.ToString();
  const std::string kernel = *KernelRelease();
  EXPECT_NE(st.message().find(file), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(" on " + fs + " "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("kernel " + kernel), std::string::npos) << st.message();
  EXPECT_TRUE(st.errno_value() == EOPNOTSUPP || st.errno_value() == EINVAL);
}

TEST(SysDontcacheTest, ProbeOnTmpfsAndExt4) {
  TempDir shm("/dev/shm");
  ASSERT_TRUE(shm.ok());
  ASSERT_TRUE(WriteFile(shm.path() + "/f", 8192));
  ExpectDontcacheAnswer(shm.path() + "/f", "tmpfs");
  if (!OnFs("/var/tmp", EXT4_SUPER_MAGIC)) GTEST_SKIP() << "/var/tmp is not ext4 here";
  TempDir ext("/var/tmp");
  ASSERT_TRUE(ext.ok());
  ASSERT_TRUE(WriteFile(ext.path() + "/f", 8192));
  ExpectDontcacheAnswer(ext.path() + "/f", "ext4");
}

TEST(SysDontcacheTest, WriteOnlyFdAndMissingFile) {
  TempDir shm("/dev/shm");
  ASSERT_TRUE(shm.ok());
  const std::string file = shm.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 8192));
  // A write-only fd cannot be read: the probe opens the path itself, so the
  // answer equals the one for a readable fd.
  const int wfd = open(file.c_str(), O_WRONLY);
  ASSERT_GE(wfd, 0);
  const Status via_wfd = ProbeDontcache(wfd, file);
  close(wfd);
  const Status via_path = ProbeDontcache(-1, file);
  EXPECT_EQ(via_wfd.code(), via_path.code());
  EXPECT_EQ(via_wfd.message(), via_path.message());
  const Status missing = ProbeDontcache(-1, shm.path() + "/missing");
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
  EXPECT_EQ(missing.message(),
            "RWF_DONTCACHE probe: open " + shm.path() + "/missing: No such file or directory");
}

}  // namespace
}  // namespace iobench::sys
