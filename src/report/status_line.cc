#include "report/status_line.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "iobench/clock.h"

namespace iobench {

namespace {

// Times left are int64 ns, saturating at INT64_MAX (292 years): a size at a
// slow pace (size=1000p at rate=1k) is 10^24 ns, whose cast came out
// negative (read as "unknown": -.-%, where runtime= bounded the job).
constexpr int64_t kLongestNs = INT64_MAX;
int64_t NsOf(long double ns) {
  if (!(ns > 0)) return 0;
  return ns >= static_cast<long double>(kLongestNs) ? kLongestNs : static_cast<int64_t>(ns);
}
int64_t NsOf(uint64_t ns) { return static_cast<int64_t>(std::min<uint64_t>(ns, kLongestNs)); }
// REQUIRES: a >= 0, b >= 0.
int64_t AddNs(int64_t a, int64_t b) {
  return NsOf(SaturatingAddNs(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
}

// The bytes the job moved since its counters started, without its ramp's.
uint64_t BytesDone(const JobStatus& j) {
  uint64_t done = 0;
  for (int d = 0; d < kNumDdirs; ++d) done += j.bytes[d];
  return done;
}

}  // namespace

char RunningLetter(RwMode rw) {
  switch (rw) {
    case RwMode::kRead:
      return 'R';
    case RwMode::kRandRead:
      return 'r';
    case RwMode::kWrite:
      return 'W';
    case RwMode::kRandWrite:
      return 'w';
    case RwMode::kReadWrite:
    case RwMode::kTrimWrite:
      return 'M';
    case RwMode::kRandRW:
    case RwMode::kRandTrimWrite:
      return 'm';
    case RwMode::kTrim:
      return 'D';
    case RwMode::kRandTrim:
      return 'd';
  }
  return 'R';
}

bool StateIsRunning(char state) {
  switch (state) {
    case 'R':
    case 'r':
    case 'W':
    case 'w':
    case 'M':
    case 'm':
    case 'D':
    case 'd':
    case job_state::kPreReading:
    case job_state::kRamp:
    case job_state::kFsync:
    case job_state::kVerifying:
    case job_state::kFinishing:
      return true;
    default:  // P C I (and 0): pending; E _ X K: ended
      return false;
  }
}

bool StateIsDone(char state) {
  return state == job_state::kExited || state == job_state::kReaped || state == job_state::kError ||
         state == job_state::kSignal;
}

void JobStatus::Load(const LiveCounters& live, uint64_t now_ns) {
  // measured_since_ns first (acquire): the counts loaded after it are of
  // that period or a later one, never the ramp's.
  const uint64_t measured = live.measured_since_ns.load(std::memory_order_acquire);
  const uint64_t start = live.start_ns.load(std::memory_order_relaxed);
  // The most a ramp Load saw, not the last: the worker zeroes the counters
  // at the ramp's end a moment (a /proc scan, the CPU snapshot) before it
  // stores measured_since_ns, and a Load in between reads 0 bytes with the
  // ramp's letter.
  // (The last Load in the ramp took its bytes into ramp_seen_bytes.)
  if (measured != 0 && ramp_ns != 0 && Ramping()) ramp_bytes = ramp_seen_bytes;
  counting_since_ns = measured != 0 ? measured : start;
  elapsed_ns = start != 0 && now_ns > start ? now_ns - start : 0;
  for (int d = 0; d < kNumDdirs; ++d) {
    ios[d] = live.ios[d].load(std::memory_order_relaxed);
    bytes[d] = live.bytes[d].load(std::memory_order_relaxed);
  }
  state = static_cast<char>(live.state.load(std::memory_order_relaxed));
  in_ramp = ramp_ns != 0 && measured == 0 && StateIsRunning(state);
  if (measured == 0 && Ramping()) ramp_seen_bytes = std::max(ramp_seen_bytes, BytesDone(*this));
}

bool JobStatus::Ramping() const { return state == job_state::kRamp || in_ramp; }

JobStatus JobStatus::FromSpec(const JobSpec& spec, uint64_t resolved_size) {
  JobStatus j;
  const bool r = HasRead(spec.rw), w = HasWrite(spec.rw), t = HasTrim(spec.rw);
  j.ddir_mask = static_cast<uint8_t>((r ? 1 : 0) | (w ? 2 : 0) | (t ? 4 : 0));
  // "f=": the job's files, counted while it runs (fio counts the null
  // engine's file too); openfiles=N below them keeps N open at most, and
  // file_service_type=sequential one.
  j.open_files = std::max<uint32_t>(1, spec.nrfiles);
  if (const uint32_t limit = spec.OpenLimit(j.open_files); limit != 0) j.open_files = limit;
  j.startdelay_ns = spec.startdelay_ns;
  j.ramp_ns = spec.ramp_time_ns;
  if (spec.startdelay_max_ns > spec.startdelay_ns)
    j.startdelay_ns += (spec.startdelay_max_ns - spec.startdelay_ns) / 2;
  if (spec.runtime_ns > 0) j.planned_ns = RampAndRuntimeNs(spec);
  // time_based without a runtime runs size-based (RunJobs, as fio).
  if (!spec.time_based || spec.runtime_ns == 0) {
    const uint64_t per_loop = spec.io_size ? spec.io_size
                              : spec.io_size_percent != 0
                                  ? resolved_size * spec.io_size_percent / 100
                                  : resolved_size;
    const uint64_t moved = per_loop * std::max<uint64_t>(spec.loops, 1);
    // The share of the bytes each direction moves.
    long double share[kNumDdirs] = {r ? 1.0L : 0, w ? 1.0L : 0, t ? 1.0L : 0};
    if (r && w) {
      share[0] = spec.rwmixread / 100.0L;
      share[1] = 1 - share[0];
    } else if (t && w) {  // trimwrite: each block trimmed, then written
      share[1] = share[2] = 0.5L;
    }
    j.planned_bytes = moved;
    // verify: the written bytes are read back (fio's thread_eta counts them).
    if (w && spec.verify.type != VerifyType::kNone && spec.verify.do_verify &&
        !spec.verify.verify_only)
      j.planned_bytes += static_cast<uint64_t>(moved * share[1]);
    // A rate limit: the slowest limited direction sets the pace.
    long double paced_s = 0;
    for (int d = 0; d < kNumDdirs; ++d) {
      if (share[d] == 0) continue;
      long double bps = static_cast<long double>(spec.rate[d]);
      if (bps == 0 && spec.rate_iops[d] != 0)
        bps = static_cast<long double>(spec.rate_iops[d]) *
              static_cast<long double>(spec.bs[d].min + spec.bs[d].max) / 2;
      if (bps > 0) paced_s = std::max(paced_s, moved * share[d] / bps);
    }
    j.paced_ns = static_cast<uint64_t>(NsOf(paced_s * 1e9L));
  }
  for (int d = 0; d < kNumDdirs; ++d) {
    // rate_iops=1000 sets every direction (fio's syntax); only the ones the
    // job does limit it.
    if ((j.ddir_mask & (1u << d)) == 0) continue;
    j.rate_bps += spec.rate[d];
    j.rate_min_bps += spec.rate_min[d];
    j.rate_iops += spec.rate_iops[d];
    j.rate_iops_min += spec.rate_iops_min[d];
  }
  return j;
}

std::vector<JobStatus> PlanRun(const std::vector<JobSpec>& jobs) {
  std::vector<JobStatus> out;
  uint32_t phase = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& spec = jobs[i];
    if (i > 0 && StartsPhase(jobs, i)) ++phase;
    JobStatus j = JobStatus::FromSpec(spec, spec.size);
    j.phase = phase;
    out.insert(out.end(), std::max<uint32_t>(spec.numjobs, 1), j);
  }
  return out;
}

void SessionProgress::StartRun(size_t index, const std::vector<JobSpec>& jobs, uint64_t now_ns) {
  run_.jobs = PlanRun(jobs);
  next_slot_ = phase_first_ = 0;
  run_begin_ns_ = now_ns;
  run_started_ = false;
  run_.run_elapsed_ns = 0;
  run_.later_ns = 0;
  run_.later_unplanned = 0;
  for (size_t r = index + 1; r < plan_.size(); ++r) {
    if (plan_[r] >= 0)
      run_.later_ns = SaturatingAddNs(run_.later_ns, static_cast<uint64_t>(plan_[r]));
    else
      ++run_.later_unplanned;
  }
  run_.pace_ns = runs_done_ != 0 ? runs_ns_ / runs_done_ : 0;
}

void SessionProgress::EndRun(uint64_t now_ns) {
  ++runs_done_;
  runs_ns_ += now_ns > run_begin_ns_ ? now_ns - run_begin_ns_ : 0;
}

void SessionProgress::PhaseStart(const std::vector<const JobSpec*>& specs, uint64_t now_ns) {
  if (!run_started_) {
    run_started_ = true;
    run_start_ns_ = now_ns;
  }
  // A job of an earlier phase that never started (its wait_for job failed)
  // ended with its phase.
  for (size_t i = 0; i < next_slot_ && i < run_.jobs.size(); ++i)
    if (!StateIsDone(run_.jobs[i].state)) run_.jobs[i].state = job_state::kReaped;
  phase_first_ = next_slot_;
  const uint32_t phase = phase_first_ < run_.jobs.size() ? run_.jobs[phase_first_].phase
                         : run_.jobs.empty()             ? 0
                                                         : run_.jobs.back().phase + 1;
  if (run_.jobs.size() < phase_first_ + specs.size()) run_.jobs.resize(phase_first_ + specs.size());
  for (size_t k = 0; k < specs.size(); ++k) {
    JobStatus& slot = run_.jobs[phase_first_ + k];
    slot = JobStatus::FromSpec(*specs[k], specs[k]->size);
    slot.phase = phase;
  }
  next_slot_ = phase_first_ + specs.size();
}

void SessionProgress::Load(const std::vector<const LiveCounters*>& live, uint64_t now_ns) {
  for (size_t i = 0; i < live.size() && phase_first_ + i < run_.jobs.size(); ++i)
    run_.jobs[phase_first_ + i].Load(*live[i], now_ns);
  run_.elapsed_ns = now_ns > start_ns_ ? now_ns - start_ns_ : 0;
  run_.run_elapsed_ns = run_started_ && now_ns > run_start_ns_ ? now_ns - run_start_ns_ : 0;
}

// At most 4 significant digits: scale by `base` until the integer part has
// at most 4 digits, then show as many decimals as keep the total at 3
// digits (fio's eta style: "12.0MiB", "82.8k", "323MiB", "6180k"). The
// fraction is truncated, never rounded up past what was measured.
static std::string Compact(uint64_t value, uint64_t base, const char* const* units, int nunits) {
  uint64_t div = 1;
  int unit = 0;
  while (value / div >= 10000 && unit + 1 < nunits) {
    div *= base;
    ++unit;
  }
  const uint64_t ip = value / div;
  const int digits = ip >= 1000 ? 4 : ip >= 100 ? 3 : ip >= 10 ? 2 : 1;
  const int decimals = unit == 0 ? 0 : std::max(0, 3 - digits);
  char buf[64];
  if (decimals == 0) {
    std::snprintf(buf, sizeof(buf), "%llu%s", static_cast<unsigned long long>(ip), units[unit]);
  } else {
    const unsigned __int128 scale = decimals == 1 ? 10 : 100;
    const uint64_t frac = static_cast<uint64_t>((value % div) * scale / div);
    std::snprintf(buf, sizeof(buf), "%llu.%0*llu%s", static_cast<unsigned long long>(ip), decimals,
                  static_cast<unsigned long long>(frac), units[unit]);
  }
  return buf;
}

std::string FormatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  return Compact(bytes, 1024, kUnits, 7);
}

std::string FormatCount(uint64_t count) {
  static const char* const kUnits[] = {"", "k", "M", "G", "T", "P", "E"};
  return Compact(count, 1000, kUnits, 7);
}

std::string FormatEta(uint64_t seconds) {
  const uint64_t d = seconds / 86400, h = seconds / 3600 % 24, m = seconds / 60 % 60,
                 s = seconds % 60;
  char buf[64];
  if (d > 0) {  // fio's "%02ud:": 01d, 10d, 123d
    std::snprintf(buf, sizeof(buf), "%02llud:%02lluh:%02llum:%02llus",
                  static_cast<unsigned long long>(d), static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m), static_cast<unsigned long long>(s));
  } else if (h > 0) {
    std::snprintf(buf, sizeof(buf), "%02lluh:%02llum:%02llus", static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m), static_cast<unsigned long long>(s));
  } else {
    std::snprintf(buf, sizeof(buf), "%02llum:%02llus", static_cast<unsigned long long>(m),
                  static_cast<unsigned long long>(s));
  }
  return buf;
}

