// ctest-labels: threads
// Round-5 file and buffer options: mem=/mem_align= (run/buffers.h),
// offset_align, file_append, unlink_each_loop, create_*, allow_file_create,
// write_hint, allrandrepeat, softrandommap, exec_prerun/exec_postrun.
// Real files on /dev/shm (tmpfs) and /var/tmp (ext4 here); nothing mocked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "fake_engine.h"
#include "jobfile/parser.h"
#include "run/buffers.h"
#include "run/coordinator.h"
#include "run/pattern.h"
#include "run/target.h"
#include "stats/summary.h"
#include "sys_test_util.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing::TestJob;
namespace fs = std::filesystem;

void MakeFile(const std::string& path, uint64_t size, char fill = 'x') {
  std::ofstream f(path, std::ios::binary);
  std::string block(4096, fill);
  for (uint64_t done = 0; done < size; done += block.size())
    f.write(block.data(),
            static_cast<std::streamsize>(std::min<uint64_t>(block.size(), size - done)));
}

// A psync job of 4 KiB blocks on one real file.
JobSpec FileJob(const std::string& name, RwMode rw, const std::string& file, uint64_t size) {
  JobSpec j = TestJob(name, rw, 4096, size);
  j.ioengine = "psync";
  j.filenames = {file};
  return j;
}

std::string ParseErr(const std::string& text) {
  auto r = jobfile::ParseJobText(text, "t.fio", "/tmp");
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

JobSpec ParseOne(const std::string& text) {
  auto r = jobfile::ParseJobText(text, "t.fio", "/tmp");
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok() || r->jobs.empty()) return JobSpec();
  return r->jobs[0];
}

// ------------------------------------------------------------ opendir

// Every file below the directory joins the job, subdirectories included,
// before the filename= ones; size= is split over all of them. The counts are
// fio 3.33's on the same tree (56, 24 and 64 reads).
TEST(FilesOptionsOpendir, FilesBelowTheDirectoryJoinTheJob) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  fs::create_directories(dir.path() + "/d/sub");
  MakeFile(dir.path() + "/d/a", 64 << 10);
  MakeFile(dir.path() + "/d/sub/b", 128 << 10);
  MakeFile(dir.path() + "/d/c", 32 << 10);
  JobSpec j = TestJob("od", RwMode::kRead, 4096, 0);
  j.ioengine = "psync";
  j.opendir = dir.path() + "/d";
  auto ios = [](const JobSpec& job) -> uint64_t {
    auto r = RunJobs({job}, {});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->groups[0].jobs[0].stats.dir[0].ios : 0;
  };
  EXPECT_EQ(ios(j), 56u);  // each file whole: 16 + 32 + 8
  JobSpec sized = j;
  sized.size = 96 << 10;  // 32 KiB of each
  EXPECT_EQ(ios(sized), 24u);
  JobSpec plus = j;
  plus.filenames = {dir.path() + "/d/c"};  // named too: read twice
  EXPECT_EQ(ios(plus), 64u);
  // Only regular files, as fio's recurse_dir (lstat): a symlink to a file
  // below was read twice, a FIFO refused the job, a dangling link failed it.
  fs::create_symlink(dir.path() + "/d/a", dir.path() + "/d/alink");
  fs::create_symlink(dir.path() + "/d/nothing", dir.path() + "/d/dangling");
  fs::create_directory_symlink(dir.path() + "/d/sub", dir.path() + "/d/sublink");
  ASSERT_EQ(mkfifo((dir.path() + "/d/sub/fifo").c_str(), 0600), 0);
  EXPECT_EQ(ios(j), 56u);
  // An empty regular file holds nothing to read: with no size= it is
  // skipped (fio adds it and reads nothing there; iobench refused the job).
  MakeFile(dir.path() + "/d/sub/.gitkeep", 0);
  EXPECT_EQ(ios(j), 56u);
  // Errors name the option and what is wrong; nothing runs.
  fs::create_directories(dir.path() + "/empty");
  JobSpec empty = j;
  empty.opendir = dir.path() + "/empty";
  auto r = RunJobs({empty}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("opendir=" + dir.path() + "/empty"), std::string::npos);
  EXPECT_NE(r.status().message().find("no files below it"), std::string::npos);
  JobSpec missing = j;
  missing.opendir = dir.path() + "/nope";
  r = RunJobs({missing}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a directory"), std::string::npos);
}

// ------------------------------------------------------------ mem, mem_align

TEST(FilesOptionsMem, ParsesTypesAliasesAndFiles) {
  JobSpec j = ParseOne("[a]\niomem=mmapshared:/dev/shm/buf\niomem_align=512\n");
  EXPECT_EQ(j.mem, JobSpec::MemType::kMmapShared);
  EXPECT_EQ(j.mem_file, "/dev/shm/buf");
  EXPECT_EQ(j.mem_align, 512u);
  EXPECT_EQ(ParseOne("[a]\nmem=shmhuge\n").mem, JobSpec::MemType::kShmHuge);
  EXPECT_EQ(ParseOne("[a]\nmem=mmap\n").mem, JobSpec::MemType::kMmap);
  EXPECT_EQ(ParseOne("[a]\n").mem, JobSpec::MemType::kMalloc);
}

TEST(FilesOptionsMem, RefusesHostileValues) {
  EXPECT_NE(
      ParseErr("[a]\nmem=cudamalloc\n")
          .find("t.fio:2:5: option 'mem': mem=cudamalloc (GPU memory for fio's rdma engine) is not "
                "supported by iobench"),
      std::string::npos)
      << ParseErr("[a]\nmem=cudamalloc\n");
  EXPECT_NE(ParseErr("[a]\nmem=heap\n")
                .find("bad mem type 'heap' (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nmem=shm:/x\n")
                .find("mem=shm takes no file (only mmap, mmaphuge and mmapshared map one)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nmem=mmap:\n").find("mem=mmap: the file name after ':' is empty"),
            std::string::npos);
  EXPECT_EQ(ParseErr("[a]\nmem_align=-1\n").rfind("t.fio:2:", 0), 0u);
  EXPECT_EQ(ParseErr("[a]\nmem_align=lots\n").rfind("t.fio:2:", 0), 0u);
}

