// RateLimiter: rate / rate_iops / rate_process. See pattern.h.
#include <cmath>

#include "iobench/clock.h"
#include "run/pattern.h"
#include "run/random.h"

namespace iobench {

namespace {

class RateLimiterImpl final : public RateLimiter {
 public:
  RateLimiterImpl(const JobSpec& job, uint32_t share, uint64_t seed) {
    poisson_ = job.rate_process == RateProcess::kPoisson;
    rng_.Seed(prng::MixSeed(seed, 0x7261746500ULL), true);
    for (int d = 0; d < kNumDdirs; ++d) {
      Dir& r = dir_[d];
      uint64_t min_bs = job.bs[d].min;
      for (const auto& e : job.bs[d].split)
        if (e.bs < min_bs) min_bs = e.bs;
      r.min_bs = min_bs ? min_bs : 1;
      // fio: bytes/s wins; otherwise IO/s counted in the smallest block size.
      r.bps = job.rate[d] != 0 ? job.rate[d] : job.rate_iops[d] * r.min_bs;
      r.share = share ? share : 1;
    }
  }

  static bool AnyRate(const JobSpec& job) {
    for (int d = 0; d < kNumDdirs; ++d)
      if (job.rate[d] || job.rate_iops[d]) return true;
    return false;
  }

  // When the next I/O of direction d may go (ns since the start); 0 for an
  // unrated direction.
  uint64_t DueNs(int d) const {
    const Dir& r = dir_[d];
    if (r.bps == 0) return 0;
    // The k-th byte is due at k / rate seconds after the start: computed
    // from the running total, never from the previous delay.
    if (!poisson_)
      return static_cast<uint64_t>(static_cast<unsigned __int128>(r.bytes) * 1000000000ULL *
                                   r.share / r.bps);
    return static_cast<uint64_t>(r.due_ns);
  }

  Ddir Steer(Ddir drawn, uint64_t now_ns, bool other_ok) const override {
    const int d = static_cast<int>(drawn);
    if (d > 1) return drawn;  // trim: no other direction to lend to
    const uint64_t due = DueNs(d);
    if (due <= now_ns || !other_ok) return drawn;
    const uint64_t other_due = DueNs(d ^ 1);
    if (other_due <= now_ns || other_due < due) return static_cast<Ddir>(d ^ 1);
    return drawn;
  }

  uint64_t DelayNs(Ddir ddir, uint64_t bytes, uint64_t now_ns) override {
    const int d = static_cast<int>(ddir);
    Dir& r = dir_[d];
    if (r.bps == 0) return 0;
    const uint64_t due = DueNs(d);
    if (poisson_) {
      // Poisson arrivals: exponential gaps summed from the start, whose mean
      // is one I/O of the smallest block size at the rate, whatever this
      // I/O's size: fio 3.33 spaces them at 1/IOPS with IOPS = rate /
      // min_bs (bssplit=4k/50:64k/50 rate_iops=100: 100 IO/s, where
      // linear gives 100 x 4k bytes/s).
      const double mean_ns =
          static_cast<double>(r.min_bs) * 1e9 * r.share / static_cast<double>(r.bps);
      r.due_ns += -std::log(rng_.UnitNonZero()) * mean_ns;
    }
    r.bytes += bytes;
    return due > now_ns ? due - now_ns : 0;
  }

  void Restart() override {
    for (Dir& r : dir_) {
      r.bytes = 0;
      r.due_ns = 0;
    }
  }

  void Paused(uint64_t ns) override {
    for (Dir& r : dir_) {
      if (r.bps == 0) continue;
      if (poisson_) {
        r.due_ns += static_cast<double>(ns);
        continue;
      }
      // Bytes the pause would have issued at this worker's rate.
      auto missed = static_cast<uint64_t>(static_cast<unsigned __int128>(ns) * r.bps /
                                          (1000000000ULL * r.share));
      const auto op_ns = static_cast<uint64_t>(static_cast<unsigned __int128>(r.min_bs) *
                                               1000000000ULL * r.share / r.bps);
      if (op_ns <= ns && missed >= r.min_bs) missed -= r.min_bs;
      r.bytes += missed;
    }
  }

