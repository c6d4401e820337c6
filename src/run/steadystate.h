// Steady state detection (fio's steadystate=, steadystate_duration=,
// steadystate_ramp_time=; docs/running.md "Steady state").
//
// SteadyStateWindow is the criterion: a rolling window of one-second
// samples (bytes/s and IO/s) and, once the window is full, the check fio
// 3.33 makes after each sample (max deviation from the mean, or the least
// squares slope; absolute or as a percentage of the mean).
//
// SteadyStateMonitor samples a phase's workers once per second from the
// coordinator's watch loop, reading their live counters (never anything on
// the per-I/O path), and tells the workers of a unit (the job's clone, or
// its whole reporting group with group_reporting) to stop once the
// criterion holds.
//
// Owner: run module. Both classes are used by one thread (the coordinator's
// main thread); the workers only read the stop flag the monitor sets.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

class Worker;

class SteadyStateWindow {
 public:
  // REQUIRES: job.ss_dur_s > 0.
  explicit SteadyStateWindow(const JobSpec& job);

  // Adds one sample; returns true when the criterion holds over the window
  // (the window must be full for that). After true, Add must not be called.
  // `clones`: how many of the unit's clones the sample sums.
  bool Add(uint64_t bw, uint64_t iops, uint32_t clones = 1);

  // Window (oldest first, zero-padded), criterion, attained.
  SteadyStateResult Result() const;

 private:
  const JobSpec::SteadyStateMode mode_;
  const double limit_;
  const bool percent_;
  const size_t dur_;
  std::vector<uint64_t> bw_, iops_;  // ring of dur_ samples
  std::vector<uint32_t> clones_;     // parallel to them
  size_t next_ = 0;                  // slot the next sample goes to
  uint64_t count_ = 0;               // samples taken
  bool attained_ = false;
  double criterion_ = 0, deviation_ = 0, slope_ = 0;
};

// Checks the steady state options of a phase's jobs before the run: fio
// refuses a reporting group whose jobs disagree on them. `groupids` are the
// jobs' reporting groups (parallel to `jobs`).
Status CheckSteadyStateGroups(const std::vector<JobSpec>& jobs, const std::vector<int>& groupids);

class SteadyStateMonitor {
 public:
  struct Member {
    Worker* worker = nullptr;
    const JobSpec* job = nullptr;
    int groupid = 0;
    const std::atomic<bool>* finished = nullptr;  // set when the clone's thread is done
  };
  // Only members whose job has ss_dur_s > 0 are watched.
  explicit SteadyStateMonitor(const std::vector<Member>& members);

  bool active() const { return !units_.empty(); }
  // When the next sample is due (steady clock ns), or UINT64_MAX.
  uint64_t next_due_ns() const;
  // Takes the samples due at `now` and stops the units that reached steady
  // state. Main thread, every pass of the watch loop.
  void Poll(uint64_t now);
  // After the join: each watched member's SteadyStateResult (parallel to
  // the constructor's members; disabled for the others).
  std::vector<SteadyStateResult> Results() const;

 private:
  struct Clone {
    size_t member = 0;
    uint64_t epoch_ns = 0;  // its measured period began (0: not yet)
    uint64_t prev_ns = 0;
    uint64_t prev_bytes = 0, prev_ios = 0;
  };
  struct Unit {
    explicit Unit(const JobSpec& j) : job(&j), window(j) {}
    std::vector<Clone> clones;
    const JobSpec* job = nullptr;
    SteadyStateWindow window;
    uint64_t epoch_ns = 0;  // the earliest clone's measured start: samples every second from it
    uint64_t next_ns = 0;   // next sample due (0: no clone started yet)
    bool done = false;      // attained (clones told to stop)
  };
  std::vector<Member> members_;
  std::vector<Unit> units_;
};

}  // namespace iobench
