#include "run/steadystate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "run/worker.h"

namespace iobench {
namespace {

constexpr uint64_t kSecNs = 1000000000ull;

bool IsSlope(JobSpec::SteadyStateMode m) {
  return m == JobSpec::SteadyStateMode::kIopsSlope || m == JobSpec::SteadyStateMode::kBwSlope;
}
bool IsIops(JobSpec::SteadyStateMode m) {
  return m == JobSpec::SteadyStateMode::kIops || m == JobSpec::SteadyStateMode::kIopsSlope;
}

}  // namespace

SteadyStateWindow::SteadyStateWindow(const JobSpec& job)
    : mode_(job.ss_mode),
      limit_(job.ss_limit),
      percent_(job.ss_percent),
      dur_(static_cast<size_t>(std::max<uint64_t>(1, job.ss_dur_s))),
      bw_(dur_, 0),
      iops_(dur_, 0),
      clones_(dur_, 0) {}

bool SteadyStateWindow::Add(uint64_t bw, uint64_t iops, uint32_t clones) {
  bw_[next_] = bw;
  iops_[next_] = iops;
  clones_[next_] = clones;
  next_ = (next_ + 1) % dur_;
  ++count_;
  if (count_ < dur_) return false;  // judged only over a full window
  const std::vector<uint64_t>& ring = IsIops(mode_) ? iops_ : bw_;
  // Integer sums, as fio keeps them: the percentages below depend on it
  // (a slope's percentage divides by the integer mean).
  uint64_t sum_y = 0, sum_xy = 0;
  for (size_t i = 0; i < dur_; ++i) {
    const uint64_t y = ring[(next_ + i) % dur_];  // oldest first: x = 0, 1, ...
    sum_y += y;
    sum_xy += i * y;
  }
  const auto n = static_cast<uint64_t>(dur_);
  if (IsSlope(mode_)) {
    const uint64_t sum_x = n * (n - 1) / 2;
    const uint64_t sum_x_sq = (n - 1) * n * (2 * n - 1) / 6;
    slope_ = (static_cast<double>(sum_xy) - static_cast<double>(sum_x) * sum_y / n) /
             (static_cast<double>(sum_x_sq) - static_cast<double>(sum_x) * sum_x / n);
    criterion_ = percent_ ? 100.0 * slope_ / static_cast<double>(sum_y / n) : slope_;
    attained_ = std::fabs(criterion_) < limit_;
  } else {
    const double mean = static_cast<double>(sum_y) / n;
    deviation_ = 0;
    for (uint64_t y : ring) deviation_ = std::max(deviation_, std::fabs(y - mean));
    criterion_ = percent_ ? 100.0 * deviation_ / mean : deviation_;
    attained_ = criterion_ < limit_;
  }
  return attained_;
}

SteadyStateResult SteadyStateWindow::Result() const {
  SteadyStateResult r;
  r.enabled = true;
  r.attained = attained_;
  r.criterion = criterion_;
  r.max_deviation = deviation_;
  r.slope = slope_;
  // Before the window filled up the ring is in order from slot 0 (zeros
  // after the last sample); after, the oldest sample is the next to go.
  const size_t first = count_ < dur_ ? 0 : next_;
  for (size_t i = 0; i < dur_; ++i) {
    r.bw.push_back(bw_[(first + i) % dur_]);
    r.iops.push_back(iops_[(first + i) % dur_]);
    r.clones.push_back(clones_[(first + i) % dur_]);
  }
  return r;
}

Status CheckSteadyStateGroups(const std::vector<JobSpec>& jobs, const std::vector<int>& groupids) {
  std::map<int, size_t> first;  // group -> its first job
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto [it, fresh] = first.emplace(groupids[i], i);
    if (fresh) continue;
    const JobSpec& a = jobs[it->second];
    const JobSpec& b = jobs[i];
    const bool same =
        a.ss_dur_s == b.ss_dur_s &&
        (a.ss_dur_s == 0 || (a.ss_mode == b.ss_mode && a.ss_limit == b.ss_limit &&
                             a.ss_percent == b.ss_percent && a.ss_ramp_ns == b.ss_ramp_ns));
    if (!same)
      return Status::Invalid("job '" + b.name + "' and job '" + a.name +
                             "' are in the same reporting group with different steadystate, "
                             "steadystate_duration or steadystate_ramp_time: fio requires "
                             "them to agree within a group (separate the jobs with stonewall "
                             "or new_group)");
  }
  return Status::Ok();
}

