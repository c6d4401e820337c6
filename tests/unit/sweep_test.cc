#include "sweep/sweep.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include "jobfile/units.h"
#include "report/table.h"
#include "table_fixtures.h"

namespace iobench::sweep {
namespace {

using iobench::testing::MakeDoc;
using iobench::testing::MakeJob;

// Size suffixes as the jobs read them with `kb_base`: jobfile's rule, the
// callback main.cc passes (the sweep has no rule of its own).
SizeUnit Kb(uint32_t kb_base) {
  return [kb_base](const std::string& suffix) -> Result<uint64_t> {
    const std::optional<uint64_t> m = jobfile::SizeMultiplier(suffix, kb_base);
    if (!m) return Status::Invalid("bad size suffix '" + suffix + "'");
    return *m;
  };
}

// ParseSweepArg with fio's default kb_base=1024 unless told otherwise.
Result<SweepAxis> Parse(const std::string& arg, const SizeUnit& unit = Kb(1024)) {
  return ParseSweepArg(arg, unit);
}

std::vector<std::string> Values(const std::string& arg) {
  auto r = Parse(arg);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->values : std::vector<std::string>{};
}

std::string Error(const std::vector<std::string>& args) {
  auto r = ExpandSweeps(args, nullptr, nullptr, Kb(1024));
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(SweepParseTest, ListsAndRanges) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Values("ioengine=psync,libaio,io_uring"), (V{"psync", "libaio", "io_uring"}));
  EXPECT_EQ(Values("iodepth=1..128:x2"), (V{"1", "2", "4", "8", "16", "32", "64", "128"}));
  EXPECT_EQ(Values("numjobs=1..8:+1"), (V{"1", "2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_EQ(Values("numjobs=1..4"), (V{"1", "2", "3", "4"}));
  EXPECT_EQ(Values("setra=0..256:+64"), (V{"0", "64", "128", "192", "256"}));
  // The end is kept only when the steps land on it.
  EXPECT_EQ(Values("iodepth=1..100:x2"), (V{"1", "2", "4", "8", "16", "32", "64"}));
  EXPECT_EQ(Values("iodepth=3..30:x3"), (V{"3", "9", "27"}));
  // Ranges and single values mix in one list.
  EXPECT_EQ(Values("iodepth=1,2,8..32:x2,20000"), (V{"1", "2", "8", "16", "32", "20000"}));
  // Sizes keep their unit style.
  EXPECT_EQ(Values("bs=4k..64k:x2"), (V{"4k", "8k", "16k", "32k", "64k"}));
  EXPECT_EQ(Values("bs=512..2k:x2"), (V{"512", "1k", "2k"}));
  EXPECT_EQ(Values("size=1m..2g:x1024"), (V{"1m", "1g"}));
  // Not numeric: a literal, not a bad range.
  EXPECT_EQ(Values("filename=../a,../b"), (V{"../a", "../b"}));
  // `\,` is a comma inside a value (fio's bs=4k,8k means read,write).
  EXPECT_EQ(Values("bs=4k\\,8k,16k"), (V{"4k,8k", "16k"}));
}

TEST(SweepParseTest, RangesStopBefore2To64) {
  // 1..16777215t is 1..2^64-2^40: x3 passes 3^40 < 2^64, then 3^41 wrapped.
  auto v = Values("foo=1..16777215t:x3");
  ASSERT_EQ(v.size(), 41u);
  EXPECT_EQ(v.back(), "12157665459056928801");  // 3^40
  // Adding: 2^63, then 2^64 would wrap to 0.
  EXPECT_EQ(Values("foo=8388608t..16777215t:+8388608t"), (std::vector<std::string>{"8388608t"}));
}

TEST(SweepParseTest, BadSyntaxSaysWhatIsWrong) {
  EXPECT_EQ(Error({"iodepth"}), "--sweep iodepth: expected KEY=V1,V2,... or KEY=A..B:xF");
  EXPECT_EQ(Error({"=1,2"}), "--sweep =1,2: empty key before '='");
  EXPECT_EQ(Error({"io depth=1"}),
            "--sweep io depth=1: key 'io depth' may hold only letters, digits and '_'");
  EXPECT_EQ(Error({"iodepth="}), "--sweep iodepth=: no values after '='");
  EXPECT_EQ(Error({"iodepth=1,,2"}),
            "--sweep iodepth=1,,2: empty value (two commas in a row, or a trailing comma)");
  EXPECT_EQ(Error({"iodepth=1,2,"}),
            "--sweep iodepth=1,2,: empty value (two commas in a row, or a trailing comma)");
  // A control character in a value (it split the terse record of its point
  // in two); a tab is allowed, as in a job file.
  // The message shows it escaped, on one line.
  EXPECT_EQ(Error({"name=x,y\nz"}),
            "--sweep name=x,y\\nz: control character (newline) in a value: it is refused, as "
            "it is in a job file");
  EXPECT_NE(Error({"name=x,y\x01"}).find("control character (byte 1)"), std::string::npos);
  // A tab stays a character of the value, as in a job file.
  auto tab = ParseSweepArg("name=x,a\tb");
  ASSERT_TRUE(tab.ok()) << tab.status().message();
  EXPECT_EQ(tab->values.at(1), "a\tb");
  EXPECT_EQ(Error({"iodepth=128..1:x2"}),
            "--sweep iodepth=128..1:x2: range '128..1:x2': start is greater than end");
  EXPECT_EQ(Error({"iodepth=1..8:x1"}),
            "--sweep iodepth=1..8:x1: range '1..8:x1': a multiplying step must be x2 or more");
  EXPECT_EQ(Error({"iodepth=1..8:+0"}),
            "--sweep iodepth=1..8:+0: range '1..8:+0': step +0 never reaches the end");
  EXPECT_EQ(Error({"iodepth=1..8:y2"}),
            "--sweep iodepth=1..8:y2: range '1..8:y2': step must be +N (add) or xN (multiply), "
            "e.g. 1..128:x2");
  EXPECT_EQ(Error({"iodepth=1..8:"}), "--sweep iodepth=1..8:: range '1..8:': empty step after ':'");
  EXPECT_EQ(Error({"iodepth=0..8:x2"}),
            "--sweep iodepth=0..8:x2: range '0..8:x2': a multiplying range cannot start at 0");
  EXPECT_EQ(Error({"iodepth=1..abc"}),
            "--sweep iodepth=1..abc: range '1..abc': abc is not a range bound: a bound is a whole "
            "number with an optional size suffix (4k, 4K, 4KiB, read as the jobs read sizes, "
            "kb_base included); list other values (times, fractions) one by one: 1s,2s,3s");
  EXPECT_EQ(Error({"iodepth=..8"}),
            "--sweep iodepth=..8: range '..8': the start bound is missing (a range is A..B, e.g. "
            "1..8)");
  EXPECT_EQ(Error({"iodepth=1..:x2"}),
            "--sweep iodepth=1..:x2: range '1..:x2': the end bound is missing (a range is A..B, "
            "e.g. 1..8)");
  EXPECT_EQ(Error({"iodepth=1,2,1"}), "--sweep iodepth=1,2,1: value '1' appears twice");
  EXPECT_EQ(Error({"iodepth=1,2", "iodepth=4"}),
            "--sweep iodepth=4: key 'iodepth' is already swept; give all its values in one "
            "--sweep");
  EXPECT_EQ(Error({"iodepth=1..1000", "numjobs=1..1001"}),
            "--sweep: more than 1000000 points; narrow the ranges");
  EXPECT_EQ(Error({"iodepth=1..1000000"}),
            "--sweep iodepth=1..1000000: range '1..1000000' gives more than 100000 values");
}

TEST(SweepParseTest, AnAliasIsTheSameKey) {
  // timeout is runtime's alias: sweeping both gave a meaningless 2x2 product.
  auto canonical = [](const std::string& k) { return k == "timeout" ? "runtime" : k; };
  auto r = ExpandSweeps({"timeout=10ms,20ms", "runtime=30ms,40ms"}, canonical);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "--sweep runtime=30ms,40ms: key 'runtime' is already swept (as 'timeout'); give all "
            "its values in one --sweep");
  EXPECT_TRUE(ExpandSweeps({"timeout=10ms", "iodepth=1"}, canonical).ok());
}

TEST(SweepParseTest, AnAliasIsStoredUnderTheOptionName) {
  // --sweep blocksize=... gave points keyed "blocksize": --table-cols=bs was
  // refused and a compare against a bs= sweep matched nothing.
  auto canonical = [](const std::string& k) { return k == "blocksize" ? "bs" : k; };
  auto r = ExpandSweeps({"blocksize=4k,8k", "iodepth=1"}, canonical);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].Label(), "bs=4k iodepth=1");
  // A hook may still name the key as it was typed.
  auto cmd = ExpandHookCommand("echo {blocksize} {bs}", (*r)[1], nullptr, canonical);
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  EXPECT_EQ(*cmd, "echo 8k 8k");
}

TEST(SweepParseTest, BoundsPastTwoToThe64AreTooLarge) {
  auto r = Parse("iodepth=1..18446744073709551616:+1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "--sweep iodepth=1..18446744073709551616:+1: range '1..18446744073709551616:+1': "
            "18446744073709551616 is too large (the largest bound is 18446744073709551615, "
            "2^64-1)");
  r = Parse("iodepth=1..16:x99999999999999999999");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("step 99999999999999999999 is too large"), std::string::npos)
      << r.status().message();
  // 2^64-1 itself is a bound: the range ends before it would pass 2^64.
  r = Parse("iodepth=9223372036854775808..18446744073709551615:x2");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->values, std::vector<std::string>{"9223372036854775808"});
}

