// Tests for the job-file language: units, expansion, arithmetic, lexer,
// option table, error classes (message and line), precedence, include, stdin.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "engines/engines.h"
#include "jobfile/lexer.h"
#include "jobfile/options.h"
#include "jobfile/parser.h"
#include "jobfile/units.h"
#include "stats/summary.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench::jobfile {
namespace {

using iobench::testing::ParseOk;
using iobench::testing::TempDir;
namespace fs = std::filesystem;

int64_t Size(const std::string& s, uint32_t kb_base = 1024) {
  NumContext c;
  c.kind = NumKind::kSize;
  c.kb_base = kb_base;
  ValueError e;
  auto v = ParseNumber(s, c, &e);
  EXPECT_TRUE(v.has_value()) << s << ": " << e.message;
  return v.value_or(-1);
}

int64_t Time(const std::string& s, uint64_t unit_ns = 1000000000ull) {
  NumContext c;
  c.kind = NumKind::kTime;
  c.time_unit_ns = unit_ns;
  ValueError e;
  auto v = ParseNumber(s, c, &e);
  EXPECT_TRUE(v.has_value()) << s << ": " << e.message;
  return v.value_or(-1);
}

std::string NumError(const std::string& s, NumKind kind = NumKind::kSize) {
  NumContext c;
  c.kind = kind;
  ValueError e;
  auto v = ParseNumber(s, c, &e);
  EXPECT_FALSE(v.has_value()) << s;
  return e.message;
}

std::string ParseErr(const std::string& text) {
  TempDir d;
  auto r = ParseJobText(text, "t.fio", d.path());
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

// ---------------------------------------------------------------- units

TEST(JobfileUnits, SizeSuffixesKbBase1024) {
  EXPECT_EQ(Size("4096"), 4096);
  EXPECT_EQ(Size("4k"), 4096);
  EXPECT_EQ(Size("4K"), 4096);
  EXPECT_EQ(Size("4kb"), 4096);
  EXPECT_EQ(Size("4KB"), 4096);
  EXPECT_EQ(Size("4096b"), 4096);
  EXPECT_EQ(Size("4096B"), 4096);
  EXPECT_EQ(Size("1m"), 1048576);
  EXPECT_EQ(Size("1024k"), 1048576);
  EXPECT_EQ(Size("1g"), 1073741824);
  EXPECT_EQ(Size("1t"), 1099511627776LL);
  EXPECT_EQ(Size("1p"), 1125899906842624LL);
  // fio's compatibility inversion: the IEC spellings are powers of ten.
  EXPECT_EQ(Size("4KiB"), 4000);
  EXPECT_EQ(Size("4ki"), 4000);
  EXPECT_EQ(Size("1mi"), 1000000);
  EXPECT_EQ(Size("1000ki"), 1000000);
  EXPECT_EQ(Size("1ti"), 1000000000000LL);
}

TEST(JobfileUnits, SizeSuffixesKbBase1000) {
  EXPECT_EQ(Size("4k", 1000), 4000);
  EXPECT_EQ(Size("4kB", 1000), 4000);
  EXPECT_EQ(Size("4KiB", 1000), 4096);
  EXPECT_EQ(Size("1mi", 1000), 1048576);
  EXPECT_EQ(Size("1m", 1000), 1000000);
  EXPECT_EQ(Size("1g", 1000), 1000000000);
}

TEST(JobfileUnits, HexFractionsAndSigns) {
  EXPECT_EQ(Size("0x10"), 16);
  EXPECT_EQ(Size("0X1000"), 4096);
  EXPECT_EQ(Size("1.5k"), 1536);
  EXPECT_EQ(Size("-8k"), -8192);
  EXPECT_EQ(Size(" 64k "), 65536);
}

TEST(JobfileUnits, TimeSuffixesAndDefaultUnit) {
  EXPECT_EQ(Time("10"), 10000000000LL);
  EXPECT_EQ(Time("10s"), 10000000000LL);
  EXPECT_EQ(Time("10sec"), 10000000000LL);
  EXPECT_EQ(Time("2m"), 120000000000LL);
  EXPECT_EQ(Time("1h"), 3600000000000LL);
  EXPECT_EQ(Time("1d"), 86400000000000LL);
  EXPECT_EQ(Time("250ms"), 250000000LL);
  EXPECT_EQ(Time("250msec"), 250000000LL);
  EXPECT_EQ(Time("7us"), 7000);
  EXPECT_EQ(Time("7usec"), 7000);
  EXPECT_EQ(Time("10", 1000), 10000);  // thinktime: microseconds by default
  EXPECT_EQ(Time("1.5s"), 1500000000LL);
  // A hex number is in the default unit too (runtime=0x10 was 16 ns).
  EXPECT_EQ(Time("0x10"), 16000000000LL);
  EXPECT_EQ(Time("0x10", 1000), 16000);
  EXPECT_EQ(NumError("0x7fffffffff", NumKind::kTime), "number '0x7fffffffff' is too large");
}

// rate_cycle counts milliseconds, and takes a time with a unit ("1s" was
// "bad number '1s'"); a bare count past 2^63 ns still parses.
TEST(JobfileUnits, RateCycleMillisecondsOrTime) {
  EXPECT_EQ(ParseOk("[a]\nrate_cycle=1s\n").jobs.at(0).ratecycle_ms, 1000u);
  EXPECT_EQ(ParseOk("[a]\nrate_cycle=250\n").jobs.at(0).ratecycle_ms, 250u);
  EXPECT_EQ(ParseOk("[a]\nratecycle=2ms\n").jobs.at(0).ratecycle_ms, 2u);
  EXPECT_EQ(ParseOk("[a]\nrate_cycle=18446744073710\n").jobs.at(0).ratecycle_ms, 18446744073710u);
  EXPECT_NE(ParseErr("[a]\nrate_cycle=1500us\n").find("t.fio:2"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrate_cycle=1500us\n").find("not a whole number of milliseconds"),
            std::string::npos);
  // fio 3.33 takes 0 (it was "must be at least 1 ms"): see MinRateCycleZero.
  EXPECT_EQ(ParseOk("[a]\nrate_cycle=0\n").jobs.at(0).ratecycle_ms, 0u);
}

// fio 3.33 reads rate_cycle as an unsigned int with a size suffix (parse.c;
// `fio --debug=parse --parse-only --rate_cycle=V` shows "out=": 2s -> 2,
// 250ms -> 262144000, 1min -> 1048576, 1.5s and 1.5m -> 1, 0x10 -> 16,
// +2000 -> 2000): a time with a unit is warned, with both readings and the
// bare count of ms; a bare count, hex, a sign, and 0s are the same to both.
TEST(JobfileUnits, RateCycleWithAUnitIsWarned) {
  auto out = ParseJobText(
      "[a]\nioengine=null\nsize=1m\nrate_cycle=2s\n"
      "[b]\nioengine=null\nsize=1m\nrate_cycle=250ms\n"
      "[c]\nioengine=null\nsize=1m\nrate_cycle=1min\n"
      "[d]\nioengine=null\nsize=1m\nrate_cycle=2000\n"
      "[e]\nioengine=null\nsize=1m\nrate_cycle=0s\n"
      "[f]\nioengine=null\nsize=1m\nrate_cycle=1.5s\n"
      "[g]\nioengine=null\nsize=1m\nrate_cycle=0x10\n"
      "[h]\nioengine=null\nsize=1m\nrate_cycle=+2000\n"
      "[i]\nioengine=null\nsize=1m\nrate_cycle=1.5m\n"
      "[j]\nioengine=null\nsize=1m\nrate_cycle=5000ms\n"
      "[k]\nioengine=null\nsize=1m\nkb_base=1000\nrate_cycle=250ms\n"
      "[l]\nioengine=null\nsize=1m\nrate_cycle=5000000000\n",
      "t.fio", ".");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).ratecycle_ms, 2000u);  // read as before
  EXPECT_EQ(out->jobs.at(6).ratecycle_ms, 16u);
  EXPECT_EQ(out->jobs.at(7).ratecycle_ms, 2000u);
  const auto& w = out->warnings;
  ASSERT_EQ(w.size(), 8u) << ::testing::PrintToString(w);
  EXPECT_EQ(w[0],
            "t.fio:4: warning: option 'rate_cycle': '2s' is 2000 ms to iobench but 2 ms to fio "
            "3.33, which reads rate_cycle as a 32-bit number with a size suffix, not a time; "
            "write the bare count of ms (2000) to mean the same to both");
  EXPECT_NE(w[1].find("'250ms' is 250 ms to iobench but 262144000 ms to fio"), std::string::npos)
      << w[1];
  EXPECT_NE(w[2].find("'1min' is 60000 ms to iobench but 1048576 ms"), std::string::npos) << w[2];
  EXPECT_NE(w[3].find("t.fio:24:"), std::string::npos) << w[3];
  EXPECT_NE(w[3].find("'1.5s' is 1500 ms to iobench but 1 ms"), std::string::npos) << w[3];
  EXPECT_NE(
      w[4].find("t.fio:36: warning: option 'rate_cycle': '1.5m' is 90000 ms to iobench but 1 ms"),
      std::string::npos)
      << w[4];
  // 5000 MiB kept in 32 bits.
  EXPECT_NE(w[5].find("'5000ms' is 5000 ms to iobench but 947912704 ms"), std::string::npos)
      << w[5];
  EXPECT_NE(w[6].find("'250ms' is 250 ms to iobench but 250000000 ms"), std::string::npos) << w[6];
  EXPECT_NE(w[7].find("'5000000000' is 5000000000 ms to iobench but 705032704 ms to fio 3.33, "
                      "which reads rate_cycle as a 32-bit number with a size suffix, not a time; "
                      "no window above 4294967295 ms means the same to both"),
            std::string::npos)
      << w[7];
}

// Sizes go up to INT64_MAX, which off_t holds: offset=8191p (9.2234e18) is
// fio's too, and was refused as above a 9.2e18 cap. Whole numbers are exact.
TEST(JobfileUnits, SizesUpToInt64Max) {
  EXPECT_EQ(Size("8191p"), 8191LL << 50);
  EXPECT_EQ(Size("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(Size("4503599627370497ki"), 4503599627370497000LL);  // not rounded through a double
  EXPECT_EQ(Size("8191.5p"), (8191LL << 50) + (1LL << 49));
  EXPECT_EQ(NumError("8192p"), "number '8192p' is too large");
  EXPECT_EQ(NumError("9223372036854775808"), "number '9223372036854775808' is too large");
  EXPECT_EQ(NumError("99999999999999999999999999999999k"),
            "number '99999999999999999999999999999999k' is too large");
  EXPECT_EQ(NumError("8192.5p"), "number '8192.5p' is too large");
  auto j = ParseOk("[a]\noffset=8191p\n").jobs.at(0);
  EXPECT_EQ(j.offset, 8191ULL << 50);
}

TEST(JobfileUnits, BadNumbersSayWhy) {
  EXPECT_EQ(NumError("4q"),
            "bad size unit 'q' in '4q' (use k, m, g, t, p, optionally with i and/or b)");
  EXPECT_EQ(NumError("abc"), "bad size 'abc'");
  EXPECT_EQ(NumError("10x", NumKind::kTime),
            "bad time unit 'x' in '10x' (use d, h, m, s, ms, us or ns)");
  EXPECT_EQ(NumError("4z"), "zone units ('z') are not supported by iobench yet");
  EXPECT_EQ(NumError(""), "empty value where a number was expected");
  // A range where one value is taken says so (it said "bad size unit
  // 'k-128k'"; fio 3.33 silently reads size=64k-128k as 128k).
  EXPECT_EQ(NumError("64k-128k"), "'64k-128k' is a range (a-b); this option takes one value");
  EXPECT_EQ(NumError("1-2", NumKind::kTime), "'1-2' is a range (a-b); this option takes one value");
  // fio reads ':' as '-' there; and a hex range said "bad hex number".
  EXPECT_EQ(NumError("64k:128k"), "'64k:128k' is a range (a-b); this option takes one value");
  EXPECT_EQ(NumError("0x10000-0x20000"),
            "'0x10000-0x20000' is a range (a-b); this option takes one value");
  EXPECT_EQ(NumError("0x1g"), "bad hex number '0x1g'");
  EXPECT_EQ(NumError("4k-x"),
            "bad size unit 'k-x' in '4k-x' (use k, m, g, t, p, optionally with i and/or b)");
  EXPECT_NE(ParseErr("[a]\nsize=64k-128k\n").find("option 'size': '64k-128k' is a range"),
            std::string::npos);
}

TEST(JobfileUnits, PerDirectionCarryOver) {
  auto t = [](const std::string& s) {
    std::string out;
    for (auto& p : SplitPerDirection(s)) out += (p.text ? *p.text : "-") + "|";
    return out;
  };
  EXPECT_EQ(t("256k"), "256k|256k|256k|");
  EXPECT_EQ(t("8k,32k"), "8k|32k|32k|");
  EXPECT_EQ(t("8k,32k,"), "8k|32k|-|");
  EXPECT_EQ(t(",8k"), "-|8k|8k|");
  EXPECT_EQ(t(",8k,"), "-|8k|-|");
  EXPECT_EQ(t("1k,2k,3k"), "1k|2k|3k|");
}

TEST(JobfileUnits, SplitEscapedColons) {
  auto v = SplitEscaped("/dev/a:/tmp/x\\:y:/dev/b", ':');
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1], "/tmp/x:y");
}

// ----------------------------------------------------------- arithmetic

TEST(JobfileArithmetic, Operators) {
  EXPECT_EQ(Size("(1+2)"), 3);
  EXPECT_EQ(Size("(10-4)"), 6);
  EXPECT_EQ(Size("(6*7)"), 42);
  EXPECT_EQ(Size("(20/4)"), 5);
  EXPECT_EQ(Size("(10%3)"), 1);
  EXPECT_EQ(Size("(2^10)"), 1024);
  EXPECT_EQ(Size("(2^3^2)"), 512);  // right associative
  EXPECT_EQ(Size("((1+2)*3)"), 9);
  EXPECT_EQ(Size("(-3+5)"), 2);
  EXPECT_EQ(Size("(1 + 2 * 3)"), 7);
}

TEST(JobfileArithmetic, UnitsInside) {
  EXPECT_EQ(Size("(4k*2)"), 8192);
  EXPECT_EQ(Size("(1m/4)"), 262144);
  EXPECT_EQ(Size("(4k+0x10)"), 4112);
  EXPECT_EQ(Time("(1m+30s)"), 90000000000LL);
}

// Bare numbers in a time expression are in the option's default unit and
// stay plain factors: (2*10) was once 2 s times 10 s (out of range) and
// (10/4) was 1e10 ns / 4e9 ns = 2.5 ns, read as 0.
TEST(JobfileArithmetic, TimeExpressionsUseTheDefaultUnit) {
  EXPECT_EQ(Time("(2*10)"), 20000000000LL);
  EXPECT_EQ(Time("(10/4)"), 2500000000LL);
  EXPECT_EQ(Time("(2*1m)"), 120000000000LL);
  EXPECT_EQ(Time("(1s+500ms)"), 1500000000LL);
  EXPECT_EQ(Time("(3*100)", 1000), 300000LL);  // thinktime-like option in us
  auto out = ParseOk("[a]\nruntime=(10/4)\nthinktime=(2*50)\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].runtime_ns, 2500000000ull);
  EXPECT_EQ(out.jobs[0].thinktime_ns, 100000ull);  // thinktime is in us
}

// runtime=(1m*1m) was taken as 3600 s: a product of two times is no time.
// fio 3.33 (Debian) refuses it too. Sizes multiply as in fio's arithmetic
// (each suffix a factor): size=(1k*1k) is 1 MiB there and here.
TEST(JobfileArithmetic, AProductOfTwoTimesIsRefused) {
  EXPECT_EQ(NumError("(1m*1m)", NumKind::kTime),
            "'1m*1m' multiplies two times (1m and 1m), which is not a time; write the other "
            "factors as plain numbers, e.g. (60*1m)");
  EXPECT_EQ(NumError("(2*(1s+1) * 4s)", NumKind::kTime).substr(0, 52),
            "'2*(1s+1) * 4s' multiplies two times (2*(1s+1) and 4");
  EXPECT_EQ(NumError("(1s^2)", NumKind::kTime).substr(0, 39),
            "'1s^2' raises a time (1s) to a power, w");
  EXPECT_EQ(Size("(1k*1k)"), 1 << 20);
  EXPECT_EQ(Size("(1k^2)"), 1 << 20);
  EXPECT_EQ(Size("(2*(1k+1) * 4k)"), 2 * 1025 * 4096);
  // One unit per product, however it is reached; division takes it out.
  EXPECT_EQ(Size("(1k*2*3)"), 6144);
  EXPECT_EQ(Size("(1m/1k*4k)"), 4 << 20);
  EXPECT_EQ(Size("(0x10*1k)"), 16384);
  EXPECT_EQ(Size("(1k^1)"), 1024);
  EXPECT_EQ(Time("(1m/1s)"), 60000000000LL);
  EXPECT_EQ(Time("(60*1m)"), 3600000000000LL);
  EXPECT_EQ(ParseErr("[a]\nsize=1m\nruntime=(1m*1m)\n"),
            "t.fio:3:12: option 'runtime': '1m*1m' multiplies two times (1m and 1m), which is not "
            "a time; write the other factors as plain numbers, e.g. (60*1m)\n"
            "runtime=(1m*1m)\n           ^");
}

// Each number is kept as written and only the result is rounded: every
// number used to be rounded first, so (1.5*1m) was 2 MiB and (0.4*10) 0.
TEST(JobfileArithmetic, FractionsAreRoundedOnceAtTheEnd) {
  EXPECT_EQ(Size("(1.5*1m)"), 1572864);
  EXPECT_EQ(Size("(1.5*1k)"), 1536);
  EXPECT_EQ(Size("(0.5+0.5)"), 1);
  EXPECT_EQ(Size("(0.4*10)"), 4);
  EXPECT_EQ(Size("(5.5%2)"), 2);  // 1.5, rounded
  EXPECT_EQ(Size("(2.5)"), 3);    // half away from zero
  EXPECT_EQ(Size("(-2.5)"), -3);
  EXPECT_EQ(Size("(10/4)"), 3);  // 2.5
  EXPECT_EQ(Size("(2^0.5*1000)"), 1414);
  // Whole numbers stay exact across the int64 range (a double would not).
  EXPECT_EQ(Size("(16t+1)"), 17592186044417LL);
  EXPECT_EQ(Size("(8191p+1)"), 8191LL * (1LL << 50) + 1);
  EXPECT_EQ(Size("(9223372036854775807-1)"), 9223372036854775806LL);
  EXPECT_EQ(Time("(1.5*2)"), 3000000000LL);
  EXPECT_EQ(Time("(0.5+0.5)"), 1000000000LL);
  auto out = ParseOk("[a]\nsize=(1.5*1m)\nbs=(1.5*1k)\niodepth=(1.5*2)\nruntime=(1.5*2)\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].size, 1572864u);
  EXPECT_EQ(out.jobs[0].iodepth, 3u);
  EXPECT_EQ(out.jobs[0].runtime_ns, 3000000000ull);
  EXPECT_EQ(NumError("((-2)^0.5)"),
            "invalid expression '((-2)^0.5)': it has no numeric value (e.g. a negative number "
            "to a fractional power)");
  EXPECT_EQ(NumError("(2^64)"), "expression '(2^64)' is out of range");
}

TEST(JobfileArithmetic, Errors) {
  EXPECT_EQ(NumError("(1/0)"), "division by zero in expression");
  EXPECT_EQ(NumError("(1+2"), "missing ')' in expression");
  EXPECT_EQ(NumError("(1+)"), "expected a number in expression");
  EXPECT_EQ(NumError("(2*$foo)"),
            "unknown keyword in expression (use $ncpus, $mb_memory, $pagesize or ${VAR})");
  // Nesting is bounded (deeper input overflowed the stack): 64 levels
  // evaluate, the 65th is an error, however deep the rest goes.
  EXPECT_EQ(Size(std::string(63, '(') + "4" + std::string(63, ')')), 4);
  EXPECT_EQ(Size("(" + std::string(62, '-') + "4)"), 4);
  EXPECT_EQ(NumError(std::string(64, '(') + "4" + std::string(64, ')')),
            "expression nested too deeply (more than 64 levels)");
  EXPECT_EQ(NumError(std::string(100000, '(') + "1" + std::string(100000, ')')),
            "expression nested too deeply (more than 64 levels)");
  EXPECT_EQ(NumError("(" + std::string(100000, '-') + "1)"),
            "expression nested too deeply (more than 64 levels)");
  std::string powers = "(2";
  for (int i = 0; i < 100000; ++i) powers += "^1";
  EXPECT_EQ(NumError(powers + ")"), "expression nested too deeply (more than 64 levels)");
}

// --------------------------------------------------------- substitution

TEST(JobfileExpand, EnvAndKeywords) {
  setenv("IOB_TEST_SIZE", "64m", 1);
  ValueError e;
  EXPECT_EQ(Expand("${IOB_TEST_SIZE}", &e).value_or("?"), "64m");
  EXPECT_EQ(Expand("a${IOB_TEST_SIZE}b", &e).value_or("?"), "a64mb");
  EXPECT_EQ(Expand("$IOB_TEST_SIZE", &e).value_or("?"), "$IOB_TEST_SIZE");  // no braces: literal
  long n = sysconf(_SC_NPROCESSORS_CONF);
  EXPECT_EQ(Expand("$ncpus", &e).value_or("?"), std::to_string(n));
  EXPECT_EQ(Expand("$pagesize", &e).value_or("?"), std::to_string(sysconf(_SC_PAGESIZE)));
  long mb = sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / (1024 * 1024);
  EXPECT_EQ(Expand("$mb_memory", &e).value_or("?"), std::to_string(mb));
  unsetenv("IOB_TEST_SIZE");
}

TEST(JobfileExpand, UnsetVariableIsAnErrorNamingIt) {
  unsetenv("IOB_SURELY_UNSET");
  ValueError e;
  EXPECT_FALSE(Expand("x${IOB_SURELY_UNSET}", &e).has_value());
  EXPECT_EQ(e.offset, 1u);
  EXPECT_NE(e.message.find("environment variable 'IOB_SURELY_UNSET' is not set"),
            std::string::npos);
  EXPECT_NE(e.message.find("set it, e.g. IOB_SURELY_UNSET=... iobench ...)"), std::string::npos)
      << e.message;
  // `1=... iobench` is a command named "1=..." to a shell; env sets it.
  unsetenv("1");
  EXPECT_FALSE(Expand("${1}", &e).has_value());
  EXPECT_NE(e.message.find("set it, e.g. env '1=...' iobench ..., as a shell cannot assign that "
                           "name)"),
            std::string::npos)
      << e.message;
}

// fio substitutes "" for an unset variable only in a job file's lines; on
// its command line and in an include path it takes ${...} as text, so the
// error said something false there.
TEST(JobfileExpand, UnsetVariableSaysWhatFioDoesWhereItIs) {
  unsetenv("IOB_SURELY_UNSET");
  // fio 3.33 with `description=${X}` (or iodepth=, filename=): "fio: failed
  // parsing description=${X}", "fio: job j dropped", no job runs, exit 1.
  // The error said it "would silently use an empty string".
  EXPECT_NE(ParseErr("[a]\nsize=${IOB_SURELY_UNSET}\n")
                .find("(fio substitutes an empty string: silently within a longer value, while "
                      "a value left empty fails to parse and fio runs no job; set it"),
            std::string::npos);
  const std::string inc = ParseErr("[a]\nsize=1m\ninclude ${IOB_SURELY_UNSET}/x.inc\n");
  EXPECT_EQ(inc.rfind("t.fio:3:9: environment variable 'IOB_SURELY_UNSET' is not set (fio does not "
                      "substitute ${} in an include path: it would look for a file named "
                      "'${IOB_SURELY_UNSET}/x.inc'; set it",
                      0),
            0u)
      << inc;
  ParseInput in;
  in.cli_job_args = {"--name=a", "--size=${IOB_SURELY_UNSET}"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "environment variable 'IOB_SURELY_UNSET' is not set (fio does not substitute ${} "
                "on the command line: it would read '${IOB_SURELY_UNSET}' as written; set it"),
            std::string::npos)
      << r.status().message();
}

// ${SIZE:-1m} was reported as "environment variable 'SIZE:-1m' is not set
// (... set it, e.g. SIZE:-1m=...)", advice that cannot work.
// fio expands ${VAR} in an option's name too; iobench called it unknown.
TEST(JobfileExpand, VariableInAnOptionName) {
  setenv("IOB_TEST_KEY", "iodepth", 1);
  EXPECT_EQ(ParseOk("[a]\n${IOB_TEST_KEY}=8\n").jobs.at(0).iodepth, 8u);
  unsetenv("IOB_TEST_KEY");
  EXPECT_EQ(ParseErr("[a]\nx${IOB_TEST_KEY}=8\n").substr(0, 59),
            "t.fio:2:2: environment variable 'IOB_TEST_KEY' is not set (");
}

// fio substitutes over the whole line before it splits it at '=', so a
// variable may hold a whole `key=value`; iobench refused `${OPT}` with
// OPT=bs=8k as "unknown option 'bs=8k'".
TEST(JobfileExpand, VariableHoldingAWholeOption) {
  setenv("IOB_TEST_OPT", "bs=8k", 1);
  auto j = ParseOk("[a]\n${IOB_TEST_OPT}\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 8192u);
  ASSERT_NE(j.FindSetting("bs"), nullptr);
  EXPECT_EQ(j.FindSetting("bs")->value, "8k");
  // The line's own '=' and value follow the variable's, as in fio
  // ("description=a" + "=b" is the description "a=b"); two variables may
  // make the line between them.
  setenv("IOB_TEST_OPT", "description=a", 1);
  EXPECT_EQ(ParseOk("[a]\n${IOB_TEST_OPT}=b\n").jobs.at(0).description, "a=b");
  setenv("IOB_TEST_OPT", "bs", 1);
  setenv("IOB_TEST_VAL", "=16k", 1);
  EXPECT_EQ(ParseOk("[a]\n${IOB_TEST_OPT}${IOB_TEST_VAL}\n").jobs.at(0).bs[1].min, 16384u);
  // A flag stays a flag; the variable's text is not substituted again.
  setenv("IOB_TEST_OPT", "thread", 1);
  EXPECT_TRUE(ParseOk("[a]\n${IOB_TEST_OPT}\n").jobs.at(0).thread);
  setenv("IOB_TEST_OPT", "bs=${IOB_TEST_VAL}", 1);
  EXPECT_EQ(ParseErr("[a]\n${IOB_TEST_OPT}\n"),
            "t.fio:2:1: '${IOB_TEST_OPT}' expands to 'bs=${IOB_TEST_VAL}', whose value holds '${': "
            "a variable's text is not substituted again (fio would take it as written)\n"
            "${IOB_TEST_OPT}\n^");
  unsetenv("IOB_TEST_OPT");
  unsetenv("IOB_TEST_VAL");
}

// `${E}` as the whole line with E set but empty was "expected an option
// name before '='", on a line without '='.
TEST(JobfileExpand, VariableThatEmptiesTheLine) {
  setenv("IOB_TEST_EMPTY", "", 1);
  EXPECT_EQ(ParseErr("[a]\nsize=1m\n${IOB_TEST_EMPTY}\n"),
            "t.fio:3:1: '${IOB_TEST_EMPTY}' expands to nothing, so the line is empty; an option "
            "was expected (a variable in it is set but empty)\n${IOB_TEST_EMPTY}\n^");
  EXPECT_EQ(ParseErr("[a]\n ${IOB_TEST_EMPTY}=4k\n").substr(0, 99),
            "t.fio:2:2: '${IOB_TEST_EMPTY}' expands to nothing, so the option name before '=' is "
            "empty (a variab");
  unsetenv("IOB_TEST_EMPTY");
}

TEST(JobfileExpand, ShellSyntaxIsNotAVariableName) {
  ValueError e;
  EXPECT_FALSE(Expand("x${IOB_SIZE:-1m}", &e).has_value());
  EXPECT_EQ(e.offset, 1u);
  EXPECT_EQ(e.message,
            "'${IOB_SIZE:-1m}' is not a variable name: shell syntax such as ${VAR:-default} is not "
            "supported (fio has none either)");
}

TEST(JobfileExpand, NcpusArithmeticInAJob) {
  auto out = ParseOk("[a]\nnumjobs=(2*$ncpus+1)\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].numjobs, 2 * sysconf(_SC_NPROCESSORS_CONF) + 1);
}

// fio computes a value in which it substituted a $keyword even without
// parentheses (fio's own examples write size=5*1024*1024*$mb_memory/8); such
// values were refused as "bad size unit".
TEST(JobfileExpand, KeywordArithmeticWithoutParentheses) {
  const int64_t cpus = sysconf(_SC_NPROCESSORS_CONF);
  const int64_t page = sysconf(_SC_PAGESIZE);
  auto out = ParseOk("[a]\nnumjobs=$ncpus*2\nsize=16*$pagesize\nbs=$pagesize,2*$pagesize\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].numjobs, 2 * cpus);
  EXPECT_EQ(out.jobs[0].size, static_cast<uint64_t>(16 * page));
  EXPECT_EQ(out.jobs[0].bs[0].min, static_cast<uint64_t>(page));
  EXPECT_EQ(out.jobs[0].bs[1].min, static_cast<uint64_t>(2 * page));
  // '/' and '-' in bs were refused as a split or a range (fio computes them).
  auto out2 = ParseOk("[a]\nbs=$pagesize/2,$pagesize-512\n");
  EXPECT_EQ(out2.jobs.at(0).bs[0].min, static_cast<uint64_t>(page / 2));
  EXPECT_EQ(out2.jobs.at(0).bs[1].min, static_cast<uint64_t>(page - 512));
  // Without a keyword the value is not arithmetic (fio reads 1g/1024 as 1g).
  EXPECT_EQ(KeywordArithmetic("-4k"), "-4k");
  EXPECT_FALSE(ParseJobText("[a]\nsize=1g/1024\n", "f", "/tmp").ok());
}

// fio pipes a value with a $keyword through bc: whole numbers, every
// division truncated (size=$pagesize*2/3 is 2730 in fio, iobench rounded the
// whole to 2731; numjobs=$ncpus*3/4 on 2 CPUs ran 2 jobs, fio 1). The job
// keeps the computed number as its text, as fio's JSON and --showcmd do; a
// ${VAR} holding a $keyword is computed too (fio substitutes the variable
// first).
TEST(JobfileExpand, KeywordArithmeticTruncatesAsBc) {
  EXPECT_EQ(KeywordArithmetic("(1+2)*3"), "9");
  EXPECT_EQ(KeywordArithmetic("4096*2"), "8192");
  EXPECT_EQ(KeywordArithmetic("7/2*2"), "6");
  EXPECT_EQ(KeywordArithmetic("2^10-1"), "1023");
  EXPECT_EQ(KeywordArithmetic("17%5+0"), "2");
  // fio calls bc only for + - * /: "2^2" and "17%5" stay text, which fio
  // reads as 2 and 17 (iobench computed 4 and 2) and iobench refuses.
  EXPECT_EQ(KeywordArithmetic("2^2"), "2^2");
  EXPECT_EQ(KeywordArithmetic("17%5"), "17%5");
  EXPECT_NE(ParseErr("[a]\niodepth=$ncpus^2\n").find("option 'iodepth': bad number"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nsize=$mb_memory%1000\n").find("option 'size'"), std::string::npos);
  EXPECT_EQ(KeywordArithmetic("5/0"), "(5/0)");          // the evaluator's error
  EXPECT_EQ(KeywordArithmetic("4096*2k"), "(4096*2k)");  // units: the evaluator
  EXPECT_EQ(KeywordArithmetic("9223372036854775807*2"), "(9223372036854775807*2)");
  const int64_t cpus = sysconf(_SC_NPROCESSORS_CONF);
  const int64_t page = sysconf(_SC_PAGESIZE);
  auto out = ParseOk("[a]\nsize=$pagesize*2/3\nnumjobs=($ncpus*3+3)/4\nbs=,$pagesize*2\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].size, static_cast<uint64_t>(page * 2 / 3));
  EXPECT_EQ(out.jobs[0].numjobs, (cpus * 3 + 3) / 4);
  std::map<std::string, std::string> text;
  for (const auto& st : out.jobs[0].settings) text[st.name] = st.value;
  EXPECT_EQ(text["size"], std::to_string(page * 2 / 3));
  EXPECT_EQ(text["bs"], "," + std::to_string(page * 2));
  setenv("IOBENCH_TEST_KW", "$ncpus*2", 1);
  EXPECT_EQ(ParseOk("[a]\nnumjobs=${IOBENCH_TEST_KW}\n").jobs.at(0).numjobs, 2 * cpus);
  unsetenv("IOBENCH_TEST_KW");
}

// bc keeps fractions at the larger scale of a product's operands
// (`$pagesize*2.5` is 10240.0) and truncates each division to a whole
// number. The job kept such a value's text as '4096*2.5' (and '4096*1k'
// for a unit, which bc cannot read and iobench's evaluator computes), so
// --showcmd printed '--size=4096*2.5', which iobench refuses.
TEST(JobfileExpand, KeywordFractionKeptAsBcPrintsIt) {
  EXPECT_EQ(KeywordArithmetic("4096*2.5"), "10240.0");
  EXPECT_EQ(KeywordArithmetic("2*1.25"), "2.50");
  EXPECT_EQ(KeywordArithmetic("2*0.25"), ".50");
  EXPECT_EQ(KeywordArithmetic("3-3.5"), "-.5");
  EXPECT_EQ(KeywordArithmetic("2/4*1.0"), "0");
  EXPECT_EQ(KeywordArithmetic("10.55/2"), "5");
  EXPECT_EQ(KeywordArithmetic("7%2.5+0"), "2.0");
  EXPECT_EQ(KeywordArithmetic("1.5^2+0"), "2.2");
  const int64_t page = sysconf(_SC_PAGESIZE);
  const int64_t cpus = sysconf(_SC_NPROCESSORS_CONF);
  auto out = ParseOk(
      "[a]\nsize=$pagesize*2.5\nbs=$pagesize*1k,$pagesize/2*1.0\nruntime=$ncpus*1m\n"
      "ramp_time=$ncpus*1.5\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_EQ(out.jobs[0].size, static_cast<uint64_t>(page * 5 / 2));
  EXPECT_EQ(out.jobs[0].bs[0].min, static_cast<uint64_t>(page * 1024));
  std::map<std::string, std::string> text;
  for (const auto& st : out.jobs[0].settings) text[st.name] = st.value;
  EXPECT_EQ(text["size"], std::to_string(page * 5 / 2) + ".0");
  EXPECT_EQ(text["bs"], std::to_string(page * 1024) + "," + std::to_string(page / 2) + ".0");
  EXPECT_EQ(text["runtime"], std::to_string(cpus * 60));
  EXPECT_EQ(text["ramp_time"], std::to_string(cpus * 3 / 2) + (cpus % 2 ? ".5" : ".0"));
  // Each text reads back as the same value.
  std::string again = "[a]\n";
  for (const char* k : {"size", "bs", "runtime", "ramp_time"}) again += k + ("=" + text[k]) + "\n";
  auto back = ParseOk(again);
  EXPECT_EQ(back.jobs.at(0).size, out.jobs[0].size);
  EXPECT_EQ(back.jobs.at(0).bs[0].min, out.jobs[0].bs[0].min);
  EXPECT_EQ(back.jobs.at(0).bs[1].min, out.jobs[0].bs[1].min);
  EXPECT_EQ(back.jobs.at(0).runtime_ns, out.jobs[0].runtime_ns);
}

// A count computed by fio's bc is judged by bc's result: numjobs=$ncpus*1.5
// is 3.0 on 2 CPUs (fio runs 3 jobs; iobench refused '2*1.5' as a
// fraction), $ncpus*0.5 is 1.0, and $ncpus/4*1.0 is 0 (each division
// truncated), which fio fails; iobench computed 0.5 and ran 1 job.
TEST(JobfileExpand, KeywordCountJudgedByBcResult) {
  const int64_t cpus = sysconf(_SC_NPROCESSORS_CONF);
  auto out = ParseOk("[a]\nnumjobs=$ncpus*1.5\niodepth=$ncpus*0.5\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  if (cpus % 2 == 0) {
    EXPECT_EQ(out.jobs[0].numjobs, cpus * 3 / 2);
    EXPECT_EQ(out.jobs[0].iodepth, static_cast<uint32_t>(cpus / 2));
  }
  if (cpus < 4) {
    EXPECT_NE(ParseErr("[a]\nnumjobs=$ncpus/4*1.0\n").find("value 0 of option 'numjobs'"),
              std::string::npos);
  }
  if (cpus % 4 != 0) {
    const std::string err = ParseErr("[a]\nnumjobs=$ncpus*1.25\n");
    EXPECT_NE(err.find("option 'numjobs' takes a whole number, got '"), std::string::npos) << err;
    EXPECT_NE(err.find("computed from '$ncpus*1.25' as fio's bc does; fio drops the fraction"),
              std::string::npos)
        << err;
  }
}

// ----------------------------------------------------------------- lexer

TEST(JobfileLexer, EntriesCommentsAndFlags) {
  auto r = Lex(
      "; comment\n# also\n[global]\nbs=4k ; trailing\nthread\n  iodepth = 8\ninclude other.fio\n",
      "f");
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& e = *r;
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].kind, LexEntry::Kind::kSection);
  EXPECT_EQ(e[0].key, "global");
  EXPECT_EQ(e[0].line, 3);
  EXPECT_EQ(e[1].key, "bs");
  EXPECT_EQ(e[1].value, "4k");
  EXPECT_FALSE(e[1].blank_after_eq);
  EXPECT_EQ(e[2].key, "thread");
  EXPECT_FALSE(e[2].has_value);
  EXPECT_EQ(e[3].value, "8");
  EXPECT_TRUE(e[3].blank_after_eq);
  EXPECT_EQ(e[3].key_col, 3);
  EXPECT_EQ(e[3].value_col, 13);
  EXPECT_EQ(e[4].kind, LexEntry::Kind::kInclude);
  EXPECT_EQ(e[4].key, "other.fio");
}

TEST(JobfileLexer, CommentCharsInsideAQuotedValue) {
  auto r = Lex("[a]\ndescription=\"disk #1; fast\" ; real comment\n", "f");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[1].value, "disk #1; fast");
  EXPECT_TRUE((*r)[1].quoted);
}

TEST(JobfileLexer, ErrorsHaveLineColumnAndCaret) {
  auto r = Lex("[global]\n[job\n", "f.fio");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "f.fio:2:5: missing ']' after section name\n[job\n    ^");
  auto r2 = Lex("[a]\niodepth 32\n", "f.fio");
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(
      r2.status().message(),
      "f.fio:2:9: expected '=' between option 'iodepth' and its value\niodepth 32\n        ^");
}

// ------------------------------------------------------------ the table

TEST(JobfileTable, EveryIssueOptionIsARow) {
  for (const char* n : {"name",
                        "description",
                        "filename",
                        "directory",
                        "filename_format",
                        "nrfiles",
                        "openfiles",
                        "size",
                        "filesize",
                        "io_size",
                        "offset",
                        "offset_increment",
                        "number_ios",
                        "fill_device",
                        "rw",
                        "rw_sequencer",
                        "rwmixread",
                        "rwmixwrite",
                        "bs",
                        "bsrange",
                        "bssplit",
                        "blockalign",
                        "bs_unaligned",
                        "ioengine",
                        "iodepth",
                        "iodepth_batch_submit",
                        "iodepth_batch_complete_min",
                        "iodepth_batch_complete_max",
                        "iodepth_low",
                        "numjobs",
                        "thread",
                        "direct",
                        "buffered",
                        "sync",
                        "fsync",
                        "fdatasync",
                        "end_fsync",
                        "fsync_on_close",
                        "invalidate",
                        "fallocate",
                        "overwrite",
                        "create_on_open",
                        "unlink",
                        "pre_read",
                        "runtime",
                        "time_based",
                        "ramp_time",
                        "startdelay",
                        "loops",
                        "randrepeat",
                        "randseed",
                        "norandommap",
                        "random_generator",
                        "random_distribution",
                        "percentage_random",
                        "rate",
                        "rate_iops",
                        "rate_min",
                        "rate_iops_min",
                        "rate_process",
                        "thinktime",
                        "stonewall",
                        "new_group",
                        "wait_for",
                        "group_reporting",
                        "exitall",
                        "cpus_allowed",
                        "cpus_allowed_policy",
                        "nice",
                        "prio",
                        "prioclass",
                        "verify",
                        "verify_interval",
                        "zero_buffers",
                        "refill_buffers",
                        "scramble_buffers",
                        "buffer_compress_percentage",
                        "buffer_pattern",
                        "kb_base",
                        "unit_base",
                        "clat_percentiles",
                        "lat_percentiles",
                        "slat_percentiles",
                        "percentile_list",
                        "gtod_reduce",
                        "disable_lat",
                        "disable_clat",
                        "disable_slat",
                        "disable_bw_measurement",
                        "continue_on_error",
                        "ignore_error",
                        "allow_mounted_write",
                        "write_bw_log",
                        "write_lat_log",
                        "write_iops_log",
                        "write_hist_log",
                        "log_avg_msec",
                        "log_hist_msec",
                        "log_offset",
                        "per_job_logs",
                        "hipri",
                        "hipri_percentage",
                        "nowait",
                        "uncached",
                        "force_async",
                        "fixedbufs",
                        "registerfiles",
                        "sqthread_poll",
                        "sqthread_poll_cpu",
                        "nonvectored",
                        "userspace_reap",
                        "cmdprio_percentage",
                        "cmdprio_class",
                        "cmdprio"}) {
    const OptionDef* d = FindOption(n);
    ASSERT_NE(d, nullptr) << n;
    EXPECT_EQ(d->name, n);
    EXPECT_NE(d->set, nullptr) << n;
    EXPECT_FALSE(d->help.empty()) << n;
  }
}

// unit_base's help said "8 bits, 1 bytes", the reverse of fio (8 bytes,
// 1 bits) and of what the reports do.
TEST(JobfileTable, UnitBaseHelpSaysOneIsBits) {
  const OptionDef* d = FindOption("unit_base");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->help, "Report units: 0 auto, 8 bytes, 1 bits");
}

TEST(JobfileTable, FioAliases) {
  EXPECT_EQ(FindOption("readwrite")->name, "rw");
  EXPECT_EQ(FindOption("blocksize")->name, "bs");
  EXPECT_EQ(FindOption("iodepth_batch")->name, "iodepth_batch_submit");
  EXPECT_EQ(FindOption("timeout")->name, "runtime");
  EXPECT_EQ(FindOption("nr_files")->name, "nrfiles");
  EXPECT_EQ(FindOption("io_limit")->name, "io_size");
  EXPECT_EQ(FindOption("wait_for_previous")->name, "stonewall");
  EXPECT_EQ(FindOption("ba")->name, "blockalign");
  EXPECT_EQ(FindOption("disable_bw")->name, "disable_bw_measurement");
}

TEST(JobfileTable, RunsFlag) {
  for (const char* n : {"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
                        "log_avg_msec", "log_hist_msec", "log_hist_coarseness", "log_offset",
                        "log_prio", "per_job_logs", "log_window_value"})  // issue 8
    EXPECT_TRUE(FindOption(n)->runs) << n;
  for (const char* n :
       {"rw", "bs", "iodepth", "hipri", "force_async", "thinktime", "rate", "verify",
        "verify_backlog", "verify_only", "verify_state_load", "verify_async", "cmdprio_bssplit"})
    EXPECT_TRUE(FindOption(n)->runs) << n;
}

TEST(JobfileTable, FioOnlyListExcludesOurOptions) {
  EXPECT_TRUE(IsFioOnlyOption("cgroup"));
  EXPECT_TRUE(IsFioOnlyOption("hostname"));  // net engine option
  EXPECT_FALSE(IsFioOnlyOption("iodepth"));
  EXPECT_FALSE(IsFioOnlyOption("blocksize"));
  for (const auto& n : FioOnlyOptions()) EXPECT_EQ(FindOption(n), nullptr) << n;
}

TEST(JobfileTable, IoengineChoicesNameEveryEngine) {
  // The help used to list a fixed set that left out mmap and io_uring_cmd.
  std::set<std::string> choices;
  std::stringstream in(FindOption("ioengine")->choices);
  for (std::string c; std::getline(in, c, '|');) choices.insert(c);
  for (const auto& e : EngineRegistry()) EXPECT_EQ(choices.count(e.name), 1u) << e.name;
  for (const auto& c : choices) {
    EXPECT_NE(FindEngine(c), nullptr) << c;
    // cpuio needs its cpuload= (CpuioNeedsCpuload).
    EXPECT_EQ(ParseOk("[a]\nioengine=" + c + (c == "cpuio" ? "\ncpuload=1" : "") + "\n")
                  .jobs.at(0)
                  .ioengine,
              c);
  }
}

TEST(JobfileTable, EveryShownDefaultIsAValidValue) {
  // The help used to show replay_align's default as 0, a value it refuses.
  for (const auto& d : OptionTable()) {
    if (d.def.empty()) continue;
    const std::string engine = d.engines.empty() ? "null" : d.engines.front();
    auto r = ParseJobText("[j]\nioengine=" + engine + "\nsize=1m\n" +
                              (engine == "cpuio" && d.name != "cpuload" ? "cpuload=1\n" : "") +
                              d.name + "=" + d.def + "\n",
                          "t.fio", "/tmp");
    EXPECT_TRUE(r.ok()) << d.name << "=" << d.def << ": " << r.status().message();
  }
}

TEST(JobfileTable, PercentileListDefaultIsTheOneUsed) {
  const OptionDef* d = FindOption("percentile_list");
  auto j = ParseOk("[a]\npercentile_list=" + d->def + "\n").jobs.at(0);
  EXPECT_EQ(j.percentile_list, DefaultPercentiles());
}

TEST(JobfileTable, OptionsMarkdownIsCurrent) {
  std::ifstream f(std::string(IOBENCH_SOURCE_DIR) + "/docs/options.md");
  ASSERT_TRUE(f)
      << "docs/options.md missing; regenerate: iobench --cmdhelp=markdown > docs/options.md";
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == OptionsMarkdown())
      << "docs/options.md is stale; regenerate: build/iobench --cmdhelp=markdown > docs/options.md";
}

// docs/jobfile.md shows the refusal of a fio option iobench lacks with a
// real one; its example (trim_backlog) was accepted long after the page
// said otherwise. The option the page names must still be refused so.
TEST(JobfileTable, JobfileMdExampleOfAnUnsupportedOptionIsRefused) {
  std::ifstream f(std::string(IOBENCH_SOURCE_DIR) + "/docs/jobfile.md");
  ASSERT_TRUE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  const std::string tail = "' is a fio option that iobench does not support yet";
  const size_t at = doc.find(tail);
  ASSERT_NE(at, std::string::npos);
  const size_t open = doc.rfind("`option '", at);
  ASSERT_NE(open, std::string::npos);
  const std::string name = doc.substr(open + 9, at - open - 9);
  EXPECT_EQ(FindOption(name), nullptr) << name;
  EXPECT_NE(ParseErr("[a]\n" + name + "=1\n").find("option '" + name + tail), std::string::npos)
      << name;
}

// ------------------------------------------------------- option values

TEST(JobfileValues, BlockSizesPerDirection) {
  auto j = ParseOk("[a]\nbs=8k,32k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 8192u);
  EXPECT_EQ(j.bs[1].min, 32768u);
  EXPECT_EQ(j.bs[2].min, 32768u);
  j = ParseOk("[a]\nbs=,8k,\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[1].max, 8192u);
  EXPECT_EQ(j.bs[2].min, 4096u);
  j = ParseOk("[a]\nbsrange=4k-64k,1k:2k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[0].max, 65536u);
  EXPECT_EQ(j.bs[1].min, 1024u);
  EXPECT_EQ(j.bs[1].max, 2048u);
  j = ParseOk("[a]\nbsrange=64k-4k\n").jobs.at(0);  // swapped
  EXPECT_EQ(j.bs[0].min, 4096u);
  // A value with no range at all is refused, as fio refuses it. A part
  // without one is refused too: fio ignores it silently (bsrange=4k-8k,16k
  // writes 4k, the default), which is never what was meant.
  EXPECT_EQ(ParseErr("[a]\nbsrange=4k\n"),
            "t.fio:2:9: option 'bsrange': bsrange '4k' is not a range: give lo-hi, or use bs=4k\n"
            "bsrange=4k\n        ^");
  EXPECT_NE(ParseErr("[a]\nbsrange=4k,8k\n").find("is not a range"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=4k-8k,16k\n")
                .find("bsrange for writes '16k' is not a range: give lo-hi (16k-16k for one size); "
                      "fio ignores such a part"),
            std::string::npos);
}

// bsrange split its value at '/' as if it were ',': fio's t0023 line
// 512/25:1k:25:2k:25:4k/25 was refused ("bad size unit"), 512/25-1k wrote
// 25-byte blocks and 1k-2k/4k-8k wrote 4k-8k. fio 3.33 splits directions at
// ',' only; in each, the low size ends at the first '-' (else ':') and each
// size ends at the next ':', '-', ',' or '/'. Expected values are fio 3.33's
// job header (fio --ioengine=null --rw=randrw --bsrange=...).
TEST(JobfileValues, BsRangeReadsSizesAsFioDoes) {
  struct Case {
    const char* value;
    uint64_t min[kNumDdirs], max[kNumDdirs];
  };
  const Case cases[] = {
      {"512/25:1k:25:2k:25:4k/25", {512, 512, 512}, {1024, 1024, 1024}},  // t0023, t0024
      {"512/25-1k", {512, 512, 512}, {1024, 1024, 1024}},
      {"1k-2k/4k-8k", {1024, 1024, 1024}, {2048, 2048, 2048}},
      {"1k:2k-4k", {1024, 1024, 1024}, {4096, 4096, 4096}},  // '-' first, then lo ends at ':'
      {"1k/2k-4k/8k", {1024, 1024, 1024}, {4096, 4096, 4096}},
      {"1k-8k/", {1024, 1024, 1024}, {8192, 8192, 8192}},
      {"1k/-8k", {1024, 1024, 1024}, {8192, 8192, 8192}},
      {"8k-1k", {1024, 1024, 1024}, {8192, 8192, 8192}},
      {"1k-4k/25,8k-16k", {1024, 8192, 8192}, {4096, 16384, 16384}},
      {"1k-2k,4k-8k,16k-32k", {1024, 4096, 16384}, {2048, 8192, 32768}},
      {"1k-2k,", {1024, 4096, 4096}, {2048, 4096, 4096}},
      {",1k-2k", {4096, 1024, 1024}, {4096, 2048, 2048}},
      {"1k-2k,,4k-8k", {1024, 4096, 4096}, {2048, 4096, 8192}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    const JobSpec j = ParseOk(std::string("[a]\nbsrange=") + c.value + "\n").jobs.at(0);
    for (int d = 0; d < kNumDdirs; ++d) {
      EXPECT_EQ(j.bs[d].min, c.min[d]) << "direction " << d;
      EXPECT_EQ(j.bs[d].max, c.max[d]) << "direction " << d;
    }
  }
  // A third size without a '/' (fio reads lo-hi and drops the rest, so the
  // job would not run what its file says) is refused, naming the direction.
  for (const char* v : {"512-1k:25", "1k:4k:8k", "1k-2k-4k", "1k-2k:4k-8k"}) {
    auto r = testing::ParseNullJob(std::string("bsrange=") + v + "\n");
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_NE(r.status().message().find("t.fio:4:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("bsrange for reads '" + std::string(v) +
                                        "' has more than two parts"),
              std::string::npos)
        << r.status().message();
  }
  // What fio drops is said in a note, not on stderr (fio's test runner
  // fails on any stderr, and t0023 has exactly this line).
  const auto r = ParseOk("[a]\nbsrange=512/25:1k:25:2k:25:4k/25\n");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.jobs.at(0).parse_notes.size(), 1u);
  EXPECT_EQ(r.jobs.at(0).parse_notes[0],
            "bsrange=512/25:1k:25:2k:25:4k/25 runs 512-1024 bytes for reads, writes and trims: as "
            "fio, a size ends at the next '/', ':', '-' or ',' and the rest is ignored (a "
            "weighted mix is bssplit=)");
  EXPECT_TRUE(ParseOk("[a]\nbsrange=1k-2k,4k-8k\n").jobs.at(0).parse_notes.empty());
  // Refused by fio too, each with its reason.
  EXPECT_NE(ParseErr("[a]\nbsrange=512/25\n")
                .find("bsrange '512/25' is not a range: give lo-hi, or use bs=512 for one size "
                      "or bssplit=512/25 for a weighted mix"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=1k/2k\n").find("is not a range"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=1k-\n").find("needs a size on the right of '-'"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=-8k\n").find("needs a size on the left of '-'"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=:4k\n").find("needs a size on the left of ':'"),
            std::string::npos);
}

// blockalign=0 was accepted and silently meant the default (the smallest
// block size); fio refuses it ("ba: min value out of range: 0 (1 min)").
TEST(JobfileValues, BlockAlignZeroIsRefused) {
  EXPECT_EQ(ParseErr("[a]\nsize=1m\nblockalign=4k,0\n"),
            "t.fio:3:15: value 0 of option 'blockalign' is out of range (1..2147483647)\n"
            "blockalign=4k,0\n              ^");
  EXPECT_EQ(ParseErr("[a]\nba=0\n").substr(0, 56),
            "t.fio:2:4: value 0 of option 'ba' is out of range (1..21");
  // A direction left out keeps the default.
  EXPECT_EQ(ParseOk("[a]\nba=,8k\n").jobs.at(0).blockalign[1], 8192u);
}

// bs, bsrange and bssplit share one limit (2 GiB - 1: one read or write call
// moves at most about 2 GiB); bsrange and bssplit took 3g and 5g before.
TEST(JobfileValues, BlockSizeLimitIsSharedByBsRangeAndSplit) {
  EXPECT_EQ(ParseOk("[a]\nbsrange=4k-2147483647\n").jobs.at(0).bs[0].max, 2147483647u);
  EXPECT_NE(ParseErr("[a]\nbs=3g\n").find("out of range (1..2147483647)"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbsrange=4k-5g\n")
                .find("block size range '4k-5g' is larger than 2147483647 bytes"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbssplit=4k/50:3g/50\n")
                .find("bssplit block size '3g/50' is larger than 2147483647 bytes"),
            std::string::npos);
}

// verify_interval unset means the block size; an explicit 0 is refused, as fio
// refuses it (it was taken silently as "unset").
TEST(JobfileValues, VerifyIntervalZeroIsRefused) {
  EXPECT_EQ(ParseOk("[a]\nverify=crc32c\n").jobs.at(0).verify.interval, 0u);
  // The message gives the real minimum: the header's size for header types.
  EXPECT_NE(ParseErr("[a]\nverify=crc32c\nverify_interval=0\n")
                .find("t.fio:3:17: option 'verify_interval': 0 is below the minimum: 80 bytes "
                      "(fio's) with verify=pattern or null, 128 (the verify header) with a "
                      "checksum or verify=meta; leave it unset for the block size"),
            std::string::npos);
}

// fio 3.33 refuses a verify_interval below 80 for every verify type ("min
// value out of range: 1 (80 min)"). verify=pattern and null took 1: a 16 MiB
// region then needed 400 MB of memory and left a 134 MB state file.
TEST(JobfileValues, VerifyIntervalBelowFiosMinimumIsRefused) {
  for (const char* type : {"pattern\nverify_pattern=0xab", "null", "crc32c", "meta", "0"}) {
    for (const char* iv : {"1", "79"}) {
      const std::string job = std::string("[a]\nverify=") + type + "\nverify_interval=" + iv + "\n";
      const std::string line = std::string(type).find('\n') != std::string::npos ? "4" : "3";
      EXPECT_NE(ParseErr(job).find("t.fio:" + line + ":17: option 'verify_interval': " + iv +
                                   " is below the minimum: 80 bytes"),
                std::string::npos)
          << job;
    }
  }
  EXPECT_EQ(ParseOk("[a]\nverify=pattern\nverify_pattern=0xab\nverify_interval=80\n")
                .jobs.at(0)
                .verify.interval,
            80u);
}

// fio's defaults of the verify features iobench lacks do nothing: spelled
// out they are accepted (they were refused as fio-only options); a nonzero
// value is refused by name.
TEST(JobfileValues, UnsupportedVerifyFeaturesAcceptTheirDefault) {
  auto out = ParseOk("[a]\nverify=crc32c\nexperimental_verify=0\ntrim_percentage=0\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_TRUE(out.jobs[0].unimplemented.empty());
  EXPECT_EQ(ParseErr("[a]\nexperimental_verify=1\n"),
            "t.fio:2:21: option 'experimental_verify': experimental_verify=1 is not supported by "
            "iobench (only 0, fio's default); verify= checks the data without it\n"
            "experimental_verify=1\n                    ^");
  EXPECT_NE(ParseErr("[a]\ntrim_percentage=10\n")
                .find("option 'trim_percentage': trim_percentage=10 is not supported by iobench "
                      "(only 0, fio's default: no trims)"),
            std::string::npos);
}

// trim_verify_zero (fio's default 1), trim_backlog and trim_backlog_batch
// act only on the blocks trim_percentage picks, and that must be 0: any
// value does nothing, and a job file spelling them out runs (they were
// refused as "a fio option that iobench does not support yet").
TEST(JobfileValues, TrimVerifyOptionsWithoutTrimsAreAccepted) {
  for (const char* opt : {"trim_verify_zero=1", "trim_verify_zero=0", "trim_backlog=0",
                          "trim_backlog_batch=0", "trim_backlog=16\ntrim_backlog_batch=4"}) {
    SCOPED_TRACE(opt);
    auto out = ParseOk(std::string("[a]\nverify=crc32c\ntrim_percentage=0\n") + opt + "\n");
    ASSERT_EQ(out.jobs.size(), 1u);
    EXPECT_TRUE(out.jobs[0].unimplemented.empty());
    EXPECT_EQ(ParseOk(std::string("[a]\n") + opt + "\n").jobs.size(), 1u);
  }
  // Trims themselves stay refused, whatever else is spelled out.
  EXPECT_NE(ParseErr("[a]\ntrim_verify_zero=1\ntrim_percentage=10\n")
                .find("trim_percentage=10 is not supported by iobench"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\ntrim_verify_zero=2\n").find("trim_verify_zero"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\ntrim_backlog=-1\n").find("trim_backlog"), std::string::npos);
}

// The same for two engine features and file locking: atomic=0,
// write_barrier=0 and lockfile=none are fio's defaults and run (they were refused as fio options
// iobench does not support yet, so a job file spelling them out did not run).
TEST(JobfileValues, UnsupportedEngineFeaturesAcceptTheirDefault) {
  auto out = ParseOk("[a]\natomic=0\nwrite_barrier=0\nlockfile=none\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  EXPECT_TRUE(out.jobs[0].unimplemented.empty());
  // lockfile=none, fio's default, runs; a locking mode is refused by name,
  // and a word fio refuses too.
  EXPECT_NE(ParseErr("[a]\nlockfile=exclusive\n")
                .find("t.fio:2:10: option 'lockfile': lockfile=exclusive is not supported by "
                      "iobench (only none, fio's default: no locking)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nlockfile=shared\n").find("must be none, exclusive or readwrite"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\natomic=1\n")
                .find("t.fio:2:8: option 'atomic': atomic=1 is not supported by iobench"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nwrite_barrier=8\n")
                .find("option 'write_barrier': write_barrier=8 is not supported by iobench (only "
                      "0, fio's default: no barriers)"),
            std::string::npos);
}

TEST(JobfileValues, BsSplitFillsBlankShares) {
  auto j = ParseOk("[a]\nbssplit=4k/50:1k/:32k/\n").jobs.at(0);
  ASSERT_EQ(j.bs[0].split.size(), 3u);
  EXPECT_EQ(j.bs[0].split[0].perc, 50u);
  EXPECT_EQ(j.bs[0].split[1].perc, 25u);
  EXPECT_EQ(j.bs[0].split[2].perc, 25u);
  EXPECT_EQ(j.bs[0].min, 1024u);
  EXPECT_EQ(j.bs[0].max, 32768u);
  j = ParseOk("[a]\nbssplit=4k/10:64k/50:1m/\n").jobs.at(0);
  EXPECT_EQ(j.bs[2].split[2].perc, 40u);
  j = ParseOk("[a]\nbssplit=4k/33:8k/:16k/:32k/\n").jobs.at(0);
  uint32_t sum = 0;
  for (auto& e : j.bs[0].split) sum += e.perc;
  EXPECT_EQ(sum, 100u);
}

TEST(JobfileValues, RwModifiersAndMix) {
  auto j = ParseOk("[a]\nrw=randread:8\n").jobs.at(0);
  EXPECT_EQ(j.rw, RwMode::kRandRead);
  EXPECT_EQ(j.rw_nr, 8u);
  j = ParseOk("[a]\nrw=read:-8k\n").jobs.at(0);
  EXPECT_EQ(j.rw, RwMode::kRead);
  EXPECT_EQ(j.rw_skip, -8192);
  // A random mode's N is a count: a unit is refused (fio's atoi reads 1k as
  // 1; it was 1024 here).
  EXPECT_NE(ParseErr("[a]\nrw=randread:1k\n")
                .find("t.fio:2:4: option 'rw': rw=randread:1k: after a random mode N counts I/Os "
                      "per random offset and takes no unit (fio reads '1k' as 1)"),
            std::string::npos)
      << ParseErr("[a]\nrw=randread:1k\n");
  j = ParseOk("[a]\nreadwrite=randrw\nrwmixwrite=30\n").jobs.at(0);
  EXPECT_EQ(j.rw, RwMode::kRandRW);
  EXPECT_EQ(j.rwmixread, 70u);
}

// A ':' with nothing after it: fio 3.33 refuses rw=read: ("rw postfix
// parsing failed") and runs rw=randread: as randread:0, sequentially. Both
// ran here as if the ':' were not there.
TEST(JobfileValues, RwEmptyModifierIsRefused) {
  for (const char* v : {"read:", "read: ", "rw:", "trimwrite:"}) {
    const std::string e = ParseErr(std::string("[a]\nsize=1m\nrw=") + v + "\n");
    const std::string mode = std::string(v).substr(0, std::string(v).find(':'));
    EXPECT_NE(e.find("t.fio:3:4: option 'rw': 'rw=" + mode +
                     ":': the skip after ':' is empty (fio refuses it"),
              std::string::npos)
        << v << ": " << e;
  }
  for (const char* v : {"randread:", "randrw: "}) {
    const std::string e = ParseErr(std::string("[a]\nsize=1m\nrw=") + v + "\n");
    const std::string mode = std::string(v).substr(0, std::string(v).find(':'));
    EXPECT_NE(e.find("t.fio:3:4: option 'rw': 'rw=" + mode +
                     ":': the count after ':' is empty (fio reads it as 0"),
              std::string::npos)
        << v << ": " << e;
  }
  // A negative skip past the least int64: too small, not "too large".
  EXPECT_NE(ParseErr("[a]\nrw=read:-9223372036854775808\n")
                .find("number '-9223372036854775808' is too small"),
            std::string::npos)
      << ParseErr("[a]\nrw=read:-9223372036854775808\n");
}

// fio labels percentiles with the decimals as typed: "99.90" gives two,
// "50.0" one, even where the value needs fewer.
TEST(JobfileValues, PercentilePrecisionAsTyped) {
  auto precision = [](const std::string& list) {
    return ParseOk("[a]\npercentile_list=" + list + "\n").jobs.at(0).percentile_precision;
  };
  EXPECT_EQ(precision("50:99"), 0);
  EXPECT_EQ(precision("50:99.9"), 1);
  EXPECT_EQ(precision("50:99.90"), 2);
  EXPECT_EQ(precision("50.0:99"), 1);
  EXPECT_EQ(precision("50.000:99.9"), 3);
  EXPECT_EQ(ParseOk("[a]\nsize=1m\n").jobs.at(0).percentile_precision, -1);
}

// buffer_compress_chunk=0 is accepted and kept as 0; the filler takes it as
// the smallest write size, as fio 3.33 (buffer_filler_shape_test.cc).
TEST(JobfileValues, CompressChunkZeroIsKept) {
  EXPECT_EQ(ParseOk("[a]\nbuffer_compress_percentage=50\nbuffer_compress_chunk=0\n")
                .jobs.at(0)
                .buffer_compress_chunk,
            0u);
}

// ignore_error takes every name fio 3.33's str2error knows (errnos 1 to 34,
// each its Linux number); 17 of them used to be refused ("unknown error
// 'ENOTTY'", exit 2, where fio runs).
TEST(JobfileValues, IgnoreErrorTakesFiosErrnoNames) {
  const char* const kFio[] = {
      "EPERM",  "ENOENT",  "ESRCH",  "EINTR",  "EIO",    "ENXIO",   "E2BIG",  "ENOEXEC", "EBADF",
      "ECHILD", "EAGAIN",  "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY",  "EEXIST",  "EXDEV",
      "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE",  "ENOTTY", "ETXTBSY", "EFBIG",
      "ENOSPC", "ESPIPE",  "EROFS",  "EMLINK", "EPIPE",  "EDOM",    "ERANGE"};
  std::string list;
  std::vector<int> want;
  for (const char* n : kFio) {
    list += std::string(list.empty() ? "" : ":") + n;
    want.push_back(static_cast<int>(want.size()) + 1);
  }
  const auto j = ParseOk("[a]\nignore_error=," + list + ",EILSEQ\n").jobs.at(0);
  EXPECT_EQ(j.ignore_error[1], want);
  EXPECT_EQ(j.ignore_error[2], (std::vector<int>{EILSEQ}));  // iobench also takes more names
  EXPECT_EQ(j.continue_on_error, kCoeWrite | kCoeVerify);
}

// A blank beside an error name inside the list: fio 3.33 looks the name up
// with it ("Unknown error  ENOSPC") and drops the job; iobench trimmed it
// and ran. A number keeps its blanks in both (atoi skips them), and blanks
// at the end of the value are dropped by both.
TEST(JobfileValues, IgnoreErrorRefusesBlanksBesideNames) {
  EXPECT_EQ(ParseErr("[a]\nignore_error=, ENOSPC\n"),
            "t.fio:2:14: option 'ignore_error': blank around 'ENOSPC' in ignore_error list "
            "' ENOSPC': fio 3.33 does not know the error with its blank and refuses the job; "
            "write the list without blanks\n"
            "ignore_error=, ENOSPC\n             ^");
  EXPECT_NE(ParseErr("[a]\nignore_error=,ENOSPC :EIO\n").find("blank around 'ENOSPC'"),
            std::string::npos);
  EXPECT_EQ(ParseOk("[a]\nignore_error=, 28 :EIO\n").jobs.at(0).ignore_error[1],
            (std::vector<int>{ENOSPC, EIO}));
  EXPECT_EQ(ParseOk("[a]\nignore_error=,ENOSPC  \n").jobs.at(0).ignore_error[1],
            (std::vector<int>{ENOSPC}));
}

// An empty entry ends fio's percentile list (:50 prints none, 50::99 only
// the 50th); iobench skipped it and printed more than fio. Now an error. A
// single ':' at the end changes nothing in either tool and is accepted.
TEST(JobfileValues, PercentileListRefusesEmptyEntries) {
  EXPECT_EQ(ParseErr("[a]\npercentile_list=50::99\n"),
            "t.fio:2:17: option 'percentile_list': empty entry in percentile list '50::99' (fio "
            "would end the list there); separate the percentiles with a single ':'\n"
            "percentile_list=50::99\n                ^");
  EXPECT_NE(ParseErr("[a]\npercentile_list=:50\n")
                .find("t.fio:2:17: option 'percentile_list': "
                      "empty entry in percentile list ':50'"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\npercentile_list=50: :99\n").find("empty entry"), std::string::npos);
  EXPECT_EQ(ParseOk("[a]\npercentile_list=50:99:\n").jobs.at(0).percentile_list,
            (std::vector<double>{50, 99}));
}

// fio 3.33 ends the list at an entry outside (0, 100] too (0:50:100 prints
// no percentile at all); still refused here, and the message says what fio
// does with it.
TEST(JobfileValues, PercentileListOutOfRangeSaysWhatFioDoes) {
  EXPECT_EQ(ParseErr("[a]\npercentile_list=0:50:100\n"),
            "t.fio:2:17: option 'percentile_list': percentile 0 is not within (0, 100] (fio "
            "would end the list there)\npercentile_list=0:50:100\n                ^");
  EXPECT_NE(ParseErr("[a]\npercentile_list=50:101:99\n")
                .find("percentile 101 is not within (0, 100] (fio says the value is out of range "
                      "and ends the list there)"),
            std::string::npos);
  // First in the list, fio fails the option ("value out of range").
  EXPECT_NE(ParseErr("[a]\npercentile_list=101\n")
                .find("percentile 101 is not within (0, 100] (fio refuses it too: value out of "
                      "range)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\npercentile_list=-5:50\n").find("(fio refuses it too"),
            std::string::npos);
}

// fio 3.33 keeps the first 20 entries of a longer percentile_list ("the
// list exceeding max length 20") and runs; iobench refused the job ("at
// most 20 percentiles"). It keeps 20 too, warning with file and line.
TEST(JobfileValues, PercentileListKeepsFirstTwenty) {
  std::string list;
  for (int i = 1; i <= 22; ++i) list += (i > 1 ? ":" : "") + std::to_string(i);
  auto out = ParseOk("[a]\npercentile_list=" + list + "\n");
  ASSERT_EQ(out.jobs.at(0).percentile_list.size(), 20u);
  EXPECT_EQ(out.jobs[0].percentile_list.back(), 20.0);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("t.fio:2: warning: percentile_list has more than 20 entries: the "
                                 "first 20 are kept"),
            std::string::npos)
      << out.warnings[0];
  EXPECT_NE(out.warnings[0].find("from '21' on"), std::string::npos) << out.warnings[0];
}

// Messages that quoted a ${VAR} holding a newline broke in two; a range of
// expressions was split inside the first one ("missing ')'"); an include of
// a pipe said "No such file or directory".
TEST(JobfileErrors, MessagesSayTheRealProblem) {
  ASSERT_EQ(setenv("IOB_NL_TEST", "8k\nbs=1k", 1), 0);
  const std::string nl = ParseErr("[a]\nsize=${IOB_NL_TEST}\n");
  unsetenv("IOB_NL_TEST");
  // Refused as the variable's control character, before the value is read.
  EXPECT_NE(nl.find("environment variable 'IOB_NL_TEST' holds a control character (newline)"),
            std::string::npos)
      << nl;
  EXPECT_EQ(std::count(nl.begin(), nl.end(), '\n'), 2) << nl;  // message, line, caret
  EXPECT_EQ(ParseErr("[a]\nstartdelay=(1-2)-(3)\n"),
            "t.fio:2:12: option 'startdelay': a start delay must not be negative: "
            "'(1-2)-(3)'\nstartdelay=(1-2)-(3)\n           ^");
  auto j = ParseOk("[a]\nstartdelay=(1+1)-(2*2)\n").jobs.at(0);
  EXPECT_EQ(j.startdelay_ns, 2000000000u);
  EXPECT_EQ(j.startdelay_max_ns, 4000000000u);
  // A reversed range is refused, not swapped (it always waited 3 s; fio 3.33
  // never starts the job), in either separator and with expressions.
  EXPECT_EQ(ParseErr("[a]\nstartdelay=3-1\n"),
            "t.fio:2:12: option 'startdelay': start delay range '3-1' runs from high to low: "
            "give 1-3 for a random delay between them (fio 3.33 never starts the job)"
            "\nstartdelay=3-1\n           ^");
  EXPECT_NE(ParseErr("[a]\nstartdelay=2s:500ms\n").find("give 500ms:2s for a random delay"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nstartdelay=(2*2)-(1+1)\n").find("give (1+1)-(2*2) for"),
            std::string::npos);
  j = ParseOk("[a]\nstartdelay=2-2\n").jobs.at(0);
  EXPECT_EQ(j.startdelay_ns, 2000000000u);
  EXPECT_EQ(j.startdelay_max_ns, 0u);
  // filesize= too: fio 3.33 made 8.3 GB files of filesize=8k-4k; it was
  // swapped here, silently.
  EXPECT_EQ(ParseErr("[a]\nfilesize=8k-4k\n"),
            "t.fio:2:10: option 'filesize': file size range '8k-4k' runs from high to low: "
            "give 4k-8k for a random size between them (fio 3.33 lays out files of gigabytes "
            "for it)\nfilesize=8k-4k\n         ^");
  EXPECT_NE(ParseErr("[a]\nfilesize=1m:64k\n").find("give 64k:1m for"), std::string::npos);
  j = ParseOk("[a]\nfilesize=4k-8k\n").jobs.at(0);
  EXPECT_EQ(j.filesize_min, 4096u);
  EXPECT_EQ(j.filesize_max, 8192u);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string fd = "/dev/fd/" + std::to_string(fds[0]);
  const std::string inc = ParseErr("[a]\ninclude " + fd + "\n");
  close(fds[0]);
  close(fds[1]);
  EXPECT_NE(inc.find("cannot include '" + fd + "': not a regular file"), std::string::npos) << inc;
}

TEST(JobfileValues, ListsRangesAndMisc) {
  auto j =
      ParseOk(
          "[a]\npercentile_list=99:99.9:99.99\ncpus_allowed=0,2-5\nfilename=/tmp/a\\:b:/dev/x\n"
          "size=50%\nstartdelay=1-3\nthinktime=10\nramp_time=2m\nrate=1m,2m\n"
          "ignore_error=EAGAIN,ENOSPC:122\nbuffer_pattern=0xdeadbeef\nsync=dsync\n"
          "random_distribution=zoned:60/10:30/20:10/70\nverify=crc32c\nwrite_bw_log\n")
          .jobs.at(0);
  EXPECT_EQ(j.percentile_list, (std::vector<double>{99, 99.9, 99.99}));
  EXPECT_EQ(j.cpus_allowed, (std::vector<int>{0, 2, 3, 4, 5}));
  EXPECT_EQ(j.filenames, (std::vector<std::string>{"/tmp/a:b", "/dev/x"}));
  EXPECT_EQ(j.size_percent, 50u);
  EXPECT_EQ(j.size, 0u);
  EXPECT_EQ(j.startdelay_ns, 1000000000u);
  EXPECT_EQ(j.startdelay_max_ns, 3000000000u);
  EXPECT_EQ(j.thinktime_ns, 10000u);
  EXPECT_EQ(j.ramp_time_ns, 120000000000u);
  EXPECT_EQ(j.rate[0], 1048576u);
  EXPECT_EQ(j.rate[1], 2097152u);
  EXPECT_EQ(j.ignore_error[0], (std::vector<int>{EAGAIN}));
  EXPECT_EQ(j.ignore_error[1], (std::vector<int>{ENOSPC, 122}));
  EXPECT_EQ(j.buffer_pattern, (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef}));
  EXPECT_TRUE(j.dsync);
  EXPECT_EQ(j.random_distribution.type, DistType::kZoned);
  EXPECT_EQ(j.random_distribution.zones[0].size(), 3u);
  EXPECT_EQ(j.verify.type, VerifyType::kCrc32c);
  EXPECT_TRUE(j.bw_log_set);
  EXPECT_TRUE(j.unimplemented.empty());  // verify and write_bw_log both run now
}

// sync= takes fio 3.33's five words (none, 0, sync, 1, dsync) and the bare
// flag; fio refuses sync=true/yes/on ("failed parsing sync=true"), which
// iobench took as O_SYNC.
TEST(JobfileOptions, SyncTakesFiosWordsOnly) {
  for (const char* w : {"true", "yes", "on", "false", "off", "2"})
    EXPECT_NE(ParseErr(std::string("[a]\nsync=") + w + "\n").find("bad sync mode"),
              std::string::npos)
        << w;
  const std::pair<const char*, std::pair<bool, bool>> ok[] = {{"sync", {true, false}},
                                                              {"1", {true, false}},
                                                              {"dsync", {false, true}},
                                                              {"none", {false, false}},
                                                              {"0", {false, false}}};
  for (const auto& [w, want] : ok) {
    const JobSpec j = ParseOk(std::string("[a]\nsync=") + w + "\n").jobs.at(0);
    EXPECT_EQ(std::make_pair(j.sync, j.dsync), want) << w;
  }
}

TEST(JobfileValues, FioOnlyOptionsAreAccepted) {
  const JobSpec j = ParseOk("[a]\ngtod_cpu=1\nunique_filename=0\nlog_entries=65536\n").jobs.at(0);
  EXPECT_EQ(j.gtod_cpu, 1);
  EXPECT_FALSE(j.unique_filename);
  EXPECT_EQ(j.log_entries, 65536u);
  EXPECT_TRUE(j.unimplemented.empty());
  EXPECT_NE(ParseErr("[a]\nlog_entries=0\n").find("t.fio:2:"), std::string::npos);
  // fio 3.33: "log_entries: min value out of range: 10 (1024 min)".
  EXPECT_NE(ParseErr("[a]\nlog_entries=1023\n").find("t.fio:2:"), std::string::npos);
  EXPECT_EQ(ParseOk("[a]\nlog_entries=1024\n").jobs.at(0).log_entries, 1024u);
  EXPECT_NE(ParseErr("[a]\ngtod_cpu=-1\n").find("t.fio:2:"), std::string::npos);
}

// cpumask: fio's bit-mask form of cpus_allowed; the later of the two wins.
TEST(JobfileValues, CpumaskIsABitMaskOfCpus) {
  EXPECT_EQ(ParseOk("[a]\ncpumask=34\n").jobs.at(0).cpus_allowed, (std::vector<int>{1, 5}));
  EXPECT_EQ(ParseOk("[a]\ncpumask=0x3\n").jobs.at(0).cpus_allowed, (std::vector<int>{0, 1}));
  EXPECT_EQ(ParseOk("[a]\ncpus_allowed=4\ncpumask=1\n").jobs.at(0).cpus_allowed,
            (std::vector<int>{0}));
  EXPECT_EQ(ParseOk("[a]\ncpumask=1\ncpus_allowed=4\n").jobs.at(0).cpus_allowed,
            (std::vector<int>{4}));
  EXPECT_EQ(ParseOk("[a]\ncpumask=0x8000000000000000\n").jobs.at(0).cpus_allowed,
            (std::vector<int>{63}));
  EXPECT_EQ(ParseErr("[a]\ncpumask=0\n"),
            "t.fio:2:9: option 'cpumask': cpumask=0 allows no CPU\ncpumask=0\n        ^");
  for (const char* bad :
       {"cpumask=abc", "cpumask=-1", "cpumask=0x10000000000000000", "cpumask=3k", "cpumask="})
    EXPECT_NE(ParseErr(std::string("[a]\n") + bad + "\n").find("t.fio:2:"), std::string::npos)
        << bad;
}

// An empty entry in a CPU list: fio 3.33 ends the list there (0,,1 pins to
// CPU 0, 1,,0 to CPU 1, ,1 pins nothing); iobench skipped it and pinned to
// 0-1. Refused, naming the option and its line; one ',' at the end reads the
// same in both tools.
TEST(JobfileValues, CpuListRefusesAnEmptyEntry) {
  for (const char* bad : {"cpus_allowed=0,,1", "cpus_allowed=1,,0", "cpus_allowed=,1",
                          "cpus_allowed=0, ,1", "verify_async_cpus=0,,1", "cpus_allowed=,"}) {
    const std::string err = ParseErr(std::string("[a]\n") + bad + "\n");
    EXPECT_NE(err.find("t.fio:2:"), std::string::npos) << bad << ": " << err;
    EXPECT_NE(err.find("empty entry in cpu list"), std::string::npos) << bad << ": " << err;
  }
  EXPECT_EQ(ParseErr("[a]\ncpus_allowed=0,,1\n"),
            "t.fio:2:14: option 'cpus_allowed': empty entry in cpu list '0,,1' (fio would end "
            "the list there); separate the CPUs with a single ','\ncpus_allowed=0,,1\n"
            "             ^");
  EXPECT_EQ(ParseOk("[a]\ncpus_allowed=0,1,\n").jobs.at(0).cpus_allowed, (std::vector<int>{0, 1}));
}

// A CPU is a plain decimal number: 0x1 was CPU 1 and 1k CPU 1024 (the
// general number parser), where fio reads 0 and 1 (atoi). Refused, naming
// the option and its line; a hex mask goes in cpumask.
TEST(JobfileValues, CpuListTakesDecimalCpusOnly) {
  for (const char* bad : {"cpus_allowed=0x1", "cpus_allowed=1k", "cpus_allowed=0-0x3",
                          "cpus_allowed=1m-2", "cpus_allowed=+1", "cpus_allowed=1.0",
                          "verify_async_cpus=0x1", "cpus_allowed=-1", "cpus_allowed=1-"}) {
    const std::string err = ParseErr(std::string("[a]\n") + bad + "\n");
    EXPECT_NE(err.find("t.fio:2:"), std::string::npos) << bad << ": " << err;
    EXPECT_NE(err.find("option '"), std::string::npos) << bad << ": " << err;
  }
  EXPECT_EQ(ParseErr("[a]\ncpus_allowed=0x1\n"),
            "t.fio:2:14: option 'cpus_allowed': CPU '0x1' in cpu list '0x1' is not a decimal CPU "
            "number (fio reads it as 0); write CPUs and ranges in decimal, e.g. 0,2-5, or a hex "
            "mask in cpumask=\ncpus_allowed=0x1\n             ^");
  EXPECT_EQ(ParseOk("[a]\ncpus_allowed= 1 - 3 ,07\n").jobs.at(0).cpus_allowed,
            (std::vector<int>{1, 2, 3, 7}));
}

// buffer_pattern="abc" (fio's text form) failed: the lexer removed the
// quotes, leaving 'abc', which is no pattern. In a pattern they are syntax.
TEST(JobfileValues, QuotedPatternKeepsItsQuotes) {
  auto out = ParseOk("[a]\nbuffer_pattern=\"abc\"\nverify_pattern=\"xy\"\n");
  const auto& j = out.jobs.at(0);
  EXPECT_EQ(j.buffer_pattern, (std::vector<uint8_t>{'a', 'b', 'c'}));
  EXPECT_EQ(j.verify.pattern, (std::vector<uint8_t>{'x', 'y'}));
  EXPECT_TRUE(out.warnings.empty()) << out.warnings.at(0);
  // 'abc' keeps its quotes too: fio's file form, the file abc (not here).
  EXPECT_NE(ParseErr("[a]\nbuffer_pattern='abc'\n")
                .find("t.fio:2:16: option 'buffer_pattern': "
                      "pattern file 'abc': No such file or directory"),
            std::string::npos);
}

TEST(JobfileValues, SideEffectsFioHasToo) {
  auto j = ParseOk(
               "[a]\ngtod_reduce=1\nfilename=/a:/b\nignore_error=,ENOSPC\n"
               "buffer_pattern=0x00\nverify_pattern=0xff\n")
               .jobs.at(0);
  EXPECT_TRUE(j.disable_lat && j.disable_clat && j.disable_slat && j.disable_bw);
  EXPECT_FALSE(j.clat_percentiles);
  EXPECT_EQ(j.nrfiles, 2u);
  EXPECT_EQ(j.continue_on_error, kCoeWrite);
  EXPECT_FALSE(j.scramble_buffers);
  EXPECT_EQ(j.verify.type, VerifyType::kPattern);
}

// fio's fixup_options: a latency that is not measured has no percentiles,
// whichever option comes first; gtod_reduce only sets the disable_* options,
// so one written after it wins.
TEST(JobfileValues, PercentilesOfAnUnmeasuredLatencyAreOff) {
  auto j = ParseOk("[a]\nlat_percentiles=1\ndisable_lat=1\nslat_percentiles=1\n").jobs.at(0);
  EXPECT_FALSE(j.lat_percentiles);
  EXPECT_TRUE(j.slat_percentiles);
  EXPECT_TRUE(j.clat_percentiles);
  j = ParseOk("[a]\ndisable_clat=1\ndisable_slat=1\nslat_percentiles=1\n").jobs.at(0);
  EXPECT_FALSE(j.clat_percentiles);
  EXPECT_FALSE(j.slat_percentiles);
  j = ParseOk("[a]\ngtod_reduce=1\nclat_percentiles=1\n").jobs.at(0);
  EXPECT_FALSE(j.clat_percentiles);
  j = ParseOk("[a]\ngtod_reduce=1\ndisable_clat=0\n").jobs.at(0);
  EXPECT_FALSE(j.disable_clat);
  EXPECT_TRUE(j.disable_lat && j.disable_slat && j.disable_bw);
}

// man fio: pre_read clears the invalidate flag, written before or after it.
TEST(JobfileValues, PreReadClearsInvalidate) {
  EXPECT_FALSE(ParseOk("[a]\npre_read=1\n").jobs.at(0).invalidate);
  EXPECT_FALSE(ParseOk("[a]\npre_read=1\ninvalidate=1\n").jobs.at(0).invalidate);
  EXPECT_TRUE(ParseOk("[a]\npre_read=0\n").jobs.at(0).invalidate);
}

TEST(JobfileValues, KbBaseAppliesToTheWholeJob) {
  // kb_base is applied first, wherever it appears in the section.
  auto j = ParseOk("[a]\nsize=4k\nkb_base=1000\nbs=4KiB\n").jobs.at(0);
  EXPECT_EQ(j.size, 4000u);
  EXPECT_EQ(j.bs[0].min, 4096u);
  j = ParseOk("[a]\nsize=4k\nbs=4KiB\n").jobs.at(0);
  EXPECT_EQ(j.size, 4096u);
  EXPECT_EQ(j.bs[0].min, 4000u);
}

// fio refuses kb_base=1k and kb_base=0x400 ("failed parsing"); iobench
// read them as 1024.
TEST(JobfileValues, KbBaseIsWrittenOut) {
  EXPECT_EQ(ParseErr("[a]\nsize=1m\nkb_base=1k\n"),
            "t.fio:3:9: option 'kb_base': must be written as 1000 or 1024, not '1k' (fio refuses "
            "it)\nkb_base=1k\n        ^");
  EXPECT_NE(ParseErr("[a]\nkb_base=0x400\n")
                .find("t.fio:2:9: option 'kb_base': must be written as 1000 or 1024, not '0x400'"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nkb_base=1024.0\n").find("not '1024.0'"), std::string::npos);
  EXPECT_EQ(ParseOk("[a]\nkb_base=1000 \n").jobs.at(0).kb_base, 1000u);
}

// A value is read with the kb_base of the section it is written in, as fio
// does: a job's kb_base=1000 changed the 4k its [global] gave to 4000 (fio:
// 4096). The numbers are fio 3.33's io_bytes for the same files.
TEST(JobfileValues, KbBaseIsThatOfTheSectionAValueIsWrittenIn) {
  auto size_of = [](const std::string& text) { return ParseOk(text).jobs.at(0).size; };
  EXPECT_EQ(size_of("[global]\nsize=4k\n[a]\nkb_base=1000\n"), 4096u);
  EXPECT_EQ(ParseOk("[global]\nsize=4k\n[a]\nkb_base=1000\n").jobs.at(0).kb_base, 1000u);
  EXPECT_EQ(size_of("[global]\nkb_base=1000\n[a]\nsize=4k\n"), 4000u);
  EXPECT_EQ(size_of("[global]\nkb_base=1000\nsize=4k\n[a]\nkb_base=1024\n"), 4000u);
  EXPECT_EQ(size_of("[global]\nsize=4k\nkb_base=1000\n[a]\n"), 4000u);
  // Command-line options come first in fio: their kb_base is in force for
  // the job files, and theirs is their own.
  ParseInput in;
  TempDir d;
  const std::string f = d.path() + "/k.fio";
  std::ofstream(f) << "[global]\nsize=4k\n[a]\n";
  in.job_files = {f};
  in.cli_job_args = {"--kb_base=1000"};
  auto out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).size, 4000u);
  std::ofstream(f) << "[a]\nkb_base=1000\n";
  in.cli_job_args = {"--size=4k"};
  out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).size, 4096u);
  EXPECT_EQ(out->jobs.at(0).kb_base, 1000u);
}

// A blank at the edge of a command-line value was trimmed without a word:
// fio keeps it, reads `--bs=' 4k'` as 4 bytes and refuses `--rw=' write'`.
// As blanks around '=' in a job file, it is read as meant, with a warning
// (which --warnings-fatal turns into an error).
// A blank after a comma in a per-direction list: fio 3.33 keeps it and
// reads the number after it without its unit (bs=4k, 8k wrote 8-byte
// blocks there); iobench reads 8k, and warns, with the portable spelling.
TEST(JobfileValues, BlankAfterACommaInAPerDirectionListIsWarned) {
  auto out = ParseJobText(
      "[a]\nrw=randrw\nbs=4k, 8k\n[b]\nbssplit=4k/50:8k/50,\t16k/100\nrate_iops=10, 20\n"
      "blockalign=4k,  0x1000\nbsrange=4k-8k ,16k-32k\n",
      "b.fio", ".");
  ASSERT_TRUE(out.ok()) << out.status().message();
  const JobSpec& j = out->jobs.at(0);
  EXPECT_EQ(j.bs[1].min, 8192u);
  ASSERT_EQ(out->warnings.size(), 2u) << out->warnings.at(0);
  EXPECT_EQ(out->warnings[0],
            "b.fio:3: warning: option 'bs': in '4k, 8k' iobench reads each part as written, but "
            "fio keeps the blank after a comma and then reads the number without its unit (' 8k' "
            "after the comma as 8); write 'bs=4k,8k' to mean the same to both");
  EXPECT_NE(out->warnings[1].find("b.fio:5: warning: option 'bssplit'"), std::string::npos)
      << out->warnings[1];
  EXPECT_NE(out->warnings[1].find("write 'bssplit=4k/50:8k/50,16k/100'"), std::string::npos)
      << out->warnings[1];
  // Plain numbers, hex and a blank before the comma read the same in both.
  ParseInput in;
  in.cli_job_args = {"--name=a", "--bs=4k,  8k", "--rate=1m, 2m", "--ba= 4k, 8k"};
  auto cli = ParseJobs(in);
  ASSERT_TRUE(cli.ok()) << cli.status().message();
  ASSERT_EQ(cli->warnings.size(), 3u);
  EXPECT_NE(cli->warnings[0].find("('  8k' after the comma as 8); write --bs=4k,8k to"),
            std::string::npos)
      << cli->warnings[0];
  EXPECT_NE(cli->warnings[1].find("write --rate=1m,2m to"), std::string::npos) << cli->warnings[1];
  // One warning for a value with both kinds of blank, suggesting both fixes.
  EXPECT_NE(cli->warnings[2].find("starts with a blank"), std::string::npos) << cli->warnings[2];
  EXPECT_NE(cli->warnings[2].find("write --ba=4k,8k to"), std::string::npos) << cli->warnings[2];
}

// A time unit fio 3.33 does not know (`sec`, `min`, `ns`, `nsec`): iobench
// reads it as written, fio as microseconds (runtime=2sec ran 0 I/Os there,
// max_latency=1sec failed the first I/O): a warning with both readings.
TEST(JobfileValues, TimeUnitsFioReadsAsMicrosecondsAreWarned) {
  auto out = ParseJobText(
      "[a]\nioengine=null\nsize=1m\nruntime=2sec\nthinktime=10000NS\n"
      "startdelay=1min-2min\nramp_time=1s\nmax_latency=5ms\nss_dur=0sec\n"
      "[b]\nioengine=null\nsize=1m\nruntime=1.5min\nthinktime=500ns\n",
      "t.fio", ".");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).runtime_ns, 2000000000ull);  // read as before
  EXPECT_EQ(out->jobs.at(0).thinktime_ns, 10000ull);
  // s and ms are both tools' units; 0 is 0 in both.
  ASSERT_EQ(out->warnings.size(), 5u);
  EXPECT_EQ(out->warnings[0],
            "t.fio:4: warning: option 'runtime': '2sec' is 2 sec to iobench but 2 us to fio "
            "3.33, which knows d, h, m, s, ms and us and reads any other unit as us; write "
            "'runtime=2s' to mean the same to both");
  EXPECT_NE(out->warnings[1].find("'10000NS' is 10000 ns to iobench but 10000 us to fio 3.33"),
            std::string::npos)
      << out->warnings[1];
  EXPECT_NE(out->warnings[1].find("write 'thinktime=10us' to mean the same to both"),
            std::string::npos)
      << out->warnings[1];
  EXPECT_NE(out->warnings[2].find("'1min' in '1min-2min' is 1 min to iobench but 1 us to fio "
                                  "3.33"),
            std::string::npos)
      << out->warnings[2];
  EXPECT_NE(out->warnings[2].find("write 'startdelay=1m-2m' to mean the same to both"),
            std::string::npos)
      << out->warnings[2];
  // A fraction: fio reads the whole part in the option's default unit (1 s
  // for runtime=1.5min); the same time in whole units of both: 90s.
  EXPECT_EQ(out->warnings[3],
            "t.fio:13: warning: option 'runtime': '1.5min' is 1.5 min to iobench but 1, in the "
            "option's default unit, to fio 3.33 (which reads a time up to its '.' and then "
            "takes the default unit); write 'runtime=90s' to mean the same to both");
  EXPECT_NE(out->warnings[4].find("fio has no unit below us"), std::string::npos)
      << out->warnings[4];
}

// An IEC prefix without the 'b' (`bs=4ki`): iobench reads it as man fio
// documents (kb_base=1024: 4000 bytes), fio 3.33 as 4k (4096), since it
// swaps units only for a suffix holding "ib"; with kb_base=1000 the two
// readings swap. It ran 4000-byte blocks silently (O_DIRECT refuses them).
TEST(JobfileValues, IecPrefixWithoutBIsWarned) {
  auto out = ParseJobText(
      "[global]\nsize=1mi\n[a]\nbs=4ki\n[b]\nkb_base=1000\nbsrange=4KiB-8kib\n"
      "bssplit=8ki/50:16Ki/50\nrate=1.5mi\nblockalign=4k\n",
      "k.fio", ".");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).bs[0].min, 4000u);  // read as before
  EXPECT_EQ(out->jobs.at(1).bs[0].split.at(0).bs, 8192u);
  ASSERT_EQ(out->warnings.size(), 4u);  // [global]'s once, not per job
  EXPECT_EQ(out->warnings[0],
            "k.fio:2: warning: option 'size': '1mi' is 1000000 bytes to iobench (as man fio "
            "documents for kb_base=1024) but 1048576 to fio 3.33 (which switches units only for "
            "a suffix with 'ib'); write 'size=1MiB' for iobench's reading or 'size=1m' for "
            "fio's to mean the same to both");
  EXPECT_EQ(out->warnings[1].substr(0, 79),
            "k.fio:4: warning: option 'bs': '4ki' is 4000 bytes to iobench (as man fio docum");
  EXPECT_EQ(out->warnings[2],
            "k.fio:8: warning: option 'bssplit': '8ki' in '8ki/50:16Ki/50' is 8192 bytes to "
            "iobench (as man fio documents for kb_base=1000) but 8000 to fio 3.33 (which "
            "switches units only for a suffix with 'ib'); write 'bssplit=8KiB/50:16KiB/50' for "
            "iobench's reading or 'bssplit=8k/50:16K/50' for fio's to mean the same to both");
  // A fraction: the prefixes' factors (fio drops the fraction besides).
  EXPECT_NE(out->warnings[3].find("'rate': the 'mi' of '1.5mi' is 1048576 to iobench (as man "
                                  "fio documents for kb_base=1000) but 1000000 to fio 3.33"),
            std::string::npos)
      << out->warnings[3];
  // On the command line: the suggestions are arguments.
  ParseInput in;
  in.cli_job_args = {"--name=a", "-bs=4ki", "--size=4k", "--rw=read:8kib", "--bs=0x1000"};
  auto cli = ParseJobs(in);
  ASSERT_TRUE(cli.ok()) << cli.status().message();
  ASSERT_EQ(cli->warnings.size(), 1u);
  EXPECT_NE(cli->warnings[0].find("command line: warning: option 'bs': '4ki' is 4000 bytes"),
            std::string::npos)
      << cli->warnings[0];
  EXPECT_NE(cli->warnings[0].find("write -bs=4KiB for iobench's reading or -bs=4k for fio's"),
            std::string::npos)
      << cli->warnings[0];
}

TEST(JobfileValues, BlanksAtTheEdgeOfACommandLineValueAreWarned) {
  ParseInput in;
  in.cli_job_args = {"--bs= 4k", "--name=a",     "--size= 1m",    "-rw",
                     "write ",   "--iodepth= 4", "--filename= x", "--runtime=2s "};
  auto out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  const JobSpec& j = out->jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.size, 1u << 20);
  ASSERT_EQ(out->warnings.size(), 3u);
  EXPECT_EQ(out->warnings[0],
            "command line: warning: option 'bs': the value ' 4k' starts with a blank: iobench "
            "reads it as '4k', but fio keeps the blank and then reads the number without its "
            "unit, as 4; write --bs=4k to mean the same to both");
  EXPECT_EQ(out->warnings[1].substr(0, 70),
            "command line: warning: option 'size': the value ' 1m' starts with a bl");
  EXPECT_EQ(out->warnings[2],
            "command line: warning: option 'rw': the value 'write ' ends with a blank: iobench "
            "reads it as 'write', but fio keeps the blank and refuses the value; write -rw=write "
            "to mean the same to both");
  // A plain number and a number's trailing blank read the same in both
  // tools; free text keeps its blank in both. fio 3.33 trims the ends of a
  // filename= value too (it made the file x, not " x"): no warning.
  EXPECT_EQ(j.filenames.at(0), "x");
  // The suggested argument is quoted for a shell when it needs it (it
  // suggested --buffer_pattern="a b", which a shell splits in two).
  in.cli_job_args = {"--name=a", "--buffer_pattern= \"a b\""};
  out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->warnings.size(), 1u);
  EXPECT_NE(out->warnings[0].find("; write '--buffer_pattern=\"a b\"' to mean the same to both"),
            std::string::npos)
      << out->warnings[0];
  in.cli_job_args = {"--name= b", "--description=d "};
  out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).name, " b");
  EXPECT_TRUE(out->warnings.empty());
}

TEST(JobfileValues, BlanksAroundEqualsReadAsMeantWithOneWarning) {
  auto out = ParseOk("[a]\nsize = 4k\nbs = 8k\n");
  EXPECT_EQ(out.jobs.at(0).size, 4096u);
  EXPECT_EQ(out.jobs.at(0).bs[0].min, 8192u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("t.fio:2: warning: blank after '='"), std::string::npos);
}

// fio drops a blank before '=' (`bs =8k` and `bs<TAB>=8k` run 8k there) and
// keeps one after it (`bs= 8k` is 8 bytes): only the latter is warned. The
// warning fired for both, so --warnings-fatal refused files fio reads alike.
TEST(JobfileValues, BlankOnlyBeforeEqualsNotWarned) {
  auto out = ParseOk("[a]\nioengine =null\nsize =64k\nbs\t=8k\n");
  EXPECT_EQ(out.jobs.at(0).size, 65536u);
  EXPECT_EQ(out.jobs.at(0).bs[0].min, 8192u);
  EXPECT_TRUE(out.warnings.empty()) << out.warnings.at(0);
  out = ParseOk("[a]\nsize=64k\nbs= 8k\n");
  EXPECT_EQ(out.jobs.at(0).bs[0].min, 8192u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("t.fio:3: warning: blank after '=' in 'bs= 8k'"),
            std::string::npos)
      << out.warnings[0];
}

// A blank a variable brings at the edge of a value is read as meant, like
// one around '=', but warned about: fio keeps it (size=${S}, S=' 1m', is
// 1 byte there). It went by without a word.
TEST(JobfileValues, BlankFromVariableWarned) {
  setenv("IOB_TEST_BLANK", " ", 1);
  auto out = ParseOk("[a]\nsize=${IOB_TEST_BLANK}1m\n");
  EXPECT_EQ(out.jobs.at(0).size, 1u << 20);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("t.fio:2: warning: 'size=${IOB_TEST_BLANK}1m': a variable "
                                 "brings a blank at the edge of the value"),
            std::string::npos)
      << out.warnings[0];
  setenv("IOB_TEST_BLANK", "1m", 1);
  EXPECT_TRUE(ParseOk("[a]\nsize=${IOB_TEST_BLANK}\n").warnings.empty());
  unsetenv("IOB_TEST_BLANK");
}

// A control character is refused in a job file; one a variable brings (a
// newline in a file name) is refused too, naming the variable.
TEST(JobfileValues, ControlCharacterFromVariableRefused) {
  setenv("IOB_TEST_NL", "1m\nbs=8k", 1);
  const std::string err = ParseErr("[a]\nfilename=f${IOB_TEST_NL}\n");
  EXPECT_NE(err.find("environment variable 'IOB_TEST_NL' holds a control character (newline)"),
            std::string::npos)
      << err;
  unsetenv("IOB_TEST_NL");
}

TEST(JobfileValues, BsSplitUnder100AndZeroShares) {
  // fio accepts shares under 100%; the rest goes to the largest share
  // (fio sorts by share; a draw past the last takes the last), with a
  // warning. It went to the last size written: 16k/50:4k/30 issued 50% 4k,
  // where fio issues 70% 16k. A blank's truncated remainder goes there too.
  auto out = ParseOk("[a]\nbssplit=4k/30:8k/60\n");
  EXPECT_EQ(out.jobs.at(0).bs[0].split[1].perc, 70u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "t.fio:2: warning: bssplit shares for reads add up to 90%; the remaining 10% go to "
            "the size with the largest share (8192 bytes), as in fio");
  auto first = ParseOk("[a]\nbssplit=16k/50:4k/30\n").jobs.at(0);
  EXPECT_EQ(first.bs[0].split[0].perc, 70u);
  EXPECT_EQ(first.bs[0].split[1].perc, 30u);
  auto blanks = ParseOk("[a]\nbssplit=4k:8k:16k\n").jobs.at(0);
  EXPECT_EQ(blanks.bs[0].split[0].perc, 33u);
  EXPECT_EQ(blanks.bs[0].split[2].perc, 34u);
  // "64k/0" is a blank share in fio.
  auto j = ParseOk("[a]\nbssplit=4k/50:64k/0\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].split[1].perc, 50u);
  // Shares that add up to 0% warn as 90% does (they ran silently with a
  // mix of sizes); a 0% with nothing left to take stays silent.
  auto zero = ParseOk("[a]\nbssplit=4k/0:8k/0\n");
  EXPECT_EQ(zero.jobs.at(0).bs[0].split[0].perc, 50u);
  EXPECT_EQ(zero.jobs.at(0).bs[0].split[1].perc, 50u);
  ASSERT_EQ(zero.warnings.size(), 1u);
  EXPECT_EQ(zero.warnings[0],
            "t.fio:2: warning: bssplit shares for reads add up to 0%; the remaining 100% are "
            "split evenly between the sizes without a share, those given 0% included (fio "
            "reads 0% as no share)");
  EXPECT_TRUE(ParseOk("[a]\nbssplit=4k/0:16k/100\n").warnings.empty());
  EXPECT_TRUE(ParseOk("[a]\nbssplit=4k:8k\n").warnings.empty());
}

// fio stops reading a bssplit at an empty entry: "4k/50::8k/50" issued 4k
// only there, and a mix here, silently. Refused; a trailing ':' is harmless.
TEST(JobfileValues, BsSplitEmptyEntryIsRefused) {
  const std::string bad = ParseErr("[a]\nbssplit=4k/50::8k/50\n");
  EXPECT_NE(bad.find("bssplit for reads has an empty entry (entry 2 of '4k/50::8k/50'): fio "
                     "ignores it and every entry after it"),
            std::string::npos)
      << bad;
  EXPECT_NE(bad.find("t.fio:2"), std::string::npos) << bad;
  const std::string writes = ParseErr("[a]\nbssplit=4k/100,:8k/100\n");
  EXPECT_NE(writes.find("bssplit for writes has an empty entry (entry 1"), std::string::npos)
      << writes;
  auto trailing = ParseOk("[a]\nbssplit=4k/50:8k/50:\n").jobs.at(0);
  ASSERT_EQ(trailing.bs[0].split.size(), 2u);
  EXPECT_EQ(trailing.bs[0].split[1].bs, 8192u);
}

// A quoted value holding ';' or '#': fio cuts the line there (a comment),
// iobench keeps the value whole; the warning says what fio sees.
TEST(JobfileValues, QuotedCommentCharacterWarnsWhatFioSees) {
  auto out = ParseOk("[a]\nfilename=\"/x;y\"  # c\n");
  EXPECT_EQ(out.jobs.at(0).filenames, std::vector<std::string>{"/x;y"});
  ASSERT_GE(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "t.fio:2: warning: 'filename=\"/x;y\"': fio reads the ';' inside the quotes as the "
            "start of a comment and sees 'filename=\"/x'; iobench keeps the quoted value whole. "
            "Avoid ';' and '#' in values to keep the file portable");
  auto pattern = ParseOk("[a]\nbuffer_pattern=\"ab#cd\"\n");
  ASSERT_EQ(pattern.warnings.size(), 1u);
  EXPECT_NE(pattern.warnings[0].find("sees 'buffer_pattern=\"ab'"), std::string::npos)
      << pattern.warnings[0];
  EXPECT_TRUE(ParseOk("[a]\nfilename=\"/x\" ; c\n").warnings.size() == 1u);  // the quotes only
}

// fio substitutes ${VAR} and then cuts the value at a ';' or '#' the
// variable brought; iobench keeps it whole and said nothing.
TEST(JobfileValues, VariableCommentCharacterWarnsWhatFioSees) {
  setenv("IOB_TEST_HASH", "x#y", 1);
  setenv("IOB_TEST_OPT", "filename=p;q", 1);
  auto out = ParseOk("[a]\nfilename=${IOB_TEST_HASH}\n");
  EXPECT_EQ(out.jobs.at(0).filenames, std::vector<std::string>{"x#y"});
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "t.fio:2: warning: 'filename=${IOB_TEST_HASH}': ${IOB_TEST_HASH} brings a '#', which "
            "fio reads as the start of a comment: fio sees 'filename=x'; iobench keeps the value "
            "whole ('x#y'). Avoid ';' and '#' in values to keep the file portable");
  // A whole option from a variable in the name.
  out = ParseOk("[a]\n${IOB_TEST_OPT}\n");
  EXPECT_EQ(out.jobs.at(0).filenames, std::vector<std::string>{"p;q"});
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("${IOB_TEST_OPT} brings a ';'"), std::string::npos)
      << out.warnings[0];
  EXPECT_NE(out.warnings[0].find("fio sees 'filename=p'"), std::string::npos) << out.warnings[0];
  // A value that then does not parse: the error says what the variable
  // brought and what fio reads (it said only "bad size unit 'm ; x'").
  setenv("IOB_TEST_HASH", "1m ; x", 1);
  const std::string err = ParseErr("[a]\nsize=${IOB_TEST_HASH}\n");
  EXPECT_NE(err.find("t.fio:2:6: option 'size': bad size unit"), std::string::npos) << err;
  EXPECT_NE(err.find("(a variable brought ';' into the value; fio cuts it there and reads "
                     "'size=1m')"),
            std::string::npos)
      << err;
  // The same when the variable brings the whole option (`${X}` with
  // X='size=2m ; c'), which had no hint and a caret at column 2, in the
  // middle of the variable's name: it points at the variable.
  setenv("IOB_TEST_HASH", "size=2m ; c", 1);
  const std::string whole = ParseErr("[a]\n  ${IOB_TEST_HASH}\n");
  EXPECT_NE(whole.find("t.fio:2:3: option 'size': bad size unit"), std::string::npos) << whole;
  EXPECT_NE(whole.find("(a variable brought ';' into the value; fio cuts it there and reads "
                       "'size=2m')\n  ${IOB_TEST_HASH}\n  ^"),
            std::string::npos)
      << whole;
  // A variable without them, and a bare flag: nothing to say.
  setenv("IOB_TEST_HASH", "xy", 1);
  EXPECT_TRUE(ParseOk("[a]\nfilename=${IOB_TEST_HASH}\n").warnings.empty());
  unsetenv("IOB_TEST_HASH");
  unsetenv("IOB_TEST_OPT");
}

// fio's waitfor.fio and steadystate.fio write `threads=1`: fio accepts it
// as an option of its tiobench profile and ignores it, silently; iobench
// refused the files with "unknown option", then warned on stderr, which
// fails scripts that check it. Now the same acceptance, with a note in the
// job's report.
TEST(JobfileValues, FioProfileOptionsAreIgnoredWithAReportNote) {
  auto out = ParseOk("[global]\nthreads=1\n[a]\nsize=1m\ndir=/x\n[b]\n");
  ASSERT_EQ(out.jobs.size(), 2u);
  EXPECT_FALSE(out.jobs[0].thread);
  EXPECT_TRUE(out.warnings.empty());
  const std::string threads =
      "t.fio:2: option 'threads' belongs to fio's tiobench profile, which iobench does not have; "
      "fio ignores it in a job and so does iobench (iobench always runs threads)";
  ASSERT_EQ(out.jobs[0].parse_notes.size(), 2u);
  EXPECT_EQ(out.jobs[0].parse_notes[0], threads);
  EXPECT_EQ(out.jobs[0].parse_notes[1].rfind("t.fio:5: option 'dir' belongs to fio's tiobench", 0),
            0u);
  ASSERT_EQ(out.jobs[1].parse_notes.size(), 1u);  // the global one only
  EXPECT_EQ(out.jobs[1].parse_notes[0], threads);
  ParseInput in;
  in.cli_job_args = {"--load=1", "--name=a", "--size=1m"};
  auto cli = ParseJobs(in);
  ASSERT_TRUE(cli.ok()) << cli.status().message();
  EXPECT_TRUE(cli->warnings.empty());
  ASSERT_EQ(cli->jobs.at(0).parse_notes.size(), 1u);
  EXPECT_EQ(
      cli->jobs[0].parse_notes[0].rfind("command line: option 'load' belongs to fio's act", 0), 0u);
}

TEST(JobfileValues, DeprecatedFioOptions) {
  auto out = ParseOk("[global]\nverifysort=1\n[a]\n[b]\n");
  ASSERT_EQ(out.warnings.size(), 1u);  // once, though two jobs inherit it
  EXPECT_EQ(
      out.warnings[0],
      "t.fio:2: warning: option 'verifysort' is deprecated in fio and has no effect; ignored");
  EXPECT_EQ(ParseErr("[a]\nrwmixcycle=40\n"),
            "t.fio:2:1: option 'rwmixcycle' is deprecated and no longer supported (fio refuses it "
            "too)\nrwmixcycle=40\n^");
  EXPECT_EQ(
      ParseErr("[a]\nsprandom=1\n")
          .rfind("t.fio:2:1: option 'sprandom' is a fio option that iobench does not support yet",
                 0),
      0u);
}

// fio takes any zipf theta but 1.0; iobench passed zipf:0 at --parse-only,
// then refused it when the run started (after laying out the file).
TEST(JobfileValues, ZipfThetaRangeAsFio) {
  for (const char* t : {"0", "-1", "0.5", "100", "-10"}) {
    auto out = ParseOk(std::string("[a]\nrandom_distribution=zipf:") + t + "\n");
    EXPECT_EQ(out.jobs.at(0).random_distribution.param, std::stod(t)) << t;
  }
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zipf:1\n").find("zipf theta must not be 1.0"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zipf:100.5\n")
                .find("t.fio:2:21: option 'random_distribution': zipf theta '100.5' must be "
                      "between -10 and 100"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zipf:inf\n").find("bad zipf parameter 'inf'"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=normal:5:nan\n").find("bad center 'nan'"),
            std::string::npos);
}

