#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "iobench/clock.h"
#include "sys/context.h"
#include "sys/job_paths.h"
#include "sys_test_util.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench::sys {
namespace {

using iobench::testing::Job;
using iobench::testing::kGiB;
using iobench::testing::TempDir;
using iobench::testing::WriteFile;

TargetContext Target(const std::string& path, const std::string& fs, const std::string& dev) {
  TargetContext t;
  t.path = path;
  t.fs_type = fs;
  t.device = dev;
  return t;
}

TrapEnv Env(uint64_t mem = 16 * kGiB) {
  TrapEnv e;
  e.mem_total_bytes = mem;
  return e;
}

size_t CountContaining(const std::vector<std::string>& w, const std::string& s) {
  size_t n = 0;
  for (const auto& x : w) n += x.find(s) != std::string::npos;
  return n;
}

const TargetContext kShm = Target("/dev/shm/f", "tmpfs", "");
const TargetContext kExt4 = Target("/srv/f", "ext4", "nvme0n1");

TEST(SysTrapsTest, JobFilePathsFollowFioNaming) {
  JobSpec j;
  j.name = "seq";
  j.directory = "/data:/other";
  j.numjobs = 2;
  j.nrfiles = 2;
  // directory=a:b: one per clone, round-robin, as fio 3.33 lays them out
  // (and as the run opens them).
  EXPECT_EQ(JobFilePaths(j), (std::vector<std::string>{"/data/seq.0.0", "/data/seq.0.1",
                                                       "/other/seq.1.0", "/other/seq.1.1"}));
  j.filenames = {"a", "/abs/b", "a"};
  EXPECT_EQ(JobFilePaths(j), (std::vector<std::string>{"/data/a", "/abs/b"}));
  EXPECT_EQ(JobFilesPerClone(j), 3u);
  j.filenames.clear();
  j.filename_format = "f$filenum";
  EXPECT_EQ(JobFilePaths(j),
            (std::vector<std::string>{"/data/f0", "/data/f1", "/other/f0", "/other/f1"}));
}

TEST(SysTrapsTest, DiskTestIntent) {
  JobSpec j = Job("t", "/dev/shm/f", RwMode::kRandRead);
  EXPECT_FALSE(LooksLikeDiskTest(j, JobFilePaths(j)));
  j.direct = true;
  EXPECT_TRUE(LooksLikeDiskTest(j, JobFilePaths(j)));
  EXPECT_FALSE(MeansDisk(j, JobFilePaths(j)));
  j.direct = false;
  j.size = kGiB;
  EXPECT_TRUE(MeansDisk(j, JobFilePaths(j)));
  j.size = kGiB - 1;
  EXPECT_FALSE(MeansDisk(j, JobFilePaths(j)));
  for (const char* p : {"/dev/nvme0n1", "/mnt/x/f", "/media/usb/f", "/dev/shm/nvme-test",
                        "/tmp/ssd/f", "/tmp/sdb1/f", "/tmp/disk.img"}) {
    JobSpec k = Job("t", p, RwMode::kRead);
    EXPECT_TRUE(MeansDisk(k, JobFilePaths(k))) << p;
  }
  for (const char* p : {"/dev/shm/f", "/tmp/sdfile", "/tmp/diskless-x/f"}) {
    JobSpec k = Job("t", p, RwMode::kRead);
    EXPECT_FALSE(MeansDisk(k, JobFilePaths(k))) << p;
  }
  JobSpec named = Job("nvme-randread", "/dev/shm/f", RwMode::kRead);
  EXPECT_TRUE(MeansDisk(named, JobFilePaths(named)));
}

// Job names are free text: a disk-like word in one (sdk, hdr-test, vdi)
// names a disk only when this machine has that block device.
TEST(SysTrapsTest, JobNameNamesADiskOnlyWhenItExists) {
  struct stat st;
  for (const char* name : {"sdk", "hdr-test", "vdi", "xvdq randread"}) {
    std::string word = name;
    word = word.substr(0, word.find_first_of("- "));
    if (stat(("/sys/class/block/" + word).c_str(), &st) == 0) continue;  // it is a disk here
    JobSpec k = Job(name, "/dev/shm/f", RwMode::kRead);
    EXPECT_FALSE(MeansDisk(k, JobFilePaths(k))) << name;
    k.description = std::string("run ") + name;
    EXPECT_FALSE(MeansDisk(k, JobFilePaths(k))) << name << " in the description";
  }
  // The path checks stay: a directory named like a disk is one.
  JobSpec in_path = Job("t", "/tmp/sdk/f", RwMode::kRead);
  EXPECT_TRUE(MeansDisk(in_path, JobFilePaths(in_path)));
  // A disk of this machine named in the job name still counts.
  std::string disk;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/block")) {
    const std::string n = e.path().filename().string();
    if (n.rfind("vd", 0) == 0 || n.rfind("sd", 0) == 0 || n.rfind("xvd", 0) == 0 ||
        n.rfind("hd", 0) == 0) {
      disk = n;
      break;
    }
  }
  if (disk.empty()) GTEST_SKIP() << "no sd/vd/xvd/hd block device here";
  JobSpec real = Job(disk + "-randread", "/dev/shm/f", RwMode::kRead);
  EXPECT_TRUE(MeansDisk(real, JobFilePaths(real))) << disk;
}

