// JSON and JSON+: fio's schema (keys and order), our fields under
// "iobench", and fio's own tools reading the documents.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "iobench/report.h"
#include "jobfile/parser.h"
#include "report_testdata.h"
#include "stats/summary.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;

nlohmann::ordered_json Json(const RunResult& run, bool plus) {
  std::ostringstream out;
  EXPECT_TRUE(WriteJson(run, ReportOptions{}, plus, out).ok());
  return nlohmann::ordered_json::parse(out.str());
}

std::vector<std::string> Keys(const nlohmann::ordered_json& o) {
  std::vector<std::string> k;
  for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
  return k;
}

TEST(ReportJsonTest, TopLevelKeysInFioOrder) {
  const auto j = Json(testdata::MakeRun(false), false);
  EXPECT_EQ(Keys(j), (std::vector<std::string>{"fio version", "timestamp", "timestamp_ms", "time",
                                               "global options", "jobs", "disk_util", "iobench"}));
  EXPECT_EQ(j["fio version"], "iobench-0.1.0");
  EXPECT_EQ(j["timestamp"], 1796027085u);
  EXPECT_EQ(j["timestamp_ms"], 1796027085957ull);
  EXPECT_EQ(j["global options"]["size"], "16m");
  EXPECT_EQ(j["global options"]["ioengine"], "libaio");
  EXPECT_EQ(j["jobs"].size(), 2u);
  EXPECT_EQ(
      Keys(j["disk_util"][0]),
      (std::vector<std::string>{"name", "read_ios", "write_ios", "read_merges", "write_merges",
                                "read_ticks", "write_ticks", "in_queue", "util"}));
  EXPECT_EQ(j["iobench"]["context"]["kernel"], "6.1.0-18-amd64");
  EXPECT_EQ(j["iobench"]["context"]["clock"], "clock_gettime");
  EXPECT_EQ(j["iobench"]["context"]["kernel_clocksource"], "kvm-clock");
  EXPECT_EQ(j["iobench"]["context"]["targets"][0]["fs_type"], "ext4");
  EXPECT_EQ(j["iobench"]["context"]["targets"][0]["mount_options"],
            "rw,relatime,errors=remount-ro");
  EXPECT_EQ(j["iobench"]["interrupted"], false);
  EXPECT_TRUE(j["iobench"]["point"].is_object());
}

// disk_util has the disks fio 3.33 lists; a loop device's backing disk
// goes to iobench.other_disk_util, in the same shape.
TEST(ReportJsonTest, DisksFioDoesNotListAreUnderIobench) {
  RunResult run = testdata::MakeRun(false);
  run.disks[0].name = "loop0";
  DiskUtil backing = testdata::MakeDisk();
  backing.fio_lists = false;
  run.disks.push_back(backing);
  const auto j = Json(run, false);
  ASSERT_EQ(j["disk_util"].size(), 1u);
  EXPECT_EQ(j["disk_util"][0]["name"], "loop0");
  ASSERT_EQ(j["iobench"]["other_disk_util"].size(), 1u);
  EXPECT_EQ(j["iobench"]["other_disk_util"][0]["name"], "vda");
  EXPECT_EQ(Keys(j["iobench"]["other_disk_util"][0]), Keys(j["disk_util"][0]));
  EXPECT_FALSE(Json(testdata::MakeRun(false), false)["iobench"].contains("other_disk_util"));
}