// Every non-huge type gives writable memory starting mem_align bytes past an
// `align` boundary, as fio lays buffers out.
TEST(FilesOptionsMem, AllocatesEachTypeAlignedPlusMemAlign) {
  using M = JobSpec::MemType;
  for (M m : {M::kMalloc, M::kShm, M::kMmap, M::kMmapShared}) {
    for (uint64_t mem_align : {0u, 512u, 4096u + 8}) {
      JobSpec j;
      j.mem = m;
      j.mem_align = mem_align;
      IoMemory mem;
      ASSERT_TRUE(mem.Allocate(j, 3 * 8192, 4096, "job 'm'").ok()) << MemTypeName(m);
      const auto base = reinterpret_cast<uintptr_t>(mem.base());
      EXPECT_EQ((base - mem_align) % 4096, 0u) << MemTypeName(m) << " +" << mem_align;
      EXPECT_GE(mem.mapped_bytes(), 3 * 8192 + 4096 + mem_align);
      std::memset(mem.base(), 0xab, 3 * 8192);  // all of it is usable
      EXPECT_EQ(static_cast<uint8_t*>(mem.base())[3 * 8192 - 1], 0xab);
      mem.Release();
      EXPECT_EQ(mem.base(), nullptr);
    }
  }
}

// mem=mmap:FILE creates the file sized to the buffers and removes it at the
// end; a file that was there before is kept (fio does the same).
TEST(FilesOptionsMem, MmapFileIsCreatedSizedAndRemoved) {
  TempDir dir("/dev/shm");
  for (JobSpec::MemType m : {JobSpec::MemType::kMmap, JobSpec::MemType::kMmapShared}) {
    JobSpec j;
    j.mem = m;
    j.mem_file = dir.path() + "/buf";
    {
      IoMemory mem;
      ASSERT_TRUE(mem.Allocate(j, 16384, 4096, "job 'm'").ok());
      ASSERT_TRUE(fs::exists(j.mem_file));
      EXPECT_EQ(fs::file_size(j.mem_file), 16384u + 4096u);
      std::memset(mem.base(), 1, 16384);  // backed: no SIGBUS (fio's mmapshared:FILE has one)
    }
    EXPECT_FALSE(fs::exists(j.mem_file)) << MemTypeName(m);
  }
  JobSpec j;
  j.mem = JobSpec::MemType::kMmap;
  j.mem_file = dir.path() + "/kept";
  MakeFile(j.mem_file, 100);
  {
    IoMemory mem;
    ASSERT_TRUE(mem.Allocate(j, 4096, 4096, "job 'm'").ok());
  }
  EXPECT_TRUE(fs::exists(j.mem_file));
}

TEST(FilesOptionsMem, MmaphugeFileMustBeOnHugetlbfs) {
  TempDir dir("/dev/shm");
  JobSpec j;
  j.mem = JobSpec::MemType::kMmapHuge;
  j.mem_file = dir.path() + "/huge";
  IoMemory mem;
  const Status st = mem.Allocate(j, 4096, 4096, "job 'h'");
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(st.message(), "job 'h': mem=mmaphuge:" + j.mem_file + ": " + dir.path() +
                              " is not on hugetlbfs, so the buffers would not be huge pages "
                              "(mount -t hugetlbfs none DIR, or use mem=mmaphuge without a file)");
  EXPECT_FALSE(fs::exists(j.mem_file));
}

// Huge page types never fall back to normal pages: too few free huge pages
// is an error that says how many are needed.
TEST(FilesOptionsMem, HugeTypesFailClearlyWithoutFreeHugePages) {
  const HugePageInfo hp = ReadHugePageInfo();
  if (hp.page_bytes == 0) GTEST_SKIP() << "no huge pages in this kernel";
  const uint64_t bytes = 3 * hp.page_bytes;  // + align: 4 pages
  if (hp.free_pages >= 4) GTEST_SKIP() << "this machine has free huge pages";
  for (JobSpec::MemType m : {JobSpec::MemType::kShmHuge, JobSpec::MemType::kMmapHuge}) {
    JobSpec j;
    j.mem = m;
    IoMemory mem;
    const Status st = mem.Allocate(j, bytes, 4096, "job 'h'");
    EXPECT_EQ(st.code(), Status::Code::kResourceLimit);
    EXPECT_EQ(st.message().rfind(
                  std::string("job 'h': mem=") + MemTypeName(m) + " needs 4 free huge pages of " +
                      std::to_string(hp.page_bytes >> 20) + " MiB for " +
                      std::to_string(3 * hp.page_bytes >> 20) + " MiB of I/O buffers",
                  0),
              0u)
        << st.message();
    EXPECT_NE(st.message().find("but HugePages_Free is " + std::to_string(hp.free_pages) +
                                " (reserve some in /proc/sys/vm/nr_hugepages)"),
              std::string::npos)
        << st.message();
    EXPECT_EQ(mem.base(), nullptr);
  }
}

// hugepage-size= (fio's name, with a dash) was an unknown option. As in
// fio, the huge page buffers are rounded up to it.
TEST(FilesOptionsMem, HugepageSizeRoundsTheBuffers) {
  EXPECT_EQ(ParseOne("[a]\n").hugepage_size, 2u << 20);  // fio's default
  EXPECT_EQ(ParseOne("[a]\nmem=mmaphuge\nhugepage-size=1g\n").hugepage_size, 1u << 30);
  TempDir d;
  auto bad = jobfile::ParseJobText("[a]\nhugepage-size=3k\n", "t.fio", d.path());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("hugepage-size 3072 is not a power of two"),
            std::string::npos)
      << bad.status().message();
  const HugePageInfo hp = ReadHugePageInfo();
  if (hp.page_bytes == 0) GTEST_SKIP() << "no huge pages in this kernel";
  if (hp.free_pages >= 8) GTEST_SKIP() << "this machine has free huge pages";
  JobSpec j;
  j.mem = JobSpec::MemType::kMmapHuge;
  j.hugepage_size = 8 * hp.page_bytes;
  IoMemory mem;
  const Status st = mem.Allocate(j, 4096, 4096, "job 'h'");
  EXPECT_EQ(st.code(), Status::Code::kResourceLimit);
  EXPECT_NE(st.message().find("needs 8 free huge pages"), std::string::npos) << st.message();
}