TEST(SweepParseTest, OneValueSpelledTwiceIsRefused) {
  // "1" and "01" are both iodepth 1: the point ran twice.
  auto read_as = [](const std::string& key, const std::string& v) {
    return key == "iodepth" ? std::to_string(std::stoll(v)) : v;
  };
  auto r = ExpandSweeps({"iodepth=1,01"}, nullptr, read_as);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "--sweep iodepth=1,01: values '1' and '01' are the same iodepth; the point would run "
            "twice");
  EXPECT_TRUE(ExpandSweeps({"iodepth=1,2", "filename=01,1"}, nullptr, read_as).ok());
}

TEST(SweepExpandTest, CartesianProductFirstKeySlowest) {
  auto r = ExpandSweeps({"iodepth=1,2", "force_async=0,1", "setra=0,64"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 8u);
  std::vector<std::string> labels;
  for (const auto& p : *r) labels.push_back(p.Label());
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "iodepth=1 force_async=0 setra=0", "iodepth=1 force_async=0 setra=64",
                        "iodepth=1 force_async=1 setra=0", "iodepth=1 force_async=1 setra=64",
                        "iodepth=2 force_async=0 setra=0", "iodepth=2 force_async=0 setra=64",
                        "iodepth=2 force_async=1 setra=0", "iodepth=2 force_async=1 setra=64"}));
  ASSERT_NE((*r)[5].Find("setra"), nullptr);
  EXPECT_EQ(*(*r)[5].Find("setra"), "64");
  EXPECT_EQ((*r)[5].Find("bs"), nullptr);
}