namespace {

// Keeps the earliest of the limits known so far (-1: none yet).
void TakeEarliest(int64_t* rem, int64_t v) { *rem = *rem < 0 ? v : std::min(*rem, v); }

int64_t Left(uint64_t planned, uint64_t elapsed) {
  return NsOf(planned > elapsed ? planned - elapsed : uint64_t{0});
}

// Time left of one job, `t` into the run (when its phase starts, for a job
// of a later phase); ns_per_byte: the speed per job measured so far (0:
// none yet). -1: unknown.
int64_t JobRemainingNs(const JobStatus& j, uint64_t t, long double ns_per_byte) {
  if (StateIsDone(j.state)) return 0;
  int64_t rem = -1;
  if (!StateIsRunning(j.state)) {  // not started: its whole length, after its startdelay
    if (j.planned_ns > 0) TakeEarliest(&rem, NsOf(j.planned_ns));
    if (j.planned_bytes > 0) {
      if (j.paced_ns > 0)
        TakeEarliest(&rem, NsOf(j.paced_ns));
      else if (ns_per_byte > 0)
        TakeEarliest(&rem, NsOf(j.planned_bytes * ns_per_byte));
    }
    if (rem < 0) return -1;
    return AddNs(rem, Left(j.startdelay_ns, t));
  }
  if (j.planned_ns > 0) TakeEarliest(&rem, Left(j.planned_ns, j.elapsed_ns));
  // The ramp's bytes count toward the size (fio's too), though the
  // counters restarted at its end: without them a 2 s ramp of 64m at 16m/s
  // showed "[eta 04m:13s]" on the next line, the ramp's 32 MiB still to go.
  const uint64_t done = BytesDone(j) + j.ramp_bytes;
  if (j.planned_bytes > 0) {
    if (done > 0 && j.elapsed_ns > 0) {
      const long double left = done >= j.planned_bytes ? 0.0L : j.planned_bytes - done;
      TakeEarliest(&rem, NsOf(static_cast<long double>(j.elapsed_ns) * left / done));
    } else if (j.paced_ns > 0) {
      TakeEarliest(&rem, Left(j.paced_ns, j.elapsed_ns));
    }
  }
  return rem;
}

}  // namespace

