// Unit tests for IoPattern (run/pattern.h): directions, modifiers, block
// sizes, random maps, generators, distributions and seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "run/pattern.h"

namespace iobench {
namespace {

constexpr uint64_t kKi = 1024;

JobSpec MakeJob(RwMode rw, uint64_t bs = 4 * kKi) {
  JobSpec j;
  j.rw = rw;
  for (auto& b : j.bs) b.min = b.max = bs;
  return j;
}

std::unique_ptr<IoPattern> Make(const JobSpec& job, std::vector<PatternRegion> regions,
                                uint64_t seed = 1) {
  auto r = IoPattern::Create(job, std::move(regions), seed);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// Runs one pass (until Next() returns false), with a safety cap.
std::vector<IoPlan> Pass(IoPattern* p, size_t cap = 10'000'000) {
  std::vector<IoPlan> v;
  IoPlan io;
  while (v.size() < cap && p->Next(&io)) v.push_back(io);
  return v;
}

// Runs `n` I/Os, resetting at each pass end (as a looping worker would).
std::vector<IoPlan> Take(IoPattern* p, size_t n) {
  std::vector<IoPlan> v;
  IoPlan io;
  while (v.size() < n) {
    if (!p->Next(&io)) {
      p->Reset();
      continue;
    }
    v.push_back(io);
  }
  return v;
}

void ExpectInside(const std::vector<IoPlan>& v, const std::vector<PatternRegion>& regions,
                  uint64_t align) {
  for (const IoPlan& io : v) {
    ASSERT_LT(io.file, regions.size());
    const PatternRegion& r = regions[io.file];
    ASSERT_GE(io.offset, r.offset);
    ASSERT_LE(io.offset + io.length, r.offset + r.size) << "offset " << io.offset;
    ASSERT_GT(io.length, 0u);
    ASSERT_EQ((io.offset - r.offset) % align, 0u) << "offset " << io.offset;
  }
}

TEST(PatternOffsetsTest, SequentialReadWalksTheRegionOnce) {
  JobSpec job = MakeJob(RwMode::kRead);
  std::vector<PatternRegion> regions{{8 * kKi, 64 * kKi, 0}};
  auto p = Make(job, regions);
  for (int pass = 0; pass < 2; ++pass) {
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 16u);
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i].ddir, Ddir::kRead);
      EXPECT_EQ(v[i].file, 0u);
      EXPECT_EQ(v[i].offset, 8 * kKi + i * 4 * kKi);
      EXPECT_EQ(v[i].length, 4 * kKi);
    }
    IoPlan io;
    EXPECT_FALSE(p->Next(&io));
    p->Reset();
  }
}

TEST(PatternOffsetsTest, SequentialStopsWhenTheNextBlockDoesNotFit) {
  auto p = Make(MakeJob(RwMode::kWrite), {{0, 10 * kKi, 0}});
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].offset, 4 * kKi);
  EXPECT_EQ(v[0].ddir, Ddir::kWrite);
}

TEST(PatternOffsetsTest, TrimDirection) {
  auto p = Make(MakeJob(RwMode::kTrim), {{0, 16 * kKi, 0}});
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 4u);
  for (const auto& io : v) EXPECT_EQ(io.ddir, Ddir::kTrim);
}

TEST(PatternOffsetsTest, SequentialSkipLeavesHoles) {
  JobSpec job = MakeJob(RwMode::kRead);
  job.rw_skip = 8 * kKi;  // rw=read:8k
  auto p = Make(job, {{0, 64 * kKi, 0}});
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 6u);  // 0, 12k, 24k, 36k, 48k, 60k
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].offset, i * 12 * kKi);
}

// The offsets below are what fio 3.33 issues for the same job (write_iolog,
// psync on an existing 64 KiB file, bs=4k).
TEST(PatternOffsetsTest, HoledSequentialWrapsAsFio) {
  const struct {
    int64_t skip_k;
    std::vector<uint64_t> offsets_k;
  } cases[] = {
      {4, {0, 8, 16, 24, 32, 40, 48, 56, 0, 8, 16, 24, 32, 40, 48, 56}},  // steps onto the end
      {12, {0, 16, 32, 48, 0, 16, 32, 48, 0, 16, 32, 48, 0, 16, 32, 48}},
      {60, std::vector<uint64_t>(16, 0)},
      {5, {0, 9, 18, 27, 36, 45, 54}},  // 63k leaves no room for 4k: the pass ends
      {-2, {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30}},  // net forward
  };
  for (const auto& c : cases) {
    JobSpec job = MakeJob(RwMode::kRead);
    job.rw_skip = c.skip_k * static_cast<int64_t>(kKi);
    auto p = Make(job, {{0, 64 * kKi, 0}});
    auto v = Pass(p.get());
    std::vector<uint64_t> got;
    for (const auto& io : v) got.push_back(io.offset / kKi);
    EXPECT_EQ(got, c.offsets_k) << "rw=read:" << c.skip_k << "k";
  }
}

TEST(PatternOffsetsTest, NegativeSkipWalksBackwards) {
  // rw=read:-8k: the first I/O at the start, then from the end backwards
  // (fio: 0, 56k, 52k, ..., 4k, 0), relative to the region.
  JobSpec job = MakeJob(RwMode::kRead);
  job.rw_skip = -8 * static_cast<int64_t>(kKi);
  auto p = Make(job, {{4 * kKi, 64 * kKi, 0}});
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 16u);
  EXPECT_EQ(v[0].offset, 4 * kKi);
  for (size_t i = 1; i < v.size(); ++i) EXPECT_EQ(v[i].offset, 4 * kKi + (15 - i) * 4 * kKi);
}

TEST(PatternOffsetsTest, ZeroNetSkipIsBoundedToOnePassOfBlocks) {
  JobSpec job = MakeJob(RwMode::kRead);
  job.rw_skip = -4 * static_cast<int64_t>(kKi);  // same offset over and over (fio: 0)
  auto p = Make(job, {{0, 64 * kKi, 0}});
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 16u);
  for (const auto& io : v) EXPECT_EQ(io.offset, 0u);
}

TEST(PatternOffsetsTest, IdenticalSequencerRepeatsEachOffset) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.rw_nr = 3;
  job.rw_sequencer = RwSequencer::kIdentical;
  std::vector<PatternRegion> regions{{0, 1024 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  // As fio 3.33, the repeats count towards the pass: it ends after the
  // region's 1 MiB was issued, 256 I/Os, i.e. 85 offsets three times and an
  // 86th once (fio: rw=randread:3 rw_sequencer=identical, 256 I/Os).
  ASSERT_EQ(v.size(), 256u);
  std::set<uint64_t> distinct;
  for (size_t i = 0; i < v.size(); i += 3) {
    for (size_t k = i + 1; k < std::min(i + 3, v.size()); ++k) EXPECT_EQ(v[i].offset, v[k].offset);
    distinct.insert(v[i].offset);
  }
  EXPECT_EQ(distinct.size(), 86u);
  p->Reset();
  EXPECT_EQ(Pass(p.get()).size(), 256u) << "the next pass has the whole budget again";
}

// rw=randrw:3 rw_sequencer=identical, as fio 3.33 (write_iolog, null
// engine, 64k: "w0 w0 w0 r44 w0 w0 r52 w0 w0 w28 w28 r52 r24 ..."): every
// third I/O draws a new offset; the others draw their direction as usual and
// repeat where that direction's last I/O started (the region's start when
// it has none yet). iobench used to repeat the direction too. The pass is
// the region's bytes: 256 I/Os on 1 MiB, as fio.
TEST(PatternOffsetsTest, IdenticalSequencerInAMixedJobRepeatsTheOffsetOnly) {
  JobSpec job = MakeJob(RwMode::kRandRW);
  job.rw_nr = 3;
  job.rw_sequencer = RwSequencer::kIdentical;
  job.rwmixread = 30;
  const std::vector<PatternRegion> regions{{8 * kKi, 1024 * kKi, 0}};
  auto p = Make(job, regions);
  for (int pass = 0; pass < 2; ++pass) {
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 256u);
    uint64_t last[2] = {8 * kKi, 8 * kKi};
    int turned = 0, repeat_reads = 0, repeats = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      const int d = static_cast<int>(v[i].ddir);
      ASSERT_LT(d, 2);
      EXPECT_EQ(v[i].length, 4 * kKi);
      if (i % 3 != 0) {
        EXPECT_EQ(v[i].offset, last[d]) << "pass " << pass << " I/O " << i;
        turned += v[i].ddir != v[i - i % 3].ddir;
        repeat_reads += d == 0;
        ++repeats;
      }
      last[d] = v[i].offset;
    }
    EXPECT_GT(turned, 40) << "a repeat draws its own direction";
    EXPECT_NEAR(100.0 * repeat_reads / repeats, 30, 10);
    p->Reset();
  }
  // Two files, round robin: a repeat goes to the next file and repeats that
  // file's last start (fio 3.33, randread:3 nrfiles=2 size=64k: "0:0 1:0 0:0
  // 1:20 0:0 1:20 0:24 ...", file:offset in KiB), 16 I/Os.
  job.rw = RwMode::kRandRead;
  auto v = Pass(Make(job, {{0, 32 * kKi, 0}, {0, 32 * kKi, 0}}).get());
  ASSERT_EQ(v.size(), 16u);
  int64_t last[2] = {0, 0};
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].file, i % 2) << "I/O " << i;
    if (i % 3 != 0) {
      EXPECT_EQ(static_cast<int64_t>(v[i].offset), last[i % 2]) << "I/O " << i;
    }
    last[i % 2] = static_cast<int64_t>(v[i].offset);
  }
}

TEST(PatternOffsetsTest, RandNrGivesSequentialRunsBetweenRandomOffsets) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.rw_nr = 4;  // rw=randread:4
  job.norandommap = true;
  std::vector<PatternRegion> regions{{0, 4096 * 4 * kKi * 256, 0}};  // 1M blocks
  auto p = Make(job, regions);
  auto v = Take(p.get(), 4000);
  ExpectInside(v, regions, 4 * kKi);
  int jumps = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    const bool contiguous = v[i].offset == v[i - 1].offset + v[i - 1].length;
    if (i % 4 != 0) {
      EXPECT_TRUE(contiguous) << "I/O " << i;
    } else {
      jumps += !contiguous;
    }
  }
  EXPECT_GE(jumps, 995);
}

// rw=randread:4 over two files: one count for the job, as fio 3.33's
// td->ddir_seq_nr, not one per file. Round robin sends the job's 1st, 5th,
// ... I/O (the random ones) to file 0; file 1 only ever continues, from its
// start (fio's write_iolog, size=64k nrfiles=2: j.0.1 reads 0, 4k, ..., 28k
// in order). iobench counted per file: file 1's first read was random.
TEST(PatternOffsetsTest, RandNrCountsPerJob) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.rw_nr = 4;
  const std::vector<uint64_t> walk{0, 4, 8, 12, 16, 20, 24, 28};
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    auto v = Pass(Make(job, {{0, 32 * kKi, 0}, {0, 32 * kKi, 0}}, seed).get());
    ASSERT_EQ(v.size(), 16u) << "seed " << seed;
    std::vector<uint64_t> f1;
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i].file, i % 2) << "seed " << seed << ", I/O " << i;
      if (v[i].file == 1) f1.push_back(v[i].offset / kKi);
    }
    EXPECT_EQ(f1, walk) << "seed " << seed;
  }
}

// A continuation from the region's end takes a random offset and the count
// goes on (fio 3.33 does not restart it): the job's every 4th I/O is still
// random. iobench restarted the run there, so the I/O at the next multiple
// of 4 was mostly a continuation. Over 8 blocks without the map a random
// offset happens to continue the previous I/O 1 time in 8.
TEST(PatternOffsetsTest, RandNrFallbackDoesNotRestartTheCount) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.rw_nr = 4;
  job.norandommap = true;
  auto v = Take(Make(job, {{0, 32 * kKi, 0}}).get(), 40000);
  int due = 0, contiguous = 0, fallbacks = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    const uint64_t end = v[i - 1].offset + v[i - 1].length;
    const bool cont = v[i].offset == end;
    if (i % 4 == 0) {
      if (end < 32 * kKi) {
        ++due;
        contiguous += cont;
      }
    } else if (end == 32 * kKi) {
      ++fallbacks;
    } else {
      EXPECT_TRUE(cont) << "I/O " << i;
    }
  }
  EXPECT_GT(fallbacks, 2000);
  EXPECT_NEAR(static_cast<double>(contiguous) / due, 1.0 / 8, 0.03);
}

