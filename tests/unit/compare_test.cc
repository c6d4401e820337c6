#include <gtest/gtest.h>
#include <sys/wait.h>

#include "report/table.h"
#include "table_fixtures.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using iobench::testing::DirFigures;
using iobench::testing::ExpectGolden;
using iobench::testing::MakeDoc;
using iobench::testing::MakeJob;
using iobench::testing::TempDir;
using nlohmann::json;
using table::FormatDelta;

// Seed 004: brd with bio (base) and blk-mq (new), MB/s per engine and rw.
json Seed004Doc(bool blk_mq) {
  const char* engines[] = {"io_uring", "libaio", "psync"};
  const char* rws[] = {"read", "randread", "write", "randwrite"};
  const double bio[3][4] = {{189, 182, 442, 377}, {415, 392, 410, 371}, {700, 633, 705, 598}};
  const double mq[3][4] = {{449, 419, 425, 384}, {339, 325, 340, 318}, {554, 497, 181, 169}};
  std::vector<json> jobs;
  for (int e = 0; e < 3; ++e) {
    for (int r = 0; r < 4; ++r) {
      DirFigures f;
      f.bw_bytes = (blk_mq ? mq : bio)[e][r] * 1048576;
      f.iops = f.bw_bytes / 4096;
      const bool write = r >= 2;
      jobs.push_back(MakeJob("brd", {{"ioengine", engines[e]}, {"rw", rws[r]}},
                             write ? "write" : "read", f,
                             {{"direct", "1"}, {"bs", "4k"}, {"filename", "/dev/ram0"}}));
    }
  }
  return MakeDoc(jobs, {"ioengine", "rw"});
}

TEST(CompareTest, Seed004Shape) {
  TableOptions o;
  o.metrics = {TableMetric::kBw};
  o.style = TableStyle::kAscii;
  o.base_label = "bio(base)";
  o.new_label = "blk-mq";
  auto r = RenderCompare(Seed004Doc(false), Seed004Doc(true), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectGolden("seed004.ascii.txt", *r);
  // The seed's own arithmetic, row by row.
  EXPECT_NE(r->find("| read      |       189 |    449 | 137.57 |"), std::string::npos) << *r;
  EXPECT_NE(r->find("| write     |       442 |    425 |  -3.85 |"), std::string::npos);
  EXPECT_NE(r->find("| randwrite |       598 |    169 | -71.74 |"), std::string::npos);
  o.style = TableStyle::kMarkdown;
  r = RenderCompare(Seed004Doc(false), Seed004Doc(true), o);
  ASSERT_TRUE(r.ok());
  ExpectGolden("seed004.md", *r);
}

TEST(CompareTest, MatchesByNameAndPointInBaseOrder) {
  DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  std::vector<json> base = {MakeJob("a", {{"iodepth", "1"}}, "read", f),
                            MakeJob("a", {{"iodepth", "2"}}, "read", f),
                            MakeJob("gone", {{"iodepth", "1"}}, "read", f)};
  std::vector<json> neu = {MakeJob("a", {{"iodepth", "2"}}, "read", f),
                           MakeJob("a", {{"iodepth", "1"}}, "read", f),
                           MakeJob("added", {}, "read", f)};
  neu[0]["read"]["iops"] = 150.0;  // iodepth=2: +50%
  neu[1]["read"]["iops"] = 75.0;   // iodepth=1: -25%
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(MakeDoc(base, {"iodepth"}), MakeDoc(neu), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "job             base   new    delta\n"
            "a [iodepth=1]    100    75   -25.00\n"
            "a [iodepth=2]    100   150    50.00\n"
            "\n"
            "only in base: gone [iodepth=1]\n"
            "only in new: added\n");
}

TEST(CompareTest, SeveralJobsNameTheKeyInEachRow) {
  // Two jobs swept over iodepth and bs: split by iodepth, each row is the
  // job and its bs written out, under a "job" header (it said "a 4k" under
  // a header "1").
  DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  std::vector<json> jobs;
  for (const char* name : {"a", "b"})
    for (const char* qd : {"1", "2"})
      for (const char* bs : {"4k", "8k"})
        jobs.push_back(MakeJob(name, {{"iodepth", qd}, {"bs", bs}}, "read", f));
  json doc = MakeDoc(jobs, {"iodepth", "bs"});
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(doc, doc, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->substr(0, r->find("\n\n")),
            "job         base   new   delta\n"
            "a [bs=4k]    100   100    0.00\n"
            "a [bs=8k]    100   100    0.00\n"
            "b [bs=4k]    100   100    0.00\n"
            "b [bs=8k]    100   100    0.00");
}

TEST(CompareTest, NoiseMarkFromRepeatRanges) {
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  auto job = [&](const std::string& name, double iops, double lo, double hi) {
    json j = MakeJob(name, {}, "read", f);
    j["read"]["iops"] = iops;
    j["iobench"] = {
        {"repeat",
         {{"n", 3}, {"min", {{"read", {{"iops", lo}}}}}, {"max", {{"read", {{"iops", hi}}}}}}}};
    return j;
  };
  json base = MakeDoc({job("overlap", 1000, 950, 1050), job("apart", 1000, 990, 1010)});
  json neu = MakeDoc({job("overlap", 1030, 1000, 1080), job("apart", 1200, 1150, 1250)});
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "job        base     new    delta\n"
            "overlap   1.00k   1.03k   3.00 ~\n"
            "apart     1.00k   1.20k    20.00\n"
            "\n"
            "~ : inside the run-to-run noise (the min-max ranges of the repeated runs overlap)\n");
}

