// ctest-labels: threads
// The sync engines on real files (tmpfs and ext4) and on a loop device when
// root: writes land where they should and nowhere else, reads return what is
// there, pvsync2's uncached and nowait behave as the kernel says.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "iobench/engine.h"
#include "run/coordinator.h"
#include "temp_dir.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

namespace iobench {
namespace {

using testing::TempDir;
using testing::TestJob;

void FillFile(const std::string& path, uint64_t size, uint8_t byte) {
  std::vector<uint8_t> buf(size, byte);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, buf.data(), size, 0), static_cast<ssize_t>(size));
  close(fd);
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::vector<uint8_t> buf(std::filesystem::file_size(path));
  int fd = open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(pread(fd, buf.data(), buf.size(), 0), static_cast<ssize_t>(buf.size()));
  close(fd);
  return buf;
}

const char* kEngines[] = {"sync", "psync", "vsync", "pvsync", "pvsync2"};
const char* kBases[] = {"/dev/shm", "/var/tmp"};

// A write job with zero buffers over [256k, 512k) of a 1 MiB file of 0xAB:
// the region becomes zeros, everything else stays 0xAB. Then a read job
// reads the region back in full.
TEST(SyncEngineTest, WriteLandsInRegionAndReadsBack) {
  for (const char* base : kBases) {
    TempDir dir(base);
    ASSERT_FALSE(dir.path().empty()) << base;
    for (const char* engine : kEngines) {
      SCOPED_TRACE(std::string(engine) + " on " + base);
      const std::string file = dir.path() + "/" + engine;
      FillFile(file, 1 << 20, 0xAB);
      JobSpec w = TestJob("w", RwMode::kWrite, 4096, 256 << 10);
      w.ioengine = engine;
      w.filenames = {file};
      w.offset = 256 << 10;
      w.zero_buffers = true;
      w.scramble_buffers = false;
      w.end_fsync = true;
      auto r = RunJobs({w}, {});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      const JobResult& jw = r->groups[0].jobs[0];
      EXPECT_EQ(jw.error, 0) << jw.error_message;
      EXPECT_EQ(jw.stats.dir[1].ios, 64u);
      EXPECT_EQ(jw.stats.dir[1].bytes, 256u << 10);
      EXPECT_TRUE(jw.notes.empty());  // the file was long enough: no layout
      const std::vector<uint8_t> data = ReadBytes(file);
      ASSERT_EQ(data.size(), 1u << 20);  // never truncated or extended
      for (size_t i = 0; i < data.size(); ++i) {
        const bool in_region = i >= (256u << 10) && i < (512u << 10);
        if (data[i] != (in_region ? 0 : 0xAB)) {
          ADD_FAILURE() << "byte " << i << " is " << int(data[i]);
          break;
        }
      }
      JobSpec rd = TestJob("r", RwMode::kRead, 4096, 256 << 10);
      rd.ioengine = engine;
      rd.filenames = {file};
      rd.offset = 256 << 10;
      auto r2 = RunJobs({rd}, {});
      ASSERT_TRUE(r2.ok()) << r2.status().ToString();
      EXPECT_EQ(r2->groups[0].jobs[0].error, 0);
      EXPECT_EQ(r2->groups[0].jobs[0].stats.dir[0].bytes, 256u << 10);
      EXPECT_EQ(r2->groups[0].jobs[0].stats.dir[0].short_ios, 0u);
    }
  }
}

TEST(SyncEngineTest, RandomWritesStayInRegion) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/rand";
  FillFile(file, 1 << 20, 0xAB);
  JobSpec w = TestJob("rw", RwMode::kRandWrite, 4096, 128 << 10);
  w.ioengine = "pvsync";
  w.filenames = {file};
  w.offset = 512 << 10;
  w.zero_buffers = true;
  w.scramble_buffers = false;
  // Several passes over the 32-block region: number_ios counts over all the
  // loops (fio's number_ios x loops), so 20 x 10 stops after 200 writes.
  w.number_ios = 20;
  w.loops = 10;
  auto r = RunJobs({w}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[1].ios, 200u);
  const std::vector<uint8_t> data = ReadBytes(file);
  for (size_t i = 0; i < data.size(); ++i) {
    const bool in_region = i >= (512u << 10) && i < (640u << 10);
    if (!in_region && data[i] != 0xAB) {
      ADD_FAILURE() << "write outside the region at byte " << i;
      break;
    }
  }
}

