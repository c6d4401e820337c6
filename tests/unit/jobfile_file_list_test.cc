// The job's file list as fio 3.33 builds it from filename= and opendir=
// (FileListStep): each filename= adds, in fio's order (a job file's section
// takes filename= last, the command line as written), and the command line
// and --sweep replace a job file's list. Expected lists: fio 3.33's.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "jobfile/parser.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

using iobench::testing::ParseOk;
using iobench::testing::TempDir;
using Names = std::vector<std::string>;

// The first job's files, from job-file text.
Names FilesOf(const std::string& text) {
  const ParseOutput out = ParseOk(text);
  return out.jobs.empty() ? Names{"<no job>"} : out.jobs.front().filenames;
}

// The first job's files, from command-line job options (and a job file).
Names CliFilesOf(const std::vector<std::string>& args, const std::string& file_text = "") {
  TempDir d;
  ParseInput in;
  if (!file_text.empty()) {
    in.job_files = {d.path() + "/j.fio"};
    std::ofstream(in.job_files[0]) << file_text;
  }
  in.cli_job_args = args;
  auto out = ParseJobs(in);
  EXPECT_TRUE(out.ok()) << out.status().message();
  if (!out.ok() || out->jobs.empty()) return {"<no job>"};
  return out->jobs.front().filenames;
}

TEST(JobfileFileList, EachFilenameAdds) {
  EXPECT_EQ(FilesOf("[global]\nfilename=g1\n[a]\nfilename=f2\n"), (Names{"g1", "f2"}));
  EXPECT_EQ(FilesOf("[a]\nfilename=f1\nfilename=f2\n"), (Names{"f1", "f2"}));
  EXPECT_EQ(FilesOf("[a]\nfilename=f1:f2\nfilename=f3\n"), (Names{"f1", "f2", "f3"}));
  // A name listed twice is used twice.
  EXPECT_EQ(FilesOf("[global]\nfilename=a\n[j]\nfilename=a\n"), (Names{"a", "a"}));
  EXPECT_EQ(CliFilesOf({"--name=x", "--filename=f1", "--filename=f2"}), (Names{"f1", "f2"}));
  EXPECT_EQ(CliFilesOf({"--filename=g1", "--name=x", "--filename=f2"}), (Names{"g1", "f2"}));
  const ParseOutput out = ParseOk("[global]\nfilename=g1\n[a]\nfilename=f2\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].nrfiles, 2u);
}

TEST(JobfileFileList, OpendirTakesItsPlace) {
  using K = FileListStep::Kind;
  auto kinds = [](const JobSpec& j) {
    std::string out;
    for (const FileListStep& s : j.file_list) out += s.kind == K::kNames ? 'f' : 'd';
    return out;
  };
  // In a section opendir= comes before filename=, whatever the order.
  EXPECT_EQ(kinds(ParseOk("[j]\nfilename=x\nopendir=od\n").jobs.at(0)), "df");
  EXPECT_EQ(kinds(ParseOk("[j]\nopendir=od\nfilename=x\n").jobs.at(0)), "df");
  EXPECT_EQ(kinds(ParseOk("[global]\nfilename=x\n[j]\nopendir=od\n").jobs.at(0)), "fd");
  const JobSpec j = ParseOk("[j]\nopendir=od\nopendir=od/sub\n").jobs.at(0);
  EXPECT_EQ(kinds(j), "dd");
  EXPECT_EQ(j.opendir, "od/sub");
  EXPECT_TRUE(j.filenames.empty());
}

TEST(JobfileFileList, ResolvePutsTheDirectoriesFilesInPlace) {
  using K = FileListStep::Kind;
  const std::vector<FileListStep> steps = {
      {K::kNames, {"a"}}, {K::kDir, {"od"}}, {K::kNames, {"z"}}};
  const std::vector<std::vector<std::string>> found = {{"od/x", "od/y"}};
  EXPECT_EQ(ResolveFileList(steps, &found).files, (Names{"a", "od/x", "od/y", "z"}));
  // Not walked yet: the names alone.
  const ResolvedFileList early = ResolveFileList(steps, nullptr);
  EXPECT_EQ(early.files, (Names{"a", "z"}));
  EXPECT_TRUE(early.unknown);
}

TEST(JobfileFileList, CommandLineAndSweepReplace) {
  // A command-line global over a job file's job: the command line wins.
  EXPECT_EQ(CliFilesOf({"--filename=x"}, "[global]\nfilename=g\n[j]\nfilename=y\n"), (Names{"x"}));
  EXPECT_EQ(CliFilesOf({"--filename=x", "--filename=w"}, "[j]\nfilename=y\n"), (Names{"x", "w"}));
  // A --sweep value over both.
  JobSpec j = ParseOk("[global]\nfilename=g\n[j]\nfilename=y\n").jobs.at(0);
  ASSERT_TRUE(SetOption(&j, "filename", "p").ok());
  EXPECT_EQ(j.filenames, (Names{"p"}));
  EXPECT_EQ(j.nrfiles, 1u);
  // Also over a command-line job's own filename=.
  ParseInput in;
  in.cli_job_args = {"--name=c", "--filename=y"};
  auto cli = ParseJobs(in);
  ASSERT_TRUE(cli.ok()) << cli.status().message();
  JobSpec c = cli->jobs.at(0);
  ASSERT_TRUE(SetOption(&c, "filename", "a:b").ok());
  EXPECT_EQ(c.filenames, (Names{"a", "b"}));
}

TEST(JobfileFileList, ShowCmdWritesTheListsOrder) {
  const ParseOutput out = ParseOk("[j]\nfilename=x\nopendir=od\n");
  const std::string cmd = ShowCmd(out.jobs);
  EXPECT_NE(cmd.find("--opendir=od --filename=x"), std::string::npos) << cmd;
  const ParseOutput two = ParseOk("[global]\nfilename=g1\n[a]\nfilename=f2\n");
  EXPECT_NE(ShowCmd(two.jobs).find("--filename=g1 --filename=f2"), std::string::npos);
}

}  // namespace
}  // namespace iobench::jobfile