TEST(SweepExpandTest, NoSweepIsOnePlainPoint) {
  auto r = ExpandSweeps({});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_TRUE((*r)[0].values.empty());
  EXPECT_EQ((*r)[0].Label(), "");
}

// A stand-in for jobfile::SetOption: a few typed fields, with errors.
Status FakeSetter(JobSpec* job, const std::string& name, const std::string& value,
                  std::vector<std::string>* = nullptr) {
  auto number = [&](uint32_t* field) -> Status {
    char* end = nullptr;
    const unsigned long v = std::strtoul(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0')
      return Status::Invalid("option " + name + ": '" + value + "' is not a number");
    *field = static_cast<uint32_t>(v);
    return Status::Ok();
  };
  if (name == "iodepth") return number(&job->iodepth);
  if (name == "numjobs") return number(&job->numjobs);
  if (name == "force_async") return number(&job->force_async);
  if (name == "ioengine") {
    job->ioengine = value;
    job->settings.push_back({name, value, OptionSource::kCommandLine, "<cmdline>", 0});
    return Status::Ok();
  }
  if (name == "direct") {
    job->direct = value == "1";
    return Status::Ok();
  }
  return Status::Invalid("unknown option " + name);
}
bool FakeIsJobOption(const std::string& name) {
  return name == "iodepth" || name == "numjobs" || name == "force_async" || name == "ioengine" ||
         name == "direct" || name == "bs" || name == "rw";
}

TEST(SweepApplyTest, SetsJobOptionsAndSkipsHookKeys) {
  JobSpec a, b;
  a.name = "a";
  b.name = "b";
  SweepPoint p{{{"setra", "128"}, {"iodepth", "32"}, {"ioengine", "io_uring"}}};
  auto r = ApplyPoint({a, b}, p, FakeSetter, FakeIsJobOption);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  for (const auto& j : *r) {
    EXPECT_EQ(j.iodepth, 32u);
    EXPECT_EQ(j.ioengine, "io_uring");
    // ioengine first (engine options check it when set), recorded by the
    // setter only once; iodepth recorded by ApplyPoint (the fake setter does
    // not); setra nowhere.
    ASSERT_EQ(j.settings.size(), 2u);
    EXPECT_EQ(j.settings[0].name, "ioengine");
    EXPECT_EQ(j.settings[1].name, "iodepth");
    EXPECT_EQ(j.settings[1].value, "32");
    EXPECT_EQ(j.settings[1].file, "<sweep>");
    EXPECT_FALSE(j.IsSet("setra"));
  }
  EXPECT_EQ((*r)[1].name, "b");
}

TEST(SweepApplyTest, SetterErrorNamesTheSweep) {
  JobSpec a;
  auto r = ApplyPoint({a}, SweepPoint{{{"iodepth", "lots"}}}, FakeSetter, FakeIsJobOption);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "--sweep iodepth=lots: option iodepth: 'lots' is not a number");
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

// jobfile::SetOption names a value's place "<sweep>", as a job file line's
// is "job.fio:3": the argument says it better, so the error read "--sweep
// ioengine=x: command line: ..." (then "<sweep>: ...") twice over.
TEST(SweepApplyTest, SetterPlaceGivesWayToTheArgument) {
  const OptionSetter placed = [](JobSpec*, const std::string& name, const std::string& value,
                                 std::vector<std::string>*) {
    return Status::Invalid("<sweep>: option '" + name + "': bad number '" + value + "'\n" + name +
                           "=" + value + "\n" + std::string(name.size() + 1, ' ') + "^");
  };
  auto r = ApplyPoint({JobSpec{}}, SweepPoint{{{"iodepth", "lots"}}}, placed, FakeIsJobOption);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "--sweep iodepth=lots: option 'iodepth': bad number 'lots'\niodepth=lots\n        ^");
  // Only a leading place: one in the middle is the setter's own words.
  const OptionSetter other = [](JobSpec*, const std::string&, const std::string&,
                                std::vector<std::string>*) {
    return Status::Invalid("job 'a': rate (<sweep>: x) and <sweep>: y");
  };
  r = ApplyPoint({JobSpec{}}, SweepPoint{{{"iodepth", "1"}}}, other, FakeIsJobOption);
  EXPECT_EQ(r.status().message(), "--sweep iodepth=1: job 'a': rate (<sweep>: x) and <sweep>: y");
}