TEST(CompareTest, AsDataForTheJsonDocument) {
  // --compare with --output-format=json: the comparison goes into the JSON
  // document (the delta table appended to it made the file unreadable).
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  auto job = [&](const std::string& name, const std::string& depth, double iops) {
    json j = MakeJob(name, {{"iodepth", depth}}, "read", f);
    j["read"]["iops"] = iops;
    return j;
  };
  json base = MakeDoc({job("a", "1", 1000), job("a", "2", 0), job("gone", "1", 5)}, {"iodepth"});
  json neu = MakeDoc({job("a", "1", 1250), job("a", "2", 10), job("new", "1", 5)}, {"iodepth"});
  TableOptions o;
  o.base_label = "base.json";
  o.new_label = "this run";
  const json c = CompareJson(base, neu, o);
  const json want = {{"base", "base.json"},
                     {"new", "this run"},
                     {"warnings", json::array()},
                     {"notes", json::array()},
                     {"rows",
                      {{{"job", "a"},
                        {"point", {{"iodepth", "1"}}},
                        {"metric", "iops"},
                        {"direction", "read"},
                        {"base", 1000.0},
                        {"new", 1250.0},
                        {"delta_pct", 25.0},
                        {"noise", false},
                        {"base_interrupted", false},
                        {"new_interrupted", false},
                        {"base_failed", false},
                        {"new_failed", false}},
                       {{"job", "a"},
                        {"point", {{"iodepth", "2"}}},
                        {"metric", "iops"},
                        {"direction", "read"},
                        {"base", 0.0},
                        {"new", 10.0},
                        {"delta_pct", nullptr},
                        {"noise", false},
                        {"base_interrupted", false},
                        {"new_interrupted", false},
                        {"base_failed", false},
                        {"new_failed", false}}}},
                     {"only_in_base", {{{"job", "gone"}, {"point", {{"iodepth", "1"}}}}}},
                     {"only_in_new", {{{"job", "new"}, {"point", {{"iodepth", "1"}}}}}}};
  EXPECT_EQ(c, want) << c.dump(1);
}

TEST(CompareTest, JsonFiguresHaveSixDecimalsAsTheRunsDocument) {
  // A run's document writes floats as fio does ("%f"): delta_pct was
  // -66.666667 there and -66.66666666666666 from two files.
  DirFigures f;
  f.iops = 3000;
  f.bw_bytes = 3000 * 4096.0;
  json base = MakeDoc({MakeJob("a", {}, "read", f)});
  json neu = base;
  neu["jobs"][0]["read"]["iops"] = 1000.0;
  neu["jobs"][0]["read"]["bw_bytes"] = 1000.0 / 3;  // 0.000318 MiB/s
  TableOptions o;
  o.metrics = {TableMetric::kIops, TableMetric::kBw};
  const json c = CompareJson(base, neu, o);
  ASSERT_EQ(c["rows"].size(), 2u) << c.dump(1);
  EXPECT_EQ(c["rows"][0]["delta_pct"].dump(), "-66.666667");
  EXPECT_EQ(c["rows"][1]["new"].dump(), "0.000318");
  EXPECT_EQ(c["rows"][1]["base"].dump(), "11.71875");
}

