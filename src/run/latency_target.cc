#include "run/latency_target.h"

#include <algorithm>

namespace iobench {

DepthSearch::DepthSearch(const JobSpec& job)
    : target_ns_(job.latency_target_ns),
      window_ns_(job.latency_window_ns),
      percentile_(job.latency_percentile),
      keep_running_(job.latency_run),
      iodepth_(std::max<uint32_t>(1, job.iodepth)) {
  qd_high_ = iodepth_;
}

void DepthSearch::Restart(uint64_t now_ns, uint64_t ios) {
  if (end_run_) return;  // the final run's statistics restart does not start over
  qd_ = 1;
  qd_low_ = 1;
  qd_high_ = iodepth_;
  NewCycle(now_ns, ios);
}

void DepthSearch::NewCycle(uint64_t now_ns, uint64_t ios) {
  cycle_start_ns_ = now_ns;
  cycle_ios_ = ios;
  failed_ = 0;
}

bool DepthSearch::Failed() {
  if (qd_ == 1) return true;
  qd_high_ = qd_;
  if (qd_ == qd_low_) --qd_low_;
  qd_ = (qd_ + qd_low_) / 2;
  stable_ = 0;
  return false;
}

DepthSearch::Action DepthSearch::OnCompletion(uint64_t lat_ns) {
  if (lat_ns <= target_ns_) return Action::kNone;
  if (percentile_ < 100.0) {  // judged per window
    ++failed_;
    return Action::kNone;
  }
  return Failed() ? Action::kFatal : Action::kDrain;
}

DepthSearch::Action DepthSearch::Succeeded(uint64_t now_ns, uint64_t ios) {
  const uint32_t before = qd_;
  qd_low_ = qd_;
  // Just below the lowest failing depth the bisection stands still; three
  // good windows in a row there try one deeper (fio's latency_run heuristic).
  if (qd_ + 1 == qd_high_ && ++stable_ >= 3) {
    ++qd_high_;
    stable_ = 0;
  }
  // Double until a window failed (qd_high_ is still iodepth), then bisect.
  qd_ = qd_high_ != iodepth_ ? (qd_ + qd_high_) / 2 : qd_ * 2;
  qd_ = std::min(qd_, iodepth_);
  if (!keep_running_ && qd_ == before) {
    if (end_run_) return Action::kDone;
    end_run_ = true;
    return Action::kFinalRun;
  }
  NewCycle(now_ns, ios);
  return Action::kNone;
}

DepthSearch::Action DepthSearch::Check(uint64_t now_ns, uint64_t ios) {
  if (now_ns - cycle_start_ns_ < window_ns_) return Action::kNone;
  const uint64_t n = ios - cycle_ios_;
  // No I/O in the window gives 0/0: not a success, as in fio.
  const double ok = 100.0 * static_cast<double>(n - failed_) / static_cast<double>(n);
  if (ok >= percentile_) return Succeeded(now_ns, ios);
  // At depth 1 a failed window changes nothing, and the window is not
  // restarted: the next check judges the longer window (fio does the same).
  return Failed() ? Action::kNone : Action::kDrain;
}

}  // namespace iobench