// psync, and libaio and io_uring, which trim in the call as fio's do (no
// discard opcode): a hole punch, counted at depth 1 as fio counts it.
TEST(SyncEngineTest, TrimPunchesHolesInFiles) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/trim";
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    if (!FindEngine(engine)->probe().ok()) continue;  // io_uring disabled here
    FillFile(file, 256 << 10, 0xAB);
    JobSpec t = TestJob("t", RwMode::kTrim, 65536, 256 << 10);
    t.ioengine = engine;
    t.iodepth = 4;
    t.filenames = {file};
    auto r = RunJobs({t}, {});
    ASSERT_TRUE(r.ok()) << engine << ": " << r.status().ToString();
    const JobResult& jr = r->groups[0].jobs[0];
    ASSERT_EQ(jr.error, 0) << engine << ": " << jr.error_message;
    EXPECT_EQ(jr.stats.dir[2].ios, 4u) << engine;
    EXPECT_EQ(jr.stats.depth.depth[0], 4u) << engine;
    for (uint8_t b : ReadBytes(file)) {
      if (b != 0) {
        ADD_FAILURE() << engine << ": trimmed range still holds data";
        break;
      }
    }
  }
}

std::string FsName(const std::string& dir) {
  struct statfs s {};
  statfs(dir.c_str(), &s);
  return s.f_type == 0x01021994 ? "tmpfs" : s.f_type == 0xEF53 ? "ext4" : "other";
}

std::string Release() {
  utsname u{};
  uname(&u);
  return u.release;
}

TEST(SyncEngineTest, UncachedOnTmpfsFailsBeforeAnyIo) {
  TempDir dir("/dev/shm");
  ASSERT_EQ(FsName(dir.path()), "tmpfs");
  const std::string file = dir.path() + "/uncached";
  JobSpec j = TestJob("u", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "pvsync2";
  j.uncached = true;
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  const std::string& msg = r.status().message();
  EXPECT_EQ(r.status().code(), Status::Code::kUnsupported);
  EXPECT_NE(msg.find(file), std::string::npos) << msg;
  EXPECT_NE(msg.find("tmpfs"), std::string::npos) << msg;
  EXPECT_NE(msg.find("kernel " + Release()), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not fall back"), std::string::npos) << msg;
  // Before any I/O: the file was not even laid out.
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(SyncEngineTest, UncachedOnExt4FollowsTheKernel) {
  TempDir dir("/var/tmp");
  if (FsName(dir.path()) != "ext4") GTEST_SKIP() << "/var/tmp is not ext4";
  const std::string file = dir.path() + "/uncached";
  FillFile(file, 1 << 20, 0x5A);
  // Probe the kernel ourselves.
  int fd = open(file.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<uint8_t> buf(4096);
  iovec iov{buf.data(), buf.size()};
  const bool supported = preadv2(fd, &iov, 1, 0, RWF_DONTCACHE) >= 0;
  close(fd);
  JobSpec j = TestJob("u", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "pvsync2";
  j.uncached = true;
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  if (!supported) {
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("ext4"), std::string::npos);
    return;
  }
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].bytes, 1u << 20);
}

TEST(SyncEngineTest, UncachedWithDirectIsExplained) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/direct";
  FillFile(file, 1 << 20, 0x5A);
  int fd = open(file.c_str(), O_RDONLY | O_DIRECT);
  if (fd < 0) GTEST_SKIP() << "O_DIRECT not supported on /var/tmp";
  close(fd);
  JobSpec j = TestJob("ud", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "pvsync2";
  j.direct = true;
  j.nowait = true;
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& notes = r->groups[0].jobs[0].notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("nowait=1 (RWF_NOWAIT) with O_DIRECT"), std::string::npos) << notes[0];
}

// RWF_HIPRI polls only O_DIRECT I/O on a device with poll queues; the
// kernel silently completes anything else by interrupt. So pvsync2 refuses
// hipri=1 before the run where it cannot poll, as io_uring does: buffered
// I/O, and a file on a device without poll queues. Nothing is laid out.
TEST(SyncEngineTest, HipriIsRefusedWhereTheKernelCannotPoll) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/hipri";
  JobSpec j = TestJob("hp", RwMode::kRandRead, 4096, 1 << 20);
  j.ioengine = "pvsync2";
  j.hipri = true;
  j.hipri_percentage = 50;
  j.number_ios = 100;
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "job 'hp': pvsync2: hipri=1 needs direct=1 (polled completions exist only for "
            "O_DIRECT I/O)");
  EXPECT_FALSE(std::filesystem::exists(file));

  j.direct = true;
  r = RunJobs({j}, {});
  if (r.ok()) GTEST_SKIP() << "the device under " << dir.path() << " has poll queues";
  EXPECT_EQ(r.status().code(), Status::Code::kUnsupported);
  EXPECT_NE(r.status().message().find(
                "job 'hp': pvsync2: hipri needs a block device with poll queues (nvme "
                "poll_queues=N); " +
                file),
            std::string::npos)
      << r.status().message();
  EXPECT_FALSE(std::filesystem::exists(file));
}

