// ctest-labels: threads
// Laying out targets as fio 3.33 does: the directories in a file's name,
// directory= that must exist, size=N% that ends at the file's end, and what
// each fallocate mode leaves for a job that only writes. The expected sizes
// and counts are fio's on the same jobs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fake_engine.h"
#include "run/coordinator.h"
#include "run/target.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing::TestJob;
namespace fs = std::filesystem;

JobSpec LayoutJob(const std::string& name, RwMode rw, const std::string& file, uint64_t size) {
  JobSpec j = TestJob(name, rw, 4096, size);
  j.ioengine = "psync";
  if (!file.empty()) j.filenames = {file};
  return j;
}

void FillFile(const std::string& path, uint64_t size) {
  std::ofstream f(path, std::ios::binary);
  const std::string data(size, 'x');
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

uint64_t LayoutIos(const RunResult& r, int d) { return r.groups.at(0).jobs.at(0).stats.dir[d].ios; }

mode_t FileMode(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

// filename=sub1/sub2/f: fio creates sub1 and sub1/sub2 (mode 0700) before
// laying the file out, for reads and writes, absolute or relative.
TEST(TargetLayoutTest, MissingDirectoriesInTheFileNameAreCreated) {
  TempDir dir("/dev/shm");
  for (RwMode rw : {RwMode::kWrite, RwMode::kRead}) {
    const std::string base = dir / (rw == RwMode::kWrite ? "w" : "r");
    JobSpec j = LayoutJob("mk", rw, base + "/sub1//sub2/f", 64 << 10);
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->groups[0].jobs[0].error, 0);
    EXPECT_EQ(LayoutIos(*r, rw == RwMode::kWrite ? 1 : 0), 16u);
    EXPECT_EQ(fs::file_size(base + "/sub1/sub2/f"), 64u << 10);
    EXPECT_EQ(FileMode(base) & 0777, 0700u);
    EXPECT_EQ(FileMode(base + "/sub1/sub2") & 0777, 0700u);
  }
}

// filename_format=$jobnum/$jobname-$filenum in directory=: one directory
// per clone, inside directory=, as fio.
TEST(TargetLayoutTest, FilenameFormatDirectoriesAreCreated) {
  TempDir dir("/dev/shm");
  JobSpec j = LayoutJob("a", RwMode::kWrite, "", 32 << 10);
  j.directory = dir.path();
  j.filename_format = "$jobnum/$jobname-$filenum";
  j.nrfiles = 2;
  j.numjobs = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const char* f : {"0/a-0", "0/a-1", "1/a-0", "1/a-1"})
    EXPECT_EQ(fs::file_size(dir / f), 16u << 10) << f;
}

// create_on_open=1 opens (and creates) the file in the worker: the
// directories are created there too.
TEST(TargetLayoutTest, CreateOnOpenCreatesDirectories) {
  TempDir dir("/dev/shm");
  JobSpec j = LayoutJob("coo", RwMode::kWrite, dir / "x/y/f", 16 << 10);
  j.create_on_open = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(fs::file_size(dir / "x/y/f"), 16u << 10);
}

