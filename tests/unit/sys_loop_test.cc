// Probes against a real loop device with ext4 mounted from it (root only).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/context.h"
#include "sys/procfs.h"
#include "sys/safety.h"
#include "sys/target.h"
#include "sys_test_util.h"

namespace iobench::sys {
namespace {

using iobench::testing::LoopExt4;
using iobench::testing::RunCmd;
using iobench::testing::WriteFile;

std::string DiskUnder(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  int rc = 0;
  std::string link = RunCmd("readlink -f /sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" +
                                std::to_string(minor(st.st_dev)),
                            &rc);
  if (rc != 0 || link.empty()) return "";
  if (access((link + "/partition").c_str(), F_OK) == 0) link = link.substr(0, link.rfind('/'));
  return link.substr(link.rfind('/') + 1);
}

class SysLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!loop_.ready()) GTEST_SKIP() << "loop device: " << loop_.skip_reason();
  }
  LoopExt4 loop_;
};

TEST_F(SysLoopTest, FileOnLoopMountResolvesToLoopAndBackingDisk) {
  const std::string file = loop_.mount_point() + "/data";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  auto info = ResolveTarget(file);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->ctx.fs_type, "ext4");
  ASSERT_GE(info->disks.size(), 1u);
  EXPECT_EQ(info->disks[0], loop_.name());
  ASSERT_GE(info->chain.size(), 1u);
  EXPECT_EQ(info->chain[0], loop_.name() + " (loop, backing file " + loop_.image() + " on ext4)");
  const std::string backing_disk = DiskUnder(loop_.image());
  if (!backing_disk.empty()) {
    EXPECT_EQ(info->disks, (std::vector<std::string>{loop_.name(), backing_disk}));
    EXPECT_EQ(info->bottom_disks, std::vector<std::string>{backing_disk});
    EXPECT_EQ(info->ctx.device, backing_disk);
  }
  // The block device itself: no filesystem type, same stack.
  auto dev = ResolveTarget(loop_.device());
  ASSERT_TRUE(dev.ok());
  EXPECT_TRUE(dev->is_block_device);
  EXPECT_EQ(dev->ctx.fs_type, "");
  EXPECT_EQ(dev->size_bytes, 64u << 20);
  EXPECT_EQ(dev->disks, info->disks);
  EXPECT_TRUE(IsBlockDevice(loop_.device()));
}

TEST_F(SysLoopTest, MountedDeviceIsRefusedUntilUnmounted) {
  Status st = CheckWriteSafety(loop_.device(), false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message(), "refusing to write to " + loop_.device() + " (" + loop_.name() +
                              "): mounted at " + loop_.mount_point() +
                              " (ext4); set allow_mounted_write=1 to write anyway (this can "
                              "destroy the data on it)");
  EXPECT_TRUE(CheckWriteSafety(loop_.device(), true).ok());
  ASSERT_TRUE(loop_.Unmount());
  st = CheckWriteSafety(loop_.device(), false);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST_F(SysLoopTest, JobsThatWriteAreCheckedAndReadersAreNot) {
  JobSpec reader;
  reader.name = "r";
  reader.filenames = {loop_.device()};
  reader.rw = RwMode::kRandRead;
  JobSpec writer = reader;
  writer.name = "w";
  writer.rw = RwMode::kRandWrite;
  JobSpec trimmer = reader;
  trimmer.name = "t";
  trimmer.rw = RwMode::kTrim;
  EXPECT_TRUE(CheckJobsWriteSafety({reader}).ok());
  Status st = CheckJobsWriteSafety({reader, writer});
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message().rfind("job 'w': refusing to write to " + loop_.device(), 0), 0u)
      << st.message();
  EXPECT_EQ(CheckJobsWriteSafety({trimmer}).code(), Status::Code::kRefused);
  writer.allow_mounted_write = true;
  EXPECT_TRUE(CheckJobsWriteSafety({reader, writer}).ok());
  // A file on the mounted filesystem is not a device: laid out, not refused.
  JobSpec file_writer = writer;
  file_writer.allow_mounted_write = false;
  file_writer.filenames = {loop_.mount_point() + "/f"};
  EXPECT_TRUE(CheckJobsWriteSafety({file_writer}).ok());
  // The image the mounted loop device reads is written under its filesystem.
  file_writer.filenames = {loop_.image()};
  st = CheckJobsWriteSafety({file_writer});
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find("refusing to write to " + loop_.image() +
                              " (rw=randwrite at <cmdline>): backs " + loop_.device() +
                              ", mounted at " + loop_.mount_point()),
            std::string::npos)
      << st.message();
}

