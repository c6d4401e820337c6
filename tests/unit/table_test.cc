#include "report/table.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "report/plot.h"
#include "sweep/sweep.h"
#include "table_fixtures.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using iobench::testing::DirFigures;
using iobench::testing::ExpectGolden;
using iobench::testing::MakeDoc;
using iobench::testing::MakeJob;
using iobench::testing::Seed000Doc;
using iobench::testing::TempDir;
using nlohmann::json;
using namespace iobench::table;  // NOLINT: the helpers under test

// The tables of doc; a rendering error fails the test and gives "".
std::string MustRender(const json& doc, const TableOptions& o) {
  auto r = RenderTables(doc, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::string();
}

TEST(TableFormatTest, IopsLikeFioUsers) {
  EXPECT_EQ(FormatIops(12900), "12.9k");
  EXPECT_EQ(FormatIops(11000), "11.0k");
  EXPECT_EQ(FormatIops(241000), "241k");
  EXPECT_EQ(FormatIops(1200000), "1.20M");
  EXPECT_EQ(FormatIops(1992000), "1.99M");
  EXPECT_EQ(FormatIops(602), "602");
  EXPECT_EQ(FormatIops(999.4), "999");
  EXPECT_EQ(FormatIops(999.5), "1.00k");  // rounding carries into the suffix
  EXPECT_EQ(FormatIops(99949), "99.9k");
  EXPECT_EQ(FormatIops(99950), "100k");
  EXPECT_EQ(FormatIops(9.5), "9.50");
  EXPECT_EQ(FormatIops(0), "0");
  EXPECT_EQ(FormatIops(7), "7");
  EXPECT_EQ(FormatIops(3.5e12), "3.50T");
  // Any finite figure stays a few characters (a hand-edited 1e308 printed
  // 300 digits and a T; 1e15 "1000T"): P, then 3 digits and an exponent.
  EXPECT_EQ(FormatIops(1e15), "1.00P");
  EXPECT_EQ(FormatIops(999.4e15), "999P");
  EXPECT_EQ(FormatIops(999.5e15), "1.00e+18");
  EXPECT_EQ(FormatIops(1e308), "1.00e+308");
  EXPECT_EQ(FormatIops(-1e308), "-1.00e+308");
  EXPECT_EQ(FormatIops(std::numeric_limits<double>::max()), "1.80e+308");
}

TEST(TableFormatTest, FixedAndDelta) {
  EXPECT_EQ(FormatFixed3(7781.4), "7781");
  EXPECT_EQ(FormatFixed3(189.2), "189");
  EXPECT_EQ(FormatFixed3(16.82), "16.8");
  EXPECT_EQ(FormatFixed3(1.5), "1.50");
  EXPECT_EQ(FormatFixed3(0.0205), "0.021");
  EXPECT_EQ(FormatFixed3(0), "0");
  EXPECT_EQ(FormatFixed3(-3.5), "-3.50");
  // A negative figure that prints as zero has no sign (it read "-0.000").
  EXPECT_EQ(FormatFixed3(-0.0001), "0.000");
  EXPECT_EQ(FormatFixed3(-0.0005), "-0.001");
  EXPECT_EQ(FormatIops(-0.001), "0.00");
  EXPECT_EQ(FormatIops(-1500), "-1.50k");
  EXPECT_EQ(FormatDelta((449.0 - 189) / 189 * 100), "137.57");
  EXPECT_EQ(FormatDelta((425.0 - 442) / 442 * 100), "-3.85");
  EXPECT_EQ(FormatDelta(-0.001), "0.00");
  // Up to nine digits as they are; past them 3 digits and an exponent
  // (bw and latency printed 1e18 as 1000000000000000000).
  EXPECT_EQ(FormatFixed3(999999999.4), "999999999");
  EXPECT_EQ(FormatFixed3(999999999.5), "1.00e+09");
  EXPECT_EQ(FormatFixed3(1e18), "1.00e+18");
  EXPECT_EQ(FormatFixed3(-1e308), "-1.00e+308");
  EXPECT_EQ(FormatFixed3(1e-300), "0.000");
  EXPECT_EQ(FormatDelta(123456789.126), "123456789.13");
  EXPECT_EQ(FormatDelta(1e302), "1.00e+302");
  EXPECT_EQ(FormatDelta(-1e10), "-1.00e+10");
}

TEST(TableParseTest, NamesAndErrors) {
  auto ms = ParseTableMetrics("iops,clat_p99,cpu_per_io");
  ASSERT_TRUE(ms.ok());
  EXPECT_EQ(*ms, (std::vector<TableMetric>{TableMetric::kIops, TableMetric::kClatP99,
                                           TableMetric::kCpuPerIo}));
  // The same metric twice printed the same tables twice.
  EXPECT_EQ(ParseTableMetrics("iops,bw,iops").status().message(),
            "--table-metric=iops,bw,iops: 'iops' appears twice");
  auto bad = ParseTableMetric("p99");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "--table-metric=p99: unknown metric (one of iops|bw|bw_kib|lat_mean|clat_p50|clat_p99|"
            "clat_p999|lat_p50|lat_p99|slat_mean|cpu_per_io|usr_cpu|sys_cpu)");
  EXPECT_EQ(*ParseTableStyle("ascii"), TableStyle::kAscii);
  EXPECT_EQ(ParseTableStyle("html").status().message(),
            "--table-style=html: unknown style (plain|markdown|ascii|csv)");
}

TEST(TableMetricTest, ExtractsFromFioSchema) {
  DirFigures f;
  f.iops = 2000;
  f.bw_bytes = 2 * 1048576.0;
  f.clat_p50_ns = 1500;
  f.clat_p99_ns = 4250;
  f.lat_mean_ns = 2000;
  json job = MakeJob("j", {}, "read", f);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kIops), 2000);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kBw), 2.0);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kClatP50), 1.5);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kClatP99), 4.25);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kClatP999), 8.5);
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kLatMean), 2.0);
  EXPECT_FALSE(JobMetric(job, "read", TableMetric::kLatP99).has_value());    // not recorded
  EXPECT_FALSE(JobMetric(job, "read", TableMetric::kSlatMean).has_value());  // N = 0
  EXPECT_EQ(*JobMetric(job, "", TableMetric::kUsrCpu), 10.0);
  // Derived CPU per I/O: 40% of 10 s over 20000 I/Os = 200 µs.
  EXPECT_DOUBLE_EQ(*JobMetric(job, "", TableMetric::kCpuPerIo), 200.0);
  job["iobench"] = {{"cpu_per_io_us", 3.25}};
  EXPECT_EQ(*JobMetric(job, "", TableMetric::kCpuPerIo), 3.25);
  EXPECT_EQ(JobDirections(job), (std::vector<std::string>{"read"}));
  // unified_rw_reporting=mixed: the job's only direction is "mixed".
  json mixed_job = {{"mixed", job["read"]}};
  EXPECT_EQ(JobDirections(mixed_job), (std::vector<std::string>{"mixed"}));
  EXPECT_EQ(*JobMetric(mixed_job, "mixed", TableMetric::kClatP50), 1.5);
  // Its CPU per I/O counts the mixed I/Os (it read "-"): 40% of 10 s
  // over 20000.
  mixed_job["usr_cpu"] = 10.0;
  mixed_job["sys_cpu"] = 30.0;
  EXPECT_DOUBLE_EQ(*JobMetric(mixed_job, "", TableMetric::kCpuPerIo), 200.0);
  mixed_job["job_runtime"] = 5000;
  EXPECT_DOUBLE_EQ(*JobMetric(mixed_job, "", TableMetric::kCpuPerIo), 100.0);
  // fio's "bw" (KiB/s) when bw_bytes is absent.
  job["read"].erase("bw_bytes");
  job["read"]["bw"] = 3072;
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kBw), 3.0);
  // Wrong types read as missing, never throw.
  job["read"]["iops"] = "fast";
  EXPECT_FALSE(JobMetric(job, "read", TableMetric::kIops).has_value());
}

