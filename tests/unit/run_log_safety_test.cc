// The side files a run writes (RunSideFiles) and the pre-run check that
// none of them is a data file or a job file of the run
// (CheckSideFilesAvoidRunFiles, src/run/log_safety.cc).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run/log_safety.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::ParseOk;
using testing::TempDir;
using Kind = SideFile::Kind;

// Runs the test in a directory of its own (the verify state, the hooks'
// output and the dumps are made in the current directory).
class SideFilesInDir {
 public:
  explicit SideFilesInDir(const std::string& dir) : old_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~SideFilesInDir() { std::filesystem::current_path(old_); }

 private:
  std::filesystem::path old_;
};

std::vector<std::string> SidePathsOf(const std::vector<SideFile>& files, Kind kind) {
  std::vector<std::string> out;
  for (const SideFile& f : files)
    if (f.kind == kind) out.push_back(f.path);
  return out;
}

void WriteSideTestFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(RunSideFiles, ListsEveryKindForEachClone) {
  const auto parsed = ParseOk(
      "[a]\nioengine=null\nsize=64k\n"
      "[j]\nioengine=psync\nrw=write\nsize=64k\nfilename=sub/d\nnumjobs=2\nverify=crc32c\n"
      "verify_dump=1\nmem=mmapshared:buf\nexec_prerun=true\nexec_postrun=true\n"
      "write_bw_log=w\nwrite_iolog=w.iolog\n");
  ASSERT_EQ(parsed.jobs.size(), 2u);
  const std::vector<uint32_t> first = FirstWorkerOf(parsed.jobs);
  EXPECT_EQ(first, (std::vector<uint32_t>{0, 1}));
  const std::vector<SideFile> files = RunSideFiles(parsed.jobs, first, true);
  EXPECT_EQ(SidePathsOf(files, Kind::kIoLog), (std::vector<std::string>{"w.iolog"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kLog), (std::vector<std::string>{"w_bw.2.log", "w_bw.3.log"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kMemFile), (std::vector<std::string>{"buf"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kHookOutput),
            (std::vector<std::string>{"j.prerun.txt", "j.postrun.txt"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kVerifyState),
            (std::vector<std::string>{"local-j-1-verify.state", "local-j-1-verify.state.tmp",
                                      "local-j-2-verify.state", "local-j-2-verify.state.tmp"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kVerifyDump), (std::vector<std::string>{"d"}));
  EXPECT_EQ(SidePathsOf(files, Kind::kBandwidthLog),
            (std::vector<std::string>{"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"}));
  for (const SideFile& f : files) {
    if (f.kind == Kind::kMemFile) {
      EXPECT_EQ(f.Named(), "job 'j': mem=mmapshared:buf (t.fio:12)");
      EXPECT_EQ(f.Described(), "the I/O buffer file of job 'j' (mem=mmapshared:buf at t.fio:12)");
    }
    if (f.kind == Kind::kVerifyState) {
      EXPECT_EQ(f.Named(), "job 'j': verify_state_save=1 (the default)");
    }
  }
}

TEST(RunSideFiles, LoadedStateIsReadAndDisklessJobsSaveNone) {
  const auto parsed = ParseOk(
      "[n]\nioengine=null\nrw=write\nsize=64k\nverify=crc32c\n"
      "[r]\nioengine=psync\nrw=read\nsize=64k\nfilename=d\nverify=crc32c\nverify_only=1\n"
      "verify_state_load=1\n");
  const std::vector<SideFile> files = RunSideFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), false);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "local-r-1-verify.state");
  EXPECT_FALSE(files[0].written);
}

TEST(RunSideFiles, DumpNames) {
  SideFile dump;
  dump.kind = Kind::kVerifyDump;
  dump.path = "d";
  for (const char* yes : {"d.0.received", "d.4096.expected", "./d.4096-2.received"})
    EXPECT_TRUE(IsDumpOf(dump, yes)) << yes;
  for (const char* no : {"d.received", "d.x.received", "d.4096.txt", "e.4096.received",
                         "d.4096-.received", "/nonexistent-dir/d.0.received", "dd.0.received"})
    EXPECT_FALSE(IsDumpOf(dump, no)) << no;
}

TEST(CheckSideFilesAvoidRunFiles, RefusesEachKindOverADataFile) {
  TempDir d;
  ASSERT_TRUE(d.ok());
  SideFilesInDir in(d.path());
  WriteSideTestFile("ex", std::string(4096, 'x'));
  struct Case {
    const char* options;
    const char* want;
  } cases[] = {
      {"mem=mmap:ex\n", "job 'j': mem=mmap:ex (t.fio:6) writes ex, a file job 'j' reads"},
      {"mem=mmap:./ex\n", "writes ./ex, the same file as ex, a file job 'j' reads"},
      {"exec_prerun=true\nfilename=j.prerun.txt\n",
       "exec_prerun=true (t.fio:6) writes j.prerun.txt"},
      {"write_iolog=ex\n", "the log would be appended to it"},
      {"verify=crc32c\nrw=write\nfilename=local-j-0-verify.state\n",
       "job 'j': verify_state_save=1 (the default) writes local-j-0-verify.state, a file job 'j' "
       "writes"},
      {"verify=crc32c\nverify_dump=1\nfilename=ex.4096.received\n",
       "verify_dump=1 (t.fio:7) may write ex.4096.received"},
  };
  for (const Case& c : cases) {
    const auto parsed =
        ParseOk(std::string("[j]\nioengine=psync\nrw=read\nsize=4k\nfilename=ex\n") + c.options);
    const Status st =
        CheckSideFilesAvoidRunFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), false, {});
    EXPECT_FALSE(st.ok()) << c.options;
    EXPECT_NE(st.message().find(c.want), std::string::npos) << st.message();
  }
  // Elsewhere, and a data file of the null engine (which opens none), pass.
  for (const char* text : {"[j]\nioengine=psync\nrw=read\nsize=4k\nfilename=ex\nmem=mmap:buf\n",
                           "[j]\nioengine=null\nsize=4k\nfilename=ex\nmem=mmap:ex\n"}) {
    const auto parsed = ParseOk(text);
    EXPECT_TRUE(CheckSideFilesAvoidRunFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), true, {}).ok())
        << text;
  }
  EXPECT_EQ(std::string(4096, 'x'), testing::ReadAll("ex"));
}

