#include "report/plot.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "table_fixtures.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench {
namespace {

using iobench::testing::DirFigures;
using iobench::testing::MakeDoc;
using iobench::testing::MakeJob;
using iobench::testing::ReadAll;
using iobench::testing::Seed000Doc;
using iobench::testing::TempDir;
using nlohmann::json;

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

TEST(PlotScriptTest, SeriesDataAndLogAxis) {
  PlotOptions o;
  o.path = "/some/dir/qd.svg";
  auto s = PlotScript(Seed000Doc(), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  // Doubling iodepth: log2 x axis; the image named relative to the script.
  EXPECT_NE(s->find("set logscale x 2\n"), std::string::npos);
  EXPECT_NE(s->find("set output 'qd.svg'\n"), std::string::npos);
  EXPECT_NE(s->find("set terminal svg "), std::string::npos);
  // One row per iodepth: x, force_async=0, force_async=1 (exact IOPS).
  EXPECT_NE(s->find("$metric << EOD\n1 12900 11000\n2 32400 29700\n"), std::string::npos) << *s;
  EXPECT_NE(s->find("128 229000 312000\nEOD\n"), std::string::npos);
  // Latency block: p50 p99 per series, in µs.
  EXPECT_NE(s->find("$latency << EOD\n1 1.5 4.25 1.5 4.25\n"), std::string::npos);
  EXPECT_NE(s->find("title 'force_async=0'"), std::string::npos);
  EXPECT_NE(s->find("title 'force_async=1 p99'"), std::string::npos);
  EXPECT_NE(s->find("set multiplot layout 2,1"), std::string::npos);
  EXPECT_EQ(PlotScriptPath("/some/dir/qd.svg"), "/some/dir/qd.gp");
  EXPECT_EQ(PlotScriptPath("a.b/plot"), "a.b/plot.gp");
}

TEST(PlotScriptTest, CategoriesAndErrors) {
  DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  std::vector<json> jobs;
  for (const char* e : {"psync", "libaio", "io_uring"})
    jobs.push_back(MakeJob("j", {{"ioengine", e}}, "read", f));
  PlotOptions o;
  o.path = "e.png";
  auto s = PlotScript(MakeDoc(jobs, {"ioengine"}), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->find("logscale x"), std::string::npos);
  EXPECT_NE(s->find("using 0:2:xtic(1)"), std::string::npos);
  EXPECT_NE(s->find("$metric << EOD\n\"psync\" 100\n\"libaio\" 100\n"), std::string::npos) << *s;
  EXPECT_NE(s->find("set terminal pngcairo"), std::string::npos);

  o.path = "e.jpg";
  EXPECT_EQ(PlotScript(MakeDoc(jobs, {"ioengine"}), o).status().message(),
            "--plot=e.jpg: the file name must end in .svg or .png");
  o.path = "e.svg";
  EXPECT_EQ(PlotScript(MakeDoc({MakeJob("j", {}, "read", f)}), o).status().message(),
            "--plot: nothing was swept; a plot needs --sweep KEY=...");
  o.x_key = "bs";
  EXPECT_EQ(PlotScript(MakeDoc(jobs, {"ioengine"}), o).status().message(),
            "--plot: 'bs' is not a swept key");
  o.x_key = "";
  o.metric = TableMetric::kLatP99;  // fio records it only with lat_percentiles=1
  EXPECT_EQ(PlotScript(MakeDoc(jobs, {"ioengine"}), o).status().message(),
            "--plot: the results carry no lat_p99 values");
}

TEST(PlotScriptTest, ADirectionAPointNeverAskedForIsAGap) {
  // --sweep rw=read,write,randrw: the IOPS lines dropped to 0 at the points
  // that never did that direction ("read" 16000 0), while the latency chart
  // had NaN there.
  DirFigures f;
  f.iops = 16000;
  f.bw_bytes = 16000 * 4096.0;
  f.clat_p50_ns = 1000;
  f.clat_p99_ns = 2000;
  std::vector<json> jobs;
  for (const char* rw : {"read", "write"})
    jobs.push_back(MakeJob("n", {{"rw", rw}}, rw, f, {{"rw", rw}}));
  jobs.push_back(MakeJob("n", {{"rw", "randrw"}}, "rw", f, {{"rw", "randrw"}}));
  PlotOptions o;
  o.path = "x.png";
  auto s = PlotScript(MakeDoc(jobs, {"rw"}), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_NE(s->find("$metric << EOD\n\"read\" 16000 NaN\n\"write\" NaN 16000\n"
                    "\"randrw\" 16000 16000\nEOD\n"),
            std::string::npos)
      << *s;
  EXPECT_NE(s->find("$latency << EOD\n\"read\" 1 2 NaN NaN\n"), std::string::npos) << *s;
}

TEST(PlotWriteTest, MissingGnuplotIsAClearError) {
  TempDir tmp;
  PlotOptions o;
  o.path = tmp.path() + "/qd.svg";
  o.gnuplot = "iobench-test-no-such-gnuplot";
  Status st = WritePlot(Seed000Doc(), o);
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(IsGnuplotMissing(st));
  EXPECT_EQ(st.message(), "gnuplot not found: apt-get install gnuplot-nox (the script " +
                              tmp.path() + "/qd.gp was written; run it with gnuplot)");
  EXPECT_TRUE(Exists(tmp.path() + "/qd.gp"));
  EXPECT_FALSE(Exists(tmp.path() + "/qd.svg"));
  EXPECT_FALSE(IsGnuplotMissing(Status::Unsupported("gnuplot")));
}

std::string Gnuplot() {
  for (const char* p : {"/usr/bin/gnuplot", "/usr/local/bin/gnuplot"})
    if (Exists(p)) return p;
  return "";
}

TEST(PlotWriteTest, SvgAndPng) {
  if (Gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed (apt-get install gnuplot-nox)";
  TempDir tmp;
  PlotOptions o;
  o.path = tmp.path() + "/qd.svg";
  Status st = WritePlot(Seed000Doc(), o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string svg = ReadAll(o.path);
  EXPECT_TRUE(svg.rfind("<?xml", 0) == 0 || svg.rfind("<svg", 0) == 0) << svg.substr(0, 100);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("force_async=1"), std::string::npos);
  EXPECT_TRUE(Exists(tmp.path() + "/qd.gp"));

  o.path = tmp.path() + "/qd.png";
  o.metric = TableMetric::kBw;
  st = WritePlot(Seed000Doc(), o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string png = ReadAll(o.path);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

// Swept values and job names are the user's: a newline in one must not end
// the quoted title and have gnuplot run the next line ("!cmd" runs a shell).
TEST(PlotWriteTest, ControlCharactersInNamesAndValuesRunNothing) {
  if (Gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed (apt-get install gnuplot-nox)";
  TempDir tmp;
  const std::string pwned = tmp.path() + "/PWNED";
  const std::string evil = "a\n!touch " + pwned + "\n";
  DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  f.clat_p50_ns = 1000;
  f.clat_p99_ns = 2000;
  std::vector<json> jobs;
  for (const std::string& name : {std::string("j"), "n\n!touch " + pwned + "2\n"})
    for (const char* qd : {"1", "2"})
      for (const std::string& v : {evil, std::string("z\r\x01'\"")})
        jobs.push_back(MakeJob(name, {{"iodepth", qd}, {"description", v}}, "read", f));
  const json doc = MakeDoc(jobs, {"iodepth", "description"});
  PlotOptions o;
  // gnuplot runs in the image's directory: "!touch PWNED3" would land there.
  o.path = tmp.path() + "/q\n!touch PWNED3\n.svg";
  auto s = PlotScript(doc, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->find("\n!"), std::string::npos) << *s;
  EXPECT_EQ(s->find('\r'), std::string::npos) << *s;
  EXPECT_EQ(s->find('\x01'), std::string::npos) << *s;
  EXPECT_NE(s->find("title 'description=a\\n!touch " + pwned + "\\n j'"), std::string::npos) << *s;
  EXPECT_NE(s->find("title 'description=z\\r\\x01''\" j'"), std::string::npos) << *s;
  // The image keeps its name, control characters and all.
  EXPECT_NE(s->find("set output \"q\\012!touch PWNED3\\012.svg\"\n"), std::string::npos) << *s;
  Status st = WritePlot(doc, o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(Exists(o.path));
  EXPECT_FALSE(Exists(pwned));
  EXPECT_FALSE(Exists(pwned + "2"));
  EXPECT_FALSE(Exists(pwned + "3"));

  // A category label keeps its backslash escapes visible.
  std::vector<json> cats;
  for (const char* e : {"a\nb", "c\\d\"e"})
    cats.push_back(MakeJob("j", {{"ioengine", e}}, "read", f));
  o.path = tmp.path() + "/e.svg";
  s = PlotScript(MakeDoc(cats, {"ioengine"}), o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_NE(s->find("$metric << EOD\n\"a\\\\nb\" 100\n\"c\\\\d_e\" 100\n"), std::string::npos)
      << *s;
}

TEST(PlotWriteTest, GnuplotFailureCarriesItsOutput) {
  if (Gnuplot().empty()) GTEST_SKIP() << "gnuplot is not installed (apt-get install gnuplot-nox)";
  TempDir tmp;
  PlotOptions o;
  o.path = tmp.path() + "/missing-dir/qd.svg";  // gnuplot cannot chdir there; nor can we write
  Status st = WritePlot(Seed000Doc(), o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kIoError);
  EXPECT_EQ(st.message(),
            "--plot: cannot write " + tmp.path() + "/missing-dir/qd.gp: No such file or directory");
}

}  // namespace
}  // namespace iobench