TEST(TableRenderTest, Seed000ShapeInEachStyle) {
  const json doc = Seed000Doc();
  EXPECT_EQ(DescribeJobs(doc),
            "4k randread, buffered, io_uring, ext4 on nvme0n1, 5.9.0-rc8+, 10 s each");
  for (auto [style, file] : {std::pair{TableStyle::kPlain, "seed000.plain.txt"},
                             std::pair{TableStyle::kAscii, "seed000.ascii.txt"},
                             std::pair{TableStyle::kMarkdown, "seed000.md"},
                             std::pair{TableStyle::kCsv, "seed000.csv"}}) {
    TableOptions o;
    o.style = style;
    auto r = RenderTables(doc, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ExpectGolden(file, *r);
  }
  // Several metrics give several tables; rows/columns can be swapped.
  TableOptions o;
  o.metrics = {TableMetric::kBw, TableMetric::kClatP99};
  o.row_key = "force_async";
  auto r = RenderTables(doc, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectGolden("seed000.bw_p99_swapped.txt", *r);
}

TEST(TableRenderTest, ThirdKeySplitsTables) {
  // Seed 000 has one table per readahead setting.
  std::vector<json> jobs;
  for (const char* ra : {"0", "64"})
    for (const char* qd : {"1", "2"})
      for (const char* fa : {"0", "1"}) {
        DirFigures f;
        f.iops = 1000 * std::atoi(qd) + std::atoi(ra) + 10 * std::atoi(fa);
        f.bw_bytes = f.iops * 4096;
        jobs.push_back(
            MakeJob("r", {{"setra", ra}, {"iodepth", qd}, {"force_async", fa}}, "read", f));
      }
  json doc = MakeDoc(jobs, {"setra", "iodepth", "force_async"});
  TableOptions o;
  o.row_key = "iodepth";
  o.col_key = "force_async";
  o.style = TableStyle::kPlain;
  auto r = RenderTables(doc, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "read IOPS by iodepth and force_async, setra=0\n"
            "4k read, buffered, 10 s each\n"
            "iodepth   force_async=0   force_async=1\n"
            "1                 1.00k           1.01k\n"
            "2                 2.00k           2.01k\n"
            "\n"
            "read IOPS by iodepth and force_async, setra=64\n"
            "4k read, buffered, 10 s each\n"
            "iodepth   force_async=0   force_async=1\n"
            "1                 1.06k           1.07k\n"
            "2                 2.06k           2.07k\n");
  o.row_key = "bs";
  EXPECT_EQ(RenderTables(doc, o).status().message(),
            "table rows: 'bs' is not a swept key (swept: setra, iodepth, force_async)");
}

TEST(TableRenderTest, OneKeyAsColumnsGivesOneRowPerJob) {
  // --table-cols=iodepth with iodepth the only swept key: the points are
  // the columns and each job a row (it used to sum both points in one cell).
  std::vector<json> jobs;
  for (const char* name : {"a", "b"})
    for (const char* qd : {"1", "2"}) {
      DirFigures f;
      f.iops = 1000 * std::atoi(qd) + (name[0] == 'b' ? 500 : 0);
      f.bw_bytes = f.iops * 4096;
      jobs.push_back(MakeJob(name, {{"iodepth", qd}}, "read", f));
    }
  TableOptions o;
  o.col_key = "iodepth";
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "read IOPS by job and iodepth\n"
            "4k read, buffered, 10 s each\n"
            "job   iodepth=1   iodepth=2\n"
            "a         1.00k       2.00k\n"
            "b         1.50k       2.50k\n");
}

TEST(TableRenderTest, Seed002ShapeWithoutSweep) {
  // Engine | Depth | Processes | Bw: one row per job, the options that vary.
  std::vector<json> jobs;
  const struct {
    const char* name;
    const char* engine;
    const char* depth;
    const char* procs;
    double mib;
  } rows[] = {{"libaio-1", "libaio", "1", "1", 602},
              {"sync-1", "sync", "1", "1", 776},
              {"libaio-32", "libaio", "32", "1", 832},
              {"libaio-20000", "libaio", "20000", "1", 581},
              {"libaio-200", "libaio", "200", "100", 2.75}};
  for (const auto& r : rows) {
    DirFigures f;
    f.bw_bytes = r.mib * 1048576;
    f.iops = f.bw_bytes / 4096;
    jobs.push_back(MakeJob(r.name, {}, "read", f,
                           {{"ioengine", r.engine},
                            {"iodepth", r.depth},
                            {"numjobs", r.procs},
                            {"rw", "read"},
                            {"bs", "4k"},
                            {"direct", "1"}}));
  }
  TableOptions o;
  o.metrics = {TableMetric::kBw};
  o.style = TableStyle::kPlain;
  auto r = RenderTables(MakeDoc(jobs), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "read bandwidth (MiB/s)\n"
            "4k read, direct, 10 s each\n"
            "job            ioengine   iodepth   numjobs     bw\n"
            "libaio-1       libaio     1         1          602\n"
            "sync-1         sync       1         1          776\n"
            "libaio-32      libaio     32        1          832\n"
            "libaio-20000   libaio     20000     1          581\n"
            "libaio-200     libaio     200       100       2.75\n");
}

TEST(TableRenderTest, MixedJobGivesOneTablePerDirection) {
  DirFigures f;
  f.iops = 5000;
  f.bw_bytes = 5000 * 65536.0;
  std::vector<json> jobs = {MakeJob("mix", {{"iodepth", "1"}}, "rw", f, {{"rw", "randrw"}}),
                            MakeJob("mix", {{"iodepth", "2"}}, "rw", f, {{"rw", "randrw"}})};
  jobs[1]["write"]["iops"] = 7000.0;
  EXPECT_EQ(
      MustRender(MakeDoc(jobs, {"iodepth"}), {}),
      "read IOPS by iodepth\n4k randrw, buffered, 10 s each\niodepth     mix\n1         5.00k\n"
      "2         5.00k\n"
      "\n"
      "write IOPS by iodepth\n4k randrw, buffered, 10 s each\niodepth     mix\n1         5.00k\n"
      "2         7.00k\n");
}

TEST(TableRenderTest, ADirectionAPointNeverAskedForIsNoFigure) {
  // --sweep rw=read,write,randrw: the read table showed "write 0" and the
  // write table "read 0", as if those points had measured nothing.
  DirFigures f;
  f.iops = 16000;
  f.bw_bytes = 16000 * 4096.0;
  std::vector<json> jobs = {MakeJob("n", {{"rw", "read"}}, "read", f, {{"rw", "read"}}),
                            MakeJob("n", {{"rw", "write"}}, "write", f, {{"rw", "write"}}),
                            MakeJob("n", {{"rw", "randrw"}}, "rw", f, {{"rw", "randrw"}})};
  TableOptions o;
  o.caption = false;
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"rw"}), o),
            "rw           n\nread     16.0k\nwrite        -\nrandrw   16.0k\n"
            "\n"
            "rw           n\nread         -\nwrite    16.0k\nrandrw   16.0k\n");
  // A direction the job asked for and did nothing in is a measured 0
  // (randrw with rwmixread=100; a job that failed at once).
  jobs[1] = MakeJob("n", {{"rw", "rw"}}, "rw", f, {{"rw", "rw"}});
  jobs[2]["write"] = iobench::testing::EmptyDir();
  jobs[2]["job options"]["rwmixread"] = "100";
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"rw"}), o),
            "rw           n\nread     16.0k\nrw       16.0k\nrandrw   16.0k\n"
            "\n"
            "rw           n\nread         -\nrw       16.0k\nrandrw       0\n");
  // rw from the global options, or fio's default (read) when none sets it.
  json doc = MakeDoc({MakeJob("g", {}, "write", f), MakeJob("d", {}, "read", f),
                      MakeJob("m", {}, "rw", f, {{"rw", "rw"}})});
  doc["global options"] = {{"rw", "write"}};
  doc["jobs"][1]["job options"]["rw"] = "randread:8";
  EXPECT_EQ(MustRender(doc, o),
            "job   rw            iops\ng     write            -\nd     randread:8   16.0k\n"
            "m     rw           16.0k\n"
            "\n"
            "job   rw            iops\ng     write        16.0k\nd     randread:8       -\n"
            "m     rw           16.0k\n");
  const auto all = AllJobs(doc);
  EXPECT_EQ(*RwDirections(&doc, *all[0]), (std::set<std::string>{"write"}));
  EXPECT_EQ(*RwDirections(&doc, *all[1]), (std::set<std::string>{"read"}));
  EXPECT_EQ(*RwDirections(&doc, *all[2]), (std::set<std::string>{"read", "write"}));
  doc.erase("global options");
  EXPECT_EQ(*RwDirections(&doc, *all[0]), (std::set<std::string>{"read"}));
  // Without the document a job's own options alone cannot say.
  EXPECT_FALSE(RwDirections(nullptr, *all[0]).has_value());
}

TEST(TableRenderTest, AMetricNoCellHasIsSaidUnderTheTable) {
  // --table-metric=lat_p99 without lat_percentiles=1: a table of "-" and no
  // word of why (--compare said "no lat_p99 in either file").
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  std::vector<json> jobs = {MakeJob("j", {{"iodepth", "1"}}, "read", f),
                            MakeJob("j", {{"iodepth", "2"}}, "read", f)};
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kLatP99, TableMetric::kIops, TableMetric::kSlatMean};
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth   j\n1         -\n2         -\n"
            "\n"
            "iodepth       j\n1         1.00k\n2         1.00k\n"
            "\n"
            "iodepth   j\n1         -\n2         -\n"
            "\n"
            "no lat_p99 in the results: total latency percentiles are recorded only with "
            "lat_percentiles=1\n"
            "no slat_mean in the results: a sync engine has no submission latency\n");
  o.style = TableStyle::kCsv;
  o.metrics = {TableMetric::kLatP50};
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth,j\n1,\n2,\n\n# no lat_p50 in the results: total latency percentiles are "
            "recorded only with lat_percentiles=1\n");
}

TEST(TableRenderTest, SameNameInTwoGroupsStaysTwoJobs) {
  // `--name=x --rw=randread --name=x --rw=randwrite --stonewall`: two jobs,
  // not clones; their phases were added into one cell. The sweep renumbers
  // groups per point (0,1 then 2,3); the labels count from the point's first.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  std::vector<json> jobs;
  for (const char* qd : {"1", "2"}) {
    jobs.push_back(MakeJob("x", {{"iodepth", qd}}, "read", f));
    jobs.push_back(MakeJob("x", {{"iodepth", qd}}, "write", f));
    jobs.push_back(MakeJob("x", {{"iodepth", qd}}, "write", f));  // a numjobs clone
    f.iops *= 2;
  }
  for (size_t i = 0; i < jobs.size(); ++i) jobs[i]["groupid"] = 2 * (i / 3) + (i % 3 ? 1 : 0);
  TableOptions o;
  o.caption = false;
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth   x (g=0)   x (g=1)\n"
            "1           1.00k     2.00k\n"
            "2           2.00k     4.00k\n");
  // Without a sweep: one row each.
  jobs.resize(3);
  for (auto& j : jobs) j.erase("iobench");
  EXPECT_EQ(MustRender(MakeDoc(jobs), o), "job        iops\nx (g=0)   1.00k\nx (g=1)   2.00k\n");
}

TEST(TableRenderTest, CpuOfAJobMixingDirections) {
  // CPU metrics are per job: a randrw job has them too (it showed "-").
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kUsrCpu, TableMetric::kCpuPerIo};
  EXPECT_EQ(MustRender(MakeDoc({MakeJob("m", {}, "rw", f)}), o),
            "job   usr_cpu\nm        10.0\n\njob   cpu_per_io\nm            200\n");
}

TEST(TableRenderTest, NumjobsClonesAddUp) {
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 1000 * 4096.0;
  f.clat_p99_ns = 5000;
  std::vector<json> jobs = {MakeJob("j", {{"iodepth", "1"}}, "read", f),
                            MakeJob("j", {{"iodepth", "1"}}, "read", f)};
  jobs[1]["read"]["clat_ns"]["percentile"]["99.000000"] = 9000;
  TableOptions o;
  o.metrics = {TableMetric::kIops, TableMetric::kClatP99};
  o.caption = false;
  auto r = RenderTables(MakeDoc(jobs, {"iodepth"}), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "iodepth       j\n1         2.00k\n\niodepth      j\n1         9.00\n");
}