// A bare zipf or pareto is fio's default parameter (1.1, 0.2); a bare normal
// is fio's deviation 0, which iobench refuses with that reason.
TEST(JobfileValues, BareDistributionsTakeFioDefaults) {
  auto zipf = ParseOk("[a]\nrandom_distribution=zipf\n");
  EXPECT_EQ(zipf.jobs.at(0).random_distribution.type, DistType::kZipf);
  EXPECT_EQ(zipf.jobs.at(0).random_distribution.param, 1.1);
  auto pareto = ParseOk("[a]\nrandom_distribution=pareto\n");
  EXPECT_EQ(pareto.jobs.at(0).random_distribution.type, DistType::kPareto);
  EXPECT_EQ(pareto.jobs.at(0).random_distribution.param, 0.2);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=normal\n")
                .find("t.fio:2:21: option 'random_distribution': random_distribution=normal "
                      "needs a deviation, e.g. normal:10 (fio's bare normal is a deviation of 0"),
            std::string::npos);
}

// An empty field after a distribution's colon: fio 3.33 refuses it ("random
// postfix parsing failed"); iobench ran zipf: as the bare zipf (theta 1.1)
// and zipf:1.2: with a center of 0.
TEST(JobfileValues, EmptyDistributionFieldIsRefused) {
  EXPECT_EQ(ParseErr("[a]\nrandom_distribution=zipf:\n"),
            "t.fio:2:21: option 'random_distribution': 'zipf:': the theta after ':' is empty "
            "(fio refuses it: \"random postfix parsing failed\"); write zipf for the default, or "
            "zipf:THETA[:CENTER]\nrandom_distribution=zipf:\n                    ^");
  for (const char* v : {"pareto:", "zipf:1.2:", "normal:10:", "normal:", "zipf::0.5",
                        "zipf:1.2::", "pareto:0.3: "}) {
    const std::string e = ParseErr(std::string("[a]\nrandom_distribution=") + v + "\n");
    EXPECT_NE(e.find("t.fio:2:21: option 'random_distribution': '"), std::string::npos) << v;
    EXPECT_NE(e.find(" after ':' is empty"), std::string::npos) << v;
  }
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zipf:1.2:\n").find("write zipf:1.2 for no center"),
            std::string::npos);
  // fio reads the center with strtod, which stops at the third field.
  EXPECT_EQ(ParseOk("[a]\nrandom_distribution=zipf:1.2:0.5:\n")
                .jobs.at(0)
                .random_distribution.center_frac,
            0.5);
  EXPECT_EQ(ParseOk("[a]\nrandom_distribution=random:\n").jobs.at(0).random_distribution.type,
            DistType::kRandom);
}

