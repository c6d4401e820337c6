// Statistics maths: percentiles against exact order statistics, exact
// histogram merges, fio's group_reporting rules, distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "report_testdata.h"
#include "stats/summary.h"

namespace iobench {
namespace {

// Log-uniform samples from ~100 ns to ~10 s: every histogram group is used.
std::vector<uint64_t> Samples(size_t n, uint64_t seed) {
  testdata::Lcg rng(seed);
  std::vector<uint64_t> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double e = 2.0 + 8.0 * static_cast<double>(rng.Next() % 1000000) / 1e6;
    v.push_back(static_cast<uint64_t>(std::pow(10.0, e)));
  }
  return v;
}

TEST(StatsPercentileTest, WithinOnePercentOfSortedSamples) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    const auto v = Samples(200000, seed);
    Histogram h;
    for (uint64_t x : v) h.Add(x);
    auto sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const auto& list = DefaultPercentiles();
    const auto got = Percentiles(h, list);
    ASSERT_EQ(got.size(), list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      // The exact p-th percentile: the smallest sample with at least p% of
      // the samples at or below it.
      const size_t rank =
          static_cast<size_t>(std::ceil(list[i] / 100.0 * static_cast<double>(sorted.size())));
      const double exact = static_cast<double>(sorted[std::max<size_t>(rank, 1) - 1]);
      const double rel = std::fabs(static_cast<double>(got[i].value_ns) - exact) / exact;
      EXPECT_LE(rel, 0.01) << "p" << list[i] << " exact " << exact << " got " << got[i].value_ns;
      EXPECT_EQ(got[i].percentile, list[i]);
    }
  }
}

// The bucket a percentile lands in when p/100 * N is (nearly) a whole number
// follows fio 3.33's long double arithmetic, so a report built from the same
// histogram prints fio's value. fio 3.33 with percentile_list=0.1:0.2:...
// over 9000 psync reads took the long double bucket in each of 11 such cases
// (p0.1: 660 ns where the double form gives 652).
TEST(StatsPercentileTest, ThresholdRoundsAsFio) {
  Histogram h;
  for (int i = 0; i < 6246; ++i) h.Add(10);
  for (int i = 0; i < 4164; ++i) h.Add(20);  // N = 10410: 60 % is 6246 + 4e-16 in long double
  EXPECT_EQ(Percentile(h, 60), 20u);
  Histogram f;
  for (int i = 0; i < 9; ++i) f.Add(10);
  for (int i = 0; i < 8991; ++i) f.Add(20);  // N = 9000: 0.1 % is just above 9
  EXPECT_EQ(Percentile(f, 0.1), 20u);
  Histogram g;
  for (int i = 0; i < 21978; ++i) g.Add(10);
  for (int i = 0; i < 22; ++i) g.Add(20);  // N = 22000: 99.9 % is just above 21978
  EXPECT_EQ(Percentile(g, 99.9), 20u);
}

TEST(StatsPercentileTest, SmallValuesAreExactAndEmptyGivesNothing) {
  Histogram h;
  EXPECT_TRUE(Percentiles(h, DefaultPercentiles()).empty());
  EXPECT_EQ(Percentile(h, 50), 0u);
  for (uint64_t x = 1; x <= 100; ++x) h.Add(x);
  EXPECT_EQ(Percentile(h, 50), 50u);
  EXPECT_EQ(Percentile(h, 99), 99u);
  EXPECT_EQ(Percentile(h, 100), 100u);
  EXPECT_EQ(Percentile(h, 1), 1u);
}

TEST(StatsPercentileTest, DefaultListAndSpecList) {
  const std::vector<double> want = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                    80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  EXPECT_EQ(DefaultPercentiles(), want);
  JobSpec spec;
  EXPECT_EQ(PercentileListFor(spec), want);
  spec.percentile_list = {99.9, 50, 0, 101, 90};
  EXPECT_EQ(PercentileListFor(spec), (std::vector<double>{50, 90, 99.9}));
  EXPECT_EQ(PercentilePrecision(want), 2);
  EXPECT_EQ(PercentilePrecision({99.999}), 3);
}

// fio 3.33 labels percentiles with as many decimals as the list needs, from
// none (percentile_list=50:99: "50th", "99th"; 50:99.9: "50.0th"; 25.5:50:
// "25.5th"; 99.9999999: seven). iobench used to print at least two.
TEST(StatsPercentileTest, PrecisionAsFio) {
  EXPECT_EQ(PercentilePrecision({50, 99}), 0);
  EXPECT_EQ(PercentilePrecision({50, 99.9}), 1);
  EXPECT_EQ(PercentilePrecision({25.5, 50}), 1);
  EXPECT_EQ(PercentilePrecision({50, 99.999}), 3);
  EXPECT_EQ(PercentilePrecision({99.9999999}), 7);
  EXPECT_EQ(PercentilePrecision({}), 0);
}