// A read sweep as base, a write sweep as new: each side's row is labelled
// with its own direction (the base's used to label both), and the tables
// and the JSON say that the deltas compare different directions.
TEST(CompareTest, SidesMeasuringDifferentDirectionsAreSaid) {
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  auto sweep = [&](const std::string& dir, double iops) {
    std::vector<json> jobs;
    for (const char* qd : {"1", "2"}) {
      jobs.push_back(MakeJob("n", {{"iodepth", qd}}, dir, f));
      jobs.back()[dir]["iops"] = iops;
    }
    return MakeDoc(jobs, {"iodepth"});
  };
  TableOptions o;
  o.base_label = "r.json";
  o.new_label = "w.json";
  const json c = CompareJson(sweep("read", 1000), sweep("write", 500), o);
  ASSERT_EQ(c["rows"].size(), 2u) << c.dump(1);
  for (const auto& row : c["rows"]) {
    EXPECT_FALSE(row.contains("direction")) << row.dump();
    EXPECT_EQ(row["base_direction"], "read") << row.dump();
    EXPECT_EQ(row["new_direction"], "write") << row.dump();
    EXPECT_EQ(row["base"], 1000.0);
    EXPECT_EQ(row["new"], 500.0);
  }
  const std::string warning =
      "r.json measured read and w.json write (every row): these deltas compare different "
      "directions";
  EXPECT_EQ(c["warnings"], json::array({warning})) << c.dump(1);
  o.caption = false;
  auto r = RenderCompare(sweep("read", 1000), sweep("write", 500), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("\nwarning: " + warning + "\n"), std::string::npos) << *r;

  // Only some rows differ: those are named; the same direction keeps one label.
  json mixed = sweep("read", 1000);
  json w = MakeJob("n", {{"iodepth", "2"}}, "write", f);
  mixed["jobs"][1] = w;
  const json c2 = CompareJson(sweep("read", 1000), mixed, o);
  ASSERT_EQ(c2["rows"].size(), 2u) << c2.dump(1);
  EXPECT_EQ(c2["rows"][0]["direction"], "read") << c2.dump(1);
  EXPECT_EQ(c2["rows"][1]["new_direction"], "write") << c2.dump(1);
  EXPECT_EQ(c2["warnings"],
            json::array({"r.json measured read and w.json write (n [iodepth=2]): these deltas "
                         "compare different directions"}))
      << c2.dump(1);
  // Same directions: no warning.
  EXPECT_EQ(CompareJson(sweep("read", 1000), sweep("read", 5), o)["warnings"], json::array());
}

// A point cut by Ctrl-C or whose job failed keeps its sweep-table mark in
// the delta table, on the side it happened, with the same notes (it
// showed plain numbers, read as measurements).
TEST(CompareTest, CarriesCutAndFailedMarks) {
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  auto sweep = [&]() {
    std::vector<json> jobs;
    for (const char* qd : {"1", "2", "4"})
      jobs.push_back(MakeJob("j", {{"iodepth", qd}}, "read", f));
    return MakeDoc(jobs, {"iodepth"});
  };
  json base = sweep(), neu = sweep();
  base["jobs"][1]["iobench"]["interrupted"] = true;
  neu["jobs"][2]["error"] = 22;
  TableOptions o;
  o.caption = false;
  o.base_label = "b.json";
  o.new_label = "n.json";
  auto r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "iodepth    b.json    n.json   delta\n"
            "1           1.00k     1.00k    0.00\n"
            "2         1.00k *     1.00k    0.00\n"
            "4           1.00k   1.00k !    0.00\n"
            "\n"
            "* interrupted: this point ran only part of its time\n"
            "! failed: a job of this point ended with an error, err=22 (Invalid argument); its "
            "figures are what it did before the error\n");
  // The JSON rows carry them per side.
  const json c = CompareJson(base, neu, o);
  ASSERT_EQ(c["rows"].size(), 3u) << c.dump(1);
  EXPECT_EQ(c["rows"][1]["base_interrupted"], true);
  EXPECT_EQ(c["rows"][1]["new_interrupted"], false);
  EXPECT_EQ(c["rows"][2]["new_failed"], true);
  EXPECT_EQ(c["rows"][2]["base_failed"], false);
  EXPECT_EQ(c["rows"][0]["base_interrupted"], false);
  o.style = TableStyle::kCsv;
  r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("\n2,1000,1000,0.00\n"), std::string::npos) << *r;
  EXPECT_NE(r->find("# interrupted (ran only part of its time): j [iodepth=2] in b.json\n"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("# failed (ended with an error): j [iodepth=4] in n.json err=22\n"),
            std::string::npos)
      << *r;
}