// rw_sequencer is a word, as fio 3.33 reads it: what follows a ':' or ','
// is dropped, and the count comes from rw= only (`identical:4` set the
// count here, so rw=randwrite wrote each offset 4 times, fio once).
TEST(JobfileValues, RwSequencerCountIsIgnoredAsInFio) {
  auto out = ParseOk("[a]\nrw=randwrite\nrw_sequencer=identical:4\n");
  EXPECT_EQ(out.jobs.at(0).rw_sequencer, RwSequencer::kIdentical);
  EXPECT_EQ(out.jobs.at(0).rw_nr, 1u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "t.fio:3: warning: option 'rw_sequencer': ':4' in 'identical:4' is ignored, as in "
            "fio, which reads only the word; the count of I/Os per random offset belongs in rw= "
            "(rw=randwrite:4)");
  // Nor does it override rw='s count, in either order.
  out = ParseOk("[a]\nrw_sequencer=sequential:4\nrw=randwrite:2\n");
  EXPECT_EQ(out.jobs.at(0).rw_nr, 2u);
  out = ParseOk("[a]\nrw=randread:2\nrw_sequencer=identical,x\n");
  EXPECT_EQ(out.jobs.at(0).rw_nr, 2u);
  EXPECT_EQ(out.jobs.at(0).rw_sequencer, RwSequencer::kIdentical);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0],
            "t.fio:3: warning: option 'rw_sequencer': ',x' in 'identical,x' is ignored, as in "
            "fio, which reads only the word");
  EXPECT_TRUE(ParseOk("[a]\nrw_sequencer=identical\n").warnings.empty());
}