TEST_F(SysLoopTest, ExclusiveOpenerIsRefused) {
  ASSERT_TRUE(loop_.Unmount());
  const int fd = open(loop_.device().c_str(), O_RDONLY | O_EXCL);
  ASSERT_GE(fd, 0) << strerror(errno);
  Status st = CheckWriteSafety(loop_.device(), false);
  close(fd);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find("is in use: opening it with O_EXCL failed"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("allow_mounted_write=1"), std::string::npos);
  EXPECT_TRUE(CheckWriteSafety(loop_.device(), false).ok());
}

TEST_F(SysLoopTest, HolderIsNamed) {
  int rc = 0;
  RunCmd("which dmsetup", &rc);
  if (rc != 0) GTEST_SKIP() << "dmsetup not installed";
  ASSERT_TRUE(loop_.Unmount());
  const std::string dm = "iobench-sys-test-" + std::to_string(getpid());
  const std::string out =
      RunCmd("dmsetup create " + dm + " --table '0 131072 linear " + loop_.device() + " 0'", &rc);
  if (rc != 0) GTEST_SKIP() << "dmsetup create failed (no device-mapper?): " << out;
  struct Remove {
    std::string name;
    ~Remove() {
      int r;
      RunCmd("dmsetup remove " + name, &r);
    }
  } remove{dm};
  Status st = CheckWriteSafety(loop_.device(), false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find("is held by dm-"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("(device-mapper " + dm + ")"), std::string::npos) << st.message();
  // A file on the dm device resolves through dm to the loop device.
  auto info = ResolveTarget("/dev/mapper/" + dm);
  ASSERT_TRUE(info.ok());
  ASSERT_GE(info->disks.size(), 2u);
  EXPECT_EQ(info->disks[0].rfind("dm-", 0), 0u);
  EXPECT_EQ(info->disks[1], loop_.name());
}

TEST_F(SysLoopTest, ContextOfALoopMountedFile) {
  const std::string file = loop_.mount_point() + "/data";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  JobSpec job;
  job.name = "t";
  job.filenames = {file};
  job.rw = RwMode::kRandRead;
  const RunContext ctx = CollectContext({job}, {file});
  ASSERT_EQ(ctx.targets.size(), 1u);
  EXPECT_EQ(ctx.targets[0].fs_type, "ext4");
  // Just written through the page cache: all of it is cached.
  EXPECT_DOUBLE_EQ(ctx.targets[0].page_cache_percent, 100.0);
}

TEST_F(SysLoopTest, ContextReadaheadIsTheLoopDevicesNotTheBackingDisks) {
  // `blockdev --setra` on the loop device is what the page cache of the
  // filesystem on it uses; the header reported the backing disk's value.
  const std::string file = loop_.mount_point() + "/data";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  const std::string backing_disk = DiskUnder(loop_.image());
  if (backing_disk.empty()) GTEST_SKIP() << "the loop image is not on a block device";
  int rc = 0;
  const std::string out = RunCmd("blockdev --setra 24 " + loop_.device() + " 2>&1", &rc);
  ASSERT_EQ(rc, 0) << out;  // 24 sectors = 12 KiB
  JobSpec job;
  job.name = "t";
  job.filenames = {file};
  job.rw = RwMode::kRandRead;
  const RunContext ctx = CollectContext({job}, {file});
  ASSERT_EQ(ctx.targets.size(), 1u);
  EXPECT_EQ(ctx.targets[0].read_ahead_kb, 12);
  EXPECT_EQ(ctx.targets[0].device, loop_.name() + " on " + backing_disk);
  // The raw loop device too.
  const RunContext raw = CollectContext({job}, {loop_.device()});
  ASSERT_EQ(raw.targets.size(), 1u);
  EXPECT_EQ(raw.targets[0].read_ahead_kb, 12);
  EXPECT_EQ(raw.targets[0].device, loop_.name() + " on " + backing_disk);
}

}  // namespace
}  // namespace iobench::sys