// A typed list's precision (the parser's count) wins over the values'.
TEST(StatsPercentileTest, PrecisionForSpec) {
  JobSpec spec;
  EXPECT_EQ(PercentilePrecisionFor(spec), 2);  // fio's default list
  spec.percentile_list = {50, 99.9};
  EXPECT_EQ(PercentilePrecisionFor(spec), 1);
  spec.percentile_precision = 2;  // typed as 50:99.90
  EXPECT_EQ(PercentilePrecisionFor(spec), 2);
}

TEST(StatsMergeTest, MergedHistogramsEqualHistogramOfUnion) {
  const auto a = Samples(50000, 7), b = Samples(30000, 8);
  Histogram ha, hb, hu;
  for (uint64_t x : a) ha.Add(x), hu.Add(x);
  for (uint64_t x : b) hb.Add(x), hu.Add(x);
  ThreadStats ta, tb;
  for (uint64_t x : a) ta.dir[0].clat_hist.Add(x), ta.dir[0].clat.Add(x);
  for (uint64_t x : b) tb.dir[0].clat_hist.Add(x), tb.dir[0].clat.Add(x);
  MergeThreadStats(ta, tb);
  for (unsigned i = 0; i < Histogram::kNr; ++i)
    ASSERT_EQ(ta.dir[0].clat_hist.counts[i], hu.counts[i]) << "bucket " << i;
  EXPECT_EQ(ta.dir[0].clat.n, a.size() + b.size());
  EXPECT_EQ(ta.dir[0].clat.min,
            std::min(*std::min_element(a.begin(), a.end()), *std::min_element(b.begin(), b.end())));
  EXPECT_EQ(ta.dir[0].clat.max,
            std::max(*std::max_element(a.begin(), a.end()), *std::max_element(b.begin(), b.end())));
  EXPECT_EQ(Percentiles(ta.dir[0].clat_hist, DefaultPercentiles()).back().value_ns,
            Percentiles(hu, DefaultPercentiles()).back().value_ns);
}

TEST(StatsMergeTest, CountersSummedRuntimeLongestFirstErrorKept) {
  ThreadStats a, b;
  a.dir[0].ios = 10;
  a.dir[0].bytes = 40960;
  a.dir[0].runtime_ns = 5;
  b.dir[0].ios = 7;
  b.dir[0].bytes = 28672;
  b.dir[0].runtime_ns = 9;
  b.dir[1].eagain = 3;
  a.issued[0] = 10;
  b.issued[0] = 7;
  a.depth.depth[0] = 4;
  b.depth.depth[0] = 6;
  a.cpu.ctx = 1;
  b.cpu.ctx = 2;
  a.submit_calls = 3;
  b.submit_calls = 4;
  a.reap_syscalls = 2;
  b.reap_syscalls = 5;
  b.first_error = ErrorInfo{5, "/x", 4096, Ddir::kWrite, "EIO"};
  b.total_errors = 2;
  MergeThreadStats(a, b);
  EXPECT_EQ(a.dir[0].ios, 17u);
  EXPECT_EQ(a.dir[0].bytes, 69632u);
  EXPECT_EQ(a.dir[0].runtime_ns, 9u);
  EXPECT_EQ(a.dir[1].eagain, 3u);
  EXPECT_EQ(a.issued[0], 17u);
  EXPECT_EQ(a.depth.depth[0], 10u);
  EXPECT_EQ(a.cpu.ctx, 3u);
  EXPECT_EQ(a.submit_calls, 7u);
  EXPECT_EQ(a.reap_syscalls, 7u);
  EXPECT_EQ(a.first_error.err, 5);
  EXPECT_EQ(a.first_error.file, "/x");
  EXPECT_EQ(a.total_errors, 2u);
  ThreadStats c;
  c.first_error = ErrorInfo{28, "/y", 0, Ddir::kRead, "ENOSPC"};
  MergeThreadStats(a, c);
  EXPECT_EQ(a.first_error.err, 5) << "the first error is kept";
}

