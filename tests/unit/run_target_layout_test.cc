// ctest-labels: threads
// Laying out targets as fio 3.33 does: the directories in a file's name,
// directory= that must exist, size=N% that ends at the file's end. The
// expected files and counts are fio's on the same jobs.
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
            "job 'd': directory=" + dir / "nope" + ": No such file or directory");
  auto run = RunJobs({j}, {});
  ASSERT_FALSE(run.ok());
  EXPECT_FALSE(fs::exists(dir / "nope"));
  FillFile(dir / "file", 10);
  j.directory = dir / "file";
  r = ResolveTargets(j, 0, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'd': directory=" + dir / "file" + " is not a directory");
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

}  // namespace
}  // namespace iobench