namespace iobench::sys {
namespace {

TEST(SysLoopPartitionTest, MountedPartitionRefusesTheWholeDisk) {
  LoopExt4 loop(/*partitioned=*/true);
  if (!loop.ready()) GTEST_SKIP() << "partitioned loop device: " << loop.skip_reason();
  const std::string part = loop.name() + "p1";
  Status st = CheckWriteSafety(loop.device(), false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message(), "refusing to write to " + loop.device() + " (" + loop.name() +
                              "): partition " + part + " mounted at " + loop.mount_point() +
                              " (ext4); set allow_mounted_write=1 to write anyway (this can "
                              "destroy the data on it)");
  // The partition itself is refused too, and a file on it resolves through
  // the partition to the loop disk.
  st = CheckWriteSafety(loop.fs_device(), false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find("): mounted at " + loop.mount_point()), std::string::npos)
      << st.message();
  const std::string file = loop.mount_point() + "/f";
  ASSERT_TRUE(WriteFile(file, 4096));
  auto info = ResolveTarget(file);
  ASSERT_TRUE(info.ok());
  ASSERT_GE(info->chain.size(), 2u);
  EXPECT_EQ(info->chain[0], part + " (partition of " + loop.name() + ")");
  EXPECT_EQ(info->disks[0], loop.name());
  ASSERT_TRUE(loop.Unmount());
  EXPECT_TRUE(CheckWriteSafety(loop.device(), false).ok());
}

// A loop device over a file on tmpfs holds its data in memory: the header
// says so ("loop0 on tmpfs") and a disk test on it, raw or through the
// filesystem on it, gets the disk-test-on-memory warning.
TEST(SysLoopOnTmpfsTest, ContextSaysTheDataIsInMemory) {
  LoopExt4 loop(false, "/dev/shm");
  if (!loop.ready()) GTEST_SKIP() << "loop device on /dev/shm: " << loop.skip_reason();
  const std::string file = loop.mount_point() + "/data";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  for (const std::string& target : {loop.device(), file}) {
    JobSpec job;
    job.name = "t";
    job.filenames = {target};
    job.rw = RwMode::kRandRead;
    job.direct = true;
    const RunContext ctx = CollectContext({job}, {target});
    ASSERT_EQ(ctx.targets.size(), 1u);
    EXPECT_EQ(ctx.targets[0].device, loop.name() + " on tmpfs") << target;
    EXPECT_EQ(ctx.targets[0].backing_fs, "tmpfs") << target;
    ASSERT_EQ(ctx.warnings.size(), 1u) << target;
    EXPECT_EQ(ctx.warnings[0], "job 't': " + target + " is on " + loop.name() +
                                   " with its backing file on tmpfs, so no disk is involved, but "
                                   "the job reads like a disk test (direct=1): the numbers measure "
                                   "memory copies, not a device");
  }
}

// An overlay mounted over an upper directory in `base`, unmounted (and its
// directories removed) at the end. The upper directory's name has a blank,
// which mountinfo writes as \040.
class Overlay {
 public:
  explicit Overlay(const std::string& base) : dir_(base) {
    if (getuid() != 0) {
      why_ = "mounting an overlay needs root";
      return;
    }
    if (!dir_.ok()) {
      why_ = "cannot create a temp dir in " + base;
      return;
    }
    for (const char* d : {"lower", "up per", "work", "mnt"}) mkdir((dir_ / d).c_str(), 0755);
    int st = 0;
    const std::string out = RunCmd("mount -t overlay overlay -o 'lowerdir=" + dir_ / "lower" +
                                       ",upperdir=" + dir_ / "up per" +
                                       ",workdir=" + dir_ / "work" + "' '" + mnt() + "'",
                                   &st);
    if (st != 0) {
      why_ = "mount -t overlay: " + out;
      return;
    }
    mounted_ = true;
  }
  ~Overlay() {
    int st = 0;
    if (mounted_) RunCmd("umount '" + mnt() + "'", &st);
  }
  bool ready() const { return mounted_; }
  const std::string& skip_reason() const { return why_; }
  std::string mnt() const { return dir_ / "mnt"; }