// A continuation from the region's end takes a random offset that, like the
// continuation it replaces, does not mark the random map (fio 3.33 keeps the
// I/O's IO_U_F_BUSY_OK): the next random offset may land on it again. fio's
// write_iolog, randread:2 on 12k (blocks 0 to 2), 40 seeds: of the passes
// that start at block 2, six read 2 0 0 and one 2 1 1. iobench marked it,
// and never read a block twice there.
TEST(PatternOffsetsTest, FallbackOffsetDoesNotMarkTheMap) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.rw_nr = 2;
  int from_end = 0, again = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    auto v = Pass(Make(job, {{0, 12 * kKi, 0}}, seed).get());
    ASSERT_EQ(v.size(), 3u) << "seed " << seed;
    if (v[0].offset != 8 * kKi) continue;
    ++from_end;
    EXPECT_NE(v[1].offset, 8 * kKi) << "seed " << seed;
    again += v[2].offset == v[1].offset;
  }
  EXPECT_GT(from_end, 30);
  EXPECT_GT(again, 0);
}

// rw=randwrite:8 with the random map, as fio 3.33: the continuations
// neither consult nor mark the map, so they may reuse blocks (fio's
// randread:3 on 1 MiB reads 161 to 180 distinct blocks in its 256 reads),
// while the random offsets, which do mark it, never repeat in a pass. The
// pass is still size bytes.
TEST(PatternOffsetsTest, RandNrContinuationsDoNotUseTheMap) {
  JobSpec job = MakeJob(RwMode::kRandWrite);
  job.rw_nr = 8;
  std::vector<PatternRegion> regions{{0, 2048 * kKi, 0}};
  auto p = Make(job, regions);
  for (int pass = 0; pass < 2; ++pass) {
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 512u);
    // A random offset: not where the previous I/O ended (a continuation
    // from the region's end takes one too).
    std::set<uint64_t> offs, random;
    for (size_t i = 0; i < v.size(); ++i) {
      offs.insert(v[i].offset);
      if (i == 0 || v[i].offset != v[i - 1].offset + v[i - 1].length) {
        EXPECT_TRUE(random.insert(v[i].offset).second) << "random offset " << i << " repeats";
      }
    }
    EXPECT_GE(random.size(), 64u);
    EXPECT_LE(random.size(), 80u);
    EXPECT_LT(offs.size(), 480u);  // blocks used twice
    EXPECT_GT(offs.size(), 300u);
    p->Reset();
  }
}

// A mixed job's directions each walk on over blocks the other one used, and
// a file's pass is not capped at its region's bytes: fio 3.33's null engine,
// rw=randrw size=256k bs=6000 percentage_random=0, issues 44 I/Os (264000
// bytes) for every seed, and two files of 26k and 64k with
// percentage_random=0 give 6 and 17 reads (the first file's continuation
// from 24k does not fit; the second walks on and takes one random offset
// from its end). iobench took a random offset for a continuation over a
// used block (then ended the pass in the partial last block: 16 to 43 I/Os)
// and stopped the second file at 64k (22 reads).
TEST(PatternOffsetsTest, ContinuationsWalkOverUsedBlocks) {
  JobSpec job = MakeJob(RwMode::kRandRW, 6000);
  for (uint32_t& pr : job.percentage_random) pr = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    auto v = Pass(Make(job, {{0, 256 * kKi, 0}}, seed).get());
    EXPECT_EQ(v.size(), 44u) << "seed " << seed;
  }
  job = MakeJob(RwMode::kRandRead);
  for (uint32_t& pr : job.percentage_random) pr = 0;
  auto v = Pass(Make(job, {{0, 26 * kKi, 0, 26 * kKi}, {0, 64 * kKi, 0, 64 * kKi}}).get());
  int n[2] = {0, 0};
  for (const auto& io : v) ++n[io.file];
  EXPECT_EQ(n[0], 6);
  EXPECT_EQ(n[1], 17);
}

void ExpectEachBlockOnce(const std::vector<IoPlan>& v, const std::vector<PatternRegion>& regions,
                         uint64_t gran) {
  std::map<std::pair<uint32_t, uint64_t>, int> hits;
  uint64_t total_blocks = 0;
  for (const auto& r : regions) total_blocks += r.size / gran;
  for (const auto& io : v)
    for (uint64_t o = io.offset; o < io.offset + io.length; o += gran) ++hits[{io.file, o}];
  EXPECT_EQ(hits.size(), total_blocks);
  for (const auto& [k, n] : hits) ASSERT_EQ(n, 1) << "file " << k.first << " offset " << k.second;
}

TEST(PatternOffsetsTest, RandomMapTouchesEveryBlockOncePerPass) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  std::vector<PatternRegion> regions{{12 * kKi, 4000 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto a = Pass(p.get());
  ASSERT_EQ(a.size(), 4000u);
  ExpectInside(a, regions, 4 * kKi);
  ExpectEachBlockOnce(a, regions, 4 * kKi);
  p->Reset();
  auto b = Pass(p.get());
  ASSERT_EQ(b.size(), 4000u);
  ExpectEachBlockOnce(b, regions, 4 * kKi);
  int same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i].offset == b[i].offset;
  EXPECT_LT(same, 40) << "the second pass should be a new order";
}

TEST(PatternOffsetsTest, InlineFastPathDrawsWhatTheGeneralPathDraws) {
  // randwrite with defaults takes IoPattern::NextInline's one-step path;
  // rw_sequencer=identical with nr=1 is the same workload through the general
  // path (PickFile/Generate/TryRandom). Both must give the same offsets, pass
  // after pass, with each block once per pass.
  JobSpec fast = MakeJob(RwMode::kRandWrite);
  JobSpec general = fast;
  general.rw_sequencer = RwSequencer::kIdentical;
  std::vector<PatternRegion> regions{{8 * kKi, 1000 * 4 * kKi, 0}};
  auto a = Make(fast, regions, 7);
  auto b = Make(general, regions, 7);
  for (int pass = 0; pass < 3; ++pass) {
    std::vector<IoPlan> va, vb;
    IoPlan io;
    while (va.size() < 5000 && a->NextInline(&io)) va.push_back(io);
    while (vb.size() < 5000 && b->NextInline(&io)) vb.push_back(io);
    ASSERT_EQ(va.size(), 1000u) << "pass " << pass;
    ASSERT_EQ(vb.size(), 1000u) << "pass " << pass;
    ExpectEachBlockOnce(va, regions, 4 * kKi);
    for (size_t i = 0; i < va.size(); ++i) {
      ASSERT_EQ(va[i].offset, vb[i].offset) << "pass " << pass << " I/O " << i;
      ASSERT_EQ(va[i].ddir, Ddir::kWrite);
      ASSERT_EQ(va[i].length, 4 * kKi);
    }
    a->Reset();
    b->Reset();
  }
}

TEST(PatternOffsetsTest, LfsrTouchesEveryBlockOncePerPass) {
  JobSpec job = MakeJob(RwMode::kRandWrite);
  job.random_generator = RandomGenerator::kLfsr;
  std::vector<PatternRegion> regions{{0, 3001 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  for (int pass = 0; pass < 2; ++pass) {
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 3001u);
    ExpectInside(v, regions, 4 * kKi);
    ExpectEachBlockOnce(v, regions, 4 * kKi);
    p->Reset();
  }
}

// With several block sizes an LFSR pass still ends after size bytes, as in
// fio 3.33 (null engine, size=1m: bssplit=4k/50:64k/50 33 I/Os and
// bsrange=4k-16k 106 I/Os, 1,056,768 bytes each): the I/O that reaches size
// is the last. iobench used to run the register's whole cycle, 256 I/Os of
// 8.9 MB and 2.7 MB.
TEST(PatternOffsetsTest, LfsrPassEndsAfterSizeBytesWithSeveralBlockSizes) {
  for (int variant = 0; variant < 2; ++variant) {
    JobSpec job = MakeJob(RwMode::kRandRead);
    job.random_generator = RandomGenerator::kLfsr;
    if (variant == 0) {
      job.bs[0].max = 64 * kKi;
      job.bs[0].split = {{4 * kKi, 50}, {64 * kKi, 50}};
    } else {
      job.bs[0].max = 16 * kKi;
    }
    std::vector<PatternRegion> regions{{0, 1024 * kKi, 0}};
    auto p = Make(job, regions);
    for (int pass = 0; pass < 3; ++pass) {
      auto v = Pass(p.get());
      ASSERT_FALSE(v.empty());
      uint64_t bytes = 0;
      for (const auto& io : v) bytes += io.length;
      EXPECT_GE(bytes, 1024 * kKi) << "variant " << variant << " pass " << pass;
      EXPECT_LT(bytes - v.back().length, 1024 * kKi) << "variant " << variant << " pass " << pass;
      // Seed 1's draws (4k/64k averages 34k a piece, 4k..16k 10k).
      static constexpr size_t kIos[2][3] = {{45, 31, 31}, {103, 106, 105}};
      EXPECT_EQ(v.size(), kIos[variant][pass]) << "variant " << variant << " pass " << pass;
      ExpectInside(v, regions, 4 * kKi);
      p->Reset();
    }
  }
}

TEST(PatternOffsetsTest, Tausworthe64TouchesEveryBlockOnce) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_generator = RandomGenerator::kTausworthe64;
  std::vector<PatternRegion> regions{{0, 1000 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 1000u);
  ExpectEachBlockOnce(v, regions, 4 * kKi);
}

// A pass without the map ends at the first I/O that reaches size: on
// 1000 blocks + 100 bytes that is the 1001st (fio 3.33: size=87381 gives
// 22 I/Os). This test used to expect 1000, the size rounded down to the block.
TEST(PatternOffsetsTest, NoRandomMapIssuesSizeOverBsAndRepeatsBlocks) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.norandommap = true;
  std::vector<PatternRegion> regions{{0, 1000 * 4 * kKi + 100, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 1001u);
  ExpectInside(v, regions, 4 * kKi);
  std::set<uint64_t> offs;
  for (const auto& io : v) offs.insert(io.offset);
  EXPECT_LT(offs.size(), 1000u);  // ~632 distinct expected for uniform draws
  EXPECT_GT(offs.size(), 550u);
}

// Sizes that are not a multiple of the block, as fio 3.33 counts them:
// without the map a pass is size bytes over all the files, ended by the
// first I/O that reaches it (nrfiles=3 size=256k: 64 x 4k, 32 x 8k; iobench
// used to stop each file at its size rounded down: 63 and 30); a fixed-size
// sequential I/O may run past the region as long as it fits in the file
// (size=10000 on a 1 MiB file: 3 reads; on a 10000-byte file: 2); a range
// shrinks to the region.
TEST(PatternOffsetsTest, SizeNotAMultipleOfTheBlock) {
  const uint64_t third = 256 * kKi / 3;  // 87381
  for (auto [bs, ios] : {std::pair<uint64_t, size_t>{4 * kKi, 64}, {8 * kKi, 32}}) {
    JobSpec job = MakeJob(RwMode::kRandRead, bs);
    job.norandommap = true;
    std::vector<PatternRegion> regions{{0, third, 0}, {0, third, 0}, {0, third, 0}};
    auto p = Make(job, regions);
    EXPECT_EQ(Pass(p.get()).size(), ios) << bs;
    p->Reset();
    EXPECT_EQ(Pass(p.get()).size(), ios) << bs;
  }
  {
    JobSpec job = MakeJob(RwMode::kRandRead);
    job.norandommap = true;
    auto p = Make(job, {{0, third, 0}});
    EXPECT_EQ(Pass(p.get()).size(), 22u);
    job.norandommap = false;  // the map has 21 whole blocks
    p = Make(job, {{0, third, 0}});
    EXPECT_EQ(Pass(p.get()).size(), 21u);
  }
  JobSpec seq = MakeJob(RwMode::kRead);
  // Existing 1 MiB files: 3 x 87381 is 64 reads (a file's 22nd fits in it).
  std::vector<PatternRegion> big(3, PatternRegion{0, third, 0, 1024 * kKi});
  EXPECT_EQ(Pass(Make(seq, big).get()).size(), 64u);
  // Files of 87381 bytes: 21 reads each.
  std::vector<PatternRegion> exact(3, PatternRegion{0, third, 0, third});
  EXPECT_EQ(Pass(Make(seq, exact).get()).size(), 63u);
  auto v = Pass(Make(seq, {{0, 10000, 0, 1024 * kKi}}).get());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v.back().offset, 8 * kKi);
  EXPECT_EQ(Pass(Make(seq, {{0, 10000, 0, 10000}}).get()).size(), 2u);
  // The file's end still stops it: offset=960k size=100k bs=64k, 1 read.
  JobSpec seq64 = MakeJob(RwMode::kRead, 64 * kKi);
  EXPECT_EQ(Pass(Make(seq64, {{960 * kKi, 100 * kKi, 0, 1024 * kKi}}).get()).size(), 1u);
  EXPECT_EQ(Pass(Make(seq64, {{0, 100 * kKi, 0, 1024 * kKi}}).get()).size(), 2u);
  // bsrange=32k-64k: shrinks to the region (fio: 2 reads, 96 KiB).
  seq64.bs[0].min = 32 * kKi;
  v = Pass(Make(seq64, {{0, 100 * kKi, 0, 1024 * kKi}}).get());
  uint64_t bytes = 0;
  for (const auto& io : v) bytes += io.length;
  EXPECT_LE(bytes, 100 * kKi);
  EXPECT_GT(bytes, 100 * kKi - 32 * kKi);
}

