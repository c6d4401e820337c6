// The seeds' command lines and job files, through the same argv splitting
// main.cc uses (jobfile::SplitArgs) and ParseJobs: they must parse to the
// values fio would use.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "jobfile/parser.h"
#include "temp_dir.h"

namespace iobench::jobfile {
namespace {

// The fio-named tool options main.cc registers (a subset is enough to show
// that tool and job options are told apart).
const std::vector<ToolOptionSpec>& Tools() {
  static const std::vector<ToolOptionSpec> kTools = {
      {"output", ToolArg::kRequired, ""},  {"output-format", ToolArg::kRequired, ""},
      {"section", ToolArg::kRequired, ""}, {"parse-only", ToolArg::kNone, ""},
      {"showcmd", ToolArg::kNone, ""},     {"cmdhelp", ToolArg::kOptional, ""},
      {"enghelp", ToolArg::kOptional, ""}, {"version", ToolArg::kNone, ""},
  };
  return kTools;
}

std::vector<std::string> Words(const std::string& cmd) {
  std::istringstream is(cmd);
  std::vector<std::string> out;
  for (std::string w; is >> w;) out.push_back(w);
  return out;
}

std::vector<JobSpec> ParseCmd(const std::string& cmd, SplitArgsResult* split_out = nullptr) {
  auto split = SplitArgs(Words(cmd), Tools());
  EXPECT_TRUE(split.ok()) << split.status().message();
  if (!split.ok()) return {};
  if (split_out) *split_out = *split;
  ParseInput in;
  in.job_files = split->job_files;
  in.cli_job_args = split->job_args;
  auto r = ParseJobs(in);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? r->jobs : std::vector<JobSpec>{};
}

TEST(CliSeeds, Seed000IoUringBufferedRandread) {
  SplitArgsResult split;
  auto jobs = ParseCmd(
      "-filename=/mnt/nvme0n1/fio_read_test.txt -buffered=1 -iodepth 32 -rw=randread "
      "-ioengine=io_uring -randseed=89 -runtime=10s -norandommap -direct=0 -bs=4k -size=4G "
      "-name=rand_read_4k --parse-only",
      &split);
  EXPECT_EQ(split.tool_args, std::vector<std::string>{"--parse-only"});
  EXPECT_TRUE(split.job_files.empty());
  ASSERT_EQ(jobs.size(), 1u);
  const JobSpec& j = jobs[0];
  EXPECT_EQ(j.name, "rand_read_4k");
  EXPECT_EQ(j.filenames, std::vector<std::string>{"/mnt/nvme0n1/fio_read_test.txt"});
  EXPECT_FALSE(j.direct);  // buffered=1 then direct=0
  EXPECT_EQ(j.iodepth, 32u);
  EXPECT_EQ(j.rw, RwMode::kRandRead);
  EXPECT_EQ(j.ioengine, "io_uring");
  EXPECT_EQ(j.randseed, std::optional<uint64_t>(89));
  EXPECT_EQ(j.runtime_ns, 10000000000ull);
  EXPECT_TRUE(j.norandommap);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[1].min, 4096u);
  EXPECT_EQ(j.size, 4ull << 30);
  EXPECT_FALSE(j.time_based);
  EXPECT_TRUE(j.unimplemented.empty());
}

TEST(CliSeeds, Seed001ForceAsync) {
  auto jobs = ParseCmd("-filename=/mnt/f -ioengine=io_uring --force_async=1 -iodepth 8 -name=x");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].force_async, 1u);
  // Without io_uring, force_async is refused with the engine named.
  auto split = SplitArgs(Words("--force_async=1 -name=x"), Tools());
  ASSERT_TRUE(split.ok());
  ParseInput in;
  in.cli_job_args = split->job_args;
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "command line: option 'force_async' needs ioengine=io_uring; job 'x' uses "
            "psync\n--force_async=1\n  ^");
}