TEST(SweepHookTest, Substitution) {
  SweepPoint p{{{"iodepth", "8"}, {"setra", "64"}, {"sched", "mq deadline"}}};
  auto cmd = ExpandHookCommand("blockdev --setra {} /dev/nvme0n1 # qd {iodepth} {sched}", p,
                               FakeIsJobOption);
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  // {} is the first key that is not a job option; odd values are quoted.
  EXPECT_EQ(*cmd, "blockdev --setra 64 /dev/nvme0n1 # qd 8 'mq deadline'");
  // Without the predicate, {} is the first key.
  EXPECT_EQ(*ExpandHookCommand("x {}", p), "x 8");
  // Shell braces stay.
  EXPECT_EQ(*ExpandHookCommand("echo ${HOME} {setra} | awk '{print $1}' {", p),
            "echo ${HOME} 64 | awk '{print $1}' {");
  auto bad = ExpandHookCommand("echo {setrq}", p);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "--sweep-cmd 'echo {setrq}': {setrq} names no --sweep key (swept: iodepth, setra, "
            "sched)");
  auto none = ExpandHookCommand("echo {}", SweepPoint{});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "--sweep-cmd 'echo {}': {} needs a --sweep key to take its value from");
}

// The keys a hook takes values of: a key that is no job option and is not
// among them reaches nothing (a typo), and the session refuses it.
TEST(SweepHookTest, UsedKeys) {
  SweepPoint p{{{"iodepth", "8"}, {"setra", "64"}, {"sched", "none"}}};
  std::vector<std::string> used = {"stale"};
  ASSERT_TRUE(ExpandHookCommand("blockdev --setra {} x", p, FakeIsJobOption, nullptr, &used).ok());
  EXPECT_EQ(used, std::vector<std::string>({"setra"}));
  ASSERT_TRUE(
      ExpandHookCommand("echo {sched} {iodepth} {sched}", p, FakeIsJobOption, nullptr, &used).ok());
  EXPECT_EQ(used, std::vector<std::string>({"iodepth", "sched"}));
  ASSERT_TRUE(ExpandHookCommand("sync", p, FakeIsJobOption, nullptr, &used).ok());
  EXPECT_TRUE(used.empty());
}

TEST(SweepHookTest, OutputIsCapturedNotPrinted) {
  SweepPoint p{{{"setra", "128"}, {"iodepth", "4"}}};
  std::string log;
  int code = -1;
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  Status st =
      RunHook("echo ra={}; echo qd={iodepth} >&2; printf tail", p, &log, FakeIsJobOption, &code);
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(code, 0);
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
  EXPECT_EQ(log,
            "# point: setra=128 iodepth=4\n$ echo ra=128; echo qd=4 >&2; printf tail\n"
            "ra=128\nqd=4\ntail\n");
}

TEST(SweepHookTest, FailureStopsWithExitCode) {
  SweepPoint p{{{"setra", "64"}}};
  std::string log;
  int code = 0;
  Status st = RunHook("echo cannot set readahead on {} >&2; exit 3", p, &log, nullptr, &code);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(code, 3);
  EXPECT_EQ(st.code(), Status::Code::kIoError);
  EXPECT_EQ(st.message(),
            "--sweep-cmd 'echo cannot set readahead on 64 >&2; exit 3' failed with exit code 3 at "
            "point setra=64; the sweep stops here:\ncannot set readahead on 64");
  EXPECT_EQ(log,
            "# point: setra=64\n$ echo cannot set readahead on 64 >&2; exit 3\n"
            "cannot set readahead on 64\n# exit code 3\n");
  // Death by a signal reads as 128 + signal number, like a shell.
  st = RunHook("kill -TERM $$", p, nullptr, nullptr, &code);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(code, 128 + 15);
  // Not a command at all: the shell's 127.
  st = RunHook("/nonexistent/iobench-hook {}", p, nullptr, nullptr, &code);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(code, 127);
}

TEST(SweepHookTest, ChildGetsCleanSignalMask) {
  // The run core may block signals for a signalfd; hooks must not inherit that.
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &term, &old), 0);
  int code = 0;
  Status st = RunHook("kill -TERM $$; echo still here", SweepPoint{}, nullptr, nullptr, &code);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(code, 128 + SIGTERM);
}

TEST(SweepCombineTest, OneDocumentWithPoints) {
  iobench::testing::DirFigures f;
  f.iops = 1000;
  f.bw_bytes = 4096000;
  nlohmann::json d1 = MakeDoc({MakeJob("a", {}, "read", f), MakeJob("b", {}, "read", f)});
  d1["jobs"][1]["groupid"] = 1;
  d1["global options"] = {{"bs", "4k"}};
  nlohmann::json d2 = MakeDoc({MakeJob("a", {}, "read", f), MakeJob("b", {}, "read", f)});
  d2["jobs"][0]["iobench"] = {{"cpu_per_io_us", 2.5}};
  SweepPoint p1{{{"iodepth", "1"}, {"setra", "0"}}}, p2{{{"iodepth", "2"}, {"setra", "0"}}};
  std::vector<std::string> logs = {"log1\n", "log2\n"};
  nlohmann::json doc = CombineSweepResults({{p1, d1}, {p2, d2}}, &logs);
  ASSERT_EQ(doc["jobs"].size(), 4u);
  EXPECT_EQ(doc["global options"]["bs"], "4k");
  EXPECT_EQ(doc["jobs"][0]["iobench"]["point"], (nlohmann::json{{"iodepth", "1"}, {"setra", "0"}}));
  EXPECT_EQ(doc["jobs"][2]["iobench"]["point"]["iodepth"], "2");
  EXPECT_EQ(doc["jobs"][2]["iobench"]["cpu_per_io_us"], 2.5);
  EXPECT_EQ(doc["jobs"][0]["groupid"], 0);
  EXPECT_EQ(doc["jobs"][1]["groupid"], 1);
  EXPECT_EQ(doc["jobs"][2]["groupid"], 2);
  EXPECT_EQ(doc["jobs"][3]["groupid"], 2);
  EXPECT_EQ(doc["iobench"]["sweep"]["keys"], (nlohmann::json{"iodepth", "setra"}));
  EXPECT_EQ(doc["iobench"]["sweep"]["points"], 2);
  EXPECT_EQ(doc["iobench"]["sweep"]["hook_log"], "log1\nlog2\n");
}