TEST(PatternOffsetsTest, SameSeedSameSequenceDifferentSeedDifferent) {
  JobSpec job = MakeJob(RwMode::kRandRW);
  job.bs[1] = {4 * kKi, 16 * kKi, {}};
  std::vector<PatternRegion> regions{{0, 8 * 1024 * kKi, 0}, {0, 4 * 1024 * kKi, 0}};
  auto a = Take(Make(job, regions, 1234).get(), 5000);
  auto b = Take(Make(job, regions, 1234).get(), 5000);
  auto c = Take(Make(job, regions, 1235).get(), 5000);
  int diff_ab = 0, same_ac = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff_ab += a[i].offset != b[i].offset || a[i].ddir != b[i].ddir || a[i].length != b[i].length ||
               a[i].file != b[i].file;
    same_ac += a[i].offset == c[i].offset;
  }
  EXPECT_EQ(diff_ab, 0);
  EXPECT_LT(same_ac, 50);
}

TEST(PatternOffsetsTest, RwMixReadRatio) {
  for (uint32_t mix : {0u, 10u, 70u, 100u}) {
    JobSpec job = MakeJob(RwMode::kRandRW);
    job.rwmixread = mix;
    job.norandommap = true;
    auto p = Make(job, {{0, 1024 * 1024 * kKi, 0}});
    auto v = Take(p.get(), 100000);
    size_t reads = 0;
    for (const auto& io : v) reads += io.ddir == Ddir::kRead;
    EXPECT_NEAR(reads / 1000.0, mix, 0.6) << "rwmixread=" << mix;
  }
}

// As fio: reads and writes each walk sequentially from the region start, and
// the pass ends after size bytes in total (checked against fio 3.33, null engine).
TEST(PatternOffsetsTest, SequentialMixedWalksEachDirectionForSizeBytes) {
  JobSpec job = MakeJob(RwMode::kReadWrite);
  job.rwmixread = 30;
  job.bs[1] = {8 * kKi, 8 * kKi, {}};
  auto p = Make(job, {{4 * kKi, 400 * 4 * kKi, 0}});
  auto v = Pass(p.get());
  uint64_t next[2] = {4 * kKi, 4 * kKi}, bytes = 0;
  size_t reads = 0;
  for (const auto& io : v) {
    const int d = static_cast<int>(io.ddir);
    ASSERT_LT(d, 2);
    EXPECT_EQ(io.offset, next[d]);
    next[d] += io.length;
    bytes += io.length;
    reads += io.ddir == Ddir::kRead;
  }
  EXPECT_GE(bytes, 400 * 4 * kKi);
  EXPECT_LT(bytes, 400 * 4 * kKi + 8 * kKi);
  EXPECT_NEAR(static_cast<double>(reads) / v.size(), 0.3, 0.06);
}

// rw=rw with loops=2, as fio 3.33 (write_iolog, null engine, size=1m): a
// loop ends when a direction reaches the region's end, and both start at 0
// again in the next (rwmixread=80: 256 reads and 67 writes, then the 189
// I/Os left of the job's 2 MiB; rwmixread=20: 70 reads and 256 writes). The
// job's cap is the worker's (MixedLoopsEndAtRegionEnd). iobench's passes
// were 256 I/Os each.
TEST(PatternOffsetsTest, SequentialMixedLoopsEndWhenADirectionReachesTheEnd) {
  JobSpec job = MakeJob(RwMode::kReadWrite);
  job.loops = 2;
  ASSERT_TRUE(MixedLoopsEndAtRegionEnd(job, 1));
  for (uint32_t mix : {80u, 20u}) {
    job.rwmixread = mix;
    auto p = Make(job, {{0, 1024 * kKi, 0}});
    for (int pass = 0; pass < 2; ++pass) {
      auto v = Pass(p.get());
      uint64_t next[2] = {0, 0};
      size_t n[2] = {0, 0};
      for (const auto& io : v) {
        const int d = static_cast<int>(io.ddir);
        ASSERT_LT(d, 2);
        ASSERT_EQ(io.offset, next[d]) << "mix " << mix << " pass " << pass;
        next[d] += io.length;
        ++n[d];
      }
      const int full = mix > 50 ? 0 : 1;
      EXPECT_EQ(n[full], 256u) << "mix " << mix;
      EXPECT_GT(n[1 - full], 40u) << "mix " << mix;
      EXPECT_LT(n[1 - full], 100u) << "mix " << mix;
      p->Reset();
    }
  }
  // Time-based, io_size, two files, holes or verify keep their own passes.
  job.time_based = true;
  EXPECT_FALSE(MixedLoopsEndAtRegionEnd(job, 1));
  job.time_based = false;
  EXPECT_FALSE(MixedLoopsEndAtRegionEnd(job, 2));
  job.loops = 1;
  EXPECT_FALSE(MixedLoopsEndAtRegionEnd(job, 1));
}

// time_based rw=rw over one file, as fio 3.33's get_next_seq_offset: each
// direction wraps to the region start on its own when it reaches the end,
// so the smaller one covers the whole region too (fio's null engine,
// size=1m rwmixread=80 for 30 ms: reads and writes both reach 1044480).
// iobench used to end the pass after size bytes and send both back to 0:
// its writes never got past 274432. Without time_based a pass is still
// size bytes from offset 0 in both directions.
TEST(PatternOffsetsTest, TimeBasedSequentialMixedWrapsEachDirectionOnItsOwn) {
  const uint64_t size = 1024 * kKi, start = 8 * kKi;
  JobSpec job = MakeJob(RwMode::kReadWrite);
  job.rwmixread = 80;
  job.time_based = true;
  auto p = Make(job, {{start, size, 0}});
  auto v = Take(p.get(), 4000);
  uint64_t next[2] = {start, start}, wraps[2] = {0, 0};
  std::set<uint64_t> seen[2];
  for (const auto& io : v) {
    const int d = static_cast<int>(io.ddir);
    ASSERT_LT(d, 2);
    if (next[d] == start + size) {  // only the end wraps
      next[d] = start;
      ++wraps[d];
    }
    ASSERT_EQ(io.offset, next[d]) << (d ? "write" : "read") << " after " << wraps[d] << " wraps";
    next[d] += io.length;
    seen[d].insert(io.offset);
  }
  EXPECT_EQ(seen[0].size(), size / (4 * kKi));
  EXPECT_EQ(seen[1].size(), size / (4 * kKi));
  EXPECT_GE(wraps[0], 10u);  // 3200 reads of 256 blocks
  EXPECT_GE(wraps[1], 2u);   // 800 writes

  // Not time_based: passes of size bytes, both directions from the start.
  // More than one file: both from the start too, but a file's pass ends only
  // when a direction reaches its end (as fio 3.33; see
  // TimeBasedSequentialMixedOverFilesWalksEachFileToItsEnd), past size bytes.
  for (int variant = 0; variant < 2; ++variant) {
    JobSpec j = job;
    std::vector<PatternRegion> regions{{0, size, 0}};
    if (variant == 0)
      j.time_based = false;
    else
      regions.push_back({0, size, 0});
    auto q = Make(j, regions);
    for (int pass = 0; pass < 3; ++pass) {
      auto w = Pass(q.get());
      uint64_t bytes = 0, pos[2][2] = {{0, 0}, {0, 0}};
      for (const auto& io : w) {
        const int d = static_cast<int>(io.ddir);
        EXPECT_EQ(io.offset, pos[io.file][d]) << "variant " << variant << " pass " << pass;
        pos[io.file][d] += io.length;
        bytes += io.length;
      }
      if (variant == 0)
        EXPECT_EQ(bytes, size) << "pass " << pass;
      else
        EXPECT_GT(bytes, size * regions.size()) << "pass " << pass;
      q->Reset();
    }
  }
}

// Both directions can reach the end together (size=128k bs=64k): the worker
// takes a reset that gives nothing as the end of the job, so after a reset
// the next I/O must come, whichever direction it picks (time_based rw=rw ran
// 1 ms of a 1 s runtime: seed 003's workload).
TEST(PatternOffsetsTest, TimeBasedSequentialMixedGoesOnWhenBothDirectionsEnd) {
  for (uint64_t blocks : {2, 3, 16}) {
    JobSpec job = MakeJob(RwMode::kReadWrite, 64 * kKi);
    job.rwmixread = 70;
    job.time_based = true;
    auto p = Make(job, {{0, blocks * 64 * kKi, 0}});
    IoPlan io;
    uint64_t ios = 0, resets = 0;
    while (ios < 2000) {
      if (p->Next(&io)) {
        ASSERT_LT(io.offset + io.length, blocks * 64 * kKi + 1);
        ++ios;
        continue;
      }
      p->Reset();
      ++resets;
      ASSERT_TRUE(p->Next(&io)) << blocks << " blocks: nothing after reset " << resets;
      ++ios;
    }
    EXPECT_GT(resets, 10u) << blocks;
  }
}

// filesize=128k size=32k time_based: as fio 3.33, size= ends no pass (its
// do_io goes on past size bytes), so each walk goes to the region's end:
// blocks 0 to 31, offset=16k 4 to 31, a random map all 32 before a repeat,
// nrfiles=2 each file's 16 (iobench read blocks 0 to 7 and started over).
// With verify a pass is size= bytes, unless the worker says its engine
// completes inside its call (EndPassesAtRegions), where fio's is not.
TEST(PatternOffsetsTest, TimeBasedPassGoesToTheRegionEndPastSize) {
  const auto blocks = [](const std::vector<IoPlan>& v) {
    std::vector<std::pair<uint32_t, uint64_t>> b;
    for (const IoPlan& io : v) b.emplace_back(io.file, io.offset / (4 * kKi));
    return b;
  };
  const auto walk = [](uint32_t file, uint64_t from, uint64_t to) {
    std::vector<std::pair<uint32_t, uint64_t>> b;
    for (uint64_t i = from; i < to; ++i) b.emplace_back(file, i);
    return b;
  };
  for (RwMode rw : {RwMode::kRead, RwMode::kWrite, RwMode::kRandRead}) {
    for (uint64_t off : {uint64_t{0}, 16 * kKi}) {
      JobSpec job = MakeJob(rw);
      job.filesize_min = job.filesize_max = 128 * kKi;
      job.size = 32 * kKi;
      job.time_based = true;
      const std::vector<PatternRegion> regions{{off, 128 * kKi - off, 0, 128 * kKi}};
      auto p = Make(job, regions);
      for (int pass = 0; pass < 2; ++pass) {
        auto v = Pass(p.get());
        auto b = blocks(v);
        if (rw == RwMode::kRandRead) std::sort(b.begin(), b.end());
        EXPECT_EQ(b, walk(0, off / (4 * kKi), 32)) << RwModeName(rw) << " offset " << off;
        p->Reset();
      }
      job.verify.type = VerifyType::kCrc32c;
      p = Make(job, regions);
      EXPECT_EQ(Pass(p.get()).size(), 8u) << RwModeName(rw) << " verify";
      p->Reset();
      p->EndPassesAtRegions();
      EXPECT_EQ(Pass(p.get()).size(), 32 - off / (4 * kKi)) << RwModeName(rw) << " verify, psync";
      job.time_based = false;  // loops: size= bytes per pass, as fio's
      job.verify.type = VerifyType::kNone;
      p = Make(job, regions);
      EXPECT_EQ(Pass(p.get()).size(), 8u) << RwModeName(rw) << " not time_based";
    }
  }
  JobSpec job = MakeJob(RwMode::kRead);
  job.filesize_min = job.filesize_max = 64 * kKi;
  job.size = 64 * kKi;
  job.time_based = true;
  auto p = Make(job, {{0, 64 * kKi, 0, 64 * kKi}, {0, 64 * kKi, 0, 64 * kKi}});
  auto b = blocks(Pass(p.get()));
  std::sort(b.begin(), b.end());
  auto want = walk(0, 0, 16);
  for (const auto& x : walk(1, 0, 16)) want.push_back(x);
  EXPECT_EQ(b, want);
}