TEST(FilesOptionsMem, HugeTypesWorkWithFreeHugePages) {
  const HugePageInfo hp = ReadHugePageInfo();
  if (hp.page_bytes == 0 || hp.free_pages < 2)
    GTEST_SKIP() << "needs 2 free huge pages (HugePages_Free is " << hp.free_pages << ")";
  for (JobSpec::MemType m : {JobSpec::MemType::kShmHuge, JobSpec::MemType::kMmapHuge}) {
    JobSpec j;
    j.mem = m;
    IoMemory mem;
    const Status st = mem.Allocate(j, 65536, 4096, "job 'h'");
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(mem.mapped_bytes() % hp.page_bytes, 0u);
    std::memset(mem.base(), 2, 65536);
  }
}

// A whole job on each memory type: same bytes, and verify reads back what
// was written from those buffers.
TEST(FilesOptionsMem, JobRunsOnEveryNonHugeType) {
  TempDir dir("/dev/shm");
  using M = JobSpec::MemType;
  for (M m : {M::kMalloc, M::kShm, M::kMmap, M::kMmapShared}) {
    JobSpec j = FileJob("mem", RwMode::kWrite, dir.path() + "/f", 256 << 10);
    j.mem = m;
    j.mem_align = 512;
    j.verify.type = VerifyType::kCrc32c;
    j.verify.state_save = false;  // no state file in the working directory
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const JobResult& jr = r->groups[0].jobs[0];
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(jr.stats.dir[1].bytes, 256u << 10) << MemTypeName(m);
    EXPECT_EQ(jr.stats.dir[0].bytes, 256u << 10) << MemTypeName(m);  // the verify reads
  }
}

// ---------------------------------------------------------------- offsets

// fio aligns a percentage offset (and a percentage offset_increment) *up*,
// to offset_align or else the smallest block size; byte offsets stay as
// given. Checked against fio 3.33's write_iolog on a 100 KiB file.
TEST(FilesOptionsOffset, PercentOffsetsAlignUp) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/o";
  MakeFile(file, 100 << 10);
  JobSpec j = TestJob("off", RwMode::kRead, 4096, 16 << 10);
  j.filenames = {file};
  auto offset_of = [&](int jobnum) {
    auto r = ResolveTargets(j, jobnum, false);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? (*r)[0].region_offset : UINT64_MAX;
  };
  j.offset_percent = 10;  // 10240
  EXPECT_EQ(offset_of(0), 12288u);
  j.offset_align = 8192;
  EXPECT_EQ(offset_of(0), 16384u);
  j.offset_align = 1000;
  EXPECT_EQ(offset_of(0), 11000u);
  j.offset_percent = 0;
  j.offset = 10000;  // bytes: not aligned
  j.offset_align = 8192;
  EXPECT_EQ(offset_of(0), 10000u);
  j.offset = 0;
  j.offset_align = 0;
  j.offset_increment_percent = 10;
  EXPECT_EQ(offset_of(0), 0u);
  EXPECT_EQ(offset_of(1), 12288u);
  EXPECT_EQ(offset_of(2), 20480u);
}

// The block a percentage offset is rounded up to is the smallest of every
// direction, used or not (fio's td_min_bs): fio 3.33 on a 100 KiB file,
// rw=write bs=1k,8k offset=25% starts at 25600 (9 writes), and clone 1 of
// offset_increment=25% numjobs=2 size=16k too. iobench rounded to the
// write's 8k: 32768.
TEST(FilesOptionsOffset, PercentOffsetsAlignToTheSmallestBlockOfAnyDirection) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/o";
  MakeFile(file, 100 << 10);
  JobSpec j = TestJob("off", RwMode::kWrite, 8192, 0);
  j.filenames = {file};
  j.bs[0].min = j.bs[0].max = 1024;  // bs=1k,8k: the reads' size, unused
  auto offset_of = [&](int jobnum) {
    auto r = ResolveTargets(j, jobnum, false);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? (*r)[0].region_offset : UINT64_MAX;
  };
  j.offset_percent = 25;
  EXPECT_EQ(offset_of(0), 25600u);
  j.offset_percent = 0;
  j.offset_increment_percent = 25;
  j.size = 16 << 10;
  EXPECT_EQ(offset_of(0), 0u);
  EXPECT_EQ(offset_of(1), 25600u);
}

// A file that does not exist yet: percentages are of the size the job gives
// it (filesize=, or its share of size=), as fio's clones see it once laid
// out (fio 3.33, filename=shared filesize=1m offset=50% offset_increment=10%
// numjobs=3: 0x80000 on an existing file, 0x9a000, 0xb4000).
TEST(FilesOptionsOffset, PercentOffsetsOfAFileNotYetCreated) {
  TempDir dir("/dev/shm");
  JobSpec j = TestJob("off", RwMode::kWrite, 4096, 0);
  j.filenames = {dir.path() + "/missing"};
  j.filesize_min = j.filesize_max = 1 << 20;
  j.offset_percent = 50;
  j.offset_increment_percent = 10;
  for (uint64_t size : {uint64_t{0}, uint64_t{1} << 20}) {
    j.size = size;
    if (size != 0) j.filesize_min = j.filesize_max = 0;
    for (auto [jobnum, want] : {std::pair{0, 524288u}, {1, 630784u}, {2, 737280u}}) {
      auto r = ResolveTargets(j, jobnum, false);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ((*r)[0].region_offset, want) << "clone " << jobnum << " size " << size;
    }
  }
}