// hipri_percentage=0 issues no call with RWF_HIPRI (fio passes flags 0 too):
// nothing is polled, so a device without poll queues is no reason to refuse
// the job. It runs, and its report says hipri does nothing.
TEST(SyncEngineTest, HipriPercentageZeroRunsWithoutPollQueues) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/hipri0";
  FillFile(file, 1 << 20, 0x5a);
  JobSpec j = TestJob("hp0", RwMode::kRandRead, 4096, 1 << 20);
  j.ioengine = "pvsync2";
  j.hipri = true;
  j.hipri_percentage = 0;
  j.direct = true;
  j.number_ios = 16;
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& job = r->groups[0].jobs[0];
  EXPECT_EQ(job.stats.dir[0].ios, 16u);
  bool noted = false;
  for (const auto& n : job.notes)
    noted |= n.find("hipri_percentage=0: no I/O") != std::string::npos;
  EXPECT_TRUE(noted);
}

// sync=1 (O_SYNC) and sync=dsync (O_DSYNC) act on write calls; the mmap
// engine's writes are memcpy into the mapping, so no write is synced as it
// is made. The job runs (as in fio) and its report says so; a psync job
// with sync=1, whose writes are synced, gets no such note.
TEST(SyncEngineTest, MmapWithSyncSaysNothingIsSyncedPerWrite) {
  TempDir dir("/var/tmp");
  const auto note_of = [&](const std::string& engine, bool sync, bool dsync,
                           RwMode rw = RwMode::kWrite) {
    JobSpec j = TestJob("ms", rw, 4096, 256 << 10);
    j.ioengine = engine;
    j.sync = sync;
    j.dsync = dsync;
    j.filenames = {dir.path() + "/" + engine};
    auto r = RunJobs({j}, {});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return std::string("(failed)");
    for (const auto& n : r->groups[0].jobs[0].notes)
      if (n.find("has no effect with ioengine=mmap") != std::string::npos) return n;
    return std::string();
  };
  std::string n = note_of("mmap", true, false);
  EXPECT_EQ(n.rfind("sync=1 (O_SYNC) has no effect with ioengine=mmap: its writes are memory "
                    "copies",
                    0),
            0u)
      << n;
  n = note_of("mmap", false, true);
  EXPECT_EQ(n.rfind("sync=dsync (O_DSYNC) has no effect with ioengine=mmap", 0), 0u) << n;
  EXPECT_EQ(note_of("mmap", false, false), "");
  EXPECT_EQ(note_of("psync", true, false), "");
  EXPECT_EQ(note_of("mmap", true, false, RwMode::kTrim), "");  // writes nothing
}

