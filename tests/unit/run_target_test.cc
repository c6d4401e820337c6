// ctest-labels: threads
// Targets: names, sizes, regions, layout, and the errors for bad targets.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>

#include "fake_engine.h"
#include "run/coordinator.h"
#include "run/target.h"
#include "stats/summary.h"
#include "sys/target.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;
using testing::TestJob;
namespace fs = std::filesystem;

TEST(RunTargetTest, DefaultNamesAndFilenameFormat) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 1 << 20);
  j.directory = "/data";
  j.nrfiles = 2;
  EXPECT_EQ(TargetPaths(j, 3), (std::vector<std::string>{"/data/job.3.0", "/data/job.3.1"}));
  j.filename_format = "f-$jobnum-$filenum.$jobname";
  EXPECT_EQ(TargetPaths(j, 1), (std::vector<std::string>{"/data/f-1-0.job", "/data/f-1-1.job"}));
  // fio 3.33 substitutes "" for $clientuid outside client/server mode.
  j.filename_format = "f.$clientuid.$jobname";
  EXPECT_EQ(TargetPaths(j, 0), (std::vector<std::string>{"/data/f..job", "/data/f..job"}));
  j.filenames = {"a", "/abs/b"};  // shared by every clone
  EXPECT_EQ(TargetPaths(j, 0), (std::vector<std::string>{"/data/a", "/abs/b"}));
  EXPECT_EQ(TargetPaths(j, 5), TargetPaths(j, 0));
}

// directory=a:b spreads the clones' generated files over both directories,
// round-robin by clone (fio); explicit filenames go to the first.
TEST(RunTargetTest, DirectoryListRoundRobin) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 1 << 20);
  j.directory = "/d1:/d2";
  EXPECT_EQ(TargetPaths(j, 0), (std::vector<std::string>{"/d1/job.0.0"}));
  EXPECT_EQ(TargetPaths(j, 1), (std::vector<std::string>{"/d2/job.1.0"}));
  EXPECT_EQ(TargetPaths(j, 2), (std::vector<std::string>{"/d1/job.2.0"}));
  j.filenames = {"f"};
  EXPECT_EQ(TargetPaths(j, 1), (std::vector<std::string>{"/d1/f"}));
}

// directory= escapes ':' as filename= does ("d1\:x" is the directory
// "d1:x"); fio 3.33 writes d1:x/a.0.0.
TEST(RunTargetTest, DirectoryEscapedColon) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 1 << 20);
  j.directory = "/d1\\:x:/d2";
  EXPECT_EQ(TargetPaths(j, 0), (std::vector<std::string>{"/d1:x/job.0.0"}));
  EXPECT_EQ(TargetPaths(j, 1), (std::vector<std::string>{"/d2/job.1.0"}));
  j.directory = "/d1\\:x";
  EXPECT_EQ(TargetPaths(j, 1), (std::vector<std::string>{"/d1:x/job.1.0"}));
}

TEST(RunTargetTest, SizesRegionsAndOffsetIncrement) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 1 << 20);
  j.filenames = {"x", "y"};
  j.offset = 8192;
  j.offset_increment = 1 << 20;
  auto r = ResolveTargets(j, 2, /*diskless=*/true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].region_size, 512u << 10);  // size is split over the files
  EXPECT_EQ((*r)[0].region_offset, 8192u + 2 * (1u << 20));
  EXPECT_EQ((*r)[1].needed_size, 8192u + 2 * (1u << 20) + (512u << 10));
}

// size=N% on an engine without files (null) is a share of nothing: the
// refusal says so and names the option (it said "the region of a.0.0 is
// smaller than the block size 4096"; fio: "you need to specify size=").
TEST(RunTargetTest, SizePercentWithoutAFileSaysWhy) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 0);
  j.ioengine = "null";
  j.size_percent = 50;
  j.settings.push_back({"size", "50%", OptionSource::kJob, "t.fio", 3});
  auto r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'job': size=50% at t.fio:3 is a share of the file's size, and ioengine=null has "
            "no file: set size= in bytes or filesize=");
  j.filesize_min = j.filesize_max = 1 << 20;  // a file size to take the share of
  EXPECT_TRUE(ResolveTargets(j, 0, true).ok());
}