// size=N% with a percentage offset on an existing file: N% of the file, but
// no more than the region holds. fio 3.33, filesize=1m size=60% offset=50%
// on an existing 1 MiB file: the 128 blocks from 512 KiB to the end (iobench
// read 153, going round the region again for 25); offset=25%: 153 blocks.
TEST(FilesOptionsOffset, SizePercentWithPercentOffsetEndsAtTheRegionEnd) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/p";
  MakeFile(file, 1 << 20);
  JobSpec j = FileJob("pct", RwMode::kRead, file, 0);
  j.filesize_min = j.filesize_max = 1 << 20;
  j.size_percent = 60;
  j.offset_percent = 50;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, 128u);
  j.offset_percent = 25;
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, 153u);
}

TEST(FilesOptionsOffset, FileAppendStartsAtTheEnd) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/a";
  MakeFile(file, 100 << 10, 'o');
  JobSpec j = FileJob("app", RwMode::kWrite, file, 16 << 10);
  j.file_append = true;
  j.offset = 4096;  // ignored, as in fio
  auto t = ResolveTargets(j, 0, false);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)[0].region_offset, 102400u);
  EXPECT_EQ((*t)[0].needed_size, 118784u);
  j.zero_buffers = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[1].bytes, 16u << 10);
  ASSERT_EQ(fs::file_size(file), 118784u);
  std::ifstream in(file, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(data.find_first_not_of('o'), 102400u);                     // the old data is untouched
  EXPECT_EQ(data.find_first_not_of('\0', 102400), std::string::npos);  // the appended zeroes

  j.size = 0;  // no size: nothing to append
  auto bad = ResolveTargets(j, 0, false);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "job 'app': file_append=1 starts at the end of " + file +
                                        " (118784 bytes): set size= for how much to append");
}

// The null engine's file is its share of size=, and file_append=1 starts
// there, as fio 3.33's (it ignored file_append: loops=2 wrote 0..60k twice).
TEST(FilesOptionsOffset, FileAppendNullEngineStartsAtItsShare) {
  JobSpec j = TestJob("app", RwMode::kWrite, 4096, 64 << 10);
  j.ioengine = "null";
  j.file_append = true;
  j.loops = 2;
  j.nrfiles = 2;
  auto t = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->size(), 2u);
  for (const TargetFile& f : *t) {
    EXPECT_EQ(f.region_offset, 32u << 10) << f.path;
    EXPECT_EQ(f.region_size, 32u << 10) << f.path;
  }
  j.nrfiles = 1;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[1].ios, 16u);  // one pass, as on a regular file
}

// file_append=1 makes one pass over the appended region, as fio 3.33: its
// later loops start where the region ended (clear_io_state moves the offset
// to the size it laid out) and find nothing to do. loops=3 on a 20000-byte
// file wrote offsets 20000..32288 three times (12 writes); fio writes 4, and
// the file ends at 36384 either way. The same with io_size beyond size,
// time_based, two files.
TEST(FilesOptionsOffset, FileAppendMakesOnePass) {
  TempDir dir("/dev/shm");
  struct Case {
    const char* what;
    std::function<void(JobSpec*)> set;
    uint64_t writes;
  };
  const std::vector<Case> cases = {
      {"loops=3", [](JobSpec* j) { j->loops = 3; }, 4},
      {"io_size=48k", [](JobSpec* j) { j->io_size = 48 << 10; }, 4},
      {"time_based",
       [](JobSpec* j) {
         j->time_based = true;
         j->runtime_ns = 300'000'000;
       },
       4},
      {"two files loops=2",
       [&dir](JobSpec* j) {
         MakeFile(dir.path() + "/f2", 20000);
         j->filenames.push_back(dir.path() + "/f2");
         j->size = 32 << 10;
         j->loops = 2;
       },
       8},
  };
  for (const Case& c : cases) {
    const std::string file = dir.path() + "/f1";
    MakeFile(file, 20000);
    JobSpec j = FileJob("app", RwMode::kWrite, file, 16 << 10);
    j.file_append = true;
    c.set(&j);
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << c.what << ": " << r.status().ToString();
    const JobResult& jr = r->groups[0].jobs[0];
    EXPECT_EQ(jr.error, 0) << c.what << ": " << jr.error_message;
    EXPECT_EQ(jr.stats.dir[1].ios, c.writes) << c.what;
    EXPECT_EQ(jr.stats.dir[1].bytes, c.writes * 4096) << c.what;
    EXPECT_EQ(fs::file_size(file), 36384u) << c.what;
    bool noted = false;
    for (const std::string& n : jr.notes) noted |= n.rfind("file_append=1: one pass", 0) == 0;
    EXPECT_TRUE(noted) << c.what << ": " << ::testing::PrintToString(jr.notes);
  }
}

// Loops that fio 3.33 runs as one walk with a sync engine (LoopsRunAsOnePass:
// a random job whose passes end by bytes) have no later loop to find the
// region used up: with file_append=1 the walk goes on to size x loops bytes
// inside the appended region, as fio's (randwrite norandommap size=16k
// loops=3 on a 20000-byte file: 12 writes in [20000, 36384); iobench made 4).
TEST(FilesOptionsOffset, FileAppendJoinedLoopsWalkOn) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/f1";
  MakeFile(file, 20000);
  JobSpec j = FileJob("app", RwMode::kRandWrite, file, 16 << 10);
  j.file_append = true;
  j.norandommap = true;
  j.loops = 3;
  j.write_iolog = dir.path() + "/log";
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 12u);
  EXPECT_EQ(fs::file_size(file), 36384u);
  for (const std::string& n : jr.notes) EXPECT_NE(n.rfind("file_append=1: one pass", 0), 0u) << n;
  std::ifstream log(j.write_iolog);
  std::string line;
  int writes = 0;
  while (std::getline(log, line)) {
    std::istringstream in(line);
    std::string t, path, op;
    uint64_t off = 0;
    if (!(in >> t >> path >> op >> off) || op != "write") continue;
    ++writes;
    EXPECT_GE(off, 20000u) << line;
    EXPECT_LT(off, 36384u) << line;
  }
  EXPECT_EQ(writes, 12);
}