TEST(CheckSideFilesAvoidRunFiles, RefusesASideFileOverAJobFile) {
  TempDir d;
  ASSERT_TRUE(d.ok());
  SideFilesInDir in(d.path());
  WriteSideTestFile("x_bw.1.log", "[x]\n");
  const auto parsed = ParseOk("[x]\nioengine=null\nsize=4k\nwrite_bw_log=x\n");
  const Status st =
      CheckSideFilesAvoidRunFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), false, {"./x_bw.1.log"});
  EXPECT_EQ(st.message(),
            "job 'x': write_bw_log=x (t.fio:4) writes x_bw.1.log, the same file as ./x_bw.1.log, a "
            "job file this run reads: the log would replace what it holds; name the log another "
            "file");
  EXPECT_TRUE(
      CheckSideFilesAvoidRunFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), false, {"j.fio"}).ok());
}

TEST(CheckSideFilesAvoidRunFiles, AWriteIologMayBeAReplayedLog) {
  TempDir d;
  ASSERT_TRUE(d.ok());
  SideFilesInDir in(d.path());
  WriteSideTestFile("rec.log", "fio version 2 iolog\n");
  const auto parsed = ParseOk(
      "[rec]\nioengine=null\nsize=4k\nwrite_iolog=rec.log\n"
      "[play]\nstonewall\nioengine=null\nread_iolog=rec.log\n");
  EXPECT_TRUE(CheckSideFilesAvoidRunFiles(parsed.jobs, FirstWorkerOf(parsed.jobs), false, {}).ok());
  // A log that replaces what it holds may not be the replayed one.
  const auto bw = ParseOk("[play]\nioengine=null\nread_iolog=rec.log\nwrite_bw_log=rec\n");
  WriteSideTestFile("rec_bw.1.log", "fio version 2 iolog\n");
  const auto bw2 = ParseOk("[play]\nioengine=null\nread_iolog=rec_bw.1.log\nwrite_bw_log=rec\n");
  EXPECT_TRUE(CheckSideFilesAvoidRunFiles(bw.jobs, FirstWorkerOf(bw.jobs), false, {}).ok());
  EXPECT_FALSE(CheckSideFilesAvoidRunFiles(bw2.jobs, FirstWorkerOf(bw2.jobs), false, {}).ok());
}

}  // namespace
}  // namespace iobench