// A block device reached through a symlink (/tmp/x -> /dev/loop1) is a
// disk: only /dev/ paths were (QA: no buffered disk test warning).
TEST(SysTrapsTest, SymlinkToABlockDeviceMeansDisk) {
  std::string dev;
  for (const auto& e : std::filesystem::directory_iterator("/sys/block")) {
    struct stat st;
    const std::string d = "/dev/" + e.path().filename().string();
    if (stat(d.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      dev = d;
      break;
    }
  }
  if (dev.empty()) GTEST_SKIP() << "no block device node under /dev";
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string link = dir.path() + "/target";
  ASSERT_EQ(symlink(dev.c_str(), link.c_str()), 0) << strerror(errno);
  JobSpec k = Job("t", link, RwMode::kRead);
  EXPECT_TRUE(MeansDisk(k, JobFilePaths(k))) << link << " -> " << dev;
  JobSpec f = Job("t", dir.path() + "/plain", RwMode::kRead);
  EXPECT_FALSE(MeansDisk(f, JobFilePaths(f)));
}

TEST(SysTrapsTest, DiskTestOnTmpfs) {
  JobSpec j = Job("t", "/dev/shm/f", RwMode::kRandRead);
  j.direct = true;
  auto w = DetectTraps({j}, {kShm}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 't': /dev/shm/f is on tmpfs, so no disk is involved, but the job reads like a "
            "disk test (direct=1): the numbers measure memory copies, not a device");
  // Same job on ext4, or a small buffered job on tmpfs: no warning.
  j.filenames = {"/srv/f"};
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, Env()), "no disk is involved"), 0u);
  JobSpec small = Job("t", "/dev/shm/f", RwMode::kRandRead);
  EXPECT_TRUE(DetectTraps({small}, {kShm}, Env()).empty());
  // ramfs refuses O_DIRECT: the job fails at its open, which says why; no
  // warning about numbers it never makes. A buffered disk-like job there
  // (a large one) still gets it.
  j.filenames = {"/mnt/ram/f"};
  const TargetContext ram = Target("/mnt/ram/f", "ramfs", "");
  EXPECT_EQ(CountContaining(DetectTraps({j}, {ram}, Env()), "no disk is involved"), 0u);
  JobSpec ram_big = Job("t", "/mnt/ram/f", RwMode::kRandRead);
  ram_big.size = 64ull << 30;
  EXPECT_EQ(CountContaining(DetectTraps({ram_big}, {ram}, Env()), "is on ramfs, so no disk"), 1u);
  // A trim does not go through the page cache: direct=1 does not make a
  // trim-only job a disk test (it said "memory copies" of hole punches).
  for (RwMode m : {RwMode::kTrim, RwMode::kRandTrim}) {
    JobSpec trim = Job("t", "/dev/shm/f", m);
    trim.direct = true;
    EXPECT_EQ(CountContaining(DetectTraps({trim}, {kShm}, Env()), "no disk is involved"), 0u);
  }
  JobSpec trimwrite = Job("t", "/dev/shm/f", RwMode::kTrimWrite);
  trimwrite.direct = true;
  EXPECT_EQ(CountContaining(DetectTraps({trimwrite}, {kShm}, Env()), "no disk is involved"), 1u);
  // ramfs, via a directory target and a big size.
  JobSpec big = Job("t", "", RwMode::kRead);
  big.filenames.clear();
  big.directory = "/ram";
  big.size = 4 * kGiB;
  auto w2 = DetectTraps({big}, {Target("/ram", "ramfs", "")}, Env());
  ASSERT_EQ(w2.size(), 1u);
  EXPECT_NE(w2[0].find("/ram is on ramfs"), std::string::npos) << w2[0];
  EXPECT_NE(w2[0].find("(size=4 GiB)"), std::string::npos) << w2[0];
  // A target is the job's when it is one of its files or a directory above
  // one (looked up in a sorted list, not searched per target): "/ra" is
  // neither, "/" and "/ram/sub/" are.
  big.directory.clear();
  big.filenames = {"/ram/sub/z", "/ram/a", "/ram/sub/b"};
  for (const char* t : {"/ram/sub/", "/ram/sub", "/", "/ram/a"})
    EXPECT_EQ(DetectTraps({big}, {Target(t, "ramfs", "")}, Env()).size(), 1u) << t;
  for (const char* t : {"/ra", "/ram/su", "/ram/a/", "/ram/sub/zz"})
    EXPECT_TRUE(DetectTraps({big}, {Target(t, "ramfs", "")}, Env()).empty()) << t;
}