// time_based rw=rw over several files, as fio 3.33 (nrfiles=2 size=128k,
// write_iolog): a file's walk has no byte budget, each direction walks on
// its own and the file is done once one cannot place its next block, so
// reads and writes each get to block 13-15 of each 16-block file before the
// pass ends and both start over. iobench shared the file's 64 KiB between
// the directions, so neither got past block 9 or so.
TEST(PatternOffsetsTest, TimeBasedSequentialMixedOverFilesWalksEachFileToItsEnd) {
  JobSpec job = MakeJob(RwMode::kReadWrite);
  job.time_based = true;
  auto p = Make(job, {{0, 64 * kKi, 0, 64 * kKi}, {0, 64 * kKi, 0, 64 * kKi}});
  for (int pass = 0; pass < 3; ++pass) {
    std::map<std::pair<uint32_t, int>, std::vector<uint64_t>> walks;  // (file, ddir): blocks
    for (const IoPlan& io : Pass(p.get()))
      walks[{io.file, static_cast<int>(io.ddir)}].push_back(io.offset / (4 * kKi));
    for (uint32_t f = 0; f < 2; ++f) {
      size_t ios = 0, longest = 0;
      for (int d : {0, 1}) {
        const std::vector<uint64_t>& w = walks[{f, d}];
        for (size_t i = 0; i < w.size(); ++i)
          ASSERT_EQ(w[i], i) << "pass " << pass << " file " << f;
        ios += w.size();
        longest = std::max(longest, w.size());
      }
      EXPECT_EQ(longest, 16u) << "pass " << pass << " file " << f;  // one direction got to the end
      EXPECT_GT(ios, 16u) << "pass " << pass << " file " << f;      // more than the file's bytes
    }
    p->Reset();
  }
  // Not when the job verifies: fio's loop ends at size= bytes then, where
  // the engine queues (libaio verify=crc32c: passes of 32 I/Os; walking
  // each file to its end made about 55).
  job.verify.type = VerifyType::kCrc32c;
  auto v = Make(job, {{0, 64 * kKi, 0, 64 * kKi}, {0, 64 * kKi, 0, 64 * kKi}});
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(Pass(v.get()).size(), 32u) << "pass " << pass;
    v->Reset();
  }
}

TEST(PatternOffsetsTest, TrimWriteTrimsThenWritesTheSameBlock) {
  for (RwMode mode : {RwMode::kTrimWrite, RwMode::kRandTrimWrite}) {
    JobSpec job = MakeJob(mode);
    std::vector<PatternRegion> regions{{0, 64 * 4 * kKi, 0}};
    auto p = Make(job, regions);
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 128u);
    std::vector<IoPlan> trims;
    for (size_t i = 0; i < v.size(); i += 2) {
      EXPECT_EQ(v[i].ddir, Ddir::kTrim);
      EXPECT_EQ(v[i + 1].ddir, Ddir::kWrite);
      EXPECT_EQ(v[i].offset, v[i + 1].offset);
      EXPECT_EQ(v[i].length, v[i + 1].length);
      trims.push_back(v[i]);
      if (mode == RwMode::kTrimWrite) {
        EXPECT_EQ(v[i].offset, i / 2 * 4 * kKi);
      }
    }
    ExpectEachBlockOnce(trims, regions, 4 * kKi);
  }
}

TEST(PatternOffsetsTest, RoundRobinOverFilesUntilEveryFileIsDone) {
  JobSpec job = MakeJob(RwMode::kRead);
  std::vector<PatternRegion> regions{
      {0, 3 * 4 * kKi, 0}, {4 * kKi, 1 * 4 * kKi, 0}, {0, 2 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 6u);
  const uint32_t files[] = {0, 1, 2, 0, 2, 0};
  const uint64_t offs[] = {0, 4 * kKi, 0, 4 * kKi, 4 * kKi, 8 * kKi};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(v[i].file, files[i]) << i;
    EXPECT_EQ(v[i].offset, offs[i]) << i;
  }
}

TEST(PatternOffsetsTest, RandomMapOverSeveralFiles) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  std::vector<PatternRegion> regions{{0, 300 * 4 * kKi, 0}, {1024 * kKi, 100 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 400u);
  ExpectInside(v, regions, 4 * kKi);
  ExpectEachBlockOnce(v, regions, 4 * kKi);
  for (size_t i = 0; i < 200; ++i) EXPECT_EQ(v[i].file, i % 2);
}

TEST(PatternOffsetsTest, BsRangeUsesMultiplesOfTheMinimumAndCoversOnce) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.bs[0] = {4 * kKi, 16 * kKi, {}};
  std::vector<PatternRegion> regions{{0, 1000 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ExpectInside(v, regions, 4 * kKi);
  ExpectEachBlockOnce(v, regions, 4 * kKi);
  std::set<uint64_t> lens;
  for (const auto& io : v) {
    EXPECT_EQ(io.length % (4 * kKi), 0u);
    lens.insert(io.length);
  }
  EXPECT_EQ(lens, (std::set<uint64_t>{4 * kKi, 8 * kKi, 12 * kKi, 16 * kKi}));
}

TEST(PatternOffsetsTest, BsRangeSequentialShrinksTheLastBlockToFit) {
  JobSpec job = MakeJob(RwMode::kRead);
  job.bs[0] = {4 * kKi, 64 * kKi, {}};
  std::vector<PatternRegion> regions{{0, 1000 * 4 * kKi, 0}};
  auto v = Pass(Make(job, regions).get());
  uint64_t expect = 0;
  for (const auto& io : v) {
    EXPECT_EQ(io.offset, expect);
    expect += io.length;
  }
  EXPECT_EQ(expect, 1000 * 4 * kKi);
}

TEST(PatternOffsetsTest, BsUnalignedGivesAnySizeInRange) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.bs[0] = {1000, 3000, {}};
  job.bs_unaligned = true;
  job.norandommap = true;
  std::vector<PatternRegion> regions{{0, 4096 * kKi, 0}};
  auto v = Take(Make(job, regions).get(), 5000);
  ExpectInside(v, regions, 1000);
  int odd = 0;
  for (const auto& io : v) {
    EXPECT_GE(io.length, 1000u);
    EXPECT_LE(io.length, 3000u);
    odd += io.length % 1000 != 0;
  }
  EXPECT_GT(odd, 4900);
}

TEST(PatternOffsetsTest, BsSplitShares) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.bs[0].split = {{4 * kKi, 10}, {64 * kKi, 50}, {32 * kKi, 40}};
  job.bs[0].min = 4 * kKi;
  job.bs[0].max = 64 * kKi;
  job.norandommap = true;
  std::vector<PatternRegion> regions{{0, 64 * 1024 * kKi, 0}};
  auto v = Take(Make(job, regions).get(), 100000);
  ExpectInside(v, regions, 4 * kKi);
  std::map<uint64_t, int> n;
  for (const auto& io : v) ++n[io.length];
  ASSERT_EQ(n.size(), 3u);
  EXPECT_NEAR(n[4 * kKi] / 1000.0, 10, 0.6);
  EXPECT_NEAR(n[64 * kKi] / 1000.0, 50, 0.6);
  EXPECT_NEAR(n[32 * kKi] / 1000.0, 40, 0.6);
}

// fio 3.33 rounds each bssplit size down to a multiple of the direction's
// smallest one unless bs_unaligned (get_next_buflen), measured with
// write_iolog on rw=read size=96k: 4k/50:6k/50 reads 24 x 4096,
// 3k/50:4k/50 32 x 3072, 4k/50:12k/50 keeps 12k, and with bs_unaligned=1
// 4k and 6k. A random map job then covers each block once (randread
// size=1m with 4k/50:6k/50: fio 256 I/Os, 1 MiB; iobench used to issue 180
// I/Os, 872 KiB, its 6k I/Os using up 4k blocks they only half read).
// A bssplit whose smallest size has a 0% share: that size is still the
// direction's minimum (fio 3.33's min_bs: 4k offsets, 4k map blocks) but is
// never drawn, so where less than the next size is left (a tail of the
// file, a slot before a used block) the drawn size shrinks to the largest
// multiple of the minimum that fits, as a bsrange does. iobench used to
// plan length 0 there: with 4k/0:16k/100 on 256k a psync randwrite failed
// with ENOSPC on pwrite(fd, buf, 0, 249856), a randread counted "reads
// that found the end of the file", and percentage_random=50 ended its pass
// after 3 I/Os. Never a zero-length I/O; each block once per pass.
TEST(PatternOffsetsTest, BsSplitWithAZeroShareMinimumNeverPlansZeroLength) {
  struct Case {
    RwMode rw;
    uint64_t small;  // the 0% size
    uint32_t perc_random;
    size_t ios[2];  // seed 1's I/Os in two passes over 256k
  };
  const Case cases[] = {
      {RwMode::kRandWrite, 4 * kKi, 100, {21, 21}}, {RwMode::kRandRead, 4 * kKi, 100, {21, 21}},
      {RwMode::kRandTrim, 4 * kKi, 100, {21, 21}},  {RwMode::kRandRW, 4 * kKi, 100, {21, 21}},
      {RwMode::kRandWrite, 512, 100, {21, 23}},     {RwMode::kRandRead, 4 * kKi, 50, {16, 17}},
      {RwMode::kWrite, 4 * kKi, 100, {17, 17}},  // 264k: 16 x 16k, then the 8k tail
  };
  for (const Case& c : cases) {
    JobSpec job = MakeJob(c.rw);
    for (auto& b : job.bs) {
      b.min = c.small;
      b.max = 16 * kKi;
      b.split = {{c.small, 0}, {16 * kKi, 100}};
    }
    for (uint32_t& pr : job.percentage_random) pr = c.perc_random;
    const uint64_t size = c.rw == RwMode::kWrite ? 264 * kKi : 256 * kKi;
    std::vector<PatternRegion> regions{{0, size, 0}};
    auto p = Make(job, regions);
    ASSERT_NE(p, nullptr);
    const std::string what = std::to_string(static_cast<int>(c.rw)) + " " +
                             std::to_string(c.small) + " pr" + std::to_string(c.perc_random);
    for (int pass = 0; pass < 2; ++pass) {
      auto v = Pass(p.get());
      ExpectInside(v, regions, c.small);  // (length > 0 included)
      uint64_t bytes = 0;
      for (const auto& io : v) bytes += io.length;
      if (c.perc_random == 100 && c.rw != RwMode::kWrite) {
        ExpectEachBlockOnce(v, regions, c.small);
      } else {
        EXPECT_GE(bytes, size) << what;  // a whole pass, not 3 I/Os
      }
      EXPECT_EQ(v.size(), c.ios[pass]) << what << " pass " << pass;
      p->Reset();
    }
  }
}

TEST(PatternOffsetsTest, BsSplitSizesRoundDownToTheSmallestUnlessUnaligned) {
  struct Case {
    std::vector<BsSplitEntry> split;
    bool unaligned;
    std::set<uint64_t> lens;
  };
  const Case cases[] = {
      {{{4 * kKi, 50}, {6 * kKi, 50}}, false, {4 * kKi}},
      {{{3 * kKi, 50}, {4 * kKi, 50}}, false, {3 * kKi}},
      {{{4 * kKi, 50}, {12 * kKi, 50}}, false, {4 * kKi, 12 * kKi}},
      {{{6 * kKi, 50}, {4 * kKi, 50}}, true, {4 * kKi, 6 * kKi}},
  };
  for (const Case& c : cases) {
    for (RwMode mode : {RwMode::kRead, RwMode::kRandRead}) {
      JobSpec job = MakeJob(mode);
      job.bs_unaligned = c.unaligned;
      job.bs[0].split = c.split;
      job.bs[0].min = *c.lens.begin();
      job.bs[0].max = std::max(c.split[0].bs, c.split[1].bs);
      const uint64_t size = mode == RwMode::kRead ? 96 * kKi : 384 * kKi;
      std::vector<PatternRegion> regions{{0, size, 0}};
      auto v = Pass(Make(job, regions).get());
      std::set<uint64_t> lens;
      uint64_t bytes = 0;
      for (const auto& io : v) {
        lens.insert(io.length);
        bytes += io.length;
      }
      const std::string what = std::to_string(c.split[0].bs) + "/" + std::to_string(c.split[1].bs) +
                               (c.unaligned ? " unaligned" : "") +
                               (mode == RwMode::kRead ? " read" : " randread");
      if (mode == RwMode::kRead) {
        EXPECT_EQ(lens, c.lens) << what;
        EXPECT_EQ(bytes, size) << what;
      } else if (!c.unaligned) {
        // (The map cuts a 12k I/O short of a used block, to 8k or 4k.)
        for (uint64_t len : lens) EXPECT_EQ(len % *c.lens.begin(), 0u) << what;
        ExpectEachBlockOnce(v, regions, *c.lens.begin());
      }
      if (c.lens.size() == 1) {
        EXPECT_EQ(v.size(), size / *c.lens.begin()) << what;
      }
    }
  }
  // Per direction, each with its own smallest size (fio: rw=rw with
  // bssplit=4k/50:6k/50,8k/50:12k/50 reads 4k and writes 8k).
  JobSpec job = MakeJob(RwMode::kReadWrite);
  job.bs[0] = {4 * kKi, 6 * kKi, {{4 * kKi, 50}, {6 * kKi, 50}}};
  job.bs[1] = {8 * kKi, 12 * kKi, {{8 * kKi, 50}, {12 * kKi, 50}}};
  auto v = Pass(Make(job, {{0, 1024 * kKi, 0}}).get());
  for (const auto& io : v) EXPECT_EQ(io.length, io.ddir == Ddir::kRead ? 4 * kKi : 8 * kKi);
}