TEST(SweepCombineTest, TopLevelSpeaksForEveryPoint) {
  // Ctrl-C in the last point, a libaio point's warning, a point's own
  // top-level "point": the first point's top level said none of it.
  iobench::testing::DirFigures f;
  f.iops = 1000;
  auto point_doc = [&](bool interrupted, int exit_code, std::vector<std::string> warnings,
                       const std::string& depth) {
    nlohmann::json d = MakeDoc({MakeJob("a", {}, "read", f)});
    d["iobench"] = {{"interrupted", interrupted},
                    {"partial", interrupted},
                    {"exit_code", exit_code},
                    {"point", {{"iodepth", depth}}},
                    {"context", {{"kernel", "6.1"}, {"warnings", warnings}}}};
    return d;
  };
  SweepPoint p1{{{"iodepth", "1"}}}, p2{{{"iodepth", "2"}}}, p3{{{"iodepth", "4"}}};
  nlohmann::json doc = CombineSweepResults({{p1, point_doc(false, 0, {"w1"}, "1")},
                                            {p2, point_doc(false, 1, {"w1", "w2"}, "2")},
                                            {p3, point_doc(true, 0, {}, "4")}});
  EXPECT_EQ(doc["iobench"]["interrupted"], true);
  EXPECT_EQ(doc["iobench"]["partial"], true);  // was point 1's false
  EXPECT_EQ(doc["iobench"]["exit_code"], 1);
  EXPECT_EQ(doc["iobench"]["point"], nlohmann::json::object());
  EXPECT_EQ(doc["iobench"]["context"]["warnings"], (nlohmann::json{"w1", "w2"}));
  EXPECT_EQ(doc["iobench"]["context"]["kernel"], "6.1");
}

TEST(SweepCombineTest, TargetsOfEveryPoint) {
  // --sweep filename=/dev/shm/f,/tmp/x/f1: the combined context kept only
  // the first point's target (tmpfs), and the table captioned both rows so.
  iobench::testing::DirFigures f;
  f.iops = 1000;
  const nlohmann::json shm = {{"path", "/dev/shm/f"}, {"fs_type", "tmpfs"}, {"device", ""}};
  const nlohmann::json disk = {{"path", "/tmp/x/f1"}, {"fs_type", "ext4"}, {"device", "vda"}};
  auto point_doc = [&](const nlohmann::json& target) {
    nlohmann::json d = MakeDoc({MakeJob("a", {}, "read", f)});
    d["iobench"] = {{"context", {{"targets", {target}}, {"warnings", nlohmann::json::array()}}}};
    return d;
  };
  SweepPoint p1{{{"filename", "/dev/shm/f"}, {"iodepth", "1"}}};
  SweepPoint p2{{{"filename", "/dev/shm/f"}, {"iodepth", "2"}}};
  SweepPoint p3{{{"filename", "/tmp/x/f1"}, {"iodepth", "1"}}};
  nlohmann::json doc =
      CombineSweepResults({{p1, point_doc(shm)}, {p2, point_doc(shm)}, {p3, point_doc(disk)}});
  const nlohmann::json& targets = doc["iobench"]["context"]["targets"];
  ASSERT_EQ(targets.size(), 2u) << targets.dump();
  EXPECT_EQ(targets[0]["path"], "/dev/shm/f");
  EXPECT_EQ(targets[0]["points"], (nlohmann::json{PointToJson(p1), PointToJson(p2)}));
  EXPECT_EQ(targets[1]["fs_type"], "ext4");
  EXPECT_EQ(targets[1]["points"], nlohmann::json::array({PointToJson(p3)}));
}