TEST(FilesOptionsOffset, ParsesAndRefuses) {
  JobSpec j = ParseOne("[a]\noffset=10%\noffset_align=8k\nfile_append=1\n");
  EXPECT_EQ(j.offset_align, 8192u);
  EXPECT_TRUE(j.file_append);
  EXPECT_EQ(ParseErr("[a]\noffset_align=-4k\n").rfind("t.fio:2:", 0), 0u);
}

// ---------------------------------------------------------- file lifecycle

// Each loop's file is removed and a new one written (fio: the last loop's
// file stays unless unlink=1). A 1 MiB file written 16 KiB per loop ends up
// 16 KiB: it was recreated, not overwritten.
TEST(FilesOptionsLifecycle, UnlinkEachLoopRecreatesTheFile) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/u";
  MakeFile(file, 1 << 20);
  JobSpec j = FileJob("uel", RwMode::kWrite, file, 16 << 10);
  j.loops = 3;
  j.unlink_each_loop = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].bytes, 3u * (16 << 10));
  EXPECT_EQ(fs::file_size(file), 16u << 10);
  j.unlink = true;
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(fs::exists(file));
}

// A reading job finds its file gone after the first loop, as in fio (ENOENT).
TEST(FilesOptionsLifecycle, UnlinkEachLoopReadJobFailsOnTheSecondLoop) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/r";
  MakeFile(file, 16 << 10);
  JobSpec j = FileJob("uelr", RwMode::kRead, file, 16 << 10);
  j.loops = 2;
  j.unlink_each_loop = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, ENOENT);
  // The report names the job: the message does not again.
  EXPECT_EQ(
      jr.error_message,
      "open " + file + ": No such file or directory (unlink_each_loop removed it after loop 1)");
  EXPECT_EQ(jr.stats.dir[0].bytes, 16u << 10);
}

TEST(FilesOptionsLifecycle, UnlinkEachLoopWithVerifyIsRefused) {
  JobSpec j = ParseOne("[a]\nrw=write\nsize=16k\nloops=2\nunlink_each_loop=1\nverify=crc32c\n");
  j.filenames = {"/dev/shm/iobench-files-never"};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'a': unlink_each_loop (t.fio:5) with verify (t.fio:6) is not supported: each "
            "loop's files are removed and created again");
  EXPECT_FALSE(fs::exists("/dev/shm/iobench-files-never"));
}

TEST(FilesOptionsLifecycle, CreateOnlyLaysOutAndDoesNoIo) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/c";
  JobSpec j = FileJob("co", RwMode::kRandRead, file, 64 << 10);
  j.create_only = true;
  j.verify.type = VerifyType::kCrc32c;  // no verify phase either
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(fs::file_size(file), 64u << 10);
  for (int d = 0; d < kNumDdirs; ++d) EXPECT_EQ(jr.stats.dir[d].ios, 0u);
  EXPECT_EQ(jr.notes, (std::vector<std::string>{"Laying out IO file (1 file / 64KiB)"}));
}

TEST(FilesOptionsLifecycle, AllowFileCreateZeroRefusesMissingFiles) {
  TempDir dir("/dev/shm");
  JobSpec j = ParseOne("[nc]\nrw=write\nsize=16k\nallow_file_create=0\n");
  j.filenames = {dir.path() + "/missing"};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'nc': " + dir.path() +
                                      "/missing does not exist, and allow_file_create=0 "
                                      "(t.fio:4) forbids creating it");
  EXPECT_FALSE(fs::exists(dir.path() + "/missing"));
  // An existing file (even a short one, which is extended) is fine.
  MakeFile(dir.path() + "/missing", 4096);
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[1].bytes, 16u << 10);
}

// create_serialize either way lays out every file; create_fsync=0 still
// writes the data (what it skips, the fsync, is checked in e2e with strace).
TEST(FilesOptionsLifecycle, CreateSerializeAndFsyncLayOutAllFiles) {
  TempDir dir("/var/tmp");
  for (bool serialize : {true, false}) {
    JobSpec j = TestJob("cs", RwMode::kRead, 4096, 256 << 10);
    j.ioengine = "psync";
    j.directory = dir.path();
    j.filename_format = serialize ? "s.$jobnum.$filenum" : "p.$jobnum.$filenum";
    j.nrfiles = 4;
    j.numjobs = 2;
    j.create_serialize = serialize;
    j.create_fsync = !serialize;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (int c = 0; c < 2; ++c)
      for (int f = 0; f < 4; ++f)
        EXPECT_EQ(fs::file_size(dir.path() + (serialize ? "/s." : "/p.") + std::to_string(c) + "." +
                                std::to_string(f)),
                  64u << 10);
  }
}

// ---------------------------------------------------------------- write_hint

TEST(FilesOptionsWriteHint, SetsTheInodeHint) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/h";
  MakeFile(file, 4096);
  {
    const int fd = open(file.c_str(), O_RDWR);
    uint64_t probe = 2;
    const bool ok = fcntl(fd, F_SET_RW_HINT, &probe) == 0;
    close(fd);
    if (!ok) GTEST_SKIP() << "this kernel/filesystem refuses F_SET_RW_HINT";
  }
  JobSpec j = ParseOne("[wh]\nrw=write\nsize=16k\nwrite_hint=long\n");
  EXPECT_EQ(j.write_hint, 4);  // RWH_WRITE_LIFE_LONG
  j.filenames = {file};
  j.ioengine = "psync";
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  const int fd = open(file.c_str(), O_RDONLY);
  uint64_t hint = 0;
  ASSERT_EQ(fcntl(fd, F_GET_RW_HINT, &hint), 0);
  close(fd);
  EXPECT_EQ(hint, 4u);
  EXPECT_NE(ParseErr("[a]\nwrite_hint=forever\n")
                .find("bad write_hint 'forever' (none, short, medium, long, extreme)"),
            std::string::npos);
}