// As fio's update_runtime: a member that did no I/O in a direction adds no
// runtime to it (a read-only rw=rw clone's 492 ms became the group's write
// runtime; fio shows the writer's 1 ms).
TEST(StatsMergeTest, ADirectionsRuntimeComesFromMembersThatDidIoInIt) {
  ThreadStats reader, writer;
  reader.dir[0].ios = 64;
  reader.dir[0].bytes = 64 * 65536;
  reader.dir[0].runtime_ns = 492'000'000;
  reader.dir[1].runtime_ns = 492'000'000;  // its rw allowed writes; it did none
  writer.dir[1].ios = 4;
  writer.dir[1].bytes = 4 * 65536;
  writer.dir[1].runtime_ns = 1'000'000;
  writer.dir[0].runtime_ns = 1'000'000;
  ThreadStats group;
  MergeThreadStats(group, reader);
  MergeThreadStats(group, writer);
  EXPECT_EQ(group.dir[0].runtime_ns, 492'000'000u);
  EXPECT_EQ(group.dir[1].runtime_ns, 1'000'000u);
  // The same through MergeGroup, whose base is the first member.
  JobResult r, w;
  r.stats = reader;
  r.runtime_ms = 492;
  w.stats = writer;
  w.runtime_ms = 1;
  const JobRecord rec = MergeGroup({&r, &w});
  EXPECT_EQ(DirRuntimeMs(rec.result, 0), 492u);
  EXPECT_EQ(DirRuntimeMs(rec.result, 1), 1u);
}

// cmdprio's clat per priority: as fio, a job's priority merges into the
// group's entry of the same value, and a value not seen yet is appended.
TEST(StatsMergeTest, PriosMergeByValue) {
  auto prios = [](std::initializer_list<std::pair<int, uint64_t>> entries) {
    ThreadStats t;
    t.dir[0].prio_split = true;
    for (const auto& [value, lat] : entries) {
      PrioStat& p = t.dir[0].prios.emplace_back();
      p.value = static_cast<uint16_t>(value);
      p.lat.Add(lat);
      p.hist.Add(lat);
    }
    return t;
  };
  ThreadStats a = prios({{0x4007, 100}, {0x2001, 200}});
  MergeThreadStats(a, prios({{0x4007, 300}, {0x6002, 400}, {0x2001, 600}}));
  const std::vector<PrioStat>& m = a.dir[0].prios;
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].value, 0x4007);
  EXPECT_EQ(m[0].lat.n, 2u);
  EXPECT_EQ(m[0].lat.max, 300u);
  EXPECT_EQ(m[1].value, 0x2001);
  EXPECT_EQ(m[1].lat.n, 2u);
  EXPECT_EQ(m[1].lat.min, 200u);
  EXPECT_EQ(m[1].lat.max, 600u);
  EXPECT_EQ(m[2].value, 0x6002);
  EXPECT_EQ(m[2].lat.n, 1u);
  EXPECT_EQ(m[2].hist.counts[Histogram::ValueToIndex(400)], 1u);
  ThreadStats none;  // a job without cmdprio adds nothing
  MergeThreadStats(a, none);
  EXPECT_EQ(a.dir[0].prios.size(), 3u);
  EXPECT_TRUE(a.dir[0].prio_split);
  // Unless the group splits by priority: then its I/Os count whole under its
  // own priority (fio's single-prio source), and a direction without I/O adds
  // nothing.
  none.dir[0].clat.Add(700);
  none.dir[0].clat_hist.Add(700);
  none.dir[0].lat.Add(900);
  none.dir[0].lat_hist.Add(900);
  const OwnPrio own{0x6002, false};
  MergeThreadStats(a, none, &own);
  ASSERT_EQ(a.dir[0].prios.size(), 3u);
  EXPECT_EQ(a.dir[0].prios[2].lat.n, 2u);
  EXPECT_EQ(a.dir[0].prios[2].lat.max, 700u);
  EXPECT_TRUE(a.dir[1].prio_split);
  EXPECT_TRUE(a.dir[1].prios.empty());
  const OwnPrio idle_total{0x6000, true};  // lat_percentiles: the total latency
  MergeThreadStats(a, none, &idle_total);
  ASSERT_EQ(a.dir[0].prios.size(), 4u);
  EXPECT_EQ(a.dir[0].prios[3].value, 0x6000);
  EXPECT_EQ(a.dir[0].prios[3].lat.max, 900u);
  EXPECT_EQ(a.dir[0].prios[3].hist.counts[Histogram::ValueToIndex(900)], 1u);
}

TEST(StatsMergeTest, SampleStats) {
  const SampleStat s = SampleStatFromRates({{500, 10}, {1000, 20}, {1500, 30}, {2000, 40}});
  EXPECT_EQ(s.min, 10u);
  EXPECT_EQ(s.max, 40u);
  EXPECT_EQ(s.samples, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 25.0);
  EXPECT_NEAR(s.stddev, std::sqrt(500.0 / 3.0), 1e-9);
  EXPECT_EQ(SampleStatFromRates({}).samples, 0u);
  // fio's pure sum for group_reporting.
  const SampleStat t = SampleStatFromRates({{500, 100}, {1000, 100}});
  const SampleStat sum = SumSampleStats(s, t);
  EXPECT_EQ(sum.min, 110u);
  EXPECT_EQ(sum.max, 140u);
  EXPECT_DOUBLE_EQ(sum.mean, 125.0);
  EXPECT_EQ(sum.samples, 6u);
  EXPECT_NEAR(sum.stddev, std::sqrt(500.0 / 5.0), 1e-9);
  EXPECT_EQ(SumSampleStats(SampleStat{}, t).mean, t.mean);
}