TEST(PatternOffsetsTest, PerDirectionBlockSizes) {
  JobSpec job = MakeJob(RwMode::kRandRW);
  job.bs[0] = {4 * kKi, 4 * kKi, {}};
  job.bs[1] = {16 * kKi, 16 * kKi, {}};
  job.norandommap = true;
  std::vector<PatternRegion> regions{{0, 16 * 1024 * kKi, 0}};
  auto v = Take(Make(job, regions).get(), 2000);
  for (const auto& io : v) {
    EXPECT_EQ(io.length, io.ddir == Ddir::kRead ? 4 * kKi : 16 * kKi);
    EXPECT_EQ(io.offset % (io.ddir == Ddir::kRead ? 4 * kKi : 16 * kKi), 0u);
  }
}

// A mixed job whose directions have different block sizes (bs=4k,16k):
// each direction's random offsets are multiples of its own smallest block
// size and its I/Os never shorter than that (fio: ba[ddir] defaults to
// min_bs[ddir]), in every random mode; the pass is size bytes.
struct DirCheck {
  uint64_t align[2];
  uint64_t min[2];
  uint64_t max[2];
};
void ExpectPerDirection(const std::vector<IoPlan>& v, uint64_t size, const DirCheck& c,
                        const char* what) {
  ASSERT_FALSE(v.empty()) << what;
  uint64_t bytes = 0;
  int n[2] = {0, 0};
  for (const IoPlan& io : v) {
    const int d = static_cast<int>(io.ddir);
    ASSERT_LT(d, 2) << what;
    ++n[d];
    ASSERT_EQ(io.offset % c.align[d], 0u) << what << " ddir " << d << " offset " << io.offset;
    ASSERT_GE(io.length, c.min[d]) << what << " ddir " << d << " offset " << io.offset;
    ASSERT_LE(io.length, c.max[d]) << what;
    ASSERT_EQ(io.length % c.min[d], 0u) << what;
    ASSERT_LE(io.offset + io.length, size) << what;
    bytes += io.length;
  }
  EXPECT_GT(n[0], 0) << what;
  EXPECT_GT(n[1], 0) << what;
  // A pass is size bytes: the I/O that reaches it is the last.
  EXPECT_GE(bytes, size) << what;
  EXPECT_LT(bytes - v.back().length, size) << what;
}

// I/Os of one direction in one pass never overlap (the random map).
void ExpectNoOverlapWithin(const std::vector<IoPlan>& v, Ddir d) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (const IoPlan& io : v)
    if (io.ddir == d) r.emplace_back(io.offset, io.offset + io.length);
  std::sort(r.begin(), r.end());
  for (size_t i = 1; i < r.size(); ++i)
    ASSERT_LE(r[i - 1].second, r[i].first)
        << "ddir " << static_cast<int>(d) << " at " << r[i].first;
}

TEST(PatternOffsetsTest, PerDirectionBlockSizesInEveryRandomMode) {
  const uint64_t size = 2048 * kKi;
  const DirCheck fixed{{4 * kKi, 16 * kKi}, {4 * kKi, 16 * kKi}, {4 * kKi, 16 * kKi}};
  auto base = [] {
    JobSpec job = MakeJob(RwMode::kRandRW);
    job.rwmixread = 70;
    job.bs[1] = {16 * kKi, 16 * kKi, {}};
    return job;
  };
  {
    JobSpec job = base();  // the random map
    auto p = Make(job, {{0, size, 0}});
    for (int pass = 0; pass < 3; ++pass) {
      auto v = Pass(p.get());
      ExpectPerDirection(v, size, fixed, "map");
      ExpectNoOverlapWithin(v, Ddir::kRead);
      ExpectNoOverlapWithin(v, Ddir::kWrite);
      p->Reset();
    }
    // blockalign equal to each direction's bs keeps the map (fio does too).
    job.blockalign[0] = 4 * kKi;
    job.blockalign[1] = 16 * kKi;
    auto v = Pass(Make(job, {{0, size, 0}}).get());
    ExpectPerDirection(v, size, fixed, "blockalign=4k,16k");
    ExpectNoOverlapWithin(v, Ddir::kRead);
    ExpectNoOverlapWithin(v, Ddir::kWrite);
  }
  {
    JobSpec job = base();
    job.random_generator = RandomGenerator::kLfsr;
    ExpectPerDirection(Pass(Make(job, {{0, size, 0}}).get()), size, fixed, "lfsr");
  }
  {
    JobSpec job = base();
    job.norandommap = true;
    ExpectPerDirection(Pass(Make(job, {{0, size, 0}}).get()), size, fixed, "norandommap");
  }
  const DistType dists[] = {DistType::kZipf, DistType::kPareto, DistType::kNormal,
                            DistType::kZoned};
  const double params[] = {1.2, 0.2, 20, 0};
  for (int i = 0; i < 4; ++i) {
    JobSpec job = base();
    job.random_distribution.type = dists[i];
    job.random_distribution.param = params[i];
    if (dists[i] == DistType::kZoned) {
      job.random_distribution.zones[0] = {{60, 10, 0}, {30, 30, 0}, {10, 60, 0}};
    }
    ExpectPerDirection(Pass(Make(job, {{0, size, 0}}).get()), size, fixed, "distribution");
  }
  {
    // blockalign set per direction: the write offsets follow it.
    JobSpec job = base();
    job.blockalign[0] = 4 * kKi;
    job.blockalign[1] = 32 * kKi;
    ExpectPerDirection(Pass(Make(job, {{0, size, 0}}).get()), size,
                       {{4 * kKi, 32 * kKi}, {4 * kKi, 16 * kKi}, {4 * kKi, 16 * kKi}},
                       "blockalign=4k,32k");
  }
}

TEST(PatternOffsetsTest, PerDirectionRangesAndSplitsWithTheRandomMap) {
  const uint64_t size = 2048 * kKi;
  const DirCheck ranges{{4 * kKi, 16 * kKi}, {4 * kKi, 16 * kKi}, {8 * kKi, 32 * kKi}};
  for (int split = 0; split < 2; ++split) {
    JobSpec job = MakeJob(RwMode::kRandRW);
    job.rwmixread = 70;
    if (split) {
      job.bs[0] = {4 * kKi, 8 * kKi, {{4 * kKi, 50}, {8 * kKi, 50}}};
      job.bs[1] = {16 * kKi, 32 * kKi, {{16 * kKi, 50}, {32 * kKi, 50}}};
    } else {
      job.bs[0] = {4 * kKi, 8 * kKi, {}};
      job.bs[1] = {16 * kKi, 32 * kKi, {}};
    }
    auto p = Make(job, {{0, size, 0}});
    for (int pass = 0; pass < 3; ++pass) {
      auto v = Pass(p.get());
      ExpectPerDirection(v, size, ranges, split ? "bssplit" : "bsrange");
      ExpectNoOverlapWithin(v, Ddir::kRead);
      ExpectNoOverlapWithin(v, Ddir::kWrite);
      std::set<uint64_t> wl;
      for (const auto& io : v)
        if (io.ddir == Ddir::kWrite) wl.insert(io.length);
      EXPECT_EQ(wl, (std::set<uint64_t>{16 * kKi, 32 * kKi}));
      p->Reset();
    }
  }
}

TEST(PatternOffsetsTest, APassEndsWhenNoSlotOfTheLargerBlockIsFree) {
  // Writes of 16k on 2 MiB + 4k with 4k reads (rwmixread=0: writes only):
  // the last 4k is no write's, so once every 16k slot is used the pass
  // ends (it does not spin, nor issue a short write).
  JobSpec job = MakeJob(RwMode::kRandRW);
  job.rwmixread = 0;
  job.bs[1] = {16 * kKi, 16 * kKi, {}};
  auto p = Make(job, {{0, 2052 * kKi, 0}});
  for (int pass = 0; pass < 2; ++pass) {
    auto v = Pass(p.get());
    ASSERT_EQ(v.size(), 128u);
    for (const auto& io : v) {
      EXPECT_EQ(io.ddir, Ddir::kWrite);
      EXPECT_EQ(io.length, 16 * kKi);
      EXPECT_EQ(io.offset % (16 * kKi), 0u);
    }
    ExpectNoOverlapWithin(v, Ddir::kWrite);
    p->Reset();
  }
}

TEST(PatternOffsetsTest, BsIsSeqRandUsesWriteSizesForRandomIos) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.bs_is_seq_rand = true;
  job.bs[0] = {4 * kKi, 4 * kKi, {}};    // sequential I/Os
  job.bs[1] = {16 * kKi, 16 * kKi, {}};  // random I/Os
  job.percentage_random[0] = 50;
  job.norandommap = true;
  auto v = Pass(Make(job, {{0, 1024 * 1024 * kKi, 0}}).get(), 10000);  // no pass end
  int seq = 0, rnd = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    const bool contiguous = v[i].offset == v[i - 1].offset + v[i - 1].length;
    if (v[i].length == 4 * kKi) {
      EXPECT_TRUE(contiguous) << i;
      ++seq;
    } else {
      EXPECT_EQ(v[i].length, 16 * kKi);
      ++rnd;
    }
  }
  EXPECT_NEAR(seq / 100.0, 50, 2);
  EXPECT_NEAR(rnd / 100.0, 50, 2);
}

TEST(PatternOffsetsTest, MoreThan2To32BlocksReachesTheWholeRegion) {
  JobSpec job = MakeJob(RwMode::kRandRead, 512);
  job.norandommap = true;                    // no 1 GiB map for this test
  const uint64_t size = (1ULL << 33) * 512;  // 2^33 blocks: tausworthe64 is picked
  std::vector<PatternRegion> regions{{0, size, 0}};
  auto p = Make(job, regions);
  IoPlan io;
  int high = 0;
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(p->Next(&io));
    ASSERT_LE(io.offset + io.length, size);
    ASSERT_EQ(io.offset % 512, 0u);
    high += io.offset >= size / 2;
  }
  EXPECT_NEAR(high / 100.0, 50, 2);
}

TEST(PatternOffsetsTest, BlockAlignAndDeviceAlignment) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.blockalign[0] = 1024;  // turns the random map off, as in fio
  std::vector<PatternRegion> regions{{0, 1024 * kKi, 0}};
  auto v = Pass(Make(job, regions).get());
  ASSERT_EQ(v.size(), 256u);
  ExpectInside(v, regions, 1024);
  int unaligned4k = 0;
  for (const auto& io : v) unaligned4k += io.offset % (4 * kKi) != 0;
  EXPECT_GT(unaligned4k, 100);
  // With a device logical block size of 4k, offsets respect it too.
  regions[0].block_align = 4 * kKi;
  v = Pass(Make(job, regions).get());
  ExpectInside(v, regions, 4 * kKi);
}

TEST(PatternOffsetsTest, PercentageRandom) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.percentage_random[0] = 0;
  std::vector<PatternRegion> regions{{0, 256 * 4 * kKi, 0}};
  auto v = Pass(Make(job, regions).get());
  ASSERT_EQ(v.size(), 256u);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].offset, i * 4 * kKi);

  job.percentage_random[0] = 25;
  job.norandommap = true;
  regions[0].size = 1024 * 1024 * kKi;
  v = Take(Make(job, regions).get(), 40000);
  int seq = 0;
  for (size_t i = 1; i < v.size(); ++i) seq += v[i].offset == v[i - 1].offset + v[i - 1].length;
  EXPECT_NEAR(seq / 400.0, 75, 1.0);
}