TEST(SysTrapsTest, BufferedRandomReadsWithInvalidate) {
  JobSpec j = Job("r", "/srv/f", RwMode::kRandRead);
  auto w = DetectTraps({j}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'r': note: buffered random reads of /srv/f with invalidate=1 and a random map: "
            "the cache is dropped at the start and each block is read once per pass, so this "
            "measures the device through the page cache, not page cache hits");
  for (auto change :
       {+[](JobSpec* s) { s->invalidate = false; }, +[](JobSpec* s) { s->norandommap = true; },
        +[](JobSpec* s) { s->direct = true; }, +[](JobSpec* s) { s->rw = RwMode::kRead; },
        +[](JobSpec* s) { s->rw = RwMode::kRandWrite; }}) {
    JobSpec k = j;
    change(&k);
    EXPECT_EQ(CountContaining(DetectTraps({k}, {kExt4}, Env()), "buffered random reads"), 0u);
  }
  // On tmpfs there is no device to measure.
  JobSpec s = Job("r", "/dev/shm/f", RwMode::kRandRead);
  EXPECT_TRUE(DetectTraps({s}, {kShm}, Env()).empty());
}

// invalidate=1 that could not drop the cache (BLKFLSBUF refused and the
// fadvise fallback failed): the report says so, never "the cache is dropped".
TEST(SysTrapsTest, CacheNotDroppedReplacesTheDroppedNote) {
  JobSpec j = Job("r", "/srv/f", RwMode::kRandRead);
  TrapEnv env = Env();
  env.cache_kept["/srv/f"] = "BLKFLSBUF: Permission denied (needs CAP_SYS_ADMIN)";
  auto w = DetectTraps({j}, {kExt4}, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'r': invalidate=1 did NOT drop the page cache of /srv/f (BLKFLSBUF: Permission "
            "denied (needs CAP_SYS_ADMIN)): the job's reads may be served from memory, not the "
            "device");
  EXPECT_EQ(CountContaining(w, "the cache is dropped"), 0u);
  // Sequential reads get the warning too; invalidate=0 asked for no drop.
  j.rw = RwMode::kRead;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, env), "did NOT drop"), 1u);
  j.invalidate = false;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, env), "did NOT drop"), 0u);
}

TEST(SysTrapsTest, IoUringPuntsOnFilesystemsWithoutNowait) {
  JobSpec j = Job("u", "/dev/shm/f", RwMode::kRead);
  j.ioengine = "io_uring";
  auto w = DetectTraps({j}, {kShm}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'u': io_uring buffered reads on tmpfs (/dev/shm/f): tmpfs does not support "
            "nonblocking buffered reads, so io_uring punts every such I/O to io-wq kernel "
            "workers; their CPU time is not the job's (see the helper CPU line)");
  // ext4 reads are served inline; ext4 writes are not; xfs writes are.
  j.filenames = {"/srv/f"};
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env()).empty());
  j.rw = RwMode::kWrite;
  w = DetectTraps({j}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("io_uring buffered writes on ext4 (/srv/f)"), std::string::npos);
  // nowait=1: the writes fail with EAGAIN instead of going to io-wq, so
  // the punt warning would be wrong.
  j.nowait = true;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, Env()), "io-wq"), 0u);
  j.nowait = false;
  EXPECT_TRUE(DetectTraps({j}, {Target("/srv/f", "xfs", "sda")}, Env()).empty());
  // An ext3 (or ext2) mount served by the ext4 code reads as ext4 does: the
  // warning said io_uring punted every read to io-wq, while none went there
  // (0 io-wq threads). An ext2 with its own driver still gets it.
  j.rw = RwMode::kRead;
  TargetContext ext3 = Target("/srv/f", "ext3", "sda");
  EXPECT_EQ(CountContaining(DetectTraps({j}, {ext3}, Env()), "reads on ext3"), 1u);
  ext3.fs_driver = "ext4";
  EXPECT_EQ(CountContaining(DetectTraps({j}, {ext3}, Env()), "io-wq"), 0u);
  j.rw = RwMode::kWrite;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {ext3}, Env()), "buffered writes on ext3"), 1u);
  // Block devices support nonblocking buffered reads.
  JobSpec b = Job("b", "/dev/nvme0n1", RwMode::kRead);
  b.ioengine = "io_uring";
  EXPECT_TRUE(DetectTraps({b}, {Target("/dev/nvme0n1", "", "nvme0n1")}, Env()).empty());
  // direct=1 on tmpfs: no nonblocking path there either (QA: io-wq sys
  // 49.7%, as buffered); on ext4, xfs or a block device none is punted.
  JobSpec d = Job("u", "/dev/shm/f", RwMode::kRead);
  d.ioengine = "io_uring";
  d.direct = true;
  w = DetectTraps({d}, {kShm}, Env());
  EXPECT_EQ(CountContaining(w,
                            "io_uring direct I/O on tmpfs (/dev/shm/f): tmpfs has no "
                            "nonblocking I/O path, so io_uring punts every I/O to io-wq"),
            1u);
  EXPECT_EQ(CountContaining(DetectTraps({d}, {kExt4}, Env()), "io-wq"), 0u);
  d.nowait = true;  // fails with EAGAIN (refused before the run on tmpfs)
  EXPECT_EQ(CountContaining(DetectTraps({d}, {kShm}, Env()), "punts"), 0u);
  d.nowait = false;
  d.direct = false;
  d.ioengine = "psync";
  EXPECT_TRUE(DetectTraps({d}, {kShm}, Env()).empty());
  // nfs, overlay, fuse: not on the list.
  JobSpec n = Job("n", "/nfs/f", RwMode::kRandRW);
  n.ioengine = "io_uring";
  w = DetectTraps({n}, {Target("/nfs/f", "nfs", "")}, Env());
  EXPECT_EQ(CountContaining(w, "io_uring buffered reads and writes on nfs"), 1u);
}