// fio's bandwidth samples are whole KiB/s (bytes * 1000 / ms / 1024 in
// integers), and bw_min/max/mean/dev come from them: a mean taken from the
// fractional KiB/s of bytes/s samples came out above the max (one sample of
// 102390.625 KiB/s printed min=max=102390, avg=102390.62).
TEST(StatsMergeTest, BwSampleStatIsOverWholeKibSamples) {
  const SampleStat one = BwSampleStat({{700, 102390 * 1024 + 640}});
  EXPECT_EQ(one.min, 102390u);
  EXPECT_EQ(one.max, 102390u);
  EXPECT_DOUBLE_EQ(one.mean, 102390.0);
  EXPECT_EQ(one.stddev, 0.0);
  EXPECT_EQ(one.samples, 1u);
  // The mean of two whole numbers ends in .0 or .5, and never exceeds max.
  const SampleStat two =
      BwSampleStat({{500, 1414392 * 1024 + 1000}, {1000, 1786372 * 1024 + 1023}});
  EXPECT_EQ(two.min, 1414392u);
  EXPECT_EQ(two.max, 1786372u);
  EXPECT_DOUBLE_EQ(two.mean, 1600382.0);
  EXPECT_NEAR(two.stddev, (1786372.0 - 1414392.0) / std::sqrt(2.0), 1e-6);
  const SampleStat top = BwSampleStat({{500, 1023}, {1000, 2047}});
  EXPECT_EQ(top.max, 1u);
  EXPECT_LE(top.mean, static_cast<double>(top.max));
  EXPECT_DOUBLE_EQ(top.mean, 0.5);
  // IOPS samples are whole I/Os per second already (fio's is_kb=false):
  // SampleStatFromRates leaves them as they are.
  EXPECT_DOUBLE_EQ(SampleStatFromRates({{500, 1023}, {1000, 2047}}).mean, 1535.0);
}

// group_reporting adds the members' KiB/s stats, each from whole KiB/s
// samples, as fio's sum_stat(pure_sum): two members of 1.5 KiB/s each have
// min=max=1+1, not 3072 B/s / 1024 = 3.
TEST(StatsGroupTest, MergedBwIsTheSumOfWholeKibStats) {
  std::vector<JobResult> jobs = {testdata::MakeJob("a", 0, 0, 2, 1, 100, 0),
                                 testdata::MakeJob("a", 0, 1, 2, 2, 100, 0)};
  for (auto& j : jobs) j.stats.dir[0].bw_samples = {{500, 1536}, {1000, 1536}};
  const JobRecord r = MergeGroup({&jobs[0], &jobs[1]});
  EXPECT_EQ(r.bw[0].min, 2u);
  EXPECT_EQ(r.bw[0].max, 2u);
  EXPECT_DOUBLE_EQ(r.bw[0].mean, 2.0);
  EXPECT_EQ(r.bw[0].samples, 4u);
  EXPECT_EQ(RecordForJob(jobs[0]).bw[0].max, 1u);
}

// A group's files and notes: each once, in the order the members give them
// (e2e many_files_scale.sh: 400,000 files merged in a second).
TEST(StatsGroupTest, MergedFilesAndNotesKeepOrderWithoutRepeats) {
  std::vector<JobResult> jobs = {testdata::MakeJob("a", 0, 0, 3, 1, 100, 0),
                                 testdata::MakeJob("a", 0, 1, 3, 2, 100, 0),
                                 testdata::MakeJob("a", 0, 2, 3, 3, 100, 0)};
  jobs[0].files = {"f", "a.0.0"};
  jobs[1].files = {"a.1.0", "f"};
  jobs[2].files = {"a.2.0", "a.1.0", "f"};
  jobs[0].notes = {"n1"};
  jobs[1].notes = {"n2", "n1"};
  jobs[2].notes = {"n1", "n3"};
  const JobRecord r = MergeGroup({&jobs[0], &jobs[1], &jobs[2]});
  EXPECT_EQ(r.result.files, (std::vector<std::string>{"f", "a.0.0", "a.1.0", "a.2.0"}));
  EXPECT_EQ(r.result.notes, (std::vector<std::string>{"n1", "n2", "n3"}));
}