// A random job's sequential continuation (percentage_random, rw=randread:N)
// that does not fit ends the pass, as in fio 3.33; a fixed block may run past
// the region inside the file, as a sequential job's does. fio 3.33,
// percentage_random=0 norandommap bs=4k size=26k: the null engine reads 0,
// 4k, ..., 20k (6 I/Os); psync on an existing 1 MiB file reads 24k too.
// (iobench took a random offset instead: 7 I/Os, the last at random.)
TEST(PatternOffsetsTest, ContinuationThatDoesNotFitEndsThePass) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.percentage_random[0] = 0;
  job.norandommap = true;
  auto offsets = [](const std::vector<IoPlan>& v) {
    std::vector<uint64_t> o;
    for (const auto& io : v) o.push_back(io.offset / kKi);
    return o;
  };
  const std::vector<uint64_t> six{0, 4, 8, 12, 16, 20};
  EXPECT_EQ(offsets(Pass(Make(job, {{0, 26 * kKi, 0, 26 * kKi}}).get())), six);
  const std::vector<uint64_t> seven{0, 4, 8, 12, 16, 20, 24};
  EXPECT_EQ(offsets(Pass(Make(job, {{0, 26 * kKi, 0, 1024 * kKi}}).get())), seven);
  job.rw_nr = 4;  // rw=randread:4: the same end
  job.percentage_random[0] = 100;
  int early = 0;  // passes a continuation from 20k ended (the others: 26k issued)
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    auto v = Pass(Make(job, {{0, 26 * kKi, 0, 26 * kKi}}, seed).get());
    ASSERT_FALSE(v.empty());
    if (v.size() == 7) continue;
    EXPECT_EQ(v.back().offset, 20 * kKi) << "seed " << seed;
    EXPECT_NE(v.size() % 4, 0u) << "seed " << seed << ": a random offset was due";
    ++early;
  }
  EXPECT_GT(early, 0);
  // With the LFSR too (fio: 6).
  job.rw_nr = 1;
  job.percentage_random[0] = 0;
  job.norandommap = false;
  job.random_generator = RandomGenerator::kLfsr;
  EXPECT_EQ(offsets(Pass(Make(job, {{0, 26 * kKi, 0, 26 * kKi}}).get())), six);
}

// Share of hits that land on the hottest `frac` of the blocks.
double HotShare(const std::vector<IoPlan>& v, uint64_t blocks, double frac) {
  std::vector<uint32_t> hits(blocks, 0);
  for (const auto& io : v) ++hits[io.offset / (4 * kKi)];
  std::sort(hits.begin(), hits.end(), std::greater<>());
  const uint64_t k = static_cast<uint64_t>(frac * static_cast<double>(blocks));
  double top = 0;
  for (uint64_t i = 0; i < k; ++i) top += hits[i];
  return top / static_cast<double>(v.size());
}

TEST(PatternOffsetsTest, ZipfHotSetGetsMostHits) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZipf;
  job.random_distribution.param = 1.2;
  const uint64_t blocks = 10000;
  std::vector<PatternRegion> regions{{0, blocks * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Take(p.get(), 400000);
  ExpectInside(v, regions, 4 * kKi);
  double h_all = 0, h_top = 0;
  for (uint64_t r = 1; r <= blocks; ++r) {
    const double w = std::pow(static_cast<double>(r), -1.2);
    h_all += w;
    if (r <= blocks / 100) h_top += w;
  }
  EXPECT_NEAR(HotShare(v, blocks, 0.01), h_top / h_all, 0.01);  // ~0.66
}

TEST(PatternOffsetsTest, ParetoTwentyPercentGetEighty) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kPareto;
  job.random_distribution.param = 0.2;
  const uint64_t blocks = 10000;
  auto v = Take(Make(job, {{0, blocks * 4 * kKi, 0}}).get(), 400000);
  EXPECT_NEAR(HotShare(v, blocks, 0.2), 0.8, 0.01);
}

TEST(PatternOffsetsTest, NormalConcentratesAroundTheCenter) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kNormal;
  job.random_distribution.param = 10;  // sigma = 10% of the file
  const uint64_t blocks = 10000;
  auto v = Take(Make(job, {{0, blocks * 4 * kKi, 0}}).get(), 200000);
  int within = 0;
  for (const auto& io : v) {
    const uint64_t b = io.offset / (4 * kKi);
    within += b >= 4000 && b < 6000;
  }
  EXPECT_NEAR(within / 200000.0, 0.6827, 0.01);
}

TEST(PatternOffsetsTest, ZonedPercentages) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZoned;
  job.random_distribution.zones[0] = {{60, 10, 0}, {30, 20, 0}, {8, 30, 0}, {2, 40, 0}};
  const uint64_t blocks = 10000;
  auto v = Take(Make(job, {{0, blocks * 4 * kKi, 0}}).get(), 200000);
  double zone[4] = {0, 0, 0, 0};
  for (const auto& io : v) {
    const uint64_t b = io.offset / (4 * kKi);
    zone[b < 1000 ? 0 : b < 3000 ? 1 : b < 6000 ? 2 : 3] += 1;
  }
  EXPECT_NEAR(zone[0] / 2000, 60, 0.5);
  EXPECT_NEAR(zone[1] / 2000, 30, 0.5);
  EXPECT_NEAR(zone[2] / 2000, 8, 0.5);
  EXPECT_NEAR(zone[3] / 2000, 2, 0.5);
}

TEST(PatternOffsetsTest, ZonedAbsPercentagesPerDirection) {
  JobSpec job = MakeJob(RwMode::kRandRW);
  job.random_distribution.type = DistType::kZonedAbs;
  job.random_distribution.zones[0] = {{90, 0, 1024 * kKi}, {10, 0, 3072 * kKi}};
  job.random_distribution.zones[1] = {{100, 0, 512 * kKi}};
  auto v = Take(Make(job, {{0, 4096 * kKi, 0}}).get(), 100000);
  double reads = 0, reads_low = 0;
  for (const auto& io : v) {
    if (io.ddir == Ddir::kWrite) {
      ASSERT_LT(io.offset, 512 * kKi);
    } else {
      reads += 1;
      reads_low += io.offset < 1024 * kKi;
    }
  }
  EXPECT_NEAR(reads_low / reads, 0.9, 0.01);
}

TEST(PatternOffsetsTest, ZonedSharesBelowHundredAreSpreadProRata) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZoned;
  job.random_distribution.zones[0] = {{30, 50, 0}, {30, 50, 0}};
  auto v = Take(Make(job, {{0, 1000 * 4 * kKi, 0}}).get(), 100000);
  double low = 0;
  for (const auto& io : v) low += io.offset < 500 * 4 * kKi;
  EXPECT_NEAR(low / 100000, 0.5, 0.01);
}

// A zone smaller than a block was dropped and its share spread over the
// others: zoned:50/1:50/99 on 16 blocks read block 0 as often as any other.
// fio 3.33 makes such a zone (1%, 0%, a 1k or 0-byte zoned_abs zone) the
// block it starts in: block 0 gets 50% + 50%/16 (fio: 543 of 1024 reads).
// A zoned_abs zone that starts past the region is still dropped.
TEST(PatternOffsetsTest, ZoneBelowABlockIsTheBlockItStartsIn) {
  const uint64_t blocks = 16;
  auto block_share = [&](DistType type, std::vector<DistZone> zones, uint64_t block) {
    JobSpec job = MakeJob(RwMode::kRandRead);
    job.random_distribution.type = type;
    job.random_distribution.zones[0] = std::move(zones);
    auto v = Take(Make(job, {{0, blocks * 4 * kKi, 0}}).get(), 100000);
    double n = 0;
    for (const auto& io : v) n += io.offset == block * 4 * kKi;
    return n / 100000;
  };
  auto block0_share = [&](DistType type, std::vector<DistZone> zones) {
    return block_share(type, std::move(zones), 0);
  };
  const double want = 0.5 + 0.5 / blocks;
  EXPECT_NEAR(block0_share(DistType::kZoned, {{50, 1, 0}, {50, 99, 0}}), want, 0.01);
  EXPECT_NEAR(block0_share(DistType::kZoned, {{50, 0, 0}, {50, 100, 0}}), want, 0.01);
  EXPECT_NEAR(block0_share(DistType::kZonedAbs, {{50, 0, kKi}, {50, 0, 63 * kKi}}), want, 0.01);
  EXPECT_NEAR(block0_share(DistType::kZonedAbs, {{50, 0, 0}, {50, 0, 64 * kKi}}), want, 0.01);
  // Mid-file: zoned:50/50:25/1:25/49 puts 25% on block 8 (+ its share of zone 3).
  EXPECT_NEAR(block_share(DistType::kZoned, {{50, 50, 0}, {25, 1, 0}, {25, 49, 0}}, 8),
              0.25 + 0.25 / 8, 0.01);
  // Past the region: dropped, the other zone takes every access.
  EXPECT_NEAR(block0_share(DistType::kZonedAbs, {{50, 0, 64 * kKi}, {50, 0, 64 * kKi}}),
              1.0 / blocks, 0.01);
}

// zoned:50/30:50/30: the zones cover the first 60% of the region, as in fio.
TEST(PatternOffsetsTest, ZonedSizeSharesBelowHundredCoverTheStart) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZoned;
  job.random_distribution.zones[0] = {{50, 30, 0}, {50, 30, 0}};
  auto v = Take(Make(job, {{0, 1000 * 4 * kKi, 0}}).get(), 100000);
  double low = 0;
  for (const auto& io : v) {
    ASSERT_LT(io.offset, 600 * 4 * kKi);
    low += io.offset < 300 * 4 * kKi;
  }
  EXPECT_NEAR(low / 100000, 0.5, 0.01);
}

TEST(PatternOffsetsTest, FileServiceSequentialFinishesOneFileFirst) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.file_service_type = FileServiceType::kSequential;
  std::vector<PatternRegion> regions{{0, 50 * 4 * kKi, 0}, {0, 30 * 4 * kKi, 0}};
  auto v = Pass(Make(job, regions).get());
  ASSERT_EQ(v.size(), 80u);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].file, i < 50 ? 0u : 1u);
  ExpectEachBlockOnce(v, regions, 4 * kKi);
}

TEST(PatternOffsetsTest, FileServiceRandomMixesFiles) {
  JobSpec job = MakeJob(RwMode::kRead);
  job.file_service_type = FileServiceType::kRandom;
  std::vector<PatternRegion> regions{{0, 500 * 4 * kKi, 0}, {0, 500 * 4 * kKi, 0}};
  auto v = Pass(Make(job, regions).get());
  ASSERT_EQ(v.size(), 1000u);
  uint64_t next[2] = {0, 0};
  int switches = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].offset, next[v[i].file]);  // each file still sequential
    next[v[i].file] += 4 * kKi;
    if (i > 0) switches += v[i].file != v[i - 1].file;
  }
  EXPECT_GT(switches, 300);
}

// file_service_type=roundrobin:3: three I/Os to a file, then the next (fio's
// write_iolog shows the same file sequence); a finished file is skipped.
TEST(PatternOffsetsTest, FileServiceSwitchCount) {
  JobSpec job = MakeJob(RwMode::kRead);
  job.file_service_nr = 3;
  std::vector<PatternRegion> regions{{0, 4 * 4 * kKi, 0}, {0, 8 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 12u);
  const std::vector<uint32_t> want{0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1};
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].file, want[i]) << "I/O " << i;
  ExpectEachBlockOnce(v, regions, 4 * kKi);
}