// RWF_NOWAIT on buffered reads of uncached data: EAGAIN, counted; the job
// fails unless continue_on_error/ignore_error tolerate it.
// Writes a file and drops it from the page cache, so buffered RWF_NOWAIT
// reads of it would block.
void MakeColdFile(const std::string& path, uint64_t size) {
  FillFile(path, size, 0x11);
  int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
}

TEST(SyncEngineTest, NowaitEagainIsCountedAndPolicyApplies) {
  TempDir dir("/var/tmp");
  {
    const std::string probe = dir.path() + "/probe";
    MakeColdFile(probe, 1 << 20);
    int fd = open(probe.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    std::vector<uint8_t> buf(4096);
    iovec iov{buf.data(), buf.size()};
    const ssize_t got = preadv2(fd, &iov, 1, 512 << 10, RWF_NOWAIT);
    const int err = errno;
    close(fd);
    if (got >= 0 || err != EAGAIN)
      GTEST_SKIP() << "this kernel/filesystem does not refuse uncached RWF_NOWAIT reads";
  }
  // Tolerated: every EAGAIN is counted, the job goes on.
  const std::string file = dir.path() + "/nowait";
  MakeColdFile(file, 8 << 20);
  JobSpec j = TestJob("nw", RwMode::kRandRead, 4096, 8 << 20);
  j.ioengine = "pvsync2";
  j.nowait = true;
  j.filenames = {file};
  j.number_ios = 64;
  j.ignore_error[0] = {EAGAIN};  // ignore_error=EAGAIN, which also sets:
  j.continue_on_error = kCoeRead;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0);
  EXPECT_GE(jr.stats.dir[0].eagain, 1u);
  EXPECT_EQ(jr.stats.dir[0].errors, jr.stats.dir[0].eagain);
  EXPECT_EQ(jr.stats.dir[0].ios + jr.stats.dir[0].failed, 64u);

  // Not tolerated: the first EAGAIN fails the job. continue_on_error=read
  // alone covers EIO and EILSEQ only, as in fio. A fresh cold file, since
  // the first run's misses started readahead on the old one.
  const std::string file2 = dir.path() + "/nowait2";
  MakeColdFile(file2, 8 << 20);
  j.filenames = {file2};
  j.ignore_error[0].clear();
  auto r2 = RunJobs({j}, {});
  ASSERT_TRUE(r2.ok());
  const JobResult& j2 = r2->groups[0].jobs[0];
  EXPECT_EQ(j2.error, EAGAIN);
  EXPECT_EQ(j2.stats.dir[0].eagain, 1u);
  EXPECT_EQ(j2.stats.first_error.file, file2);
  EXPECT_EQ(r2->exit_code, 1);
}

// Loop devices (root only): direct I/O on a block device, the size from the
// device, and a misaligned bs refused before the run.
class SectorLoopDevice {
 public:
  SectorLoopDevice(const std::string& backing, uint32_t sector) {
    const std::string cmd = "losetup -f --show --sector-size " + std::to_string(sector) + " " +
                            backing + " 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return;
    char line[256] = {};
    if (fgets(line, sizeof(line), p) != nullptr) dev_ = line;
    pclose(p);
    while (!dev_.empty() && (dev_.back() == '\n' || dev_.back() == ' ')) dev_.pop_back();
  }
  ~SectorLoopDevice() { Detach(); }
  void Detach() {
    if (!dev_.empty()) (void)system(("losetup -d " + dev_ + " 2>/dev/null").c_str());
    dev_.clear();
  }
  const std::string& dev() const { return dev_; }

 private:
  std::string dev_;
};