TEST(SweepCombineTest, DiskUtilOfEveryPoint) {
  // The top-level disk_util was the first point's: a point on tmpfs (no
  // disks) first, and the reads of vda at the next points were nowhere.
  iobench::testing::DirFigures f;
  f.iops = 1000;
  auto disk = [](const std::string& name, uint64_t reads, double util) {
    return nlohmann::json{{"name", name},     {"read_ios", reads}, {"write_ios", 0},
                          {"read_merges", 1}, {"write_merges", 0}, {"read_ticks", reads / 2},
                          {"write_ticks", 0}, {"in_queue", reads}, {"util", util}};
  };
  nlohmann::json d1 = MakeDoc({MakeJob("a", {}, "read", f)});
  nlohmann::json d2 = d1, d3 = d1;
  // json::array(): `= {x}` with one json x is a copy of x under clang and
  // a one-element array under g++ (nlohmann's brace-init).
  d2["disk_util"] = nlohmann::json::array({disk("vda", 256, 96.0)});
  d3["disk_util"] = nlohmann::json::array({disk("vda", 100, 40.0), disk("sdb", 8, 1.5)});
  SweepPoint p1{{{"filename", "/dev/shm/f"}}}, p2{{{"filename", "/tmp/f"}}},
      p3{{{"filename", "/mnt/f"}}};
  nlohmann::json doc = CombineSweepResults({{p1, d1}, {p2, d2}, {p3, d3}});
  ASSERT_TRUE(doc.contains("disk_util")) << doc.dump();
  const nlohmann::json& du = doc["disk_util"];
  ASSERT_EQ(du.size(), 2u) << du.dump();
  EXPECT_EQ(du[0]["name"], "vda");
  EXPECT_EQ(du[0]["read_ios"], 356);
  EXPECT_EQ(du[0]["read_merges"], 2);
  EXPECT_EQ(du[0]["read_ticks"], 178);
  EXPECT_EQ(du[0]["in_queue"], 356);
  EXPECT_EQ(du[0]["util"], 96.0);  // the busiest point's
  EXPECT_EQ(du[1], disk("sdb", 8, 1.5));
  // Each point's own figures stay readable.
  const nlohmann::json& per = doc["iobench"]["sweep"]["disk_util"];
  ASSERT_EQ(per.size(), 2u);
  // PointToJson is an ordered_json: json == ordered_json is ambiguous under
  // clang (C++20 reversed operators).
  EXPECT_EQ(per[0]["point"], nlohmann::json(PointToJson(p2)));
  EXPECT_EQ(per[1]["disk_util"], d3["disk_util"]);
}

TEST(SweepParseTest, RangeBoundsKeepTheirStyle) {
  // size=1M..4M:x2 was written back as 1m,2m,4m; 4KiB..16KiB was no range.
  auto a = Parse("size=1M..4M:x2");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"1M", "2M", "4M"}));
  a = Parse("bs=4KiB..16KiB:x2");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"4KiB", "8KiB", "16KiB"}));
  a = Parse("iodepth= 1, 2 ");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->values, (std::vector<std::string>{"1", "2"}));
  // A time range is refused saying what a bound is (it said "bad time unit").
  a = Parse("runtime=1s..3s");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("range '1s..3s': 1s is not a range bound"), std::string::npos)
      << a.status().message();
  // A duplicate in a long list quotes the value and where, not the list.
  std::string list = "iodepth=";
  for (int i = 1; i <= 20000; ++i) list += std::to_string(i) + ",";
  list += "5";
  a = Parse(list);
  ASSERT_FALSE(a.ok());
  EXPECT_LT(a.status().message().size(), 300u);
  EXPECT_NE(a.status().message().find("value '5' appears twice (values 5 and 20001)"),
            std::string::npos)
      << a.status().message();
}

TEST(SweepParseTest, RangeBoundsReadAsTheJobsReadSizes) {
  // fio's default kb_base=1024 reads 4KiB as 4000: the range stepped from
  // 4096 (4KiB, 8096, ...), and 4000..4KiB made a duplicate of itself.
  auto a = Parse("bs=4KiB..16000:+4000");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"4KiB", "8KiB", "12KiB", "16KiB"}));
  a = Parse("bs=4000..4KiB:+96");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"4KiB"}));
  // kb_base=1000 (what main.cc's jobfile::SizeMultiplier says): k is 1000.
  const SizeUnit kb1000 = Kb(1000);
  a = Parse("bs=4000..12k:+4k", kb1000);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"4k", "8k", "12k"}));
  a = Parse("bs=4KiB..8192:+4096", kb1000);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->values, (std::vector<std::string>{"4KiB", "8KiB"}));
  // The unit's refusal (jobs that read k differently) is the range's error.
  SizeUnit mixed = [](const std::string&) -> Result<uint64_t> {
    return Status::Invalid("read differently");
  };
  a = Parse("bs=4k..16k:x2", mixed);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(),
            "--sweep bs=4k..16k:x2: range '4k..16k:x2': 4k: read differently");
  EXPECT_TRUE(Parse("bs=4096..16384:x2", mixed).ok());
  // Without the jobs' rule no suffix is read (the sweep kept a copy of it).
  a = ParseSweepArg("bs=4k..16k:x2");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("size suffix 'k' with no size rules"), std::string::npos)
      << a.status().message();
  EXPECT_TRUE(ParseSweepArg("bs=4096..16384:x2").ok());
}