// ---------------------------------------------------------- sync_file_range

TEST(FilesOptionsSyncFileRange, ParsesFlagsAndCount) {
  JobSpec j = ParseOne("[a]\nsync_file_range=wait_before,write,wait_after:8\n");
  EXPECT_EQ(j.sync_file_range_flags,
            static_cast<uint32_t>(SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                                  SYNC_FILE_RANGE_WAIT_AFTER));
  EXPECT_EQ(j.sync_file_range_blocks, 8u);
  j = ParseOne("[a]\nsync_file_range=write\n");  // fio: no count is every write
  EXPECT_EQ(j.sync_file_range_flags, static_cast<uint32_t>(SYNC_FILE_RANGE_WRITE));
  EXPECT_EQ(j.sync_file_range_blocks, 1u);
  EXPECT_EQ(ParseOne("[a]\nsync_file_range=write:0\n").sync_file_range_blocks, 0u);
  EXPECT_NE(ParseErr("[a]\nsync_file_range=flush:4\n")
                .find("bad sync_file_range flag 'flush' (wait_before, write, wait_after)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nsync_file_range=:4\n").find("bad sync_file_range flag ''"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nsync_file_range=write:-1\n")
                .find("sync_file_range count -1 must be 0 (never) or more"),
            std::string::npos);
  EXPECT_EQ(ParseErr("[a]\nsync_file_range=write:often\n").rfind("t.fio:2:", 0), 0u);
}

// 16 sequential writes, a sync_file_range every 4: 3 of them, none after the
// last write (fio 3.33 issues the same 3: 0+16k, 16k+16k, 32k+16k).
TEST(FilesOptionsSyncFileRange, EveryNWritesButNotAfterTheLast) {
  TempDir dir("/var/tmp");
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    JobSpec j = FileJob("sfr", RwMode::kWrite, dir.path() + "/s", 64 << 10);
    j.ioengine = engine;
    j.iodepth = 4;
    j.sync_file_range_blocks = 4;
    j.sync_file_range_flags = SYNC_FILE_RANGE_WRITE;
    auto r = RunJobs({j}, {});
    if (!r.ok() && r.status().code() == Status::Code::kUnsupported) continue;  // engine absent
    ASSERT_TRUE(r.ok()) << engine << ": " << r.status().ToString();
    const JobResult& jr = r->groups[0].jobs[0];
    EXPECT_EQ(jr.error, 0) << engine << ": " << jr.error_message;
    EXPECT_EQ(jr.stats.dir[1].ios, 16u) << engine;
    // As fio 3.33: only fsyncs count as issued syncs; the others show in the
    // sync latency alone (one sample each).
    EXPECT_EQ(jr.stats.sync_ios, 0u) << engine;
    EXPECT_EQ(jr.stats.sync_lat.n, 3u) << engine;
  }
}

TEST(FilesOptionsSyncFileRange, WithFsyncIsRefused) {
  JobSpec j = ParseOne("[a]\nrw=write\nsize=16k\nfsync=4\nsync_file_range=write:4\n");
  j.filenames = {"/dev/shm/iobench-files-never"};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'a': sync_file_range (t.fio:5) with fsync (t.fio:4) is not supported: give one "
            "way to sync");
}

// -------------------------------------------------------------- randomness

TEST(FilesOptionsRandom, AllrandrepeatMakesRandrepeatZeroRepeatable) {
  JobSpec j = TestJob("r", RwMode::kRandRead, 4096, 1 << 20);
  j.randrepeat = true;
  const uint64_t repeatable = DeriveSeed(j, 3);
  j.randrepeat = false;
  EXPECT_NE(DeriveSeed(j, 3), DeriveSeed(j, 3));  // 2^-64 chance of a false failure
  j.allrandrepeat = true;
  EXPECT_EQ(DeriveSeed(j, 3), repeatable);
  j.randseed = 42;  // an explicit seed still wins
  EXPECT_NE(DeriveSeed(j, 3), repeatable);
  EXPECT_TRUE(ParseOne("[a]\nallrandrepeat=1\n").allrandrepeat);
}

// A 1 EiB region's random map (2^48 blocks: 32 TiB of bits) cannot be
// allocated: an error that names the way out, or with softrandommap=1 the
// job runs without it (fio: 1000 I/Os, "Running job without").
TEST(FilesOptionsRandom, SoftrandommapRunsWithoutAMapThatDoesNotFit) {
  JobSpec j = TestJob("huge", RwMode::kRandRead, 4096, 1ull << 60);
  j.ioengine = "null";
  j.number_ios = 1000;
  j.random_generator = RandomGenerator::kTausworthe64;
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'huge': the random map of file 0 (281474976710656 blocks, 33554432 MiB) cannot "
            "be allocated: set norandommap=1, or softrandommap=1 to run without it");
  j.softrandommap = true;
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.stats.dir[0].ios, 1000u);
  ASSERT_FALSE(jr.notes.empty());
  EXPECT_EQ(jr.notes[0].rfind("softrandommap: the random map of file 0", 0), 0u) << jr.notes[0];
}

// ------------------------------------------------------------- exec hooks

class CwdGuard {
 public:
  explicit CwdGuard(const std::string& dir) : old_(fs::current_path()) { fs::current_path(dir); }
  ~CwdGuard() { fs::current_path(old_); }

