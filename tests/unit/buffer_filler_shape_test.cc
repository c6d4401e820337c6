// BufferFiller (run/pattern.h): how write buffers are shaped when the job
// has several write sizes, counted as fio 3.33's data is measured (4k
// blocks: duplicates by content, all-zero ones), and where a buffer_pattern
// starts in each buffer. See docs/patterns.md.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "run/pattern.h"

namespace iobench {
namespace {

constexpr uint64_t kBlock = 4096;

struct BlockCounts {
  uint64_t blocks = 0;
  uint64_t duplicates = 0;  // blocks whose content an earlier block had
  uint64_t zero = 0;        // all-zero blocks
};

// Writes `total` bytes the way a sequential job with this block size
// setting does (sizes drawn 50/50 from the split, or bs), each write filled
// by BeforeWrite, and counts its 4k blocks.
BlockCounts WriteAndCount(JobSpec job, uint64_t total) {
  job.rw = RwMode::kWrite;
  job.size = total;
  BufferFiller f(job, 7);
  std::vector<uint8_t> buf(job.bs[1].max);
  f.FillInitial(buf.data(), buf.size());
  std::set<std::string> seen;
  BlockCounts c;
  uint64_t pick = 0x9e3779b97f4a7c15ULL;
  for (uint64_t done = 0; done < total;) {
    uint64_t len = job.bs[1].max;
    if (!job.bs[1].split.empty()) {
      pick = pick * 6364136223846793005ULL + 1442695040888963407ULL;
      len = job.bs[1].split[(pick >> 33) % job.bs[1].split.size()].bs;
    }
    len = std::min(len, total - done);
    f.BeforeWrite(buf.data(), len);
    for (uint64_t o = 0; o + kBlock <= len; o += kBlock) {
      const std::string b(reinterpret_cast<const char*>(buf.data() + o), kBlock);
      ++c.blocks;
      if (!seen.insert(b).second) ++c.duplicates;
      if (b.find_first_not_of('\0') == std::string::npos) ++c.zero;
    }
    done += len;
  }
  return c;
}

void Split(JobSpec* job, std::vector<uint64_t> sizes) {
  job->bs[1].split.clear();
  for (uint64_t s : sizes)
    job->bs[1].split.push_back({s, static_cast<uint32_t>(100 / sizes.size())});
  job->bs[1].min = sizes.front();
  job->bs[1].max = sizes.back();
}

// dedupe_mode=working_set with bssplit=4k/50:64k/50 over 16 MiB: fio 3.33
// decides once per write, but its working set is a run of consecutive
// pages of the smallest write size, so a 64k repeat of an entry goes on
// through the entries after it: 29.5 % duplicate 4k blocks at
// dedupe_percentage=30. One seed per write made a 64k repeat of an entry
// first written as 4k repeat only its first 4k: 18 %.
TEST(BufferFillerShapeTest, WorkingSetRepeatRunsOnThroughConsecutivePages) {
  JobSpec job;
  Split(&job, {4096, 65536});
  job.dedupe_percentage = 30;
  job.dedupe_working_set = true;
  const BlockCounts c = WriteAndCount(job, 16 << 20);
  EXPECT_EQ(c.blocks, 4096u);
  EXPECT_GE(c.duplicates, 4096u * 27 / 100) << c.duplicates;
  EXPECT_LE(c.duplicates, 4096u * 33 / 100) << c.duplicates;
  // Repeat mode (fio: 29.9 %) stays where it was.
  job.dedupe_working_set = false;
  const BlockCounts r = WriteAndCount(job, 16 << 20);
  EXPECT_GE(r.duplicates, 4096u * 27 / 100) << r.duplicates;
  EXPECT_LE(r.duplicates, 4096u * 33 / 100) << r.duplicates;
}

// buffer_compress_chunk=0, or one above the smallest write size, is the
// smallest write size (fio's min_not_zero(min_write, compress_chunk)):
// 50 % of each 4k piece is zeros, so no 4k block is all zeros (fio 3.33:
// 0 of 4096 for bssplit=4k/50:64k/50, also with chunk=16k). With one size
// that size is the chunk: bs=64k with chunk=0 or 128k zeroes the second
// half of each write (2048 of 4096 in fio 3.33), chunk=16k half of each
// 16k.
TEST(BufferFillerShapeTest, CompressChunkIsAtMostTheSmallestWrite) {
  JobSpec job;
  job.buffer_compress_percentage = 50;
  Split(&job, {4096, 65536});
  for (uint64_t chunk : {uint64_t{0}, uint64_t{16384}, uint64_t{131072}}) {
    job.buffer_compress_chunk = chunk;
    EXPECT_EQ(WriteAndCount(job, 16 << 20).zero, 0u) << chunk;
  }
  job.bs[1] = BlockSizeSpec{65536, 65536, {}};
  for (uint64_t chunk : {uint64_t{0}, uint64_t{16384}, uint64_t{131072}}) {
    job.buffer_compress_chunk = chunk;
    const BlockCounts c = WriteAndCount(job, 16 << 20);
    EXPECT_EQ(c.blocks, 4096u);
    EXPECT_EQ(c.zero, 2048u) << chunk;
  }
}

// A buffer_pattern whose length does not divide the buffer starts over in
// each buffer FillInitial fills, as in each write (and each block of fio's
// layout): "xyz" in 4k blocks makes one distinct block, not three.
TEST(BufferFillerShapeTest, PatternStartsOverInEachBuffer) {
  JobSpec job;
  job.rw = RwMode::kWrite;
  job.buffer_pattern = {'x', 'y', 'z'};
  BufferFiller f(job, 1);
  std::vector<uint8_t> area(kBlock * 8);
  f.FillInitial(area.data(), kBlock, 8);
  for (uint64_t s = 0; s < 8; ++s)
    for (uint64_t i = 0; i < kBlock; ++i)
      ASSERT_EQ(area[s * kBlock + i], job.buffer_pattern[i % 3]) << "buffer " << s << " byte " << i;
}

}  // namespace
}  // namespace iobench
