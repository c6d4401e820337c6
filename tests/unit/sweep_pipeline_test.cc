// The whole sweep pipeline as main.cc will wire it, with fio 3.33 (null
// engine) standing in for the run core: expand -> per point: hook, apply,
// run (x repeat, merged), JSON -> combine -> table / compare / plot script.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include "report/plot.h"
#include "report/table.h"
#include "sweep/sweep.h"
#include "table_fixtures.h"
#include "temp_dir.h"

namespace iobench::sweep {
namespace {

using iobench::testing::TempDir;
using nlohmann::json;

Status SetIodepth(JobSpec* job, const std::string& name, const std::string& value,
                  std::vector<std::string>* = nullptr) {
  if (name != "iodepth") return Status::Invalid("unknown option " + name);
  job->iodepth = static_cast<uint32_t>(std::stoul(value));
  return Status::Ok();
}
bool IsJobOption(const std::string& name) { return name == "iodepth"; }

// "Runs" a job with fio and returns its JSON.
Result<json> RunWithFio(const JobSpec& job, const std::string& dir, int run) {
  const std::string out = dir + "/run" + std::to_string(run) + ".json";
  const std::string cmd =
      "fio --name=" + job.name +
      " --ioengine=null --size=4m --rw=randread --bs=4k --iodepth=" + std::to_string(job.iodepth) +
      " --output-format=json --output=" + out + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) return Status::Internal("fio failed");
  return LoadResultsJson(out);
}

TEST(SweepPipelineTest, ExpandHookApplyRunCombineRender) {
  if (std::system("fio --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "fio is not installed (Debian package fio)";
  TempDir tmp;
  auto points = ExpandSweeps({"iodepth=1..4:x4", "setra=0,64"});
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 4u);
  JobSpec base;
  base.name = "rr";
  std::vector<std::pair<SweepPoint, ojson>> results;
  std::vector<std::string> logs;
  int run = 0;
  for (const auto& p : *points) {
    std::string log;
    int code = -1;
    ASSERT_TRUE(RunHook("echo readahead {}", p, &log, IsJobOption, &code).ok());
    logs.push_back(log);
    auto jobs = ApplyPoint({base}, p, SetIodepth, IsJobOption);
    ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
    std::vector<ojson> runs;
    for (int r = 0; r < 2; ++r) {  // --repeat=2
      auto doc = RunWithFio((*jobs)[0], tmp.path(), run++);
      ASSERT_TRUE(doc.ok()) << doc.status().ToString();
      runs.push_back(*doc);
    }
    auto merged = MergeRepeats(runs);
    ASSERT_TRUE(merged.ok()) << merged.status().ToString();
    results.emplace_back(p, *merged);
  }
  json doc = CombineSweepResults(results, &logs);
  ASSERT_EQ(doc["jobs"].size(), 4u);
  EXPECT_EQ(doc["jobs"][3]["iobench"]["point"], (json{{"iodepth", "4"}, {"setra", "64"}}));
  EXPECT_EQ(doc["jobs"][3]["job options"]["iodepth"], "4");
  EXPECT_EQ(doc["jobs"][3]["iobench"]["repeat"]["n"], 2);
  EXPECT_EQ(doc["jobs"][3]["read"]["total_ios"], 1024);  // 4 MiB / 4 KiB, median of equal runs
  const std::string hook_log = doc["iobench"]["sweep"]["hook_log"];
  EXPECT_EQ(hook_log.rfind("# point: iodepth=1 setra=0\n$ echo readahead 0\nreadahead 0\n", 0), 0u)
      << hook_log;

  // The table: rows iodepth, columns setra, every cell filled.
  TableOptions o;
  o.style = TableStyle::kCsv;
  o.caption = false;
  auto t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->substr(0, t->find('\n')), "iodepth,setra=0,setra=64");
  EXPECT_EQ(std::count(t->begin(), t->end(), '\n'), 3);
  EXPECT_EQ(t->find(",,"), std::string::npos) << *t;
  EXPECT_EQ(t->find(",\n"), std::string::npos) << *t;
  o.caption = true;
  o.style = TableStyle::kPlain;
  t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->substr(0, t->find('\n')), "read IOPS by iodepth and setra");

  // Compared with itself: every delta 0.00, and inside the noise.
  auto c = RenderCompare(doc, doc, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NE(c->find("iodepth=1: read IOPS"), std::string::npos);
  EXPECT_EQ(c->find("only in"), std::string::npos);
  size_t marks = 0;
  for (size_t pos = 0; (pos = c->find("0.00 ~", pos)) != std::string::npos; ++pos) ++marks;
  // fio reports 0 IOPS for a run shorter than its 1 ms clock: no delta then.
  bool all_positive = true;
  for (const auto& j : doc["jobs"]) all_positive &= j["read"]["iops"].get<double>() > 0;
  if (all_positive) {
    EXPECT_EQ(marks, 4u) << *c;
  }

  PlotOptions po;
  po.path = tmp.path() + "/p.svg";
  auto script = PlotScript(doc, po);
  ASSERT_TRUE(script.ok()) << script.status().ToString();
  EXPECT_NE(script->find("title 'setra=64'"), std::string::npos);
}

}  // namespace
}  // namespace iobench::sweep