 private:
  fs::path old_;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FilesOptionsExec, PrerunAndPostrunOutputGoesToFiles) {
  TempDir dir("/dev/shm");
  CwdGuard cwd(dir.path());
  JobSpec j = TestJob("pj", RwMode::kRead, 4096, 16 << 10);
  j.ioengine = "null";
  j.exec_prerun = "echo hello; echo err >&2";
  j.exec_postrun = "echo bye; exit 3";
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0);
  EXPECT_EQ(jr.stats.dir[0].bytes, 16u << 10);
  EXPECT_EQ(Slurp("pj.prerun.txt"), "hello\nerr\n");
  EXPECT_EQ(Slurp("pj.postrun.txt"), "bye\n");
  EXPECT_EQ(jr.notes, (std::vector<std::string>{
                          "exec_prerun: output in pj.prerun.txt",
                          "exec_postrun 'echo bye; exit 3' exited with status 3 (its output is "
                          "in pj.postrun.txt)"}));
}

TEST(FilesOptionsExec, FailingPrerunStopsTheJobBeforeAnyIo) {
  TempDir dir("/dev/shm");
  CwdGuard cwd(dir.path());
  JobSpec j = TestJob("pf", RwMode::kRead, 4096, 16 << 10);
  j.ioengine = "null";
  j.exec_prerun = "echo no; exit 1";
  j.exec_postrun = "touch post-ran";
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.error, ECANCELED);
  EXPECT_EQ(jr.error_message,
            "exec_prerun 'echo no; exit 1' exited with status 1 (its output is in "
            "pf.prerun.txt); the job did no I/O");
  EXPECT_EQ(jr.stats.dir[0].ios, 0u);
  EXPECT_EQ(Slurp("pf.prerun.txt"), "no\n");
  EXPECT_FALSE(fs::exists("post-ran"));
}

// ------------------------------------------------------------ zonemode

// zonemode=strided: parsed as fio parses it (zoneskip=Nz counts zones),
// refused where fio refuses or iobench leaves a case out (with file:line),
// and run on a real file: the zones walk past size= to the file's end, as
// fio 3.33's (its write_iolog: the 32nd read at block 181 of a 1 MiB file).
TEST(FilesOptionsZones, ParsedCheckedAndRunAsFio) {
  JobSpec z = ParseOne("[z]\nzonemode=strided\nzonesize=8k\nzonerange=16k\nzoneskip=2z\n");
  EXPECT_EQ(z.zone_mode, JobSpec::ZoneMode::kStrided);
  EXPECT_EQ(z.zone_size, 8192u);
  EXPECT_EQ(z.zone_range, 16384u);
  EXPECT_EQ(z.zone_skip, 2u);
  EXPECT_TRUE(z.zone_skip_zones);
  EXPECT_NE(ParseErr("[z]\nzonemode=diagonal\n").find("zonemode"), std::string::npos);
  const std::pair<std::string, std::string> refused[] = {
      {"zonemode=zbd\nzonesize=8k", "zonemode=zbd (t.fio:2): zoned block devices are not"},
      {"zonesize=8k", "zonesize (t.fio:2): needs zonemode=strided"},
      {"zonemode=strided", "zonemode=strided (t.fio:2): needs zonesize"},
      {"zonemode=strided\nzonesize=0",
       "zonemode=strided (t.fio:2): zonesize=0 (t.fio:3) must be above 0"},
      {"zonemode=strided\nzonesize=8k\nrw=randrw",
       "(t.fio:2): rw=randrw (t.fio:4) mixes directions, which is not supported"},
      {"zonemode=strided\nzonesize=8k\nnrfiles=2",
       "(t.fio:2): nrfiles=2 (t.fio:4) gives the job more than one file"},
      {"zonemode=strided\nzonesize=8k\nfilename=/dev/shm/a:/dev/shm/b",
       "(t.fio:2): filename=/dev/shm/a:/dev/shm/b (t.fio:4) gives the job more than one file"},
      {"zonemode=strided\nzonesize=8k\nrw=write\nverify=crc32c",
       "(t.fio:2): verify (t.fio:5) is not supported with it"},
  };
  for (const auto& [text, want] : refused) {
    JobSpec j = ParseOne("[z]\n" + text + "\nioengine=null\nsize=1m\n");
    Status st = CheckJobs({j}, {});
    EXPECT_NE(st.message().find(want), std::string::npos) << text << ": " << st.message();
  }

  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f", log = dir.path() + "/log";
  MakeFile(file, 1 << 20);
  JobSpec j = FileJob("z", RwMode::kRead, file, 128 << 10);
  j.zone_mode = JobSpec::ZoneMode::kStrided;
  j.zone_size = 8 << 10;
  j.zone_range = 16 << 10;
  j.zone_skip = 32 << 10;
  j.write_iolog = log;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups.at(0).jobs.at(0).stats.dir[0].ios, 32u);
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find(" read ") != std::string::npos) last = line;
  EXPECT_NE(last.find(" read " + std::to_string(181 * 4096) + " 4096"), std::string::npos) << last;
}

// ------------------------------------------------------------ fill_device

