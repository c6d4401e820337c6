// fio pipes a value holding $ncpus, $mb_memory or $pagesize through bc at
// scale 0; iobench computes it the same way (BcNum in units.cc). Each
// expected value here is what GNU bc prints for the expression.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "jobfile/parser.h"
#include "jobfile/units.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

// bc's ^ (bc_raise): an exponent's fraction is dropped; a positive power is
// exact and cut once to min(scale(a)*b, max(scale, scale(a))); a negative
// one is 1/a^|b| at scale 0. iobench kept the base's scale after every
// product (1.05^10 was 1.58, bc's 1.62), refused a negative or fractional
// exponent to the evaluator (2^-1 was .5, so size=$ncpus^-1*4096 ran 2048
// bytes where bc gives 0; 2^0.5 was 1.41 where bc gives 1).
TEST(JobfileBc, PowerAsBcComputesIt) {
  const std::pair<const char*, const char*> bc[] = {
      {"4096*1.05^10", "6635.52"},
      {"2^-1*4096", "0"},
      {"2^-1*4", "0"},
      {"4096*(-2)^-1", "0"},
      {"4096*2^0.5", "4096"},
      {"4096*1.5^2.0", "9011.2"},
      {".5^-2+0", "4"},
      {"(-.5)^-3+0", "-8"},
      {"1.0^5+0", "1.0"},
      {"(-1.5)^3+0", "-3.3"},
      {"0^3+0", "0"},
      {"1.1^-1+0", "0"},
      {"10^-1+0", "0"},
      {".1^-1+0", "10"},
      {".001^-3+0", "1000000000"},
      {"2^-0.5+0", "1"},
      {"1.05^2.9+0", "1.10"},
      {"1^-5+0", "1"},
      {"(-1)^-3+0", "-1"},
      {"1.23^7+0", "4.25"},
      {".5^20+0", "0"},
      {"2^3^2+0", "512"},      // right-associative
      {"-2^2+0", "4"},         // bc's unary minus binds first
      {"0^-1+0", "(0^-1+0)"},  // bc: divide by zero
  };
  for (const auto& [expr, printed] : bc) EXPECT_EQ(KeywordArithmetic(expr), printed) << expr;

  // In a job: fio 3.33 fails size=0 and numjobs=0 the same way.
  const int64_t cpus = sysconf(_SC_NPROCESSORS_CONF);
  if (cpus > 1) {
    auto r = testing::ParseNullJob("numjobs=$ncpus^-1*4");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("value 0 of option 'numjobs'"), std::string::npos)
        << r.status().message();
  }
  const int64_t page = sysconf(_SC_PAGESIZE);
  auto out = testing::ParseOk("[a]\nsize=$pagesize*1.05^10\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  for (const auto& st : out.jobs[0].settings)
    if (st.name == "size") {
      EXPECT_EQ(st.value, KeywordArithmetic(std::to_string(page) + "*1.62"));
    }
}

// bc warns "non-zero scale in exponent" on fio's stderr; iobench warns once
// per value, naming the option and the value.
TEST(JobfileBc, ExponentFractionWarned) {
  bool dropped = true;
  EXPECT_EQ(KeywordArithmetic("4096*2^2", &dropped), "16384");
  EXPECT_FALSE(dropped);
  EXPECT_EQ(KeywordArithmetic("4096*2^0.5", &dropped), "4096");
  EXPECT_TRUE(dropped);
  auto r = testing::ParseNullJob("bs=$pagesize*1.5^2.0,$pagesize*2^1.0\nrw=read");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("t.fio:4: warning: option 'bs': in '$pagesize*1.5^2.0,"),
            std::string::npos)
      << r->warnings[0];
  EXPECT_NE(r->warnings[0].find("non-zero scale in exponent"), std::string::npos);
}

// fio reads a size with strtoll, which stops at the '.': bs=1228.8 is 1228
// bytes (fio: 853 I/Os, 1047484 bytes of 1m), and so is bc's 1228.8 for
// bs=$pagesize*0.3 with 4 KiB pages. iobench rounded to 1229 (1048337 bytes).
TEST(JobfileBc, SizeFractionDroppedAsFio) {
  auto r = testing::ParseNullJob("bs=1228.8,$pagesize*0.3\nsize=10241.9\nrw=rw");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& job = r->jobs.at(0);
  EXPECT_EQ(job.bs[0].min, 1228u);
  EXPECT_EQ(job.bs[1].min, static_cast<uint64_t>(sysconf(_SC_PAGESIZE) * 3 / 10));
  EXPECT_EQ(job.size, 10241u);
  // With a unit the fraction counts, the bytes still truncated: 1.7k is
  // 1740.8, 1740 bytes (fio reads it as 1: strtoll's 1, no unit after it).
  auto u = testing::ParseNullJob("bs=1.7k");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->jobs.at(0).bs[0].min, 1740u);
}

// bc prints -.50 for size=$ncpus*-0.25 on 2 CPUs; iobench said "value -1
// of option 'size' is out of range" (rounded), a number never computed.
// fio's strtoll cannot read a number that starts at its '.', so fio fails
// the value ("failed parsing"): iobench refuses it naming bc's result. A
// result out of range is named as bc printed it, and where it came from.
TEST(JobfileBc, ErrorNamesTheComputedValue) {
  auto message = [](const std::string& body) {
    auto r = testing::ParseNullJob(body);
    EXPECT_FALSE(r.ok()) << body;
    return r.ok() ? std::string() : r.status().message();
  };
  std::string m = message("size=$ncpus*0-0.5");
  EXPECT_NE(m.find("t.fio:4:6: option 'size': fio's bc computes '$ncpus*0-0.5' as -.5, which fio "
                   "fails to parse"),
            std::string::npos)
      << m;
  m = message("bs=4k,$ncpus*0+0.25");
  EXPECT_NE(m.find("as .25, which fio fails to parse"), std::string::npos) << m;
  m = message("bs=$ncpus*0-1.5");
  EXPECT_NE(m.find("value '-1.5' (-1) of option 'bs' (computed from '$ncpus*0-1.5' as fio's bc "
                   "does) is out of range"),
            std::string::npos)
      << m;
  if (sysconf(_SC_NPROCESSORS_CONF) == 2) {
    m = message("size=$ncpus*-0.25");
    EXPECT_NE(m.find("as -.50, which fio fails to parse"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace iobench::jobfile
