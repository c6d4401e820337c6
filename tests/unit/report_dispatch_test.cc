// WriteReports writes each requested format, in the order asked.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "iobench/report.h"
#include "report_testdata.h"

namespace iobench {
namespace {

TEST(ReportDispatchTest, FormatsInOrder) {
  const RunResult run = testdata::MakeRun(false, 1);
  ReportOptions opts;
  opts.formats = {OutputFormat::kTerse, OutputFormat::kNormal, OutputFormat::kJson,
                  OutputFormat::kTable};
  std::ostringstream out;
  ASSERT_TRUE(WriteReports(run, opts, out).ok());
  const std::string s = out.str();
  const size_t terse = s.find("3;iobench-0.1.0;t;0;0;");
  const size_t normal = s.find("\niobench-0.1.0: kernel ");
  const size_t json = s.find("\n{\n  \"fio version\" : \"iobench-0.1.0\"");
  EXPECT_EQ(terse, 0u);
  ASSERT_NE(normal, std::string::npos);
  ASSERT_NE(json, std::string::npos);
  EXPECT_LT(normal, json);
  EXPECT_EQ(s.find("\"bins\""), std::string::npos);
  opts.formats = {OutputFormat::kJsonPlus};
  std::ostringstream plus;
  ASSERT_TRUE(WriteReports(run, opts, plus).ok());
  EXPECT_NE(plus.str().find("\"bins\""), std::string::npos);
  opts.formats = {};
  std::ostringstream none;
  ASSERT_TRUE(WriteReports(run, opts, none).ok());
  EXPECT_TRUE(none.str().empty());
}

TEST(ReportDispatchTest, KbBase1000PutsSiUnitsFirst) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].spec.kb_base = 1000;
  ReportOptions opts;
  opts.formats = {OutputFormat::kNormal};
  std::ostringstream out;
  ASSERT_TRUE(WriteReports(run, opts, out).ok());
  EXPECT_NE(out.str().find("read: IOPS=1999, BW=8188kB/s (7996KiB/s)(16.4MB/2001msec)"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("   bw (   kB/s): min="), std::string::npos) << out.str();
}

TEST(ReportDispatchTest, FailedStreamIsAnError) {
  const RunResult run = testdata::MakeRun(false, 1);
  ReportOptions opts;
  opts.formats = {OutputFormat::kNormal};
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  const Status st = WriteReports(run, opts, out);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "writing the normal report failed");
}

}  // namespace
}  // namespace iobench