TEST(TableRenderTest, ClonesCpuIsFiosGroupFigure) {
  // numjobs=2 without group_reporting: two busy clones' usr_cpu added up
  // read 195 where the same jobs with group_reporting said 97.6 (fio's
  // group entry: the members' CPU time over their summed run times).
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  std::vector<json> jobs = {MakeJob("j", {{"iodepth", "1"}}, "read", f),
                            MakeJob("j", {{"iodepth", "1"}}, "read", f)};
  jobs[0]["usr_cpu"] = 10.0;
  jobs[0]["job_runtime"] = 1000;
  jobs[1]["usr_cpu"] = 30.0;
  jobs[1]["job_runtime"] = 3000;
  jobs[0]["sys_cpu"] = jobs[1]["sys_cpu"] = 50.0;
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kUsrCpu, TableMetric::kSysCpu};
  // (10 * 1000 + 30 * 3000) / 4000 = 25; 50 and 50 are 50.
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth      j\n1         25.0\n\niodepth      j\n1         50.0\n");
  // Without the run times (a hand-made file): the mean.
  for (auto& j : jobs) j.erase("job_runtime");
  json doc = MakeDoc(jobs, {"iodepth"});
  EXPECT_DOUBLE_EQ(*AggregateMetric(AllJobs(doc), std::nullopt, TableMetric::kUsrCpu), 20.0);
}

TEST(TableRenderTest, CpuPerIoOfFioJsonIsOverJobRuntime) {
  // fio's usr_cpu/sys_cpu are percent of job_runtime, which a
  // group_reporting entry sums over its members: numjobs=4 read 0.039 µs
  // with group_reporting against 0.130 for the same clones unmerged, as
  // the largest direction runtime (one member's) stood in for it.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  f.runtime_ms = 1000;  // 1000 I/Os a clone, 4000 for the group
  json group = MakeJob("g", {}, "read", f);
  group["read"]["total_ios"] = 4000;
  group["usr_cpu"] = 15.0;
  group["sys_cpu"] = 1.0;
  group["job_runtime"] = 4000;
  // 16% of 4000 ms over 4000 I/Os = 160 µs.
  EXPECT_DOUBLE_EQ(*JobMetric(group, "", TableMetric::kCpuPerIo), 160.0);
  std::vector<json> clones(4, group);
  for (auto& c : clones) {
    c["read"]["total_ios"] = 1000;
    c["job_runtime"] = 1000;
  }
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kCpuPerIo};
  EXPECT_EQ(MustRender(MakeDoc({group}), o), "job   cpu_per_io\ng            160\n");
  EXPECT_EQ(MustRender(MakeDoc(clones), o), "job   cpu_per_io\ng            160\n");
  // One job: job_runtime, not the direction's runtime (fio 3.33: 42 ms
  // against runtime 43).
  json one = clones[0];
  one["job_runtime"] = 800;
  EXPECT_DOUBLE_EQ(*JobMetric(one, "", TableMetric::kCpuPerIo), 128.0);
  // Without job_runtime (older fio): the longest direction's runtime.
  one.erase("job_runtime");
  EXPECT_DOUBLE_EQ(*JobMetric(one, "", TableMetric::kCpuPerIo), 160.0);
  // job_runtime 0: fio writes 0% CPU then, which measured nothing.
  one["job_runtime"] = 0;
  EXPECT_FALSE(JobMetric(one, "", TableMetric::kCpuPerIo).has_value());
  // iobench's own figure is taken as it is.
  one["iobench"] = {{"cpu_per_io_us", 3.25}};
  EXPECT_EQ(*JobMetric(one, "", TableMetric::kCpuPerIo), 3.25);
}

TEST(TableRenderTest, ClonesAreTheGroupLineNotTheSumOfTheirRates) {
  // Two clones of one job, 1 GiB each, one in 1 s and one in 2 s: fio's
  // group line is 2 GiB / 2 s = 1024 MiB/s. Their own rates added up said
  // 1024 + 512 = 1536 MiB/s, and 262144 + 131072 IOPS.
  DirFigures fast, slow;
  fast.bw_bytes = 1073741824.0;
  fast.iops = 262144;
  fast.runtime_ms = 1000;
  slow.bw_bytes = 536870912.0;
  slow.iops = 131072;
  slow.runtime_ms = 2000;
  std::vector<json> jobs = {MakeJob("n", {{"iodepth", "1"}}, "read", fast),
                            MakeJob("n", {{"iodepth", "1"}}, "read", slow)};
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kBw, TableMetric::kIops};
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth      n\n1         1024\n\niodepth      n\n1         262k\n");
  o.style = TableStyle::kCsv;
  o.metrics = {TableMetric::kBwKib, TableMetric::kIops};
  EXPECT_EQ(MustRender(MakeDoc(jobs, {"iodepth"}), o),
            "iodepth,n\n1,1048576\n\niodepth,n\n1,262144\n");
  // The data, as the compare rows read it.
  json doc = MakeDoc(jobs, {"iodepth"});
  EXPECT_DOUBLE_EQ(*AggregateMetric(AllJobs(doc), std::nullopt, TableMetric::kBw), 1024.0);
  // fio's agg_bw is whole bytes per second: 5 bytes over 3 ms is 1666 B/s.
  jobs[0]["read"]["io_bytes"] = 1;
  jobs[0]["read"]["runtime"] = 1;
  jobs[1]["read"]["io_bytes"] = 4;
  jobs[1]["read"]["runtime"] = 3;
  doc = MakeDoc(jobs, {"iodepth"});
  // In KiB/s, rounded down as fio's "bw" is (bw_bytes / 1024 in integers).
  EXPECT_DOUBLE_EQ(*AggregateMetric(AllJobs(doc), std::nullopt, TableMetric::kBwKib), 1.0);
}

TEST(TableRenderTest, BandwidthInKibPerSecondAsSeed002) {
  // Seed 002: "Engine Depth Batch Bw (KiB/sec)", libaio 64 8 17,226.
  auto ParsedBwKib = ParseTableMetric("bw_kib");
  ASSERT_TRUE(ParsedBwKib.ok());
  EXPECT_EQ(*ParsedBwKib, TableMetric::kBwKib);
  EXPECT_STREQ(TableMetricName(TableMetric::kBwKib), "bw_kib");
  std::vector<json> jobs;
  const struct {
    const char* name;
    const char* engine;
    const char* depth;
    double kib;
  } rows[] = {{"libaio-64", "libaio", "64", 17226},
              {"syslet-64", "syslet", "64", 17620},
              {"libaio-20000", "libaio", "20000", 18552}};
  for (const auto& r : rows) {
    DirFigures f;
    f.bw_bytes = r.kib * 1024;
    f.iops = r.kib / 64;
    jobs.push_back(MakeJob(r.name, {}, "read", f,
                           {{"ioengine", r.engine},
                            {"iodepth", r.depth},
                            {"iodepth_batch", "8"},
                            {"rw", "randread"},
                            {"bs", "64k"}}));
  }
  TableOptions o;
  o.metrics = {TableMetric::kBwKib};
  EXPECT_EQ(MustRender(MakeDoc(jobs), o),
            "read bandwidth (KiB/s)\n"
            "64k randread, buffered, 10 s each\n"
            "job            ioengine   iodepth   bw_kib\n"
            "libaio-64      libaio     64         17226\n"
            "syslet-64      syslet     64         17620\n"
            "libaio-20000   libaio     20000      18552\n");
  // csv: the unit the caption names, not MiB/s.
  o.style = TableStyle::kCsv;
  EXPECT_EQ(MustRender(MakeDoc(jobs), o),
            "# read bandwidth (KiB/s)\n"
            "# 64k randread, buffered, 10 s each\n"
            "job,ioengine,iodepth,bw_kib\n"
            "libaio-64,libaio,64,17226\n"
            "syslet-64,syslet,64,17620\n"
            "libaio-20000,libaio,20000,18552\n");
}

// docs: bw_kib is bw_bytes / 1024, fio's JSON "bw". fio (and iobench)
// write "bw" rounded down; the cell rounded to the nearest, one more than
// the file: bw_bytes 2532410073 (2473056.7 KiB/s), "bw": 2473056, cell
// 2473057.
TEST(TableRenderTest, BwKibIsTheJsonBwRoundedDown) {
  DirFigures f;
  f.iops = 1000;
  json job = MakeJob("j", {}, "read", f);
  job["read"]["bw_bytes"] = 2532410073.0;
  job["read"]["bw"] = 2473056;
  TableOptions o;
  o.caption = false;
  o.metrics = {TableMetric::kBwKib};
  EXPECT_EQ(MustRender(MakeDoc({job}), o), "job    bw_kib\nj     2473056\n");
  o.style = TableStyle::kCsv;
  EXPECT_EQ(MustRender(MakeDoc({job}), o), "job,bw_kib\nj,2473056\n");
  // A file without "bw": bw_bytes / 1024 rounded down, as fio makes "bw".
  job["read"].erase("bw");
  EXPECT_DOUBLE_EQ(*JobMetric(job, "read", TableMetric::kBwKib), 2473056.0);
  // The file's own "bw" when it has one (a --repeat median's is the median
  // of each run's "bw", not of bw_bytes).
  job["read"]["bw"] = 2473050;
  EXPECT_DOUBLE_EQ(*JobMetric(job, "read", TableMetric::kBwKib), 2473050.0);
  // --compare's figures are the same.
  job["read"]["bw"] = 2473056;
  auto cmp = CompareJson(MakeDoc({job}), MakeDoc({job}), o);
  ASSERT_EQ(cmp["rows"].size(), 1u);
  EXPECT_EQ(cmp["rows"][0]["base"], 2473056.0);
  // Two clones: their group rate in whole bytes/s, then rounded down.
  json clone = job;
  clone["iobench"] = {{"clone", 1}};
  job["iobench"] = {{"clone", 0}};
  job["read"]["io_bytes"] = 1024 * 1000 + 700;  // over 1000 ms: 1024700 B/s
  job["read"]["runtime"] = 1000;
  clone["read"]["io_bytes"] = 0;
  clone["read"]["runtime"] = 1000;
  json two = MakeDoc({job, clone});
  EXPECT_DOUBLE_EQ(*AggregateMetric(AllJobs(two), std::nullopt, TableMetric::kBwKib), 1000.0);
}