TEST(CliSeeds, Seed003Pvsync2MixOnADirectory) {
  auto jobs = ParseCmd(
      "-directory=/mnt4/ -direct=0 -thread -size=3G -rw=rw -rwmixwrite=30 --norandommap "
      "--randrepeat=0 -ioengine=pvsync2 -bs=64k -numjobs=252 -runtime=3600 --time_based "
      "-group_reporting -name=mytest");
  ASSERT_EQ(jobs.size(), 1u);
  const JobSpec& j = jobs[0];
  EXPECT_EQ(j.directory, "/mnt4/");
  EXPECT_TRUE(j.thread);
  EXPECT_EQ(j.size, 3ull << 30);
  EXPECT_EQ(j.rw, RwMode::kReadWrite);
  EXPECT_EQ(j.rwmixread, 70u);
  EXPECT_TRUE(j.norandommap);
  EXPECT_FALSE(j.randrepeat);
  EXPECT_EQ(j.ioengine, "pvsync2");
  EXPECT_EQ(j.bs[0].min, 65536u);
  EXPECT_EQ(j.numjobs, 252u);  // not expanded by the parser
  EXPECT_EQ(j.runtime_ns, 3600ull * 1000000000ull);
  EXPECT_TRUE(j.time_based);
  EXPECT_TRUE(j.group_reporting);
}

TEST(CliSeeds, Seed003BlockDevice) {
  auto jobs = ParseCmd(
      "-filename=/dev/nvme1n1p4 -direct=0 -thread -size=800G -rw=rw -rwmixwrite=30 "
      "--norandommap --randrepeat=0 -ioengine=pvsync2 -bs=64k -numjobs=252 -runtime=3600 "
      "--time_based -group_reporting -name=mytest");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].filenames, std::vector<std::string>{"/dev/nvme1n1p4"});
  EXPECT_EQ(jobs[0].size, 800ull << 30);
}

TEST(CliArgs, GlobalsJobsValuesInNextArgAndFiles) {
  SplitArgsResult split;
  auto split_r = SplitArgs(Words("--output json.out -iodepth 16 job.fio - --name=a -rw randwrite "
                                 "--name b -thread --section=x -cmdhelp"),
                           Tools());
  ASSERT_TRUE(split_r.ok());
  EXPECT_EQ(split_r->tool_args,
            (std::vector<std::string>{"--output=json.out", "--section=x", "--cmdhelp"}));
  EXPECT_EQ(split_r->job_files, (std::vector<std::string>{"job.fio", "-"}));
  EXPECT_EQ(split_r->job_args, (std::vector<std::string>{"-iodepth", "16", "--name=a", "-rw",
                                                         "randwrite", "--name", "b", "-thread"}));
  auto jobs = ParseCmd("-iodepth 16 --name=a -rw randwrite --name b -thread -iodepth=2");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].iodepth, 16u);
  EXPECT_EQ(jobs[0].rw, RwMode::kRandWrite);
  EXPECT_EQ(jobs[1].name, "b");
  EXPECT_EQ(jobs[1].iodepth, 2u);  // a job's own option beats the command-line globals
  EXPECT_TRUE(jobs[1].thread);
  EXPECT_EQ(jobs[1].rw, RwMode::kRead);
}

// fio applies command-line options one by one and lists them in that order
// in JSON's "global options" / "job options": kb_base stays where it was
// written (iobench moved it first, as fio does only in a job file), while it
// still changes how the sizes before it read.
TEST(CliArgs, KbBaseKeepsItsWrittenPlace) {
  auto names = [](const JobSpec& j, OptionSource src) {
    std::vector<std::string> out;
    for (const auto& s : j.settings)
      if (s.source == src) out.push_back(s.name);
    return out;
  };
  auto jobs = ParseCmd(
      "--ioengine=null --size=1m --kb_base=1000 --name=a --rw=read --bs=4k --kb_base=1000 "
      "--unit_base=8");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].size, 1000000u);  // kb_base applies to the size before it
  EXPECT_EQ(jobs[0].bs[0].min, 4000u);
  EXPECT_EQ(names(jobs[0], OptionSource::kGlobal),
            (std::vector<std::string>{"ioengine", "size", "kb_base"}));
  EXPECT_EQ(names(jobs[0], OptionSource::kCommandLine),
            (std::vector<std::string>{"rw", "bs", "kb_base", "unit_base"}));
}