TEST(ReportJsonTest, JobKeysInFioOrder) {
  const auto j = Json(testdata::MakeRun(false), false)["jobs"][0];
  EXPECT_EQ(Keys(j), (std::vector<std::string>{"jobname",
                                               "groupid",
                                               "error",
                                               "eta",
                                               "elapsed",
                                               "job options",
                                               "read",
                                               "write",
                                               "trim",
                                               "sync",
                                               "job_runtime",
                                               "usr_cpu",
                                               "sys_cpu",
                                               "ctx",
                                               "majf",
                                               "minf",
                                               "iodepth_level",
                                               "iodepth_submit",
                                               "iodepth_complete",
                                               "latency_ns",
                                               "latency_us",
                                               "latency_ms",
                                               "latency_depth",
                                               "latency_target",
                                               "latency_percentile",
                                               "latency_window",
                                               "iobench"}));
  EXPECT_EQ(Keys(j["read"]),
            (std::vector<std::string>{
                "io_bytes",  "io_kbytes", "bw_bytes",  "bw",          "iops",        "runtime",
                "total_ios", "short_ios", "drop_ios",  "slat_ns",     "clat_ns",     "lat_ns",
                "bw_min",    "bw_max",    "bw_agg",    "bw_mean",     "bw_dev",      "bw_samples",
                "iops_min",  "iops_max",  "iops_mean", "iops_stddev", "iops_samples"}));
  EXPECT_EQ(Keys(j["read"]["clat_ns"]),
            (std::vector<std::string>{"min", "max", "mean", "stddev", "N", "percentile"}));
  EXPECT_EQ(Keys(j["read"]["lat_ns"]),
            (std::vector<std::string>{"min", "max", "mean", "stddev", "N"}));
  EXPECT_EQ(Keys(j["sync"]), (std::vector<std::string>{"total_ios", "lat_ns"}));
  EXPECT_EQ(Keys(j["iodepth_level"]),
            (std::vector<std::string>{"1", "2", "4", "8", "16", "32", ">=64"}));
  EXPECT_EQ(Keys(j["iodepth_submit"]),
            (std::vector<std::string>{"0", "4", "8", "16", "32", "64", ">=64"}));
  EXPECT_EQ(Keys(j["latency_ms"]),
            (std::vector<std::string>{"2", "4", "10", "20", "50", "100", "250", "500", "750",
                                      "1000", "2000", ">=2000"}));
  EXPECT_EQ(j["latency_us"].size(), 10u);
  EXPECT_EQ(j["job options"]["rw"], "randrw");
  EXPECT_FALSE(j["job options"].contains("size")) << "global options are listed apart";
}

// fio lists only options written with a value: `stonewall` and
// `group_reporting` as bare flags are left out, `stonewall=1` is listed.
TEST(ReportJsonTest, BareFlagsAreNotListedAsOptions) {
  RunResult run = testdata::MakeRun(false, 1);
  for (auto& g : run.groups)
    for (auto& job : g.jobs) {
      auto& st = job.spec.settings;
      st.push_back(OptionSetting{"group_reporting", "", OptionSource::kGlobal, "t.fio", 2});
      st.push_back(OptionSetting{"time_based", "1", OptionSource::kGlobal, "t.fio", 3});
      st.push_back(OptionSetting{"stonewall", "", OptionSource::kJob, "t.fio", 7});
      st.push_back(OptionSetting{"new_group", "1", OptionSource::kJob, "t.fio", 8});
    }
  const auto j = Json(run, false);
  EXPECT_FALSE(j["global options"].contains("group_reporting"));
  EXPECT_EQ(j["global options"]["time_based"], "1");
  EXPECT_FALSE(j["jobs"][0]["job options"].contains("stonewall"));
  EXPECT_EQ(j["jobs"][0]["job options"]["new_group"], "1");
}

// Several job files: fio lists the last file's [global] section, and no
// "global options" at all when the last file has none.
TEST(ReportJsonTest, GlobalOptionsAreTheLastJobFilesOnes) {
  RunResult run = testdata::MakeRun(false, 2);
  auto& jobs = run.groups[0].jobs;
  jobs[0].spec.settings = {OptionSetting{"size", "64k", OptionSource::kGlobal, "a.fio", 2}};
  jobs[1].spec.settings = {OptionSetting{"bs", "8k", OptionSource::kGlobal, "b.fio", 2}};
  auto j = Json(run, false);
  EXPECT_EQ(Keys(j["global options"]), (std::vector<std::string>{"bs"}));
  jobs[1].spec.settings = {OptionSetting{"bs", "8k", OptionSource::kJob, "b.fio", 2}};
  j = Json(run, false);
  EXPECT_FALSE(j.contains("global options"));
}