// A group's verify note sums its members' counts. Two clones that each
// found one bad block have the same note; it must not collapse into one
// clone's counts presented as the group's.
TEST(StatsGroupTest, GroupVerifyNoteSumsTheMembers) {
  std::vector<JobResult> jobs = {testdata::MakeJob("a", 0, 0, 3, 1, 100, 0),
                                 testdata::MakeJob("a", 0, 1, 3, 2, 100, 0),
                                 testdata::MakeJob("a", 0, 2, 3, 3, 100, 0)};
  for (size_t i = 0; i < 2; ++i) {
    VerifyTally& t = jobs[i].verify_tally;
    t.set = true;
    t.verified = 255;
    t.failed = 1;
    t.interval = 4096;
    jobs[i].notes = {"before", VerifyTallyNote(t), "after " + std::to_string(i)};
  }
  EXPECT_EQ(jobs[0].notes[1],
            "verify: 0 blocks written, 255 verified, 0 skipped, 1 failed (verify_interval 4096 "
            "bytes)");
  jobs[2].notes = {"third"};  // did not verify
  const JobRecord r = MergeGroup({&jobs[0], &jobs[1], &jobs[2]});
  EXPECT_EQ(r.result.notes,
            (std::vector<std::string>{"before",
                                      "verify: 0 blocks written, 510 verified, 0 skipped, 2 "
                                      "failed (verify_interval 4096 bytes)",
                                      "after 0", "after 1", "third"}));
  EXPECT_EQ(r.result.verify_tally.verified, 510u);

  // Members with different intervals, the first one without verify.
  jobs[1].verify_tally.interval = 8192;
  jobs[1].verify_tally.unread = 3;
  jobs[1].notes = {VerifyTallyNote(jobs[1].verify_tally)};
  const JobRecord r2 = MergeGroup({&jobs[2], &jobs[0], &jobs[1]});
  EXPECT_EQ(r2.result.notes,
            (std::vector<std::string>{"third", "before", "after 0",
                                      "verify: 0 blocks written, 510 verified, 0 skipped, 2 "
                                      "failed, 3 not checked (the read failed) (verify_interval "
                                      "differs between the jobs)"}));
  // A job on its own keeps its note as it is.
  EXPECT_EQ(RecordForJob(jobs[0]).result.notes, jobs[0].notes);
}

// A group's "Laying out" note sums its members' files and sizes: numjobs=252
// with a file of 1 MiB each said "1 file / 1MiB" (the members' identical
// notes collapsed into one).
TEST(StatsGroupTest, GroupLayoutNoteSumsTheMembers) {
  std::vector<JobResult> jobs = {testdata::MakeJob("a", 0, 0, 3, 1, 100, 0),
                                 testdata::MakeJob("a", 0, 1, 3, 2, 100, 0),
                                 testdata::MakeJob("a", 0, 2, 3, 3, 100, 0)};
  for (size_t i = 0; i < 2; ++i) {
    jobs[i].layout_tally = {1, 1 << 20};
    jobs[i].notes = {"before", LayoutTallyNote(jobs[i].layout_tally), "after"};
  }
  EXPECT_EQ(jobs[0].notes[1], "Laying out IO file (1 file / 1MiB)");
  jobs[2].layout_tally = {2, 3 << 19};  // two files of 768 KiB
  jobs[2].notes = {LayoutTallyNote(jobs[2].layout_tally)};
  EXPECT_EQ(jobs[2].notes[0], "Laying out IO files (2 files / total 1.5MiB)");
  const JobRecord r = MergeGroup({&jobs[0], &jobs[1], &jobs[2]});
  EXPECT_EQ(r.result.notes,
            (std::vector<std::string>{"before", "Laying out IO files (4 files / total 3.5MiB)",
                                      "after"}));
  EXPECT_EQ(r.result.layout_tally.files, 4u);
  // The first member laid out nothing (its file was there): the note goes last.
  jobs[0].layout_tally = {};
  jobs[0].notes = {"before"};
  const JobRecord r2 = MergeGroup({&jobs[0], &jobs[1]});
  EXPECT_EQ(r2.result.notes,
            (std::vector<std::string>{"before", "after", "Laying out IO file (1 file / 1MiB)"}));
  // A job on its own keeps its note as it is.
  EXPECT_EQ(RecordForJob(jobs[1]).result.notes, jobs[1].notes);
}