TEST(TableRenderTest, EachCaptionGivesItsOwnTablesRunTime) {
  // Split by a third key: setra=0 ran 10-20 ms, setra=64 100-200 ms. Each
  // caption said 10-200 ms, the range of the whole sweep.
  std::vector<json> jobs;
  for (const char* ra : {"0", "64"})
    for (const char* qd : {"1", "2"}) {
      DirFigures f;
      f.iops = 1000;
      f.bw_bytes = 4096000;
      f.runtime_ms = (std::string(ra) == "0" ? 10 : 100) * (std::string(qd) == "1" ? 1 : 2);
      jobs.push_back(
          MakeJob("j", {{"setra", ra}, {"iodepth", qd}, {"force_async", "0"}}, "read", f));
    }
  TableOptions o;
  o.row_key = "iodepth";
  o.col_key = "force_async";
  const std::string r = MustRender(MakeDoc(jobs, {"setra", "iodepth", "force_async"}), o);
  EXPECT_NE(r.find("read IOPS by iodepth and force_async, setra=0\n4k read, buffered, 10-20 ms\n"),
            std::string::npos)
      << r;
  EXPECT_NE(
      r.find("read IOPS by iodepth and force_async, setra=64\n4k read, buffered, 100-200 ms\n"),
      std::string::npos)
      << r;
  // Several jobs split into a table each: each its own time too.
  jobs.clear();
  for (const char* name : {"a", "b"})
    for (const char* qd : {"1", "2"}) {
      DirFigures f;
      f.iops = 1000;
      f.bw_bytes = 4096000;
      f.runtime_ms = std::string(name) == "a" ? 3000 : 5000;
      jobs.push_back(MakeJob(name, {{"iodepth", qd}, {"force_async", "1"}}, "read", f));
    }
  const std::string r2 = MustRender(MakeDoc(jobs, {"iodepth", "force_async"}), {});
  EXPECT_NE(r2.find(", job a\n4k read, buffered, 3.0 s each\n"), std::string::npos) << r2;
  EXPECT_NE(r2.find(", job b\n4k read, buffered, 5.0 s each\n"), std::string::npos) << r2;
}

// Runs fio (Debian 3.33) with the null engine: real fio JSON, no disk.
std::string RunFio(const std::string& dir, const std::string& name, int iodepth) {
  const std::string out = dir + "/" + name + ".json";
  const std::string cmd =
      "fio --name=" + name +
      " --ioengine=null --size=16m --rw=randread --bs=4k --iodepth=" + std::to_string(iodepth) +
      " --output-format=json --output=" + out + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  return (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0) ? out : "";
}

bool HaveFio() { return std::system("fio --version >/dev/null 2>&1") == 0; }

TEST(TableFioImportTest, RealFioJson) {
  if (!HaveFio()) GTEST_SKIP() << "fio is not installed (Debian package fio)";
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string p1 = RunFio(tmp.path(), "qd1", 1);
  const std::string p8 = RunFio(tmp.path(), "qd8", 8);
  ASSERT_FALSE(p1.empty());
  ASSERT_FALSE(p8.empty());
  auto d1 = LoadResultsJson(p1);
  ASSERT_TRUE(d1.ok()) << d1.status().ToString();
  const json& job = (*d1)["jobs"][0];
  // 16 MiB of 4 KiB random reads: exactly 4096 I/Os.
  EXPECT_EQ(job["read"]["total_ios"], 4096);
  EXPECT_EQ(JobDirections(job), (std::vector<std::string>{"read"}));
  EXPECT_EQ(*JobMetric(job, "read", TableMetric::kIops), job["read"]["iops"].get<double>());
  EXPECT_TRUE(JobMetric(job, "read", TableMetric::kClatP99).has_value());
  // fio writes 0% CPU for a job_runtime of 0 ms: no figure then.
  EXPECT_EQ(JobMetric(job, "", TableMetric::kCpuPerIo).has_value(), job["job_runtime"] != 0);
  // Plain fio JSON: the caption comes from "job options".
  EXPECT_EQ(DescribeJobs(*d1).rfind("4k randread, buffered, null", 0), 0u) << DescribeJobs(*d1);
  TableOptions o;
  auto t = RenderTables(*d1, o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_NE(t->find("qd1"), std::string::npos);

  // Two fio runs combined as a sweep over iodepth.
  auto d8 = LoadResultsJson(p8);
  ASSERT_TRUE(d8.ok());
  (*d8)["jobs"][0]["jobname"] = "qd1";  // same job, other point
  json doc = sweep::CombineSweepResults(
      {{sweep::SweepPoint{{{"iodepth", "1"}}}, *d1}, {sweep::SweepPoint{{{"iodepth", "8"}}}, *d8}});
  o.caption = false;
  o.style = TableStyle::kCsv;
  t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  auto whole = [](const json& v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.0f", v.get<double>());
    return std::string(buf);
  };
  const std::string expect = "iodepth,qd1\n1," + whole((*d1)["jobs"][0]["read"]["iops"]) + "\n8," +
                             whole((*d8)["jobs"][0]["read"]["iops"]) + "\n";
  EXPECT_EQ(*t, expect);
}

// fio 3.33's empty record after a group_reporting join (no jobname,
// groupid 4294967295) is no job: it read as one named '?', "only in" the file.
TEST(TableFioImportTest, DropsFioEmptyRecords) {
  const std::string text =
      "{\"jobs\": [{\"jobname\": \"a\", \"groupid\": 0, \"read\": {\"total_ios\": 5}},\n"
      "{\"groupid\": 4294967295, \"read\": {\"total_ios\": 0}},\n"
      "{\"jobname\": \"b\", \"groupid\": 4294967295}]}\n";
  auto d = ParseResultsJson(text, "x.json");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_EQ((*d)["jobs"].size(), 2u);  // a named record keeps its place, whatever its group
  EXPECT_EQ((*d)["jobs"][0]["jobname"], "a");
  EXPECT_EQ((*d)["jobs"][1]["jobname"], "b");
}

// A --status-interval file whose last document is an interim one (the run
// was killed, or its output filled up) has no final figures: it was taken
// as the results, a run that never finished compared as one that did.
TEST(TableFioImportTest, InterimLastDocumentIsRefused) {
  const std::string interim =
      "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"iops\": 5}}], "
      "\"iobench\": {\"interim\": true, \"partial\": true, \"exit_code\": null}}\n";
  const std::string final_doc =
      "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"iops\": 6}}], "
      "\"iobench\": {\"partial\": false, \"exit_code\": 0}}\n";
  EXPECT_EQ(ParseResultsJson(interim + interim, "k.json").status().message(),
            "k.json: the last complete JSON document is an interim report (iobench.interim): the "
            "run did not finish, so it has no final figures");
  auto d = ParseResultsJson(interim + final_doc, "f.json");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ((*d)["jobs"][0]["read"]["iops"], 6);
}

// A baseline that is JSON but not an object said "no JSON document found".
TEST(TableFioImportTest, JsonThatIsNoObjectIsNamed) {
  EXPECT_EQ(ParseResultsJson("[1,2,3]\n", "arr.json").status().message(),
            "arr.json: the JSON document is an array, with no \"jobs\" array (not fio or "
            "iobench JSON output)");
  EXPECT_EQ(ParseResultsJson("42", "n.json").status().message(),
            "n.json: the JSON document is a number, with no \"jobs\" array (not fio or iobench "
            "JSON output)");
  EXPECT_EQ(ParseResultsJson("[NaN]", "a.json").status().message(),
            "a.json: the JSON document is an array, with no \"jobs\" array (not fio or iobench "
            "JSON output)");
  EXPECT_EQ(ParseResultsJson("", "e.json").status().message(), "e.json: no JSON document found");
  EXPECT_EQ(ParseResultsJson("[1,", "c.json").status().message(), "c.json: no JSON document found");
}

// A figure that is not a number (`"iops": "abc"`) was shown as `-`, as a
// missing one, and --compare exited 0: refused, naming file, job and field.
TEST(TableFioImportTest, NonNumericFigureIsRefused) {
  auto doc = [](const std::string& job) {
    return "{\"jobs\": [{\"jobname\": \"a\"}, " + job + "]}";
  };
  EXPECT_EQ(ParseResultsJson(doc(R"({"jobname": "j", "read": {"iops": "abc"}})"), "b.json")
                .status()
                .message(),
            "b.json: job 'j' (jobs[1]): read.iops is \"abc\", not a number (a missing figure is "
            "left out or null)");
  EXPECT_EQ(
      ParseResultsJson(doc(R"({"jobname": "j", "usr_cpu": true})"), "b.json").status().message(),
      "b.json: job 'j' (jobs[1]): usr_cpu is true, not a number (a missing figure is left "
      "out or null)");
  EXPECT_EQ(ParseResultsJson(doc(R"({"write": {"clat_ns": {"percentile": {"99.000000": "1"}}}})"),
                             "b.json")
                .status()
                .message(),
            "b.json: job 'jobs[1]' (jobs[1]): write.clat_ns.percentile.99.000000 is \"1\", not a "
            "number (a missing figure is left out or null)");
  EXPECT_EQ(
      ParseResultsJson(doc(R"({"jobname": "j", "iobench": {"cpu_per_io_us": [1]}})"), "b.json")
          .status()
          .message(),
      "b.json: job 'j' (jobs[1]): iobench.cpu_per_io_us is [1], not a number (a missing "
      "figure is left out or null)");
  // A later document (a --status-interval file's final one) does not hide it.
  EXPECT_FALSE(ParseResultsJson(doc(R"({"jobname": "j", "read": {"bw": "1"}})") + "\n" +
                                    doc(R"({"jobname": "j"})"),
                                "b.json")
                   .ok());
  // --repeat's spread and the helpers' CPU, which the tables read too (the
  // helpers' bool aside); they went through unchecked.
  EXPECT_EQ(ParseResultsJson(doc(R"({"jobname": "j", "iobench": {"repeat": {"n": 2, "max": )"
                                 R"({"read": {"iops": "huge"}}}}})"),
                             "b.json")
                .status()
                .message(),
            "b.json: job 'j' (jobs[1]): iobench.repeat.max.read.iops is \"huge\", not a number "
            "(a missing figure is left out or null)");
  EXPECT_EQ(ParseResultsJson(doc(R"({"jobname": "j", "iobench": {"helpers": )"
                                 R"({"pid_namespace": true, "iowq_sys_us": "x"}}})"),
                             "b.json")
                .status()
                .message(),
            "b.json: job 'j' (jobs[1]): iobench.helpers.iowq_sys_us is \"x\", not a number (a "
            "missing figure is left out or null)");
  EXPECT_TRUE(ParseResultsJson(doc(R"({"jobname": "j", "iobench": {"helpers": )"
                                   R"({"pid_namespace": true, "iowq_sys_us": 5}}})"),
                               "b.json")
                  .ok());
  // Missing, null and NaN (read as null) figures stay missing figures.
  EXPECT_TRUE(
      ParseResultsJson(doc(R"({"jobname": "j", "read": {"iops": null, "bw": NaN}})"), "b.json")
          .ok());
}

TEST(TableFioImportTest, SkipsTextAroundTheJson) {
  const std::string text =
      "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be "
      "capped at 1\n"
      "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"a{b}\", \"read\" : "
      "{ \"iops\" : 5.0, \"total_ios\" : 5 } } ]\n}\n"
      "Run status group 0 (all jobs):\n";
  auto d = ParseResultsJson(text, "x.json");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ((*d)["jobs"][0]["jobname"], "a{b}");
  EXPECT_EQ(ParseResultsJson("no json here", "x.json").status().message(),
            "x.json: no JSON document found");
  EXPECT_EQ(ParseResultsJson("{\"jobs\": [", "x.json").status().message(),
            "x.json: the JSON document is cut short (no closing '}')");
  EXPECT_EQ(ParseResultsJson("{\"jobs\": [}", "x.json").status().message(),
            "x.json: not valid JSON at line 1, column 11 (near '\"jobs\": [}')");
  EXPECT_EQ(ParseResultsJson("{\"fio\": 1}", "x.json").status().message(),
            "x.json: no \"jobs\" array (not fio or iobench JSON output)");
  // --status-interval output: interim documents, then the final one, which
  // holds the results (the first, an interim one, was read).
  const std::string interim =
      "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"total_ios\": 1}}]}\n"
      "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"total_ios\": 2}}]}\n"
      "{\n  \"jobs\": [{\"jobname\": \"a\", \"read\": {\"total_ios\": 3}}]\n}\n";
  auto last = ParseResultsJson(interim, "s.json");
  ASSERT_TRUE(last.ok()) << last.status().ToString();
  EXPECT_EQ((*last)["jobs"][0]["read"]["total_ios"], 3);
  EXPECT_EQ(ParseResultsJson(interim + "{\"jobs\": [", "s.json").status().message(),
            "s.json: the last JSON document is cut short (no closing '}'); the ones before it "
            "are interim reports");
  // The normal report of a job named "{x}" (or "{x", or "{\"x") in the
  // same file: its lines start with '{' and are not documents; they are
  // skipped, before, between and after the documents, and the last
  // document still wins.
  const std::string normal = "{x}: (g=0): rw=read, bs=(R) 4096B-4096B\n{x: (g=0)\n{\"x: (g=0)\n";
  auto braced =
      ParseResultsJson(normal + interim + normal + "{x}: (groupid=0, jobs=1): err= 0\n", "b.out");
  ASSERT_TRUE(braced.ok()) << braced.status().ToString();
  EXPECT_EQ((*braced)["jobs"][0]["read"]["total_ios"], 3);
  // Without any document, the error is the one of the text that came
  // closest to being one, not the first '{' line's.
  EXPECT_EQ(ParseResultsJson(normal + "{\"jobs\": [\n  {\"a\": 1,}\n]}\n" + normal, "b.out")
                .status()
                .message(),
            "b.out: not valid JSON at line 5, column 11 (near '1,}')");
  EXPECT_EQ(ParseResultsJson(normal, "b.out").status().message(),
            "b.out: not valid JSON at line 3, column 11 (near '\"x: (g=0)<U+000A>')");
  EXPECT_EQ(ParseResultsJson(interim + normal + "{\"jobs\": [", "s.json").status().message(),
            "s.json: the last JSON document is cut short (no closing '}'); the ones before it "
            "are interim reports");
  // A number JSON allows and a double does not hold says so, and where.
  EXPECT_EQ(ParseResultsJson("{\"jobs\": [{\"jobname\": \"a\",\n  \"read\": {\"iops\": 1e400}}]}",
                             "big.json")
                .status()
                .message(),
            "big.json: number out of range at line 2, column 20 ('1e400' is beyond what a double "
            "holds)");
  EXPECT_EQ(ParseResultsJson("{\"jobs\": [], \"x\": -" + std::string(400, '9') + "}", "big.json")
                .status()
                .message(),
            "big.json: number out of range at line 1, column 19 ('-" + std::string(39, '9') +
                "' is beyond what a double holds)");
  auto missing = LoadResultsJson("/nonexistent/iobench/base.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "open /nonexistent/iobench/base.json: No such file or directory");
}

}  // namespace
}  // namespace iobench