// A [global] (or the command line before the first --name) that sets only
// bare flags (`thread`, `group_reporting`): fio writes "global options": {}
// (scripts that read the key find it), and no key for an empty [global].
TEST(ReportJsonTest, GlobalOfBareFlagsIsAnEmptyObject) {
  RunResult run = testdata::MakeRun(false, 1);
  auto& job = run.groups[0].jobs[0];
  job.spec.settings = {OptionSetting{"thread", "", OptionSource::kGlobal, "t.fio", 2},
                       OptionSetting{"bs", "8k", OptionSource::kJob, "t.fio", 4}};
  auto j = Json(run, false);
  ASSERT_TRUE(j.contains("global options"));
  EXPECT_TRUE(j["global options"].is_object());
  EXPECT_TRUE(j["global options"].empty());
  job.spec.settings.erase(job.spec.settings.begin());
  j = Json(run, false);
  EXPECT_FALSE(j.contains("global options"));
}

// fio's "elapsed": the run's wall time in whole seconds, rounded up, the
// same in every job (two 1 s groups one after the other: 3 in both), up to
// the report (made after the last job ends). A startdelay or wait_for before a job's start is in
// that time once (start + elapsed counted it twice: startdelay=2 gave 5).
TEST(ReportJsonTest, ElapsedIsTheRunsRoundedUp) {
  RunResult run = testdata::MakeRun(false);
  ASSERT_GE(run.groups[0].jobs.size(), 2u);
  JobResult& a = run.groups[0].jobs[0];
  JobResult& b = run.groups[0].jobs[1];
  a.start_ms = run.start_ms + 5;
  a.elapsed_ms = 1000;
  a.end_ms = a.start_ms + 1000;
  b.start_ms = a.end_ms;  // after a 1 s startdelay
  b.elapsed_ms = 2010;    // since the run's start
  b.end_ms = a.end_ms + 1010;
  const auto j = Json(run, false);
  EXPECT_EQ(j["jobs"][0]["elapsed"], 3u) << "2015 ms since the run started";
  EXPECT_EQ(j["jobs"][1]["elapsed"], 3u);
  b.start_ms = a.start_ms = b.end_ms = a.end_ms = run.start_ms;
  b.elapsed_ms = a.elapsed_ms = 0;
  EXPECT_EQ(Json(run, false)["jobs"][0]["elapsed"], 1u) << "a finished run took some time";
  // fio counts to the report, made after the jobs end: 2000 ms of I/O and
  // a report 3 ms later is 3 (iobench said 2, up to the last job's end).
  a.end_ms = b.end_ms = run.start_ms + 2000;
  run.timestamp_ms = run.start_ms + 2003;
  EXPECT_EQ(Json(run, false)["jobs"][0]["elapsed"], 3u);
}

// fio applies kb_base/unit_base first and filename/filename_format last,
// and lists them in that order; the rest keep the written order.
TEST(ReportJsonTest, OptionsInFioOrder) {
  RunResult run = testdata::MakeRun(false, 1);
  auto& st = run.groups[0].jobs[0].spec.settings;
  st.clear();
  for (const char* n : {"filename", "size", "kb_base", "rw", "filename_format", "unit_base", "bs"})
    st.push_back(OptionSetting{n, "1", OptionSource::kJob, "t.fio", 2});
  EXPECT_EQ(Keys(Json(run, false)["jobs"][0]["job options"]),
            (std::vector<std::string>{"kb_base", "unit_base", "size", "rw", "bs", "filename",
                                      "filename_format"}));
}