 private:
  struct Dir {
    uint64_t bps = 0;     // bytes per second for the whole share
    uint64_t share = 1;   // numjobs_share
    uint64_t min_bs = 1;  // the direction's smallest block size
    uint64_t bytes = 0;   // accounted so far
    double due_ns = 0;    // poisson: next arrival
  };
  bool poisson_ = false;
  Dir dir_[kNumDdirs];
  prng::Uniform rng_;
};

}  // namespace

std::unique_ptr<RateLimiter> RateLimiter::Create(const JobSpec& job, uint32_t numjobs_share,
                                                 uint64_t seed) {
  if (!RateLimiterImpl::AnyRate(job)) return nullptr;
  return std::make_unique<RateLimiterImpl>(job, numjobs_share, seed);
}

std::unique_ptr<MinRateCheck> MinRateCheck::Create(const JobSpec& job) {
  for (int d = 0; d < kNumDdirs; ++d)
    if (job.rate_min[d] != 0 || job.rate_iops_min[d] != 0)
      return std::unique_ptr<MinRateCheck>(new MinRateCheck(job));
  return nullptr;
}

MinRateCheck::MinRateCheck(const JobSpec& job) : cycle_ns_(MsToNs(job.ratecycle_ms)) {
  for (int d = 0; d < kNumDdirs; ++d) {
    min_bytes_[d] = job.rate_min[d];
    min_ios_[d] = job.rate_iops_min[d];
  }
}

bool MinRateCheck::Check(uint64_t now_ns, const uint64_t (&bytes)[kNumDdirs],
                         const uint64_t (&ios)[kNumDdirs]) {
  constexpr uint64_t kSettleNs = 2'000'000'000ULL;  // fio's settle period
  for (int d = 0; d < kNumDdirs; ++d) {
    // fio judges each direction that has completed anything so far (its
    // bytes_done), whether or not it completed more since the last check:
    // a direction that stalls is judged on the nothing it did.
    if (ios[d] == 0) continue;
    if (min_bytes_[d] == 0 && min_ios_[d] == 0) continue;
    if (now_ns < kSettleNs) continue;
    if (open_[d]) {
      // fio works in whole ms; a window under one ms is not judged.
      const uint64_t spent_ms = (now_ns - last_ns_[d]) / 1000000ULL;
      if (now_ns - last_ns_[d] < cycle_ns_ || spent_ms == 0) continue;
      // rate_min wins when both are set (fio refuses that anyway).
      const uint64_t got = min_bytes_[d] != 0 ? (bytes[d] - last_bytes_[d]) * 1000 / spent_ms
                                              : (ios[d] - last_ios_[d]) * 1000 / spent_ms;
      if (got < (min_bytes_[d] != 0 ? min_bytes_[d] : min_ios_[d])) {
        failed_ = d;
        got_ = got;
        window_ms_ = spent_ms;
        return false;
      }
    }
    open_[d] = true;
    last_ns_[d] = now_ns;
    last_bytes_[d] = bytes[d];
    last_ios_[d] = ios[d];
  }
  return true;
}

std::string MinRateCheck::Failure() const {
  if (failed_ < 0) return {};
  static const char* const kDir[kNumDdirs] = {"read", "write", "trim"};
  const bool bw = min_bytes_[failed_] != 0;
  return std::string(kDir[failed_]) + (bw ? " bandwidth " : " IOPS ") + std::to_string(got_) +
         (bw ? " B/s" : "") + " over " + std::to_string(window_ms_) + " ms is below " +
         (bw ? "rate_min=" + std::to_string(min_bytes_[failed_]) + " B/s"
             : "rate_iops_min=" + std::to_string(min_ios_[failed_]));
}

}  // namespace iobench