// nowait=1 with force_async: io-wq issues the forced I/Os blocking, so
// RWF_NOWAIT does not hold for them (a dropped-cache randread on ext4 failed
// with EAGAIN at its first read, and with force_async=1 read everything
// from the device).
TEST(SysTrapsTest, NowaitWithForceAsyncIsNotHonoured) {
  JobSpec j = Job("n", "/srv/f", RwMode::kRandRead);
  j.ioengine = "io_uring";
  j.nowait = true;
  j.force_async = 1;
  auto w = DetectTraps({j}, {kExt4}, Env());
  EXPECT_EQ(CountContaining(w,
                            "job 'n': nowait=1 with force_async=1: every I/O goes to io-wq "
                            "kernel workers (IOSQE_ASYNC), which issue it blocking: "
                            "RWF_NOWAIT is not honoured for those"),
            1u);
  j.force_async = 4;
  EXPECT_EQ(
      CountContaining(DetectTraps({j}, {kExt4}, Env()), "force_async=4: one I/O in every 4 goes"),
      1u);
  j.force_async = 0;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, Env()), "force_async"), 0u);
}

TEST(SysTrapsTest, LibaioBufferedIsSynchronous) {
  JobSpec j = Job("a", "/srv/f", RwMode::kWrite);
  j.ioengine = "libaio";
  j.iodepth = 32;
  auto w = DetectTraps({j}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'a': libaio with direct=0 is synchronous: io_submit() does each buffered I/O "
            "before it returns, so iodepth=32 gives no queue depth; use direct=1 or io_uring");
  j.direct = true;
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env()).empty());
  // Every engine trims inside the submit call: a trim-only job loses no
  // queue depth to direct=0 (a trimwrite's writes do).
  j.direct = false;
  j.rw = RwMode::kRandTrim;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, Env()), "libaio"), 0u);
  j.rw = RwMode::kTrimWrite;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {kExt4}, Env()), "libaio"), 1u);
  j.rw = RwMode::kWrite;
  // At depth 1 there is no queue depth to lose.
  j.direct = false;
  j.iodepth = 1;
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env()).empty());
}

// An overlay whose upper directory is on a loop device over a file on
// tmpfs: the warning named the upper directory as on tmpfs itself.
TEST(SysTrapsTest, OverlayUpperOnALoopDeviceInMemory) {
  JobSpec j = Job("o", "/ovl/f", RwMode::kRandRead);
  j.direct = true;
  TargetContext t = Target("/ovl/f", "overlay", "loop3 on tmpfs");
  t.backing_fs = "tmpfs";
  t.overlay_layer = "upper directory";
  auto w = DetectTraps({j}, {t}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'o': /ovl/f is on overlay with its upper directory on loop3 with its backing "
            "file on tmpfs, so no disk is involved, but the job reads like a disk test "
            "(direct=1): the numbers measure memory copies, not a device");
}