// The engine's own options come after filename, in a pass of their own; a
// direction without I/O at any priority has no "prios" (fio 3.33).
TEST(ReportJsonTest, EngineOptionsLastAndPriosOnlyWhereUsed) {
  RunResult run = testdata::MakeRun(false, 1);
  JobSpec& spec = run.groups[0].jobs[0].spec;
  spec.ioengine = "libaio";
  spec.settings.clear();
  for (const char* n : {"cmdprio_percentage", "rw", "filename", "cmdprio", "iodepth"})
    spec.settings.push_back(OptionSetting{n, "1", OptionSource::kJob, "t.fio", 2});
  DirStats& rd = run.groups[0].jobs[0].stats.dir[0];
  rd.prio_split = true;
  for (const int v : {0, (2 << 13) | 3, (1 << 13) | 1, 3 << 13})
    rd.prios.emplace_back().value = static_cast<uint16_t>(v);
  rd.prios[0].lat.Add(1000);
  rd.prios[1].lat.Add(2000);
  rd.prios[3].lat.Add(3000);
  rd.prios[3].lat.Add(5000);                             // 1/1 completed nothing
  run.groups[0].jobs[0].stats.dir[1].prio_split = true;  // no I/O at any priority
  const auto j = Json(run, false)["jobs"][0];
  EXPECT_EQ(Keys(j["job options"]), (std::vector<std::string>{"rw", "iodepth", "filename",
                                                              "cmdprio_percentage", "cmdprio"}));
  ASSERT_TRUE(j["read"].contains("prios"));
  const auto& prios = j["read"]["prios"];
  ASSERT_EQ(prios.size(), 3u);  // in the stats' order, the empty one left out
  EXPECT_EQ(prios[0]["prioclass"], 0);
  EXPECT_EQ(prios[1]["prioclass"], 2);
  EXPECT_EQ(prios[1]["prio"], 3);
  EXPECT_EQ(prios[2]["prioclass"], 3);
  EXPECT_EQ(prios[2]["prio"], 0);
  EXPECT_EQ(prios[2]["clat_ns"]["N"], 2);
  EXPECT_EQ(prios[2]["clat_ns"]["mean"], 4000.0);
  EXPECT_FALSE(j["write"].contains("prios"));
}

// fio shows a direction's split by priority only when two priorities or
// more completed I/O in it (get_nr_prios_with_samples() >= 2): with
// cmdprio_percentage=100 every I/O is at 1/0, and neither "prios" nor an
// entry for the job's own, empty, 0/0 appears.
TEST(ReportJsonTest, NoPriosWhenOnlyOnePriorityHasSamples) {
  RunResult run = testdata::MakeRunOnePrioWithSamples();
  DirStats& rd = run.groups[0].jobs[0].stats.dir[0];
  EXPECT_FALSE(Json(run, false)["jobs"][0]["read"].contains("prios"));
  rd.prios[0].lat.Add(3000);  // a second priority with samples: both are listed
  EXPECT_EQ(Json(run, false)["jobs"][0]["read"]["prios"].size(), 2u);
}

// fio lists --name=NAME of a command-line job as its first job option; a
// job file's [NAME] header is no option.
TEST(ReportJsonTest, CommandLineJobListsItsName) {
  RunResult run = testdata::MakeRun(false, 1);
  EXPECT_FALSE(Json(run, false)["jobs"][0]["job options"].contains("name"));
  JobSpec& spec = run.groups[0].jobs[0].spec;
  spec.job_file.clear();
  for (auto& s : spec.settings) s.source = OptionSource::kCommandLine;
  const auto opts = Json(run, false)["jobs"][0]["job options"];
  ASSERT_FALSE(opts.empty());
  EXPECT_EQ(opts.begin().key(), "name");
  EXPECT_EQ(opts["name"], "t");
}

// fio applies command-line options one by one: they are listed as written,
// filename and engine options included (no job-file parse priorities).
TEST(ReportJsonTest, CommandLineOptionsInWrittenOrder) {
  RunResult run = testdata::MakeRun(false, 1);
  JobSpec& spec = run.groups[0].jobs[0].spec;
  spec.job_file.clear();
  spec.ioengine = "libaio";
  spec.settings.clear();
  for (const char* n : {"filename", "cmdprio_percentage", "rw", "size"})
    spec.settings.push_back(OptionSetting{n, "1", OptionSource::kCommandLine, "<cmdline>", 0});
  EXPECT_EQ(Keys(Json(run, false)["jobs"][0]["job options"]),
            (std::vector<std::string>{"name", "filename", "cmdprio_percentage", "rw", "size"}));
}

