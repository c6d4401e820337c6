// latency_target / latency_window / latency_percentile / latency_run: fio's
// search for the highest queue depth whose I/O meets a latency target
// (docs/running.md "Latency target").
//
// DepthSearch is the search itself, free of time sources and I/O so that it
// can be driven step by step in tests; the worker feeds it (only jobs with
// latency_target set, on the worker's slow paths) and applies what it asks:
// a depth limit, a drain of the queue, a restart of the statistics, the end
// of the job.
//
// The search, as fio 3.33 runs it: start at depth 1; after each window
// (latency_window of time) in which at least latency_percentile % of the
// completed I/O took at most latency_target, raise the depth (double it
// until a window failed, then bisect towards the lowest failing depth);
// after a failed window (or, at 100 %, at the first I/O over the target)
// lower it (bisect towards the highest good depth) and drain the queue.
// When a raise gives the same depth again the search is over: the
// statistics restart, one more window runs at that depth, and the job ends
// (latency_run=1: the search goes on until the job ends). An I/O over the
// target at depth 1 with latency_percentile=100 fails the job (ETIMEDOUT).
//
// Owner: run module. One instance per worker, used by its thread only.
#pragma once

#include <cstdint>

#include "iobench/job.h"

namespace iobench {

class DepthSearch {
 public:
  // What the worker must do after a call.
  enum class Action : uint8_t {
    kNone,
    kDrain,     // a lower depth: let the I/O in flight complete, then NewCycle()
    kFinalRun,  // the depth is found: drain, restart the statistics, then NewCycle()
    kDone,      // the final window met the target: the job ends
    kFatal,     // an I/O over the target at depth 1 (latency_percentile=100): ETIMEDOUT
  };

  // REQUIRES: job.latency_target_ns > 0.
  explicit DepthSearch(const JobSpec& job);

  // (Re)starts the search at depth 1 (job start; the end of ramp_time,
  // unless the final run already began). `ios`: completed I/Os so far.
  void Restart(uint64_t now_ns, uint64_t ios);
  // A new window begins now (after a drain, or a statistics restart).
  void NewCycle(uint64_t now_ns, uint64_t ios);

  // A completed I/O took `lat_ns` (from its preparation to its completion).
  Action OnCompletion(uint64_t lat_ns);
  // Called as the job runs: judges the window once latency_window passed.
  Action Check(uint64_t now_ns, uint64_t ios);

  // How many I/Os may be in flight now.
  uint32_t depth() const { return qd_; }
  bool final_run() const { return end_run_; }

 private:
  // fio's two moves; Failed() returns true when there is no lower depth.
  bool Failed();
  Action Succeeded(uint64_t now_ns, uint64_t ios);

  const uint64_t target_ns_;
  const uint64_t window_ns_;
  const double percentile_;
  const bool keep_running_;  // latency_run
  const uint32_t iodepth_;
  uint32_t qd_ = 1, qd_low_ = 1, qd_high_ = 1;
  uint32_t stable_ = 0;  // successes in a row just below qd_high_
  bool end_run_ = false;
  uint64_t cycle_start_ns_ = 0;
  uint64_t cycle_ios_ = 0;  // completed I/Os when the window began
  uint64_t failed_ = 0;     // I/Os over the target in this window
};

}  // namespace iobench
