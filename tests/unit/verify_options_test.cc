// The parser fills JobSpec::verify from fio's verify options, and none of
// them is refused by the run any more.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "jobfile/parser.h"
#include "run/coordinator.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::ParseOk;
using testing::TempDir;

TEST(VerifyOptions, EveryOptionSetsItsField) {
  auto out = ParseOk(
      "[j]\nrw=randwrite\nbs=8k\nverify=sha256\ndo_verify=0\nverify_only=1\n"
      "verify_backlog=16\nverify_backlog_batch=4\nverify_interval=4k\nverify_offset=512\n"
      "verify_pattern=0xdeadbeef\nverify_fatal=1\nverify_dump=1\nverify_state_save=0\n"
      "verify_state_load=1\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  const JobSpec& j = out.jobs[0];
  const VerifyOptions& v = j.verify;
  EXPECT_EQ(v.type, VerifyType::kSha256);  // an explicit verify= wins over verify_pattern
  EXPECT_FALSE(v.do_verify);
  EXPECT_TRUE(v.verify_only);
  EXPECT_EQ(v.backlog, 16u);
  EXPECT_EQ(v.backlog_batch, 4u);
  EXPECT_EQ(v.interval, 4096u);
  EXPECT_EQ(v.offset, 512u);
  EXPECT_EQ(v.pattern, (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef}));
  EXPECT_TRUE(v.fatal);
  EXPECT_TRUE(v.dump);
  EXPECT_FALSE(v.state_save);
  EXPECT_TRUE(v.state_load);
  EXPECT_TRUE(j.unimplemented.empty()) << j.unimplemented.front().name;
}

