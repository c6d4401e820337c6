// buffer_compress_percentage on a verifying job: iobench's verify data does
// not take it (its words are the generation's stream), so the parser warns
// and the report notes it instead of staying silent (fio 3.33 compresses
// such data 2.01:1 at 50; iobench's 1.02:1).
#include <gtest/gtest.h>

#include <string>

#include "jobfile/parser.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

TEST(BufferVerifyWarningTest, CompressOnAVerifyingJobIsWarnedAndNoted) {
  auto out =
      iobench::testing::ParseOk("[j]\nrw=write\nverify=crc32c\nbuffer_compress_percentage=50\n");
  const std::string what =
      "is not applied to the writes of a verifying job (verify=crc32c): iobench's verify data is "
      "incompressible, where fio zeroes part of each chunk";
  ASSERT_EQ(out.warnings.size(), 1u);
  // The place once: it was "t.fio:4: warning: ...=50 (t.fio:4) ...".
  EXPECT_EQ(out.warnings[0], "t.fio:4: warning: buffer_compress_percentage=50 " + what);
  ASSERT_EQ(out.jobs.size(), 1u);
  ASSERT_EQ(out.jobs[0].parse_notes.size(), 1u);
  EXPECT_EQ(out.jobs[0].parse_notes[0], "buffer_compress_percentage=50 (t.fio:4) " + what);

  ParseInput in;
  in.cli_job_args = {"--name=a", "--rw=randwrite", "--buffer_compress_percentage=30",
                     "--verify=md5"};
  auto cli = ParseJobs(in);
  ASSERT_TRUE(cli.ok()) << cli.status().message();
  ASSERT_EQ(cli->warnings.size(), 1u);
  EXPECT_EQ(cli->warnings[0].rfind("command line: warning: buffer_compress_percentage=30 "
                                   "is not applied",
                                   0),
            0u)
      << cli->warnings[0];

  // verify=pattern writes the pattern in fio too; no verify, or a reader,
  // has nothing to warn about.
  // A checksum with a verify_pattern writes the pattern in both tools; at
  // 100 fio's fixup gives zero_buffers and 0 %, random verify data in both.
  for (const char* body :
       {"rw=write\nverify=pattern\nverify_pattern=0xab\nbuffer_compress_percentage=50\n",
        "rw=write\nbuffer_compress_percentage=50\n",
        "rw=read\nverify=crc32c\nbuffer_compress_percentage=50\n",
        "rw=write\nverify=md5\nverify_pattern=0xab\nbuffer_compress_percentage=50\n",
        "rw=write\nverify=md5\nbuffer_compress_percentage=100\n"}) {
    auto quiet = iobench::testing::ParseOk(std::string("[j]\n") + body);
    EXPECT_TRUE(quiet.warnings.empty()) << body << quiet.warnings.at(0);
    EXPECT_TRUE(quiet.jobs.at(0).parse_notes.empty()) << body;
  }
}

}  // namespace
}  // namespace iobench::jobfile