 private:
  iobench::testing::TempDir dir_;
  bool mounted_ = false;
  std::string why_;
};

// The header named an overlay's file system only ("fs=overlay"): no device,
// no readahead, and no disk-test-on-memory warning when its upper directory
// (where the job's file is laid out) is on tmpfs.
TEST(SysOverlayTest, TheUpperDirectorysFileSystemIsWhatIsMeasured) {
  for (const char* base : {"/dev/shm", "/var/tmp"}) {
    Overlay ov(base);
    if (!ov.ready()) GTEST_SKIP() << ov.skip_reason();
    const std::string file = ov.mnt() + "/data";
    ASSERT_TRUE(WriteFile(file, 1 << 20));
    JobSpec job;
    job.name = "t";
    job.filenames = {file};
    job.rw = RwMode::kRandRead;
    job.direct = true;
    const RunContext ctx = CollectContext({job}, {file});
    ASSERT_EQ(ctx.targets.size(), 1u);
    const TargetContext& t = ctx.targets[0];
    EXPECT_EQ(t.fs_type, "overlay");
    if (std::string(base) == "/dev/shm") {
      EXPECT_EQ(t.backing_fs, "tmpfs");
      EXPECT_EQ(t.device, "");
      EXPECT_EQ(TargetDeviceLabel(t), "none (overlay on tmpfs: data in memory)");
      ASSERT_EQ(ctx.warnings.size(), 1u);
      EXPECT_EQ(ctx.warnings[0], "job 't': " + file +
                                     " is on overlay with its upper directory on tmpfs, so no "
                                     "disk is involved, but the job reads like a disk test "
                                     "(direct=1): the numbers measure memory copies, not a device");
    } else {
      const std::string disk = DiskUnder("/var/tmp");
      if (disk.empty()) GTEST_SKIP() << "/var/tmp is on no block device here";
      EXPECT_EQ(t.device, disk);
      EXPECT_GE(t.read_ahead_kb, 0);
      EXPECT_TRUE(ctx.warnings.empty()) << ctx.warnings[0];
    }
  }
}

TEST(SysMountOptionTest, EscapedCommasAndBlanksInValues) {
  MountEntry m;
  m.super_options = "rw,lowerdir=/a\\,b:/c,upperdir=/x\\040y,workdir=/w,xino=off";
  EXPECT_EQ(MountOption(m, "lowerdir"), "/a,b:/c");
  EXPECT_EQ(MountOption(m, "upperdir"), "/x y");
  EXPECT_EQ(MountOption(m, "workdir"), "/w");
  EXPECT_EQ(MountOption(m, "dir"), "");
  EXPECT_EQ(MountOption(m, "rw"), "");
}

TEST(SysLoopSwapTest, ActiveSwapIsRefused) {
  LoopExt4 loop;
  if (!loop.ready()) GTEST_SKIP() << "loop device: " << loop.skip_reason();
  ASSERT_TRUE(loop.Unmount());
  int rc = 0;
  std::string out = RunCmd("mkswap '" + loop.device() + "'", &rc);
  if (rc != 0) GTEST_SKIP() << "mkswap failed: " << out;
  out = RunCmd("swapon '" + loop.device() + "'", &rc);
  if (rc != 0) GTEST_SKIP() << "swapon not permitted here: " << out;
  struct SwapOff {
    std::string dev;
    ~SwapOff() {
      int r;
      RunCmd("swapoff '" + dev + "'", &r);
    }
  } off{loop.device()};
  Status st = CheckWriteSafety(loop.device(), false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find("is active swap (" + loop.device() + ")"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace iobench::sys

namespace iobench::sys {
namespace {

// A loop device registers no holder on what it reads: a device or file under
// a mounted loop device was written to. L1 over an image, L2 over L1, ext4 on
// L2, mounted: L1, the image and a hard link of it are refused, naming the
// chain; after umount they are not.
TEST(SysLoopStackTest, WhatBacksAMountedLoopDeviceIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for losetup/mount";
  iobench::testing::TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string image = dir / "image";
  const std::string mnt = dir / "mnt";
  int rc = 0;
  RunCmd("truncate -s 16M '" + image + "'", &rc);
  ASSERT_EQ(rc, 0);
  struct Undo {
    std::vector<std::string> cmds;  // run last first
    ~Undo() {
      int r;
      for (auto it = cmds.rbegin(); it != cmds.rend(); ++it) RunCmd(*it, &r);
    }
  } undo;
  const std::string l1 = RunCmd("losetup -f --show '" + image + "'", &rc);
  if (rc != 0 || l1.rfind("/dev/loop", 0) != 0) GTEST_SKIP() << "losetup -f failed: " << l1;
  undo.cmds.push_back("losetup -d '" + l1 + "'");
  const std::string l2 = RunCmd("losetup -f --show '" + l1 + "'", &rc);
  if (rc != 0 || l2.rfind("/dev/loop", 0) != 0)
    GTEST_SKIP() << "losetup -f over a loop device failed: " << l2;
  undo.cmds.push_back("losetup -d '" + l2 + "'");
  std::string out = RunCmd("mkfs.ext4 -q -F '" + l2 + "'", &rc);
  if (rc != 0) GTEST_SKIP() << "mkfs.ext4 failed: " << out;
  mkdir(mnt.c_str(), 0755);
  out = RunCmd("mount '" + l2 + "' '" + mnt + "'", &rc);
  if (rc != 0) GTEST_SKIP() << "mount failed: " << out;
  undo.cmds.push_back("umount '" + mnt + "' || umount -l '" + mnt + "'");
  const std::string link = dir / "link";
  ASSERT_EQ(::link(image.c_str(), link.c_str()), 0) << strerror(errno);

  const std::string tail =
      "; set allow_mounted_write=1 to write anyway (this can destroy the "
      "data on it)";
  const std::string mounted = "mounted at " + mnt + " (ext4)";
  Status st = CheckWriteSafety(l1, false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message(), "refusing to write to " + l1 + " (" + l1.substr(5) + "): backs " + l2 +
                              ", " + mounted + tail);
  st = CheckWriteSafety(image, false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message(), "refusing to write to " + image + ": backs " + l1 + ", which backs " +
                              l2 + ", " + mounted + tail);
  // Another name of the same file: matched by device and inode.
  st = CheckWriteSafety(link, false);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_NE(st.message().find(": backs " + l1 + ", which backs " + l2), std::string::npos)
      << st.message();
  EXPECT_TRUE(CheckWriteSafety(l1, true).ok());

  JobSpec writer = iobench::testing::Job("w", image, RwMode::kWrite);
  JobSpec reader = iobench::testing::Job("r", image, RwMode::kRead);
  EXPECT_TRUE(CheckJobsWriteSafety({reader}).ok());
  st = CheckJobsWriteSafety({reader, writer});
  EXPECT_EQ(st.message(), "job 'w': refusing to write to " + image +
                              " (rw=write at <cmdline>): backs " + l1 + ", which backs " + l2 +
                              ", " + mounted + tail);
  writer.filenames = {l1};
  EXPECT_EQ(CheckJobsWriteSafety({writer}).code(), Status::Code::kRefused);
  writer.allow_mounted_write = true;
  EXPECT_TRUE(CheckJobsWriteSafety({writer}).ok());
  // A file that backs nothing is laid out, not refused.
  ASSERT_TRUE(WriteFile(dir / "other", 4096));
  EXPECT_TRUE(CheckWriteSafety(dir / "other", false).ok());

  RunCmd(undo.cmds.back(), &rc);
  ASSERT_EQ(rc, 0);
  undo.cmds.pop_back();
  st = CheckWriteSafety(l1, false);
  EXPECT_TRUE(st.ok()) << st.ToString();
  st = CheckWriteSafety(image, false);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

}  // namespace
}  // namespace iobench::sys