int64_t RunRemainingNs(const std::vector<JobStatus>& jobs, uint64_t run_elapsed_ns) {
  // The speed per job so far, for pending size-limited jobs without a rate
  // limit: the same device, at the pace the running jobs go.
  long double bytes = 0, ns = 0;
  for (const JobStatus& j : jobs) {
    if (!StateIsRunning(j.state) || j.state == job_state::kRamp || j.elapsed_ns == 0) continue;
    bytes += BytesDone(j) + j.ramp_bytes;
    ns += j.elapsed_ns;
  }
  const long double ns_per_byte = bytes > 0 ? ns / bytes : 0;
  int64_t total = 0;
  uint64_t t = run_elapsed_ns;  // when the phase starts, for its startdelays
  for (size_t i = 0; i < jobs.size();) {
    const uint32_t phase = jobs[i].phase;
    int64_t longest = 0;
    for (; i < jobs.size() && jobs[i].phase == phase; ++i) {
      const int64_t rem = JobRemainingNs(jobs[i], t, ns_per_byte);
      if (rem < 0) return -1;
      longest = std::max(longest, rem);
    }
    total = AddNs(total, longest);
    t = SaturatingAddNs(t, static_cast<uint64_t>(longest));
  }
  return total;
}

int64_t SnapshotRemainingNs(const RunResult& snapshot) {
  std::vector<JobSpec> specs;  // one per job, its clones following it
  std::vector<const JobResult*> clones;
  for (const GroupResult& g : snapshot.groups)
    for (const JobResult& j : g.jobs) {
      if (j.jobnum == 0) specs.push_back(j.spec);
      clones.push_back(&j);
    }
  std::vector<JobStatus> jobs = PlanRun(specs);
  if (jobs.size() != clones.size()) return -1;
  constexpr uint64_t kMsNs = 1000000;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobResult& r = *clones[i];
    JobStatus& j = jobs[i];
    if (r.error != 0 || r.interrupted) {
      j.state = job_state::kReaped;
    } else if (r.start_ms != 0) {  // started: after its startdelay, as JobStatus counts
      j.state = RunningLetter(r.spec.rw);
      j.elapsed_ns = r.end_ms > r.start_ms ? (r.end_ms - r.start_ms) * kMsNs : 0;
      for (int d = 0; d < kNumDdirs; ++d) {
        j.ios[d] = r.stats.dir[d].ios;
        j.bytes[d] = r.stats.dir[d].bytes;
      }
    }
  }
  const uint64_t now_ms = snapshot.timestamp_ms;
  return RunRemainingNs(
      jobs, now_ms > snapshot.start_ms ? (now_ms - snapshot.start_ms) * kMsNs : uint64_t{0});
}