// fio's parse_cmd_line: a --name starting with "global" opens a global
// section, not a job; its options are defaults for the jobs named after it
// (not the ones before). iobench ran a job called "global" and left j
// without the options.
TEST(CliArgs, NameGlobalStartsAGlobalSection) {
  auto jobs = ParseCmd("--name=global --ioengine=null --size=8k --bs=8k --name=j");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].name, "j");
  EXPECT_EQ(jobs[0].ioengine, "null");
  EXPECT_EQ(jobs[0].size, 8192u);
  EXPECT_EQ(jobs[0].bs[0].min, 8192u);
  ASSERT_NE(jobs[0].FindSetting("bs"), nullptr);
  EXPECT_EQ(jobs[0].FindSetting("bs")->source, OptionSource::kGlobal);  // JSON "global options"
  // Any name that starts with "global", anywhere: the jobs before it keep
  // their options, the ones after it take the new defaults.
  jobs = ParseCmd(
      "--iodepth=2 --name=a --size=16k --name=globalx --bs=8k --name=b --size=16k "
      "--name=global --iodepth=4 --name=c --size=16k");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].name, "a");
  EXPECT_EQ(jobs[0].bs[0].min, 4096u);
  EXPECT_EQ(jobs[0].iodepth, 2u);
  EXPECT_EQ(jobs[1].name, "b");
  EXPECT_EQ(jobs[1].bs[0].min, 8192u);
  EXPECT_EQ(jobs[1].iodepth, 2u);
  EXPECT_EQ(jobs[2].name, "c");
  EXPECT_EQ(jobs[2].bs[0].min, 8192u);
  EXPECT_EQ(jobs[2].iodepth, 4u);
  // A global section alone defines no job.
  auto s = SplitArgs(Words("--name=global --size=8k"), Tools());
  ASSERT_TRUE(s.ok());
  ParseInput in;
  in.cli_job_args = s->job_args;
  EXPECT_FALSE(ParseJobs(in).ok());
}

TEST(CliArgs, FlagsTakeANextValueOnlyWhenItIsOne) {
  auto split = SplitArgs(Words("-direct 1 -thread job.fio --write_bw_log mylog -name=a"), Tools());
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->job_files, std::vector<std::string>{"job.fio"});
  EXPECT_EQ(split->job_args, (std::vector<std::string>{"-direct", "1", "-thread", "--write_bw_log",
                                                       "mylog", "-name=a"}));
  auto jobs = ParseCmd("-direct 1 -thread --write_bw_log mylog -name=a");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_TRUE(jobs[0].direct);
  EXPECT_TRUE(jobs[0].thread);
  EXPECT_EQ(jobs[0].write_bw_log, "mylog");
  EXPECT_FALSE(NextArgIsValue("thread", "job.fio"));
  EXPECT_TRUE(NextArgIsValue("iodepth", "32"));
  EXPECT_TRUE(NextArgIsValue("zonemode", "zbd"));
}

// `--name --ioengine=null` named a job "--ioengine=null" and silently
// dropped the engine (fio's getopt does the same); now refused.
TEST(CliArgs, AnOptionIsNotTheValueOfThePreviousOne) {
  EXPECT_FALSE(NextArgIsValue("name", "--ioengine=null"));
  EXPECT_FALSE(NextArgIsValue("iodepth", "-rw=read"));
  EXPECT_TRUE(NextArgIsValue("offset", "-8k"));
  auto split = SplitArgs(Words("--name --ioengine=null --size=1m"), Tools());
  ASSERT_TRUE(split.ok());
  ParseInput in;
  in.cli_job_args = split->job_args;
  auto p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "command line: option 'name' needs a value, but the next argument '--ioengine=null' "
            "is an option; write --name=VALUE\n--name\n  ^");
  in.cli_job_args = {"-name=a", "-size", "-rw=write"};
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("option 'size' needs a value, but the next argument "
                                      "'-rw=write' is an option; write -size=VALUE"),
            std::string::npos)
      << p.status().message();
}

