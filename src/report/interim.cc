#include "report/interim.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <nlohmann/json.hpp>

#include "report/status_line.h"

namespace iobench {

namespace {

uint64_t Sub(uint64_t later, uint64_t earlier) { return later >= earlier ? later - earlier : 0; }

template <size_t N>
std::array<uint64_t, N> Sub(const std::array<uint64_t, N>& a, const std::array<uint64_t, N>& b) {
  std::array<uint64_t, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = Sub(a[i], b[i]);
  return out;
}

std::vector<RateSample> SamplesAfter(const std::vector<RateSample>& later,
                                     const std::vector<RateSample>& earlier) {
  const uint64_t after = earlier.empty() ? 0 : earlier.back().t_ms;
  std::vector<RateSample> out;
  for (const RateSample& s : later)
    if (earlier.empty() || s.t_ms > after) out.push_back(s);
  return out;
}

}  // namespace

Result<StatusIntervalMode> ParseStatusIntervalMode(std::string_view text) {
  std::string t(text);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "cumulative") return StatusIntervalMode::kCumulative;
  if (t == "interval") return StatusIntervalMode::kInterval;
  return Status::Invalid("--status-interval-mode: '" + std::string(text) +
                         "' is not one of cumulative, interval");
}

Histogram Diff(const Histogram& later, const Histogram& earlier) {
  Histogram h;
  for (unsigned i = 0; i < Histogram::kNr; ++i)
    h.counts[i] = Sub(later.counts[i], earlier.counts[i]);
  return h;
}

LatStat Diff(const LatStat& later, const LatStat& earlier, const Histogram& interval_hist) {
  LatStat s;
  s.n = Sub(later.n, earlier.n);
  if (s.n == 0) return s;  // min = UINT64_MAX, max = 0: "no samples"
  s.sum = later.sum >= earlier.sum ? later.sum - earlier.sum : 0;
  s.sumsq = later.sumsq >= earlier.sumsq ? later.sumsq - earlier.sumsq : 0;
  int lo = -1, hi = -1;
  for (unsigned i = 0; i < Histogram::kNr; ++i) {
    if (interval_hist.counts[i] == 0) continue;
    if (lo < 0) lo = static_cast<int>(i);
    hi = static_cast<int>(i);
  }
  const bool min_moved = earlier.n == 0 || later.min < earlier.min;
  const bool max_moved = earlier.n == 0 || later.max > earlier.max;
  if (min_moved) {
    s.min = later.min;
  } else if (lo >= 0) {
    s.min = std::clamp(Histogram::IndexToValue(static_cast<unsigned>(lo)), later.min, later.max);
  } else {
    s.min = later.min;
  }
  if (max_moved) {
    s.max = later.max;
  } else if (hi >= 0) {
    s.max = std::clamp(Histogram::IndexToValue(static_cast<unsigned>(hi)), later.min, later.max);
  } else {
    s.max = later.max;
  }
  if (s.max < s.min) s.max = s.min;
  return s;
}

DirStats Diff(const DirStats& later, const DirStats& earlier) {
  DirStats d;
  d.ios = Sub(later.ios, earlier.ios);
  d.bytes = Sub(later.bytes, earlier.bytes);
  d.short_ios = Sub(later.short_ios, earlier.short_ios);
  d.dropped = Sub(later.dropped, earlier.dropped);
  d.failed = Sub(later.failed, earlier.failed);
  d.errors = Sub(later.errors, earlier.errors);
  d.eagain = Sub(later.eagain, earlier.eagain);
  d.high_prio_ios = Sub(later.high_prio_ios, earlier.high_prio_ios);
  // Reports print whole milliseconds (truncated): subtract those, so the
  // intervals' runtimes add up to the final one (1002 against 1003 when
  // each interval was truncated on its own).
  constexpr uint64_t kMs = 1000000;
  d.runtime_ns = Sub(later.runtime_ns / kMs, earlier.runtime_ns / kMs) * kMs;
  d.slat_hist = Diff(later.slat_hist, earlier.slat_hist);
  d.clat_hist = Diff(later.clat_hist, earlier.clat_hist);
  d.lat_hist = Diff(later.lat_hist, earlier.lat_hist);
  d.slat = Diff(later.slat, earlier.slat, d.slat_hist);
  d.clat = Diff(later.clat, earlier.clat, d.clat_hist);
  d.lat = Diff(later.lat, earlier.lat, d.lat_hist);
  d.prio_split = later.prio_split;
  for (const PrioStat& p : later.prios) {
    static const PrioStat kNone;
    const PrioStat* before = &kNone;
    for (const PrioStat& q : earlier.prios)
      if (q.value == p.value) before = &q;
    PrioStat& x = d.prios.emplace_back();
    x.value = p.value;
    x.hist = Diff(p.hist, before->hist);
    x.lat = Diff(p.lat, before->lat, x.hist);
  }
  d.bw_samples = SamplesAfter(later.bw_samples, earlier.bw_samples);
  d.iops_samples = SamplesAfter(later.iops_samples, earlier.iops_samples);
  return d;
}