std::string StatusLine::Render(const RunStatus& run, uint64_t now_ns) {
  unsigned running = 0, ramping = 0, files = 0;
  uint8_t run_mask = 0, all_mask = 0;
  uint64_t rmin = 0, rmax = 0, imin = 0, imax = 0;
  for (const JobStatus& j : run.jobs) {
    // fio: a job in its ramp counts as running, but adds no files, no rate
    // limits and no rates (calc_thread_status).
    const bool ramp = j.Ramping();
    if ((StateIsDone(j.state) || StateIsRunning(j.state)) && !ramp) all_mask |= j.ddir_mask;
    if (!StateIsRunning(j.state)) continue;
    ++running;
    if (ramp)
      ++ramping;
    else
      run_mask |= j.ddir_mask;
    if (j.state == job_state::kRamp) continue;
    files += j.open_files;
    rmin += j.rate_min_bps;
    rmax += j.rate_bps;
    imin += j.rate_iops_min;
    imax += j.rate_iops;
  }
  int64_t remaining = RunRemainingNs(run.jobs, run.run_elapsed_ns);
  if (remaining >= 0) {
    const uint64_t pace =
        run.pace_ns != 0 ? run.pace_ns : run.run_elapsed_ns + static_cast<uint64_t>(remaining);
    remaining = AddNs(remaining,
                      NsOf(SaturatingAddNs(run.later_ns, SaturatingNs(run.later_unplanned, pace))));
  }
  last_eta_ns_ = remaining;

  // Rates: the counters' change since the previous Render, per job, summed.
  if (!have_prev_) {
    have_prev_ = true;
    prev_ns_ = now_ns - std::min(now_ns, run.elapsed_ns);
  }
  // fio prints no rate before a full period: the first draw, a few ms into
  // the run, showed [w=21.7MiB/s] under rate=20m.
  if (now_ns > prev_ns_ && now_ns - prev_ns_ >= min_window_ns_) {
    have_rates_ = true;
    const uint64_t dt = now_ns - prev_ns_;
    prev_.resize(run.jobs.size());
    for (int d = 0; d < kNumDdirs; ++d) rate_iops_[d] = rate_bps_[d] = 0;
    for (size_t i = 0; i < run.jobs.size(); ++i) {
      const JobStatus& j = run.jobs[i];
      JobPrev& p = prev_[i];
      // Counting restarted inside this interval (the job started or its ramp
      // ended; a new phase reuses the slot): all it holds is from the last
      // now_ns - since. Otherwise the change over the interval. A job whose
      // counting start is unknown (0) and whose counters went down (a new
      // group or sweep point) is rated on what it holds, over the interval.
      const uint64_t since = j.counting_since_ns;
      const bool restarted = since != 0 && since != p.since_ns && since > prev_ns_;
      uint64_t window = dt;
      if (restarted) window = now_ns > since ? now_ns - since : 0;
      // Too little of the interval to rate on: a ramp that ended just now,
      // or the job's next run (a sweep point, a --repeat) that started just
      // now, keeps the slot's rate of the previous interval (a job of a
      // later phase that has not run yet: 0). The new run was rated over
      // the whole interval: 100 IOPS for a job held at 5000.
      bool carry = false;
      if (restarted && window < dt / 8) {
        carry = p.rated;
        window = dt;
      }
      // A job in its ramp adds nothing to the line: its I/O is not measured
      // (fio rates none of it), and a ramping job beside a rate=50m one
      // showed r=46.8GiB/s where fio shows r=50.0MiB/s. Its rate is kept
      // for the slot all the same: a ramp that ends just before the next
      // line carries it (rated over the whole interval, the few ms since
      // showed r=390KiB/s for a job held at 16 MiB/s).
      const bool ramp = j.Ramping();
      for (int d = 0; d < kNumDdirs; ++d) {
        uint64_t ri = p.rate_iops[d], rb = p.rate_bps[d];
        if (!carry) {
          const bool fresh = restarted || j.ios[d] < p.ios[d] || j.bytes[d] < p.bytes[d];
          const uint64_t di = fresh ? j.ios[d] : j.ios[d] - p.ios[d];
          const uint64_t db = fresh ? j.bytes[d] : j.bytes[d] - p.bytes[d];
          const long double w = static_cast<long double>(window);
          ri = static_cast<uint64_t>(static_cast<long double>(di) * 1e9L / w + 0.5L);
          rb = static_cast<uint64_t>(static_cast<long double>(db) * 1e9L / w + 0.5L);
        }
        if (!ramp) {
          rate_iops_[d] += ri;
          rate_bps_[d] += rb;
        }
        p.rate_iops[d] = ri;
        p.rate_bps[d] = rb;
        p.ios[d] = j.ios[d];
        p.bytes[d] = j.bytes[d];
      }
      p.since_ns = since;
      p.rated = true;
    }
    prev_ns_ = now_ns;
  }

  std::string out = "Jobs: " + std::to_string(running) + " (f=" + std::to_string(files) + ")";
  // fio's display_thread_status shows one range: the bytes' if any job
  // limits bytes (rate_min alone too: "6144KiB/s-0B/s"), else the IOPS',
  // as plain numbers (0-32000). Scripts parse that part of the line.
  if (rmin > 0 || rmax > 0)
    out += ", " + FormatBytes(rmin) + "/s-" + FormatBytes(rmax) + "/s";
  else if (imin > 0 || imax > 0)
    out += ", " + std::to_string(imin) + "-" + std::to_string(imax) + " IOPS";
  out += ": [";
  for (size_t i = 0; i < run.jobs.size();) {
    char c = run.jobs[i].state;
    if (c == job_state::kNotStarted) c = job_state::kSetup;
    size_t n = 1;
    while (i + n < run.jobs.size()) {
      char c2 = run.jobs[i + n].state;
      if (c2 == job_state::kNotStarted) c2 = job_state::kSetup;
      if (c2 != c) break;
      ++n;
    }
    if (i > 0) out += ',';
    out += c;
    out += '(' + std::to_string(n) + ')';
    i += n;
  }
  out += "][";
  // Every running job in its ramp: nothing measured yet, fio's "-.-%" (the
  // ETA is still shown).
  if (remaining >= 0 && (running == 0 || ramping < running)) {
    const long double total = static_cast<long double>(run.elapsed_ns) + remaining;
    const double pct = total > 0 ? static_cast<double>(100.0L * run.elapsed_ns / total) : 0.0;
    shown_pct_ = std::max(shown_pct_, std::floor(std::min(pct, 100.0) * 10) / 10);
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f%%", shown_pct_);
    out += buf;
  } else {
    out += "-.-%";
  }
  out += ']';

  // Running jobs all in their ramp: no rates at all, as fio's line.
  uint8_t mask = !have_rates_ ? 0 : running > 0 ? run_mask : all_mask;
  if (mask == 0)
    for (int d = 0; d < kNumDdirs; ++d)
      if (rate_iops_[d] != 0) mask |= static_cast<uint8_t>(1u << d);
  if (mask != 0) {
    static constexpr char kLabel[kNumDdirs] = {'r', 'w', 't'};
    std::string bw = "[", iops = "[";
    for (int d = 0; d < kNumDdirs; ++d) {
      if (!(mask & (1u << d))) continue;
      if (bw.size() > 1) {
        bw += ',';
        iops += ',';
      }
      bw += kLabel[d];
      bw += '=' + FormatBytes(rate_bps_[d]) + "/s";
      iops += kLabel[d];
      iops += '=' + FormatCount(rate_iops_[d]);
    }
    out += bw + "]" + iops + " IOPS]";
  }
  if (remaining >= 0) {
    // Round up: "eta 00m:00s" only once nothing is left.
    out += "[eta " + FormatEta(EtaSeconds(remaining)) + "]";
  } else {
    out += "[elapsed " + FormatEta(run.elapsed_ns / 1000000000) + "]";
  }
  return out;
}