// fill_device on a 2 MiB tmpfs of its own: the job writes until the
// filesystem is full and ends there without an error (fio's 8 MiB run on an
// 8 MiB tmpfs wrote 8 MiB, exit 0), once even with time_based; with a size
// larger than the space the ENOSPC ends it (a note says so, nothing on
// stderr); random writes fill it too (fio 3.33 fails to allocate its random
// map); a job that reads is refused by name.
TEST(FilesOptionsFill, WritesUntilTheFilesystemIsFull) {
  testing::SmallTmpfs dir("2m");
  if (!dir.error().empty()) GTEST_SKIP() << dir.error();
  const std::string file = dir.path() + "/f";
  auto run = [&](JobSpec j) -> JobResult {
    unlink(file.c_str());
    auto r = RunJobs({j}, {});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->groups.at(0).jobs.at(0) : JobResult();
  };
  JobSpec j = FileJob("fill", RwMode::kWrite, file, 0);
  j.bs[1].min = j.bs[1].max = 64 << 10;
  j.fill_device = true;
  auto full_noted = [](const JobResult& r) {
    bool noted = false;
    for (const std::string& n : r.notes)
      noted |= n.rfind("fill_device: the filesystem was full", 0) == 0;
    return noted;
  };
  JobResult a = run(j);
  EXPECT_EQ(a.error, 0) << a.error_message;
  EXPECT_EQ(a.stats.dir[1].bytes, 2u << 20);
  // Without size= too, the job goes on to the write that finds the
  // filesystem full, as fio's (total_ios 33 on 2 MiB; it used to stop at 32).
  EXPECT_EQ(ReportedIos(a.stats.dir[1]), 33u);
  EXPECT_TRUE(full_noted(a));
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 2 << 20);
  // Blocks that do not divide the free space: the last one is written in
  // part and its rest fails, as in fio 3.33 (384k into 1 MiB of tmpfs: 4
  // I/Os, 1 short, the file 1 MiB). The region used to end at the free
  // space, which the last block did not fit in: no ENOSPC, 256k unwritten.
  j.bs[1].min = j.bs[1].max = 384 << 10;
  JobResult a2 = run(j);
  EXPECT_EQ(a2.error, 0) << a2.error_message;
  EXPECT_EQ(a2.stats.issued[1], 7u);  // 5 full writes, a short one and its rest
  EXPECT_EQ(a2.stats.dir[1].short_ios, 1u);
  EXPECT_EQ(a2.stats.dir[1].bytes, 5u * (384 << 10));
  EXPECT_TRUE(full_noted(a2));
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 2 << 20);
  j.bs[1].min = j.bs[1].max = 64 << 10;
  j.time_based = true;
  j.runtime_ns = 5'000'000'000ull;
  EXPECT_EQ(run(j).stats.dir[1].bytes, 2u << 20);  // one pass, not 5 s of overwrites
  j.time_based = false;
  j.size = 4 << 20;
  JobResult b = run(j);
  EXPECT_EQ(b.error, 0) << b.error_message;
  EXPECT_EQ(b.stats.dir[1].bytes, 2u << 20);
  EXPECT_TRUE(full_noted(b));
  j.size = 0;
  j.rw = RwMode::kRandWrite;
  j.ioengine = "libaio";
  j.iodepth = 4;
  JobResult c = run(j);
  EXPECT_EQ(c.error, 0) << c.error_message;
  EXPECT_EQ(c.stats.dir[1].bytes, 2u << 20);
  JobSpec rd = ParseOne("[r]\nrw=read\nfill_device=1\nfilename=" + file + "\n");
  EXPECT_NE(
      CheckJobs({rd}, {}).message().find("fill_device=1 (t.fio:3) needs rw=write or randwrite"),
      std::string::npos);
}

// io_submit_mode: inline (fio's default) is what iobench does; offload is
// refused at its line rather than run inline under another name.
TEST(FilesOptionsSubmitMode, InlineAcceptedOffloadRefused) {
  EXPECT_EQ(ParseOne("[a]\nio_submit_mode=inline\n").name, "a");
  EXPECT_EQ(ParseErr("[a]\nio_submit_mode=offload\n"),
            "t.fio:2:16: option 'io_submit_mode': io_submit_mode=offload (fio's pool of submission "
            "threads) is not supported by iobench: each job submits its own I/O (inline)\n"
            "io_submit_mode=offload\n               ^");
}

// ------------------------------------------------------------ flow

// flow=: two jobs of one flow_id issue I/O in the ratio of their weights
// (fio 3.33 on the same jobs: 17,724 and 5,909 reads in 1 s, 3.0:1). The
// flow holds a job back by counting, not by time, so the ratio holds
// however fast or late either runs. Both a and b run until a third job, c,
// outside the flow, ends and takes them with it (exitall): the two stop
// together, so neither runs alone for long and the ratio is the flow's
// whatever the machine's load. (A job of the flow that ends on its own
// leaves the others free, as fio's flow_exit_job does, and they run
// unchecked until they see the stop: a ratio measured that way depends on
// how soon they see it.) Without flow the two run at one speed, ratio 1.
// With flow_sleep the held-back job sleeps. A negative weight counts as
// its magnitude (fio's examples/butterfly.fio uses flow=-2 with flow=2).
TEST(FilesOptionsFlow, JobsOfAFlowRunInTheRatioOfTheirWeights) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  MakeFile(file, 4 << 20);
  for (uint64_t sleep_us : {uint64_t{0}, uint64_t{50}}) {
    JobSpec a = FileJob("a", RwMode::kRandRead, file, 4 << 20);
    a.time_based = true;
    a.runtime_ns = 60'000'000'000ull;  // ended by c's exitall long before
    a.flow = 3;
    a.flow_sleep_us = sleep_us;
    JobSpec b = a;
    b.name = "b";
    b.flow = -1;
    JobSpec c = FileJob("c", RwMode::kRandRead, file, 4 << 20);
    c.time_based = true;
    c.runtime_ns = 500'000'000ull;  // b: 2,500 reads here; about 100 with six busy loops
    c.exitall = true;
    auto r = RunJobs({a, b, c}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const auto& jobs = r->groups.at(0).jobs;
    const double ia = static_cast<double>(jobs.at(0).stats.dir[0].ios);
    const double ib = static_cast<double>(jobs.at(1).stats.dir[0].ios);
    ASSERT_GE(ib, 10) << "flow_sleep=" << sleep_us;  // enough for the ratio to mean something
    EXPECT_GT(ia / ib, 2.5) << ia << " / " << ib << ", flow_sleep=" << sleep_us;
    EXPECT_LT(ia / ib, 3.5) << ia << " / " << ib << ", flow_sleep=" << sleep_us;
  }
  // Another flow_id does not hold a job back.
  JobSpec c = FileJob("c", RwMode::kRead, file, 1 << 20);
  c.flow = 1;
  c.flow_id = 7;
  auto r = RunJobs({c}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups.at(0).jobs.at(0).stats.dir[0].ios, 256u);
}

}  // namespace
}  // namespace iobench