// offset_increment past 2^64: the sums wrapped, and clone 2 of
// offset_increment=8191p numjobs=3 size=3p read at 0.12P, inside clone 0's
// region (fio 3.33 wraps the offset too). Refused, naming the options.
TEST(RunTargetTest, OffsetIncrementPast2To64IsRefused) {
  JobSpec j = TestJob("a", RwMode::kRandRead, 1 << 20, 3ull << 50);
  j.ioengine = "null";
  j.numjobs = 4;
  j.offset_increment = 8191ull << 50;
  j.settings.push_back({"offset_increment", "8191p", OptionSource::kJob, "t.fio", 5});
  ASSERT_TRUE(ResolveTargets(j, 1, /*diskless=*/true).ok());
  auto r = ResolveTargets(j, 2, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("clone 2 of numjobs=4): the region from offset "),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("lower offset_increment or numjobs"), std::string::npos);
  r = ResolveTargets(j, 3, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(
      r.status().message().find("3 x offset_increment=8191p at t.fio:5 is past the 2^64-byte end"),
      std::string::npos)
      << r.status().message();
  // With filesize= the region ends at the file's end: a clone past it is a
  // region of nothing that fails alone (no_block), whatever offset + size is.
  JobSpec sized = TestJob("x", RwMode::kRead, 4096, 0);
  sized.ioengine = "null";
  sized.numjobs = 4;
  sized.filesize_min = sized.filesize_max = 8000ull << 50;
  sized.offset_increment = 4000ull << 50;
  ASSERT_TRUE(ResolveTargets(sized, 1, /*diskless=*/true).ok());
  bool no_block = false;
  r = ResolveTargets(sized, 3, /*diskless=*/true, nullptr, &no_block);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(no_block) << r.status().message();
  EXPECT_NE(r.status().message().find("is beyond the end of"), std::string::npos)
      << r.status().message();
}

// A region smaller than the block: the refusal names where the region and
// the block come from (it said only "the region of j1.0.0 is smaller than
// the block size 65536"; fio runs such a job and does nothing).
TEST(RunTargetTest, RegionSmallerThanTheBlockNamesItsOptions) {
  JobSpec j = TestJob("j1", RwMode::kRead, 65536, 100000);
  j.ioengine = "null";
  j.nrfiles = 3;
  j.settings.push_back({"bs", "64k", OptionSource::kJob, "t.fio", 3});
  j.settings.push_back({"size", "100000", OptionSource::kJob, "t.fio", 4});
  bool no_block = false;
  auto r = ResolveTargets(j, 0, /*diskless=*/true, nullptr, &no_block);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'j1': the region of j1.0.0 is 33333 bytes (size=100000 at t.fio:4 over 3 "
            "files), smaller than the bs=65536 (read, at t.fio:3): no I/O fits; lower bs or "
            "raise size");
  // Said apart from the other errors: the coordinator fails such a numjobs
  // clone alone, as fio does, where it refuses the run for the others.
  EXPECT_TRUE(no_block);
  // A one-size bssplit (which leaves no split behind) is named as such: the
  // message said "bs=65536 (read)", an option the job file did not have.
  JobSpec split = j;
  split.settings[0] = {"bssplit", "64k/100", OptionSource::kGlobal, "t.fio", 2};
  r = ResolveTargets(split, 0, /*diskless=*/true, nullptr, &no_block);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "smaller than the block size 65536 (read, bssplit=64k/100 at t.fio:2)"),
            std::string::npos)
      << r.status().message();
  JobSpec sized = j;
  sized.size = 0;
  sized.size_percent = 50;
  sized.filesize_min = sized.filesize_max = 0;
  EXPECT_FALSE(ResolveTargets(sized, 0, true, nullptr, &no_block).ok());
  EXPECT_FALSE(no_block);
  j.rw = RwMode::kTrim;  // the trim block, with an offset
  j.bs[2].min = j.bs[2].max = 1 << 20;
  j.size = 2 << 20;  // 699050 bytes per file
  j.offset = 8192;
  j.settings.push_back({"offset", "8k", OptionSource::kJob, "t.fio", 5});
  r = ResolveTargets(j, 0, true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("from offset 8192 (offset=8k at t.fio:5)), smaller than "
                                      "the bs=1048576 (trim, at t.fio:3)"),
            std::string::npos)
      << r.status().message();
}

// filesize= makes each file that big, as fio: the region runs from the
// offset to the end of the file, and the file is not grown past filesize.
// size= is not split over the files then (the worker caps the job's bytes).
TEST(RunTargetTest, FilesizeRegionEndsAtTheFileEnd) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 0);
  j.filenames = {"x", "y"};
  j.filesize_min = j.filesize_max = 1 << 20;
  j.offset = 100 << 10;
  j.offset_increment = 100 << 10;
  auto r = ResolveTargets(j, 1, /*diskless=*/true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].region_offset, 200u << 10);
  EXPECT_EQ((*r)[0].region_size, (1u << 20) - (200u << 10));
  EXPECT_EQ((*r)[1].needed_size, 1u << 20);
  j.size = 512 << 10;  // not divided: each file keeps its whole region
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[1].region_size, (1u << 20) - (100u << 10));
  j.offset = 1 << 20;  // nothing left of the file
  r = ResolveTargets(j, 0, true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("offset 1048576 is beyond the end of"), std::string::npos)
      << r.status().message();
}

// The null engine's offset=N% is of its share of size=, whatever filesize=
// says, as fio 3.33's (filesize=1m size=512k offset=25%: fio's write_iolog
// starts at 128 KiB; iobench started at 256 KiB, 25% of filesize). Without
// size= it is of filesize= (fio refuses: "you need to specify valid offset=").
TEST(RunTargetTest, NullEngineOffsetPercentIsOfSize) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 512 << 10);
  j.ioengine = "null";
  j.filesize_min = j.filesize_max = 1 << 20;
  j.offset_percent = 25;
  auto r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_offset, 128u << 10);
  j.nrfiles = 2;  // each file's share: 256 KiB, so 64 KiB in
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[1].region_offset, 64u << 10);
  j.nrfiles = 1;
  j.size = 0;
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_offset, 256u << 10);
}