// create_on_open=1 creates a file when its first I/O opens it, as fio: a
// file the job never reaches is never made. nrfiles=3 number_ios=2 wrote 8
// KiB to j.0.0 and left j.0.1 and j.0.2 empty (created as the job started);
// fio makes j.0.0 alone. Round robin reaches two of the three files (one
// with openfiles=1). The same with openfiles=1 and with every file open.
TEST(TargetLayoutTest, CreateOnOpenCreatesOnlyTheFilesItsIoReaches) {
  struct Case {
    FileServiceType service;
    uint32_t openfiles;
    std::vector<uint64_t> sizes;  // per file; UINT64_MAX: not created
  };
  const uint64_t kNone = UINT64_MAX;
  for (const Case& c : {Case{FileServiceType::kSequential, 0, {8192, kNone, kNone}},
                        Case{FileServiceType::kSequential, 1, {8192, kNone, kNone}},
                        Case{FileServiceType::kRoundRobin, 0, {4096, 4096, kNone}},
                        // With its one slot taken, round robin passes the closed
                        // files by (fio's EBUSY): both writes go to j.0.0.
                        Case{FileServiceType::kRoundRobin, 1, {8192, kNone, kNone}}}) {
    TempDir dir("/dev/shm");
    JobSpec j = LayoutJob("j", RwMode::kWrite, "", 48 << 10);
    j.directory = dir.path();
    j.nrfiles = 3;
    j.create_on_open = true;
    j.file_service_type = c.service;
    j.openfiles = c.openfiles;
    j.number_ios = 2;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->groups[0].jobs[0].error, 0) << r->groups[0].jobs[0].error_message;
    EXPECT_EQ(LayoutIos(*r, 1), 2u);
    for (int f = 0; f < 3; ++f) {
      const std::string path = dir / ("j.0." + std::to_string(f));
      const std::string what = "file " + std::to_string(f) + " service " +
                               std::to_string(static_cast<int>(c.service)) + " openfiles " +
                               std::to_string(c.openfiles);
      if (c.sizes[f] == kNone) {
        EXPECT_FALSE(fs::exists(path)) << what;
      } else {
        ASSERT_TRUE(fs::exists(path)) << what;
        EXPECT_EQ(fs::file_size(path), c.sizes[f]) << what;
        EXPECT_EQ(FileMode(path) & 0077, 0u) << what;  // 0600 less the umask, as fio
      }
    }
  }
}

// allow_file_create=0 creates nothing, not even the directories (fio 3.33
// leaves the directory behind; iobench refuses before touching the disk).
TEST(TargetLayoutTest, AllowFileCreateZeroCreatesNoDirectory) {
  TempDir dir("/dev/shm");
  JobSpec j = LayoutJob("n", RwMode::kWrite, dir / "d/f", 16 << 10);
  j.allow_file_create = false;
  auto r = RunJobs({j}, {});
  EXPECT_FALSE(r.ok() && r->groups[0].jobs[0].error == 0);
  EXPECT_FALSE(fs::exists(dir / "d"));
}

// A directory= that does not exist is refused, as fio refuses the option
// ("is not a directory"): only the directories in a file's own name are
// created. Nothing is made on disk.
TEST(TargetLayoutTest, MissingDirectoryOptionIsRefused) {
  TempDir dir("/dev/shm");
  JobSpec j = LayoutJob("d", RwMode::kWrite, "", 16 << 10);
  j.directory = dir / "nope";
  auto r = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'd': directory=" + dir / "nope" + " (<cmdline>): No such file or directory");
  auto run = RunJobs({j}, {});
  ASSERT_FALSE(run.ok());
  EXPECT_FALSE(fs::exists(dir / "nope"));
  FillFile(dir / "file", 10);
  j.directory = dir / "file";
  r = ResolveTargets(j, 0, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'd': directory=" + dir / "file" + " (<cmdline>) is not a directory");
  // The null engine touches no disk: its directory is only a name.
  EXPECT_TRUE(ResolveTargets(j, 0, /*diskless=*/true).ok());
}

// size=N% of an existing file with an offset: N% of the file, but no more
// than what is left after the offset, in whole blocks. fio 3.33 on a
// 64 KiB file: offset=40k size=50% reads 6 blocks, offset=90% size=10% one;
// the file is never grown.
TEST(TargetLayoutTest, SizePercentEndsAtTheFileEnd) {
  TempDir dir("/dev/shm");
  const std::string file = dir / "p2";
  struct Case {
    uint64_t offset, offset_pct, pct, file_size, region, ios;
  };
  for (const Case& c : {Case{40 << 10, 0, 50, 65536, 24576, 6}, Case{0, 90, 10, 65536, 4096, 1},
                        Case{0, 0, 50, 65536, 32768, 8},         // no offset: unchanged
                        Case{4096, 0, 100, 66536, 62440, 15},    // 100%: what is left, as is
                        Case{4096, 0, 99, 66536, 61440, 15}}) {  // else whole blocks
    FillFile(file, c.file_size);
    JobSpec j = LayoutJob("pct", RwMode::kRead, file, 0);
    j.size_percent = static_cast<uint32_t>(c.pct);
    j.offset = c.offset;
    j.offset_percent = static_cast<uint32_t>(c.offset_pct);
    auto t = ResolveTargets(j, 0, false);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ((*t)[0].region_size, c.region) << c.pct << "% at " << c.offset;
    EXPECT_LE((*t)[0].needed_size, c.file_size);
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(LayoutIos(*r, 0), c.ios) << c.pct << "% at " << c.offset;
    EXPECT_EQ(fs::file_size(file), c.file_size);
  }
  // An offset at or past the end leaves nothing to do.
  FillFile(file, 65536);
  JobSpec j = LayoutJob("pct", RwMode::kRead, file, 0);
  j.size_percent = 50;
  j.offset = 65536;
  auto t = ResolveTargets(j, 0, false);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            "job 'pct': offset 65536 is beyond the end of " + file + " (65536 bytes)");
}

