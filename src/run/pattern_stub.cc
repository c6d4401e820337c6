// TEMPORARY stand-in for src/run/pattern.cc, rate.cc and buffers.cc (another
// helper's work). It exists only so the run core links and can be tested
// before that branch is merged. THE LEAD DELETES THIS FILE AT MERGE.
//
// Sequential: offsets walk each region from its start, file after file.
// Random: uniform random block-aligned offsets, size/bs I/Os per pass (no map).
// Mixed: rwmixread percent reads. Block size: bs[ddir].min.
#include <random>

#include "run/pattern.h"

namespace iobench {
namespace {

class StubPattern final : public IoPattern {
 public:
  StubPattern(const JobSpec& job, std::vector<PatternRegion> regions, uint64_t seed)
      : job_(job), regions_(std::move(regions)), rng_(seed) {
    for (const auto& r : regions_) {
      const uint64_t bs = job_.bs[0].min ? job_.bs[0].min : 4096;
      per_pass_ += r.size / bs;
    }
    Reset();
  }

  bool Next(IoPlan* out) override {
    Ddir d = Ddir::kRead;
    if (HasTrim(job_.rw) && !HasWrite(job_.rw)) {
      d = Ddir::kTrim;
    } else if (HasWrite(job_.rw) && HasRead(job_.rw)) {
      d = (rng_() % 100) < job_.rwmixread ? Ddir::kRead : Ddir::kWrite;
    } else if (HasWrite(job_.rw)) {
      d = Ddir::kWrite;
    }
    const uint64_t bs = job_.bs[static_cast<int>(d)].min;
    if (IsRandom(job_.rw)) {
      if (issued_ >= per_pass_) return false;
      const auto& r = regions_[file_];
      const uint64_t blocks = r.size / bs;
      out->file = file_;
      out->offset = r.offset + (rng_() % blocks) * bs;
      file_ = (file_ + 1) % static_cast<uint32_t>(regions_.size());
    } else {
      while (file_ < regions_.size() && pos_ + bs > regions_[file_].size) {
        ++file_;
        pos_ = 0;
      }
      if (file_ >= regions_.size()) return false;
      out->file = file_;
      out->offset = regions_[file_].offset + pos_;
      pos_ += bs;
    }
    ++issued_;
    out->ddir = d;
    out->length = bs;
    return true;
  }

  void Reset() override {
    file_ = 0;
    pos_ = 0;
    issued_ = 0;
  }

 private:
  const JobSpec& job_;
  std::vector<PatternRegion> regions_;
  std::mt19937_64 rng_;
  uint64_t per_pass_ = 0;
  uint32_t file_ = 0;
  uint64_t pos_ = 0;
  uint64_t issued_ = 0;
};

}  // namespace

Result<std::unique_ptr<IoPattern>> IoPattern::Create(const JobSpec& job,
                                                     std::vector<PatternRegion> regions,
                                                     uint64_t seed) {
  if (regions.empty()) return Status::Invalid("no regions");
  return std::unique_ptr<IoPattern>(new StubPattern(job, std::move(regions), seed));
}

std::unique_ptr<RateLimiter> RateLimiter::Create(const JobSpec&, uint32_t, uint64_t) {
  return nullptr;
}

BufferFiller::BufferFiller(const JobSpec& job, uint64_t seed) : job_(&job), state_(seed | 1) {}

void BufferFiller::FillInitial(void* buf, uint64_t len) {
  auto* p = static_cast<uint8_t*>(buf);
  for (uint64_t i = 0; i < len; ++i) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    p[i] = job_->zero_buffers ? 0 : static_cast<uint8_t>(state_);
  }
}

void BufferFiller::BeforeWrite(void*, uint64_t) {}

}  // namespace iobench