TEST(SysTrapsTest, DirectServedThroughThePageCache) {
  JobSpec j = Job("j", "/srv/f", RwMode::kRandRead);
  j.direct = true;
  TargetContext t = kExt4;
  t.direct_buffered = "ext4 data=journal";
  auto w = DetectTraps({j}, {t}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'j': direct=1 on /srv/f: ext4 data=journal makes the kernel do O_DIRECT I/O "
            "through the page cache, so this measures buffered I/O");
  // Not without the cause, nor for a job that does not go through the
  // cache with direct=1: trims, mmap (always the cache), null (no I/O).
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env()).empty());
  for (const char* engine : {"mmap", "null"}) {
    JobSpec e = j;
    e.ioengine = engine;
    EXPECT_EQ(CountContaining(DetectTraps({e}, {t}, Env()), "data=journal"), 0u) << engine;
  }
  // mmap has a note of its own: what its direct=1 does (the engine drops
  // each I/O's pages after it). It said direct=1 had no effect, which was
  // stale. Nothing in memory, where there is nothing to drop.
  JobSpec m = j;
  m.ioengine = "mmap";
  w = DetectTraps({m}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'j': note: direct=1 with ioengine=mmap on /srv/f is not O_DIRECT: each I/O is a "
            "copy through the page cache, after which its pages are written back (msync) and "
            "dropped (madvise and posix_fadvise DONTNEED), so the next access reads the device; "
            "the latency includes the write-back");
  EXPECT_EQ(CountContaining(DetectTraps({m}, {kShm}, Env()), "ioengine=mmap"), 0u);
  m.direct = false;
  EXPECT_EQ(CountContaining(DetectTraps({m}, {kExt4}, Env()), "ioengine=mmap"), 0u);
  // In memory (a loop device over a file on tmpfs): warning 1 alone.
  TargetContext mem = Target("/srv/f", "ext4", "loop0 on tmpfs");
  mem.backing_fs = "tmpfs";
  mem.direct_buffered =
      "loop0's buffered I/O on its backing file (loop/dio=0; losetup --direct-io=on)";
  w = DetectTraps({j}, {mem}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("with its backing file on tmpfs, so no disk is involved"), std::string::npos)
      << w[0];
  JobSpec trim = Job("j", "/srv/f", RwMode::kTrim);
  trim.direct = true;
  EXPECT_EQ(CountContaining(DetectTraps({trim}, {t}, Env()), "data=journal"), 0u);
  j.direct = false;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {t}, Env()), "O_DIRECT"), 0u);
}

TEST(SysTrapsTest, ReadsOfHoles) {
  JobSpec j = Job("h", "/srv/f", RwMode::kRandRead);
  j.direct = true;
  TargetContext t = kExt4;
  t.hole_percent = 37.5;
  auto w = DetectTraps({j}, {t}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'h': /srv/f: 37.5% of the region the job reads is holes (never written: sparse, "
            "fallocated or trimmed): reads there return zeros with no device I/O; write the file "
            "first (a file as large as the job needs is read as it is, as in fio)");
  // Under 1% (a partly written last block), not measured, or a job that
  // does not read: nothing.
  for (double pct : {0.9, -1.0}) {
    t.hole_percent = pct;
    EXPECT_TRUE(DetectTraps({j}, {t}, Env()).empty()) << pct;
  }
  // Rounded down: 99.96% with data left is not "100.0%"; 29% stays 29.0%.
  t.hole_percent = 99.96;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {t}, Env()), ": 99.9% of the region"), 1u);
  t.hole_percent = 100.0 * 29 / 100;
  EXPECT_EQ(CountContaining(DetectTraps({j}, {t}, Env()), ": 29.0% of the region"), 1u);
  t.hole_percent = 50;
  JobSpec wr = Job("h", "/srv/f", RwMode::kWrite);
  wr.direct = true;
  EXPECT_EQ(CountContaining(DetectTraps({wr}, {t}, Env()), "holes"), 0u);
  // In memory: warning 1 alone.
  TargetContext shm = kShm;
  shm.hole_percent = 100;
  JobSpec m = Job("h", "/dev/shm/f", RwMode::kRandRead);
  m.direct = true;
  EXPECT_EQ(CountContaining(DetectTraps({m}, {shm}, Env()), "holes"), 0u);
}