// fio lists the options given before the first --name under "global
// options", in written order, and each command-line job's own under "job
// options"; a job file's jobs still list the command-line globals as their
// own options, since those beat the file's (docs/jobfile.md, precedence).
TEST(ReportJsonTest, CommandLineGlobalsAreGlobalOptions) {
  jobfile::ParseInput in;
  in.cli_job_args = {"--size=1m", "--ioengine=null", "--filename=/x", "--name=a",
                     "--rw=read", "--name=b",        "--bs=8k"};
  auto parsed = jobfile::ParseJobs(in);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->jobs.size(), 2u);
  RunResult run = testdata::MakeRun(false, 1);
  JobResult second = run.groups[0].jobs[0];
  run.groups[0].jobs[0].spec = parsed->jobs[0];
  second.name = "b";
  second.spec = parsed->jobs[1];
  run.groups[0].jobs.push_back(second);
  const auto j = Json(run, false);
  EXPECT_EQ(Keys(j["global options"]), (std::vector<std::string>{"size", "ioengine", "filename"}));
  EXPECT_EQ(Keys(j["jobs"][0]["job options"]), (std::vector<std::string>{"name", "rw"}));
  EXPECT_EQ(Keys(j["jobs"][1]["job options"]), (std::vector<std::string>{"name", "bs"}));
}

// fio names a group_reporting record after the group's first job but
// lists the options of its last job (a fio quirk scripts may rely on).
TEST(ReportJsonTest, GroupReportingListsTheLastJobsOptions) {
  RunResult run = testdata::MakeRun(true);
  ASSERT_EQ(run.groups[0].jobs.size(), 2u);
  JobSpec& last = run.groups[0].jobs[1].spec;
  last.name = "other";
  last.settings.push_back(OptionSetting{"bs", "8k", OptionSource::kJob, "t.fio", 9});
  const auto j = Json(run, false)["jobs"];
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["jobname"], "t");
  EXPECT_EQ(j[0]["job options"]["bs"], "8k");
}

// fio writes latency_depth, _target, _percentile and _window only for a job
// that entered its I/O loop (its latency_qd is set there): a create_only job
// or one whose exec_prerun failed ends its object at latency_ms, and so does
// its normal report without the "latency :" line. In a group, the last
// member's settings and depth count, as fio's ts->latency_* are overwritten
// by each member in turn.
TEST(ReportJsonTest, LatencyKeysOnlyForAJobThatRanIo) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].latency_depth = 0;
  const auto j = Json(run, false)["jobs"][0];
  const std::vector<std::string> keys = Keys(j);
  const auto at = std::find(keys.begin(), keys.end(), "latency_ms");
  ASSERT_NE(at, keys.end());
  EXPECT_EQ(*(at + 1), "iobench");
  for (const char* k : {"latency_depth", "latency_target", "latency_percentile", "latency_window"})
    EXPECT_FALSE(j.contains(k)) << k;
  std::ostringstream normal;
  ASSERT_TRUE(WriteNormal(run, ReportOptions{}, normal).ok());
  EXPECT_EQ(normal.str().find("latency   :"), std::string::npos) << normal.str();

  RunResult grp = testdata::MakeRun(true);
  grp.groups[0].jobs[0].latency_depth = 0;
  grp.groups[0].jobs[1].spec.latency_target_ns = 5000000;
  grp.groups[0].jobs[1].latency_depth = 3;
  const auto g = Json(grp, false)["jobs"][0];
  EXPECT_EQ(g["latency_depth"], 3u);
  EXPECT_EQ(g["latency_target"], 5000000u);
  grp.groups[0].jobs[1].latency_depth = 0;
  EXPECT_FALSE(Json(grp, false)["jobs"][0].contains("latency_depth"));
}

// Options listed under fio's primary name where our table keeps it as an
// alias: blockalign is fio's "ba", iodepth_batch_submit its "iodepth_batch".
TEST(ReportJsonTest, OptionsUnderFiosNames) {
  RunResult run = testdata::MakeRun(false, 1);
  auto& st = run.groups[0].jobs[0].spec.settings;
  st.push_back(OptionSetting{"blockalign", "4k", OptionSource::kJob, "t.fio", 3});
  st.push_back(OptionSetting{"iodepth_batch_submit", "2", OptionSource::kJob, "t.fio", 4});
  st.push_back(OptionSetting{"log_window_value", "1", OptionSource::kGlobal, "t.fio", 5});
  const auto j = Json(run, false);
  EXPECT_EQ(j["jobs"][0]["job options"]["ba"], "4k");
  EXPECT_EQ(j["jobs"][0]["job options"]["iodepth_batch"], "2");
  EXPECT_EQ(j["global options"]["log_max_value"], "1");
  EXPECT_FALSE(j["jobs"][0]["job options"].contains("blockalign"));
}