// Counts inside rw= and zoneskip= were rounded (randwrite:1.5 ran as 2)
// where every other count refuses a fraction.
TEST(JobfileErrors, FractionalCountsInsideValues) {
  EXPECT_NE(ParseErr("[a]\nrw=randwrite:1.5\n")
                .find("t.fio:2:4: option 'rw': rw=randwrite:N count '1.5' must be a whole number"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nzonemode=strided\nzonesize=64k\nzonerange=128k\nzoneskip=1.5z\n")
                .find("t.fio:5:10: option 'zoneskip': zoneskip zone count '1.5' must be a whole "
                      "number (fio refuses it too)"),
            std::string::npos);
  auto out = ParseOk("[a]\nrw=randwrite:3\nzoneskip=2z\n");
  EXPECT_EQ(out.jobs.at(0).rw_nr, 3u);
  EXPECT_EQ(out.jobs.at(0).zone_skip, 2u);
}

// Zero where fio takes zero as one: loops=0 runs the job once and
// thinktime_blocks=0 pauses after every I/O (iobench refused both).
TEST(JobfileTest, ZeroLoopsAndThinktimeBlocksAreOne) {
  auto out = ParseOk("[a]\nloops=0\nthinktime_blocks=0\n");
  EXPECT_EQ(out.jobs.at(0).loops, 1u);
  EXPECT_EQ(out.jobs.at(0).thinktime_blocks, 1u);
  EXPECT_NE(ParseErr("[a]\nloops=-1\n").find("option 'loops'"), std::string::npos);
}

TEST(JobfileErrors, FioValuesIobenchLacks) {
  // io_size=N% is taken (fio: a share of size); above 100% fio refuses it.
  EXPECT_EQ(ParseOk("[a]\nio_size=50%\n").jobs.at(0).io_size_percent, 50u);
  EXPECT_EQ(ParseOk("[a]\nio_size=100%\n").jobs.at(0).HasIoSize(), false);
  EXPECT_EQ(ParseErr("[a]\nio_size=150%\n"),
            "t.fio:2:9: option 'io_size': io_size percentage must be 0..100\n"
            "io_size=150%\n        ^");
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=sequence:2,0,1\n")
                .find("random_distribution=sequence is a fio distribution that iobench does not "
                      "support yet"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrw=r\n").find("did you mean 'read'?"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nioengine=rbd\n")
                .find("ioengine 'rbd' is a fio engine that iobench does not support yet"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nioengine=windowsaio\n")
                .find("ioengine 'windowsaio' is a fio engine of another operating system (fio "
                      "on Linux cannot load it either)"),
            std::string::npos);
  // Engines fio 3.33 no longer has are not "not supported yet".
  for (const char* gone : {"syslet-rw", "guasi", "binject", "fusion-aw-sync"})
    EXPECT_NE(ParseErr(std::string("[a]\nioengine=") + gone + "\n")
                  .find(std::string("ioengine '") + gone +
                        "' is an engine fio removed before 3.33 (fio 3.33 cannot load it either)"),
              std::string::npos)
        << gone;
}

// fio's add_job: with write_bw_log (write_iops_log) and no bwavgtime
// (iopsavgtime), log_avg_msec is the window of the report's bw (iops)
// samples too, so the report agrees with the log (bw_samples was 4 for a 2 s
// job with log_avg_msec=250; fio 8, as the log's lines).
TEST(JobfileValues, LogAvgMsecIsTheSampleWindowOfALoggedJob) {
  auto j = ParseOk("[a]\nwrite_bw_log=x\nlog_avg_msec=250\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 250u);
  EXPECT_EQ(j.iops_avg_ms, 500u) << "no iops log";
  j = ParseOk("[a]\nwrite_iops_log\nlog_avg_msec=1000\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 500u);
  EXPECT_EQ(j.iops_avg_ms, 1000u);
  // An explicit bwavgtime wins, before or after; log_avg_msec=0 (per-I/O
  // lines) leaves the 500 ms default.
  j = ParseOk("[a]\nbwavgtime=100\nwrite_bw_log=x\nlog_avg_msec=250\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 100u);
  j = ParseOk("[a]\nwrite_bw_log=x\nlog_avg_msec=250\nbwavgtime=2000\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 2000u);
  j = ParseOk("[a]\nwrite_bw_log=x\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 500u);
  j = ParseOk("[a]\nlog_avg_msec=250\n").jobs.at(0);
  EXPECT_EQ(j.bw_avg_ms, 500u) << "no log";
}

TEST(JobfileValues, FioExampleQuirks) {
  // examples/rand-zones.fio: a blank zone size takes the rest of the region.
  auto j = ParseOk("[zones]\nrandom_distribution=zoned:50/5:30/15:20/\n").jobs.at(0);
  ASSERT_EQ(j.random_distribution.zones[0].size(), 3u);
  EXPECT_EQ(j.random_distribution.zones[0][2].size_perc, 80u);
  // examples/fio-rand-RW.fio: name= in [global] does not rename the jobs.
  j = ParseOk("[global]\nname=fio-rand-RW\n[file1]\n").jobs.at(0);
  EXPECT_EQ(j.name, "file1");
  // ... but fio lists it under the JSON "global options": the setting stays,
  // as a global one, and --parse-only still names the job after its section.
  ASSERT_NE(j.FindSetting("name"), nullptr);
  EXPECT_EQ(j.FindSetting("name")->value, "fio-rand-RW");
  EXPECT_EQ(j.FindSetting("name")->source, OptionSource::kGlobal);
  EXPECT_NE(ParseOnlyJson({j}).find("\"name\": {\n          \"value\": \"file1\","),
            std::string::npos);
  EXPECT_EQ(ShowCmd({j}), "iobench --name=file1\n");
  j = ParseOk("[file1]\nname=renamed\n").jobs.at(0);
  EXPECT_EQ(j.name, "renamed");
  // examples/tiobench-example.fio: a comment after a tab.
  j = ParseOk("[f]\nnumjobs=4\t; 4 threads\ntimeout=60\n").jobs.at(0);
  EXPECT_EQ(j.numjobs, 4u);
  EXPECT_EQ(j.runtime_ns, 60000000000ull);
}

// ---------------------------------------------------------------- errors

TEST(JobfileErrors, UnknownOptionSuggests) {
  EXPECT_EQ(ParseErr("[a]\nbs=4k\niodpeth=32\n"),
            "t.fio:3:1: unknown option 'iodpeth'; did you mean 'iodepth'?\niodpeth=32\n^");
  EXPECT_EQ(ParseErr("[a]\n  frobnicate=1\n"),
            "t.fio:2:3: unknown option 'frobnicate'\n  frobnicate=1\n  ^");
  // Too far by edit distance, but the start of an option name.
  EXPECT_EQ(ParseErr("[a]\nrwmix=70\n"),
            "t.fio:2:1: unknown option 'rwmix'; did you mean 'rwmixread'?\nrwmix=70\n^");
  // Upper case is refused (as fio does), but the hint ignores case: BS was
  // nearer to 'rw' than to 'bs' letter by letter.
  EXPECT_EQ(ParseErr("[a]\nBS=8k\n"),
            "t.fio:2:1: unknown option 'BS'; did you mean 'bs'?\nBS=8k\n^");
  EXPECT_EQ(ParseErr("[a]\nIODEPTH=8\n"),
            "t.fio:2:1: unknown option 'IODEPTH'; did you mean 'iodepth'?\nIODEPTH=8\n^");
  EXPECT_EQ(ParseErr("[a]\nRWMIX=70\n"),
            "t.fio:2:1: unknown option 'RWMIX'; did you mean 'rwmixread'?\nRWMIX=70\n^");
  // One or two letters are near every short option: no guess unless it is
  // one edit away.
  EXPECT_EQ(ParseErr("[a]\nx=1\n"), "t.fio:2:1: unknown option 'x'\nx=1\n^");
  EXPECT_EQ(ParseErr("[a]\nzz=1\n"), "t.fio:2:1: unknown option 'zz'\nzz=1\n^");
  EXPECT_EQ(ParseErr("[a]\nbz=1\n"), "t.fio:2:1: unknown option 'bz'; did you mean 'bs'?\nbz=1\n^");
  EXPECT_EQ(SuggestOption("NAME"), "name");
  EXPECT_EQ(SuggestOption("x"), "");
}

TEST(JobfileErrors, FioOnlyOptionIsRefusedByName) {
  EXPECT_EQ(ParseErr("[a]\ncgroup=x\n"),
            "t.fio:2:1: option 'cgroup' is a fio option that iobench does not support "
            "yet\ncgroup=x\n^");
}

TEST(JobfileErrors, ThinktimeBlocksTypeIsCompleteOrIssue) {
  EXPECT_EQ(ParseErr("[a]\nthinktime_blocks_type=bogus\n").substr(0, 101),
            "t.fio:2:23: option 'thinktime_blocks_type': thinktime_blocks_type 'bogus': expected "
            "complete or issue");
  EXPECT_FALSE(ParseOk("[a]\nthinktime_blocks_type=issue\n").jobs.at(0).thinktime_blocks_complete);
  EXPECT_TRUE(ParseOk("[a]\nthinktime=1\n").jobs.at(0).thinktime_blocks_complete);  // fio's default
  EXPECT_EQ(ParseOk("[a]\nthinktime_iotime=9\n").jobs.at(0).thinktime_iotime_ns,
            9000000000u);  // seconds
}

TEST(JobfileErrors, OutOfRange) {
  EXPECT_EQ(ParseErr("[a]\nrwmixread=101\n"),
            "t.fio:2:11: value 101 of option 'rwmixread' is out of range (0..100)\nrwmixread=101\n "
            "         ^");
  EXPECT_EQ(
      ParseErr("[a]\nnumjobs=0\n"),
      "t.fio:2:9: value 0 of option 'numjobs' is out of range (1..65536)\nnumjobs=0\n        ^");
  // A time is held in ns: the message says so, beside the value as written
  // (a bare number here is in us).
  EXPECT_EQ(ParseErr("[a]\nlatency_window=-5\n").substr(0, 91),
            "t.fio:2:16: value '-5' (-5000 ns) of option 'latency_window' is out of range (>= 0 "
            "ns)\nlate");
}

// normal:-1 passed --parse-only and failed only when the run started, with no
// file or line; fio refuses a deviation outside [0, 100) while parsing.
TEST(JobfileErrors, NormalDeviationRange) {
  EXPECT_EQ(ParseErr("[a]\nrandom_distribution=normal:-1\n"),
            "t.fio:2:21: option 'random_distribution': normal deviation '-1' must be above 0 and "
            "below 100\nrandom_distribution=normal:-1\n                    ^");
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=normal:100\n").find("deviation '100' must be"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=normal:0:0.5\n").find("deviation '0' must be"),
            std::string::npos);
  auto j = ParseOk("[a]\nrandom_distribution=normal:99.9:0.25\n").jobs.at(0);
  EXPECT_EQ(j.random_distribution.param, 99.9);
  EXPECT_EQ(j.random_distribution.center_frac, 0.25);
}
// zoned, zoned: and zoned_abs: (no zone) passed --parse-only; a random job
// then failed at its start without a file or line, and rw=read ran without a
// word. fio refuses "zoned" ("mismatch in zoned input").
TEST(JobfileErrors, ZonedWithoutZones) {
  EXPECT_EQ(ParseErr("[a]\nrandom_distribution=zoned\n"),
            "t.fio:2:21: option 'random_distribution': random_distribution=zoned needs at least "
            "one zone: access%/size%, e.g. zoned:60/10:40/90\nrandom_distribution=zoned\n"
            "                    ^");
  for (const char* v : {"zoned:", "zoned: ", "zoned:,,", "zoned_abs:", "zoned_abs"})
    EXPECT_NE(ParseErr(std::string("[a]\nrw=read\nrandom_distribution=") + v + "\n")
                  .find("t.fio:3:21: option 'random_distribution': random_distribution=zoned"),
              std::string::npos)
        << v;
  // One direction's zones serve the others.
  auto j = ParseOk("[a]\nrandom_distribution=zoned:,50/50:50/50\n").jobs.at(0);
  EXPECT_TRUE(j.random_distribution.zones[0].empty());
  EXPECT_EQ(j.random_distribution.zones[1].size(), 2u);
}
// A 0-byte zoned_abs zone is one block, as a 0% zoned one (fio takes both);
// iobench refused it as not positive.
TEST(JobfileValues, ZonedAbsZeroSizeZone) {
  auto j = ParseOk("[a]\nrandom_distribution=zoned_abs:50/0:50/64k\n").jobs.at(0);
  ASSERT_EQ(j.random_distribution.zones[0].size(), 2u);
  EXPECT_EQ(j.random_distribution.zones[0][0].size_abs, 0u);
  EXPECT_NE(
      ParseErr("[a]\nrandom_distribution=zoned_abs:50/-4k:50/64k\n").find("must not be negative"),
      std::string::npos);
}
// random_distribution=gauss:N ran as normal:N; fio 3.33 refuses it (gauss is
// an alias only for file_service_type, which still takes it).
TEST(JobfileErrors, GaussIsNotARandomDistribution) {
  EXPECT_EQ(ParseErr("[a]\nrandom_distribution=gauss:5\n"),
            "t.fio:2:21: option 'random_distribution': random_distribution=gauss is not a fio "
            "distribution: the Gaussian is normal:5 (normal:DEV[:CENTER])\n"
            "random_distribution=gauss:5\n                    ^");
  EXPECT_NE(ParseErr("[a]\nfile_service_type=gauss\n").find("fio mode that iobench does not"),
            std::string::npos);
}

// Zone size shares below 100% were refused; fio 3.33 takes them (the zones
// cover the start of the region) and refuses only a sum above 100, as the
// access shares must add up to 100 exactly.
TEST(JobfileValues, ZonedSizeSharesBelowHundred) {
  auto j = ParseOk("[a]\nrandom_distribution=zoned:50/30:50/30\n").jobs.at(0);
  ASSERT_EQ(j.random_distribution.zones[0].size(), 2u);
  EXPECT_EQ(j.random_distribution.zones[0][1].size_perc, 30u);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zoned:50/60:50/60\n")
                .find("zone size shares for reads add up to 120%, above 100%"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrandom_distribution=zoned:30/50:30/50\n")
                .find("zone access shares for reads add up to 60%, not 100%"),
            std::string::npos);
}

// numjobs=1.5 ran 2 clones where fio runs 1 (fio drops the fraction).
TEST(JobfileErrors, CountsTakeWholeNumbers) {
  EXPECT_EQ(ParseErr("[a]\nnumjobs=1.5\n"),
            "t.fio:2:9: option 'numjobs' takes a whole number, got '1.5' (fio drops the "
            "fraction)\nnumjobs=1.5\n        ^");
  EXPECT_NE(
      ParseErr("[a]\nrate_iops=10,2.5\n").find("t.fio:2:14: option 'rate_iops' takes a whole"),
      std::string::npos);
  // Sizes and times keep their documented fractions; expressions compute.
  auto j = ParseOk("[a]\nbs=1.5k\nruntime=1.5\nnumjobs=(3/2*2)\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 1536u);
  EXPECT_EQ(j.numjobs, 3u);
  // A zero fraction without a unit is the whole number, as in fio (a job
  // file in fio's issue tracker writes rwmixread=0.0; it was refused).
  j = ParseOk("[a]\nrwmixread=0.0\nnumjobs=2.00\niodepth=8.\n").jobs.at(0);
  EXPECT_EQ(j.rwmixread, 0u);
  EXPECT_EQ(j.numjobs, 2u);
  EXPECT_EQ(j.iodepth, 8u);
  EXPECT_NE(ParseErr("[a]\nnumjobs=2.0k\n").find("takes a whole number, got '2.0k'"),
            std::string::npos);
}

// bs=4k-16k said "bad size unit 'k-16k'"; fio silently runs 4k blocks.
TEST(JobfileErrors, BsRangeOrSplitPointsAtTheRightOption) {
  // fio splits a bs= value at ':' or '-' when it has no ',': bs=4k-16k
  // reads 4k and writes 16k (the message said "fio would run 4k").
  EXPECT_EQ(ParseErr("[a]\nbs=4k-16k\n"),
            "t.fio:2:6: option 'bs' takes one size per direction; for a range write "
            "bsrange=4k-16k (fio would run reads 4k, writes 16k, trims 16k)\nbs=4k-16k\n     ^");
  EXPECT_NE(ParseErr("[a]\nbs=8k,4k/8k\n")
                .find("for a mix of sizes write bssplit=4k/8k (fio would run reads 8k, writes 4k, "
                      "trims 4k)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbs=4k/8k\n").find("(fio would run 4k)"), std::string::npos);
  EXPECT_NE(ParseErr("[a]\nbs=4k-8k-16k\n").find("(fio would run reads 4k, writes 8k, trims 16k)"),
            std::string::npos);
  EXPECT_NE(
      ParseErr("[a]\nbs=,4k-8k\n").find("(fio would run reads unchanged, writes 4k, trims 8k)"),
      std::string::npos);
  EXPECT_EQ(ParseOk("[a]\nbs=(16k-4k)\n").jobs.at(0).bs[0].min, 12288u);
}

// rate=1m-2m said "bad size unit 'm-2m'", rate_iops=100:50 "bad number
// '100:50'": fio 3.33 reads both as read,write values (rate=1m-2m on randrw:
// 256 reads and 512 writes in 1 s). Refused as bs=4k-16k is, saying so.
TEST(JobfileErrors, PerDirectionColonOrDashSaysWhatFioReads) {
  EXPECT_EQ(ParseErr("[a]\nrate=1m-2m\n"),
            "t.fio:2:8: option 'rate' separates its read, write and trim values with ',', not '-' "
            "(fio would run reads 1m, writes 2m, trims 2m)\nrate=1m-2m\n       ^");
  EXPECT_NE(ParseErr("[a]\nrate_iops=100:50\n")
                .find("with ',', not ':' (fio would run reads 100, writes 50, trims 50)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nrate_min=1k:2k\n").find("(fio would run reads 1k, writes 2k, trims 2k)"),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nmax_latency=1s:2s\n").find("option 'max_latency' separates"),
            std::string::npos);
  // After a ',' fio splits no more there: the read value ends at its '-'.
  EXPECT_NE(ParseErr("[a]\nrate_iops=100-50,20\n").find("(fio would run reads 100, writes 20, "),
            std::string::npos);
  // The ',' form runs, as before.
  const JobSpec j = ParseOk("[a]\nrate=1m,2m\nrate_iops_min=1,2\n").jobs.at(0);
  EXPECT_EQ(j.rate[0], 1u << 20);
  EXPECT_EQ(j.rate[1], 2u << 20);
  EXPECT_EQ(j.rate_iops_min[1], 2u);
}

// rwmixread=70% said "bad number '70%'" (fio silently runs 100% reads).
TEST(JobfileErrors, PercentSignOnAPlainNumber) {
  EXPECT_EQ(ParseErr("[a]\nrwmixread=70%\n"),
            "t.fio:2:11: option 'rwmixread' takes a plain number, without '%': write "
            "rwmixread=70\nrwmixread=70%\n          ^");
}

// offset_increment=12.5% was rounded to 13% without a word; JobSpec holds
// whole percentages, so a fraction is refused (fio reads it as 12 bytes).
TEST(JobfileErrors, PercentagesAreWhole) {
  EXPECT_EQ(ParseErr("[a]\noffset_increment=12.5%\n"),
            "t.fio:2:18: option 'offset_increment' takes a whole percentage, got '12.5%' (fio "
            "reads it as 12 bytes)\noffset_increment=12.5%\n                 ^");
  EXPECT_NE(ParseErr("[a]\nsize=50.5%\n").find("t.fio:2:6: option 'size' takes a whole"),
            std::string::npos);
  auto j = ParseOk("[a]\nsize=50%\noffset=(100/4)%\n").jobs.at(0);
  EXPECT_EQ(j.size_percent, 50u);
  EXPECT_EQ(j.offset_percent, 25u);
}

// bssplit=4k/10.5:8k/89.5 was refused as "add up to 101%" (each share was
// rounded), and cpus_allowed=0.6 pinned to CPU 1: a fraction inside a list is
// refused by name (fio drops it).
TEST(JobfileErrors, SharesInListsAreWhole) {
  EXPECT_EQ(ParseErr("[a]\nbssplit=4k/10.5:8k/89.5\n"),
            "t.fio:2:9: option 'bssplit': bssplit share '10.5' must be a whole number (fio drops "
            "the fraction)\nbssplit=4k/10.5:8k/89.5\n        ^");
  EXPECT_NE(ParseErr("[a]\nrw=randread\nrandom_distribution=zoned:50.5/10:49.5/90\n")
                .find("zone access share '50.5' must be a whole number"),
            std::string::npos);
  EXPECT_NE(
      ParseErr("[a]\ncpus_allowed=0.6\n")
          .find("CPU '0.6' in cpu list '0.6' is not a decimal CPU number (fio reads it as 0)"),
      std::string::npos);
  EXPECT_NE(ParseErr("[a]\nioengine=io_uring\ncmdprio_bssplit=4k/2.5\n")
                .find("cmdprio_bssplit share '2.5' must be a whole number"),
            std::string::npos);
  auto j = ParseOk("[a]\nbssplit=4k/(100/4):8k/\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].split.at(0).perc, 25u);
  EXPECT_EQ(j.bs[0].split.at(1).perc, 75u);
}

// bs=4k,8k,16k,32k: fio and iobench silently dropped the fourth value.
TEST(JobfileErrors, AtMostThreeDirections) {
  EXPECT_EQ(ParseErr("[a]\nbs=4k,8k,16k,32k\n"),
            "t.fio:2:4: option 'bs' takes at most 3 comma-separated values (reads,writes,trims), "
            "got '4k,8k,16k,32k'\nbs=4k,8k,16k,32k\n   ^");
  // Named once: it read "option 'bssplit': option 'bssplit' takes at most 3".
  EXPECT_EQ(ParseErr("[a]\nbssplit=4k/50:8k/50,8k,16k,4k\n"),
            "t.fio:2:9: option 'bssplit' takes at most 3 comma-separated values "
            "(reads,writes,trims), got '4k/50:8k/50,8k,16k,4k'\nbssplit=4k/50:8k/50,8k,16k,4k\n"
            "        ^");
  EXPECT_EQ(ParseErr("[a]\nbsrange=1k-4k,1k-4k,1k-4k,1k-4k\n")
                .find("t.fio:2:9: option 'bsrange' takes at most 3"),
            0u);
  EXPECT_EQ(ParseOk("[a]\nbs=4k,8k,16k\nrate=1m,,\n").jobs.at(0).bs[2].min, 16384u);
  // Empty fields after the third drop nothing: fio reads bs=4k,8k,, as
  // bs=4k,8k, (trims keep the default), and so does iobench now.
  auto j = ParseOk("[a]\nbs=4k,8k,,\nbsrange=1k-2k,2k-4k,,\nblockalign=512,1k,, \nrate=1m,2m,,\n")
               .jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 1024u);
  EXPECT_EQ(j.bs[1].max, 4096u);
  EXPECT_EQ(j.bs[2].min, 4096u);
  EXPECT_EQ(ParseOk("[a]\nbs=4k,8k,,\n").jobs.at(0).bs[1].min, 8192u);
  EXPECT_EQ(ParseOk("[a]\nbs=4k,8k,,\n").jobs.at(0).bs[2].min, 4096u);
  EXPECT_EQ(ParseOk("[a]\nbs=4k,8k,16k, ,\n").jobs.at(0).bs[2].min, 16384u);
  EXPECT_NE(ParseErr("[a]\nbs=4k,,,8k\n").find("'bs' takes at most 3"), std::string::npos);
  // fio refuses bssplit=...,,, ("split conversion failed"): so does iobench.
  EXPECT_NE(ParseErr("[a]\nbssplit=4k/50:8k/50,8k,,\n").find("'bssplit' takes at most 3"),
            std::string::npos);
}

// fio joins directory=/mnt/t and filename=/dev/sdb into the file
// /mnt/t/dev/sdb; iobench used the device /dev/sdb itself. Now refused.
TEST(JobfileErrors, AbsoluteFilenameWithDirectory) {
  EXPECT_EQ(ParseErr("[global]\ndirectory=/mnt/t/\n[a]\nfilename=/dev/sdb\n"),
            "t.fio:4:1: filename=/dev/sdb is an absolute path but directory=/mnt/t/ is set: fio "
            "would use /mnt/t/dev/sdb; remove one of the two options\nfilename=/dev/sdb\n^");
  auto j = ParseOk("[a]\ndirectory=/mnt/t\nfilename=rel:sub/x\n").jobs.at(0);
  EXPECT_EQ(j.filenames, (std::vector<std::string>{"rel", "sub/x"}));
  EXPECT_EQ(ParseOk("[a]\nfilename=/dev/shm/x\n").jobs.at(0).filenames.at(0), "/dev/shm/x");
}

// The same for filename_format: iobench wrote filename_format=/dev/loop0
// with directory=d to the device (fio: the regular file d/dev/loop0), and
// with unlink=1 deleted an absolute filename_format's file.
TEST(JobfileErrors, AbsoluteFilenameFormatWithDirectory) {
  EXPECT_EQ(ParseErr("[global]\ndirectory=d/\n[a]\nfilename_format=/dev/loop0\n"),
            "t.fio:4:1: filename_format=/dev/loop0 is an absolute path but directory=d/ is set: "
            "fio would use d/dev/loop0; remove one of the two options\n"
            "filename_format=/dev/loop0\n^");
  EXPECT_EQ(ParseOk("[a]\ndirectory=d\nfilename_format=$jobnum/f\n").jobs.at(0).filename_format,
            "$jobnum/f");
  EXPECT_EQ(ParseOk("[a]\nfilename_format=/dev/shm/x\n").jobs.at(0).filename_format, "/dev/shm/x");
}

// fio keeps a bssplit over a later bs=/bsrange= (fio's t0002 job writes
// [global] bssplit and bsrange in a job): iobench ran the later bs instead,
// then refused the order; it now ignores them as fio does, and says so in a
// note of the job's report (not on stderr).
TEST(JobfileParse, BsAfterBsSplitIsIgnoredAsFio) {
  auto j = ParseOk("[global]\nbssplit=4k/50:64k/50\n[a]\nbs=8k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].split.size(), 2u);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[0].max, 65536u);
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_EQ(j.parse_notes[0],
            "bs=8k (t.fio:4) is ignored: bssplit (t.fio:2) sets the block sizes, as in fio");
  // A later bsrange that holds the split's sizes leaves it running (fio's
  // t0002); one that would change them (fio rounds and cuts each size) is
  // refused.
  j = ParseOk("[a]\nbssplit=4k/50:64k/50\nblocksize_range=4k-64k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].split.size(), 2u);
  EXPECT_TRUE(j.parse_notes.empty());
  EXPECT_NE(
      ParseErr("[a]\nbssplit=4k/50:64k/50\nblocksize_range=1k-4k\n")
          .find("job 'a': bsrange=1k-4k (t.fio:3) overrides the sizes of bssplit=4k/50:64k/50 "
                "(t.fio:2)"),
      std::string::npos);
  // A later bsrange of one size wins over the split, as in fio.
  j = ParseOk("[a]\nbssplit=4k/50:64k/50\nbsrange=16k-16k\n").jobs.at(0);
  EXPECT_TRUE(j.bs[0].split.empty());
  EXPECT_EQ(j.bs[0].min, 16384u);
  EXPECT_EQ(j.bs[0].max, 16384u);
  // bs before bssplit: the split wins in both tools, nothing to say; a
  // command-line --bs overrides the job file (iobench's precedence).
  j = ParseOk("[a]\nbs=8k\nbssplit=4k/50:64k/50\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].split.size(), 2u);
  EXPECT_TRUE(j.parse_notes.empty());
  TempDir d;
  ParseInput in;
  in.job_files = {d.Write("j.fio", "[a]\nbssplit=4k/50:64k/50\n")};
  in.cli_job_args = {"--bs=8k"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 8192u);
  // On the command line, within one job, the same rule as in a file.
  in.job_files.clear();
  in.cli_job_args = {"--name=a", "--bssplit=4k/50:64k/50", "--bs=8k"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].split.size(), 2u);
  EXPECT_EQ(r->jobs.at(0).parse_notes.size(), 1u);
}

// A bssplit that sets only some directions overrides a later bs=/bsrange=
// only in those (fio: bssplit=,16k/100 then bs=8k reads 8k, writes 16k);
// iobench dropped the whole bs and read 4k, with a note saying "ignored".
TEST(JobfileParse, BsAfterAPartialBsSplitKeepsTheOtherDirections) {
  auto j = ParseOk("[a]\nbssplit=,16k/100\nbs=8k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 8192u);
  EXPECT_TRUE(j.bs[0].split.empty());
  // A split of one size is that size (fio: min_bs == max_bs).
  EXPECT_EQ(j.bs[1].min, 16384u);
  EXPECT_EQ(j.bs[1].max, 16384u);
  EXPECT_EQ(j.bs[2].max, 16384u);
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_EQ(j.parse_notes[0],
            "bs=8k (t.fio:3) is ignored for writes and trims: bssplit (t.fio:2) sets their block "
            "sizes, as in fio");
  // bsrange, from [global]: reads 4k-16k.
  j = ParseOk("[global]\nbssplit=,8k/100\n[a]\nbsrange=4k-16k,4k-16k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[0].max, 16384u);
  EXPECT_EQ(j.bs[1].max, 8192u);
  // A split for reads only: writes and trims take the bs.
  j = ParseOk("[a]\nbssplit=16k/100,\nbs=8k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].max, 16384u);
  EXPECT_EQ(j.bs[1].min, 8192u);
  EXPECT_EQ(j.bs[2].min, 8192u);
  EXPECT_EQ(j.parse_notes.at(0),
            "bs=8k (t.fio:3) is ignored for reads: bssplit (t.fio:2) sets their block sizes, as "
            "in fio");
  // Trims only.
  j = ParseOk("[a]\nbssplit=,,16k/100\nbs=8k\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 8192u);
  EXPECT_EQ(j.bs[1].min, 8192u);
  EXPECT_EQ(j.bs[2].max, 16384u);
  // A bs for the directions the split leaves alone needs no note; the
  // option is still listed as the job's (fio's JSON lists it too).
  j = ParseOk("[a]\nbssplit=,16k/100\nbs=8k,\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].min, 8192u);
  EXPECT_EQ(j.bs[1].max, 16384u);
  EXPECT_TRUE(j.parse_notes.empty());
  ASSERT_NE(j.FindSetting("bs"), nullptr);
  // Two splits: the directions of either one win over the bs between.
  j = ParseOk("[a]\nbssplit=,16k/100\nbs=8k\nbssplit=32k/100,\n").jobs.at(0);
  EXPECT_EQ(j.bs[0].max, 32768u);
  EXPECT_EQ(j.bs[1].max, 16384u);
  EXPECT_EQ(j.parse_notes.at(0),
            "bs=8k (t.fio:3) is ignored: bssplit (t.fio:2, t.fio:4) sets the block sizes, as in "
            "fio");
}

TEST(JobfileErrors, BadSize) {
  EXPECT_EQ(ParseErr("[a]\nsize=4q\n"),
            "t.fio:2:7: option 'size': bad size unit 'q' in '4q' (use k, m, g, t, p, optionally "
            "with i and/or b)\nsize=4q\n      ^");
  EXPECT_EQ(ParseErr("[a]\nbs=4k,xx\n"),
            "t.fio:2:7: option 'bs': bad size 'xx'\nbs=4k,xx\n      ^");
}

TEST(JobfileErrors, BsSplitOver100) {
  std::string m = ParseErr("[a]\nbssplit=4k/60:8k/50\n");
  EXPECT_EQ(m,
            "t.fio:2:9: option 'bssplit': bssplit shares for reads add up to 110%, more than "
            "100%\nbssplit=4k/60:8k/50\n        ^");
}

TEST(JobfileErrors, EngineOptionNeedsItsEngine) {
  EXPECT_EQ(ParseErr("[a]\nioengine=psync\nforce_async=1\n"),
            "t.fio:3:1: option 'force_async' needs ioengine=io_uring; job 'a' uses "
            "psync\nforce_async=1\n^");
  EXPECT_EQ(ParseErr("[a]\nuserspace_reap\n"),
            "t.fio:2:1: option 'userspace_reap' needs ioengine=libaio; job 'a' uses "
            "psync\nuserspace_reap\n^");
  // A [global] option is checked against [global]'s engine, as fio parses
  // it: refused under psync whatever the jobs use ("Bad option <hipri>",
  // fio drops the section), and taken for a job that switches to an engine
  // without it (fio's common "compare engines" file), which ignores it.
  EXPECT_NE(ParseErr("[global]\nhipri\n[a]\nioengine=io_uring\n[b]\nioengine=psync\n")
                .find("t.fio:2:1: option 'hipri' needs ioengine=io_uring or pvsync2; its "
                      "[global] section uses psync"),
            std::string::npos);
  EXPECT_NE(ParseErr("[global]\nioengine=psync\nfixedbufs=1\n[a]\nioengine=io_uring\n")
                .find("t.fio:3:1: option 'fixedbufs' needs ioengine=io_uring; its [global] "
                      "section uses psync"),
            std::string::npos);
  auto two = ParseOk("[global]\nioengine=io_uring\nfixedbufs=1\n[a]\n[b]\nioengine=psync\n");
  ASSERT_EQ(two.jobs.size(), 2u);
  EXPECT_EQ(two.jobs[1].ioengine, "psync");
  // A later [global] that switches engine keeps what the first one set.
  EXPECT_EQ(
      ParseOk("[global]\nioengine=io_uring\nfixedbufs=1\n[a]\n[global]\nioengine=psync\n[b]\n")
          .jobs.size(),
      2u);
  // A sweep's ioengine= (SetOption) replaces the engine of one job: a
  // [global] engine option stays [global]'s business, a job's own is checked.
  auto swept = ParseOk("[global]\nioengine=io_uring\nfixedbufs=1\n[a]\n").jobs.at(0);
  EXPECT_TRUE(SetOption(&swept, "ioengine", "psync").ok());
  auto own = ParseOk("[a]\nioengine=io_uring\nfixedbufs=1\n").jobs.at(0);
  const Status st = SetOption(&own, "ioengine", "psync");
  EXPECT_NE(st.message().find("option 'fixedbufs' needs ioengine=io_uring; job 'a' uses psync"),
            std::string::npos)
      << st.message();
  // The job's own section: its own engine.
  EXPECT_NE(ParseErr("[global]\nioengine=io_uring\n[b]\nioengine=psync\nfixedbufs=1\n")
                .find("t.fio:5:1: option 'fixedbufs' needs ioengine=io_uring; job 'b' uses "
                      "psync"),
            std::string::npos);
  // The engine may come after its option, or from [global].
  ParseOk("[global]\nioengine=io_uring\n[a]\nhipri\n");
  ParseOk("[a]\nhipri\nioengine=pvsync2\n");
}

// fio keeps engine options in a struct of the engine's own: a job whose
// engine is not the one its [global] gave them under starts from that
// engine's defaults (fio 3.33: [global] io_uring cmdprio_percentage=50 and
// a job with libaio issued no I/O with IOCB_FLAG_IOPRIO; iobench 106 of 200).
TEST(JobfileEngineOptions, AJobWithAnotherEngineDropsGlobalOnes) {
  const std::string global =
      "[global]\nioengine=io_uring\ncmdprio_percentage=50\ncmdprio_class=2\n";
  auto out = ParseOk(global + "[u]\n[l]\nioengine=libaio\n[m]\nioengine=libaio\ncmdprio=3\n");
  ASSERT_EQ(out.jobs.size(), 3u);
  const JobSpec& u = out.jobs[0];
  const JobSpec& l = out.jobs[1];
  const JobSpec& m = out.jobs[2];
  for (int d = 0; d < kNumDdirs; ++d) {
    EXPECT_EQ(u.cmdprio_percentage[d], 50u);  // the same engine keeps them
    EXPECT_EQ(u.cmdprio_class[d], 2);
    EXPECT_EQ(l.cmdprio_percentage[d], 0u);
    EXPECT_EQ(l.cmdprio_class[d], 0);
    EXPECT_EQ(m.cmdprio_percentage[d], 0u);
    EXPECT_EQ(m.cmdprio_class[d], 0);
    EXPECT_EQ(m.cmdprio[d], 3);  // the job's own still apply
  }
  // The records stay (fio's JSON lists them under "global options"), marked.
  ASSERT_NE(l.FindSetting("cmdprio_percentage"), nullptr);
  EXPECT_EQ(l.FindSetting("cmdprio_percentage")->source, OptionSource::kGlobal);
  const std::vector<bool> dropped = DroppedEngineOptions(l);
  ASSERT_EQ(dropped.size(), l.settings.size());
  for (size_t i = 0; i < l.settings.size(); ++i)
    EXPECT_EQ(dropped[i], l.settings[i].name.rfind("cmdprio", 0) == 0) << l.settings[i].name;
  const std::vector<bool> none = DroppedEngineOptions(u);
  EXPECT_EQ(std::count(none.begin(), none.end(), true), 0);
  // --parse-only says what runs: the default; --showcmd leaves them out.
  const std::string js = ParseOnlyJson({l});
  EXPECT_NE(js.find("\"cmdprio_class\": {\n          \"value\": \"\",\n          \"source\": "
                    "\"default\""),
            std::string::npos)
      << js;
  EXPECT_EQ(ShowCmd({l}), "iobench --name=l --ioengine=io_uring --ioengine=libaio\n");
  EXPECT_EQ(ShowCmd({m}), "iobench --name=m --ioengine=io_uring --ioengine=libaio --cmdprio=3\n");
}

TEST(JobfileEngineOptions, IoUringHipriNowaitUncachedDroppedForPvsync2) {
  // fio runs the pvsync2 job with preadv2 flags 0; iobench refused it
  // ("pvsync2: hipri=1 ... needs direct=1").
  auto out = ParseOk(
      "[global]\nioengine=io_uring\nhipri=1\nnowait=1\nuncached=1\nfixedbufs\n[u]\n[p]\n"
      "ioengine=pvsync2\n[q]\nioengine=pvsync2\nhipri_percentage=50\nnowait=1\n");
  ASSERT_EQ(out.jobs.size(), 3u);
  const JobSpec& u = out.jobs[0];
  EXPECT_TRUE(u.hipri && u.nowait && u.uncached && u.fixedbufs);
  for (const JobSpec* j : {&out.jobs[1], &out.jobs[2]}) {
    EXPECT_FALSE(j->hipri) << j->name;
    EXPECT_FALSE(j->uncached) << j->name;
    EXPECT_FALSE(j->fixedbufs) << j->name;
  }
  EXPECT_FALSE(out.jobs[1].nowait);
  EXPECT_EQ(out.jobs[1].hipri_percentage, 100u);
  EXPECT_TRUE(out.jobs[2].nowait);
  EXPECT_EQ(out.jobs[2].hipri_percentage, 50u);
}

// Several [global] sections: the last one that gave engine options decides
// their engine; one that only switches ioengine= keeps the earlier ones for
// a job that goes back to their engine (fio 3.33, io_uring_register).
TEST(JobfileEngineOptions, SeveralGlobalSections) {
  auto kept = ParseOk(
      "[global]\nioengine=io_uring\nfixedbufs=1\n[global]\nioengine=libaio\n[a]\n"
      "ioengine=io_uring\n[b]\n");
  EXPECT_TRUE(kept.jobs.at(0).fixedbufs);
  EXPECT_EQ(kept.jobs.at(1).ioengine, "libaio");
  EXPECT_FALSE(kept.jobs.at(1).fixedbufs);
  auto freed = ParseOk(
      "[global]\nioengine=io_uring\nfixedbufs=1\n[global]\nioengine=libaio\nuserspace_reap=0\n"
      "[a]\nioengine=io_uring\n[b]\n");
  EXPECT_FALSE(freed.jobs.at(0).fixedbufs);
  EXPECT_TRUE(freed.jobs.at(0).userspace_reap);  // libaio's, not a's engine's
  EXPECT_FALSE(freed.jobs.at(1).userspace_reap);
  const std::vector<bool> dropped = DroppedEngineOptions(freed.jobs.at(1));
  for (size_t i = 0; i < dropped.size(); ++i)
    EXPECT_EQ(dropped[i], freed.jobs.at(1).settings[i].name == "fixedbufs");
  // Same engine twice: the options add up.
  auto both = ParseOk(
      "[global]\nioengine=libaio\ncmdprio_percentage=40\n[global]\nioengine=libaio\n"
      "cmdprio_class=3\n[a]\n");
  EXPECT_EQ(both.jobs.at(0).cmdprio_percentage[0], 40u);
  EXPECT_EQ(both.jobs.at(0).cmdprio_class[0], 3);
  // A section's engine options suit the engine it ends with (fio: "Bad
  // option <fixedbufs=1>", the section dropped).
  EXPECT_NE(ParseErr("[global]\nioengine=io_uring\nfixedbufs=1\nioengine=psync\n[a]\nioengine="
                     "io_uring\n")
                .find("t.fio:3:1: option 'fixedbufs' needs ioengine=io_uring; its [global] "
                      "section uses psync"),
            std::string::npos);
  // A value read with [global]'s kb_base keeps it.
  auto kb = ParseOk(
      "[global]\nkb_base=1000\nioengine=libaio\ncmdprio_bssplit=4k/50\n[a]\n[b]\nioengine=io_uring"
      "\n[c]\nioengine=libaio\nnowait=1\n");
  ASSERT_EQ(kb.jobs.at(0).cmdprio_bssplit[0].size(), 1u);
  EXPECT_EQ(kb.jobs.at(0).cmdprio_bssplit[0][0].bs, 4000u);
  EXPECT_TRUE(kb.jobs.at(1).cmdprio_bssplit[0].empty());
  ASSERT_EQ(kb.jobs.at(2).cmdprio_bssplit[1].size(), 1u);
  EXPECT_EQ(kb.jobs.at(2).cmdprio_bssplit[1][0].bs, 4000u);
}

// The command line's options before the first --name are a global section
// too; there an --ioengine= alone lets go of another engine's options, as
// fio loads the engine as soon as it reads --ioengine=.
TEST(JobfileEngineOptions, CommandLineGlobals) {
  auto parse = [](std::vector<std::string> args) {
    ParseInput in;
    in.cli_job_args = std::move(args);
    auto out = ParseJobs(in);
    EXPECT_TRUE(out.ok()) << out.status().message();
    return out.ok() ? out->jobs : std::vector<JobSpec>{};
  };
  auto a =
      parse({"--ioengine=io_uring", "--hipri=1", "--nowait=1", "--name=a", "--ioengine=pvsync2"});
  ASSERT_EQ(a.size(), 1u);
  EXPECT_FALSE(a[0].hipri);
  EXPECT_FALSE(a[0].nowait);
  auto two =
      parse({"--ioengine=io_uring", "--fixedbufs=1", "--name=a", "--ioengine=libaio", "--name=b"});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_FALSE(two[0].fixedbufs);
  EXPECT_TRUE(two[1].fixedbufs);
  auto sections = parse({"--ioengine=io_uring", "--fixedbufs=1", "--name=a", "--name=global",
                         "--ioengine=libaio", "--name=b", "--ioengine=io_uring"});
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_TRUE(sections[0].fixedbufs);
  EXPECT_FALSE(sections[1].fixedbufs);
  auto libaio =
      parse({"--ioengine=libaio", "--cmdprio_percentage=100", "--name=a", "--ioengine=io_uring",
             "--ioengine=libaio", "--name=b", "--ioengine=io_uring"});
  ASSERT_EQ(libaio.size(), 2u);
  EXPECT_EQ(libaio[0].cmdprio_percentage[0], 100u);
  EXPECT_EQ(libaio[1].cmdprio_percentage[0], 0u);
  // A second --ioengine= in one global section: what came before it was
  // given under the first engine (fio runs both; fixedbufs for neither job,
  // nowait for no libaio job).
  auto again = parse({"--ioengine=io_uring", "--fixedbufs=1", "--nowait=1", "--ioengine=libaio",
                      "--name=a", "--ioengine=io_uring", "--name=b"});
  ASSERT_EQ(again.size(), 2u);
  EXPECT_FALSE(again[0].fixedbufs);
  EXPECT_FALSE(again[0].nowait);
  EXPECT_FALSE(again[1].nowait);
  EXPECT_EQ(again[1].ioengine, "libaio");
}

// On the command line a global engine option goes with the engine in force
// where it stands (fio: "unrecognized option '--nowait=1'" before
// --ioengine=pvsync2). The refusal said "the command line's global options
// use psync", which they do not: they set pvsync2, later.
TEST(JobfileEngineOptions, CommandLineEngineOptionBeforeItsEngine) {
  const auto first_line = [](std::vector<std::string> args) {
    ParseInput in;
    in.cli_job_args = std::move(args);
    auto out = ParseJobs(in);
    EXPECT_FALSE(out.ok());
    return out.ok() ? "" : out.status().message().substr(0, out.status().message().find('\n'));
  };
  EXPECT_EQ(first_line({"--nowait=1", "--ioengine=pvsync2", "--name=x", "--size=64k"}),
            "command line: option 'nowait' needs ioengine=io_uring, libaio or pvsync2, but where "
            "it stands on the command line the engine is psync (an engine option goes with the "
            "--ioengine= before it, as in fio): give it after --ioengine=pvsync2");
  EXPECT_EQ(first_line({"--ioengine=libaio", "--fixedbufs=1", "--ioengine=pvsync2", "--name=x"}),
            "command line: option 'fixedbufs' needs ioengine=io_uring, but where it stands on the "
            "command line the engine is libaio (an engine option goes with the --ioengine= before "
            "it, as in fio): give it after an --ioengine= that takes it");
  EXPECT_EQ(
      first_line({"--nowait=1", "--name=x"}),
      "command line: option 'nowait' needs ioengine=io_uring, libaio or pvsync2; job 'x' uses "
      "psync");
  // After it, or among the job's own options in any order, it is taken.
  for (const auto& args :
       {std::vector<std::string>{"--ioengine=pvsync2", "--nowait=1", "--name=x"},
        std::vector<std::string>{"--name=x", "--nowait=1", "--ioengine=pvsync2"}}) {
    ParseInput in;
    in.cli_job_args = args;
    auto out = ParseJobs(in);
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_TRUE(out->jobs.at(0).nowait);
  }
}

// A [global] engine option that its section's engine does not take names the
// section, even where the job inherits that engine.
TEST(JobfileEngineOptions, GlobalRefusalNamesTheSection) {
  const std::string err =
      ParseErr("[global]\nioengine=io_uring\nfixedbufs=1\nioengine=psync\n[a]\nsize=64k\n");
  EXPECT_EQ(
      err.substr(0, err.find('\n')),
      "t.fio:3:1: option 'fixedbufs' needs ioengine=io_uring; its [global] section uses psync");
}

// A --sweep ioengine= point is the job's own ioengine=: the [global] engine
// options hold at a point of their engine and are reset at any other.
TEST(JobfileEngineOptions, SweepPointIsTheJobsOwnEngine) {
  auto job = ParseOk(
                 "[global]\nioengine=io_uring\nfixedbufs=1\ncmdprio_percentage=50\n[a]\n"
                 "cmdprio_class=3\n")
                 .jobs.at(0);
  ASSERT_TRUE(SetOption(&job, "ioengine", "libaio").ok());
  EXPECT_FALSE(job.fixedbufs);
  EXPECT_EQ(job.cmdprio_percentage[0], 0u);
  EXPECT_EQ(job.cmdprio_class[0], 3);
  ASSERT_TRUE(SetOption(&job, "ioengine", "io_uring").ok());
  EXPECT_TRUE(job.fixedbufs);
  EXPECT_EQ(job.cmdprio_percentage[0], 50u);
  EXPECT_EQ(job.cmdprio_class[0], 3);
  // With the engine swept, one a [global] gives under no ioengine= of its
  // own goes with each point's engine, as --ioengine= would have it.
  TempDir d;
  const auto parse_swept_file = [&](const std::string& text) {
    const std::string f = d.path() + "/g.fio";
    std::ofstream(f) << text;
    ParseInput in;
    in.job_files = {f};
    in.sweep_keys = {"ioengine"};
    return ParseJobs(in);
  };
  const auto parse_swept = [&](const std::string& text) {
    auto out = parse_swept_file(text);
    EXPECT_TRUE(out.ok()) << out.status().message();
    return out.ok() ? out->jobs.at(0) : JobSpec{};
  };
  const JobSpec one = parse_swept("[global]\nnowait=1\n[j]\n");
  JobSpec point = one;
  ASSERT_TRUE(SetOption(&point, "ioengine", "pvsync2").ok());
  EXPECT_TRUE(point.nowait);
  point = one;
  EXPECT_NE(SetOption(&point, "ioengine", "psync")
                .message()
                .find(":2:1: option 'nowait' needs ioengine=io_uring, libaio or pvsync2; job 'j' "
                      "uses psync"),
            std::string::npos);
  // A later [global] with its own engine's options: fio lets go of the
  // first one's unless the point's engine is that one.
  const JobSpec two =
      parse_swept("[global]\nnowait=1\n[global]\nioengine=io_uring\nfixedbufs=1\n[j]\n");
  point = two;
  ASSERT_TRUE(SetOption(&point, "ioengine", "pvsync2").ok());
  EXPECT_FALSE(point.nowait);
  EXPECT_FALSE(point.fixedbufs);
  point = two;
  ASSERT_TRUE(SetOption(&point, "ioengine", "io_uring").ok());
  EXPECT_TRUE(point.nowait);
  EXPECT_TRUE(point.fixedbufs);
  // Then the first one's must suit that engine.
  auto bad =
      parse_swept_file("[global]\nhipri\n[global]\nioengine=libaio\nuserspace_reap=0\n[j]\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(":2:1: option 'hipri' needs ioengine=io_uring or pvsync2"),
            std::string::npos)
      << bad.status().message();
  // A job that left [global]'s engine gets them back at a point of it.
  auto back = ParseOk("[global]\nioengine=io_uring\nfixedbufs=1\n[a]\nioengine=psync\n").jobs.at(0);
  EXPECT_FALSE(back.fixedbufs);
  ASSERT_TRUE(SetOption(&back, "ioengine", "io_uring").ok());
  EXPECT_TRUE(back.fixedbufs);
}

// Every engine option can be put back to its default (OptionDef::reset),
// and its reset leaves what its setter set as a new JobSpec has it.
TEST(JobfileEngineOptions, EveryEngineOptionResets) {
  for (const OptionDef& d : OptionTable()) {
    if (d.engines.empty()) {
      EXPECT_EQ(d.reset, nullptr) << d.name;
      continue;
    }
    ASSERT_NE(d.reset, nullptr) << d.name;
  }
  auto set = ParseOk(
                 "[a]\nioengine=io_uring\nhipri\nnowait=1\nuncached=1\nforce_async=2\n"
                 "fixedbufs\nregisterfiles\nsqthread_poll\nsqthread_poll_cpu=1\nnonvectored=1\n"
                 "cmdprio_percentage=10\ncmdprio_class=2\ncmdprio=3\n")
                 .jobs.at(0);
  for (const OptionDef& d : OptionTable())
    if (d.reset != nullptr) d.reset(set);
  const JobSpec fresh;
  EXPECT_EQ(set.hipri, fresh.hipri);
  EXPECT_EQ(set.nowait, fresh.nowait);
  EXPECT_EQ(set.uncached, fresh.uncached);
  EXPECT_EQ(set.force_async, fresh.force_async);
  EXPECT_EQ(set.fixedbufs, fresh.fixedbufs);
  EXPECT_EQ(set.registerfiles, fresh.registerfiles);
  EXPECT_EQ(set.sqthread_poll, fresh.sqthread_poll);
  EXPECT_EQ(set.sqthread_poll_cpu, fresh.sqthread_poll_cpu);
  EXPECT_EQ(set.nonvectored, fresh.nonvectored);
  EXPECT_EQ(set.cmdprio_percentage[2], fresh.cmdprio_percentage[2]);
  EXPECT_EQ(set.cmdprio_class[1], fresh.cmdprio_class[1]);
  EXPECT_EQ(set.cmdprio[0], fresh.cmdprio[0]);
  EXPECT_EQ(set.ioengine, "io_uring");  // not an engine option
}

// fio reads the command line before the job files: its ioengine= is the
// engine a job file's [global] starts with. `[global] nowait=1` with
// `--ioengine=pvsync2` was refused as set under psync; fio takes it.
TEST(JobfileErrors, CommandLineEngineHoldsForGlobalEngineOptions) {
  TempDir d;
  const std::string f = d.path() + "/n.fio";
  std::ofstream(f) << "[global]\nnowait=1\n[a]\nsize=4k\n";
  ParseInput in;
  in.job_files = {f};
  in.cli_job_args = {"--ioengine=pvsync2"};
  auto out = ParseJobs(in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->jobs.at(0).ioengine, "pvsync2");
  // Without it, still refused, naming the engine.
  in.cli_job_args = {};
  out = ParseJobs(in);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find(f + ":2:1: option 'nowait' needs ioengine="),
            std::string::npos)
      << out.status().message();
  EXPECT_NE(out.status().message().find("uses psync\nnowait=1\n^"), std::string::npos)
      << out.status().message();
  // An engine without the option on the command line does not help.
  in.cli_job_args = {"--ioengine=mmap"};
  out = ParseJobs(in);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("option 'nowait' needs ioengine="), std::string::npos)
      << out.status().message();
}

// fio parses a [global] section as it reads it: one that no job follows
// is checked too ("failed parsing size=${UNSET_Q}", rc 1). iobench ignored
// its options, bad or not, and ran the jobs above it.
TEST(JobfileErrors, GlobalNoJobFollowsIsChecked) {
  const std::string head = "[global]\nioengine=null\nsize=64k\n[a]\n[global]\n";
  const auto first_line = [&](const std::string& tail) {
    const std::string err = ParseErr(head + tail);
    return err.substr(0, err.find('\n'));
  };
  unsetenv("IOB_SURELY_UNSET");
  EXPECT_EQ(first_line("size=${IOB_SURELY_UNSET}\n")
                .rfind("t.fio:6:6: environment variable "
                       "'IOB_SURELY_UNSET' is not set",
                       0),
            0u);
  EXPECT_EQ(first_line("bs=1q\n").rfind("t.fio:6:5: option 'bs': bad size unit 'q'", 0), 0u);
  EXPECT_EQ(first_line("bogus=1\n"), "t.fio:6:1: unknown option 'bogus'");
  EXPECT_EQ(first_line("cgroup=x\n"),
            "t.fio:6:1: option 'cgroup' is a fio option that iobench does not support yet");
  EXPECT_EQ(
      first_line("fixedbufs=1\n"),
      "t.fio:6:1: option 'fixedbufs' needs ioengine=io_uring; its [global] section uses null");
  setenv("IOB_TEST_SECTION", "[x]", 1);
  EXPECT_EQ(first_line("${IOB_TEST_SECTION}\n"), "t.fio:6:1: unknown option '[x]'");
  unsetenv("IOB_TEST_SECTION");
  // Valid, it changes nothing for the job above it; the rules between
  // options are a job's (fio fixes them up in a job only).
  auto ok = ParseOk(head + "ioengine=io_uring\nfixedbufs=1\nbs=8k\ndirectory=/tmp\nfilename=/x\n");
  ASSERT_EQ(ok.jobs.size(), 1u);
  EXPECT_EQ(ok.jobs[0].ioengine, "null");
  EXPECT_EQ(ok.jobs[0].bs[0].min, 4096u);
  // A file of only [global], given before or after one with a job, and
  // one whose job --section leaves out.
  TempDir d;
  const std::string g = d.path() + "/g.fio", a = d.path() + "/a.fio";
  std::ofstream(g) << "[global]\nbs=abc\nrw=RANDREAD\n";
  std::ofstream(a) << "[global]\nioengine=null\nsize=64k\n[a]\n";
  for (const auto& files : {std::vector<std::string>{g, a}, std::vector<std::string>{a, g}}) {
    ParseInput in;
    in.job_files = files;
    auto out = ParseJobs(in);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().message().rfind(g + ":2:4: option 'bs': bad size 'abc'", 0), 0u)
        << out.status().message();
  }
  // The command line's engine counts for such a [global], as for one a job
  // follows; its other options are judged in the jobs that take them.
  std::ofstream(g) << "[global]\nfixedbufs=1\n";
  {
    ParseInput in;
    in.job_files = {g, a};
    in.cli_job_args = {"--ioengine=io_uring"};
    auto out = ParseJobs(in);
    EXPECT_TRUE(out.ok()) << out.status().message();
    in.cli_job_args = {"--fixedbufs=1"};
    out = ParseJobs(in);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().message().rfind(g + ":2:1: option 'fixedbufs' needs ioengine=io_uring; "
                                               "its [global] section uses psync",
                                           0),
              0u)
        << out.status().message();
    std::ofstream(g) << "[global]\nbs=8k\n";
    out = ParseJobs(in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(
        out.status().message().find("option 'fixedbufs' needs ioengine=io_uring; job 'a' uses "
                                    "null"),
        std::string::npos)
        << out.status().message();
  }
  std::ofstream(a) << "[a]\nioengine=null\nsize=64k\n[global]\nbs=abc\n[b]\n";
  ParseInput in;
  in.job_files = {a};
  in.sections = {"a"};
  auto out = ParseJobs(in);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message().rfind(a + ":5:4: option 'bs': bad size 'abc'", 0), 0u)
      << out.status().message();
}

TEST(JobfileErrors, CpuioNeedsCpuload) {
  EXPECT_NE(ParseErr("[a]\nioengine=cpuio\n").find("ioengine=cpuio (t.fio:2) needs cpuload="),
            std::string::npos);
  EXPECT_NE(ParseErr("[a]\nioengine=cpuio\ncpuload=0\n")
                .find("cpuload=0 (t.fio:3): the cpuio engine needs a load above 0"),
            std::string::npos);
}

TEST(JobfileTable, CpuioShapesTheJob) {
  // fio's cpuio init: a think time after every chunk of cpuchunks us makes the
  // busy share cpuload percent (above 100: 100); the job only reads, no data.
  JobSpec j = ParseOk(
                  "[a]\nioengine=cpuio\ncpuload=20\ncpuchunks=1000\nrw=randwrite\n"
                  "thinktime=1s\nruntime=2\n")
                  .jobs.at(0);
  EXPECT_EQ(j.thinktime_ns, 4000000u);  // 1000 us x 80 / 20
  EXPECT_EQ(j.thinktime_blocks, 1u);
  EXPECT_TRUE(j.thinktime_blocks_complete);
  EXPECT_EQ(j.rw, RwMode::kRead);
  EXPECT_TRUE(j.time_based);
  EXPECT_EQ(j.cpuchunks_us, 1000u);
  EXPECT_FALSE(j.cpumode_qsort);
  j = ParseOk("[a]\nioengine=cpuio\ncpuload=250\ncpumode=qsort\n").jobs.at(0);
  EXPECT_EQ(j.cpuload, 100u);
  EXPECT_EQ(j.thinktime_ns, 0u);
  EXPECT_EQ(j.cpuchunks_us, 50000u);  // fio's default
  EXPECT_TRUE(j.cpumode_qsort);
  EXPECT_FALSE(j.time_based);  // no runtime: it runs until stopped, as fio's
}

TEST(JobfileErrors, BadEngine) {
  EXPECT_EQ(ParseErr("[a]\nioengine=rdma\n"),
            "t.fio:2:10: option 'ioengine': ioengine 'rdma' is a fio engine that iobench does not "
            "support yet\nioengine=rdma\n         ^");
  EXPECT_NE(
      ParseErr("[a]\nioengine=libaoi\n").find("unknown ioengine 'libaoi'; did you mean 'libaio'?"),
      std::string::npos);
  // A part of a name is a typo of the shortest engine that holds it; a name
  // near none says where the engines are listed.
  EXPECT_EQ(ParseErr("[a]\nioengine=uring\n"),
            "t.fio:2:10: option 'ioengine': unknown ioengine 'uring'; did you mean "
            "'io_uring'?\nioengine=uring\n         ^");
  EXPECT_NE(ParseErr("[a]\nioengine=aio\n").find("unknown ioengine 'aio'; did you mean 'libaio'?"),
            std::string::npos);
  EXPECT_EQ(ParseErr("[a]\nioengine=foo\n"),
            "t.fio:2:10: option 'ioengine': unknown ioengine 'foo' (iobench --enghelp lists the "
            "engines)\nioengine=foo\n         ^");
}

// name=, directory= and filename_format= were accepted empty: a job named
// "", files in the working directory, a file named "./". fio refuses them.
TEST(JobfileErrors, EmptyStringValues) {
  EXPECT_EQ(ParseErr("[a]\ndirectory=\n"),
            "t.fio:2:11: option 'directory' needs a value\ndirectory=\n          ^");
  for (const char* o : {"name", "description", "filename_format", "exec_prerun", "wait_for"})
    EXPECT_NE(ParseErr(std::string("[a]\n") + o + "=  \n")
                  .find("option '" + std::string(o) + "' needs a value"),
              std::string::npos)
        << o;
  // The logs take an empty value, as in fio: the job's name is the prefix.
  auto j = ParseOk("[a]\nwrite_bw_log=\n").jobs.at(0);
  EXPECT_EQ(j.settings.back().name, "write_bw_log");
  // On the command line too: `--name=` ran a job named "".
  ParseInput in;
  in.cli_job_args = {"--name=", "--size=1m"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "command line: option 'name' needs a value\n--name=\n       ^");
}

// `description=""` was refused as "needs a value"; fio 3.33 runs it (its
// JSON description is the two quote characters). An explicit empty quoted
// description is an empty description now; `description=` stays refused
// (fio: "failed parsing"), and a name or path the quotes leave empty too,
// saying why.
TEST(JobfileErrors, QuotedEmptyValues) {
  for (const char* v : {"\"\"", "''", "\" \""}) {
    auto out = ParseOk(std::string("[a]\nioengine=null\nsize=1m\ndescription=") + v + "\n");
    ASSERT_EQ(out.jobs.size(), 1u) << v;
    const std::string quoted = v;
    EXPECT_EQ(out.jobs[0].description, quoted.substr(1, quoted.size() - 2));
    ASSERT_FALSE(out.warnings.empty());
    EXPECT_NE(out.warnings[0].find("iobench removes the quotes"), std::string::npos);
  }
  EXPECT_EQ(ParseErr("[a]\nfilename=\"\"\n"),
            "t.fio:2:11: option 'filename' needs a value: the quotes hold nothing (fio would take "
            "the quote characters as the value)\nfilename=\"\"\n          ^");
  EXPECT_NE(ParseErr("[a]\nname=' '\n")
                .find("option 'name' needs a value: the quotes hold only "
                      "blanks"),
            std::string::npos);
  EXPECT_EQ(ParseErr("[a]\ndescription=\n"),
            "t.fio:2:13: option 'description' needs a value\ndescription=\n            ^");
}

// "--=4k" has no option name: it said "unknown option ''; did you mean
// 'rw'?". And a flag's error lists the words it takes (thread=enable said
// "expected 0 or 1" though yes, on and true are accepted).
TEST(JobfileErrors, EmptyOptionNameAndFlagWords) {
  ParseInput in;
  in.cli_job_args = {"--name=a", "--=4k"};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "command line: expected an option name before '='\n--=4k\n  ^");
  EXPECT_EQ(ParseErr("[a]\nthread=enable\n"),
            "t.fio:2:8: option 'thread' is a flag: expected a number (0 off, any other on) (or "
            "yes/no, true/false, on/off), got 'enable'\nthread=enable\n       ^");
  EXPECT_TRUE(ParseOk("[a]\nthread=On\n").jobs.at(0).thread);
}

// fio 3.33 stores its FIO_OPT_STR_SET flags as the number written: a job
// file with stonewall=2 or time_based=-1 runs there (on), =0 is off. It
// refused here ("expected 0 or 1"). fio's true bools still take 0 or 1.
TEST(JobfileValues, StrSetFlagsTakeAnyNumber) {
  const char* on[] = {"stonewall",    "new_group",      "group_reporting", "exitall_on_error",
                      "thread",       "time_based",     "norandommap",     "bs_unaligned",
                      "zero_buffers", "refill_buffers", "verify_only"};
  auto flag = [](const JobSpec& j, const std::string& n) {
    return n == "stonewall"          ? j.stonewall
           : n == "new_group"        ? j.new_group
           : n == "group_reporting"  ? j.group_reporting
           : n == "exitall_on_error" ? j.exitall_on_error
           : n == "thread"           ? j.thread
           : n == "time_based"       ? j.time_based
           : n == "norandommap"      ? j.norandommap
           : n == "bs_unaligned"     ? j.bs_unaligned
           : n == "zero_buffers"     ? j.zero_buffers
           : n == "refill_buffers"   ? j.refill_buffers
                                     : j.verify.verify_only;
  };
  for (const char* name : on) {
    for (const char* value : {"2", "-1", "0x10"}) {
      const std::string text =
          std::string("[a]\n") + name + "=" + value + "\n[b]\n" + name + "=0\n";
      auto out = ParseOk(text);
      EXPECT_TRUE(flag(out.jobs.at(0), name)) << text;
      EXPECT_FALSE(flag(out.jobs.at(1), name)) << text;
    }
  }
  EXPECT_EQ(ParseErr("[a]\nstonewall=abc\n"),
            "t.fio:2:11: option 'stonewall' is a flag: expected a number (0 off, any other on) "
            "(or yes/no, true/false, on/off), got 'abc'\nstonewall=abc\n          ^");
  // fio's bools (FIO_OPT_BOOL): "max value out of range: 2 (1 max)".
  EXPECT_NE(ParseErr("[a]\nrandrepeat=2\n").find("expected 0 or 1"), std::string::npos);
}

// fio 3.33's exitall sets one switch whatever its value: exitall=0 stops the
// other jobs there too. It runs so here, with a warning; a word that means
// off (which fio refuses) is refused rather than run as on.
TEST(JobfileValues, ExitallIgnoresItsValueAsFio) {
  auto out = ParseOk("[a]\nexitall=7\n");
  EXPECT_TRUE(out.jobs.at(0).exitall);
  EXPECT_TRUE(out.warnings.empty());
  out = ParseOk("[a]\nexitall=0\n");
  EXPECT_TRUE(out.jobs.at(0).exitall);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("t.fio:2: warning: exitall=0 sets exitall, as in fio 3.33"),
            std::string::npos)
      << out.warnings[0];
  EXPECT_NE(ParseErr("[a]\nexitall=no\n")
                .find("t.fio:2:9: option 'exitall': exitall=no would not turn exitall off"),
            std::string::npos)
      << ParseErr("[a]\nexitall=no\n");
}

TEST(JobfileErrors, MissingValueFlagsAndOutsideSection) {
  EXPECT_EQ(ParseErr("[a]\niodepth\n"),
            "t.fio:2:1: option 'iodepth' needs a value (iodepth=int)\niodepth\n^");
  EXPECT_EQ(ParseErr("[a]\ndirect=2\n"),
            "t.fio:2:8: option 'direct' is a flag: expected 0 or 1 (or yes/no, true/false, "
            "on/off), got '2'\ndirect=2\n       ^");
  EXPECT_EQ(
      ParseErr("bs=4k\n[a]\n"),
      "t.fio:1:1: option 'bs' outside of a section (add [global] or [jobname] above it)\nbs=4k\n^");
}

TEST(JobfileErrors, UnsetVariable) {
  unsetenv("IOB_NOPE");
  EXPECT_EQ(ParseErr("[a]\nsize=${IOB_NOPE}\n"),
            "t.fio:2:6: environment variable 'IOB_NOPE' is not set (fio substitutes an empty "
            "string: silently within a longer value, while a value left empty fails to parse and "
            "fio runs no job; set it, e.g. IOB_NOPE=... iobench ...)\nsize=${IOB_NOPE}\n     ^");
}

// A results document given as a job file (`iobench --output-format=table
// fb.json`) got only "fb.json:2:8: expected '=' between option '"fio' and
// its value": the error now says what the file looks like, and what shows
// its tables; a job file that merely starts with `{` gets no such line.
TEST(JobfileErrors, ResultsFileGivenAsJobFile) {
  TempDir d;
  auto err = [&](const std::string& name, const std::string& text) {
    ParseInput in;
    in.job_files = {d.Write(name, text)};
    auto r = ParseJobs(in);
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.status().message();
  };
  const std::string fb = d.path() + "/fb.json";
  const std::string hint = fb +
                           " looks like a results file (fio or iobench JSON output), not a job "
                           "file: iobench --compare " +
                           fb + " NEW.json shows it in tables beside NEW.json (--compare " + fb +
                           " " + fb + " shows its figures alone, each delta 0)";
  const std::string pretty =
      "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\"jobname\" : \"a\"}\n  ]\n}\n";
  EXPECT_EQ(err("fb.json", pretty), fb +
                                        ":2:8: expected '=' between option '\"fio' and its "
                                        "value\n  \"fio version\" : \"fio-3.33\",\n       ^\n" +
                                        hint);
  // One line, or cut short: "jobs" alone tells too.
  EXPECT_EQ(iobench::testing::Lines(err("fb.json", "\n {\"jobs\": [{\"jobname\": \"a\"}]}")).back(),
            hint);
  EXPECT_EQ(iobench::testing::Lines(err("fb.json", "{\n  \"jobs\" : [\n    {\"jobname\"")).back(),
            hint);
  // Other JSON, or a job file's stray brace, is only the job file error.
  EXPECT_EQ(iobench::testing::Lines(err("o.json", "{\"a\": 1}\n")).size(), 3u);
  EXPECT_EQ(iobench::testing::Lines(err("b.fio", "{\n[j]\nsize=1m\n# jobs\n")).size(), 3u);
  // fio's output with its note before the JSON (psync at iodepth=4) was
  // only the job file error.
  EXPECT_EQ(iobench::testing::Lines(err("fb.json",
                                        "note: both iodepth >= 1 and synchronous I/O engine are "
                                        "selected, queue depth will be capped at 1\n" +
                                            pretty))
                .back(),
            hint);
  // A broken job file with a brace line and a "jobs" further down is not
  // one: after text that is no JSON, the rest must parse.
  EXPECT_EQ(iobench::testing::Lines(err("n.fio", "[a]\nsize=1m\nfoo\n{\n\"jobs\" here\n")).size(),
            3u);
  // An included results file is told of too, with the include's chain.
  d.Write("r.json", pretty);
  const std::string inc = err("inc.fio", "[a]\nioengine=null\nsize=64k\ninclude r.json\n");
  EXPECT_NE(inc.find("r.json:2:8: expected '=' between option '\"fio' and its value (included "
                     "from "),
            std::string::npos)
      << inc;
  EXPECT_NE(inc.find("r.json looks like a results file (fio or iobench JSON output), not a job "
                     "file: iobench --compare "),
            std::string::npos)
      << inc;
}

TEST(JobfileErrors, MissingIncludeAndCycle) {
  TempDir d;
  auto r = ParseJobText("[global]\ninclude nothere.fio\n", "t.fio", d.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind(
                "t.fio:2:9: cannot include 'nothere.fio': No such file or directory", 0),
            0u)
      << r.status().message();
  d.Write("a.fio", "[global]\ninclude b.fio\n");
  d.Write("b.fio", "bs=4k\ninclude a.fio\n");
  ParseInput in;
  in.job_files = {d.path() + "/a.fio"};
  auto r2 = ParseJobs(in);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.status().message().find("b.fio:2:9: include cycle: 'a.fio' is already being read"),
            std::string::npos)
      << r2.status().message();
}

// ------------------------------------------------- precedence, include, stdin

TEST(JobfilePrecedence, DefaultGlobalJobCommandLine) {
  TempDir d;
  std::string f = d.Write(
      "p.fio",
      "[global]\niodepth=4\nbs=8k\nrw=randread\n[one]\niodepth=8\n[global2]\nbs=16k\n[two]\n");
  ParseInput in;
  in.job_files = {f};
  in.cli_job_args = {"--iodepth=64"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& jobs = r->jobs;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].name, "one");
  EXPECT_EQ(jobs[0].iodepth, 64u);  // command line beats the job section
  EXPECT_EQ(jobs[0].bs[0].min, 8192u);
  EXPECT_EQ(jobs[1].bs[0].min, 16384u);  // second global applies below it
  EXPECT_EQ(jobs[1].iodepth, 64u);
  EXPECT_EQ(jobs[0].line, 5);
  // Provenance, in order applied.
  ASSERT_EQ(jobs[0].settings.size(), 5u);
  EXPECT_EQ(jobs[0].settings[0].name, "iodepth");
  EXPECT_EQ(jobs[0].settings[0].source, OptionSource::kGlobal);
  EXPECT_EQ(jobs[0].settings[0].line, 2);
  EXPECT_EQ(jobs[0].settings[3].source, OptionSource::kJob);
  EXPECT_EQ(jobs[0].settings[3].line, 6);
  EXPECT_EQ(jobs[0].settings[4].source, OptionSource::kCommandLine);
  EXPECT_EQ(jobs[0].settings[4].file, "<cmdline>");
  // Without the command line, the job section wins.
  in.cli_job_args.clear();
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->jobs[0].iodepth, 8u);
  EXPECT_EQ(r->jobs[1].iodepth, 4u);
}

// fio: command-line jobs first; the first job file's jobs join their group.
TEST(JobfilePrecedence, CommandLineJobsComeFirstAsInFio) {
  TempDir d;
  ParseInput in;
  in.job_files = {d.Write("a.fio", "[a]\nsize=1m\n"), d.Write("b.fio", "[b]\nsize=1m\n")};
  in.cli_job_args = {"--size=2m", "--name=c"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 3u);
  EXPECT_EQ(r->jobs[0].name, "c");
  EXPECT_EQ(r->jobs[0].job_file_index, 0);
  EXPECT_EQ(r->jobs[1].name, "a");
  EXPECT_EQ(r->jobs[1].job_file_index, 0);
  EXPECT_EQ(r->jobs[2].job_file_index, 1);
  EXPECT_EQ(ParseOnlySummary(r->jobs).substr(0, 10), "c: group=0");
  EXPECT_NE(ParseOnlySummary(r->jobs).find("a: group=0"), std::string::npos);
  EXPECT_NE(ParseOnlySummary(r->jobs).find("b: group=1"), std::string::npos);
}

TEST(JobfilePrecedence, SeveralFilesAndSections) {
  TempDir d;
  std::string a = d.Write("a.fio", "[x]\n[y]\n");
  std::string b = d.Write("b.fio", "[z]\n");
  ParseInput in;
  in.job_files = {a, b};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->jobs.size(), 3u);
  EXPECT_EQ(r->jobs[1].job_file_index, 0);
  EXPECT_EQ(r->jobs[2].job_file_index, 1);
  EXPECT_EQ(r->jobs[2].job_file, b);
  in.sections = {"y", "z"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->jobs.size(), 2u);
  EXPECT_EQ(r->jobs[0].name, "y");
  // The same name twice selects it once; it was refused as matching nothing.
  in.sections = {"y", "y"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].name, "y");
  in.sections = {"nope"};
  r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "iobench: --section=nope matches no job of the job files or the command line");
}