ThreadStats Diff(const ThreadStats& later, const ThreadStats& earlier) {
  ThreadStats t;
  for (int d = 0; d < kNumDdirs; ++d) {
    t.dir[d] = Diff(later.dir[d], earlier.dir[d]);
    t.issued[d] = Sub(later.issued[d], earlier.issued[d]);
    t.short_issued[d] = Sub(later.short_issued[d], earlier.short_issued[d]);
    t.dropped_issued[d] = Sub(later.dropped_issued[d], earlier.dropped_issued[d]);
  }
  t.sync_hist = Diff(later.sync_hist, earlier.sync_hist);
  t.sync_lat = Diff(later.sync_lat, earlier.sync_lat, t.sync_hist);
  t.sync_ios = Sub(later.sync_ios, earlier.sync_ios);
  t.depth.depth = Sub(later.depth.depth, earlier.depth.depth);
  t.depth.submit = Sub(later.depth.submit, earlier.depth.submit);
  t.depth.complete = Sub(later.depth.complete, earlier.depth.complete);
  t.depth.submit_events = Sub(later.depth.submit_events, earlier.depth.submit_events);
  t.depth.complete_events = Sub(later.depth.complete_events, earlier.depth.complete_events);
  t.cpu.user_us = Sub(later.cpu.user_us, earlier.cpu.user_us);
  t.cpu.sys_us = Sub(later.cpu.sys_us, earlier.cpu.sys_us);
  t.cpu.ctx = Sub(later.cpu.ctx, earlier.cpu.ctx);
  t.cpu.majf = Sub(later.cpu.majf, earlier.cpu.majf);
  t.cpu.minf = Sub(later.cpu.minf, earlier.cpu.minf);
  t.submit_calls = Sub(later.submit_calls, earlier.submit_calls);
  t.submitted = Sub(later.submitted, earlier.submitted);
  t.reap_calls = Sub(later.reap_calls, earlier.reap_calls);
  t.reaped = Sub(later.reaped, earlier.reaped);
  t.reap_syscalls = Sub(later.reap_syscalls, earlier.reap_syscalls);
  t.total_errors = Sub(later.total_errors, earlier.total_errors);
  t.coe_errors = Sub(later.coe_errors, earlier.coe_errors);
  t.file_calls = Sub(later.file_calls, earlier.file_calls);
  // The first error of the run stays the first error; report it only in the
  // interval where it happened.
  if (earlier.first_error.err == 0) t.first_error = later.first_error;
  if (earlier.coe_first_error == 0) t.coe_first_error = later.coe_first_error;
  return t;
}