TEST(SysTrapsTest, BtrfsCompression) {
  TargetContext t = Target("/srv/f", "btrfs", "nvme0n1");
  t.compression = "btrfs compress=zstd:1";
  JobSpec w = Job("c", "/srv/f", RwMode::kWrite);
  w.zero_buffers = true;
  auto out = DetectTraps({w}, {t}, Env());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0],
            "job 'c': writes data that compresses (zero_buffers=1) to /srv/f, and btrfs "
            "compress=zstd:1 stores it compressed: the disk writes less than the job counts, and "
            "the kernel spends CPU compressing; write fresh random data (refill_buffers=1) to "
            "measure the disk");
  // Each way the data compresses is named; the first one set wins.
  w.zero_buffers = false;
  w.buffer_compress_percentage = 60;
  EXPECT_EQ(CountContaining(DetectTraps({w}, {t}, Env()), "(buffer_compress_percentage=60)"), 1u);
  // Under half compressible: btrfs's heuristic may let it through (it did
  // not at 25%); compress-force compresses it.
  w.buffer_compress_percentage = 25;
  EXPECT_EQ(CountContaining(DetectTraps({w}, {t}, Env()),
                            "writes data that partly compresses (buffer_compress_percentage=25) "
                            "to /srv/f, and btrfs compress=zstd:1 may store it compressed"),
            1u);
  TargetContext force = t;
  force.compression = "btrfs compress-force=zstd:3";
  EXPECT_EQ(CountContaining(DetectTraps({w}, {force}, Env()),
                            "writes data that compresses (buffer_compress_percentage=25) to "
                            "/srv/f, and btrfs compress-force=zstd:3 stores it compressed"),
            1u);
  w.buffer_compress_percentage = 0;
  w.buffer_pattern = {0xde, 0xad};
  EXPECT_EQ(CountContaining(DetectTraps({w}, {t}, Env()), "(buffer_pattern)"), 1u);
  w.buffer_pattern.clear();
  w.verify.type = VerifyType::kPattern;
  EXPECT_EQ(CountContaining(DetectTraps({w}, {t}, Env()), "(verify=pattern)"), 1u);
  // fio's default: the same buffers rewritten, which btrfs may compress.
  w.verify.type = VerifyType::kNone;
  EXPECT_EQ(CountContaining(DetectTraps({w}, {t}, Env()),
                            "writes its buffers again and again (refill_buffers=0, fio's "
                            "default) to /srv/f, and btrfs compress=zstd:1 may store"),
            1u);
  // Fresh random data for each write (refill_buffers, or dedupe, which
  // refills): nothing.
  w.refill_buffers = true;
  EXPECT_TRUE(DetectTraps({w}, {t}, Env()).empty());
  w.refill_buffers = false;
  w.dedupe_percentage = 30;
  EXPECT_TRUE(DetectTraps({w}, {t}, Env()).empty());
  // No compression, or a job that only reads: nothing about writes.
  w.dedupe_percentage = 0;
  w.zero_buffers = true;
  TargetContext plain = t;
  plain.compression.clear();
  EXPECT_TRUE(DetectTraps({w}, {plain}, Env()).empty());
  JobSpec r = Job("c", "/srv/f", RwMode::kRead);
  r.zero_buffers = true;
  EXPECT_TRUE(DetectTraps({r}, {t}, Env()).empty());
  // Reads of data stored compressed: the share, rounded down, from 1%; with
  // direct=1, the page cache btrfs reads it through.
  t.compressed_percent = 99.96;
  out = DetectTraps({r}, {t}, Env());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0],
            "job 'c': /srv/f: 99.9% of the region the job reads is stored compressed (btrfs): the "
            "disk reads less than the job counts, and the kernel spends CPU decompressing; write "
            "the file with data that does not compress");
  r.direct = true;
  EXPECT_EQ(CountContaining(DetectTraps({r}, {t}, Env()),
                            "; btrfs serves O_DIRECT reads of compressed data through the page "
                            "cache, so direct=1 measures buffered reads there;"),
            1u);
  for (double pct : {0.9, -1.0}) {
    t.compressed_percent = pct;
    EXPECT_TRUE(DetectTraps({r}, {t}, Env()).empty()) << pct;
  }
  // A job that does not read is not told about compressed data.
  plain.compressed_percent = 50;
  EXPECT_TRUE(DetectTraps({Job("c", "/srv/f", RwMode::kWrite)}, {plain}, Env()).empty());
}

TEST(SysTrapsTest, UncachedAndNowaitWithDirect) {
  JobSpec j = Job("d", "/srv/f", RwMode::kWrite);
  j.ioengine = "pvsync2";
  j.direct = true;
  j.uncached = true;
  auto w = DetectTraps({j}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'd': uncached=1 has no effect with direct=1: O_DIRECT already bypasses the page "
            "cache that RWF_DONTCACHE would drop");
  j.uncached = false;
  j.nowait = true;
  w = DetectTraps({j}, {kExt4}, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("job 'd': nowait=1 with direct=1"), std::string::npos);
  j.direct = false;
  j.uncached = true;
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env()).empty());
}