// fio skips every line of a section --section leaves out, include lines
// too: `--section=a` with `[b]` holding `include nothere.fio` runs a in fio
// 3.33; iobench failed with "cannot include 'nothere.fio'". A [global]
// section's include is still read.
TEST(JobfilePrecedence, IncludeInUnselectedSectionSkipped) {
  TempDir d;
  std::string f = d.Write("j.fio", "[a]\nioengine=null\nsize=1m\n[b]\ninclude nothere.fio\n");
  ParseInput in;
  in.job_files = {f};
  in.sections = {"a"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].name, "a");
  in.sections = {"b"};
  r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot include 'nothere.fio'"), std::string::npos);
  f = d.Write("g.fio", "[global]\ninclude nothere.fio\n[a]\nioengine=null\n");
  in.job_files = {f};
  in.sections = {"a"};
  EXPECT_FALSE(ParseJobs(in).ok());
}

// fio's --section selects command-line jobs too (each --name is a section):
// `fio --section=z --name=c ... --name=z ... a.fio` runs only z. iobench ran
// every command-line job and refused --section=z as matching no job.
TEST(JobfilePrecedence, SectionSelectsCommandLineJobs) {
  TempDir d;
  std::string a = d.Write("a.fio", "[x]\nioengine=null\n[y]\nioengine=null\n");
  ParseInput in;
  in.job_files = {a};
  in.cli_job_args = {"--ioengine=null", "--name=c", "--name=z"};
  in.sections = {"z", "y"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 2u);
  EXPECT_EQ(r->jobs[0].name, "z");
  EXPECT_EQ(r->jobs[1].name, "y");
  in.sections = {"c", "c"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].name, "c");
}