// Tool options took the next argument whatever it was: `--output --minimal
// two.fio` wrote the report to a file named "--minimal", `--output
// --name=a ...` lost the job. They now refuse an option as their value, as
// job options do; attached with '=', such a value is still taken.
TEST(CliArgs, AToolOptionDoesNotTakeAnOptionAsItsValue) {
  auto r = SplitArgs(Words("--output --minimal two.fio"), Tools());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "iobench: option '--output' needs a value, but the next argument '--minimal' is an "
            "option; write --output=VALUE (--output=./--minimal if that is really the value)");
  r = SplitArgs(Words("--output --name=a --ioengine=null"), Tools());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the next argument '--name=a' is an option"),
            std::string::npos);
  r = SplitArgs(Words("--section --output-format=json a.fio"), Tools());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("write --section=VALUE (--section=--output-format=json if"),
            std::string::npos);
  r = SplitArgs(Words("-output -size=1m a.fio"), Tools());  // single dashes too
  ASSERT_FALSE(r.ok());
  r = SplitArgs(Words("--section -section a.fio"), Tools());
  ASSERT_FALSE(r.ok());
  auto ok = SplitArgs(Words("--output=./--minimal --output-format -odd a.fio"), Tools());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->tool_args,
            (std::vector<std::string>{"--output=./--minimal", "--output-format=-odd"}));
}

// `iobench -- job.fio` was refused as "unknown option ''"; fio (getopt)
// takes everything after "--" as job files.
TEST(CliArgs, DoubleDashEndsTheOptions) {
  auto split = SplitArgs(Words("--name=a -- --odd.fio b.fio"), Tools());
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->job_args, std::vector<std::string>{"--name=a"});
  EXPECT_EQ(split->job_files, (std::vector<std::string>{"--odd.fio", "b.fio"}));
}

TEST(CliArgs, Refusals) {
  auto r = SplitArgs(Words("--minimal -name=a"), Tools());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "iobench: '--minimal' is a fio command-line option that iobench does not support");
  ParseInput in;
  in.cli_job_args = {"--iodepht=4", "--name=a"};
  auto p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "command line: unknown option 'iodepht'; did you mean 'iodepth'?\n--iodepht=4\n  ^");
  in.cli_job_args = {"--NAME=a"};
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "command line: unknown option 'NAME'; did you mean 'name'?\n--NAME=a\n  ^");
  in.cli_job_args = {"-q", "--name=a"};  // no letter of fio's (its -x is --section)
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), "command line: unknown option 'q'\n-q\n ^");
  in.cli_job_args = {"-name=a", "-iodepth"};
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), "command line: option 'iodepth' needs a value\n-iodepth\n ^");
  // A fio-only option with its value in the next argument is refused by name,
  // before any job file is read.
  auto split = SplitArgs(Words("-cgroup 1 missing.fio -name=a"), Tools());
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->job_files, std::vector<std::string>{"missing.fio"});
  in.cli_job_args = split->job_args;
  in.job_files = split->job_files;
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "command line: option 'cgroup' is a fio option that iobench does not "
            "support yet\n-cgroup 1\n ^");
  in.job_files.clear();
  in.cli_job_args = {};
  p = ParseJobs(in);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "iobench: no jobs defined: give a job file, or job options with --name=NAME");
}