// A job that only writes: the file is laid out by the fallocate mode alone
// and grows with the job's writes. fio 3.33, size=64k number_ios=2 bs=4k:
// none and keep leave 8 KiB, truncate, native and posix 64 KiB. (iobench
// used to ftruncate to 64 KiB in every mode.)
TEST(TargetLayoutTest, FallocateModesOfAWriteOnlyJob) {
  for (const char* base : {"/dev/shm", "/var/tmp"}) {
    TempDir dir(base);
    struct Case {
      FallocateMode mode;
      uint64_t size;
    };
    for (const Case& c :
         {Case{FallocateMode::kNone, 8192}, Case{FallocateMode::kKeep, 8192},
          Case{FallocateMode::kTruncate, 65536}, Case{FallocateMode::kNative, 65536},
          Case{FallocateMode::kPosix, 65536}}) {
      const std::string file = dir / ("f" + std::to_string(static_cast<int>(c.mode)));
      JobSpec j = LayoutJob("w", RwMode::kWrite, file, 64 << 10);
      j.fallocate = c.mode;
      j.number_ios = 2;
      auto r = RunJobs({j}, {});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(LayoutIos(*r, 1), 2u);
      EXPECT_EQ(fs::file_size(file), c.size) << base << " mode " << static_cast<int>(c.mode);
    }
  }
}

// A reader still gets a file full of data whatever the mode (fio lays it
// out with writes), and so does the mmap engine, which maps the file whole
// at open (fio lays it out for writers too).
TEST(TargetLayoutTest, ReadersAndMmapGetTheWholeFile) {
  TempDir dir("/dev/shm");
  for (FallocateMode mode : {FallocateMode::kNone, FallocateMode::kKeep}) {
    const std::string file = dir / ("r" + std::to_string(static_cast<int>(mode)));
    JobSpec j = LayoutJob("r", RwMode::kRead, file, 64 << 10);
    j.fallocate = mode;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(LayoutIos(*r, 0), 16u);
    struct stat st {};
    ASSERT_EQ(stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_size, 64 << 10);
    EXPECT_GE(st.st_blocks * 512, 64 << 10);  // data, not a hole
  }
  const std::string file = dir / "m";
  JobSpec j = LayoutJob("m", RwMode::kWrite, file, 64 << 10);
  j.ioengine = "mmap";
  j.fallocate = FallocateMode::kNone;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  EXPECT_EQ(LayoutIos(*r, 1), 16u);
  EXPECT_EQ(fs::file_size(file), 64u << 10);
}

// verify= does not make a write-only job's layout write data, as fio 3.33
// (which lays out only for readers, overwrite=1 and engines that cannot
// extend a file): the job's own writes fill the file and the verify pass
// reads back only what they wrote. iobench used to write the whole file
// first (size=2m: 2 layout writes of 1 MiB before the job's 512), and on a
// filesystem with less room than size= failed in the layout with ENOSPC.
TEST(TargetLayoutTest, VerifyDoesNotLayOutAWriteOnlyJob) {
  TempDir dir("/dev/shm");
  const std::string file = dir / "v";
  JobSpec j = LayoutJob("v", RwMode::kWrite, file, 64 << 10);
  j.fallocate = FallocateMode::kNone;
  j.verify.type = VerifyType::kCrc32c;
  j.verify.state_save = false;  // no local-v-0-verify.state in the working directory
  auto targets = ResolveTargets(j, 0, false);
  ASSERT_TRUE(targets.ok()) << targets.status().ToString();
  ASSERT_TRUE(LayOutFile(j, targets->at(0)).ok());
  EXPECT_EQ(fs::file_size(file), 0u);  // created, nothing written
  // The run: 2 writes, both read back and verified, the file 8 KiB (fio).
  fs::remove(file);
  j.number_ios = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  EXPECT_EQ(LayoutIos(*r, 1), 2u);
  EXPECT_EQ(LayoutIos(*r, 0), 2u);
  EXPECT_EQ(fs::file_size(file), 8192u);
}

