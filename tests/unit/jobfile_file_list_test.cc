// The job's file list as fio 3.33 builds it from filename=, opendir= and
// nrfiles= (FileListStep): each filename= adds, in fio's order (a job file's
// section takes filename= last, the command line as written), nrfiles=
// after the list started keeps the first ones, and the command line and
// --sweep replace a job file's list. Expected lists: fio 3.33's.
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

// fio 3.33 trims the ends of the whole value and keeps the blanks of each
// part: 'a: b :c' is the files a, " b " and c. iobench trimmed each part,
// and so wrote to b, a file the job did not name.
TEST(JobfileFileList, PartsKeepTheirBlanks) {
  EXPECT_EQ(CliFilesOf({"--name=x", "--filename=a: b :c"}), (Names{"a", " b ", "c"}));
  EXPECT_EQ(CliFilesOf({"--name=x", "--filename= a:b "}), (Names{"a", "b"}));
  EXPECT_EQ(CliFilesOf({"--name=x", "--filename=a: :b"}), (Names{"a", " ", "b"}));
  EXPECT_EQ(FilesOf("[a]\nfilename= with space: lead\\:colon :trail \n"),
            (Names{"with space", " lead:colon ", "trail"}));
}

TEST(JobfileFileList, NrfilesAfterTheListKeepsTheFirst) {
  // On the command line, in the order written.
  EXPECT_EQ(CliFilesOf({"--name=j", "--filename=a:b:c", "--nrfiles=2"}), (Names{"a", "b"}));
  EXPECT_EQ(CliFilesOf({"--name=j", "--nrfiles=2", "--filename=a:b:c"}), (Names{"a", "b", "c"}));
  EXPECT_EQ(CliFilesOf({"--name=j", "--filename=a:b", "--nrfiles=1", "--filename=d"}),
            (Names{"a", "b"}));
  EXPECT_EQ(CliFilesOf({"--name=j", "--filename=a", "--nrfiles=3"}), (Names{"a"}));
  // In one section of a job file filename= comes last: no cut.
  EXPECT_EQ(FilesOf("[j]\nfilename=a:b:c\nnrfiles=2\n"), (Names{"a", "b", "c"}));
  // [global]'s list, the job's nrfiles=.
  EXPECT_EQ(FilesOf("[global]\nfilename=a:b:c\n[j]\nnrfiles=2\n"), (Names{"a", "b"}));
  const ParseOutput out = ParseOk("[global]\nfilename=a:b:c\n[j]\nnrfiles=2\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].nrfiles, 2u);
  // Without a list nrfiles= is the number of files the job makes.
  EXPECT_EQ(ParseOk("[j]\nnrfiles=3\n").jobs.at(0).nrfiles, 3u);
}

TEST(JobfileFileList, OpendirTakesItsPlace) {
  using K = FileListStep::Kind;
  auto kinds = [](const JobSpec& j) {
    std::string out;
    for (const FileListStep& s : j.file_list)
      out += s.kind == K::kNames ? 'f' : s.kind == K::kDir ? 'd' : 'n';
    return out;
  };
  // In a section opendir= comes before filename=, whatever the order.
  EXPECT_EQ(kinds(ParseOk("[j]\nfilename=x\nopendir=od\n").jobs.at(0)), "df");
  EXPECT_EQ(kinds(ParseOk("[j]\nopendir=od\nfilename=x\n").jobs.at(0)), "df");
  EXPECT_EQ(kinds(ParseOk("[global]\nfilename=x\n[j]\nopendir=od\n").jobs.at(0)), "fd");
  EXPECT_EQ(kinds(ParseOk("[j]\nopendir=od\nnrfiles=1\n").jobs.at(0)), "dn");
  EXPECT_EQ(kinds(ParseOk("[j]\nfilename=x\nnrfiles=1\n").jobs.at(0)), "nf");
  const JobSpec j = ParseOk("[j]\nopendir=od\nopendir=od/sub\n").jobs.at(0);
  EXPECT_EQ(kinds(j), "dd");
  EXPECT_EQ(j.opendir, "od/sub");
  EXPECT_TRUE(j.filenames.empty());
}

TEST(JobfileFileList, ResolveCountsTheDirectoriesFiles) {
  using K = FileListStep::Kind;
  const std::vector<FileListStep> steps = {
      {K::kNames, {"a"}}, {K::kDir, {"od"}}, {K::kCount, {}, 2}, {K::kNames, {"z"}}};
  const std::vector<std::vector<std::string>> found = {{"od/x", "od/y", "od/w"}};
  // a od/x od/y od/w z: nrfiles=2 after four, then one more: the first 3.
  const ResolvedFileList r = ResolveFileList(steps, &found);
  EXPECT_EQ(r.files, (Names{"a", "od/x", "od/y"}));
  EXPECT_EQ(r.left_out, (Names{"od/w", "z"}));
  EXPECT_EQ(r.cut_by, &steps[2]);
  // Not walked yet: the names alone, no cut.
  const ResolvedFileList early = ResolveFileList(steps, nullptr);
  EXPECT_EQ(early.files, (Names{"a", "z"}));
  EXPECT_TRUE(early.unknown);
  EXPECT_EQ(early.cut_by, nullptr);
  // The count is known before the walk: nrfiles=2 plus the one after it.
  EXPECT_EQ(early.counted_by, &steps[2]);
  EXPECT_EQ(early.count, 3u);
  EXPECT_EQ(early.added_after, 1u);
  EXPECT_FALSE(early.count_unknown);
  // An opendir= after the nrfiles=: not until it is walked.
  const std::vector<FileListStep> later = {
      {K::kNames, {"a"}}, {K::kCount, {}, 1}, {K::kDir, {"od"}}};
  const ResolvedFileList l = ResolveFileList(later, nullptr);
  EXPECT_EQ(l.counted_by, &later[1]);
  EXPECT_TRUE(l.count_unknown);
  const std::vector<std::vector<std::string>> od = {{"od/x", "od/y", "od/w"}};
  const ResolvedFileList walked = ResolveFileList(later, &od);
  EXPECT_EQ(walked.files, (Names{"a", "od/x", "od/y", "od/w"}));
  EXPECT_EQ(walked.count, 4u);
  EXPECT_EQ(walked.cut_by, nullptr);
}

TEST(JobfileFileList, CommandLineAndSweepReplace) {
  // A command-line global over a job file's job: the command line wins.
  EXPECT_EQ(CliFilesOf({"--filename=x"}, "[global]\nfilename=g\n[j]\nfilename=y\n"), (Names{"x"}));
  EXPECT_EQ(CliFilesOf({"--filename=x", "--filename=w"}, "[j]\nfilename=y\n"), (Names{"x", "w"}));
  // But a command-line --nrfiles stands before the job file's list, where
  // fio applies it, and does not cut it; it cuts a command-line list.
  EXPECT_EQ(CliFilesOf({"--nrfiles=1"}, "[j]\nfilename=y:z\n"), (Names{"y", "z"}));
  EXPECT_EQ(CliFilesOf({"--nrfiles=1"}, "[global]\nfilename=g\n[j]\nfilename=y\n"),
            (Names{"g", "y"}));
  EXPECT_EQ(CliFilesOf({"--filename=a:b:c", "--nrfiles=1"}, "[j]\n"), (Names{"a"}));
  EXPECT_EQ(CliFilesOf({"--filename=a:b:c"}, "[j]\nnrfiles=2\n"), (Names{"a", "b"}));
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
  const ParseOutput out = ParseOk("[j]\nfilename=x\nopendir=od\nnrfiles=2\n");
  const std::string cmd = ShowCmd(out.jobs);
  EXPECT_NE(cmd.find("--opendir=od --nrfiles=2 --filename=x"), std::string::npos) << cmd;
  const ParseOutput two = ParseOk("[global]\nfilename=g1\n[a]\nfilename=f2\n");
  EXPECT_NE(ShowCmd(two.jobs).find("--filename=g1 --filename=f2"), std::string::npos);
}

}  // namespace
}  // namespace iobench::jobfile