// The null engine on a device (here /dev/zero; a FIFO too) ends the region
// at size= / nrfiles, as fio 3.33, whose file there does not grow to
// offset + size as a regular file's does: size=64k offset=8k is 56 KiB (it
// was 64 KiB: 16 I/Os of 4k, fio 14). filesize= below the share ends it
// first. A regular file, existing or not, keeps [offset, offset + size).
TEST(RunTargetTest, NullEngineOnADeviceEndsAtSize) {
  JobSpec j = TestJob("job", RwMode::kWrite, 4096, 64 << 10);
  j.ioengine = "null";
  j.offset = 8 << 10;
  j.filenames = {"/dev/zero"};
  auto r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_offset, 8u << 10);
  EXPECT_EQ((*r)[0].region_size, 56u << 10);
  j.filesize_min = j.filesize_max = 32 << 10;
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_size, 24u << 10);
  j.filesize_min = j.filesize_max = 128 << 10;
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_size, 56u << 10);
  j.filesize_min = j.filesize_max = 0;
  j.offset = 64 << 10;  // at the end: no region (fio does no I/O)
  r = ResolveTargets(j, 0, true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ioengine=null on a device"), std::string::npos)
      << r.status().message();
  TempDir dir;
  j.offset = 8 << 10;
  j.filenames = {dir.path() + "/missing"};
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_size, 64u << 10);
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  j.filenames = {fifo};
  r = ResolveTargets(j, 0, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].region_size, 56u << 10);
}

// filesize=lo-hi draws each file's size from the clone's seed, as fio's
// get_rand_file_size(): lo + uniform below hi - lo, rounded down to the
// smallest block. fio 3.33 on nrfiles=5 filesize=100k-300k bs=4k: 128k,
// 160k, 156k, 276k, 252k; iobench used to give every file 288k whatever the
// seed (its hash only changed bits that the rounding removed).
TEST(RunTargetTest, FilesizeRangeDrawsEachFileFromTheSeed) {
  JobSpec j = TestJob("job", RwMode::kWrite, 4096, 0);
  j.nrfiles = 5;
  j.filesize_min = 100 << 10;
  j.filesize_max = 300 << 10;
  auto sizes = [&](int jobnum) {
    auto r = ResolveTargets(j, jobnum, /*diskless=*/true);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    std::vector<uint64_t> out;
    for (const auto& t : *r) {
      EXPECT_EQ(t.region_size, t.needed_size);
      out.push_back(t.region_size);
    }
    return out;
  };
  const std::vector<uint64_t> a = sizes(0);
  ASSERT_EQ(a.size(), 5u);
  std::set<uint64_t> distinct(a.begin(), a.end());
  EXPECT_GE(distinct.size(), 4u);  // 5 draws from 50 sizes
  for (uint64_t s : a) {
    EXPECT_EQ(s % 4096, 0u);
    EXPECT_GE(s, 100u << 10);
    EXPECT_LT(s, 300u << 10);
  }
  EXPECT_EQ(sizes(0), a);  // repeatable
  EXPECT_NE(sizes(1), a);  // each clone draws its own
  j.randseed = 42;
  const std::vector<uint64_t> b = sizes(0);
  EXPECT_NE(b, a);
  EXPECT_EQ(sizes(0), b);
  // Over many files: every 4k multiple in [100k, 300k) turns up, no other.
  j.nrfiles = 4000;
  std::set<uint64_t> seen;
  for (uint64_t s : sizes(0)) seen.insert(s);
  EXPECT_EQ(seen.size(), 50u);
  EXPECT_EQ(*seen.begin(), 100u << 10);
  EXPECT_EQ(*seen.rbegin(), 296u << 10);
  // A low end that is not a multiple of the block rounds down, as fio
  // (filesize=10k-12k with bs=4k: 8k files).
  j.nrfiles = 3;
  j.filesize_min = 10 << 10;
  j.filesize_max = 12 << 10;
  EXPECT_EQ(sizes(0), (std::vector<uint64_t>{8192, 8192, 8192}));
  // A range whose top is below one block is refused, as filesize=4k with
  // bs=16k is (fio: "blocksize is larger than data set range"); it laid out
  // 16k files for filesize=4k-8k.
  j.bs[0].min = j.bs[0].max = j.bs[1].min = j.bs[1].max = 16384;
  j.filesize_min = 4 << 10;
  j.filesize_max = 8 << 10;
  auto r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("8192 bytes"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("smaller than the bs=16384"), std::string::npos)
      << r.status().ToString();
  // size=N% of a filesize= file under one block is no I/O either (it became
  // the whole file: size=10% filesize=32k wrote 32k).
  j = TestJob("job", RwMode::kWrite, 4096, 0);
  j.filesize_min = j.filesize_max = 32 << 10;
  j.size_percent = 10;
  r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is 3276 bytes (size=10% of filesize=32768"),
            std::string::npos)
      << r.status().ToString();
  j.size_percent = 25;  // 8k: two blocks, as the worker's cap then issues
  EXPECT_TRUE(ResolveTargets(j, 0, /*diskless=*/true).ok());
}