namespace iobench {
namespace {

TEST(TableRobustnessTest, OddDocumentsNeverThrow) {
  const char* docs[] = {
      R"({"jobs": [1, "x", null]})",
      R"({"jobs": [{"jobname": 5, "read": "x", "iobench": {"point": {"iodepth": 4}}}]})",
      R"({"jobs": [{"jobname": "a", "read": {"iops": "x", "total_ios": 3,
          "clat_ns": {"percentile": [1, 2]}}, "iobench": 7}],
          "iobench": {"sweep": {"keys": "iodepth"}, "context": [1]}})",
      R"({"jobs": [{"jobname": "a", "read": {"iops": 1, "total_ios": 3},
          "iobench": {"point": {"iodepth": "1"}, "repeat": {"min": 3}}}],
          "iobench": {"sweep": {"keys": ["iodepth", 3]}}, "global options": [1]})",
  };
  // A figure that is not a number is refused when a file is read (the
  // third); the tables still never throw on a document made otherwise.
  EXPECT_FALSE(ParseResultsJson(docs[2], "odd.json").ok());
  for (const char* text : docs) {
    const std::optional<json> doc = json::parse(text);
    TableOptions o;
    o.metrics = {TableMetric::kIops, TableMetric::kClatP99, TableMetric::kCpuPerIo};
    for (TableStyle s :
         {TableStyle::kPlain, TableStyle::kAscii, TableStyle::kMarkdown, TableStyle::kCsv}) {
      o.style = s;
      EXPECT_NO_THROW({
        auto r = RenderTables(*doc, o);
        auto c = RenderCompare(*doc, *doc, o);
        (void)r;
        (void)c;
      }) << text;
    }
    EXPECT_NO_THROW({
      auto m = sweep::MergeRepeats({*doc, *doc});
      (void)m;
      auto combined = sweep::CombineSweepResults({{sweep::SweepPoint{{{"k", "v"}}}, *doc}});
      auto r = RenderTables(combined, TableOptions{});
      (void)r;
      PlotOptions po;
      po.path = "odd.svg";
      auto p = PlotScript(combined, po);
      (void)p;
    }) << text;
  }
}

}  // namespace
}  // namespace iobench

namespace iobench {
namespace {

TEST(TableRepeatTest, MedianWithRange) {
  std::vector<sweep::ojson> runs;
  for (double iops : {1000.0, 3000.0, 2000.0}) {
    iobench::testing::DirFigures f;
    f.iops = iops;
    f.bw_bytes = iops * 4096;
    runs.push_back(iobench::testing::MakeDoc(
        {iobench::testing::MakeJob("j", {{"iodepth", "4"}}, "read", f)}, {"iodepth"}));
  }
  auto merged = sweep::MergeRepeats(runs);
  ASSERT_TRUE(merged.ok());
  TableOptions o;
  auto r = RenderTables(*merged, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r,
            "read IOPS by iodepth\n"
            "4k read, buffered, 10 s, median of 3 runs\n"
            "iodepth                     j\n"
            "4         2.00k (1.00k-3.00k)\n");
  o.show_range = false;
  o.caption = false;
  EXPECT_EQ(*RenderTables(*merged, o), "iodepth       j\n4         2.00k\n");
}

TEST(TableRepeatTest, ClonesCellIsTheMedianAndRangeOfEachRunsGroupFigure) {
  // numjobs=2 --repeat=3: `j 18.7M` with no range, where a single job's
  // cell reads `2.00k (1.00k-3.00k)`. Each run's clones together: 4000,
  // 4000 and 7000 IOPS, so 4.00k (4.00k-7.00k); the clones' own medians
  // added up (2000 + 3000) are no run's figure.
  std::vector<sweep::ojson> runs;
  const std::pair<double, double> iops[] = {{1000, 3000}, {3000, 1000}, {2000, 5000}};
  for (const auto& [a, b] : iops) {
    iobench::testing::DirFigures fa, fb;
    fa.iops = a;
    fa.bw_bytes = a * 4096;
    fb.iops = b;
    fb.bw_bytes = b * 4096;
    runs.push_back(
        iobench::testing::MakeDoc({iobench::testing::MakeJob("j", {{"iodepth", "4"}}, "read", fa),
                                   iobench::testing::MakeJob("j", {{"iodepth", "4"}}, "read", fb)},
                                  {"iodepth"}));
  }
  auto merged = sweep::MergeRepeats(runs);
  ASSERT_TRUE(merged.ok());
  const json plain = *merged;
  const auto& clones = plain["jobs"][0]["iobench"]["repeat"]["clones"];
  EXPECT_EQ(clones["jobs"], 2);
  EXPECT_EQ(clones["median"]["read"]["iops"], 4000.0);
  EXPECT_EQ(clones["min"]["read"]["bw"], 4000.0 * 4096 / 1048576);
  EXPECT_EQ(clones["max"]["read"]["bw"], 7000.0 * 4096 / 1048576);
  EXPECT_EQ(plain["jobs"][1]["iobench"]["repeat"]["clones"], clones);
  TableOptions o;
  o.caption = false;
  EXPECT_EQ(*RenderTables(plain, o),
            "iodepth                     j\n4         4.00k (4.00k-7.00k)\n");
  o.metrics = {TableMetric::kBwKib};
  EXPECT_EQ(*RenderTables(plain, o),
            "iodepth                     j\n4         16000 (16000-28000)\n");
  o.show_range = false;
  o.metrics = {TableMetric::kIops};
  EXPECT_EQ(*RenderTables(plain, o), "iodepth       j\n4         4.00k\n");
  // --compare: the same figures, and the ranges say whether a delta is noise.
  auto cmp = CompareJson(plain, plain, o);
  ASSERT_EQ(cmp["rows"].size(), 1u);
  EXPECT_EQ(cmp["rows"][0]["base"], 4000.0);
  EXPECT_EQ(cmp["rows"][0]["noise"], true);
  // A file without the clones' figures (an older iobench): the footnote.
  json old = plain;
  for (auto& j : old["jobs"]) j["iobench"]["repeat"].erase("clones");
  o.show_range = true;
  EXPECT_NE(RenderTables(old, o)->find("no min-max range for j"), std::string::npos);
}

}  // namespace
}  // namespace iobench