// --section selects by the section's name in every job file, wherever the
// arguments stand (fio 3.33 filters only the first file, and only the
// --name jobs after it: docs/jobfile.md says why iobench does not), and a
// name= inside the section does not change what selects it, as in fio.
TEST(JobfilePrecedence, SectionSelectsBySectionNameInEveryFile) {
  TempDir d;
  std::string a = d.Write("a.fio", "[x]\nname=w\nioengine=null\n[b]\nioengine=null\n");
  std::string g = d.Write("g.fio", "[g1]\nioengine=null\n[b]\nioengine=null\n");
  ParseInput in;
  in.job_files = {a, g};
  in.cli_job_args = {"--ioengine=null", "--name=a", "--name=b"};
  in.sections = {"b"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 3u);
  for (const JobSpec& j : r->jobs) EXPECT_EQ(j.name, "b");
  EXPECT_EQ(r->jobs[2].job_file, g);
  in.sections = {"x"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->jobs.size(), 1u);
  EXPECT_EQ(r->jobs[0].name, "w");
  EXPECT_EQ(r->jobs[0].SectionName(), "x");
  in.sections = {"w"};
  EXPECT_FALSE(ParseJobs(in).ok());
}

TEST(JobfileInclude, NestedAndRelative) {
  TempDir d;
  fs::create_directories(d.path() + "/inc/deeper");
  d.Write("inc/common.inc", "bs=64k\ninclude deeper/more.inc\n");
  d.Write("inc/deeper/more.inc", "iodepth=16\n");
  std::string main = d.Write("main.fio", "[global]\ninclude inc/common.inc\n[job]\n");
  ParseInput in;
  in.job_files = {main};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 65536u);
  EXPECT_EQ(r->jobs.at(0).iodepth, 16u);
  EXPECT_EQ(r->jobs.at(0).settings[1].line, 1);
}