TEST(SweepRepeatTest, MedianWithMinMax) {
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(Median({}), 0);
  std::vector<ojson> runs;
  for (double iops : {1000.0, 3000.0, 2000.0}) {
    iobench::testing::DirFigures f;
    f.iops = iops;
    f.bw_bytes = iops * 4096;
    f.clat_p99_ns = iops;  // so that the median run is identifiable
    runs.push_back(MakeDoc({MakeJob("j", {{"iodepth", "4"}}, "read", f)}));
  }
  auto r = MergeRepeats(runs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& job = (*r)["jobs"][0];
  EXPECT_EQ(job["read"]["iops"], 2000.0);
  EXPECT_EQ(job["read"]["bw_bytes"], 2000 * 4096);
  EXPECT_EQ(job["read"]["clat_ns"]["percentile"]["99.000000"], 2000.0);
  const auto& rep = job["iobench"]["repeat"];
  EXPECT_EQ(rep["n"], 3);
  EXPECT_EQ(rep["min"]["read"]["iops"], 1000.0);
  EXPECT_EQ(rep["max"]["read"]["iops"], 3000.0);
  EXPECT_DOUBLE_EQ(rep["min"]["read"]["bw"].get<double>(), 1000.0 * 4096 / 1048576);
  EXPECT_DOUBLE_EQ(rep["max"]["read"]["clat_p99"].get<double>(), 3.0);  // µs
  EXPECT_FALSE(rep["min"].contains("write"));
  EXPECT_EQ(rep["min"]["job"]["usr_cpu"], 10.0);
  EXPECT_EQ(job["iobench"]["point"]["iodepth"], "4");

  runs[1]["jobs"].push_back(runs[1]["jobs"][0]);
  auto bad = MergeRepeats(runs);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "--repeat: run 2 has a different number of jobs than run 1");
  runs[1]["jobs"].erase(1);
  runs[2]["jobs"][0]["jobname"] = "other";
  bad = MergeRepeats(runs);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "--repeat: job 1 of run 3 is not the same job as in run 1");
  EXPECT_FALSE(MergeRepeats({}).ok());
}