// Hostile inputs: what users name jobs, what result files hold, and what an
// interrupted sweep leaves (docs/sweep.md, "Hostile inputs").
namespace iobench {
namespace {

using iobench::testing::DirFigures;
using iobench::testing::MakeDoc;
using iobench::testing::MakeJob;
using nlohmann::json;

json NamedJobsDoc(const std::vector<std::string>& names) {
  std::vector<json> jobs;
  DirFigures f;
  f.iops = 16000;
  f.bw_bytes = 16000 * 4096.0;
  for (const auto& n : names) jobs.push_back(MakeJob(n, {}, "read", f));
  return MakeDoc(jobs);
}

TEST(TableEscapingTest, PipesAndNewlinesStayInTheirCell) {
  const json doc = NamedJobsDoc({"a|b,c\"d", "new\nline", "tab\there"});
  TableOptions o;
  o.caption = false;
  o.style = TableStyle::kMarkdown;
  auto md = RenderTables(doc, o);
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(*md,
            "| job       | iops  |\n"
            "| --------- | ----: |\n"
            "| a\\|b,c\"d  | 16.0k |\n"
            "| new\\nline | 16.0k |\n"
            "| tab\\there | 16.0k |\n");
  o.style = TableStyle::kPlain;
  auto plain = RenderTables(doc, o);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain,
            "job          iops\n"
            "a|b,c\"d     16.0k\n"
            "new\\nline   16.0k\n"
            "tab\\there   16.0k\n");
  // CSV quotes instead (RFC 4180 allows a line break inside quotes), and a
  // bare CR is quoted too.
  const json cr = NamedJobsDoc({"a,b", "c\rd", "e\"f"});
  o.style = TableStyle::kCsv;
  auto csv = RenderTables(cr, o);
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(*csv, "job,iops\n\"a,b\",16000\n\"c\rd\",16000\n\"e\"\"f\",16000\n");
}

TEST(TableEscapingTest, CaptionLinesStayOneLine) {
  // Two job names and two swept keys: the job name is in the caption.
  DirFigures f;
  f.iops = 1000;
  std::vector<json> jobs;
  for (const char* n : {"x\ny", "z"})
    for (const char* a : {"1", "2"})
      for (const char* b : {"0", "1"}) jobs.push_back(MakeJob(n, {{"a", a}, {"b", b}}, "read", f));
  TableOptions o;
  o.style = TableStyle::kCsv;
  auto csv = RenderTables(MakeDoc(jobs, {"a", "b"}), o);
  ASSERT_TRUE(csv.ok());
  // Every line is a "# " caption, the header, or a data row.
  std::istringstream in(*csv);
  for (std::string line; std::getline(in, line);)
    EXPECT_TRUE(line.empty() || line.rfind("# ", 0) == 0 || line.rfind("a,", 0) == 0 ||
                line[0] == '1' || line[0] == '2')
        << "stray line: " << line;
  EXPECT_NE(csv->find("# read IOPS by a and b, job x\\ny\n"), std::string::npos) << *csv;
}

TEST(TableEscapingTest, WideCharactersAlign) {
  // 名前 takes four terminal columns, ü one (two bytes), e + combining
  // acute one. U+1F680 ROCKET, U+231A WATCH and U+2615 HOT BEVERAGE are
  // East Asian Width W, two columns (a hand-picked list of blocks gave them
  // one, and their rows were a column off); U+1F321 THERMOMETER is N, one.
  TableOptions o;
  o.caption = false;
  const auto render = [&o](std::vector<std::string> names) {
    auto t = RenderTables(NamedJobsDoc(names), o);
    return t.ok() ? *t : t.status().message();
  };
  EXPECT_EQ(render({"名前", "ünï", "e\xCC\x81", "plain"}),
            "job      iops\n"
            "名前    16.0k\n"
            "ünï     16.0k\n"
            "e\xCC\x81       16.0k\n"
            "plain   16.0k\n");
  EXPECT_EQ(render({"\U0001F680", "\u231A\u2615", "\U0001F321", "ab"}),
            "job     iops\n"
            "\U0001F680     16.0k\n"
            "\u231A\u2615   16.0k\n"
            "\U0001F321      16.0k\n"
            "ab     16.0k\n");
}

TEST(TableCaptionTest, MedianCountIsEveryJobs) {
  // --sweep iodepth=1,2 --repeat=3, SIGINT in run 2 of iodepth=2: that
  // point's figures are the median of 1 run (iobench.repeat.n), and the
  // caption said "median of 3 runs" from the first job alone.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json doc = MakeDoc({MakeJob("j", {{"iodepth", "1"}}, "read", f, {{"ioengine", "null"}}),
                      MakeJob("j", {{"iodepth", "2"}}, "read", f, {{"ioengine", "null"}})});
  doc["jobs"][0]["iobench"]["repeat"] = {{"n", 3}};
  doc["jobs"][1]["iobench"]["repeat"] = {{"n", 1}};
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s each, median of 1-3 runs");
  // A point whose only run was cut has no repeat object: one run.
  doc["jobs"][1]["iobench"].erase("repeat");
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s each, median of 1-3 runs");
  doc["jobs"][1]["iobench"]["repeat"] = {{"n", 3}};
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s each, median of 3 runs");
  doc["jobs"][0]["iobench"]["repeat"] = {{"n", 1}};
  doc["jobs"][1]["iobench"]["repeat"] = {{"n", 1}};
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s each, median of 1 run");
  // No --repeat: no median said.
  for (auto& j : doc["jobs"]) j["iobench"].erase("repeat");
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s each");
}

TEST(TableCaptionTest, DefaultBlockSizeAndRwAreSaid) {
  // `--name=x --ioengine=null --size=4m` was captioned `buffered, null`:
  // the default buffered said, the default 4k and read not ("job options"
  // lists only what was written).
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json doc = MakeDoc({MakeJob("x", {}, "read", f, {{"ioengine", "null"}, {"size", "4m"}})});
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, 10 s");
  // Written under fio's alias names, or in the global options.
  doc["jobs"][0]["job options"]["blocksize"] = "8k";
  doc["global options"] = {{"readwrite", "randread"}};
  EXPECT_EQ(DescribeJobs(doc), "8k randread, buffered, null, 10 s");
  // A block size range or split is not the default 4k.
  doc["jobs"][0]["job options"].erase("blocksize");
  doc["jobs"][0]["job options"]["bssplit"] = "4k/50:64k/50";
  EXPECT_EQ(DescribeJobs(doc), "randread, buffered, null, 10 s");
  // Jobs that differ in them: neither is said.
  json two = MakeDoc(
      {MakeJob("a", {}, "read", f), MakeJob("b", {}, "write", f, {{"rw", "write"}, {"bs", "4k"}})});
  EXPECT_EQ(DescribeJobs(two), "4k, buffered, 10 s each");
}

TEST(TableCaptionTest, AGroupOfJobsWithDifferentRwIsNotCaptionedWithOne) {
  // --group_reporting --name=a --rw=read --name=b --rw=write: the group's
  // entry lists the last job's options (as fio), and the caption said
  // `write` for both. iobench.member_rw says what its members did.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json g = MakeJob("a", {}, "rw", f, {{"name", "b"}, {"rw", "write"}});
  g["iobench"]["member_rw"] = {"read", "write"};
  json doc = MakeDoc({g});
  EXPECT_EQ(DescribeJobs(doc), "4k, buffered, 10 s");
  // Its directions are its members' together.
  EXPECT_EQ(*RwDirections(&doc, doc["jobs"][0]), (std::set<std::string>{"read", "write"}));
  // Members that agree: the listed rw, as written.
  doc["jobs"][0]["iobench"]["member_rw"] = {"randread"};
  doc["jobs"][0]["job options"]["rw"] = "randread:8";
  EXPECT_EQ(DescribeJobs(doc), "4k randread:8, buffered, 10 s");
}

TEST(TableCaptionTest, AGroupIsCaptionedOnlyWithOptionsItsMembersAgreeOn) {
  // group_reporting, [a] bs=4k iodepth=1 direct=1 and [b] bs=64k
  // iodepth=16: the entry lists b's options (as fio), and the caption said
  // `64k read, buffered, null, iodepth=16` for both jobs.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json g = MakeJob("a", {}, "read", f,
                   {{"bs", "64k"}, {"iodepth", "16"}, {"ioengine", "null"}, {"rw", "read"}});
  g["iobench"]["member_rw"] = {"read"};
  g["iobench"]["member_options"] = {
      {"bs", {"4k", "64k"}}, {"iodepth", {"1", "16"}}, {"direct", {"1", nullptr}}};
  json doc = MakeDoc({g});
  EXPECT_EQ(DescribeJobs(doc), "read, null, 10 s");
  // Members that differ in how they say it agree: no rw and rw=read, no
  // iodepth and iodepth=1 are fio's defaults.
  doc["jobs"][0]["iobench"]["member_options"] = {{"rw", {nullptr, "read"}},
                                                 {"iodepth", {nullptr, "1"}}};
  doc["jobs"][0]["job options"]["iodepth"] = "1";
  doc["jobs"][0]["job options"]["bs"] = "4k";
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, null, iodepth=1, 10 s");
  // No default known for an option one member leaves unset: not said.
  doc["jobs"][0]["iobench"]["member_options"] = {{"ioengine", {nullptr, "null"}}};
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, iodepth=1, 10 s");
}