// A time_based random job over files of different sizes, as fio 3.33's
// get_next_rand_block: a file whose random offsets run out is reset in
// place (kRestart) and the file service keeps turning, so each file gets its
// share of the I/Os whatever its size (a=16k b=64k roundrobin: fio 1000 and
// 1001 in 1 s at 2000 IOPS; ending each file's pass on its own gave 400 and
// 1600: a waited for b). Each file still uses each of its blocks once per
// own pass. Without time_based, and for a sequential job (fio wraps only
// nr_files=1), the pass ends as before: 4 and 16.
TEST(PatternOffsetsTest, TimeBasedRandomFilesRestartInPlaceAndKeepTheirTurn) {
  const std::vector<PatternRegion> regions{{0, 4 * 4 * kKi, 0}, {0, 16 * 4 * kKi, 0}};
  struct Case {
    RwMode rw;
    FileServiceType service;
    uint32_t nr;
    bool norandommap;
    RandomGenerator gen;
    uint32_t perc_random;
  };
  const Case cases[] = {
      {RwMode::kRandRead, FileServiceType::kRoundRobin, 1, false, RandomGenerator::kTausworthe,
       100},
      {RwMode::kRandRead, FileServiceType::kRoundRobin, 2, false, RandomGenerator::kTausworthe,
       100},
      {RwMode::kRandRead, FileServiceType::kRandom, 1, false, RandomGenerator::kTausworthe, 100},
      {RwMode::kRandRead, FileServiceType::kRoundRobin, 1, true, RandomGenerator::kTausworthe, 100},
      {RwMode::kRandRead, FileServiceType::kRoundRobin, 1, false, RandomGenerator::kLfsr, 100},
      {RwMode::kRandRead, FileServiceType::kRoundRobin, 1, false, RandomGenerator::kTausworthe, 50},
      {RwMode::kRandRW, FileServiceType::kRoundRobin, 1, false, RandomGenerator::kTausworthe, 100},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "rw " << static_cast<int>(c.rw) << " service " << static_cast<int>(c.service)
                 << ":" << c.nr << " norandommap " << c.norandommap << " gen "
                 << static_cast<int>(c.gen) << " perc " << c.perc_random);
    JobSpec job = MakeJob(c.rw);
    job.file_service_type = c.service;
    job.file_service_nr = c.nr;
    job.norandommap = c.norandommap;
    job.random_generator = c.gen;
    for (uint32_t& p : job.percentage_random) p = c.perc_random;
    job.time_based = true;
    auto p = Make(job, regions);
    IoPlan io;
    uint64_t per_file[2] = {0, 0};
    uint64_t restarts[2] = {0, 0};
    std::vector<IoPlan> on_a;  // file 0's I/Os
    for (int i = 0; i < 400; ++i) {
      ASSERT_TRUE(p->Next(&io)) << "I/O " << i;  // no pass ends: each file restarts
      for (const IoPattern::FileEvent& e : p->file_events()) {
        EXPECT_EQ(e.kind, IoPattern::FileEventKind::kRestart);
        ++restarts[e.file];
      }
      p->ClearFileEvents();
      ++per_file[io.file];
      if (io.file == 0) on_a.push_back(io);
    }
    if (c.service == FileServiceType::kRoundRobin) {
      EXPECT_EQ(per_file[0], 200u);
      EXPECT_EQ(per_file[1], 200u);
    } else {
      EXPECT_NEAR(static_cast<double>(per_file[0]), 200, 40);  // 80 before
    }
    EXPECT_GT(restarts[0], 10u);
    EXPECT_GT(restarts[1], 2u);
    if (!c.norandommap && c.perc_random == 100) {
      // Each of a's own passes (4 I/Os, each restart) uses its 4 blocks once.
      for (size_t k = 0; k + 4 <= on_a.size(); k += 4)
        ExpectEachBlockOnce({on_a.begin() + k, on_a.begin() + k + 4}, {regions[0]}, 4 * kKi);
    }
  }
  for (const RwMode rw : {RwMode::kRandRead, RwMode::kRead}) {
    for (const bool time_based : {false, true}) {
      if (rw == RwMode::kRandRead && time_based) continue;
      JobSpec job = MakeJob(rw);
      job.time_based = time_based;
      auto p = Make(job, regions);
      for (int pass = 0; pass < 2; ++pass) {
        auto v = Pass(p.get());
        ASSERT_EQ(v.size(), 20u) << "rw " << static_cast<int>(rw) << " tb " << time_based;
        EXPECT_EQ(std::count_if(v.begin(), v.end(), [](const IoPlan& x) { return x.file == 0; }),
                  4);
        EXPECT_TRUE(p->file_events().empty());
        p->Reset();
      }
    }
  }
}

TEST(PatternOffsetsTest, ResetMidPassStartsAFullPassAndEndedPassStaysEnded) {
  JobSpec job = MakeJob(RwMode::kRandWrite);
  std::vector<PatternRegion> regions{{0, 300 * 4 * kKi, 0}};
  auto p = Make(job, regions);
  IoPlan io;
  for (int i = 0; i < 123; ++i) ASSERT_TRUE(p->Next(&io));
  p->Reset();
  auto v = Pass(p.get());
  ASSERT_EQ(v.size(), 300u);
  ExpectEachBlockOnce(v, regions, 4 * kKi);
  EXPECT_FALSE(p->Next(&io));
  EXPECT_FALSE(p->Next(&io));
}

TEST(PatternOffsetsTest, SkewedPassEndsAfterSizeBytes) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZipf;
  job.random_distribution.param = 0.9;
  auto v = Pass(Make(job, {{0, 500 * 4 * kKi, 0}}).get());
  EXPECT_EQ(v.size(), 500u);
}

TEST(PatternOffsetsTest, InvalidSettingsAreRefusedWithTheOptionName) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  auto r = IoPattern::Create(job, {{0, 2 * kKi, 0}}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "file 0: region of 2048 bytes is smaller than the block size 4096");
  r = IoPattern::Create(job, {{512, 64 * kKi, 4096}}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "offset: 512 is not a multiple of the device's logical block size 4096");
  job.random_distribution.type = DistType::kPareto;
  job.random_distribution.param = 1.5;
  r = IoPattern::Create(job, {{0, 64 * kKi, 0}}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "random_distribution: pareto h must be between 0 and 1, got 1.500000");
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(IoPattern::Create(job, {}, 1).ok());
}

TEST(PatternOffsetsTest, DeriveSeed) {
  JobSpec job;
  EXPECT_EQ(DeriveSeed(job, 0), DeriveSeed(job, 0));  // randrepeat=1 default
  EXPECT_NE(DeriveSeed(job, 0), DeriveSeed(job, 1));
  JobSpec seeded;
  seeded.randseed = 42;
  EXPECT_EQ(DeriveSeed(seeded, 3), DeriveSeed(seeded, 3));
  EXPECT_NE(DeriveSeed(seeded, 3), DeriveSeed(job, 3));
  JobSpec other = seeded;
  other.randseed = 43;
  EXPECT_NE(DeriveSeed(seeded, 3), DeriveSeed(other, 3));
  JobSpec unrepeatable;
  unrepeatable.randrepeat = false;
  EXPECT_NE(DeriveSeed(unrepeatable, 0), DeriveSeed(unrepeatable, 0));
}

// zonemode=strided: the offsets fio 3.33 issues (write_iolog, psync, bs=4k,
// a 1 MiB file), in 4k blocks.
JobSpec StridedJob(uint64_t zsize, uint64_t zrange, uint64_t zskip, RwMode rw = RwMode::kRead) {
  JobSpec j = MakeJob(rw);
  j.zone_mode = JobSpec::ZoneMode::kStrided;
  j.zone_size = zsize;
  j.zone_range = zrange;
  j.zone_skip = zskip;
  return j;
}

std::vector<uint64_t> StridedBlocks(uint64_t zsize, uint64_t zrange, uint64_t zskip, bool skip_z,
                                    uint64_t offset, uint64_t size, size_t n,
                                    RwMode rw = RwMode::kRead) {
  JobSpec j = StridedJob(zsize, zrange, zskip, rw);
  j.zone_skip_zones = skip_z;
  PatternRegion r;
  r.offset = offset;
  r.size = size;
  r.file_size = 1024 * kKi;
  auto p = Make(j, {r});
  std::vector<uint64_t> out;
  if (p == nullptr) return out;
  for (const IoPlan& io : Take(p.get(), n)) out.push_back(io.offset / (4 * kKi));
  return out;
}