// A short file that cannot be opened for writing (immutable, on a read-only
// mount; here a directory, which fails for root too) is to be extended, not
// created: the error says so, and by how much. It said "create" either way.
TEST(TargetLayoutTest, AFailedExtendSaysExtend) {
  TempDir dir("/dev/shm");
  fs::create_directory(dir / "short");
  JobSpec j = LayoutJob("x", RwMode::kRead, dir / "short", 64 << 10);
  TargetFile t;
  t.path = dir / "short";
  t.exists = true;
  t.current_size = 16384;
  t.needed_size = 65536;
  t.region_size = 65536;
  auto r = LayOutFile(j, t);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'x': extend " + t.path + " (16384 -> 65536 bytes): Is a directory");
  // A missing file is still created, and the error says "create".
  t.path = dir / "short/f";
  t.exists = false;
  t.current_size = 0;
  fs::remove(dir / "short");
  FillFile(dir / "short", 10);  // a file where a directory is needed: ENOTDIR
  r = LayOutFile(j, t);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("job 'x': create " + t.path, 0), 0u) << r.status().message();
}

// A preallocation that fails (a 1 MiB tmpfs, size=2m io_size=256k): as fio
// 3.33, fallocate=keep fails the job; native and posix go on without it and
// the job's writes fill what fits (fio logs posix_fallocate's failure; a
// FUSE or blob filesystem without fallocate is where users meet it). iobench
// used to do the reverse: posix refused the run, keep went on silently.
TEST(TargetLayoutTest, AFailedPreallocationAsFio) {
  testing::SmallTmpfs dir("1m");
  if (!dir.error().empty()) GTEST_SKIP() << dir.error();
  for (FallocateMode mode : {FallocateMode::kPosix, FallocateMode::kNative, FallocateMode::kKeep}) {
    const std::string file = dir / "f";
    fs::remove(file);
    JobSpec j = LayoutJob("fa", RwMode::kWrite, file, 2 << 20);
    j.io_size = 256 << 10;
    j.fallocate = mode;
    auto r = RunJobs({j}, {});
    const int m = static_cast<int>(mode);
    if (mode == FallocateMode::kKeep) {
      // The job fails, and is reported with its error and no I/O, as fio's.
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      const JobResult& jr = r->groups.at(0).jobs.at(0);
      EXPECT_EQ(jr.error, ENOSPC);
      EXPECT_EQ(jr.stats.issued[1], 0u);
      EXPECT_EQ(r->exit_code, 1);
      EXPECT_NE(jr.error_message.find("fallocate=keep: fallocate(FALLOC_FL_KEEP_SIZE) " + file),
                std::string::npos)
          << jr.error_message;
      EXPECT_NE(jr.error_message.find("No space left on device"), std::string::npos);
      continue;
    }
    ASSERT_TRUE(r.ok()) << m << ": " << r.status().ToString();
    const JobResult& jr = r->groups[0].jobs[0];
    EXPECT_EQ(jr.error, 0) << m;
    EXPECT_EQ(jr.stats.dir[1].ios, 64u) << m;
    bool noted = false;
    for (const std::string& n : jr.notes)
      noted |= n.rfind(file + " was not preallocated (fallocate=" +
                           (mode == FallocateMode::kPosix ? "posix: posix_fallocate: "
                                                          : "native: fallocate: ") +
                           "No space left on device)",
                       0) == 0;
    EXPECT_TRUE(noted) << m << ": " << ::testing::PrintToString(jr.notes);
  }
}

}  // namespace
}  // namespace iobench