// With no job on the command line and no job file, a bad command-line value
// was refused as "no jobs defined" (`iobench --bs=abc`, `--rw=bogus`, and
// `--bs s.fio`, the job file taken as bs's value); fio 3.33 says "failed
// parsing bs=abc". The value's own error comes first now, and a value that
// names a file says it was taken as the option's value.
TEST(CliArgs, ABadValueIsNamedBeforeNoJobs) {
  const auto refusal = [](const std::vector<std::string>& args,
                          const std::vector<std::string>& files = {}) {
    auto split = SplitArgs(args, Tools());
    EXPECT_TRUE(split.ok());
    ParseInput in;
    in.cli_job_args = split->job_args;
    in.job_files = files.empty() ? split->job_files : files;
    auto p = ParseJobs(in);
    EXPECT_FALSE(p.ok());
    return p.ok() ? std::string() : p.status().message();
  };
  EXPECT_EQ(refusal({"--bs=abc"}), "command line: option 'bs': bad size 'abc'\n--bs=abc\n     ^");
  EXPECT_EQ(refusal({"--rw=bogus"}).substr(0, 46),
            "command line: option 'rw': bad rw mode 'bogus'");
  testing::TempDir dir;
  const std::string job = dir.Write("s.fio", "[a]\nioengine=null\nsize=1m\n");
  // (The error before the hint depends on the path; tests/e2e's
  // cli_bad_value_no_job.sh checks `bad size 's.fio'` in full.)
  const std::string hint = refusal({"--iodepth", job});
  EXPECT_EQ(hint.substr(hint.find(" ('")),
            " ('" + job +
                "' is a file, taken as the value of --iodepth, which needs one; to read it as a "
                "job file, give the option its value first: --iodepth=VALUE " +
                job + ")\n--iodepth " + job + "\n          ^");
  EXPECT_EQ(hint.rfind("command line: option 'iodepth': ", 0), 0u);
  // The same with a job (it said "bad size" without the hint), and with
  // an empty job file ("the job file ... defines no jobs").
  EXPECT_NE(refusal({"--name=x", "--bs", job}).find("is a file, taken as the value of --bs"),
            std::string::npos);
  EXPECT_EQ(refusal({"--bs=abc"}, {dir.Write("empty.fio", "")}).substr(0, 41),
            "command line: option 'bs': bad size 'abc'");
  // A value that is not a file gets no hint.
  EXPECT_EQ(refusal({"--bs", "nofile.fio"}).find("is a file"), std::string::npos);
}

// fio's one-letter options (getopt_long_only: `fio -C host`, `-S`, `-d io`)
// were job options to iobench, refused as "unknown option 'C'"; the long
// forms got the clear refusal. Now a lone letter is its long form: the
// refusal names both, and a tool option's letter is that tool option.
TEST(CliArgs, FioShortOptionsAreTheirLongForms) {
  for (const auto& [letter, name] :
       std::vector<std::pair<std::string, std::string>>{{"-C", "client"},
                                                        {"-S", "server"},
                                                        {"-d", "debug"},
                                                        {"-D", "daemonize"},
                                                        {"-R", "remote-config"},
                                                        {"-T", "cpuclock-test"},
                                                        {"-G", "crctest"},
                                                        {"-M", "memcpytest"},
                                                        {"-I", "idle-prof"},
                                                        {"-X", "inflate-log"},
                                                        {"-W", "trigger-file"},
                                                        {"-B", "trigger-timeout"},
                                                        {"-H", "trigger"},
                                                        {"-J", "trigger-remote"},
                                                        {"-K", "aux-path"},
                                                        {"-A", "merge-blktrace-only"},
                                                        {"-l", "latency-log"},
                                                        {"-p", "profile"}}) {
    auto r = SplitArgs({letter, "host", "a.fio"}, Tools());
    ASSERT_FALSE(r.ok()) << letter;
    EXPECT_EQ(r.status().message(), "iobench: '" + letter + "' ('--" + name +
                                        "') is a fio command-line option that iobench does "
                                        "not support");
    r = SplitArgs({"--" + name, "a.fio"}, Tools());
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(
        r.status().message(),
        "iobench: '--" + name + "' is a fio command-line option that iobench does not support");
  }
  auto ok = SplitArgs(Words("-o out.txt -s -P -x a -c -i -name=a -v b.fio"), Tools());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->tool_args,
            (std::vector<std::string>{"--output=out.txt", "--showcmd", "--parse-only",
                                      "--section=a", "--cmdhelp", "--enghelp", "--version"}));
  EXPECT_EQ(ok->job_args, std::vector<std::string>{"-name=a"});
  EXPECT_EQ(ok->job_files, std::vector<std::string>{"b.fio"});
  // A letter fio does not use stays a job option (and is refused there);
  // a longer word is not a letter (-size, -cgroup).
  ok = SplitArgs(Words("-q -size=1m"), Tools());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->job_args, (std::vector<std::string>{"-q", "-size=1m"}));
}