// fio sets usr_cpu and sys_cpu to 0 when a job's run time in whole ms
// (total_run_time, JSON job_runtime) is 0; iobench divided by the
// microseconds and wrote 84% where fio 3.33 wrote 0.0. The same in terse
// and the normal report; the CPU measured stays in cpu_per_io_us and the
// helpers' µs.
TEST(ReportJsonTest, CpuOfAJobUnderAMillisecondIsZeroAsFios) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& job = run.groups[0].jobs[0];
  job.runtime_ms = 0;
  job.runtime_us = 900;
  job.stats.cpu.user_us = 600;
  job.stats.cpu.sys_us = 150;
  job.helpers = HelperCpu{};
  job.helpers.iowq_sys_us = 300;
  job.helpers.peak_threads = 1;
  const auto j = Json(run, false)["jobs"][0];
  EXPECT_EQ(j["job_runtime"], 0);
  EXPECT_EQ(j["usr_cpu"], 0.0);
  EXPECT_EQ(j["sys_cpu"], 0.0);
  EXPECT_EQ(j["iobench"]["helpers"]["iowq_sys_cpu"], 0.0);
  EXPECT_EQ(j["iobench"]["helpers"]["iowq_sys_us"], 300);
  EXPECT_NEAR(j["iobench"]["cpu_per_io_us"].get<double>(), (600.0 + 150 + 300) / 7900, 1e-6);
  std::ostringstream terse;
  ASSERT_TRUE(WriteTerse(run, ReportOptions{}, terse).ok());
  EXPECT_NE(terse.str().find(";0.000000%;0.000000%;12043;"), std::string::npos) << terse.str();
  std::ostringstream normal;
  ASSERT_TRUE(WriteNormal(run, ReportOptions{}, normal).ok());
  EXPECT_NE(normal.str().find("  cpu          : usr=0.00%, sys=0.00%, ctx=12043,"),
            std::string::npos)
      << normal.str();
  EXPECT_NE(normal.str().find("io-wq usr=0.0%, sys=0.0%"), std::string::npos) << normal.str();
  // One whole ms: over the microseconds, as before (600 of 1900 µs).
  job.runtime_ms = 1;
  job.runtime_us = 1900;
  EXPECT_NEAR(Json(run, false)["jobs"][0]["usr_cpu"].get<double>(), 31.578947, 1e-6);
}

// The text is laid out as fio's: `"key" : value`, two-space indent, floats
// with six decimals (never an exponent), so greps and awk scripts written
// against fio's JSON read ours. Invalid UTF-8 in a name is replaced.
TEST(ReportJsonTest, TextLaidOutAsFio) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].stats.cpu.user_us = 1;  // 0.0000499...%: an exponent in nlohmann
  std::ostringstream out;
  ASSERT_TRUE(WriteJson(run, ReportOptions{}, false, out).ok());
  const std::string t = out.str();
  EXPECT_EQ(
      t.rfind("{\n  \"fio version\" : \"iobench-0.1.0\",\n  \"timestamp\" : 1796027085,\n", 0), 0u)
      << t.substr(0, 200);
  EXPECT_NE(t.find("\n        \"iops\" : 1999.000500,\n"), std::string::npos);
  EXPECT_NE(t.find("\n      \"usr_cpu\" : 0.000050,\n"), std::string::npos);
  EXPECT_EQ(t.find("e-0"), std::string::npos) << "no exponents";
  EXPECT_EQ(t.back(), '\n');
  EXPECT_EQ(nlohmann::json::parse(t)["jobs"][0]["read"]["total_ios"], 4000u);

  run.groups[0].jobs[0].name = "bad\xff";
  std::ostringstream bad;
  ASSERT_TRUE(WriteJson(run, ReportOptions{}, false, bad).ok());
  EXPECT_NE(bad.str().find("\"jobname\" : \"bad\xEF\xBF\xBD\""), std::string::npos);
}

