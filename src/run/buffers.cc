// BufferFiller: write buffer contents. See pattern.h and docs/patterns.md.
#include <algorithm>
#include <cstring>

#include "run/pattern.h"
#include "run/random.h"

namespace iobench {

namespace {
constexpr uint64_t kScrambleBlock = 512;
}  // namespace

BufferFiller::BufferFiller(const JobSpec& job, uint64_t seed)
    : state_(prng::MixSeed(seed, 0x62756600ULL)) {
  job_writes_ = HasWrite(job.rw);
  zero_ = job.zero_buffers;
  compress_perc_ = std::min<uint32_t>(job.buffer_compress_percentage, 100);
  compress_chunk_ = job.buffer_compress_chunk;
  pattern_ = job.buffer_pattern;
  // fio refills on every write when a partial compress percentage is asked
  // for, so that neighbouring blocks do not compress better together.
  refill_ = !zero_ && (job.refill_buffers || (compress_perc_ > 0 && compress_perc_ < 100));
  // Scrambling defeats dedupe of reused random content; a refilled, all-zero
  // or patterned buffer is meant to look exactly as configured.
  scramble_ = job.scramble_buffers && !zero_ && !refill_ && pattern_.empty() && compress_perc_ == 0;
}

void BufferFiller::FillRandom(uint8_t* p, uint64_t len) {
  while (len >= 8) {
    const uint64_t v = prng::SplitMix64(&state_);
    std::memcpy(p, &v, 8);
    p += 8;
    len -= 8;
  }
  if (len) {
    const uint64_t v = prng::SplitMix64(&state_);
    std::memcpy(p, &v, len);
  }
}

void BufferFiller::FillFixed(uint8_t* p, uint64_t len) {
  if (pattern_.empty() || len == 0) {
    std::memset(p, 0, len);
    return;
  }
  // Lay the pattern once, then double the filled prefix: O(log) memcpys.
  uint64_t done = std::min<uint64_t>(pattern_.size(), len);
  std::memcpy(p, pattern_.data(), done);
  while (done < len) {
    const uint64_t n = std::min(done, len - done);
    std::memcpy(p + done, p, n);
    done += n;
  }
}

void BufferFiller::Fill(uint8_t* p, uint64_t len) {
  if (zero_) {
    std::memset(p, 0, len);
  } else if (compress_perc_ > 0) {
    // buffer_compress_percentage=P: in every chunk the first (100-P)% is
    // random and the rest fixed, so about P% of the data compresses away
    // (fio's meaning: P is the space a compressor saves).
    const uint64_t chunk = compress_chunk_ ? compress_chunk_ : len;
    for (uint64_t off = 0; off < len; off += chunk) {
      const uint64_t clen = std::min(chunk, len - off);
      const uint64_t rlen = clen * (100 - compress_perc_) / 100;
      FillRandom(p + off, rlen);
      FillFixed(p + off + rlen, clen - rlen);
    }
  } else if (!pattern_.empty()) {
    FillFixed(p, len);
  } else {
    FillRandom(p, len);
  }
}

void BufferFiller::FillInitial(void* buf, uint64_t len) {
  if (job_writes_) Fill(static_cast<uint8_t*>(buf), len);
}

void BufferFiller::BeforeWrite(void* buf, uint64_t len) {
  uint8_t* p = static_cast<uint8_t*>(buf);
  ++writes_;
  if (refill_) {
    Fill(p, len);
    return;
  }
  if (!scramble_) return;
  // One random word per write, varied per 512-byte block and stored at a
  // position that moves with each write: every block of every write differs
  // from all earlier ones, at the cost of one 8-byte store per 512 bytes.
  const uint64_t v = prng::SplitMix64(&state_);
  const uint64_t at = (writes_ % (kScrambleBlock / 8)) * 8;
  for (uint64_t b = 0, i = 0; b < len; b += kScrambleBlock, ++i) {
    if (b + at + 8 > len) break;
    const uint64_t w = v ^ (i * 0x9e3779b97f4a7c15ULL);
    std::memcpy(p + b + at, &w, 8);
  }
}

}  // namespace iobench