// Clones that share a file (filename= without $jobnum) give it one size:
// each drew its own (53248, 45056, 53248 for filesize=16k-64k numjobs=3),
// fio gives every clone the first one's.
TEST(RunTargetTest, FilesizeRangeOfASharedFileIsOneSize) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 0);
  j.filenames = {"/nonexistent/shared"};
  j.numjobs = 3;
  j.filesize_min = 16 << 10;
  j.filesize_max = 64 << 10;
  std::set<uint64_t> seen;
  for (int jobnum = 0; jobnum < 3; ++jobnum) {
    for (uint64_t seed : {0ull, 7ull, 42ull}) {
      j.randseed = seed;
      auto r = ResolveTargets(j, jobnum, /*diskless=*/true);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ASSERT_EQ(r->size(), 1u);
      if (seed == 42) seen.insert((*r)[0].region_size);
    }
  }
  EXPECT_EQ(seen.size(), 1u);
}

// size= with filesize= caps the job's bytes per pass across its files (fio
// 3.33: nrfiles=2 filesize=1m size=1m reads 1 MiB, not 2).
TEST(RunTargetTest, SizeCapsAJobWithFilesize) {
  JobSpec j = TestJob("job", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "null";
  j.nrfiles = 2;
  j.filesize_min = j.filesize_max = 1 << 20;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, 256u);
  j.size = 3 << 20;  // more than the files hold: one pass over both
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, 512u);
}

// size=N% with filesize=: N% of each file, in whole blocks, summed; the
// counts are fio 3.33's on the same jobs (with offset=N%, on an existing
// 1 MiB file: fio's null engine refuses a percentage offset with filesize).
TEST(RunTargetTest, SizePercentWithFilesizeIsAShareOfEachFile) {
  struct Case {
    uint32_t nrfiles, pct;
    uint64_t bs, offset, offset_pct, loops, ios;
  };
  for (const Case& c :
       {Case{1, 25, 4096, 0, 0, 1, 64},           // 256 KiB of 1 MiB
        Case{1, 25, 4096, 512 << 10, 0, 1, 64},   // from 512 KiB: still of the file
        Case{1, 60, 4096, 0, 50, 1, 128},         // offset=50%: to the region's end
        Case{1, 60, 4096, 0, 25, 1, 153},         // offset=25%: the region holds 60%
        Case{1, 60, 4096, 512 << 10, 0, 1, 128},  // offset=512k: fio stops at the end
        Case{1, 10, 65536, 0, 0, 1, 1},           // 102.4 KiB is one 64k block
        Case{2, 30, 4096, 0, 0, 2, 304}}) {       // 2 x 76 blocks, twice
    JobSpec j = TestJob("job", RwMode::kRead, c.bs, 0);
    j.ioengine = "null";
    j.nrfiles = c.nrfiles;
    j.filesize_min = j.filesize_max = 1 << 20;
    j.size_percent = c.pct;
    j.offset = c.offset;
    j.offset_percent = c.offset_pct;
    j.loops = c.loops;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].ios, c.ios) << c.pct << "% bs " << c.bs;
  }
}

// filesize= with size=N%: as fio 3.33, the region is the first N% of the
// file (from the offset), and a new file is laid out to its end only. The
// region was the whole file with the bytes capped: filesize=1m size=50%
// randread spread its 512 KiB over the MiB and laid out 1 MiB; fio reads
// blocks 0-7 of 64k and lays out 512 KiB. And a file whose size is within
// the filesize= range keeps it (fio: 1 MiB for filesize=256k-1m on a 1 MiB
// file; a drawn size was used, 704 KiB for seed 0).
TEST(RunTargetTest, FilesizeShareAndRangeAreFiosRegions) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/f";
  JobSpec j = TestJob("share", RwMode::kRandRead, 65536, 0);
  j.ioengine = "psync";
  j.filenames = {file};
  j.filesize_min = j.filesize_max = 1 << 20;
  j.size_percent = 50;
  auto t = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)[0].region_offset, 0u);
  EXPECT_EQ((*t)[0].region_size, 512u << 10);
  EXPECT_EQ((*t)[0].needed_size, 512u << 10);
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(fs::file_size(file), 512u << 10);  // every read is in the laid-out part
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].bytes, 512u << 10);
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].short_ios, 0u);
  // 30% of 1 MiB is 314572.8 bytes: 76 blocks of 4k.
  j.bs[0].min = j.bs[0].max = 4096;
  j.size_percent = 30;
  t = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)[0].region_size, 76u * 4096);
  // A byte offset: the share is of the file, and ends at its end.
  j.offset = 896 << 10;
  t = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)[0].region_offset, 896u << 10);
  EXPECT_EQ((*t)[0].region_size, 128u << 10);
  EXPECT_EQ((*t)[0].needed_size, 1u << 20);
  // In the range: the file's own size; out of it: a drawn one.
  j.offset = 0;
  j.size_percent = 0;
  j.filesize_min = 256 << 10;
  for (uint64_t size : {uint64_t{1} << 20, uint64_t{256} << 10, uint64_t{600} << 10}) {
    fs::resize_file(file, size);
    t = ResolveTargets(j, 0, /*diskless=*/false);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ((*t)[0].region_size, size);
  }
  fs::resize_file(file, 2 << 20);
  t = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_GE((*t)[0].region_size, 256u << 10);
  EXPECT_LT((*t)[0].region_size, 1u << 20);
}