TEST(TableNoSweepTest, AGroupRowListsEveryMembersValue) {
  // The no-sweep table's option columns showed a group entry's last
  // member's values (`64k 16`) beside a job of its own.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json g = MakeJob("a", {}, "read", f, {{"bs", "64k"}, {"iodepth", "16"}});
  g["iobench"]["member_options"] = {{"bs", {"4k", "64k"}}, {"iodepth", {nullptr, "16"}}};
  json c = MakeJob("c", {}, "read", f, {{"bs", "8k"}, {"iodepth", "16"}});
  TableOptions o;
  o.caption = false;
  EXPECT_EQ(*RenderTables(MakeDoc({g, c}), o),
            "job   bs       iodepth    iops\n"
            "a     4k/64k   -/16      1.00k\n"
            "c     8k       16        1.00k\n");
}

TEST(TableCaptionTest, ATableOfSomeJobsNamesTheirTargetsOnly) {
  // Per-job tables (two swept keys, two jobs) each said `tmpfs / ext4 on
  // vda`: the targets now say which jobs and points they served.
  DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  json doc = MakeDoc({MakeJob("onshm", {{"iodepth", "1"}}, "read", f),
                      MakeJob("onext4", {{"iodepth", "1"}}, "read", f)},
                     {"iodepth"});
  doc["iobench"]["context"] = {
      {"targets",
       {{{"path", "/dev/shm/t1"}, {"jobs", {"onshm"}}, {"fs_type", "tmpfs"}, {"device", ""}},
        {{"path", "/tmp/t2"}, {"jobs", {"onext4"}}, {"fs_type", "ext4"}, {"device", "vda"}}}}};
  const auto all = AllJobs(doc);
  EXPECT_EQ(DescribeJobs(doc), "4k read, buffered, tmpfs / ext4 on vda, 10 s each");
  EXPECT_EQ(DescribeJobs(doc, {all[0]}), "4k read, buffered, tmpfs, 10 s");
  EXPECT_EQ(DescribeJobs(doc, {all[1]}), "4k read, buffered, ext4 on vda, 10 s");
  // Targets that do not say (a file from before): all of them.
  doc["iobench"]["context"]["targets"][0].erase("jobs");
  doc["iobench"]["context"]["targets"][1].erase("jobs");
  EXPECT_EQ(DescribeJobs(doc, {all[0]}), "4k read, buffered, tmpfs / ext4 on vda, 10 s");
}

TEST(TableCaptionTest, RuntimeIsARangeWhenJobsDiffer) {
  DirFigures f;
  f.iops = 1000;
  f.runtime_ms = 2;
  json a = MakeJob("j", {{"iodepth", "1"}}, "read", f);
  f.runtime_ms = 27;
  json b = MakeJob("j", {{"iodepth", "2"}}, "read", f);
  EXPECT_EQ(table::DescribeJobs(MakeDoc({a, b}, {"iodepth"})), "4k read, buffered, 2-27 ms");
  f.runtime_ms = 10001;
  json c = MakeJob("j", {{"iodepth", "1"}}, "read", f);
  f.runtime_ms = 10003;
  json d = MakeJob("j", {{"iodepth", "2"}}, "read", f);
  EXPECT_EQ(table::DescribeJobs(MakeDoc({c, d}, {"iodepth"})), "4k read, buffered, 10 s each");
  f.runtime_ms = 1500;
  json e = MakeJob("j", {{"iodepth", "4"}}, "read", f);
  EXPECT_EQ(table::DescribeJobs(MakeDoc({c, e}, {"iodepth"})), "4k read, buffered, 1.5-10.0 s");
  // A loop-device sweep of 23-1114 ms read `0.0-1.1 s`: each end in its
  // own unit when one is under a second.
  f.runtime_ms = 23;
  json g = MakeJob("j", {{"iodepth", "1"}}, "read", f);
  f.runtime_ms = 1114;
  json h = MakeJob("j", {{"iodepth", "2"}}, "read", f);
  EXPECT_EQ(table::DescribeJobs(MakeDoc({g, h}, {"iodepth"})), "4k read, buffered, 23 ms-1.1 s");
}

TEST(TableCaptionTest, RunTimesInUnitsThatFitEachEnd) {
  EXPECT_EQ(FormatRunTimes(14, 567, true), "14-567 ms");
  EXPECT_EQ(FormatRunTimes(23, 1114, true), "23 ms-1.1 s");
  EXPECT_EQ(FormatRunTimes(3, 125000, true), "3 ms-125 s");
  EXPECT_EQ(FormatRunTimes(1500, 10001, true), "1.5-10.0 s");
  EXPECT_EQ(FormatRunTimes(10001, 10003, true), "10 s each");
  EXPECT_EQ(FormatRunTimes(10001, 10003, false), "10 s");
  EXPECT_EQ(FormatRunTimes(27, 27, true), "27 ms each");
  // 999.6 ms is a second, not "1000 ms".
  EXPECT_EQ(FormatRunTimes(999.6, 999.6, false), "1.0 s");
  EXPECT_EQ(FormatRunTimes(999.4, 1000, false), "999 ms-1.0 s");
}

TEST(TableCaptionTest, EngineOptionsAreSaidAndASyncEnginesIodepthIsNot) {
  // `64k read, buffered, pvsync2, numjobs=16` captioned a run with
  // uncached=1 as it did the base run, so a --compare of the two had the
  // same caption on both sides; a psync table said `iodepth=32`, which the
  // engine ignores.
  DirFigures f;
  f.iops = 1000;
  auto doc = [&](const std::map<std::string, std::string>& o) {
    return MakeDoc({MakeJob("j", {}, "read", f, o)});
  };
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "pvsync2"}, {"numjobs", "16"}, {"uncached", "1"}})),
            "4k read, buffered, pvsync2, numjobs=16, uncached=1, 10 s");
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "io_uring"},
                              {"iodepth", "8"},
                              {"force_async", "1"},
                              {"hipri", ""},
                              {"fixedbufs", "1"},
                              {"sqthread_poll", "1"}})),
            "4k read, buffered, io_uring, iodepth=8, fixedbufs=1, force_async=1, hipri, "
            "sqthread_poll=1, 10 s");
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "libaio"}, {"iodepth", "4"}, {"nowait", "1"}})),
            "4k read, buffered, libaio, iodepth=4, nowait=1, 10 s");
  // At their defaults they change nothing: not said.
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "pvsync2"}, {"uncached", "0"}, {"hipri", "0"}})),
            "4k read, buffered, pvsync2, 10 s");
  // Sync engines: no iodepth; psync when the job names no engine.
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "psync"}, {"iodepth", "32"}})),
            "4k read, buffered, psync, 10 s");
  EXPECT_EQ(DescribeJobs(doc({{"iodepth", "32"}})), "4k read, buffered, 10 s");
  EXPECT_EQ(DescribeJobs(doc({{"ioengine", "io_uring"}, {"iodepth", "32"}})),
            "4k read, buffered, io_uring, iodepth=32, 10 s");
  // A sync and an async job: the depth is the async one's.
  json mixed = MakeDoc({MakeJob("a", {}, "read", f, {{"ioengine", "psync"}, {"iodepth", "4"}}),
                        MakeJob("b", {}, "read", f, {{"ioengine", "libaio"}, {"iodepth", "4"}})});
  EXPECT_EQ(DescribeJobs(mixed), "4k read, buffered, iodepth=4, 10 s each");
  // Swept: the rows say it.
  json swept = MakeDoc(
      {MakeJob("j", {{"uncached", "0"}}, "read", f, {{"ioengine", "pvsync2"}, {"uncached", "0"}}),
       MakeJob("j", {{"uncached", "1"}}, "read", f, {{"ioengine", "pvsync2"}, {"uncached", "1"}})},
      {"uncached"});
  EXPECT_EQ(DescribeJobs(swept), "4k read, buffered, pvsync2, 10 s each");
  // base vs patched: each side its own caption.
  TableOptions o;
  o.base_label = "base.json";
  o.new_label = "new.json";
  auto r = RenderCompare(doc({{"ioengine", "pvsync2"}}),
                         doc({{"ioengine", "pvsync2"}, {"uncached", "1"}}), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("base.json: 4k read, buffered, pvsync2, 10 s\n"
                    "new.json: 4k read, buffered, pvsync2, uncached=1, 10 s\n"),
            std::string::npos)
      << *r;
}

