// buffer_pattern / verify_pattern values as fio 3.33's parse_and_fill_pattern
// reads them (jobfile/options.cc ParsePatternParts): whitespace before a
// decimal number, and where a bad hex number goes wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "jobfile/parser.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

using Bytes = std::vector<uint8_t>;

// fio reads a decimal part with strtol, which skips whitespace and takes a
// sign (fio 3.33 wrote these bytes): "0x12 34" is 12 22, "1 2" is 01 02.
// Whitespace before anything else fails, as in fio.
TEST(PatternParseTest, WhitespaceBeforeADecimalNumberAsFio) {
  const struct {
    const char* text;
    Bytes bytes;
  } ok[] = {
      {"0x12 34", {0x12, 0x22}},
      {"1 2", {0x01, 0x02}},
      {"1  2", {0x01, 0x02}},
      {"0x1 2", {0x01, 0x02}},
      {"0x12\t34", {0x12, 0x22}},
      {"0x12 +3", {0x12, 0x03}},
      {"+5", {0x05}},
      {"12 -1", {0x0c, 0xff, 0xff, 0xff, 0xff}},
      {"\\\"ab\\\" 5", {'a', 'b', 5}},
  };
  for (const auto& c : ok) {
    // The job file (a quoted text part keeps its quotes there).
    std::string text = c.text;
    for (size_t k; (k = text.find("\\\"")) != std::string::npos;) text.replace(k, 2, "\"");
    auto out = iobench::testing::ParseOk("[a]\nbuffer_pattern=" + text +
                                         "\nverify_pattern=" + text + "\n");
    ASSERT_EQ(out.jobs.size(), 1u) << text;
    EXPECT_EQ(out.jobs[0].buffer_pattern, c.bytes) << text;
    EXPECT_EQ(out.jobs[0].verify.pattern, c.bytes) << text;
    // The command line.
    ParseInput in;
    in.cli_job_args = {"--name=a", "--buffer_pattern=" + text, "--verify_pattern=" + text};
    auto cli = ParseJobs(in);
    ASSERT_TRUE(cli.ok()) << text << ": " << cli.status().message();
    EXPECT_EQ(cli->jobs.at(0).buffer_pattern, c.bytes) << text;
    EXPECT_EQ(cli->jobs.at(0).verify.pattern, c.bytes) << text;
  }
  // fio 3.33: "failed parsing" for each.
  for (const char* bad : {"0x12  0x34", "1 0x12", "-0x12", "0x12 %o", "0x12 'f'"}) {
    for (const char* opt : {"buffer_pattern", "verify_pattern"}) {
      ParseInput in;
      in.cli_job_args = {"--name=a", std::string("--") + opt + "=" + bad};
      auto cli = ParseJobs(in);
      EXPECT_FALSE(cli.ok()) << opt << "=" << bad;
    }
  }
  ParseInput in;
  in.cli_job_args = {"--name=a", "--buffer_pattern=0x12  0x34"};
  EXPECT_NE(ParseJobs(in).status().message().find(
                "cannot parse it at byte 5 ('  0x34'): use 0xHEX, \"text\", decimal numbers (as "
                "fio, whitespace only before a decimal number)"),
            std::string::npos)
      << ParseJobs(in).status().message();
}

// 0x followed by no hex digit: the message points at what follows the 0x,
// where it pointed at the x ("at byte 2 ('xZZ')") as if 0 were the number.
TEST(PatternParseTest, BadHexNamesTheDigits) {
  ParseInput in;
  in.cli_job_args = {"--name=a", "--verify_pattern=0xZZ"};
  EXPECT_NE(ParseJobs(in).status().message().find(
                "pattern '0xZZ': 0x at byte 1 is followed by 'ZZ', not hex digits (0-9, a-f)"),
            std::string::npos)
      << ParseJobs(in).status().message();
  in.cli_job_args = {"--name=a", "--buffer_pattern=\"a\"0x"};
  EXPECT_NE(ParseJobs(in).status().message().find("0x at byte 4 has no hex digits after it"),
            std::string::npos)
      << ParseJobs(in).status().message();
}

}  // namespace
}  // namespace iobench::jobfile