Result<EtaMode> ParseEtaMode(std::string_view text) {
  std::string t(text);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "auto") return EtaMode::kAuto;
  if (t == "always") return EtaMode::kAlways;
  if (t == "never") return EtaMode::kNever;
  return Status::Invalid("--eta: '" + std::string(text) + "' is not one of auto, always, never");
}

bool StatusLineAllowed(const std::vector<std::string>& formats, bool report_to_stdout) {
  return !report_to_stdout || std::find(formats.begin(), formats.end(), "normal") != formats.end();
}

bool ReportGoesToFd(const std::string& output, int fd) {
  if (output.empty()) return true;
  struct stat named {
  }, open_fd{};
  if (::stat(output.c_str(), &named) != 0 || ::fstat(fd, &open_fd) != 0) return false;
  return named.st_dev == open_fd.st_dev && named.st_ino == open_fd.st_ino;
}

StatusPrinter::StatusPrinter(int fd, const StatusPrinterOptions& opts) : fd_(fd), opts_(opts) {
  opts_.interval_ns = std::max(opts_.interval_ns, kMinIntervalNs);
  line_.set_min_window_ns(opts_.interval_ns / 100 * 95);
  const bool tty = fd >= 0 && ::isatty(fd) == 1;
  enabled_ =
      opts.allowed && (opts.mode == EtaMode::kAlways || (opts.mode == EtaMode::kAuto && tty));
  tty_ = tty;
}