// The notes under the delta tables name jobs and points as the cells do,
// one line each: a newline in a name wrote a line of its own.
TEST(CompareTest, NotesNamingJobsStayOneLine) {
  DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  json base = MakeDoc({MakeJob("a", {}, "read", f), MakeJob("gone\nline", {}, "read", f)});
  json neu = MakeDoc({MakeJob("a", {}, "read", f), MakeJob("new\x01", {}, "read", f)});
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("\nonly in base: gone\\nline\n"), std::string::npos) << *r;
  EXPECT_NE(r->find("\nonly in new: new\\x01\n"), std::string::npos) << *r;
}

// A document of one job `name` doing 4 KiB I/O at `iops` in `dir`.
json OneJobDoc(const std::string& name, const std::string& dir, double iops) {
  DirFigures f;
  f.iops = iops;
  f.bw_bytes = iops * 4096;
  return MakeDoc({MakeJob(name, {}, dir, f)});
}

// The delta tables of `metrics` without captions; an error fails the test.
std::string MustCompare(const json& base, const json& neu, std::vector<TableMetric> metrics) {
  TableOptions o;
  o.caption = false;
  o.metrics = std::move(metrics);
  auto r = RenderCompare(base, neu, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::string();
}

TEST(CompareTest, ZeroBaseAndErrors) {
  json base = OneJobDoc("j", "read", 10);
  json neu = base;
  base["jobs"][0]["usr_cpu"] = 0.0;
  EXPECT_EQ(MustCompare(base, neu, {TableMetric::kUsrCpu}),
            "job   base    new   delta\nj        0   10.0       -\n");
  EXPECT_EQ(RenderCompare(MakeDoc({}), neu, {}).status().message(), "compare: base holds no jobs");
}

TEST(CompareTest, CpuOfAJobMixingDirections) {
  // CPU is per job: a randrw job's usr_cpu and cpu_per_io are its own
  // figures (they printed nothing, exit 0).
  json base = OneJobDoc("m", "rw", 1000);
  json neu = base;
  neu["jobs"][0]["usr_cpu"] = 15.0;
  // cpu_per_io: (10 + 30) % of 10 s over 20000 I/Os = 200 µs, then 225.
  EXPECT_EQ(MustCompare(base, neu, {TableMetric::kUsrCpu, TableMetric::kCpuPerIo}),
            "job   base    new   delta\nm     10.0   15.0   50.00\n\n"
            "job   base   new   delta\nm      200   225   12.50\n");
}

TEST(CompareTest, AMetricNeitherFileHasIsSaid) {
  // slat of a job whose files have none printed nothing at all, exit 0.
  json base = OneJobDoc("m", "read", 1000);
  EXPECT_EQ(MustCompare(base, base, {TableMetric::kSlatMean, TableMetric::kIops}),
            "job    base     new   delta\nm     1.00k   1.00k    0.00\n\n"
            "no slat_mean in either file for the jobs they share\n");
}

TEST(CompareTest, SameNameInTwoGroupsIsMatchedByGroup) {
  // Two separate jobs called x (a read phase, then a stonewalled write
  // phase) are two rows, each matched with its own group on the other side.
  json base = OneJobDoc("x", "read", 1000);
  base["jobs"].push_back(OneJobDoc("x", "write", 2000)["jobs"][0]);
  base["jobs"][1]["groupid"] = 1;
  json neu = base;
  neu["jobs"][1]["write"]["iops"] = 3000.0;
  EXPECT_EQ(MustCompare(base, neu, {TableMetric::kIops}),
            "job        base     new   delta\n"
            "x (g=0)   1.00k   1.00k    0.00\n"
            "x (g=1)   2.00k   3.00k   50.00\n");
}

// fio's cpu_per_io comes from usr_cpu/sys_cpu, its job's own thread;
// iobench's counts the io_uring io-wq workers too (cpu_scope
// own_threads_and_helpers): `3.42 -> 28.6, +737%` with no word of it.
TEST(CompareTest, CpuPerIoOfFioAgainstIobenchComparesOwnThreads) {
  // fio: (10 + 30) % of 10 s over 10000 I/Os = 400 µs.
  const json fio = OneJobDoc("m", "read", 1000);
  json iob = fio;
  // iobench: 3350 µs, of which its io-wq workers' 29 s over 10000 I/Os
  // are 2900: its own thread's 450.
  iob["jobs"][0]["iobench"] = {{"cpu_per_io_us", 3350.0},
                               {"cpu_scope", "own_threads_and_helpers"},
                               {"helpers",
                                {{"iowq_user_us", 0},
                                 {"iowq_sys_us", 29000000},
                                 {"sqpoll_user_us", 0},
                                 {"sqpoll_sys_us", 0},
                                 {"aio_user_us", 0},
                                 {"aio_sys_us", 0},
                                 {"other_user_us", 0},
                                 {"other_sys_us", 0}}}};
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kCpuPerIo};
  o.base_label = "fio.json";
  o.new_label = "iob.json";
  const std::string note =
      "cpu_per_io: each job's own threads on both sides: fio.json's figures count only them "
      "(fio's usr_cpu + sys_cpu), so iob.json's leave out the kernel helper threads it counts "
      "(io-wq, SQPOLL, aio: cpu_per_io_us less iobench.helpers)";
  auto r = RenderCompare(fio, iob, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(
      *r, "job   fio.json   iob.json   delta\nm          400        450   12.50\n\n" + note + "\n");
  json c = CompareJson(fio, iob, o);
  EXPECT_EQ(c["rows"][0]["base"], 400.0);
  EXPECT_EQ(c["rows"][0]["new"], 450.0);
  EXPECT_EQ(c["notes"], json::array({note}));
  EXPECT_EQ(c["warnings"], json::array());
  // The other way round: the base is iobench's.
  o.base_label = "iob.json";
  o.new_label = "fio.json";
  r = RenderCompare(iob, fio, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("m          450        400   -11.11\n"), std::string::npos) << *r;
  // Two iobench files: alike, their whole figures and no note.
  EXPECT_EQ(MustCompare(iob, iob, {TableMetric::kCpuPerIo}),
            "job   base    new   delta\nm     3350   3350    0.00\n");
  // Other metrics are not touched, nor noted.
  EXPECT_EQ(MustCompare(fio, iob, {TableMetric::kIops}),
            "job    base     new   delta\nm     1.00k   1.00k    0.00\n");
  // Without the helpers' figures (an interim record's null): cannot be
  // made alike, and the report says the scopes differ.
  iob["jobs"][0]["iobench"]["helpers"] = nullptr;
  o.base_label = "fio.json";
  o.new_label = "iob.json";
  r = RenderCompare(fio, iob, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::string warning =
      "cpu_per_io: iob.json's figures include kernel helper threads (io-wq, SQPOLL, aio) and "
      "fio.json's do not (fio's usr_cpu + sys_cpu: each job's own threads); iob.json does not "
      "hold its helpers' CPU (iobench.helpers) to leave it out: these deltas compare different "
      "scopes";
  EXPECT_EQ(*r,
            "job   fio.json   iob.json    delta\nm          400       3350   737.50\n\n"
            "warning: " +
                warning + "\n");
  EXPECT_EQ(CompareJson(fio, iob, o)["warnings"], json::array({warning}));
  // An interim record's figure is its own threads' already: alike.
  iob["jobs"][0]["iobench"]["cpu_scope"] = "own_threads";
  EXPECT_EQ(MustCompare(fio, iob, {TableMetric::kCpuPerIo}),
            "job   base    new    delta\nm      400   3350   737.50\n");
  // An iobench interim record against a final one: the note named the
  // interim side's figures fio's.
  json interim = iob;
  interim["fio version"] = "iobench-0.1.0";
  json final_rec = interim;
  final_rec["jobs"][0]["iobench"]["cpu_scope"] = "own_threads_and_helpers";
  final_rec["jobs"][0]["iobench"]["helpers"] = {
      {"iowq_user_us", 0}, {"iowq_sys_us", 29000000}, {"sqpoll_user_us", 0}, {"sqpoll_sys_us", 0},
      {"aio_user_us", 0},  {"aio_sys_us", 0},         {"other_user_us", 0},  {"other_sys_us", 0}};
  r = RenderCompare(interim, final_rec, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("fio.json's figures count only them (iobench's interim records, cpu_scope "
                    "own_threads), so iob.json's leave out"),
            std::string::npos)
      << *r;
}

// --name=x --rw=randread --name=x --rw=randwrite --stonewall --name=x
// --rw=read: two jobs named x in group 1, one in group 0. Only group 1's
// are numbered (docs: "x (g=1, #2)" when the name is in several groups
// too); group 0's read `x (g=0, #1)`.
TEST(CompareTest, OnlyJobsSharingANameInTheirGroupAreNumbered) {
  json base = OneJobDoc("x", "read", 1000);
  base["jobs"][0]["job options"]["rw"] = "randread";
  json w = OneJobDoc("x", "write", 2000)["jobs"][0];
  w["groupid"] = 1;
  w["job options"]["rw"] = "randwrite";
  json r = OneJobDoc("x", "read", 3000)["jobs"][0];
  r["groupid"] = 1;
  base["jobs"].push_back(w);
  base["jobs"].push_back(r);
  EXPECT_EQ(table::JobLabels(table::AllJobs(base), {}),
            (std::vector<std::string>{"x (g=0)", "x (g=1, #1)", "x (g=1, #2)"}));
  EXPECT_EQ(MustCompare(base, base, {TableMetric::kIops}),
            "job            base     new   delta\n"
            "x (g=0)       1.00k   1.00k    0.00\n"
            "x (g=1, #1)   2.00k   2.00k    0.00\n"
            "x (g=1, #2)   3.00k   3.00k    0.00\n");
}

TEST(CompareTest, RealFioJsonBothSides) {
  if (std::system("fio --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "fio is not installed (Debian package fio)";
  TempDir tmp;
  auto run = [&](const std::string& file, const std::string& engine_opts) {
    const std::string out = tmp.path() + "/" + file;
    // A warning line before the JSON, as fio prints for iodepth > 1 with a
    // sync engine when its output goes to stdout.
    const std::string cmd = "fio --name=seq --ioengine=null --size=8m --rw=read --bs=4k " +
                            engine_opts + " --output-format=json > " + out + " 2>&1";
    const int rc = std::system(cmd.c_str());
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
  };
  ASSERT_TRUE(run("base.json", "--iodepth=1"));
  ASSERT_TRUE(run("new.json", "--iodepth=4"));
  auto b = LoadResultsJson(tmp.path() + "/base.json");
  auto n = LoadResultsJson(tmp.path() + "/new.json");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  TableOptions o;
  o.caption = false;
  o.style = TableStyle::kCsv;
  auto r = RenderCompare(*b, *n, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const double bi = (*b)["jobs"][0]["read"]["iops"], ni = (*n)["jobs"][0]["read"]["iops"];
  char expect[256];
  std::snprintf(expect, sizeof(expect), "job,base,new,delta\nseq,%.0f,%.0f,%s\n", bi, ni,
                FormatDelta((ni - bi) / bi * 100).c_str());
  EXPECT_EQ(*r, expect);
}

}  // namespace
}  // namespace iobench