TEST(SweepRepeatTest, CountsAndBinsComeFromTheMedianRun) {
  // json+'s clat_ns.N and bins, the min/max and the job's ctx came from run
  // 1 while total_ios was the median: fio_jsonplus_clat2csv read another run.
  auto runs_of = [](const std::vector<int64_t>& totals) {
    std::vector<ojson> runs;
    for (int64_t n : totals) {
      iobench::testing::DirFigures f;
      f.iops = static_cast<double>(n);
      ojson d = MakeDoc({MakeJob("j", {}, "read", f)});
      ojson& rd = d["jobs"][0]["read"];
      rd["total_ios"] = n;
      for (const char* lat : {"clat_ns", "lat_ns"}) {
        rd[lat]["N"] = n;
        rd[lat]["max"] = n * 10;
        rd[lat]["bins"] = {{"1000", n - 1}, {"2000", 1}};
      }
      d["jobs"][0]["ctx"] = n + 7;
      runs.push_back(std::move(d));
    }
    return runs;
  };
  auto r = MergeRepeats(runs_of({178622, 247913, 267610}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& rd = (*r)["jobs"][0]["read"];
  EXPECT_EQ(rd["total_ios"], 247913);
  EXPECT_EQ(rd["clat_ns"]["N"], 247913);
  EXPECT_EQ(rd["lat_ns"]["N"], 247913);
  EXPECT_EQ(rd["clat_ns"]["bins"]["1000"], 247912);
  EXPECT_EQ(rd["clat_ns"]["max"], 2479130);
  EXPECT_EQ((*r)["jobs"][0]["ctx"], 247913 + 7);
  // Even N: the lower middle run.
  r = MergeRepeats(runs_of({40, 10, 30, 20}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["jobs"][0]["read"]["clat_ns"]["N"], 20);
  EXPECT_EQ((*r)["jobs"][0]["read"]["total_ios"], 25);  // the median itself
}

TEST(SweepRepeatTest, IntegerFieldsStayIntegersForAnEvenCount) {
  // --repeat=2 wrote "total_ios":454990.500000: fio's schema has integers
  // there. The mean of the two middle runs is rounded to the nearest.
  std::vector<ojson> runs;
  for (int64_t n : {10, 11}) {
    iobench::testing::DirFigures f;
    f.iops = static_cast<double>(n) + 0.25;
    ojson d = MakeDoc({MakeJob("j", {}, "read", f)});
    ojson& rd = d["jobs"][0]["read"];
    rd["total_ios"] = static_cast<uint64_t>(n);
    rd["io_bytes"] = static_cast<uint64_t>(n * 4096 + 1);
    rd["io_kbytes"] = static_cast<uint64_t>(n * 4 + 1);
    rd["runtime"] = static_cast<uint64_t>(n);
    rd["bw"] = static_cast<uint64_t>(n);
    rd["clat_ns"]["percentile"]["99.000000"] = static_cast<uint64_t>(n);
    rd["clat_ns"]["mean"] = static_cast<double>(n);
    d["jobs"][0]["job_runtime"] = static_cast<uint64_t>(n);
    runs.push_back(std::move(d));
  }
  auto r = MergeRepeats(runs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& job = (*r)["jobs"][0];
  const auto& rd = job["read"];
  for (const char* f : {"total_ios", "io_bytes", "io_kbytes", "runtime", "bw"})
    EXPECT_TRUE(rd[f].is_number_integer()) << f << " = " << rd[f].dump();
  EXPECT_EQ(rd["total_ios"], 11);  // 10.5, to the nearest
  EXPECT_EQ(rd["io_bytes"], 43009);
  EXPECT_EQ(rd["clat_ns"]["percentile"]["99.000000"], 11);
  EXPECT_TRUE(rd["clat_ns"]["percentile"]["99.000000"].is_number_integer());
  EXPECT_TRUE(job["job_runtime"].is_number_integer());
  EXPECT_EQ(job["job_runtime"], 11);
  // Floats stay floats, with their fraction.
  EXPECT_TRUE(rd["iops"].is_number_float());
  EXPECT_DOUBLE_EQ(rd["iops"].get<double>(), 10.75);
  EXPECT_TRUE(rd["clat_ns"]["mean"].is_number_float());
  EXPECT_DOUBLE_EQ(rd["clat_ns"]["mean"].get<double>(), 10.5);
  EXPECT_NE(ojson(*r).dump().find("\"total_ios\":11,"), std::string::npos);
}

TEST(SweepRepeatTest, ACutRunIsLeftOutAndMarksThePoint) {
  // Ctrl-C during run 3 of 3: runs 1 and 2 give the median, and the point
  // says it was interrupted (it copied run 1's "interrupted": false).
  std::vector<ojson> runs;
  for (double iops : {1000.0, 3000.0, 10.0}) {
    iobench::testing::DirFigures f;
    f.iops = iops;
    nlohmann::json d = MakeDoc({MakeJob("j", {}, "read", f)});
    d["iobench"] = {{"interrupted", false}, {"partial", false}, {"exit_code", 0}};
    runs.push_back(std::move(d));
  }
  runs[2]["iobench"] = {{"interrupted", true}, {"partial", true}, {"exit_code", 143}};
  runs[2]["jobs"][0]["iobench"] = {{"interrupted", true}};
  auto r = MergeRepeats(runs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& job = (*r)["jobs"][0];
  EXPECT_EQ(job["read"]["iops"], 2000.0);
  EXPECT_EQ(job["iobench"]["repeat"]["n"], 2);
  EXPECT_EQ(job["iobench"]["repeat"]["min"]["read"]["iops"], 1000.0);
  EXPECT_EQ(job["iobench"]["interrupted"], true);
  EXPECT_EQ((*r)["iobench"]["interrupted"], true);
  EXPECT_EQ((*r)["iobench"]["partial"], true);  // was run 1's false
  EXPECT_EQ((*r)["iobench"]["exit_code"], 143);
  // Whole runs only: nothing is marked.
  runs.pop_back();
  r = MergeRepeats(runs);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["iobench"]["interrupted"], false);
  EXPECT_EQ((*r)["iobench"]["partial"], false);
  EXPECT_FALSE((*r)["jobs"][0]["iobench"].contains("interrupted"));
}

// --compare of a sweep over two keys: a table per value of the first, its
// value in the first header cell (seed 004's `io_uring`), a row per value of
// the second. Over --sweep iodepth=1,2 --sweep force_async=0,1 that was a
// table headed `1` with rows `0` and `1`: numbers that name no option are
// written KEY=VALUE, as the sweep's own tables write their columns.
TEST(SweepCompareTest, NumbersInSplitTablesNameTheirKey) {
  iobench::testing::DirFigures f;
  f.iops = 100;
  f.bw_bytes = 409600;
  auto doc = [&](const std::string& k0, const std::vector<std::string>& v0, const std::string& k1,
                 const std::vector<std::string>& v1) {
    std::vector<nlohmann::json> jobs;
    for (const auto& a : v0)
      for (const auto& b : v1) jobs.push_back(MakeJob("j", {{k0, a}, {k1, b}}, "read", f));
    return MakeDoc(jobs, {k0, k1});
  };
  TableOptions o;
  o.caption = false;
  o.base_label = "s.json";
  o.new_label = "s.json";
  // The document compared with itself (QA's --compare s.json s.json).
  auto itself = [&](const nlohmann::json& d) {
    auto r = RenderCompare(d, d, o);
    return r.ok() ? *r : r.status().ToString();
  };
  EXPECT_EQ(itself(doc("iodepth", {"1", "32"}, "force_async", {"0", "1"})),
            "iodepth=1       s.json   s.json   delta\n"
            "force_async=0      100      100    0.00\n"
            "force_async=1      100      100    0.00\n"
            "\n"
            "iodepth=32      s.json   s.json   delta\n"
            "force_async=0      100      100    0.00\n"
            "force_async=1      100      100    0.00\n");
  // Names stay bare (seed 004's shape); a size is a number that names no
  // option too.
  EXPECT_EQ(itself(doc("ioengine", {"io_uring"}, "bs", {"4k", "64k"})),
            "io_uring   s.json   s.json   delta\n"
            "bs=4k         100      100    0.00\n"
            "bs=64k        100      100    0.00\n");
  EXPECT_EQ(itself(doc("iodepth", {"8"}, "rw", {"read", "randread"})),
            "iodepth=8   s.json   s.json   delta\n"
            "read           100      100    0.00\n"
            "randread       100      100    0.00\n");
  // One key: the header names it, and its values stay bare under it.
  std::vector<nlohmann::json> one = {MakeJob("j", {{"iodepth", "1"}}, "read", f),
                                     MakeJob("j", {{"iodepth", "2"}}, "read", f)};
  EXPECT_EQ(itself(MakeDoc(one, {"iodepth"})),
            "iodepth   s.json   s.json   delta\n"
            "1            100      100    0.00\n"
            "2            100      100    0.00\n");
}

}  // namespace
}  // namespace iobench::sweep