// The terminal's width now: read at each draw (one ioctl a second at most),
// so a resized window cuts the line to its new width.
size_t StatusPrinter::Room() const {
  winsize ws{};
  if (!tty_ || ::ioctl(fd_, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return SIZE_MAX;
  return ws.ws_col - 1u;  // the last column would wrap on some terminals
}

void StatusPrinter::Write(const std::string& s) {
  const char* p = s.data();
  size_t left = s.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      // A closed terminal is no reason to stop a benchmark. A pipe with no
      // reader is: the write raised SIGPIPE, which stops the run (run/signals.h).
      return;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

// The next due time of a schedule every `period` from `due`: one period on,
// or, if the caller fell a whole period behind, one period from now (no
// burst of catch-up draws).
static uint64_t NextDue(uint64_t due, uint64_t period, uint64_t now_ns) {
  due += period;
  return due > now_ns ? due : now_ns + period;
}

bool StatusPrinter::Update(const RunStatus& run, uint64_t now_ns) {
  if (!enabled_ || finished_) return false;
  if (drawn_ && now_ns < next_draw_ns_) return false;
  std::string text = line_.Render(run, now_ns);
  // Never wrap: a wrapped line cannot be redrawn with '\r'. Nor may the
  // blanks over the last line's rest, after the window got narrower.
  const size_t room = Room();
  if (text.size() > room) text.resize(room);
  std::string out = text;
  const size_t blank_to = std::min(shown_len_, room);
  if (blank_to > text.size()) out.append(blank_to - text.size(), ' ');
  out += '\r';
  shown_len_ = text.size();
  if (opts_.newline_ns > 0) {
    if (!newline_started_) {
      newline_started_ = true;
      next_newline_ns_ = now_ns + opts_.newline_ns;
    } else if (now_ns >= next_newline_ns_) {
      out += '\n';  // keep this line; the next one starts below it
      shown_len_ = 0;
      next_newline_ns_ = NextDue(next_newline_ns_, opts_.newline_ns, now_ns);
    }
  }
  Write(out);
  // After a Clear (an interim report) the schedule starts again from now.
  next_draw_ns_ =
      drawn_ ? NextDue(next_draw_ns_, opts_.interval_ns, now_ns) : now_ns + opts_.interval_ns;
  drawn_ = true;
  return true;
}

void StatusPrinter::Clear() {
  if (!enabled_ || shown_len_ == 0) return;
  // A pipe or a file that gets no report: the lines stay as drawn, each
  // ended by '\r' (fio's), and the schedule goes on.
  if (!tty_ && !opts_.reports_here) return;
  // A terminal: blanks over the line. A pipe or a file (--eta=always): the
  // line ends, as fio's "\r\n", so the report after it starts a line of
  // its own (blanks there put spaces and a '\r' before its first line).
  std::string out = tty_ ? std::string(std::min(shown_len_, Room()), ' ') + '\r' : "\n";
  Write(out);
  shown_len_ = 0;
  drawn_ = false;  // redraw at the next Update
}

void StatusPrinter::Finish() {
  Clear();
  finished_ = true;
}

}  // namespace iobench