TEST(ReportJsonTest, Values) {
  const RunResult run = testdata::MakeRun(false, 1);
  const JobResult& src = run.groups[0].jobs[0];
  const auto j = Json(run, false)["jobs"][0];
  const auto& r = j["read"];
  EXPECT_EQ(r["io_bytes"], 4000u * 4096);
  EXPECT_EQ(r["io_kbytes"], 4000u * 4);
  EXPECT_EQ(r["bw_bytes"], 4000ull * 4096 * 1000 / 2001);
  EXPECT_EQ(r["bw"], 4000ull * 4096 * 1000 / 2001 / 1024);
  EXPECT_NEAR(r["iops"].get<double>(), 4000.0 * 1000 / 2001, 1e-6);  // "%f", as fio
  EXPECT_EQ(r["runtime"], 2001u);
  EXPECT_EQ(r["total_ios"], 4000u);
  EXPECT_EQ(r["clat_ns"]["N"], 4000u);
  EXPECT_EQ(r["clat_ns"]["min"], src.stats.dir[0].clat.Min());
  EXPECT_EQ(r["clat_ns"]["max"], src.stats.dir[0].clat.max);
  EXPECT_EQ(r["clat_ns"]["percentile"]["99.000000"], Percentile(src.stats.dir[0].clat_hist, 99));
  EXPECT_EQ(r["clat_ns"]["percentile"].size(), 17u);
  EXPECT_EQ(r["bw_samples"], 4u);
  EXPECT_EQ(r["iops_samples"], 4u);
  EXPECT_EQ(j["trim"]["total_ios"], 0u);
  EXPECT_EQ(j["ctx"], 12043u);
  EXPECT_EQ(j["latency_depth"], 8u);
  const auto& ib = j["iobench"];
  EXPECT_EQ(ib["helpers"]["peak_threads"], 4u);
  EXPECT_EQ(ib["helpers"]["iowq_sys_us"], 412000u);
  EXPECT_DOUBLE_EQ(ib["ios_per_call"]["submit"].get<double>(), 4.0);
  EXPECT_EQ(ib["ios_per_call"]["reap_syscalls"], 7900u / 8);
  EXPECT_NEAR(ib["cpu_per_io_us"].get<double>(), (60000.0 + 530000 + 412000 + 1000) / 7900, 1e-6);
  EXPECT_EQ(ib["notes"][0], "buffered I/O: the page cache served part of the reads");
  EXPECT_FALSE(r["clat_ns"].contains("bins")) << "bins only in json+";
}

// bw_min/max/mean/dev/agg come from fio's whole-KiB/s samples: bw_mean is
// 3500 for samples of 3000.98 and 4000.999 KiB/s (it was 3500.99), and
// bw_agg divides it by the group's aggregate in KiB/s (4000 x 4096 B over
// 2001 ms: 8187906 B/s, 7995.998 KiB/s, not cut to 7996, as fio 3.33), in
// json and json+ alike.
TEST(ReportJsonTest, BwStatsAreOverWholeKibSamples) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].stats.dir[0].bw_samples = {{500, 3000 * 1024 + 1000},
                                                   {1000, 4000 * 1024 + 1023}};
  for (bool plus : {false, true}) {
    const auto r = Json(run, plus)["jobs"][0]["read"];
    EXPECT_EQ(r["bw_min"], 3000u);
    EXPECT_EQ(r["bw_max"], 4000u);
    EXPECT_DOUBLE_EQ(r["bw_mean"].get<double>(), 3500.0);
    // Floats are written with six decimals, as fio's "%f".
    EXPECT_NEAR(r["bw_dev"].get<double>(), 1000.0 / std::sqrt(2.0), 1e-6);
    EXPECT_NEAR(r["bw_agg"].get<double>(), 3500.0 * 100 / (8187906 / 1024.0), 1e-6);
    EXPECT_EQ(r["bw_samples"], 2u);
  }
}

TEST(ReportJsonTest, JsonPlusBinsAreTheNonEmptyBuckets) {
  const RunResult run = testdata::MakeRun(false, 1);
  const Histogram& h = run.groups[0].jobs[0].stats.dir[1].clat_hist;
  const auto bins = Json(run, true)["jobs"][0]["write"]["clat_ns"]["bins"];
  size_t nonempty = 0;
  uint64_t total = 0;
  for (unsigned i = 0; i < Histogram::kNr; ++i) {
    if (!h.counts[i]) continue;
    ++nonempty;
    total += h.counts[i];
    EXPECT_EQ(bins[std::to_string(Histogram::IndexToValue(i))], h.counts[i]);
  }
  EXPECT_EQ(bins.size(), nonempty);
  EXPECT_EQ(total, 3900u);
}