// A table split by engine (a further swept key) holding only psync jobs
// was captioned `iodepth=8`: whether every job runs a sync engine, and which
// options the jobs share, were asked of every job of the document (the
// io_uring table's too), not of the table's own.
TEST(TableCaptionTest, EachSplitTableIsCaptionedFromItsOwnJobs) {
  DirFigures f;
  f.iops = 1000;
  std::vector<json> jobs;
  for (const char* eng : {"psync", "io_uring"})
    for (const char* rw : {"read", "write"})
      for (const char* bs : {"4k", "8k"})
        jobs.push_back(MakeJob("j", {{"rw", rw}, {"bs", bs}, {"ioengine", eng}}, rw, f,
                               {{"ioengine", eng}, {"iodepth", "8"}, {"rw", rw}, {"bs", bs}}));
  const json doc = MakeDoc(jobs, {"rw", "bs", "ioengine"});
  TableOptions o;
  const std::string out = MustRender(doc, o);
  EXPECT_NE(out.find(" by rw and bs, ioengine=psync\nbuffered, 10 s each\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find(" by rw and bs, ioengine=io_uring\nbuffered, iodepth=8, 10 s each\n"),
            std::string::npos)
      << out;
  // --compare split by engine (its first key): each side's psync table.
  const json cdoc = MakeDoc(jobs, {"ioengine", "rw", "bs"});
  auto r = RenderCompare(cdoc, cdoc, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("ioengine=psync: IOPS, each job's own direction, delta % = (new - base) / "
                    "base * 100\nbuffered, 10 s each\n"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("ioengine=io_uring: IOPS, each job's own direction, delta % = (new - base) "
                    "/ base * 100\nbuffered, iodepth=8, 10 s each\n"),
            std::string::npos)
      << *r;
  // The psync jobs alone, as the table holding them.
  std::vector<const json*> psync;
  for (const auto& j : doc["jobs"])
    if (j["job options"]["ioengine"] == "psync") psync.push_back(&j);
  EXPECT_EQ(DescribeJobs(doc, psync), "buffered, 10 s each");
}

TEST(TableNumbersTest, HugeValuesAreNotCutShort) {
  TableOptions o;
  o.caption = false;
  o.style = TableStyle::kCsv;
  json doc = NamedJobsDoc({"j"});
  doc["jobs"][0]["read"]["iops"] = 1e70;
  auto csv = RenderTables(doc, o);
  ASSERT_TRUE(csv.ok());
  // A 64-byte buffer cut the 71 digits to 63; from 1e15 on a csv cell is 15
  // significant digits and an exponent, which spreadsheets read as numbers.
  EXPECT_EQ(*csv, "job,iops\nj,1e+70\n");
  doc["jobs"][0]["read"]["iops"] = 999999999999999.0;
  EXPECT_EQ(MustRender(doc, o), "job,iops\nj,999999999999999\n");
  doc["jobs"][0]["read"]["iops"] = -1.234567890123456789e308;
  EXPECT_EQ(MustRender(doc, o), "job,iops\nj,-1.23456789012346e+308\n");
}

TEST(CompareHostileTest, NegativeOrZeroBaseGivesNoDelta) {
  json base = NamedJobsDoc({"neg", "zero", "ok"});
  json neu = base;
  base["jobs"][0]["read"]["iops"] = -5.0;
  base["jobs"][1]["read"]["iops"] = 0.0;
  neu["jobs"][0]["read"]["iops"] = 5.0;
  neu["jobs"][1]["read"]["iops"] = 5.0;
  neu["jobs"][2]["read"]["iops"] = 8000.0;
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "job     base     new    delta\n"
            "neg       -5       5        -\n"
            "zero       0       5        -\n"
            "ok     16.0k   8.00k   -50.00\n");
}

TEST(CompareHostileTest, NothingInCommonIsAnError) {
  DirFigures f;
  f.iops = 100;
  json base = MakeDoc({MakeJob("other", {}, "write", f)});
  json neu = MakeDoc({MakeJob("j", {{"iodepth", "1"}}, "read", f)}, {"iodepth"});
  TableOptions o;
  o.base_label = "o.json";
  o.new_label = "s.json";
  auto r = RenderCompare(base, neu, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "compare: no job of o.json matches a job of s.json (jobs are matched by job name and "
            "sweep point); o.json sweeps nothing, s.json sweeps iodepth:\n"
            "only in o.json: other\n"
            "only in s.json: j [iodepth=1]");
  EXPECT_EQ(RenderCompare(MakeDoc({}), neu, o).status().message(), "compare: o.json holds no jobs");
}

TEST(CompareHostileTest, NonFiniteNumbersReadAsMissing) {
  // Python's json.dump writes NaN and Infinity; C's printf nan and -nan.
  const std::string text =
      "{\"jobs\": [{\"jobname\": \"NaN\", \"read\": {\"iops\": NaN, \"total_ios\": 5, "
      "\"bw_bytes\": Infinity}, \"write\": {\"iops\": -nan, \"total_ios\": 1, \"bw_bytes\": "
      "-Infinity}, \"usr_cpu\": inf}]}";
  auto d = ParseResultsJson(text, "py.json");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  const json& job = (*d)["jobs"][0];
  EXPECT_EQ(job["jobname"], "NaN");  // inside a string: untouched
  EXPECT_TRUE(job["read"]["iops"].is_null());
  EXPECT_TRUE(job["read"]["bw_bytes"].is_null());
  EXPECT_TRUE(job["write"]["iops"].is_null());
  EXPECT_TRUE(job["write"]["bw_bytes"].is_null());
  EXPECT_TRUE(job["usr_cpu"].is_null());
  EXPECT_FALSE(table::JobMetric(job, "read", TableMetric::kIops).has_value());
  // A real syntax error says where.
  EXPECT_EQ(ParseResultsJson("fio: warning\n{\"jobs\": [\n  {\"a\": 1,}\n]}", "x.json")
                .status()
                .message(),
            "x.json: not valid JSON at line 3, column 11 (near '1,}')");
}

TEST(CompareHostileTest, ADropToZeroIsMinus100) {
  // The new side's job moved no data: 0 IOPS, a drop of 100%, not "-".
  DirFigures f;
  f.iops = 2000;
  f.bw_bytes = 2000 * 4096.0;
  json base = MakeDoc({MakeJob("hung", {}, "read", f), MakeJob("fine", {}, "read", f)});
  json neu = MakeDoc({MakeJob("hung", {}, "none", f), MakeJob("fine", {}, "read", f)});
  TableOptions o;
  o.caption = false;
  auto r = RenderCompare(base, neu, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r,
            "job     base     new     delta\n"
            "hung   2.00k       0   -100.00\n"
            "fine   2.00k   2.00k      0.00\n");
  auto t = RenderTables(neu, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, "job     iops\nhung       0\nfine   2.00k\n");
  // Latency of a job without I/O stays missing.
  o.metrics = {TableMetric::kClatP99};
  t = RenderTables(neu, o);
  ASSERT_TRUE(t.ok());
  EXPECT_NE(t->find("hung          -"), std::string::npos) << *t;
}

TEST(TableCaptionTest, EveryTargetNamedWhenTheyDiffer) {
  // Job disk on ext4, job mem on tmpfs: the caption said "tmpfs" (the
  // first target) for both.
  DirFigures f;
  f.iops = 1000;
  json doc =
      MakeDoc({MakeJob("disk", {}, "read", f, {{"filename", "/tmp/x/f1"}, {"rw", "randread"}}),
               MakeJob("mem", {}, "read", f, {{"filename", "/dev/shm/f"}, {"rw", "randread"}})});
  doc["iobench"]["context"] = {{"kernel", "6.1"},
                               {"targets",
                                {{{"path", "/dev/shm/f"}, {"fs_type", "tmpfs"}, {"device", ""}},
                                 {{"path", "/tmp/x/f1"}, {"fs_type", "ext4"}, {"device", "vda"}},
                                 {{"path", "/tmp/x/f2"}, {"fs_type", "ext4"}, {"device", "vda"}}}}};
  EXPECT_EQ(DescribeJobs(doc), "4k randread, buffered, tmpfs / ext4 on vda, 6.1, 10 s each")
      << DescribeJobs(doc);
  TableOptions o;
  const std::string t = MustRender(doc, o);
  EXPECT_NE(t.find("\ntarget tmpfs: /dev/shm/f\ntarget ext4 on vda: /tmp/x/f1, /tmp/x/f2\n"),
            std::string::npos)
      << t;
  // One file system: the caption names it, and no note is needed.
  doc["iobench"]["context"]["targets"].erase(0);
  EXPECT_EQ(DescribeJobs(doc), "4k randread, buffered, ext4 on vda, 6.1, 10 s each");
  EXPECT_EQ(MustRender(doc, o).find("target "), std::string::npos);
}

TEST(TableInterruptTest, CutPointsAndWarningsAreFootnotes) {
  DirFigures f;
  f.iops = 1000;
  json a = MakeJob("j", {{"iodepth", "1"}}, "read", f);
  json b = MakeJob("j", {{"iodepth", "2"}}, "read", f);
  b["iobench"]["interrupted"] = true;
  json doc = MakeDoc({a, b}, {"iodepth"});
  doc["iobench"]["sweep"]["not_run"] = json::array({{{"iodepth", "4"}}, {{"iodepth", "8"}}});
  doc["iobench"]["context"]["warnings"] =
      json::array({"job 'j': libaio with direct=0 is synchronous"});
  TableOptions o;
  o.caption = false;
  auto t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t,
            "iodepth         j\n"
            "1           1.00k\n"
            "2         1.00k *\n"
            "\n"
            "* interrupted: this point ran only part of its time\n"
            "not run (the sweep was stopped): iodepth=4; iodepth=8\n"
            "warning: job 'j': libaio with direct=0 is synchronous\n");
  o.style = TableStyle::kCsv;
  t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t,
            "iodepth,j\n1,1000\n2,1000\n"
            "\n"
            "# interrupted (ran only part of its time): j [iodepth=2]\n"
            "# not run (the sweep was stopped): iodepth=4; iodepth=8\n"
            "# warning: job 'j': libaio with direct=0 is synchronous\n");
}

// A point whose job failed (direct=1 refused at open: error 22, no I/O)
// showed a plain 0, read as a measured drop; it is marked, and the footnote
// names the error.
TEST(TableInterruptTest, FailedPointsAreMarked) {
  DirFigures f;
  f.iops = 1000;
  json a = MakeJob("j", {{"direct", "0"}}, "read", f);
  DirFigures none;
  json b = MakeJob("j", {{"direct", "1"}}, "read", none);
  b["error"] = 22;
  json doc = MakeDoc({a, b}, {"direct"});
  TableOptions o;
  o.caption = false;
  auto t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t,
            "direct       j\n"
            "0        1.00k\n"
            "1          0 !\n"
            "\n"
            "! failed: a job of this point ended with an error, err=22 (Invalid argument); its "
            "figures are what it did before the error\n");
  o.style = TableStyle::kCsv;
  t = RenderTables(doc, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t,
            "direct,j\n0,1000\n1,0\n"
            "\n"
            "# failed (ended with an error): j [direct=1] err=22\n");
}

}  // namespace
}  // namespace iobench