TEST(VerifyOptions, DefaultsFollowFio) {
  auto out = ParseOk("[j]\nrw=write\nverify=crc32c\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  const VerifyOptions& v = out.jobs[0].verify;
  EXPECT_EQ(v.type, VerifyType::kCrc32c);
  EXPECT_TRUE(v.do_verify);
  EXPECT_TRUE(v.state_save);
  EXPECT_FALSE(v.state_load);
  EXPECT_FALSE(v.verify_only);
  EXPECT_EQ(v.backlog, 0u);
}

TEST(VerifyOptions, PatternAloneMeansVerifyPattern) {
  auto out = ParseOk("[j]\nrw=write\nverify_pattern=0x55\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].verify.type, VerifyType::kPattern);
}

// fio's 'name' form: the pattern is the file's bytes, as many as fit in
// fio's 512-byte pattern after the parts before it.
TEST(VerifyOptions, PatternFromAFile) {
  TempDir d;
  ASSERT_TRUE(d.ok());
  const std::string small = d.Write("small.pat", "hello");
  auto out = ParseOk("[j]\nrw=write\nbuffer_pattern=0xff'" + small + "'\"!\"\n" +
                     "verify_pattern='" + small + "'%o\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].buffer_pattern, (std::vector<uint8_t>{0xff, 'h', 'e', 'l', 'l', 'o', '!'}));
  EXPECT_EQ(out.jobs[0].verify.pattern.size(), 13u);
  EXPECT_EQ(out.jobs[0].verify.pattern_offsets, (std::vector<uint32_t>{5}));
  std::string big(600, 'a');
  big[510] = 'y';
  big[511] = 'z';
  const std::string large = d.Write("large.pat", big);
  out = ParseOk("[j]\nrw=write\nbuffer_pattern=0x01'" + large + "'\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  const std::vector<uint8_t>& p = out.jobs[0].buffer_pattern;
  ASSERT_EQ(p.size(), 512u);  // 0x01, then the file's first 511 bytes
  EXPECT_EQ(p[0], 0x01);
  EXPECT_EQ(p[510], 'a');
  EXPECT_EQ(p[511], 'y');  // the file's byte 510; 'z' (511) is past the room
  auto bad = jobfile::ParseJobText("[j]\nrw=write\n\nbuffer_pattern='" + (d / "none.pat") + "'\n",
                                   "t.fio", d.path());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.fio:4:"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("none.pat': No such file or directory"), std::string::npos)
      << bad.status().message();
  // No room left: 512 bytes before the file.
  auto full = jobfile::ParseJobText(
      "[j]\nrw=write\nbuffer_pattern=0x" + std::string(1024, 'a') + "'" + small + "'\n", "t.fio",
      d.path());
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.status().message().find("small.pat': the parts before it fill fio's 512 bytes"),
            std::string::npos)
      << full.status().message();
  // An empty file, and a FIFO nobody writes to (read without waiting).
  const std::string empty = d.Write("empty.pat", "");
  ASSERT_EQ(mkfifo((d / "fifo.pat").c_str(), 0600), 0);
  for (const std::string& f : {empty, d / "fifo.pat"}) {
    auto r =
        jobfile::ParseJobText("[j]\nrw=write\nbuffer_pattern='" + f + "'\n", "t.fio", d.path());
    ASSERT_FALSE(r.ok()) << f;
    EXPECT_NE(r.status().message().find("pat' is empty"), std::string::npos)
        << r.status().message();
  }
}

// Verify options that cannot work together are refused before any I/O
// (exit 2), naming the job once and where each option was set, as the
// run's other job checks do.
TEST(VerifyOptions, UnworkableOptionsAreRefusedWithFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"bs=4k\nverify=crc32c\nverify_interval=1000\n",
       "job 'j': verify_interval=1000 (t.fio:5) does not divide the block size 4096 (bs, t.fio:3): "
       "give a divisor of it"},
      {"verify=pattern\n", "job 'j': verify=pattern (t.fio:3) needs verify_pattern"},
      {"verify=md5\nverify_offset=4000\n",
       "job 'j': verify_offset=4000 (t.fio:4): the 128-byte header of verify=md5 (t.fio:3) would "
       "end past verify_interval 4096 (the block size)"},
      {"verify=crc32c\nbs=12k\nverify_interval=96\n",
       "job 'j': verify_interval=96 (t.fio:5) is smaller than the 128-byte verify header of "
       "verify=crc32c (t.fio:3)"},
      {"verify_only=1\n",
       "job 'j': verify_only=1 (t.fio:3) without verify= has nothing to check (fio would do no "
       "I/O or plain reads): set verify= to the checksum the data was written with"},
      {"verify=crc32c\nverify_only=1\ndo_verify=0\n",
       "job 'j': verify_only=1 (t.fio:4) with do_verify=0 (t.fio:5) checks nothing (fio does no "
       "I/O): drop do_verify=0 to check the data, or verify_only to write it"},
      {"verify_pattern=0xff\nverify_offset=8\n",
       "job 'j': verify_offset=8 (t.fio:4): verify=pattern (from verify_pattern, t.fio:3) writes "
       "no "
       "header to move"},
  };
  for (const auto& [body, want] : cases) {
    auto out = ParseOk(std::string("[j]\nrw=write\n") + body);
    ASSERT_EQ(out.jobs.size(), 1u) << body;
    Status st = CheckJobs(out.jobs, RunOptions{});
    EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << body;
    EXPECT_EQ(st.message(), want) << body;
  }
  EXPECT_TRUE(
      CheckJobs(ParseOk("[j]\nrw=write\nverify=crc32c\nverify_interval=1k\n").jobs, RunOptions{})
          .ok());
}

TEST(VerifyOptions, VerifyAsyncRuns) {
  auto out = ParseOk("[j]\nrw=write\nverify=crc32c\nverify_async=2\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].verify.async, 2u);
  EXPECT_TRUE(out.jobs[0].verify.async_cpus.empty());
  EXPECT_EQ(ParseOk("[j]\nrw=write\nverify=crc32c\nverify_async=2\nverify_async_cpus=1,0\n")
                .jobs[0]
                .verify.async_cpus,
            (std::vector<int>{0, 1}));
  EXPECT_TRUE(out.jobs[0].unimplemented.empty());
}

// fio's pattern grammar: tokens written one after the other; %o is 8 bytes
// that become the block offset.
TEST(VerifyOptions, PatternWithOffsetFormat) {
  auto out = ParseOk("[j]\nrw=write\nverify_pattern=0xff%o\"abcd\"-12\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  const VerifyOptions& v = out.jobs[0].verify;
  EXPECT_EQ(v.type, VerifyType::kPattern);
  EXPECT_EQ(v.pattern, (std::vector<uint8_t>{0xff, 0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c', 'd', 0xf4,
                                             0xff, 0xff, 0xff}));
  EXPECT_EQ(v.pattern_offsets, (std::vector<uint32_t>{1}));

  out = ParseOk("[j]\nrw=write\nverify_pattern=%o\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].verify.pattern, std::vector<uint8_t>(8, 0));
  EXPECT_EQ(out.jobs[0].verify.pattern_offsets, (std::vector<uint32_t>{0}));

  // Two hex numbers back to back, '|' still joins parts, %o twice.
  out = ParseOk("[j]\nrw=write\nverify_pattern=0xff0x14|%o%o\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].verify.pattern.size(), 18u);
  EXPECT_EQ(out.jobs[0].verify.pattern[0], 0xff);
  EXPECT_EQ(out.jobs[0].verify.pattern[1], 0x14);
  EXPECT_EQ(out.jobs[0].verify.pattern_offsets, (std::vector<uint32_t>{2, 10}));
  // Without %o nothing changes for plain values.
  out = ParseOk("[j]\nrw=write\nverify_pattern=0xdeadbeef\n");
  EXPECT_TRUE(out.jobs[0].verify.pattern_offsets.empty());
}

TEST(VerifyOptions, OffsetFormatOnlyInVerifyPattern) {
  TempDir dir;
  auto r = jobfile::ParseJobText("[j]\nrw=write\nbuffer_pattern=0x01%o\n", "t.fio", dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("%o (the block offset) is only for verify_pattern"),
            std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace iobench