TEST(SysTrapsTest, BufferedDiskTestSmallerThanMemory) {
  JobSpec j = Job("big", "/srv/f", RwMode::kRead);
  j.size = 4 * kGiB;
  // One pass of reads from a dropped cache reads every block from the disk
  // (random reads get their note, which says so, and no warning).
  const auto warns = [](JobSpec k) {
    size_t n = 0;
    for (const auto& x : DetectTraps({k}, {kExt4}, Env(16 * kGiB)))
      n += x.find("is smaller than memory") != std::string::npos;
    return n;
  };
  EXPECT_EQ(warns(j), 0u);
  j.rw = RwMode::kRandRead;
  EXPECT_EQ(warns(j), 0u);
  j.io_size = 4 * kGiB;
  EXPECT_EQ(warns(j), 0u);
  // A block may be read again: a second pass, or the same block twice.
  j.io_size = 8 * kGiB;
  EXPECT_EQ(warns(j), 1u);
  j.io_size = 0;
  j.norandommap = true;
  EXPECT_EQ(warns(j), 1u);
  j.norandommap = false;
  j.percentage_random[0] = 50;
  EXPECT_EQ(warns(j), 1u);
  j.percentage_random[0] = 100;
  j.time_based = true;
  EXPECT_EQ(warns(j), 1u);
  j.time_based = false;
  j.invalidate = false;  // the cache may hold it already
  EXPECT_EQ(warns(j), 1u);
  j.invalidate = true;
  j.rw = RwMode::kRandRW;  // reads of what it wrote
  EXPECT_EQ(warns(j), 1u);
  j.rw = RwMode::kRandRead;
  j.read_iolog = "/srv/replay.log";  // a replay may read a block many times
  EXPECT_EQ(warns(j), 1u);
  j.read_iolog.clear();
  // Clones of one file: the later ones read what the first one cached, and
  // the note's "each block is read once per pass" does not hold either.
  j.numjobs = 4;
  auto w4 = DetectTraps({j}, {kExt4}, Env(16 * kGiB));
  ASSERT_EQ(w4.size(), 1u);
  EXPECT_NE(w4[0].find("is smaller than memory"), std::string::npos) << w4[0];
  j.numjobs = 1;
  // Two jobs of one file.
  JobSpec other = Job("other", "/srv/f", RwMode::kRead);
  other.size = 4 * kGiB;
  w4 = DetectTraps({j, other}, {kExt4}, Env(16 * kGiB));
  ASSERT_EQ(w4.size(), 2u);
  EXPECT_NE(w4[0].find("job 'big': /srv/f: the job's data"), std::string::npos) << w4[0];
  EXPECT_EQ(warns(j), 0u);
  j.rw = RwMode::kRead;
  j.loops = 2;
  auto w = DetectTraps({j}, {kExt4}, Env(16 * kGiB));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'big': /srv/f: the job's data (4 GiB) is smaller than memory (16 GiB) in a "
            "buffered disk test (size=4 GiB): after the first pass it can be served from the "
            "page cache; use direct=1 or a size larger than memory");
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env(2 * kGiB)).empty());  // bigger than RAM
  j.direct = true;
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env(16 * kGiB)).empty());
  // Trims do not go through the page cache; a trimwrite's writes do.
  j.direct = false;
  j.rw = RwMode::kRandTrim;
  EXPECT_TRUE(DetectTraps({j}, {kExt4}, Env(16 * kGiB)).empty());
  j.rw = RwMode::kTrimWrite;
  EXPECT_EQ(DetectTraps({j}, {kExt4}, Env(16 * kGiB)).size(), 1u);
  // Size unset: the file's size decides; the disk intent comes from the path.
  JobSpec k = Job("k", "/mnt/nvme/f", RwMode::kRead);
  k.loops = 2;
  TrapEnv env = Env(16 * kGiB);
  env.target_sizes["/mnt/nvme/f"] = 512ull << 20;
  w = DetectTraps({k}, {Target("/mnt/nvme/f", "xfs", "nvme0n1")}, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("the job's data (512 MiB) is smaller than memory (16 GiB)"),
            std::string::npos)
      << w[0];
  EXPECT_NE(w[0].find("(the path /mnt/nvme/f names a device or a mounted disk)"), std::string::npos)
      << w[0];
  // Unknown size: nothing claimed.
  EXPECT_TRUE(DetectTraps({k}, {Target("/mnt/nvme/f", "xfs", "nvme0n1")}, Env()).empty());
}

// The data is the region the job used: a time_based job whose size= runs
// past a device's end uses the device to its end. size=800G on a 256 MiB
// loop device was judged by the 800 GiB and gave no warning; size=256M did.
TEST(SysTrapsTest, BufferedDiskTestJudgedByTheRegionUsed) {
  JobSpec j = Job("mytest", "/dev/loop7", RwMode::kReadWrite);
  j.size = 800 * kGiB;
  j.time_based = true;
  j.numjobs = 4;
  const TargetContext loop = Target("/dev/loop7", "", "loop7 on ext4");
  TrapEnv env = Env(16 * kGiB);
  env.target_sizes["/dev/loop7"] = 256ull << 20;
  EXPECT_TRUE(DetectTraps({j}, {loop}, env).empty());  // no region known: size= decides
  env.device_region_bytes["/dev/loop7"] = 256ull << 20;
  auto w = DetectTraps({j}, {loop}, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "job 'mytest': /dev/loop7: the job's data (256 MiB, to the device's end) is smaller "
            "than memory (16 GiB) in a buffered disk test (size=800 GiB): after the first pass "
            "it can be served from the page cache; use direct=1 or a device larger than memory");
  // The region within the device: size= decides, as before.
  j.size = 128ull << 20;
  w = DetectTraps({j}, {loop}, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("the job's data (128 MiB) is smaller than memory"), std::string::npos)
      << w[0];
  EXPECT_NE(w[0].find("use direct=1 or a size larger than memory"), std::string::npos) << w[0];
  // A device larger than memory, used to its end: no warning.
  j.size = 800 * kGiB;
  env.device_region_bytes["/dev/loop7"] = 32 * kGiB;
  EXPECT_TRUE(DetectTraps({j}, {loop}, env).empty());
}