// As fio ("No new sections in included files"): a section opened in an
// included file took the options after the include line away from the
// including section (here ioengine=null went to j1, and j2 ran on psync).
TEST(JobfileInclude, NoSectionsInIncludedFiles) {
  TempDir d;
  d.Write("jobs.fio", "; shared jobs\n[j1]\nbs=8k\n");
  std::string main =
      d.Write("main.fio", "[global]\nsize=1m\ninclude jobs.fio\nioengine=null\n[j2]\n");
  ParseInput in;
  in.job_files = {main};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("jobs.fio:2:2: no new sections in included files"),
            std::string::npos)
      << r.status().message();
  d.Write("g.inc", "[global]\nbs=8k\n");
  in.job_files = {d.Write("top.fio", "include g.inc\n[a]\n")};
  auto r2 = ParseJobs(in);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.status().message().find("top.fio:1:1: include outside of a section"),
            std::string::npos)
      << r2.status().message();
}

// fio reads `include=x.inc` as an include; iobench called it an unknown
// option 'include' (and said the same of a bare `include`). fio takes all
// after "include" and one character as the name: `include = b.inc` is the
// file '= b.inc' there, which it fails to open; iobench reads b.inc, and
// (as for blanks around any option's '=') warns instead of staying silent.
TEST(JobfileInclude, EqualsFormAndMissingName) {
  TempDir d;
  d.Write("b.inc", "bs=8k\n");
  d.Write("c.inc", "iodepth=2\n");
  std::string main = d.Write("main.fio",
                             "[job]\ninclude = b.inc\ninclude=c.inc # as fio\n"
                             "include\tc.inc\ninclude  c.inc\n");
  ParseInput in;
  in.job_files = {main};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 8192u);
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0],
            main +
                ":2: warning: 'include = b.inc': fio takes the file name to be '= b.inc' (all "
                "after 'include' and one character) and fails the job when no file has that "
                "name; iobench reads 'b.inc'; write 'include b.inc' to keep the file portable");
  EXPECT_EQ(r->warnings[1].substr(main.size()),
            ":5: warning: 'include  c.inc': fio takes the file name to be ' c.inc' (all after "
            "'include' and one character) and fails the job when no file has that name; iobench "
            "reads 'c.inc'; write 'include c.inc' to keep the file portable");
  auto bare = Lex("[a]\ninclude   # no name\n", "f.fio");
  ASSERT_FALSE(bare.ok());
  EXPECT_EQ(bare.status().message(),
            "f.fio:2:1: include needs a file name (include FILE)\ninclude   # no name\n^");
}

