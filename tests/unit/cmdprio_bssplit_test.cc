// cmdprio_bssplit: fio's two entry formats per direction, the checks on
// shares, classes and levels, and the errors that name the option and line.
// The run-time behaviour (which I/Os carry the priority) is in
// tests/e2e/cmdprio.sh, on real libaio and io_uring I/O.
#include <gtest/gtest.h>

#include <string>

#include "jobfile/parser.h"

namespace iobench::jobfile {
namespace {

Result<ParseOutput> Parse(const std::string& body) {
  return ParseJobText("[j]\nioengine=libaio\nfilename=/dev/null\n" + body, "t.fio", "/tmp");
}

TEST(CmdprioBsSplit, FirstFormatAppliesToReadsAndWrites) {
  auto r = Parse("cmdprio_bssplit=4k/50:64k/10\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& j = r->jobs.at(0);
  for (int d = 0; d < 2; ++d) {
    ASSERT_EQ(j.cmdprio_bssplit[d].size(), 2u) << d;
    EXPECT_EQ(j.cmdprio_bssplit[d][0].bs, 4096u);
    EXPECT_EQ(j.cmdprio_bssplit[d][0].perc, 50u);
    EXPECT_EQ(j.cmdprio_bssplit[d][0].cls, -1);  // from cmdprio_class
    EXPECT_EQ(j.cmdprio_bssplit[d][0].level, -1);
    EXPECT_EQ(j.cmdprio_bssplit[d][1].bs, 65536u);
    EXPECT_EQ(j.cmdprio_bssplit[d][1].perc, 10u);
  }
}

TEST(CmdprioBsSplit, SecondFormatPerDirectionAndBlankShare) {
  auto r = Parse("cmdprio_bssplit=4k/30/2/5:8k/,16k/100/3/0,1m/100\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& j = r->jobs.at(0);
  ASSERT_EQ(j.cmdprio_bssplit[0].size(), 2u);
  EXPECT_EQ(j.cmdprio_bssplit[0][0].cls, 2);
  EXPECT_EQ(j.cmdprio_bssplit[0][0].level, 5);
  EXPECT_EQ(j.cmdprio_bssplit[0][0].perc, 30u);
  EXPECT_EQ(j.cmdprio_bssplit[0][1].bs, 8192u);
  EXPECT_EQ(j.cmdprio_bssplit[0][1].perc, 0u);  // fio: a blank share is 0 %
  ASSERT_EQ(j.cmdprio_bssplit[1].size(), 1u);
  EXPECT_EQ(j.cmdprio_bssplit[1][0].bs, 16384u);
  EXPECT_EQ(j.cmdprio_bssplit[1][0].cls, 3);
  EXPECT_EQ(j.cmdprio_bssplit[1][0].level, 0);
}

// fio's second format may give one size several priorities whose shares add
// up to 100 % (its example cmdprio-bssplit.fio); they keep their order.
TEST(CmdprioBsSplit, OneSizeSeveralPriorities) {
  auto r = Parse("cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const JobSpec& j = r->jobs.at(0);
  ASSERT_EQ(j.cmdprio_bssplit[0].size(), 3u);
  EXPECT_EQ(j.cmdprio_bssplit[0][0].perc, 25u);
  EXPECT_EQ(j.cmdprio_bssplit[0][0].cls, 1);
  EXPECT_EQ(j.cmdprio_bssplit[0][1].perc, 75u);
  EXPECT_EQ(j.cmdprio_bssplit[0][1].cls, 3);
  EXPECT_EQ(j.cmdprio_bssplit[0][1].level, 2);
  EXPECT_EQ(j.cmdprio_bssplit[0][2].bs, 1048576u);
}

TEST(CmdprioBsSplit, BadEntriesNameTheOptionAndLine) {
  const struct {
    const char* value;
    const char* says;
  } cases[] = {
      {"4k/101", "cmdprio_bssplit share '101' must be 0..100"},
      {"4k/50/4/0", "priority class '4' in '4k/50/4/0' must be 0..3"},
      {"4k/50/1/8", "priority level '8' in '4k/50/1/8' must be 0..7"},
      {"4k/50/1", "entry '4k/50/1' is neither bs/perc nor bs/perc/class/level"},
      {"0/50", "block size '0' must be positive"},
      {"4x/50", "cmdprio_bssplit"},
      // fio: the entries of one size share its I/Os, up to 100 % in all.
      {"4k/60/1/0:8k/50:4k/50/2/3", "read shares of block size 4096 add up to 110 %"},
      {"4k/10,8k/100:8k/1/1/1", "write shares of block size 8192 add up to 101 %"},
  };
  for (const auto& c : cases) {
    auto r = Parse(std::string("cmdprio_bssplit=") + c.value + "\n");
    ASSERT_FALSE(r.ok()) << c.value;
    EXPECT_NE(r.status().message().find("t.fio:4:"), std::string::npos)
        << c.value << ": " << r.status().message();
    EXPECT_NE(r.status().message().find(c.says), std::string::npos)
        << c.value << ": " << r.status().message();
  }
}

// The caret points at the field that is wrong, as it does for
// cmdprio_percentage=50,101 (it pointed at the value's start).
TEST(CmdprioBsSplit, CaretAtTheBadField) {
  const struct {
    const char* value;
    const char* error;  // first line of the message
  } cases[] = {
      {"4k/50/4/1",
       "t.fio:4:23: option 'cmdprio_bssplit': cmdprio_bssplit priority class '4' in '4k/50/4/1' "
       "must be 0..3"},
      {"8k/10:4k/50/1/9,16k/1",
       "t.fio:4:31: option 'cmdprio_bssplit': cmdprio_bssplit priority level '9' in '4k/50/1/9' "
       "must be 0..7"},
      {"4k/50,8k/ 101",
       "t.fio:4:27: option 'cmdprio_bssplit': cmdprio_bssplit share '101' must be 0..100"},
      {"4k/50:x/3", "t.fio:4:23: option 'cmdprio_bssplit': bad size 'x'"},
      {"4k/50:8k/1/2",
       "t.fio:4:23: option 'cmdprio_bssplit': cmdprio_bssplit entry '8k/1/2' is "
       "neither bs/perc nor bs/perc/class/level"},
  };
  for (const auto& c : cases) {
    auto r = Parse(std::string("cmdprio_bssplit=") + c.value + "\n");
    ASSERT_FALSE(r.ok()) << c.value;
    const std::string& m = r.status().message();
    EXPECT_EQ(m.substr(0, m.find('\n')), c.error);
  }
  // The caret under the field, on the echoed line.
  auto r = Parse("cmdprio_bssplit=4k/50/4/1\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("\ncmdprio_bssplit=4k/50/4/1\n                      ^"),
            std::string::npos)
      << r.status().message();
}

TEST(CmdprioBsSplit, OnlyWithEnginesThatSetPriorities) {
  auto r = ParseJobText("[j]\nioengine=psync\ncmdprio_bssplit=4k/50\n", "t.fio", "/tmp");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("t.fio:3:"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("needs ioengine="), std::string::npos);
  EXPECT_NE(r.status().message().find("libaio"), std::string::npos) << r.status().message();
  for (const char* engine : {"libaio", "io_uring"}) {
    auto ok = ParseJobText(std::string("[j]\nioengine=") + engine + "\ncmdprio_bssplit=4k/50\n",
                           "t.fio", "/tmp");
    EXPECT_TRUE(ok.ok()) << engine << ": " << ok.status().message();
  }
}

// cmdprio_class is 1..3, as in fio ("min value out of range: 0 (1 min)"):
// class 0 would ask for no class at all; an empty direction keeps the
// default (real-time).
TEST(CmdprioClass, ZeroIsRefusedWithFileAndLine) {
  for (const char* v : {"0", "0,2", "2,0"}) {
    auto r = Parse(std::string("cmdprio_percentage=50\ncmdprio_class=") + v + "\n");
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_NE(r.status().message().find("t.fio:5:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("value 0 of option 'cmdprio_class' is out of range (1..3)"),
              std::string::npos)
        << r.status().message();
  }
  for (const char* v : {"1", "3", "2,1", ",2"}) {
    auto r = Parse(std::string("cmdprio_percentage=50\ncmdprio_class=") + v + "\n");
    EXPECT_TRUE(r.ok()) << v << ": " << r.status().message();
  }
}

}  // namespace
}  // namespace iobench::jobfile