TEST(StatsGroupTest, MergeGroupFollowsFioRules) {
  std::vector<JobResult> jobs = {testdata::MakeJob("a", 0, 0, 3, 1, 100, 0),
                                 testdata::MakeJob("a", 0, 1, 3, 2, 200, 0),
                                 testdata::MakeJob("a", 0, 2, 3, 3, 300, 0)};
  jobs[1].runtime_ms = 3000;
  jobs[1].stats.dir[0].runtime_ns = 3000000000ull;
  jobs[1].elapsed_ms = 3100;
  jobs[1].error = 5;
  jobs[1].error_message = "first";
  jobs[2].error = 28;
  jobs[2].error_message = "second";
  jobs[2].notes = {"n2"};
  jobs[0].notes = {"n2"};
  const JobRecord r = MergeGroup({&jobs[0], &jobs[1], &jobs[2]});
  EXPECT_EQ(r.members, 3u);
  EXPECT_EQ(r.result.name, "a");
  EXPECT_EQ(r.result.stats.dir[0].ios, 600u);
  EXPECT_EQ(r.result.stats.dir[0].bytes, 600u * 4096);
  EXPECT_EQ(r.result.runtime_ms, 3000u);
  EXPECT_EQ(r.result.elapsed_ms, 3100u);
  EXPECT_EQ(DirRuntimeMs(r.result, 0), 3000u);
  EXPECT_EQ(r.result.error, 5);
  EXPECT_EQ(r.result.error_message, "first");
  EXPECT_EQ(r.result.notes, std::vector<std::string>{"n2"});
  EXPECT_EQ(r.cpu_runtime_ms, 2001u + 3000u + 2001u);
  EXPECT_EQ(r.cpu_runtime_us, (2001u + 3000u + 2001u) * 1000);  // made without the us
  double mean_sum = 0;
  uint64_t min_sum = 0;
  for (const auto& j : jobs) {
    const SampleStat s = BwSampleStat(j.stats.dir[0].bw_samples);
    mean_sum += s.mean;
    min_sum += s.min;
  }
  EXPECT_DOUBLE_EQ(r.bw[0].mean, mean_sum);
  EXPECT_EQ(r.bw[0].min, min_sum);
  EXPECT_EQ(r.bw[0].samples, 12u);
  EXPECT_EQ(r.helpers.iowq_sys_us, 3u * 412000);

  GroupResult g;
  g.jobs = jobs;
  for (auto& j : g.jobs) j.spec.group_reporting = true;
  EXPECT_EQ(RecordsForGroup(g).size(), 1u);
  for (auto& j : g.jobs) j.spec.group_reporting = false;
  EXPECT_EQ(RecordsForGroup(g).size(), 3u);
}

// fio's __show_run_stats: a job with group_reporting joins the record
// before it; one without starts a record. So group_reporting on some jobs of
// a group merges only runs of them (and the job just before a run).
TEST(StatsGroupTest, GroupReportingIsDecidedPerJob) {
  auto group = [](std::vector<std::pair<const char*, bool>> jobs) {
    GroupResult g;
    for (auto [name, gr] : jobs) {
      g.jobs.push_back(testdata::MakeJob(name, 0, 0, 1, 1, 10, 0));
      g.jobs.back().spec.group_reporting = gr;
    }
    return g;
  };
  auto shape = [](const GroupResult& g) {
    std::string s;
    for (const JobRecord& r : RecordsForGroup(g))
      s += r.result.name + "x" + std::to_string(r.members) + "(" + r.options_from->name + ") ";
    return s;
  };
  // [a] numjobs=2 group_reporting, then [b] without: a (2 jobs), b.
  EXPECT_EQ(shape(group({{"a", true}, {"a", true}, {"b", false}})), "ax2(a) bx1(b) ");
  // [d] numjobs=2 group_reporting=0, then [e] with it: d.0 alone, d.1 + e
  // named d, listing e's options.
  EXPECT_EQ(shape(group({{"d", false}, {"d", false}, {"e", true}})), "dx1(d) dx2(e) ");
  // A stats=0 job is in no record and does not split one.
  GroupResult g = group({{"a", true}, {"s", true}, {"a", true}});
  g.jobs[1].spec.stats = false;
  EXPECT_EQ(shape(g), "ax2(a) ");
}

TEST(StatsGroupTest, GroupTotals) {
  GroupResult g;
  g.id = 3;
  g.jobs = {testdata::MakeJob("a", 3, 0, 2, 1, 1000, 0),
            testdata::MakeJob("a", 3, 1, 2, 2, 500, 0)};
  g.jobs[1].stats.dir[0].runtime_ns = 1000000000ull;  // 1000 ms
  const auto records = RecordsForGroup(g);
  const GroupTotals t = ComputeGroupTotals(g, records);
  EXPECT_EQ(t.id, 3);
  EXPECT_EQ(t.io_bytes[0], 1500u * 4096);
  EXPECT_EQ(t.max_run_ms[0], 2001u);
  EXPECT_EQ(t.min_run_ms[0], 1000u);
  EXPECT_EQ(t.agg_bw[0], 1500ull * 4096 * 1000 / 2001);
  EXPECT_EQ(t.min_bw[0], 500ull * 4096 * 1000 / 1000 < 1000ull * 4096 * 1000 / 2001
                             ? 500ull * 4096
                             : 1000ull * 4096 * 1000 / 2001);
  EXPECT_EQ(t.max_bw[0], std::max<uint64_t>(500ull * 4096, 1000ull * 4096 * 1000 / 2001));
  EXPECT_EQ(t.max_run_ms[1], 0u) << "no writes: the WRITE line is not printed";
  EXPECT_EQ(BandwidthBytes(g.jobs[0], 0), 1000ull * 4096 * 1000 / 2001);
  EXPECT_DOUBLE_EQ(Iops(g.jobs[1], 0), 500.0);
}