// fio resolves `include x.inc` in the working directory first, then next
// to the job file. With a x.inc in both places iobench read the other one,
// silently; with x.inc only in the working directory it refused the file.
TEST(JobfileInclude, WorkingDirectoryAsFioDoes) {
  TempDir d;
  fs::create_directories(d.path() + "/jobs");
  fs::create_directories(d.path() + "/cwd");
  std::string main = d.Write("jobs/main.fio", "[a]\ninclude x.inc\n");
  d.Write("cwd/x.inc", "bs=8k\n");
  char old_cwd[PATH_MAX];
  ASSERT_NE(getcwd(old_cwd, sizeof(old_cwd)), nullptr);
  ASSERT_EQ(chdir((d.path() + "/cwd").c_str()), 0);
  ParseInput in;
  in.job_files = {main};
  auto only_cwd = ParseJobs(in);
  d.Write("jobs/x.inc", "bs=16k\n");
  auto both = ParseJobs(in);
  ASSERT_EQ(chdir(old_cwd), 0);
  ASSERT_TRUE(only_cwd.ok()) << only_cwd.status().message();
  EXPECT_EQ(only_cwd->jobs.at(0).bs[0].min, 8192u);
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.status().message(),
            main + ":2:9: include 'x.inc' is ambiguous: fio reads " + d.path() +
                "/cwd/x.inc (it looks in the working directory first), iobench would read " +
                d.path() +
                "/jobs/x.inc; write the path so that it names one file\ninclude "
                "x.inc\n        ^");
  // Next to the job file only: as before.
  fs::remove(d.path() + "/cwd/x.inc");
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 16384u);
}

// fio puts the directory of the job file's name, as typed, in front of a
// relative include (and of a nested include's name as built); iobench used
// the directory realpath() gave, so a symlinked job file read the include
// next to its target. Here link/job.fio -> ../real/job.fio.
TEST(JobfileInclude, RelativeToTheNameAsGivenNotTheSymlinkTarget) {
  TempDir d;
  fs::create_directories(d.path() + "/real/sub");
  fs::create_directories(d.path() + "/link/sub");
  d.Write("real/x.inc", "bs=8k\ninclude sub/y.inc\n");
  d.Write("real/sub/y.inc", "iodepth=2\n");
  d.Write("link/x.inc", "bs=16k\ninclude sub/y.inc\n");
  d.Write("link/sub/y.inc", "iodepth=4\n");
  d.Write("real/job.fio", "[j]\ninclude x.inc\n");
  fs::create_symlink("../real/job.fio", d.path() + "/link/job.fio");
  ParseInput in;
  in.job_files = {d.path() + "/link/job.fio"};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 16384u);
  EXPECT_EQ(r->jobs.at(0).iodepth, 4u);
  // A symlinked include: its own includes resolve from the link's directory.
  fs::remove(d.path() + "/link/x.inc");
  fs::create_symlink("../real/x.inc", d.path() + "/link/x.inc");
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 8192u);
  EXPECT_EQ(r->jobs.at(0).iodepth, 4u);
}

TEST(JobfileInclude, FilesThatAreNotPlainText) {
  TempDir d;
  ParseInput in;
  in.job_files = {d.path()};
  auto r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "iobench: job file " + d.path() + " is a directory");
  in.job_files = {d.path() + "/nope.fio"};
  r = ParseJobs(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "iobench: open job file " + d.path() + "/nope.fio: No such file or directory");
  // A byte-order mark at the start is skipped.
  in.job_files = {d.Write("bom.fio", "\xEF\xBB\xBF[a]\nbs=8k\n")};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 8192u);
}

// '-' reads descriptor 0 (read(2), so that an unreadable stdin is an error):
// the test puts a pipe holding the job file there.
TEST(JobfileStdin, DashReadsStdin) {
  const std::string text = "[fromstdin]\nrw=write\n";
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  ASSERT_EQ(write(p[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(p[1]);
  const int saved = dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  ASSERT_EQ(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
  close(p[0]);
  ParseInput in;
  in.job_files = {"-"};
  auto r = ParseJobs(in);
  dup2(saved, STDIN_FILENO);
  close(saved);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).name, "fromstdin");
  EXPECT_EQ(r->jobs.at(0).rw, RwMode::kWrite);
  EXPECT_EQ(r->jobs.at(0).settings.at(0).file, "<stdin>");
}

TEST(JobfileSetOption, SweepChangesOneOption) {
  auto j = ParseOk("[a]\nioengine=io_uring\nhipri\n").jobs.at(0);
  ASSERT_TRUE(SetOption(&j, "iodepth", "128").ok());
  EXPECT_EQ(j.iodepth, 128u);
  EXPECT_EQ(j.settings.back().source, OptionSource::kCommandLine);
  ASSERT_TRUE(SetOption(&j, "bs", "64k").ok());
  EXPECT_EQ(j.bs[1].min, 65536u);
  Status st = SetOption(&j, "ioengine", "psync");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("option 'hipri' needs ioengine=io_uring or pvsync2; job '" + j.name +
                              "' uses psync"),
            std::string::npos)
      << st.message();
  EXPECT_FALSE(SetOption(&j, "iodepth", "0").ok());
}

// A --sweep value is recorded and named as set at <sweep>: its errors said
// "command line: option 'ioengine': ...", as if --ioengine= had been typed,
// and a check between two options named the swept one "(<cmdline>)".
TEST(JobfileSetOption, NamesTheSweepAsTheValuesPlace) {
  auto j = ParseOk("[a]\nioengine=null\nrate=1m\n").jobs.at(0);
  ASSERT_TRUE(SetOption(&j, "iodepth", "8").ok());
  EXPECT_EQ(j.settings.back().file, "<sweep>");
  Status st = SetOption(&j, "iodepth_batch", "default");
  EXPECT_EQ(st.message(),
            "<sweep>: option 'iodepth_batch': bad number 'default'\niodepth_batch=default\n"
            "              ^");
  st = SetOption(&j, "ioengine", "syslet-rw");
  EXPECT_EQ(st.message().rfind("<sweep>: option 'ioengine': ioengine 'syslet-rw' is an engine fio "
                               "removed",
                               0),
            0u)
      << st.message();
  st = SetOption(&j, "force_async", "1");
  EXPECT_EQ(st.message().rfind("<sweep>: option 'force_async' needs ioengine=io_uring", 0), 0u)
      << st.message();
  st = SetOption(&j, "rate_iops", "10");
  EXPECT_NE(st.message().find("rate (t.fio:3) and rate_iops (<sweep>) are mutually exclusive"),
            std::string::npos)
      << st.message();
}

// filename=a:b:c runs 3 files: --parse-only's JSON said nrfiles was the
// default 1, and its summary joined names without escaping the ':' inside one.
TEST(JobfileOutput, ParseOnlyShowsTheFilesFilenameNames) {
  auto out = ParseOk("[a]\nsize=1m\nfilename=x y\\:z:w:v\n");
  ASSERT_EQ(out.jobs.at(0).filenames.size(), 3u);
  std::string js = ParseOnlyJson(out.jobs);
  EXPECT_NE(js.find("\"nrfiles\": {\n          \"value\": \"3\",\n          \"source\": \"job\",\n"
                    "          \"file\": \"t.fio\",\n          \"line\": 3,\n"
                    "          \"set_by\": \"filename\""),
            std::string::npos)
      << js;
  EXPECT_NE(ParseOnlySummary(out.jobs).find(" files=x y\\:z:w:v runtime="), std::string::npos)
      << ParseOnlySummary(out.jobs);
  // Without filename=, nrfiles is what was written, or the default.
  js = ParseOnlyJson(ParseOk("[a]\nsize=1m\n").jobs);
  EXPECT_NE(
      js.find("\"nrfiles\": {\n          \"value\": \"1\",\n          \"source\": \"default\"\n"),
      std::string::npos)
      << js;
}

TEST(JobfileOutput, JsonHasEveryOptionWithSource) {
  auto out = ParseOk("[global]\nbs=8k\n[a]\niodepth=4\n");
  std::string js = ParseOnlyJson(out.jobs);
  EXPECT_NE(js.find("\"bs\": {\n          \"value\": \"8k\",\n          \"source\": \"global\""),
            std::string::npos)
      << js;
  EXPECT_NE(js.find("\"iodepth\": {\n          \"value\": \"4\",\n          \"source\": \"job\""),
            std::string::npos);
  EXPECT_NE(js.find("\"rw\": {\n          \"value\": \"read\",\n          \"source\": \"default\""),
            std::string::npos);
  EXPECT_EQ(ShowCmd(out.jobs), "iobench --name=a --bs=8k --iodepth=4\n");
  // [global]'s engine option is left out of the job whose engine does not
  // take it: after --name= it would be refused (and it has no effect).
  auto engines = ParseOk("[global]\nfixedbufs=1\nioengine=io_uring\n[a]\nioengine=psync\n[b]\n");
  const std::string cmd = ShowCmd(engines.jobs);
  EXPECT_EQ(cmd,
            "iobench --name=a --ioengine=io_uring --ioengine=psync --name=b --fixedbufs=1 "
            "--ioengine=io_uring\n");
  ParseInput again;
  again.cli_job_args = {"--name=a", "--ioengine=io_uring", "--ioengine=psync",
                        "--name=b", "--fixedbufs=1",       "--ioengine=io_uring"};
  EXPECT_TRUE(ParseJobs(again).ok());
  EXPECT_NE(CmdHelp("bs")->find("alias: blocksize"), std::string::npos);
  // A bare flag is 1; a bare write_bw_log an empty prefix (it said "1").
  auto bare = ParseOk("[a]\nthread\nwrite_bw_log\n");
  js = ParseOnlyJson(bare.jobs);
  EXPECT_NE(js.find("\"thread\": {\n          \"value\": \"1\","), std::string::npos) << js;
  EXPECT_NE(js.find("\"write_bw_log\": {\n          \"value\": \"\","), std::string::npos) << js;
}

// --showcmd lost the wall between job files (the jobs of the second file
// ran with the first's on the printed command line), and printed a split a
// command-line bs had overridden before that bs, which re-parsed as the
// split (fio's bs does not replace a split or a range).
TEST(JobfileOutput, ShowCmdKeepsFileWallsAndOverrides) {
  TempDir d;
  ParseInput in;
  in.job_files = {d.Write("f1.fio", "[x]\nsize=1m\n"), d.Write("f2.fio", "[y]\nsize=1m\n")};
  auto r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ShowCmd(r->jobs), "iobench --name=x --size=1m --name=y --stonewall --size=1m\n");
  in.job_files = {d.Write("s.fio", "[x]\nbssplit=4k/50:64k/50\n")};
  in.cli_job_args = {"--bs=8k"};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].min, 8192u);
  const std::string cmd = ShowCmd(r->jobs);
  EXPECT_EQ(cmd, "iobench --name=x --bs=8k\n");
  // The printed line parses to the same block size.
  ParseInput again;
  again.cli_job_args = {"--name=x", "--bs=8k"};
  auto r2 = ParseJobs(again);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->jobs.at(0).bs[0].min, 8192u);
  EXPECT_TRUE(r2->jobs.at(0).bs[0].split.empty());
  EXPECT_TRUE(r->jobs.at(0).bs[0].split.empty());
  // A job file's bsrange that a command-line bs replaced is left out too
  // (on one line the range would win); a split and a range of one job file
  // (fio's t0002 shape) both stay: the split runs, on the line as well.
  in.job_files = {d.Write("r.fio", "[x]\nbsrange=4k-8k\n")};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ShowCmd(r->jobs), "iobench --name=x --bs=8k\n");
  in.job_files = {d.Write("t.fio", "[x]\nbssplit=4k/50:8k/50\nbsrange=4k-8k\n")};
  in.cli_job_args = {};
  r = ParseJobs(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->jobs.at(0).bs[0].split.size(), 2u);
  EXPECT_EQ(ShowCmd(r->jobs), "iobench --name=x --bssplit=4k/50:8k/50 --bsrange=4k-8k\n");
  again.cli_job_args = {"--name=x", "--bssplit=4k/50:8k/50", "--bsrange=4k-8k"};
  r2 = ParseJobs(again);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->jobs.at(0).bs[0].split.size(), 2u);
}

// --showcmd printed each value as written, but a job file reads a
// section's sizes with that section's kb_base and the command line all of
// a job's with the last one: [global] size=1m then [a] kb_base=1000 is
// 1048576 bytes, and `--size=1m --kb_base=1000` re-read as 1000000. A value
// read in another base than the line's is written in the line's.
TEST(JobfileOutput, ShowCmdWritesSizesInTheLinesKbBase) {
  // An added "i" comes with a 'b': fio 3.33 reads "1mi" as "1m".
  EXPECT_EQ(SizesForKbBase("1m", 1024, 1000), "1mib");
  EXPECT_EQ(SizesForKbBase("1M", 1024, 1000), "1MiB");
  EXPECT_EQ(SizesForKbBase("4KiB,8kb,2Mi", 1000, 1024), "4KB,8kib,2M");
  EXPECT_EQ(SizesForKbBase("4k/50:1.5m/50", 1024, 1000), "4kib/50:1.5mib/50");
  EXPECT_EQ(SizesForKbBase("(1m*2)-4096", 1024, 1000), "(1mib*2)-4096");
  // Not sizes: bytes, hex, numbers inside words, a zone count; one base.
  EXPECT_EQ(SizesForKbBase("512b 0x1k file1k 4z 10%", 1024, 1000), "512b 0x1k file1k 4z 10%");
  EXPECT_EQ(SizesForKbBase("1m", 1000, 1000), "1m");

  const std::string text =
      "[global]\nsize=1m\nbs=4k\nrate=1m,2mi\noffset=(1m*2)\n"
      "[a]\nkb_base=1000\nbssplit=4k/50:8KiB/50\nrw=write:8k\nruntime=1m\n"
      "random_distribution=zoned_abs:50/1m:50/2m\nzoneskip=1m\n"
      "[b]\nkb_base=1024\nsize=1m\n";
  const std::vector<JobSpec> jobs = ParseOk(text).jobs;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].size, 1048576u);  // [global]'s own kb_base
  EXPECT_EQ(jobs[0].bs[0].split.at(0).bs, 4000u);
  const std::string cmd = ShowCmd(jobs);
  EXPECT_NE(cmd.find(" --size=1mib "), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --runtime=1m "), std::string::npos) << cmd;  // a time, kept
  ParseInput again;
  std::istringstream words(cmd.substr(cmd.find(' ') + 1));
  for (std::string w; words >> w;)
    again.cli_job_args.push_back(w[0] == '\'' ? w.substr(1, w.size() - 2) : w);
  auto r = ParseJobs(again);
  ASSERT_TRUE(r.ok()) << r.status().message() << "\n" << cmd;
  ASSERT_EQ(r->jobs.size(), 2u);
  // The line uses no spelling the two tools read differently (but the
  // job file's own 2mi, kept where the base did not change).
  for (const std::string& w : r->warnings) EXPECT_NE(w.find("'2mi'"), std::string::npos) << w;
  for (size_t i = 0; i < 2; ++i) {
    const JobSpec& a = jobs[i];
    const JobSpec& b = r->jobs[i];
    SCOPED_TRACE(a.name);
    EXPECT_EQ(b.kb_base, a.kb_base);
    EXPECT_EQ(b.size, a.size);
    EXPECT_EQ(b.offset, a.offset);
    EXPECT_EQ(b.rw_skip, a.rw_skip);
    EXPECT_EQ(b.runtime_ns, a.runtime_ns);
    EXPECT_EQ(b.zone_skip, a.zone_skip);
    for (int d = 0; d < kNumDdirs; ++d) {
      EXPECT_EQ(b.rate[d], a.rate[d]);
      EXPECT_EQ(b.bs[d].min, a.bs[d].min);
      EXPECT_EQ(b.bs[d].max, a.bs[d].max);
      ASSERT_EQ(b.bs[d].split.size(), a.bs[d].split.size());
      for (size_t k = 0; k < a.bs[d].split.size(); ++k)
        EXPECT_EQ(b.bs[d].split[k].bs, a.bs[d].split[k].bs);
      ASSERT_EQ(b.random_distribution.zones[d].size(), a.random_distribution.zones[d].size());
      for (size_t k = 0; k < a.random_distribution.zones[d].size(); ++k)
        EXPECT_EQ(b.random_distribution.zones[d][k].size_abs,
                  a.random_distribution.zones[d][k].size_abs);
    }
  }
}

// --parse-only printed the job file's index as "group=", so a file of
// stonewalled jobs showed every job in group 0 while the run reports groups
// 0, 1, 2 (as fio does: stonewall implies new_group).
TEST(JobfileOutput, SummaryShowsTheReportingGroup) {
  auto out = ParseOk("[global]\nsize=1m\n[a]\n[b]\nstonewall\n[c]\n[d]\nnew_group\n");
  std::string s = ParseOnlySummary(out.jobs);
  EXPECT_NE(s.find("a: group=0 "), std::string::npos) << s;
  EXPECT_NE(s.find("b: group=1 "), std::string::npos) << s;
  EXPECT_NE(s.find("c: group=1 "), std::string::npos) << s;
  EXPECT_NE(s.find("d: group=2 "), std::string::npos) << s;
}

}  // namespace
}  // namespace iobench::jobfile

namespace iobench::jobfile {
namespace {

// Report, log-time and clock options: values, aliases and hostile values.
TEST(JobfileReportOptions, ValuesAndAliases) {
  using U = JobSpec::UnifiedRw;
  const char* const modes[][2] = {{"none", "0"}, {"mixed", "1"}, {"both", "2"}};
  for (int m = 0; m < 3; ++m) {
    for (const char* v : modes[m]) {
      const auto out = ParseOk(std::string("[a]\nunified_rw_reporting=") + v + "\n");
      ASSERT_EQ(out.jobs.size(), 1u);
      EXPECT_EQ(out.jobs[0].unified_rw_reporting, static_cast<U>(m)) << v;
    }
  }
  const auto out = ParseOk(
      "[a]\nsignificant_figures=7\nstats=0\ndisk_util=0\nbwavgtime=250\niopsavgtime=1000\n"
      "log_unix_epoch=1\nlog_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n"
      "clocksource=gettimeofday\n");
  ASSERT_EQ(out.jobs.size(), 1u);
  const JobSpec& j = out.jobs[0];
  EXPECT_EQ(j.significant_figures, 7);
  EXPECT_FALSE(j.stats);
  EXPECT_FALSE(j.disk_util);
  EXPECT_EQ(j.bw_avg_ms, 250u);
  EXPECT_EQ(j.iops_avg_ms, 1000u);
  EXPECT_TRUE(j.log_unix_epoch);
  EXPECT_TRUE(j.log_alternate_epoch);
  EXPECT_EQ(j.log_alternate_epoch_clock_id, 1);
  EXPECT_EQ(j.clocksource, JobSpec::ClockSourceChoice::kGettimeofday);
  const JobSpec d = ParseOk("[a]\n").jobs.at(0);
  EXPECT_EQ(d.unified_rw_reporting, U::kNone);
  EXPECT_EQ(d.significant_figures, 4);
  EXPECT_TRUE(d.stats);
  EXPECT_TRUE(d.disk_util);
  EXPECT_EQ(d.bw_avg_ms, 500u);
  EXPECT_EQ(d.iops_avg_ms, 500u);
  EXPECT_EQ(d.clocksource, JobSpec::ClockSourceChoice::kDefault);
  EXPECT_EQ(d.max_latency_ns[0], 0u);
  EXPECT_EQ(d.max_latency_ns[1], 0u);
  // max_latency: per direction, microseconds without a unit (fio).
  const JobSpec m = ParseOk("[a]\nmax_latency=10,2ms\n").jobs.at(0);
  EXPECT_EQ(m.max_latency_ns[0], 10000u);
  EXPECT_EQ(m.max_latency_ns[1], 2000000u);
  const JobSpec one = ParseOk("[a]\nmax_latency=250\n").jobs.at(0);
  for (int dd = 0; dd < kNumDdirs; ++dd) EXPECT_EQ(one.max_latency_ns[dd], 250000u);
}

TEST(JobfileReportOptions, HostileValuesNameTheOptionAndLine) {
  auto err = [](const std::string& line) { return ParseErr("[a]\nsize=1m\n" + line + "\n"); };
  EXPECT_NE(err("unified_rw_reporting=3")
                .find("unified_rw_reporting '3': expected none, mixed, both, 0, 1 or 2"),
            std::string::npos);
  for (const char* bad :
       {"significant_figures=0", "significant_figures=11", "bwavgtime=0", "iopsavgtime=-1",
        "bwavgtime=abc", "stats=2", "clocksource=tsc", "log_alternate_epoch_clock_id=-1",
        "max_latency=-5", "max_latency=fast"}) {
    const std::string e = err(bad);
    const std::string name = std::string(bad).substr(0, std::string(bad).find('='));
    EXPECT_NE(e.find(name), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("t.fio:3"), std::string::npos) << bad << ": " << e;
  }
}

// file_service_type=TYPE:N (fio): N I/Os per file before switching; N is a
// whole number >= 1; the distributions stay refused by name.
TEST(JobfileOptions, FileServiceTypeSwitchCount) {
  auto j = ParseOk("[a]\nfile_service_type=random:4\n").jobs.at(0);
  EXPECT_EQ(j.file_service_type, FileServiceType::kRandom);
  EXPECT_EQ(j.file_service_nr, 4u);
  j = ParseOk("[a]\nfile_service_type=roundrobin\n").jobs.at(0);
  EXPECT_EQ(j.file_service_nr, 1u);
  for (const char* bad : {"roundrobin:0", "roundrobin:", "random:x", "random:-1"})
    EXPECT_NE(ParseErr(std::string("[a]\nfile_service_type=") + bad + "\n")
                  .find("N must be a whole number"),
              std::string::npos)
        << bad;
  EXPECT_NE(ParseErr("[a]\nfile_service_type=zipf:1.2\n").find("zipf is a fio mode"),
            std::string::npos);
}

}  // namespace
// --cmdhelp lists each category once, as docs/options.md does (it printed a
// heading at each change of category in table order: cpu:, engine:, ...
// twice), and starts with the first heading, not a blank line.
TEST(JobfileTest, CmdHelpListsEachCategoryOnce) {
  auto all = CmdHelp("");
  ASSERT_TRUE(all.ok());
  EXPECT_NE(all->substr(0, 1), "\n");
  std::vector<std::string> headings;
  size_t options = 0;
  for (size_t at = 0; at < all->size();) {
    size_t nl = all->find('\n', at);
    if (nl == std::string::npos) nl = all->size();
    const std::string line = all->substr(at, nl - at);
    at = nl + 1;
    if (line.rfind("  ", 0) == 0)
      ++options;
    else if (!line.empty())
      headings.push_back(line);
  }
  std::vector<std::string> unique = headings;
  std::sort(unique.begin(), unique.end());
  EXPECT_EQ(std::unique(unique.begin(), unique.end()), unique.end());
  EXPECT_EQ(options, OptionTable().size());
  EXPECT_EQ(*CmdHelp("all"), *all);
}

}  // namespace iobench::jobfile