TEST(SysTrapsTest, OneLinePerJobAndTrapWithCount) {
  JobSpec j;
  j.name = "many";
  j.directory = "/dev/shm/d";
  j.numjobs = 3;
  j.direct = true;
  std::vector<TargetContext> t;
  for (const auto& p : JobFilePaths(j)) t.push_back(Target(p, "tmpfs", ""));
  auto w = DetectTraps({j}, t, Env());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("job 'many': /dev/shm/d/many.0.0 (and 2 more) is on tmpfs"),
            std::string::npos)
      << w[0];
  // A wide job describes a few of its files (the coordinator's limit): the
  // count says which were checked and how many were not. It said "(and 1
  // more)" of a job with 20 files, all on tmpfs.
  j.numjobs = 20;
  const std::vector<std::string> all = JobFilePaths(j);
  t.resize(2);
  TrapEnv env = Env();
  env.unexamined.assign(all.begin() + 2, all.end());
  env.unexamined.push_back("/elsewhere/x");  // another job's: not counted
  w = DetectTraps({j}, t, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("job 'many': /dev/shm/d/many.0.0 (and 1 more; 18 more files not examined) "
                      "is on tmpfs"),
            std::string::npos)
      << w[0];
  t.resize(1);
  w = DetectTraps({j}, t, env);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("job 'many': /dev/shm/d/many.0.0 (18 more files not examined) is on tmpfs"),
            std::string::npos)
      << w[0];
}

// Real files, real probes.
TEST(SysTrapsTest, CollectContextOnTmpfsWarns) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  JobSpec j = Job("seed001", file, RwMode::kRandRead);
  j.ioengine = "io_uring";
  j.size = 2 * kGiB;
  const RunContext ctx = CollectContext({j}, {});
  EXPECT_EQ(ctx.iobench_version, IOBENCH_VERSION);
  EXPECT_FALSE(ctx.kernel.empty());
  EXPECT_GT(ctx.cpus, 0u);
  EXPECT_GT(ctx.mem_bytes, 0u);
  // The clock the run reads, and the kernel's clocksource that decides it.
  std::ifstream cs("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string kernel_cs;
  std::getline(cs, kernel_cs);
  EXPECT_EQ(ctx.kernel_clocksource, kernel_cs);
  EXPECT_EQ(ctx.clock, ClockSourceName());
  if (kernel_cs != "tsc") {
    EXPECT_EQ(ctx.clock, "clock_gettime");
  }
  ASSERT_EQ(ctx.targets.size(), 1u);
  EXPECT_EQ(ctx.targets[0].path, file);
  EXPECT_EQ(ctx.targets[0].fs_type, "tmpfs");
  EXPECT_EQ(ctx.targets[0].device, "");
  EXPECT_DOUBLE_EQ(ctx.targets[0].page_cache_percent, 100.0);
  ASSERT_EQ(ctx.warnings.size(), 2u) << ::testing::PrintToString(ctx.warnings);
  EXPECT_NE(ctx.warnings[0].find("is on tmpfs, so no disk is involved"), std::string::npos);
  EXPECT_NE(ctx.warnings[1].find("io_uring buffered reads on tmpfs"), std::string::npos);
}

TEST(SysTrapsTest, CollectContextOnExt4DoesNotWarnAboutTmpfs) {
  struct statfs s;
  if (statfs("/var/tmp", &s) != 0 || static_cast<uint32_t>(s.f_type) != EXT4_SUPER_MAGIC)
    GTEST_SKIP() << "/var/tmp is not ext4 here";
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  JobSpec j = Job("ext", file, RwMode::kRead);
  j.direct = true;
  const RunContext ctx = CollectContext({j}, {file, file});
  ASSERT_EQ(ctx.targets.size(), 1u);  // distinct targets only
  EXPECT_EQ(ctx.targets[0].fs_type, "ext4");
  EXPECT_FALSE(ctx.targets[0].device.empty());
  EXPECT_EQ(ctx.targets[0].page_cache_percent, -1.0);  // direct job: not measured
  EXPECT_TRUE(ctx.warnings.empty()) << ::testing::PrintToString(ctx.warnings);
}

// A trim does not go through the page cache: a buffered trim-only job has
// no page_cache= figure (it read 0.0%), as a direct job has none; a
// buffered reader of the same file has.
TEST(SysTrapsTest, CollectContextMeasuresNoPageCacheForTrimOnlyJobs) {
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 << 20));
  for (RwMode rw : {RwMode::kTrim, RwMode::kRandTrim}) {
    const JobSpec j = Job("trim", file, rw);
    const RunContext ctx = CollectContext({j}, {file});
    ASSERT_EQ(ctx.targets.size(), 1u);
    EXPECT_EQ(ctx.targets[0].page_cache_percent, -1.0);
    EXPECT_EQ(ctx.targets[0].page_cache_region_bytes, 0u);
    EXPECT_EQ(ctx.targets[0].page_cache_examined_bytes, 0u);
  }
  const RunContext both =
      CollectContext({Job("trim", file, RwMode::kTrim), Job("read", file, RwMode::kRead)}, {file});
  ASSERT_EQ(both.targets.size(), 1u);
  EXPECT_GE(both.targets[0].page_cache_percent, 0.0);
}

}  // namespace
}  // namespace iobench::sys
