// I/O pattern generation for one worker: which direction, file, offset and
// length the next I/O has. Also the rate limiter and write-buffer filling.
//
// Owned by one worker thread; no locks, no allocation after Create().
// Deterministic: the same JobSpec and seed give the same sequence every run
// (randrepeat / randseed), which tests assert.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// The slice of one file this worker covers: [offset, offset + size).
struct PatternRegion {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t block_align = 0;  // device logical block size for direct I/O (0: none)
};

struct IoPlan {
  Ddir ddir = Ddir::kRead;
  uint32_t file = 0;  // index into the regions passed to Create()
  uint64_t offset = 0;
  uint64_t length = 0;
};

class IoPattern {
 public:
  // REQUIRES: regions non-empty, each region size >= the smallest block size.
  // seed: the worker's seed (derived by the caller from randseed/randrepeat and jobnum).
  static Result<std::unique_ptr<IoPattern>> Create(const JobSpec& job,
                                                   std::vector<PatternRegion> regions,
                                                   uint64_t seed);
  virtual ~IoPattern() = default;

  // Fills *out with the next I/O. Returns false when one pass over the
  // regions is complete (sequential: end reached; random with a random map:
  // every block touched once; norandommap: size/bs I/Os issued). The worker
  // then decides (loops, time_based) whether to call Reset() and go on.
  virtual bool Next(IoPlan* out) = 0;
  // Starts a new pass (next loop). Sequential offsets restart at the region
  // start; the random map is cleared; the random state continues.
  virtual void Reset() = 0;
};

// Rate limiting (rate, rate_iops, rate_process). One per worker.
class RateLimiter {
 public:
  // Returns null when the job has no rate limit in any direction.
  static std::unique_ptr<RateLimiter> Create(const JobSpec& job, uint32_t numjobs_share,
                                             uint64_t seed);
  virtual ~RateLimiter() = default;
  // Given that `bytes` are about to be issued in `ddir` at time now_ns (ns
  // since the job started), returns how long to wait before issuing (0: go).
  virtual uint64_t DelayNs(Ddir ddir, uint64_t bytes, uint64_t now_ns) = 0;
};

// Write buffer contents: zero_buffers, refill_buffers, scramble_buffers,
// buffer_compress_percentage/_chunk, buffer_pattern. One per worker.
class BufferFiller {
 public:
  BufferFiller(const JobSpec& job, uint64_t seed);
  // Fills a buffer once, before the run.
  void FillInitial(void* buf, uint64_t len);
  // Called before each write is issued; cheap unless refill_buffers is set
  // (scramble: a few bytes per 512-byte block are changed so dedupe fails).
  void BeforeWrite(void* buf, uint64_t len);

 private:
  const JobSpec* job_;
  uint64_t state_;
};

}  // namespace iobench