TEST(SyncEngineTest, LoopDeviceDirectIoAndAlignment) {
  if (geteuid() != 0) GTEST_SKIP() << "loop devices need root";
  TempDir dir("/var/tmp");
  const std::string backing = dir.path() + "/backing";
  FillFile(backing, 4 << 20, 0xCD);
  SectorLoopDevice loop(backing, 4096);
  if (loop.dev().empty()) GTEST_SKIP() << "losetup failed (no loop support?)";

  JobSpec bad = TestJob("bad", RwMode::kRead, 512, 0);
  bad.ioengine = "psync";
  bad.direct = true;
  bad.filenames = {loop.dev()};
  auto r = RunJobs({bad}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'bad': bs=512 (read) is not a multiple of the logical block size 4096 of " +
                loop.dev() + "; direct=1 needs block-aligned I/O");

  JobSpec w = TestJob("w", RwMode::kWrite, 8192, 1 << 20);
  w.ioengine = "pvsync2";
  w.direct = true;
  w.filenames = {loop.dev()};
  w.offset = 1 << 20;
  w.zero_buffers = true;
  w.scramble_buffers = false;
  auto rw = RunJobs({w}, {});
  ASSERT_TRUE(rw.ok()) << rw.status().ToString();
  EXPECT_EQ(rw->groups[0].jobs[0].error, 0) << rw->groups[0].jobs[0].error_message;
  EXPECT_EQ(rw->groups[0].jobs[0].stats.dir[1].bytes, 1u << 20);

  // No size: the whole device, read with O_DIRECT.
  JobSpec rd = TestJob("r", RwMode::kRead, 65536, 0);
  rd.ioengine = "psync";
  rd.direct = true;
  rd.filenames = {loop.dev()};
  auto rr = RunJobs({rd}, {});
  ASSERT_TRUE(rr.ok()) << rr.status().ToString();
  EXPECT_EQ(rr->groups[0].jobs[0].stats.dir[0].bytes, 4u << 20);
  EXPECT_TRUE(rr->groups[0].jobs[0].notes.empty());  // never a layout on a device

  // Trim is BLKDISCARD on a block device: the loop driver punches the
  // backing file, which then reads back zeros there.
  // psync trims the first half, libaio (in the call, as fio's) the second.
  // A loop device keeps a discard_max_bytes=0 written to it while it was
  // another's (it survives detach): its trims fail with EOPNOTSUPP.
  const std::string sys_max =
      "/sys/block/" + loop.dev().substr(loop.dev().rfind('/') + 1) + "/queue/discard_max_bytes";
  uint64_t discard_max = 1;
  if (std::ifstream in(sys_max); in >> discard_max && discard_max == 0)
    GTEST_SKIP() << loop.dev() << " has discard disabled (" << sys_max << " is 0): trim not tested";
  JobSpec t = TestJob("t", RwMode::kTrim, 65536, 512 << 10);
  t.ioengine = "psync";
  t.filenames = {loop.dev()};
  t.offset = 3 << 20;
  JobSpec ta = t;
  ta.name = "ta";
  ta.ioengine = "libaio";
  ta.iodepth = 4;
  ta.offset = (3 << 20) + (512 << 10);
  auto rt = RunJobs({t, ta}, {});
  ASSERT_TRUE(rt.ok()) << rt.status().ToString();
  for (const JobResult& jr : rt->groups[0].jobs) {
    EXPECT_EQ(jr.error, 0) << jr.name << ": " << jr.error_message;
    EXPECT_EQ(jr.stats.dir[2].ios, 8u) << jr.name;
  }

  loop.Detach();
  const std::vector<uint8_t> data = ReadBytes(backing);
  for (size_t i = 0; i < data.size(); ++i) {
    const bool zeroed = (i >= (1u << 20) && i < (2u << 20)) || i >= (3u << 20);
    if (data[i] != (zeroed ? 0 : 0xCD)) {
      ADD_FAILURE() << "byte " << i << " is " << int(data[i]);
      break;
    }
  }
}

}  // namespace
}  // namespace iobench