TEST(ReportJsonTest, GroupReportingOneRecordAndSweepPoint) {
  RunResult run = testdata::MakeRun(true);
  run.point = {{"iodepth", "32"}};
  run.interrupted = true;
  const auto j = Json(run, false);
  ASSERT_EQ(j["jobs"].size(), 1u);
  EXPECT_EQ(j["jobs"][0]["read"]["total_ios"], 8000u);
  EXPECT_EQ(j["jobs"][0]["iobench"]["members"], 2u);
  EXPECT_EQ(j["iobench"]["point"]["iodepth"], "32");
  EXPECT_EQ(j["iobench"]["interrupted"], true);
}

void WriteJsonFile(const std::string& path, const RunResult& run, bool plus) {
  std::ofstream f(path);
  ASSERT_TRUE(WriteJson(run, ReportOptions{}, plus, f).ok());
}

// fio's own json+ tool must accept our output (issue 3).
TEST(ReportJsonTest, FioJsonplusClat2csvAcceptsOurOutput) {
  if (std::system("command -v fio_jsonplus_clat2csv >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "fio_jsonplus_clat2csv not installed (Debian package fio)";
  if (std::system("python3 -c 'import six' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "fio_jsonplus_clat2csv needs python3-six";
  TempDir dir;
  const std::string in = dir.path() + "/out.json";
  WriteJsonFile(in, testdata::MakeRun(false), true);
  const std::string csv = dir.path() + "/lat.csv";
  const std::string cmd = "fio_jsonplus_clat2csv " + in + " " + csv + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  for (int job = 0; job < 2; ++job) {
    const std::string out = dir.path() + "/lat_job" + std::to_string(job) + ".csv";
    std::ifstream f(out);
    ASSERT_TRUE(f.good()) << out;
    std::string header, row;
    std::getline(f, header);
    EXPECT_EQ(header.rfind("nsec, read_slat_ns_count", 0), 0u) << header;
    size_t rows = 0;
    while (std::getline(f, row)) ++rows;
    EXPECT_GT(rows, 10u);
  }
  // Its --validate mode re-reads the CSV and checks every count against ours.
  const std::string validate =
      "fio_jsonplus_clat2csv --validate " + in + " " + csv + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(validate.c_str()), 0) << validate;
}

// How fio's python tools (and people's scripts) read fio JSON: json.load and
// these key paths.
TEST(ReportJsonTest, PythonReadsFioKeyPaths) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  TempDir dir;
  const std::string in = dir.path() + "/out.json";
  WriteJsonFile(in, testdata::MakeRun(false), false);
  const std::string script = dir.path() + "/check.py";
  std::ofstream(script) << R"PY(
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fio version"].startswith("iobench-")
for job in d["jobs"]:
    for ddir in ("read", "write", "trim"):
        s = job[ddir]
        float(s["iops"]); int(s["bw"]); int(s["io_bytes"]); int(s["runtime"])
        for lat in ("slat_ns", "clat_ns", "lat_ns"):
            o = s[lat]
            int(o["min"]); int(o["max"]); float(o["mean"]); float(o["stddev"]); int(o["N"])
    p = job["read"]["clat_ns"]["percentile"]
    assert "99.000000" in p and "50.000000" in p, p.keys()
    float(job["usr_cpu"]); float(job["sys_cpu"]); int(job["ctx"])
    assert sum(job["iodepth_level"].values()) > 99
    assert job["jobname"] == "t" and job["groupid"] == 0 and job["error"] == 0
    job["job options"]["rw"]
    job["iobench"]["helpers"]["peak_threads"]
for du in d["disk_util"]:
    du["name"]; int(du["read_ios"]); float(du["util"])
print("ok")
)PY";
  const std::string cmd = "python3 " + script + " " + in + " >/dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace iobench
