// ctest-labels: threads
// Histogram storage (include/iobench/histogram.h): moves take the storage,
// copies and merges are exact, and a histogram that records nothing costs
// no resident memory (docs/performance.md, "Memory").
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "iobench/histogram.h"
#include "iobench/stats.h"

namespace iobench {
namespace {

// One value in each 4 KiB span of the counters (buckets 0-511, 512-1023,
// 1024-1535, 1536-1855) and a repeated one.
const uint64_t kValues[] = {5, 5, 5, 100, 20000, 3000000, 1ull << 40};

void Fill(Histogram& h) {
  for (uint64_t v : kValues) h.Add(v);
}

void ExpectFilled(const Histogram& h) {
  uint64_t total = 0;
  for (unsigned i = 0; i < Histogram::kNr; ++i) total += h.counts[i];
  EXPECT_EQ(total, std::size(kValues));
  EXPECT_EQ(h.counts[Histogram::ValueToIndex(5)], 3u);
  EXPECT_EQ(h.counts[Histogram::ValueToIndex(100)], 1u);
  EXPECT_EQ(h.counts[Histogram::ValueToIndex(20000)], 1u);
  EXPECT_EQ(h.counts[Histogram::ValueToIndex(3000000)], 1u);
  EXPECT_EQ(h.counts[Histogram::kNr - 1], 1u);
}

bool AllZero(const Histogram& h) {
  for (unsigned i = 0; i < Histogram::kNr; ++i)
    if (h.counts[i] != 0) return false;
  return true;
}

TEST(HistogramStorageTest, MovingAJobResultTakesTheHistogramsWithoutCopying) {
  JobResult a;
  Fill(a.stats.dir[1].clat_hist);
  Fill(a.stats.sync_hist);
  a.stats.dir[1].ios = 7;
  const uint64_t* clat = a.stats.dir[1].clat_hist.counts;
  const uint64_t* sync = a.stats.sync_hist.counts;

  JobResult b = std::move(a);
  EXPECT_EQ(b.stats.dir[1].clat_hist.counts, clat);  // the same storage, not a copy
  EXPECT_EQ(b.stats.sync_hist.counts, sync);
  EXPECT_EQ(a.stats.dir[1].clat_hist.counts, nullptr);
  ExpectFilled(b.stats.dir[1].clat_hist);
  ExpectFilled(b.stats.sync_hist);
  EXPECT_EQ(b.stats.dir[1].ios, 7u);

  // As the coordinator moves worker results into a group's vector.
  std::vector<JobResult> jobs;
  jobs.push_back(std::move(b));
  jobs.emplace_back();
  jobs.emplace_back();  // growth moves the elements
  EXPECT_EQ(jobs[0].stats.dir[1].clat_hist.counts, clat);
  ExpectFilled(jobs[0].stats.dir[1].clat_hist);
  EXPECT_TRUE(AllZero(jobs[2].stats.dir[1].clat_hist));
}

TEST(HistogramStorageTest, CopiesAssignmentsAndMergesAreExact) {
  Histogram a;
  Fill(a);
  Histogram copy(a);
  EXPECT_NE(copy.counts, a.counts);
  ExpectFilled(copy);
  ExpectFilled(a);

  Histogram other;
  other.Add(777);
  other.Add(1ull << 30);
  other = a;  // counts of the old contents must not survive
  ExpectFilled(other);

  Histogram merged;
  merged.Merge(a);
  merged.Merge(a);
  EXPECT_EQ(merged.counts[Histogram::ValueToIndex(5)], 6u);
  EXPECT_EQ(merged.counts[Histogram::kNr - 1], 2u);

  Histogram empty;
  other = empty;
  EXPECT_TRUE(AllZero(other));
  merged.Clear();
  EXPECT_TRUE(AllZero(merged));
}

TEST(HistogramStorageTest, AMovedFromHistogramCopiesAsZeroAndIsUsableAfterClear) {
  Histogram a;
  Fill(a);
  Histogram b(std::move(a));
  ExpectFilled(b);
  Histogram c(a);  // from the moved-from one
  EXPECT_TRUE(AllZero(c));
  c.Merge(a);
  EXPECT_TRUE(AllZero(c));
  a.Clear();
  EXPECT_TRUE(AllZero(a));
  a.Add(5);
  EXPECT_EQ(a.counts[Histogram::ValueToIndex(5)], 1u);
  Histogram d;
  d.Merge(b);
  b = std::move(d);
  ExpectFilled(b);
}

// Workers create and release histograms concurrently (ramp end,
// snapshots): the shared slot pool must hand each slot to one owner, zeroed.
TEST(HistogramStorageTest, ThreadsGetTheirOwnZeroedSlots) {
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &bad] {
      for (int i = 0; i < 200; ++i) {
        Histogram h;
        if (!AllZero(h)) ++bad[t];
        for (int k = 0; k <= t; ++k) h.Add(1000 + 100000 * static_cast<uint64_t>(k));
        Histogram copy(h);
        uint64_t total = 0;
        for (unsigned j = 0; j < Histogram::kNr; ++j) total += copy.counts[j];
        if (total != static_cast<uint64_t>(t) + 1) ++bad[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(4, 0));
}

uint64_t RssAnonKib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr)
    if (std::strncmp(line, "RssAnon:", 8) == 0) kib = std::stoull(line + 8);
  std::fclose(f);
  return kib;
}

// 252 workers hold 2,520 histograms and use two or three each: the unused
// ones must not be resident. 512 fresh histograms would be 7.3 MiB if
// their counters were written on construction; they may cost a little
// bookkeeping (and the kernel's RSS counters are approximate), not that.
TEST(HistogramStorageTest, UnusedHistogramsAreNotResident) {
  if (RssAnonKib() == 0) GTEST_SKIP() << "no RssAnon in /proc/self/status";
  constexpr size_t kN = 512;
  std::vector<std::unique_ptr<Histogram>> hs;
  hs.reserve(kN);
  // Histograms that held counts, were cleared and went back to the pool
  // (a run before this one in the process): their slots, handed out again
  // below, must not stay resident.
  for (size_t i = 0; i < kN; ++i) hs.push_back(std::make_unique<Histogram>());
  for (auto& h : hs) {
    h->Add(1000);
    h->Clear();
  }
  hs.clear();
  const uint64_t before = RssAnonKib();
  for (size_t i = 0; i < kN; ++i) hs.push_back(std::make_unique<Histogram>());
  const uint64_t fresh = RssAnonKib();
  EXPECT_LT(fresh - before, 1024u) << "512 unused histograms became resident";
  for (auto& h : hs) h->Add(1000);  // one page each
  const uint64_t used = RssAnonKib();
  EXPECT_GE(used - before, kN * 4 / 2) << "the counters did not get pages at all?";
  // Twice the pages plus slack: ThreadSanitizer's shadow of the written
  // pages counts too. A transparent huge page per 4 MiB chunk (the pool
  // asks for none) would be 8 MiB.
  EXPECT_LT(used - before, kN * 4 * 2 + 1024u) << "one count made more than its page resident";
}

}  // namespace
}  // namespace iobench