TEST(StatsDistributionTest, LatencyBuckets) {
  ThreadStats ts;
  auto add = [&](uint64_t ns) { ts.dir[0].clat_hist.Add(ns); };
  add(1);              // nsec "2"
  add(500);            // nsec "750": 500 <= x < 750
  add(999);            // nsec "1000"
  add(1500);           // usec "2"
  add(60000);          // usec "100"
  add(3000000);        // msec "4"
  add(1500000000ull);  // msec "2000"
  add(2500000000ull);  // msec ">=2000"
  const LatencyDistribution d = ComputeLatencyDistribution(ts);
  EXPECT_DOUBLE_EQ(d.nsec[0], 12.5);
  EXPECT_DOUBLE_EQ(d.nsec[8], 12.5);
  EXPECT_DOUBLE_EQ(d.nsec[9], 12.5);
  EXPECT_DOUBLE_EQ(d.usec[0], 12.5);
  EXPECT_DOUBLE_EQ(d.usec[5], 12.5);
  EXPECT_DOUBLE_EQ(d.msec[1], 12.5);
  EXPECT_DOUBLE_EQ(d.msec[10], 12.5);
  EXPECT_DOUBLE_EQ(d.msec[11], 12.5);
  EXPECT_DOUBLE_EQ(d.usec[9], 0.0);
}

// fio's io_u_mark_latency() is fed the completion latency: an async engine
// whose submit call did the work (libaio on tmpfs) has a large lat and a tiny
// clat, and the distribution is clat's. Without clat (disable_clat) it is
// empty, as fio prints none.
TEST(StatsDistributionTest, FromClatNotLat) {
  ThreadStats ts;
  ts.dir[0].clat_hist.Add(3000);    // usec "4"
  ts.dir[0].lat_hist.Add(300000);   // usec "500"
  ts.dir[0].slat_hist.Add(297000);  // not counted either
  LatencyDistribution d = ComputeLatencyDistribution(ts);
  EXPECT_DOUBLE_EQ(d.usec[1], 100.0);
  EXPECT_DOUBLE_EQ(d.usec[7], 0.0);
  ts.dir[0].clat_hist.Clear();
  d = ComputeLatencyDistribution(ts);
  for (double x : d.usec) EXPECT_DOUBLE_EQ(x, 0.0);
}

TEST(StatsDistributionTest, TinySharesShowAsMinimum) {
  ThreadStats ts;
  for (int i = 0; i < 20000; ++i) ts.dir[1].clat_hist.Add(150000);  // usec "250"
  ts.dir[1].clat_hist.Add(5000000);                                 // msec "10"
  const LatencyDistribution d = ComputeLatencyDistribution(ts);
  EXPECT_NEAR(d.usec[6], 100.0 * 20000 / 20001, 1e-9);
  EXPECT_DOUBLE_EQ(d.msec[2], 0.01) << "nonzero shares below 0.01% show as 0.01";
}

TEST(StatsDistributionTest, DepthPercentages) {
  const auto p = DepthPercentages({1, 0, 0, 9998, 1, 0, 0}, 10000);
  EXPECT_DOUBLE_EQ(p[0], 0.1);
  EXPECT_DOUBLE_EQ(p[1], 0.0);
  EXPECT_DOUBLE_EQ(p[3], 99.98);
  EXPECT_DOUBLE_EQ(p[4], 0.1);
  EXPECT_DOUBLE_EQ(DepthPercentages({1, 0, 0, 0, 0, 0, 0}, 0)[0], 0.0);
}