TEST(RunTargetTest, MissingSizeIsAnError) {
  TempDir dir("/dev/shm");
  JobSpec j = TestJob("nosize", RwMode::kRead, 4096, 0);
  j.filenames = {dir.path() + "/missing"};
  auto r = ResolveTargets(j, 0, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'nosize': size is not set and " + dir.path() +
                                      "/missing does not exist or is empty (set size= or "
                                      "filesize=)");
  // From a job file: where size= was looked for, the job's section.
  j.job_file = "j.fio";
  j.line = 7;
  j.section = "sec";
  r = ResolveTargets(j, 0, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'nosize': size is not set in [sec] (j.fio:7) nor in "
            "[global], and " +
                dir.path() +
                "/missing does not exist or is empty (set size= or "
                "filesize=)");
}

// size=0 (or 0%) is "not set" as in fio, but the message names the line
// that set it ("size is not set" sent the user looking for a missing line);
// a directory= that is not there names its line too.
TEST(RunTargetTest, SizeZeroAndMissingDirectoryNameTheirLine) {
  JobSpec j = TestJob("z", RwMode::kRead, 4096, 0);
  j.settings.push_back({"size", "0%", OptionSource::kJob, "t.fio", 3});
  auto r = ResolveTargets(j, 0, /*diskless=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'z': size=0% at t.fio:3 sets no size and the null engine has no file to size "
            "from (set size= above 0, or filesize=)");
  TempDir dir("/dev/shm");
  j = TestJob("d", RwMode::kRead, 4096, 1 << 20);
  j.directory = dir.path() + "/nonexist";
  j.settings.push_back({"directory", j.directory, OptionSource::kJob, "t.fio", 5});
  r = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'd': directory=" + j.directory + " (t.fio:5): No such file or directory");
}

// fio runs on /dev/null (writes) and /dev/zero (reads): so does iobench, with
// the job's size, no layout and no page-cache handling; exact byte counts.
TEST(RunTargetTest, DevNullAndDevZeroRunAsInFio) {
  for (auto [path, rw] : {std::pair<const char*, RwMode>{"/dev/null", RwMode::kWrite},
                          {"/dev/zero", RwMode::kRandRead},
                          {"/dev/null", RwMode::kRandWrite}}) {
    JobSpec j = TestJob("dev", rw, 4096, 1 << 20);
    j.ioengine = "psync";
    j.filenames = {path};
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << path << ": " << r.status().ToString();
    const JobResult& jr = r->groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.error, 0) << path;
    EXPECT_EQ(jr.stats.dir[HasRead(rw) ? 0 : 1].bytes, 1u << 20) << path;
  }
  JobSpec nosize = TestJob("dev", RwMode::kWrite, 4096, 0);
  nosize.ioengine = "psync";
  nosize.filenames = {"/dev/null"};
  auto r = RunJobs({nosize}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'dev': target /dev/null is a character device and has no size: set size=");
}

// pre_read reads the file between checks of the run's stop flag: Ctrl-C
// waited for the whole file (6 s for 6 GiB from disk; fio stops at once).
// A run stopped there lists its job interrupted, with no error (a stop, not
// a failed set-up).
TEST(RunTargetTest, PreReadStopsAtASignal) {
  TempDir dir("/dev/shm");
  const std::string path = dir.path() + "/pr";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(4 << 20, 'x');
  }
  TargetFile t;
  t.path = path;
  t.exists = true;
  t.current_size = t.needed_size = t.region_size = 4 << 20;
  std::atomic<int> stop{0};
  EXPECT_TRUE(PreReadTarget(-1, t, &stop).ok());
  stop.store(SIGINT);
  Status st = PreReadTarget(-1, t, &stop);
  EXPECT_EQ(st.code(), Status::Code::kInterrupted) << st.ToString();
  EXPECT_EQ(st.message(), "pre_read: " + path + ": interrupted by a signal");

  JobSpec j = TestJob("pr", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "psync";
  j.pre_read = true;
  j.filenames = {path};
  stop.store(0);
  RunOptions o;
  o.stop_signal = &stop;
  // The signal comes as the workers are made (the engine on the main
  // thread, just before they start and pre-read).
  o.engine_factory = [&stop](const JobSpec& job) {
    stop.store(SIGINT);
    return FindEngine(job.ioengine)->factory();
  };
  auto r = RunJobs({j}, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->interrupted);
  EXPECT_EQ(r->exit_code, 130);
  ASSERT_EQ(r->groups.at(0).jobs.size(), 1u);
  EXPECT_TRUE(r->groups[0].jobs[0].interrupted);
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  EXPECT_EQ(std::filesystem::file_size(path), 4u << 20);
}

TEST(RunTargetTest, BadTargetsAreRefused) {
  TempDir dir("/dev/shm");
  JobSpec j = TestJob("bad", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "psync";
  j.filenames = {dir.path()};
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'bad': target " + dir.path() +
                                      " is a directory (use directory= for a directory of files)");
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  j.filenames = {fifo};
  r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'bad': target " + fifo + " is not a regular file or block device");
  // Reading /dev/null gives nothing (fio fails the job with EIO): refused,
  // saying what to use instead. Other character devices are refused too.
  j.filenames = {"/dev/null"};
  r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'bad': target /dev/null returns nothing to read (fio fails the job with EIO); "
            "read /dev/zero, or use ioengine=null");
  if (access("/dev/tty", F_OK) == 0) {
    j.filenames = {"/dev/tty"};
    r = RunJobs({j}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(),
              "job 'bad': target /dev/tty is a character device; iobench runs on regular files, "
              "block devices, /dev/null and /dev/zero (ioengine=null runs without any target)");
  }
  j.filenames = {"/dev/iobench-no-such-disk"};
  r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.status().message(), "job 'bad': device /dev/iobench-no-such-disk does not exist");
  // A link to such a name: creating the file would follow it and put a
  // regular file among the device nodes (unlink=1 then removed the link
  // only). Absolute and relative links alike.
  ASSERT_EQ(symlink("/dev/iobench-no-such-disk", (dir / "abs").c_str()), 0);
  ASSERT_EQ(symlink("../../../dev/iobench-no-such-disk", (dir / "rel").c_str()), 0);
  for (const char* link : {"abs", "rel"}) {
    j.filenames = {dir / link};
    r = RunJobs({j}, {});
    ASSERT_FALSE(r.ok()) << link;
    EXPECT_EQ(r.status().message(), "job 'bad': " + (dir / link) +
                                        " is a link to /dev/iobench-no-such-disk, a device that "
                                        "does not exist");
  }
  EXPECT_NE(access("/dev/iobench-no-such-disk", F_OK), 0);
}

// invalidate drops the job's region only, as fio's file_invalidate_cache:
// the pages of the rest of a shared file stay cached (mincore, on ext4: a
// tmpfs page cannot be dropped). It dropped the whole file.
TEST(RunTargetTest, InvalidateDropsOnlyTheJobsRegion) {
  TempDir dir("/var/tmp");
  const std::string path = dir.path() + "/f";
  constexpr size_t kLen = 1 << 20;
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(kLen, 'x');
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(fsync(fd), 0);  // clean pages: DONTNEED leaves dirty ones
  std::vector<char> buf(kLen);
  ASSERT_EQ(pread(fd, buf.data(), kLen, 0), static_cast<ssize_t>(kLen));  // all cached
  TargetFile t;
  t.path = path;
  t.exists = true;
  t.current_size = t.needed_size = kLen;
  t.region_offset = 256 << 10;
  t.region_size = 256 << 10;
  ASSERT_TRUE(InvalidateTarget(fd, t).ok());
  void* map = mmap(nullptr, kLen, PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(map, MAP_FAILED);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in(kLen / page);
  ASSERT_EQ(mincore(map, kLen, in.data()), 0);
  munmap(map, kLen);
  close(fd);
  auto cached = [&](size_t from, size_t to) {
    size_t n = 0;
    for (size_t i = from / page; i < to / page; ++i) n += in[i] & 1;
    return n;
  };
  // Within the region the kernel drops what it can: a large folio that
  // reaches past the region stays (6.18's ext4 reads this file into such
  // folios), so only the pages outside are checked.
  EXPECT_EQ(cached(0, 256 << 10), (256u << 10) / page) << "pages before the region were dropped";
  EXPECT_EQ(cached(512 << 10, kLen), (512u << 10) / page) << "pages after the region were dropped";
}

// direct=1 on a device of 4096-byte sectors: a bssplit size is checked as
// it is issued, rounded down to the direction's smallest (fio 3.33 runs
// bssplit=4k/50:6k/50 there: every I/O is 4k); with bs_unaligned it is
// issued as it is, and refused.
TEST(RunTargetTest, DirectAlignmentChecksBsSplitSizesAsIssued) {
  TargetFile t;
  t.path = "/dev/fake";
  t.exists = true;
  t.is_block_device = true;
  t.logical_block_size = 4096;
  t.current_size = t.needed_size = t.region_size = 1 << 20;
  JobSpec job = TestJob("j", RwMode::kRandRW, 4096, 1 << 20);
  job.direct = true;
  job.bs[0] = {4096, 6144, {{4096, 50}, {6144, 50}}};
  job.bs[1] = {8192, 12288, {{8192, 50}, {12288, 50}}};
  EXPECT_TRUE(CheckDirectAlignment(job, t, 1).ok());
  job.bs_unaligned = true;
  EXPECT_FALSE(CheckDirectAlignment(job, t, 1).ok());
  job.bs_unaligned = false;
  job.bs[1] = {6144, 8192, {{6144, 50}, {8192, 50}}};  // 6k is the smallest: issued
  EXPECT_FALSE(CheckDirectAlignment(job, t, 1).ok());
  // A range issues multiples of its minimum (4k-10k: 4k and 8k), any byte
  // count with bs_unaligned.
  job.bs[1] = {4096, 10240, {}};
  EXPECT_TRUE(CheckDirectAlignment(job, t, 1).ok());
  job.bs_unaligned = true;
  job.bs[0] = {4096, 4096, {}};
  EXPECT_FALSE(CheckDirectAlignment(job, t, 1).ok());
  // Both ends of the range on the grid: the sizes between are not.
  job.bs[1] = {4096, 12288, {}};
  EXPECT_FALSE(CheckDirectAlignment(job, t, 1).ok());
  job.bs[1] = {4096, 4096, {}};
  EXPECT_TRUE(CheckDirectAlignment(job, t, 1).ok());
}

// A trim of a file punches a hole, which frees only the file system blocks
// wholly inside it: trims smaller than a block, or off the block grid, are
// warned about (512-byte trims of a written file freed nothing on ext4 with
// 1 KiB blocks, xfs and btrfs), with or without direct=1; trims of whole
// blocks are not.
TEST(RunTargetTest, FileTrimWarningNamesTheBlockSize) {
  TempDir dir("/var/tmp");
  const std::string path = dir.path() + "/f";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(1 << 20, 'x');
    ASSERT_TRUE(out.good());
  }
  struct statfs sfs;
  ASSERT_EQ(statfs(path.c_str(), &sfs), 0);
  const uint64_t block = static_cast<uint64_t>(sfs.f_bsize);
  if (block < 1024) GTEST_SKIP() << "blocks of " << block << " bytes";
  TargetFile t;
  t.path = path;
  t.exists = true;
  t.current_size = t.needed_size = t.region_size = 1 << 20;
  JobSpec job = TestJob("t", RwMode::kTrim, 512, 1 << 20);
  const auto fs = sys::FsTypeName(path);
  ASSERT_TRUE(fs.ok());
  EXPECT_EQ(FileTrimWarning(job, t, 1),
            "job 't': trims with bs=512 (trim) on " + path + " (" + *fs +
                "): a trim of a file punches a hole (fallocate PUNCH_HOLE), which frees only the "
                "blocks wholly inside it, here of " +
                std::to_string(block) +
                " bytes (statfs f_bsize), and writes zeros over the parts of blocks it covers, "
                "so these trims free nothing though the report counts every byte as trimmed; "
                "set the block sizes (bs, bsrange, bssplit) to multiples of " +
                std::to_string(block));
  job.direct = true;
  EXPECT_NE(FileTrimWarning(job, t, 1), "");
  // Larger than a block, off its grid: some blocks are freed.
  job.bs[2] = {block + 512, block + 512, {}};
  EXPECT_NE(FileTrimWarning(job, t, 1).find("these trims free less than they count"),
            std::string::npos);
  // Whole blocks: freed.
  job.bs[2] = {block, block, {}};
  EXPECT_EQ(FileTrimWarning(job, t, 1), "");
  job.bs[2] = {2 * block, 2 * block, {}};
  EXPECT_EQ(FileTrimWarning(job, t, 1), "");
  // An offset off the grid.
  t.region_offset = 512;
  EXPECT_NE(FileTrimWarning(job, t, 1).find("trims with offset 512"), std::string::npos);
  t.region_offset = 0;
  // Jobs that do not trim, and block devices (refused by
  // CheckDirectAlignment instead).
  job.bs[2] = {512, 512, {}};
  job.rw = RwMode::kRandWrite;
  EXPECT_EQ(FileTrimWarning(job, t, 1), "");
  job.rw = RwMode::kTrim;
  t.is_block_device = true;
  EXPECT_EQ(FileTrimWarning(job, t, 1), "");
}

TEST(RunTargetTest, LayoutCreatesExtendsNeverShrinks) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/f";
  JobSpec j = TestJob("lay", RwMode::kRead, 4096, 256 << 10);
  j.ioengine = "psync";
  j.filenames = {file};
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(fs::file_size(file), 256u << 10);
  EXPECT_EQ(r->groups[0].jobs[0].notes,
            (std::vector<std::string>{"Laying out IO file (1 file / 256KiB)"}));
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[0].bytes, 256u << 10);
  // Larger region: extended.
  j.size = 512 << 10;
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(fs::file_size(file), 512u << 10);
  // The note gives the file's new size, as fio's, not the 256 KiB added.
  EXPECT_EQ(r->groups[0].jobs[0].notes,
            (std::vector<std::string>{"Laying out IO file (1 file / 512KiB)"}));
  // Smaller region: the file is left alone.
  j.size = 64 << 10;
  r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(fs::file_size(file), 512u << 10);
  EXPECT_TRUE(r->groups[0].jobs[0].notes.empty());
}

// File modes as fio 3.33 creates them: a laid-out file 0644 (extend_file),
// one created when the job opens it (create_on_open) 0600
// (generic_open_file); both under the umask. iobench made both 0644.
TEST(RunTargetTest, CreatedFilesHaveFiosModes) {
  TempDir dir("/var/tmp");
  const mode_t old = umask(022);
  JobSpec j = TestJob("m", RwMode::kWrite, 4096, 16 << 10);
  j.ioengine = "psync";
  j.filenames = {dir.path() + "/laid"};
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  j.filenames = {dir.path() + "/opened"};
  j.create_on_open = true;
  r = RunJobs({j}, {});
  umask(old);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto mode = [](const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 ? st.st_mode & 0777 : 01000u;
  };
  EXPECT_EQ(mode(dir.path() + "/laid"), 0644u);
  EXPECT_EQ(mode(dir.path() + "/opened"), 0600u);
}

// fallocate=truncate: the layout only ftruncates a writer's file (fio).
TEST(RunTargetTest, WriteJobSizesTheFileWithoutWritingIt) {
  TempDir dir("/var/tmp");
  const std::string file = dir.path() + "/w";
  JobSpec j = TestJob("w", RwMode::kWrite, 4096, 1 << 20);
  j.ioengine = "psync";
  j.filenames = {file};
  j.fallocate = FallocateMode::kTruncate;
  j.number_ios = 1;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 1 << 20);
  EXPECT_LT(st.st_blocks * 512, 1 << 20);  // sparse: only the one write landed
}

TEST(RunTargetTest, CreateOnOpenSkipsLayout) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/coo";
  JobSpec j = TestJob("coo", RwMode::kWrite, 4096, 64 << 10);
  j.ioengine = "psync";
  j.filenames = {file};
  j.create_on_open = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->groups[0].jobs[0].notes.empty());
  EXPECT_EQ(r->groups[0].jobs[0].stats.dir[1].bytes, 64u << 10);
  EXPECT_EQ(fs::file_size(file), 64u << 10);  // written by the job itself
}

// A short read whose rest finds the end of the file is still an issued
// I/O, as in fio 3.33 (a 6000-byte file, size=8k create_on_open=1 rw=read
// bs=4k psync: issued 2, short 1, total_ios 2, 4096 bytes). iobench used to
// take it back from issued when the rest read 0 bytes: issued 1.
TEST(RunTargetTest, ShortReadThenEndOfFileStaysIssued) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/short";
  {
    std::ofstream out(file, std::ios::binary);
    out << std::string(6000, 'x');
  }
  JobSpec j = TestJob("short", RwMode::kRead, 4096, 8 << 10);
  j.ioengine = "psync";
  j.filenames = {file};
  j.create_on_open = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ThreadStats& st = r->groups[0].jobs[0].stats;
  EXPECT_EQ(st.issued[0], 2u);
  EXPECT_EQ(st.dir[0].short_ios, 1u);
  EXPECT_EQ(st.dir[0].ios, 1u);  // the short read is in short_ios, not completed
  EXPECT_EQ(ReportedIos(st.dir[0]), 2u);
  EXPECT_EQ(st.dir[0].bytes, 4096u);
  EXPECT_EQ(fs::file_size(file), 6000u);
  // It read something, and says where the pass ended (2192 bytes short of size=8k).
  EXPECT_EQ(r->groups[0].jobs[0].notes,
            std::vector<std::string>{"1 sequential pass found the end of the file early: 2192 "
                                     "bytes of the region not read (fio fails such a read with "
                                     "EIO)"});
}

// A sequential read of a file create_on_open leaves empty reads nothing:
// fio fails it with EIO ("full resid"); iobench printed no block, no note
// and exited 0. The job now says why it read nothing.
TEST(RunTargetTest, ReadingAnEmptyFileSaysNothingWasRead) {
  TempDir dir("/dev/shm");
  const std::string file = dir.path() + "/empty";
  JobSpec j = TestJob("empty", RwMode::kRead, 4096, 64 << 10);
  j.ioengine = "psync";
  j.filenames = {file};
  j.create_on_open = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups[0].jobs[0];
  EXPECT_EQ(jr.stats.dir[0].ios, 0u);
  ASSERT_EQ(jr.notes.size(), 1u);
  EXPECT_EQ(jr.notes[0].rfind("the reads found the end of the file before any data", 0), 0u)
      << jr.notes[0];
}

TEST(RunTargetTest, ReadonlyRefusesLayout) {
  TempDir dir("/dev/shm");
  JobSpec j = TestJob("ro", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "psync";
  j.filenames = {dir.path() + "/f"};
  RunOptions ro;
  ro.readonly = true;
  auto r = RunJobs({j}, ro);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kRefused);
  EXPECT_FALSE(fs::exists(dir.path() + "/f"));
}

// Seed 003's shape: 252 clones, each with its own file in a directory.
TEST(RunTargetTest, TwoHundredFiftyTwoClonesInADirectory) {
  TempDir dir("/dev/shm");
  // fio -directory=D -direct=0 -thread -size=3G -rw=rw -rwmixwrite=30 --norandommap
  //     --randrepeat=0 -ioengine=pvsync2 -bs=64k -numjobs=252 ... -group_reporting, scaled down.
  JobSpec j = TestJob("s3", RwMode::kReadWrite, 65536, 256 << 10);
  j.ioengine = "pvsync2";
  j.rwmixread = 70;
  j.norandommap = true;
  j.randrepeat = false;
  j.thread = true;
  j.group_reporting = true;
  j.directory = dir.path();
  j.numjobs = 252;
  j.number_ios = 4;
  j.unlink = true;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->groups[0].jobs.size(), 252u);
  for (int k = 0; k < 252; ++k) {
    const JobResult& jr = r->groups[0].jobs[k];
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(jr.stats.dir[0].ios + jr.stats.dir[1].ios, 4u);
    ASSERT_EQ(jr.files.size(), 1u);
    EXPECT_EQ(jr.files[0], dir.path() + "/s3." + std::to_string(k) + ".0");
    EXPECT_EQ(jr.notes, (std::vector<std::string>{"Laying out IO file (1 file / 256KiB)"}));
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));  // unlink=1 removed them
}

TEST(RunTargetTest, ClonesShareAFilename) {
  TempDir dir("/dev/shm");
  JobSpec j = TestJob("share", RwMode::kRead, 4096, 128 << 10);
  j.ioengine = "psync";
  j.filenames = {dir.path() + "/shared"};
  j.numjobs = 3;
  j.offset_increment = 128 << 10;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(fs::file_size(dir.path() + "/shared"), 3u * (128 << 10));  // laid out once, to the end
  int notes = 0;
  for (const auto& jr : r->groups[0].jobs) {
    notes += static_cast<int>(jr.notes.size());
    EXPECT_EQ(jr.stats.dir[0].bytes, 128u << 10);
  }
  EXPECT_EQ(notes, 1);
}

}  // namespace
}  // namespace iobench
