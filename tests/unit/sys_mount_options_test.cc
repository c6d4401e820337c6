// The mount options a target's context records (all of them, for JSON) and
// shows in the normal report (those that change what is measured), from
// real /proc/self/mountinfo lines.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "sys/mount_options.h"
#include "sys/procfs.h"
#include "temp_dir.h"

namespace iobench::sys {
namespace {

using Options = std::vector<std::string>;

// The mount options of one mountinfo line, as ResolveTarget records them.
std::string OptionsOfLine(const std::string& line) {
  testing::TempDir dir;
  EXPECT_TRUE(dir.ok());
  std::ofstream(dir / "mountinfo") << line << "\n";
  auto mounts = ReadMountInfo(dir / "mountinfo");
  EXPECT_TRUE(mounts.ok());
  if (!mounts.ok() || mounts->size() != 1) return "?";
  return AllMountOptions(mounts->front());
}

// What the normal report's target line shows of a mountinfo line.
Options Shown(const std::string& line, bool in_memory = false) {
  return MeasuredMountOptions(OptionsOfLine(line), in_memory);
}

TEST(SysMountOptionsTest, Ext4Defaults) {
  const std::string o =
      OptionsOfLine("27 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw,errors=remount-ro");
  EXPECT_EQ(o, "rw,relatime,errors=remount-ro");
  EXPECT_EQ(MeasuredMountOptions(o, false), Options{});
  EXPECT_EQ(Shown("45 27 7:0 / /mnt rw,relatime - ext4 /dev/loop0 rw"), Options{});
}

TEST(SysMountOptionsTest, Ext4SyncDataJournal) {
  // mount -o sync,data=journal: data=journal turns delayed allocation off.
  const std::string o = OptionsOfLine(
      "45 27 7:0 / /mnt rw,relatime - ext4 /dev/loop0 "
      "rw,sync,nodioread_nolock,nodelalloc,data=journal");
  EXPECT_EQ(o, "rw,relatime,sync,nodioread_nolock,nodelalloc,data=journal");
  EXPECT_EQ(MeasuredMountOptions(o, false), (Options{"sync", "nodelalloc", "data=journal"}));
  EXPECT_EQ(MeasuredMountOptions("rw,relatime,data=ordered", false), Options{});
  EXPECT_EQ(MeasuredMountOptions("rw,relatime,data=writeback", false), Options{"data=writeback"});
}

TEST(SysMountOptionsTest, Ext4StrictatimeNobarrierCommit) {
  // mount -o strictatime,nobarrier,commit=30,discard,lazytime,nodelalloc:
  // strictatime is the absence of relatime and noatime.
  const std::string o = OptionsOfLine(
      "45 27 7:0 / /mnt rw - ext4 /dev/loop0 "
      "rw,lazytime,discard,nodelalloc,nobarrier,commit=30");
  EXPECT_EQ(MeasuredMountOptions(o, false), (Options{"strictatime", "lazytime", "discard",
                                                     "nodelalloc", "nobarrier", "commit=30"}));
  EXPECT_EQ(MeasuredMountOptions("rw,noatime,barrier=0", false), (Options{"noatime", "barrier=0"}));
  EXPECT_EQ(MeasuredMountOptions("rw,relatime,barrier", false), Options{});
  // A read-only mount writes no atime: no strictatime, but ro.
  EXPECT_EQ(MeasuredMountOptions("ro,relatime,errors=remount-ro", false), Options{"ro"});
  EXPECT_EQ(Shown("45 27 7:0 / /mnt ro,relatime - ext4 /dev/loop0 rw"), Options{"ro"});
}

TEST(SysMountOptionsTest, XfsDefaultsAndLogSettings) {
  const std::string o = OptionsOfLine(
      "45 27 7:0 / /mnt rw,relatime - xfs /dev/loop0 rw,inode64,logbufs=8,logbsize=32k,noquota");
  EXPECT_EQ(o, "rw,relatime,inode64,logbufs=8,logbsize=32k,noquota");
  EXPECT_EQ(MeasuredMountOptions(o, false), Options{});
  EXPECT_EQ(Shown("45 27 7:0 / /mnt rw,relatime - xfs /dev/loop0 "
                  "rw,wsync,attr2,inode64,logbufs=4,logbsize=256k,noquota"),
            (Options{"wsync", "logbufs=4"}));
  // A striped xfs (mkfs.xfs -d su=64k,sw=4) gets logbsize= from its log
  // stripe unit unasked: a default mount, nothing shown.
  EXPECT_EQ(Shown("45 27 7:0 / /mnt rw,relatime - xfs /dev/loop0 "
                  "rw,inode64,logbufs=8,logbsize=64k,sunit=128,swidth=512,noquota"),
            Options{});
}

TEST(SysMountOptionsTest, BtrfsCompressAndItsDefaults) {
  const std::string defaults = OptionsOfLine(
      "46 27 0:40 / /mnt rw,relatime - btrfs /dev/loop0 "
      "rw,ssd,discard=async,space_cache=v2,subvolid=5,subvol=/");
  EXPECT_EQ(MeasuredMountOptions(defaults, false), Options{});
  const std::string o = OptionsOfLine(
      "46 27 0:40 / /mnt rw,relatime - btrfs /dev/loop0 "
      "rw,compress=zstd:3,discard=async,space_cache=v2,subvolid=5,subvol=/");
  EXPECT_EQ(o, "rw,relatime,compress=zstd:3,discard=async,space_cache=v2,subvolid=5,subvol=/");
  EXPECT_EQ(MeasuredMountOptions(o, false), Options{"compress=zstd:3"});
  EXPECT_EQ(MeasuredMountOptions("rw,noatime,compress-force=zlib:3,nodatacow,discard", false),
            (Options{"noatime", "compress-force=zlib:3", "nodatacow", "discard"}));
}

TEST(SysMountOptionsTest, Tmpfs) {
  // systemd mounts /dev/shm strictatime (no relatime in its flags): atime
  // in memory is never written out, so nothing is shown.
  const std::string shm =
      "25 24 0:23 / /dev/shm rw,nosuid,nodev - tmpfs tmpfs "
      "rw,size=24683784k,nr_inodes=1024,mode=1777,uid=0,gid=0,inode64";
  EXPECT_EQ(Shown(shm, true), Options{});
  // The same flags on a disk file system: every read dirties the inode.
  EXPECT_EQ(Shown(shm, false), Options{"strictatime"});
  EXPECT_EQ(Shown("45 27 0:40 / /mnt rw,relatime - tmpfs tmpfs rw,size=65536k,huge=always", true),
            Options{"huge=always"});
  EXPECT_EQ(MeasuredMountOptions("rw,relatime,size=65536k,huge=never", true), Options{});
}

// A block device target has no mount options, and no strictatime claim.
TEST(SysMountOptionsTest, NoOptionsNothingShown) {
  EXPECT_EQ(MeasuredMountOptions("", false), Options{});
}

// An overlay's directories may hold commas (escaped "\,"): kept escaped in
// the joined list, and each option is listed once.
TEST(SysMountOptionsTest, EscapesKeptAndDuplicatesDropped) {
  const std::string o = OptionsOfLine(
      "50 27 0:50 / /m rw,relatime - overlay overlay rw,lowerdir=/a\\,b,upperdir=/u,workdir=/w");
  EXPECT_EQ(o, "rw,relatime,lowerdir=/a\\,b,upperdir=/u,workdir=/w");
  MountEntry m;
  m.options = "ro,noatime";
  m.super_options = "ro,sync";
  EXPECT_EQ(AllMountOptions(m), "ro,noatime,sync");
}

}  // namespace
}  // namespace iobench::sys