SteadyStateMonitor::SteadyStateMonitor(const std::vector<Member>& members) : members_(members) {
  std::map<int, size_t> group_unit;  // group_reporting: one unit per group
  for (size_t i = 0; i < members_.size(); ++i) {
    const Member& m = members_[i];
    if (m.job == nullptr || m.job->ss_dur_s == 0) continue;
    Clone c;
    c.member = i;
    if (m.job->group_reporting) {
      auto [it, fresh] = group_unit.emplace(m.groupid, units_.size());
      if (!fresh) {
        units_[it->second].clones.push_back(c);
        continue;
      }
    }
    units_.emplace_back(*m.job);
    units_.back().clones.push_back(c);
  }
}

uint64_t SteadyStateMonitor::next_due_ns() const {
  uint64_t due = UINT64_MAX;
  for (const Unit& u : units_)
    if (!u.done && u.next_ns != 0) due = std::min(due, u.next_ns);
  return due;
}

void SteadyStateMonitor::Poll(uint64_t now) {
  for (Unit& u : units_) {
    if (u.done) continue;
    for (Clone& c : u.clones) {
      if (c.epoch_ns != 0) continue;
      const uint64_t e = members_[c.member].worker->measure_start_ns();
      if (e == 0) continue;
      c.epoch_ns = c.prev_ns = e;
      // Samples every second from the earliest clone's start (clones seen
      // before the first sample; threads start in any order), so no clone's
      // runtime ends before the tick that closes its last whole second.
      if (u.next_ns == 0 || (u.next_ns == u.epoch_ns + kSecNs && e < u.epoch_ns)) {
        u.epoch_ns = e;
        u.next_ns = e + kSecNs;
      }
    }
    if (u.next_ns == 0 || now < u.next_ns) continue;
    const uint64_t tick = u.next_ns;
    u.next_ns += kSecNs;
    if (u.next_ns <= now) u.next_ns += (now - u.next_ns) / kSecNs * kSecNs + kSecNs;
    const JobSpec& job = *u.job;
    uint64_t bw = 0, iops = 0;
    int over = 0;
    for (Clone& c : u.clones) {
      const Member& m = members_[c.member];
      if (c.epoch_ns == 0 || c.epoch_ns > tick) continue;
      // A clone's last second counts when its runtime ran to the tick: the
      // clones of a group start microseconds apart, and a group's last sample
      // must not hold some of them and not others (the first clone's end
      // falls exactly on a tick when runtime is whole seconds). Decided from
      // the runtime, not the thread's exit, so it does not depend on timing.
      const uint64_t runtime = m.job->runtime_ns;
      const uint64_t end = runtime != 0 ? c.epoch_ns + runtime : UINT64_MAX;
      if (tick > end) continue;  // ended inside this second: not a whole one
      // A clone that stopped early (size reached, an error) leaves the sum,
      // as fio leaves out exited jobs; one that stopped at its runtime, in
      // this its last second, stays.
      if (m.finished->load() && end - tick >= kSecNs) continue;
      const LiveCounters& live = m.worker->live();
      uint64_t bytes = 0, ios = 0;
      for (int d = 0; d < kNumDdirs; ++d) {
        bytes += live.bytes[d].load(std::memory_order_relaxed);
        ios += live.ios[d].load(std::memory_order_relaxed);
      }
      // fio's rate: the counters' growth over whole milliseconds since the
      // clone's previous sample.
      const uint64_t ms = (std::min(now, end) - c.prev_ns) / 1000000;
      const uint64_t db = bytes >= c.prev_bytes ? bytes - c.prev_bytes : 0;
      const uint64_t di = ios >= c.prev_ios ? ios - c.prev_ios : 0;
      c.prev_ns = now;
      c.prev_bytes = bytes;
      c.prev_ios = ios;
      // steadystate_ramp_time: samples start one second after it, counted
      // from the unit's start, as its ticks are: a group's clones start
      // microseconds apart, and from their own starts all but the first were
      // left out of the first sample after the ramp.
      if (job.ss_ramp_ns != 0 && tick - u.epoch_ns < job.ss_ramp_ns + kSecNs) continue;
      if (ms == 0) continue;
      bw += 1000 * db / ms;
      iops += 1000 * di / ms;
      ++over;
    }
    if (over == 0) continue;
    if (u.window.Add(bw, iops, static_cast<uint32_t>(over))) {
      u.done = true;
      for (const Clone& c : u.clones) members_[c.member].worker->StopSteadyState();
    }
  }
}

std::vector<SteadyStateResult> SteadyStateMonitor::Results() const {
  std::vector<SteadyStateResult> out(members_.size());
  for (const Unit& u : units_) {
    const SteadyStateResult r = u.window.Result();
    for (const Clone& c : u.clones) out[c.member] = r;
  }
  return out;
}

}  // namespace iobench