TEST(PatternStridedTest, SequentialZonesAsFio) {
  // zonesize=8k zonerange=16k zoneskip=32k size=1M: 2 blocks per 48k zone,
  // to the end of the file, then from the start again (256 I/Os in all).
  std::vector<uint64_t> v = StridedBlocks(8 * kKi, 16 * kKi, 32 * kKi, false, 0, 1024 * kKi, 48);
  std::vector<uint64_t> want;
  for (uint64_t z = 0; z < 22; ++z) want.insert(want.end(), {12 * z, 12 * z + 1});
  want.insert(want.end(), {0, 1, 12, 13});
  EXPECT_EQ(v, want);
  // zonesize 32k over a 16k zone: each zone twice.
  EXPECT_EQ(StridedBlocks(32 * kKi, 16 * kKi, 0, false, 0, 128 * kKi, 12),
            (std::vector<uint64_t>{0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7}));
  // zonerange 4k, zonesize 8k: each one-block zone twice.
  EXPECT_EQ(StridedBlocks(8 * kKi, 4 * kKi, 0, false, 0, 64 * kKi, 8),
            (std::vector<uint64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  // zoneskip=2z: two zones of zonesize skipped.
  EXPECT_EQ(StridedBlocks(8 * kKi, 0, 2, true, 0, 64 * kKi, 8),
            (std::vector<uint64_t>{0, 1, 6, 7, 12, 13, 18, 19}));
  // offset=64k: the walk starts there and goes past offset + size (to the
  // end of the file), as fio's does.
  EXPECT_EQ(StridedBlocks(8 * kKi, 0, 8 * kKi, false, 64 * kKi, 128 * kKi, 24),
            (std::vector<uint64_t>{16, 17, 20, 21, 24, 25, 28, 29, 32, 33, 36, 37,
                                   40, 41, 44, 45, 48, 49, 52, 53, 56, 57, 60, 61}));
}

// The offsets (KiB) of one pass of a strided job with bs and rw_skip on a
// file of file_kib, its region the whole file.
std::vector<uint64_t> StridedPassKib(JobSpec j, uint64_t bs, int64_t skip, uint64_t file_kib) {
  for (auto& b : j.bs) b.min = b.max = bs;
  j.rw_skip = skip;
  PatternRegion r;
  r.size = r.file_size = file_kib * kKi;
  auto p = Make(j, {r});
  std::vector<uint64_t> out;
  if (p == nullptr) return out;
  for (const IoPlan& io : Pass(p.get())) out.push_back(io.offset / kKi);
  return out;
}

TEST(PatternStridedTest, AHoledWalkStepsPastTheZoneEndAsFio) {
  // rw=read:28k bs=4k zonesize=16k zonerange=64k on 256k, fio 3.33: the
  // zone goes back to its start only once the last I/O ended at or past its
  // end (0 32 64, then 0), and the step past the file's end ends the pass:
  // 14 reads. iobench wrapped before the step (0 32 0 32) and walked the
  // file 4 times, 64 reads.
  EXPECT_EQ(StridedPassKib(StridedJob(16 * kKi, 64 * kKi, 0), 4 * kKi, 28 * kKi, 256),
            (std::vector<uint64_t>{0, 32, 64, 0, 64, 96, 128, 64, 128, 160, 192, 128, 192, 224}));
  // zoneskip=32k: zones at 0, 96k and 192k.
  EXPECT_EQ(StridedPassKib(StridedJob(16 * kKi, 64 * kKi, 32 * kKi), 4 * kKi, 28 * kKi, 256),
            (std::vector<uint64_t>{0, 32, 64, 0, 96, 128, 160, 96, 192, 224}));
  // rw=write:4k bs=512 zonesize=16k zonerange=128k size=4m: fio 1021
  // writes, 4.5k apart, 0 after 130.5k in each zone (iobench: 8192).
  std::vector<uint64_t> w =
      StridedPassKib(StridedJob(16 * kKi, 128 * kKi, 0, RwMode::kWrite), 512, 4 * kKi, 4096);
  EXPECT_EQ(w.size(), 1021u);
}

TEST(PatternStridedTest, ASequentialWalkRestartsAtEachMultipleOfZonerange) {
  // fio 3.33 resets the file (its position too) whenever the bytes issued
  // in the zone are a multiple of zonerange: zonesize=32k zonerange=6k
  // bs=4k on 256k reads 0 4 0, 0 4 0, 0 4 in each zone (iobench: 0 4 0 4
  // 0 4 0 4); zonesize=64k zonerange=16k rw=read:4k 0 8 16 0, 0 8 16 0, ...
  std::vector<uint64_t> v = StridedPassKib(StridedJob(32 * kKi, 6 * kKi, 0), 4 * kKi, 0, 256);
  ASSERT_GE(v.size(), 16u);
  EXPECT_EQ(std::vector<uint64_t>(v.begin(), v.begin() + 16),
            (std::vector<uint64_t>{0, 4, 0, 0, 4, 0, 0, 4, 6, 10, 6, 6, 10, 6, 6, 10}));
  v = StridedPassKib(StridedJob(64 * kKi, 16 * kKi, 0), 4 * kKi, 4 * kKi, 256);
  ASSERT_GE(v.size(), 20u);
  EXPECT_EQ(
      std::vector<uint64_t>(v.begin(), v.begin() + 20),
      (std::vector<uint64_t>{0, 8, 16, 0, 0, 8, 16, 0, 0, 8, 16, 0, 0, 8, 16, 0, 16, 24, 32, 16}));
}

TEST(PatternStridedTest, APassIsSizeBytesAndTheZoneCarriesOver) {
  // A time_based job's passes (one do_io in fio): the second pass goes on
  // from the zone the first left. (A new loop starts at the first zone:
  // StartLoop.)
  JobSpec j = StridedJob(8 * kKi, 16 * kKi, 32 * kKi);
  PatternRegion r;
  r.size = 128 * kKi;
  r.file_size = 1024 * kKi;
  auto p = Make(j, {r});
  ASSERT_NE(p, nullptr);
  std::vector<IoPlan> first = Pass(p.get());
  ASSERT_EQ(first.size(), 32u);
  EXPECT_EQ(first.back().offset, 181 * 4 * kKi);
  p->Reset();
  std::vector<IoPlan> second = Pass(p.get());
  ASSERT_EQ(second.size(), 32u);
  EXPECT_EQ(second.front().offset, 192 * 4 * kKi);
}

// A pattern over size bytes at offset of a 1 MiB file.
std::unique_ptr<IoPattern> MakeOn1M(const JobSpec& j, uint64_t size, uint64_t offset = 0) {
  PatternRegion r;
  r.offset = offset;
  r.size = size;
  r.file_size = 1024 * kKi;
  return Make(j, {r});
}

// The offsets (KiB) of one pass of p.
std::vector<uint64_t> PassKib(IoPattern* p) {
  std::vector<uint64_t> out;
  for (const IoPlan& io : Pass(p)) out.push_back(io.offset / kKi);
  return out;
}

TEST(PatternStridedTest, NoOffsetInsideAZoneAtOrPastTheRegionSize) {
  // rw=write bs=4k size=8k zonesize=16k zonerange=20k loops=2 on a 1 MiB
  // file, psync (the loops joined): fio 3.33 writes 0 4k, 0 4k. Its
  // get_next_offset fails once the offset inside the zone reaches size
  // (8k), and the file is done until the next loop. iobench wrote 0 4k 8k
  // 12k, past offset + size.
  JobSpec j = StridedJob(16 * kKi, 20 * kKi, 0, RwMode::kWrite);
  j.loops = 2;
  auto p = MakeOn1M(j, 8 * kKi);
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->JoinLoops());
  EXPECT_EQ(PassKib(p.get()), (std::vector<uint64_t>{0, 4}));
  EXPECT_TRUE(p->EndedAtFileEnd());
  StartLoop(p.get(), j);
  EXPECT_EQ(PassKib(p.get()), (std::vector<uint64_t>{0, 4}));
  // offset=64k zonerange=18k rw=read, libaio (passes of size bytes): each
  // loop reads 64k 68k (fio: the same), never 72k.
  j = StridedJob(16 * kKi, 18 * kKi, 0);
  j.loops = 3;
  p = MakeOn1M(j, 8 * kKi, 64 * kKi);
  ASSERT_NE(p, nullptr);
  for (int loop = 0; loop < 3; ++loop) {
    EXPECT_EQ(PassKib(p.get()), (std::vector<uint64_t>{64, 68})) << "loop " << loop;
    StartLoop(p.get(), j);
  }
}

TEST(PatternStridedTest, EachLoopStartsAtTheFirstZone) {
  // rw=read bs=4k size=64k zonesize=16k zonerange=128k loops=2, libaio
  // (a pass per loop): fio 3.33's clear_io_state puts the zone back at the
  // file's start, so loop 2 reads 0-12k, 128k-140k, ... as loop 1 did
  // (iobench went on at 512k).
  JobSpec j = StridedJob(16 * kKi, 128 * kKi, 0);
  j.loops = 2;
  auto p = MakeOn1M(j, 64 * kKi);
  ASSERT_NE(p, nullptr);
  const std::vector<uint64_t> first = PassKib(p.get());
  ASSERT_EQ(first.size(), 16u);
  EXPECT_EQ(first.back(), 396u);
  StartLoop(p.get(), j);
  EXPECT_EQ(PassKib(p.get()), first);
  // io_size=128k, libaio: fio's do_io ends at size bytes there too, and the
  // next starts at the first zone (iobench went on at 512k).
  j.loops = 1;
  j.io_size = 128 * kKi;
  p = MakeOn1M(j, 64 * kKi);
  ASSERT_NE(p, nullptr);
  (void)Pass(p.get());
  StartLoop(p.get(), j);
  EXPECT_EQ(PassKib(p.get()).front(), 0u);
  // time_based: one do_io in fio; the next pass goes on at 512k.
  j.io_size = 0;
  j.time_based = true;
  p = MakeOn1M(j, 64 * kKi);
  ASSERT_NE(p, nullptr);
  (void)Pass(p.get());
  StartLoop(p.get(), j);
  EXPECT_EQ(PassKib(p.get()).front(), 512u);
}

TEST(PatternStridedTest, TimeBasedWrapsToTheZoneStartBeforeTheRegionSize) {
  // time_based rw=read size=8k zonesize=16k zonerange=20k: fio 3.33 goes
  // back to the zone's start once its position reaches offset + size: 0 4k
  // 0 4k (iobench read 0 4k 8k 12k). In the zones past offset + size fio
  // reads the zone's first block over and over (20k 20k 20k 20k); iobench
  // walks them as without time_based, deliberately (docs/patterns.md).
  JobSpec j = StridedJob(16 * kKi, 20 * kKi, 0);
  j.time_based = true;
  auto p = MakeOn1M(j, 8 * kKi);
  ASSERT_NE(p, nullptr);
  std::vector<uint64_t> kib;
  for (const IoPlan& io : Take(p.get(), 8)) kib.push_back(io.offset / kKi);
  EXPECT_EQ(kib, (std::vector<uint64_t>{0, 4, 0, 4, 20, 24, 20, 24}));
  // randread: every offset inside the zone below 8k, and the job goes on.
  j.rw = RwMode::kRandRead;
  p = MakeOn1M(j, 8 * kKi);
  ASSERT_NE(p, nullptr);
  const std::vector<IoPlan> v = Take(p.get(), 64);
  for (const IoPlan& io : v) EXPECT_LT(io.offset % (20 * kKi), 8 * kKi) << io.offset;
}

TEST(PatternStridedTest, RandomOffsetsStayInTheirZoneEachBlockOncePerVisit) {
  // randwrite, zonesize=64k over 16k zones: 16 I/Os per zone, each of its
  // 4 blocks once in every 4 (the random map restarts with the zone).
  std::vector<uint64_t> v =
      StridedBlocks(64 * kKi, 16 * kKi, 0, false, 0, 256 * kKi, 64, RwMode::kRandWrite);
  ASSERT_EQ(v.size(), 64u);
  for (size_t i = 0; i < v.size(); i += 4) {
    std::set<uint64_t> four(v.begin() + static_cast<long>(i), v.begin() + static_cast<long>(i) + 4);
    const uint64_t zone = i / 16;
    EXPECT_EQ(four, (std::set<uint64_t>{4 * zone, 4 * zone + 1, 4 * zone + 2, 4 * zone + 3}))
        << "I/Os " << i << "-" << i + 3;
  }
}

TEST(PatternStridedTest, ALastZoneCutByTheEndEndsThePassAtTheEnd) {
  // 40k file, 16k zones, no skip: zones at 0, 16k and a 8k tail at 32k.
  JobSpec j = StridedJob(16 * kKi, 0, 0);
  PatternRegion r;
  r.size = 40 * kKi;
  r.file_size = 40 * kKi;
  auto p = Make(j, {r});
  ASSERT_NE(p, nullptr);
  std::vector<uint64_t> blocks;
  ASSERT_TRUE(p->JoinLoops());  // no byte budget: only the file's end ends the pass
  IoPlan io;
  while (blocks.size() < 14 && p->Next(&io)) blocks.push_back(io.offset / (4 * kKi));
  // The tail zone holds 2 blocks: read once each, then the next I/O would
  // end past the file and the pass ends (fio 3.33); the next pass starts
  // at the first zone.
  EXPECT_EQ(blocks, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_TRUE(p->EndedAtFileEnd());
  p->Reset();
  ASSERT_TRUE(p->Next(&io));
  EXPECT_EQ(io.offset, 0u);
  // A zone smaller than a block is refused, naming the mode, and the option
  // that sets the zone where the job set it.
  j.zone_size = 2 * kKi;
  auto bad = IoPattern::Create(j, {r}, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("zonemode=strided: a zone of 2048 bytes: "),
            std::string::npos)
      << bad.status().message();
  j.settings.push_back({"zonesize", "2k", OptionSource::kJob, "z.fio", 6});
  bad = IoPattern::Create(j, {r}, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("zonemode=strided: a zone of 2048 bytes (zonesize=2k, "
                                        "z.fio:6): "),
            std::string::npos)
      << bad.status().message();
  // More than one file is refused.
  j.zone_size = 16 * kKi;
  auto two = IoPattern::Create(j, {r, r}, 1);
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.status().message(),
            "zonemode=strided: a job with 2 files is not supported (one file per job)");
}

// zoned_abs zones past the region were cut to it without a word: the job
// does not do what its file says (fio 3.33 prints "zoned_abs sizes exceed
// file size" for each I/O). The pattern's note says it once; zones that
// fit give none.
TEST(PatternOffsetsTest, ZonedAbsPastTheRegionIsNoted) {
  JobSpec job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZonedAbs;
  job.random_distribution.zones[0] = {{50, 0, 32 * kKi}, {50, 0, 2048 * kKi}};
  EXPECT_EQ(Make(job, {{0, 1024 * kKi, 0}})->Note(),
            "random_distribution=zoned_abs: the read zones add up to 2129920 bytes, more than "
            "the region of file 0 (1048576 bytes): they were cut to it, a zone starting past its "
            "end dropped and its share of the accesses given to the others pro rata");
  job.random_distribution.zones[0] = {{50, 0, 32 * kKi}, {50, 0, 992 * kKi}};
  EXPECT_EQ(Make(job, {{0, 1024 * kKi, 0}})->Note(), "");
}

// Which patterns fio 3.33 never wraps (its offsets never run out), so a
// time_based job drops the page cache at its start only: every offset
// random, without a map or with a non-uniform distribution.
TEST(PatternWrapTest, RandomWithoutEndOnlyForUnboundedRandomOffsets) {
  const auto without_end = [](const JobSpec& job) {
    auto p = Make(job, {{0, 1024 * kKi, 0}});
    return p != nullptr && p->RandomWithoutEnd();
  };
  JobSpec job = MakeJob(RwMode::kRandRead);
  EXPECT_FALSE(without_end(job)) << "random map: a pass ends when it is full";
  job.norandommap = true;
  EXPECT_TRUE(without_end(job)) << "norandommap";
  job.rw = RwMode::kRandRW;
  EXPECT_TRUE(without_end(job)) << "randrw norandommap";
  job.rw_nr = 8;
  EXPECT_FALSE(without_end(job)) << "rw=randrw:8: its sequential steps wrap";
  job.rw_nr = 1;
  job.percentage_random[0] = job.percentage_random[1] = 50;
  EXPECT_FALSE(without_end(job)) << "percentage_random=50: its sequential part wraps";
  job = MakeJob(RwMode::kRandRead);
  job.random_generator = RandomGenerator::kLfsr;
  EXPECT_FALSE(without_end(job)) << "lfsr: a pass ends with its cycle";
  job = MakeJob(RwMode::kRandRead);
  job.random_distribution.type = DistType::kZipf;
  job.random_distribution.param = 1.2;
  EXPECT_TRUE(without_end(job)) << "zipf: fio turns the map off";
  EXPECT_FALSE(without_end(MakeJob(RwMode::kRead))) << "sequential";
  EXPECT_FALSE(without_end(MakeJob(RwMode::kWrite))) << "sequential";
  job = StridedJob(64 * kKi, 256 * kKi, 0, RwMode::kRandRead);
  EXPECT_FALSE(without_end(job)) << "strided, random map";
  job.norandommap = true;
  EXPECT_TRUE(without_end(job)) << "strided, norandommap: the zone's pattern says";
}

}  // namespace
}  // namespace iobench