// The job files under jobs/seeds/ reproduce the seeds.
class CliSeedFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("IOB_DIR", "/mnt/nvme0n1", 1);
    setenv("IOB_DEV", "/dev/nvme1n1p4", 1);
    setenv("IOB_SIZE", "4G", 1);
    setenv("IOB_RUNTIME", "10s", 1);
    setenv("IOB_IODEPTH", "64", 1);
  }
  void TearDown() override {
    for (const char* v : {"IOB_DIR", "IOB_DEV", "IOB_SIZE", "IOB_RUNTIME", "IOB_IODEPTH"})
      unsetenv(v);
  }
  std::vector<JobSpec> Parse(const std::string& rel) {
    ParseInput in;
    in.job_files = {std::string(IOBENCH_SOURCE_DIR) + "/jobs/seeds/" + rel};
    auto r = ParseJobs(in);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? r->jobs : std::vector<JobSpec>{};
  }
};

TEST_F(CliSeedFiles, Seed000And001) {
  auto a = Parse("seed000_io_uring_buffered_randread.fio");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].filenames, std::vector<std::string>{"/mnt/nvme0n1/fio_read_test.txt"});
  EXPECT_EQ(a[0].iodepth, 64u);
  EXPECT_EQ(a[0].randseed, std::optional<uint64_t>(89));
  EXPECT_EQ(a[0].size, 4ull << 30);
  EXPECT_FALSE(a[0].direct);
  EXPECT_EQ(a[0].force_async, 0u);
  auto b = Parse("seed001_io_uring_force_async.fio");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].force_async, 1u);
}

TEST_F(CliSeedFiles, Seed002LibaioDepthAndBatch) {
  for (const char* qd : {"64", "20000"}) {
    setenv("IOB_IODEPTH", qd, 1);
    setenv("IOB_SIZE", "1024m", 1);
    auto j = Parse("seed002_libaio_randread.fio");
    ASSERT_EQ(j.size(), 1u);
    EXPECT_EQ(j[0].name, "testfile2");
    EXPECT_EQ(j[0].ioengine, "libaio");
    EXPECT_TRUE(j[0].direct);  // buffered=0
    EXPECT_EQ(j[0].rw, RwMode::kRandRead);
    EXPECT_EQ(j[0].bs[0].min, 65536u);
    EXPECT_EQ(j[0].size, 1024ull << 20);
    EXPECT_EQ(j[0].directory, "/mnt/nvme0n1");
    EXPECT_EQ(j[0].iodepth, static_cast<uint32_t>(std::stoul(qd)));
    EXPECT_EQ(j[0].iodepth_batch_submit, 8u);
    EXPECT_EQ(j[0].settings[0].source, OptionSource::kGlobal);
  }
}

TEST_F(CliSeedFiles, Seed003BothVariants) {
  for (const char* f : {"seed003_pvsync2_rw_dir.fio", "seed003_pvsync2_rw_blockdev.fio"}) {
    auto j = Parse(f);
    ASSERT_EQ(j.size(), 1u) << f;
    EXPECT_EQ(j[0].rwmixread, 70u);
    EXPECT_EQ(j[0].numjobs, 252u);
    EXPECT_FALSE(j[0].randrepeat);
    EXPECT_TRUE(j[0].norandommap);
    EXPECT_TRUE(j[0].time_based);
    EXPECT_TRUE(j[0].thread);
    EXPECT_TRUE(j[0].group_reporting);
    EXPECT_EQ(j[0].ioengine, "pvsync2");
  }
}

TEST_F(CliSeedFiles, Seed004EnginesAndPatterns) {
  for (const char* e : {"io_uring", "libaio", "psync"}) {
    auto j = Parse(std::string("seed004_") + e + ".fio");
    ASSERT_EQ(j.size(), 4u) << e;
    const RwMode modes[] = {RwMode::kRead, RwMode::kRandRead, RwMode::kWrite, RwMode::kRandWrite};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(j[i].ioengine, e);
      EXPECT_EQ(j[i].rw, modes[i]);
      EXPECT_TRUE(j[i].direct);
      EXPECT_TRUE(j[i].stonewall);
      EXPECT_EQ(j[i].filenames, std::vector<std::string>{"/dev/nvme1n1p4"});
    }
  }
}

TEST_F(CliSeedFiles, UnsetKnobIsNamed) {
  unsetenv("IOB_SIZE");
  ParseInput in;
  in.job_files = {std::string(IOBENCH_SOURCE_DIR) + "/jobs/seeds/seed002_libaio_randread.fio"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(":8:6: environment variable 'IOB_SIZE' is not set"),
            std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace iobench::jobfile