TEST(StatsCpuTest, CpuPerIoAndCallRatios) {
  const JobResult job = testdata::MakeJob("a", 0, 0, 1, 1, 1000, 1000);
  JobRecord r = RecordForJob(job);
  // own 60000 + 530000 µs, helpers 412000 + 1000 µs, 2000 I/Os.
  EXPECT_DOUBLE_EQ(CpuPerIoUs(r), (60000.0 + 530000 + 412000 + 1000) / 2000);
  EXPECT_DOUBLE_EQ(SubmitPerCall(r.result.stats), 4.0);
  EXPECT_DOUBLE_EQ(ReapPerCall(r.result.stats), 2.0);
  EXPECT_DOUBLE_EQ(CpuPercent(500000, 2000000), 25.0);
  EXPECT_DOUBLE_EQ(CpuPercent(5, 0), 0.0);
  // The microseconds: 1.5 ms of CPU in a 1.9 ms job is 78.9%, not the
  // 150% of its whole milliseconds.
  EXPECT_NEAR(CpuPercent(1500, 1900), 78.947, 0.001);
  JobResult shortjob = job;
  shortjob.runtime_ms = 1;
  shortjob.runtime_us = 1900;
  EXPECT_EQ(RecordForJob(shortjob).cpu_runtime_us, 1900u);
  EXPECT_EQ(RecordForJob(shortjob).cpu_runtime_ms, 1u);
  ThreadStats empty;
  EXPECT_DOUBLE_EQ(SubmitPerCall(empty), 0.0);
}

// per= / bw_agg as fio 3.33 computes it (convert_agg_kbytes_percent): the
// mean cut to whole KiB/s over the aggregate in KiB/s, not truncated. The
// numbers are a fio run's (numjobs=2: 20113907712 bytes in 1076 ms; its
// bw_agg 73.219313 and 40.545874). iobench truncated the aggregate to
// whole KiB/s instead (73.219314, and worse for small aggregates).
TEST(StatsSummaryTest, BandwidthPercentOfGroupIsFios) {
  const uint64_t agg = 20113907712ull * 1000 / 1076;
  SampleStat bw;
  bw.mean = 13366259.0;
  EXPECT_NEAR(BandwidthPercentOfGroup(bw, agg), 73.219313, 5e-7);
  bw.mean = 7401690.0;
  EXPECT_NEAR(BandwidthPercentOfGroup(bw, agg), 40.545874, 5e-7);
  bw.mean = 3500.5;  // the mean is cut: 3500 over 7996.1875 KiB/s
  EXPECT_DOUBLE_EQ(BandwidthPercentOfGroup(bw, 8188096), 3500.0 * 100 / (8188096 / 1024.0));
  bw.mean = 1000;
  EXPECT_EQ(BandwidthPercentOfGroup(bw, 1024), 100.0) << "1 KiB/s or less";
  EXPECT_EQ(BandwidthPercentOfGroup(bw, 2048), 100.0) << "capped";
}

// fio 3.33's terse line forms the share its own way (show_ddir_status_terse):
// the whole mean over the aggregate cut to whole KiB/s. fio on two null jobs
// (rate=10000k and 30011k, 2 s): terse 25.022502% and 75.080841% where its
// JSON bw_agg was 25.022501 and 75.080004 (means 10008 and 30029.333333,
// aggregate 39996.002 KiB/s). One job at 1705 B/s: normal per=60.06%,
// terse 100% (1.75 KiB/s over 1 KiB/s, capped).
TEST(StatsSummaryTest, TerseBandwidthPercentOfGroupIsFiosTerse) {
  const uint64_t agg = 40955906;  // 39996.002 KiB/s
  SampleStat bw;
  bw.mean = 10008.0;
  EXPECT_NEAR(TerseBandwidthPercentOfGroup(bw, agg), 25.022502, 5e-7);
  EXPECT_NEAR(BandwidthPercentOfGroup(bw, agg), 25.022501, 5e-7);
  bw.mean = 30029.333333333;
  EXPECT_NEAR(TerseBandwidthPercentOfGroup(bw, agg), 75.080841, 5e-7);
  // The same figures worked back from a JSON record (--repeat's median).
  EXPECT_NEAR(TersePercentFromBwAgg(30029.333333333, BandwidthPercentOfGroup(bw, agg)), 75.080841,
              5e-7);
  EXPECT_NEAR(TersePercentFromBwAgg(10008.0, 25.022501433), 25.022502, 5e-7);
  bw.mean = 1.75;
  EXPECT_EQ(TerseBandwidthPercentOfGroup(bw, 1705), 100.0) << "under 1 KiB/s: fio's inf, capped";
  EXPECT_NEAR(BandwidthPercentOfGroup(bw, 2048 + 1705), 1 * 100 / (3753 / 1024.0), 1e-9);
  EXPECT_EQ(TerseBandwidthPercentOfGroup(bw, 0), 100.0) << "no aggregate";
  bw.mean = 0;
  EXPECT_EQ(TerseBandwidthPercentOfGroup(bw, 1000), 0.0) << "fio's nan";
  EXPECT_EQ(TersePercentFromBwAgg(0.5, 0.0), 0.0);
  EXPECT_EQ(TersePercentFromBwAgg(1.75, 100.0), 100.0);
}

}  // namespace
}  // namespace iobench