Result<RunResult> IntervalResult(const RunResult& later, const RunResult& earlier) {
  if (later.groups.size() != earlier.groups.size())
    return Status::Invalid("interval report: snapshots have " +
                           std::to_string(earlier.groups.size()) + " and " +
                           std::to_string(later.groups.size()) + " groups");
  RunResult r;
  r.timestamp_s = later.timestamp_s;
  r.timestamp_ms = later.timestamp_ms;
  r.start_ms = later.start_ms;
  r.context = later.context;
  r.interrupted = later.interrupted;
  r.snapshot = later.snapshot;
  // The record's eta is the run's: the interval's bytes would read as if the
  // run had done only those (a size-limited job's eta grew: 8, 13, 16).
  if (later.snapshot) r.interval_remaining_ns = SnapshotRemainingNs(later);
  r.io_complete = later.io_complete;
  r.exit_code = later.exit_code;
  r.point = later.point;
  r.repeat_run = later.repeat_run;
  r.repeat_n = later.repeat_n;
  uint64_t interval_ms = 0;
  for (size_t g = 0; g < later.groups.size(); ++g) {
    const GroupResult& lg = later.groups[g];
    const GroupResult& eg = earlier.groups[g];
    if (lg.jobs.size() != eg.jobs.size() || lg.id != eg.id)
      return Status::Invalid("interval report: group " + std::to_string(lg.id) +
                             " differs between snapshots");
    GroupResult out;
    out.id = lg.id;
    for (size_t j = 0; j < lg.jobs.size(); ++j) {
      const JobResult& lj = lg.jobs[j];
      const JobResult& ej = eg.jobs[j];
      if (lj.name != ej.name || lj.jobnum != ej.jobnum)
        return Status::Invalid("interval report: job " + std::to_string(j) + " of group " +
                               std::to_string(lg.id) + " is '" + ej.name + "' then '" + lj.name +
                               "'");
      JobResult o;
      o.name = lj.name;
      o.groupid = lj.groupid;
      o.jobnum = lj.jobnum;
      o.error = lj.error;
      o.error_message = lj.error_message;
      o.spec = lj.spec;
      o.stats = Diff(lj.stats, ej.stats);
      o.helpers.iowq_user_us = Sub(lj.helpers.iowq_user_us, ej.helpers.iowq_user_us);
      o.helpers.iowq_sys_us = Sub(lj.helpers.iowq_sys_us, ej.helpers.iowq_sys_us);
      o.helpers.sqpoll_user_us = Sub(lj.helpers.sqpoll_user_us, ej.helpers.sqpoll_user_us);
      o.helpers.sqpoll_sys_us = Sub(lj.helpers.sqpoll_sys_us, ej.helpers.sqpoll_sys_us);
      o.helpers.aio_user_us = Sub(lj.helpers.aio_user_us, ej.helpers.aio_user_us);
      o.helpers.aio_sys_us = Sub(lj.helpers.aio_sys_us, ej.helpers.aio_sys_us);
      o.helpers.other_user_us = Sub(lj.helpers.other_user_us, ej.helpers.other_user_us);
      o.helpers.other_sys_us = Sub(lj.helpers.other_sys_us, ej.helpers.other_sys_us);
      o.helpers.peak_threads = lj.helpers.peak_threads;
      o.helpers.apportioned = lj.helpers.apportioned;
      o.elapsed_ms = Sub(lj.elapsed_ms, ej.elapsed_ms);
      o.runtime_ms = Sub(lj.runtime_ms, ej.runtime_ms);
      o.runtime_us = Sub(lj.runtime_us, ej.runtime_us);
      o.start_ms = lj.start_ms;
      o.end_ms = lj.end_ms;
      o.interrupted = lj.interrupted;
      o.nr_files = lj.nr_files;
      o.files = lj.files;
      o.notes = lj.notes;
      o.layout_tally = lj.layout_tally;
      interval_ms = std::max(interval_ms, o.elapsed_ms);
      out.jobs.push_back(std::move(o));
    }
    r.groups.push_back(std::move(out));
  }
  for (const DiskUtil& ld : later.disks) {
    DiskUtil d = ld;
    for (const DiskUtil& ed : earlier.disks) {
      if (ed.name != ld.name) continue;
      for (int k = 0; k < 2; ++k) {
        d.ios[k] = Sub(ld.ios[k], ed.ios[k]);
        d.merges[k] = Sub(ld.merges[k], ed.merges[k]);
        d.sectors[k] = Sub(ld.sectors[k], ed.sectors[k]);
        d.ticks[k] = Sub(ld.ticks[k], ed.ticks[k]);
      }
      d.io_ticks = Sub(ld.io_ticks, ed.io_ticks);
      d.time_in_queue = Sub(ld.time_in_queue, ed.time_in_queue);
      d.util = interval_ms > 0 ? std::min(100.0, 100.0 * static_cast<double>(d.io_ticks) /
                                                     static_cast<double>(interval_ms))
                               : 0.0;
    }
    r.disks.push_back(d);
  }
  return r;
}

Result<RunResult> InterimReporter::Next(const RunResult& snapshot) {
  if (mode_ == StatusIntervalMode::kCumulative) return snapshot;
  Result<RunResult> out =
      have_prev_ ? IntervalResult(snapshot, prev_) : Result<RunResult>(snapshot);
  if (!out.ok()) return out;
  prev_ = snapshot;
  have_prev_ = true;
  return out;
}

Result<std::string> JsonToLine(std::string_view json_text) {
  // ordered_json: the line keeps the document's key order (fio's order).
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json_text.begin(), json_text.end(),
                                                             nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return Status::Invalid("interim JSON report is not valid JSON (" +
                           std::to_string(json_text.size()) + " bytes)");
  // The document's own text without its layout, not a re-dump of the parsed
  // values: a re-dump printed 800.801270 as 800.80126953125, unlike the final
  // report (fio's 6 decimals).
  std::string line;
  line.reserve(json_text.size());
  bool in_string = false, escaped = false;
  for (const char c : json_text) {
    if (in_string) {
      line += c;
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    if (c == '"') in_string = true;
    line += c;
  }
  line += '\n';
  return line;
}

namespace {
std::atomic<int> g_sigusr1{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handler needs a lock-free flag");
void OnSigusr1(int) { g_sigusr1.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

Status InstallSigusr1Handler() {
  struct sigaction sa = {};
  sa.sa_handler = OnSigusr1;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction(SIGUSR1, &sa, nullptr) != 0) return ErrnoStatus("sigaction SIGUSR1");
  return Status::Ok();
}

bool TakeSigusr1() { return g_sigusr1.exchange(0, std::memory_order_relaxed) != 0; }

bool InterimSchedule::Due(uint64_t now_ns) {
  bool due = TakeSigusr1();
  if (interval_ns_ != 0 && now_ns >= next_ns_) {
    due = true;
    // Skip the slots a late poll missed: one report, then back on the grid.
    next_ns_ += ((now_ns - next_ns_) / interval_ns_ + 1) * interval_ns_;
  }
  return due;
}

}  // namespace iobench
