#include "stats/summary.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>

#include "stats/ioprio.h"
#include "stats/units.h"

namespace iobench {

const std::vector<double>& DefaultPercentiles() {
  static const std::vector<double> kList = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                            80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  return kList;
}

std::vector<double> PercentileListFor(const JobSpec& spec) {
  if (spec.percentile_list.empty()) return DefaultPercentiles();
  std::vector<double> list;
  for (double p : spec.percentile_list)
    if (p > 0 && p <= 100) list.push_back(p);
  std::sort(list.begin(), list.end());
  return list;
}

uint64_t HistogramTotal(const Histogram& h) {
  uint64_t total = 0;
  for (unsigned i = 0; i < Histogram::kNr; ++i) total += h.counts[i];
  return total;
}

std::vector<PercentileValue> Percentiles(const Histogram& h, const std::vector<double>& list) {
  std::vector<PercentileValue> out;
  const uint64_t total = HistogramTotal(h);
  if (total == 0 || list.empty()) return out;
  out.reserve(list.size());
  size_t j = 0;
  uint64_t cum = 0;
  // The threshold p/100 * total formed as fio 3.33's calc_clat_percentiles
  // forms it, (long double)p / 100.0 * nr: when it is a whole number in exact
  // arithmetic, the long double and double forms can round to opposite sides
  // of it and pick neighbouring buckets (p60 of 10410 I/Os: 6246 + 4e-16 in
  // long double, 6246 in double). Checked against fio's json+ bins and its
  // printed percentiles: 11 of 11 such cases took the long double bucket.
  for (unsigned i = 0; i < Histogram::kNr && j < list.size(); ++i) {
    cum += h.counts[i];
    while (j < list.size() &&
           static_cast<long double>(cum) >=
               static_cast<long double>(list[j]) / 100.0 * static_cast<long double>(total)) {
      out.push_back({list[j], Histogram::IndexToValue(i)});
      ++j;
    }
  }
  return out;
}

uint64_t Percentile(const Histogram& h, double p) {
  const auto v = Percentiles(h, {p});
  return v.empty() ? 0 : v[0].value_ns;
}

// fio prints as many decimals as the list's most precise entry has, from
// none: percentile_list=50:99 gives "50th", 50:99.9 "50.0th", and its
// default list (99.95, 99.99) "1.00th". For a typed list fio counts the
// digits as typed ("99.90" gives two): JobSpec::percentile_precision.
int PercentilePrecisionFor(const JobSpec& spec) {
  if (spec.percentile_precision >= 0) return spec.percentile_precision;
  return PercentilePrecision(PercentileListFor(spec));
}

int PercentilePrecision(const std::vector<double>& list) {
  constexpr int kMaxDecimals = 9;
  int precision = 0;
  for (double p : list) {
    int d = 0;
    for (double scale = 1; d < kMaxDecimals; ++d, scale *= 10) {
      const double scaled = p * scale;
      // Relative: a double holds about 16 digits, the list up to 12.
      if (std::fabs(scaled - std::round(scaled)) <= 1e-12 * std::max(1.0, std::fabs(scaled))) break;
    }
    precision = std::max(precision, d);
  }
  return precision;
}

SampleStat SampleStatFromRates(const std::vector<RateSample>& samples, uint64_t divisor) {
  SampleStat s;
  if (samples.empty()) return s;
  if (divisor == 0) divisor = 1;
  s.samples = samples.size();
  s.min = UINT64_MAX;
  long double sum = 0;
  for (const auto& r : samples) {
    const uint64_t v = r.value / divisor;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    sum += v;
  }
  const long double mean = sum / static_cast<long double>(samples.size());
  long double sq = 0;
  for (const auto& r : samples) {
    const long double d = static_cast<long double>(r.value / divisor) - mean;
    sq += d * d;
  }
  s.mean = static_cast<double>(mean);
  s.stddev = samples.size() > 1
                 ? static_cast<double>(std::sqrt(sq / static_cast<long double>(samples.size() - 1)))
                 : 0.0;
  return s;
}

SampleStat BwSampleStat(const std::vector<RateSample>& bw_samples) {
  return SampleStatFromRates(bw_samples, kBwSampleDivisor);
}

SampleStat SumSampleStats(const SampleStat& a, const SampleStat& b) {
  if (b.samples == 0) return a;
  if (a.samples == 0) return b;
  SampleStat s;
  s.min = a.min + b.min;
  s.max = a.max + b.max;
  s.mean = a.mean + b.mean;
  s.samples = a.samples + b.samples;
  const double sa = a.stddev * a.stddev * static_cast<double>(a.samples > 0 ? a.samples - 1 : 0);
  const double sb = b.stddev * b.stddev * static_cast<double>(b.samples > 0 ? b.samples - 1 : 0);
  s.stddev = s.samples > 1 ? std::sqrt((sa + sb) / static_cast<double>(s.samples - 1)) : 0.0;
  return s;
}

namespace {

// One priority's latency into a split: merged into the entry of the same
// value, or appended.
void AddPrio(std::vector<PrioStat>& prios, uint16_t value, const LatStat& lat,
             const Histogram& hist) {
  auto same = std::find_if(prios.begin(), prios.end(),
                           [value](const PrioStat& q) { return q.value == value; });
  if (same == prios.end()) {
    PrioStat& p = prios.emplace_back();
    p.value = value;
    p.lat = lat;
    p.hist = hist;
  } else {
    same->lat.Merge(lat);
    same->hist.Merge(hist);
  }
}

// A direction without a split of its own into a split: its whole latency
// under the job's own priority (nothing when it completed no I/O).
void AddOwnPrio(std::vector<PrioStat>& prios, const DirStats& s, const OwnPrio& own) {
  const LatStat& lat = own.total_lat ? s.lat : s.clat;
  if (lat.n != 0) AddPrio(prios, own.value, lat, own.total_lat ? s.lat_hist : s.clat_hist);
}

void MergeDir(DirStats& d, const DirStats& s, const OwnPrio* own) {
  d.ios += s.ios;
  d.bytes += s.bytes;
  d.short_ios += s.short_ios;
  d.dropped += s.dropped;
  d.failed += s.failed;
  d.errors += s.errors;
  d.eagain += s.eagain;
  d.high_prio_ios += s.high_prio_ios;
  // As fio: a priority's latency merges into the entry of the same value, a
  // value the group has not seen yet is appended; a direction without a
  // split counts whole under its job's own priority (none when it did no I/O).
  d.prio_split = d.prio_split || s.prio_split || own != nullptr;
  if (s.prio_split) {
    for (const PrioStat& p : s.prios) AddPrio(d.prios, p.value, p.lat, p.hist);
  } else if (own != nullptr) {
    AddOwnPrio(d.prios, s, *own);
  }
  // As fio's update_runtime, only a member that did I/O in this direction
  // counts (a group of a read-only and a write-only rw=rw clone showed the
  // reader's 492 ms as the writes' runtime, fio 1 ms).
  if (DirDidIo(s)) d.runtime_ns = std::max(d.runtime_ns, s.runtime_ns);
  d.slat.Merge(s.slat);
  d.clat.Merge(s.clat);
  d.lat.Merge(s.lat);
  d.slat_hist.Merge(s.slat_hist);
  d.clat_hist.Merge(s.clat_hist);
  d.lat_hist.Merge(s.lat_hist);
  d.bw_samples.insert(d.bw_samples.end(), s.bw_samples.begin(), s.bw_samples.end());
  d.iops_samples.insert(d.iops_samples.end(), s.iops_samples.begin(), s.iops_samples.end());
}

void AddArray(std::array<uint64_t, 7>& d, const std::array<uint64_t, 7>& s) {
  for (size_t i = 0; i < d.size(); ++i) d[i] += s[i];
}

void AddHelpers(HelperCpu& d, const HelperCpu& s) {
  d.iowq_user_us += s.iowq_user_us;
  d.iowq_sys_us += s.iowq_sys_us;
  d.sqpoll_user_us += s.sqpoll_user_us;
  d.sqpoll_sys_us += s.sqpoll_sys_us;
  d.aio_user_us += s.aio_user_us;
  d.aio_sys_us += s.aio_sys_us;
  d.other_user_us += s.other_user_us;
  d.other_sys_us += s.other_sys_us;
  d.peak_threads += s.peak_threads;
  d.apportioned = d.apportioned || s.apportioned;
}

}  // namespace

OwnPrio OwnPrioOf(const JobSpec& spec) { return {JobIoprio(spec), spec.lat_percentiles}; }

void MergeThreadStats(ThreadStats& dst, const ThreadStats& src, const OwnPrio* own) {
  for (int d = 0; d < kNumDdirs; ++d) {
    MergeDir(dst.dir[d], src.dir[d], own);
    dst.issued[d] += src.issued[d];
    dst.short_issued[d] += src.short_issued[d];
    dst.dropped_issued[d] += src.dropped_issued[d];
  }
  dst.sync_lat.Merge(src.sync_lat);
  dst.sync_hist.Merge(src.sync_hist);
  dst.sync_ios += src.sync_ios;
  AddArray(dst.depth.depth, src.depth.depth);
  AddArray(dst.depth.submit, src.depth.submit);
  AddArray(dst.depth.complete, src.depth.complete);
  dst.depth.submit_events += src.depth.submit_events;
  dst.depth.complete_events += src.depth.complete_events;
  dst.cpu.user_us += src.cpu.user_us;
  dst.cpu.sys_us += src.cpu.sys_us;
  dst.cpu.ctx += src.cpu.ctx;
  dst.cpu.majf += src.cpu.majf;
  dst.cpu.minf += src.cpu.minf;
  dst.submit_calls += src.submit_calls;
  dst.submitted += src.submitted;
  dst.reap_calls += src.reap_calls;
  dst.reaped += src.reaped;
  dst.reap_syscalls += src.reap_syscalls;
  if (dst.first_error.err == 0 && src.first_error.err != 0) dst.first_error = src.first_error;
  dst.total_errors += src.total_errors;
  dst.coe_errors += src.coe_errors;
  if (dst.coe_first_error == 0) dst.coe_first_error = src.coe_first_error;
  dst.file_calls += src.file_calls;
}

namespace {

// A record's figures for one job: bw/iops sample stats, helpers, CPU time.
// A result made without the microseconds (a test's, a merged one's) has
// its milliseconds.
uint64_t RuntimeUs(const JobResult& job) {
  return job.runtime_us != 0 ? job.runtime_us : job.runtime_ms * 1000;
}

void FillRecord(JobRecord& r, const JobResult& job) {
  r.members = 1;
  for (int d = 0; d < kNumDdirs; ++d) {
    r.bw[d] = BwSampleStat(job.stats.dir[d].bw_samples);
    r.iops[d] = SampleStatFromRates(job.stats.dir[d].iops_samples);
  }
  r.helpers = job.helpers;
  r.cpu_runtime_ms = job.runtime_ms;
  r.cpu_runtime_us = RuntimeUs(job);
}

// The mixed direction of a finished record: the directions summed, and the
// bw/iops sample stats summed as group_reporting sums jobs (fio: a window's
// mixed bandwidth is its read plus its write bandwidth).
void FillMixed(JobRecord& r) {
  if (r.result.spec.unified_rw_reporting == JobSpec::UnifiedRw::kNone) return;
  r.mixed =
      std::make_shared<const DirStats>(MixDirections(r.result.stats, OwnPrioOf(r.result.spec)));
  r.mixed_bw = r.mixed_iops = SampleStat();
  for (int d = 0; d < kNumDdirs; ++d) {
    r.mixed_bw = SumSampleStats(r.mixed_bw, r.bw[d]);
    r.mixed_iops = SumSampleStats(r.mixed_iops, r.iops[d]);
  }
}

}  // namespace

DirStats MixDirections(const ThreadStats& ts, const OwnPrio& own) {
  DirStats m;
  for (int d = 0; d < kNumDdirs; ++d) MergeDir(m, ts.dir[d], &own);
  return m;
}

bool Reported(const JobResult& job) { return job.spec.stats; }

std::string VerifyTallyNote(const VerifyTally& t) {
  return "verify: " + std::to_string(t.written) + " blocks written, " + std::to_string(t.verified) +
         " verified, " + std::to_string(t.skipped) + " skipped, " + std::to_string(t.failed) +
         " failed" +
         (t.unread != 0 ? ", " + std::to_string(t.unread) + " not checked (the read failed)"
                        : std::string()) +
         (t.interval != 0 ? " (verify_interval " + std::to_string(t.interval) + " bytes)"
                          : std::string(" (verify_interval differs between the jobs)"));
}

std::string LayoutTallyNote(const LayoutTally& t) {
  return "Laying out IO file" + std::string(t.files == 1 ? "" : "s") + " (" +
         std::to_string(t.files) + (t.files == 1 ? " file / " : " files / total ") +
         HumanBytes(t.bytes) + ")";
}

namespace {
// A group's note for counts its members' notes give (verify's, layout's):
// `sum`, put where the first member's note `first` was (null: it has none;
// then last). The members' own notes `own` are left out: identical notes
// would otherwise collapse into one and show a single member's counts as
// the group's (numjobs=252: "1 file / 1MiB" for 252 files).
void ReplaceMemberNotes(std::vector<std::string>* notes, const std::string* first,
                        const std::vector<std::string>& own, const std::string& sum) {
  size_t at = notes->size();
  if (first != nullptr) {
    auto it = std::find(notes->begin(), notes->end(), *first);
    if (it != notes->end()) at = static_cast<size_t>(it - notes->begin());
  }
  std::vector<std::string> out;
  for (size_t i = 0; i <= notes->size(); ++i) {
    if (i == at) out.push_back(sum);
    if (i < notes->size() && std::find(own.begin(), own.end(), (*notes)[i]) == own.end())
      out.push_back((*notes)[i]);
  }
  *notes = std::move(out);
}

// A group's verify note: the members' counts summed.
void SumVerifyTallies(const std::vector<const JobResult*>& jobs, JobResult* m) {
  VerifyTally sum;
  std::vector<std::string> own;
  for (const JobResult* j : jobs) {
    const VerifyTally& t = j->verify_tally;
    if (!t.set) continue;
    sum.interval = !sum.set || sum.interval == t.interval ? t.interval : 0;
    sum.set = true;
    sum.written += t.written;
    sum.verified += t.verified;
    sum.skipped += t.skipped;
    sum.failed += t.failed;
    sum.unread += t.unread;
    own.push_back(VerifyTallyNote(t));
  }
  m->verify_tally = sum;
  if (!sum.set) return;
  ReplaceMemberNotes(&m->notes, jobs[0]->verify_tally.set ? &own.front() : nullptr, own,
                     VerifyTallyNote(sum));
}

// A group's "Laying out" note: the members' files and sizes summed.
void SumLayoutTallies(const std::vector<const JobResult*>& jobs, JobResult* m) {
  LayoutTally sum;
  std::vector<std::string> own;
  for (const JobResult* j : jobs) {
    const LayoutTally& t = j->layout_tally;
    if (t.files == 0) continue;
    sum.files += t.files;
    sum.bytes += t.bytes;
    own.push_back(LayoutTallyNote(t));
  }
  m->layout_tally = sum;
  if (sum.files == 0) return;
  ReplaceMemberNotes(&m->notes, jobs[0]->layout_tally.files != 0 ? &own.front() : nullptr, own,
                     LayoutTallyNote(sum));
}
}  // namespace

JobRecord RecordForJob(const JobResult& job) {
  JobRecord r(job);
  FillRecord(r, job);
  FillMixed(r);
  return r;
}

JobRecord MergeGroup(const std::vector<const JobResult*>& jobs) {
  if (jobs.empty()) return JobRecord(std::make_shared<const JobResult>());
  auto merged = std::make_shared<JobResult>(*jobs[0]);
  JobResult& m = *merged;
  // The first member is the base: its runtime counts only in the directions
  // it did I/O in (see MergeThreadStats).
  for (DirStats& d : m.stats.dir)
    if (!DirDidIo(d)) d.runtime_ns = 0;
  // fio takes the percentile settings of a group's last job.
  const JobSpec& last = jobs.back()->spec;
  m.spec.clat_percentiles = last.clat_percentiles;
  m.spec.lat_percentiles = last.lat_percentiles;
  m.spec.slat_percentiles = last.slat_percentiles;
  m.spec.percentile_list = last.percentile_list;
  m.spec.percentile_precision = last.percentile_precision;
  // And its latency_target settings and depth (its ts->latency_* are
  // overwritten by each member in turn).
  m.spec.latency_target_ns = last.latency_target_ns;
  m.spec.latency_percentile = last.latency_percentile;
  m.spec.latency_window_ns = last.latency_window_ns;
  m.latency_depth = jobs.back()->latency_depth;
  // fio's init_per_prio_stats: the group keeps a latency split by priority
  // when a member split its own (cmdprio) or the members' own priorities
  // differ. Then every member's I/Os count, those without a cmdprio
  // priority under the member's own (so the entries add up to total_ios);
  // the base's directions without a split become their one entry.
  const bool by_prio = std::any_of(jobs.begin(), jobs.end(), [&jobs](const JobResult* j) {
    return JobIoprio(j->spec) != JobIoprio(jobs[0]->spec) ||
           std::any_of(std::begin(j->stats.dir), std::end(j->stats.dir),
                       [](const DirStats& d) { return d.prio_split; });
  });
  if (by_prio) {
    const OwnPrio own = OwnPrioOf(jobs[0]->spec);
    for (DirStats& d : m.stats.dir) {
      if (!d.prio_split) AddOwnPrio(d.prios, d, own);
      d.prio_split = true;
    }
  }
  JobRecord r(std::move(merged));
  FillRecord(r, m);
  r.options_from = &jobs.back()->spec;
  // Sets beside the lists: numjobs=10 nrfiles=9000 gives 90,000 file names,
  // and a search of the merged list per name took 21 s (fio: 1.4 s).
  std::unordered_set<std::string> files(m.files.begin(), m.files.end());
  std::unordered_set<std::string> notes(m.notes.begin(), m.notes.end());
  for (size_t i = 1; i < jobs.size(); ++i) {
    const JobResult& j = *jobs[i];
    const OwnPrio own = OwnPrioOf(j.spec);
    MergeThreadStats(m.stats, j.stats, by_prio ? &own : nullptr);
    m.elapsed_ms = std::max(m.elapsed_ms, j.elapsed_ms);
    m.runtime_ms = std::max(m.runtime_ms, j.runtime_ms);
    m.runtime_us = std::max(m.runtime_us, j.runtime_us);
    m.start_ms = std::min(m.start_ms, j.start_ms);
    m.end_ms = std::max(m.end_ms, j.end_ms);
    if (m.error == 0 && j.error != 0) {
      m.error = j.error;
      m.error_message = j.error_message;
    }
    m.interrupted = m.interrupted || j.interrupted;
    m.nr_files += j.nr_files;
    for (const auto& f : j.files)
      if (files.insert(f).second) m.files.push_back(f);
    for (const auto& n : j.notes)
      if (notes.insert(n).second) m.notes.push_back(n);
    for (int d = 0; d < kNumDdirs; ++d) {
      r.bw[d] = SumSampleStats(r.bw[d], BwSampleStat(j.stats.dir[d].bw_samples));
      r.iops[d] = SumSampleStats(r.iops[d], SampleStatFromRates(j.stats.dir[d].iops_samples));
    }
    AddHelpers(r.helpers, j.helpers);
    r.cpu_runtime_ms += j.runtime_ms;
    r.cpu_runtime_us += RuntimeUs(j);
  }
  SumVerifyTallies(jobs, &m);
  SumLayoutTallies(jobs, &m);
  r.members = static_cast<uint32_t>(jobs.size());
  for (const JobResult* j : jobs) {
    if (std::find(r.member_rw.begin(), r.member_rw.end(), j->spec.rw) == r.member_rw.end())
      r.member_rw.push_back(j->spec.rw);
    r.member_specs.push_back(&j->spec);
  }
  FillMixed(r);
  return r;
}

std::vector<std::vector<size_t>> RecordMembers(const std::vector<const JobSpec*>& jobs) {
  std::vector<std::vector<size_t>> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i]->stats) continue;  // stats=0 jobs are in no record (Reported)
    if (!jobs[i]->group_reporting || out.empty()) out.emplace_back();
    out.back().push_back(i);
  }
  return out;
}

std::vector<JobRecord> RecordsForGroup(const GroupResult& group) {
  std::vector<const JobSpec*> specs;
  for (const auto& j : group.jobs) specs.push_back(&j.spec);
  std::vector<JobRecord> out;
  for (const auto& record : RecordMembers(specs)) {
    const JobResult& first = group.jobs[record.front()];
    if (record.size() == 1 && !first.spec.group_reporting) {
      out.push_back(RecordForJob(first));
      continue;
    }
    std::vector<const JobResult*> members;
    for (size_t i : record) members.push_back(&group.jobs[i]);
    out.push_back(MergeGroup(members));
  }
  return out;
}

uint64_t DirRuntimeMs(const DirStats& d, uint64_t job_runtime_ms) {
  // A direction that did no I/O has no runtime, whatever the clock said;
  // fio prints no line for it.
  if (!DirDidIo(d)) return 0;
  // Requests that moved no data (cpuio's chunks: the worker records no
  // runtime for them) have none either: fio counts a direction's runtime
  // only with bytes moved, and prints no line, bandwidth or IOPS for it.
  if (d.bytes == 0 && d.runtime_ns == 0 && d.ios != 0) return 0;
  // A direction that did I/O ran for at least 1 ms, as fio prints it (a
  // 100-I/O null run reports "(400KiB/1msec)", not a missing line).
  const uint64_t ms = d.runtime_ns ? d.runtime_ns / 1000000 : job_runtime_ms;
  return ms ? ms : 1;
}

uint64_t DirRuntimeMs(const JobResult& job, int ddir) {
  return DirRuntimeMs(job.stats.dir[ddir], job.runtime_ms);
}

uint64_t BandwidthBytes(const DirStats& ds, uint64_t job_runtime_ms) {
  const uint64_t rt = DirRuntimeMs(ds, job_runtime_ms);
  if (!rt) return 0;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(ds.bytes) * 1000 / rt);
}

double Iops(const DirStats& ds, uint64_t job_runtime_ms) {
  const uint64_t rt = DirRuntimeMs(ds, job_runtime_ms);
  if (!rt) return 0;
  return 1000.0 * static_cast<double>(ReportedIos(ds)) / static_cast<double>(rt);
}

uint64_t BandwidthBytes(const JobResult& job, int ddir) {
  return BandwidthBytes(job.stats.dir[ddir], job.runtime_ms);
}

double Iops(const JobResult& job, int ddir) { return Iops(job.stats.dir[ddir], job.runtime_ms); }

GroupTotals ComputeGroupTotals(const GroupResult& group, const std::vector<JobRecord>& records) {
  GroupTotals t;
  t.id = group.id;
  t.kb_base = 1024;
  t.unit_base = 0;
  // The units and digits of the group lines (and the kb_base of its jobs'
  // lines) are those of the group's last record, whose spec is its first
  // job's, as fio's __show_run_stats sets them record by record: [a] [b]
  // kb_base=1000 prints kB first; the same with group_reporting prints a's.
  const JobSpec* s = !records.empty()      ? &records.back().result.spec
                     : !group.jobs.empty() ? &group.jobs.back().spec
                                           : nullptr;
  if (s != nullptr) {
    if (s->kb_base) t.kb_base = s->kb_base;
    t.unit_base = s->unit_base;
    t.significant_figures = s->significant_figures;
  }
  if (!records.empty()) t.unified = records[0].result.spec.unified_rw_reporting;
  const bool any_mixed =
      std::any_of(records.begin(), records.end(), [](const JobRecord& r) { return r.mixed; });
  for (int d = 0; d <= kMixedDdir; ++d) {
    bool first = true;
    if (d == kMixedDdir && !any_mixed) break;
    for (const auto& r : records) {
      // A record whose own unified_rw_reporting is none has no mixed
      // direction, but its I/O is the group's all the same (fio's MIXED
      // line sums every job): [a] unified_rw_reporting=both [b] =none
      // printed a's bytes alone.
      DirStats own_mixed;
      if (d == kMixedDdir && !r.mixed)
        own_mixed = MixDirections(r.result.stats, OwnPrioOf(r.result.spec));
      const DirStats& ds = d != kMixedDdir ? r.result.stats.dir[d] : r.mixed ? *r.mixed : own_mixed;
      const uint64_t rt = DirRuntimeMs(ds, r.result.runtime_ms);
      if (!rt) continue;
      const uint64_t bw = BandwidthBytes(ds, r.result.runtime_ms);
      if (first) {
        t.min_bw[d] = t.max_bw[d] = bw;
        t.min_run_ms[d] = t.max_run_ms[d] = rt;
        first = false;
      } else {
        t.min_bw[d] = std::min(t.min_bw[d], bw);
        t.max_bw[d] = std::max(t.max_bw[d], bw);
        t.min_run_ms[d] = std::min(t.min_run_ms[d], rt);
        t.max_run_ms[d] = std::max(t.max_run_ms[d], rt);
      }
      t.io_bytes[d] += ds.bytes;
    }
    if (t.max_run_ms[d])
      t.agg_bw[d] = static_cast<uint64_t>(static_cast<unsigned __int128>(t.io_bytes[d]) * 1000 /
                                          t.max_run_ms[d]);
  }
  return t;
}

DirView ViewOf(const JobRecord& rec, const GroupTotals& t, int ddir) {
  static const char* const kNames[] = {"read", "write", "trim", "mixed"};
  DirView v;
  v.ddir = ddir;
  v.name = kNames[ddir];
  const bool mixed = ddir == kMixedDdir;
  v.stats = mixed ? rec.mixed.get() : &rec.result.stats.dir[ddir];
  v.runtime_ms = DirRuntimeMs(*v.stats, rec.result.runtime_ms);
  v.bw_bytes = BandwidthBytes(*v.stats, rec.result.runtime_ms);
  v.iops = Iops(*v.stats, rec.result.runtime_ms);
  v.bw = mixed ? &rec.mixed_bw : &rec.bw[ddir];
  v.iops_stat = mixed ? &rec.mixed_iops : &rec.iops[ddir];
  v.group_agg_bw = t.agg_bw[ddir];
  return v;
}

std::vector<DirView> ReportedDirs(const JobRecord& rec, const GroupTotals& t) {
  std::vector<DirView> out;
  const auto mode = rec.result.spec.unified_rw_reporting;
  if (mode != JobSpec::UnifiedRw::kMixed || !rec.mixed)
    for (int d = 0; d < kNumDdirs; ++d) out.push_back(ViewOf(rec, t, d));
  if (rec.mixed) out.push_back(ViewOf(rec, t, kMixedDdir));
  return out;
}

double BandwidthPercentOfGroup(const SampleStat& bw_kib, uint64_t group_agg_bw_bytes) {
  // fio 3.33's convert_agg_kbytes_percent: the mean cut to a whole KiB/s (it
  // is passed as an int) over the aggregate in KiB/s, not truncated; 100 when
  // the aggregate is 1 KiB/s or less.
  if (group_agg_bw_bytes <= 1024) return 100.0;
  const double mean = std::trunc(std::min(bw_kib.mean, 2147483647.0));
  const double p = mean * 100.0 / (static_cast<double>(group_agg_bw_bytes) / 1024.0);
  return p > 100.0 ? 100.0 : p;
}

namespace {

// fio 3.33's show_ddir_status_terse: mean * 100 / agg_kib, the aggregate
// already cut to a whole KiB/s, capped at 100. Under 1 KiB/s fio divides by
// zero: inf, capped to 100, or nan for a zero mean, written here as 0.
double TerseShare(double mean_kib, double agg_kib) {
  if (agg_kib < 1.0) return mean_kib > 0 ? 100.0 : 0.0;
  const double p = mean_kib * 100.0 / agg_kib;
  return p > 100.0 ? 100.0 : p;
}

}  // namespace

double TerseBandwidthPercentOfGroup(const SampleStat& bw_kib, uint64_t group_agg_bw_bytes) {
  if (group_agg_bw_bytes == 0) return 100.0;  // no aggregate: fio's 100
  return TerseShare(bw_kib.mean, static_cast<double>(group_agg_bw_bytes / 1024));
}

double TersePercentFromBwAgg(double bw_mean_kib, double bw_agg) {
  if (bw_agg >= 100.0) return 100.0;
  const double whole = std::trunc(bw_mean_kib);
  if (bw_agg <= 0.0 || whole <= 0.0) return 0.0;
  // bw_agg = whole * 100 / (agg / 1024.0): the aggregate in KiB/s back, then
  // cut as fio's terse line cuts it (the 1e-6 keeps a whole number whole).
  return TerseShare(bw_mean_kib, std::floor(whole * 100.0 / bw_agg + 1e-6));
}

namespace {

// Index of the fixed bucket for x (in the decade's unit): the first label
// strictly above x. Labels 2,4,10,20,50,100,250,500,750,1000.
unsigned DecadeBucket(uint64_t x) {
  static const uint64_t kEdges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  for (unsigned i = 0; i < 10; ++i)
    if (x < kEdges[i]) return i;
  return 9;
}

template <size_t N>
void ToPercent(std::array<double, N>& a, const std::array<uint64_t, N>& counts, uint64_t total) {
  for (size_t i = 0; i < N; ++i) {
    a[i] = total ? 100.0 * static_cast<double>(counts[i]) / static_cast<double>(total) : 0.0;
    if (counts[i] && a[i] < 0.01) a[i] = 0.01;
  }
}

}  // namespace

LatencyDistribution ComputeLatencyDistribution(const ThreadStats& ts) {
  std::array<uint64_t, 10> n{}, u{};
  std::array<uint64_t, 12> m{};
  uint64_t total = 0;
  // An engine's per-file calls mark none (fio's FIO_NOSTATS engines).
  if (ts.file_calls != 0) return LatencyDistribution{};
  for (int d = 0; d < kNumDdirs; ++d) {
    const DirStats& ds = ts.dir[d];
    // fio divides by total_io_u: a failed I/O has no latency but is in the
    // denominator, so the shares of a job with errors add up to less than 100.
    total += ds.failed;
    // fio's io_u_mark_latency() is given the completion latency, not the
    // total: none without clat (disable_clat, gtod_reduce).
    const Histogram& h = ds.clat_hist;
    for (unsigned i = 0; i < Histogram::kNr; ++i) {
      const uint64_t c = h.counts[i];
      if (!c) continue;
      total += c;
      const uint64_t v = Histogram::IndexToValue(i);
      if (v < 1000) {
        n[DecadeBucket(v)] += c;
      } else if (v / 1000 < 1000) {
        u[DecadeBucket(v / 1000)] += c;
      } else {
        const uint64_t ms = v / 1000000;
        if (ms >= 2000)
          m[11] += c;
        else if (ms >= 1000)
          m[10] += c;
        else
          m[DecadeBucket(ms)] += c;
      }
    }
  }
  LatencyDistribution out;
  ToPercent(out.nsec, n, total);
  uint64_t ns = 0;
  for (uint64_t c : n) ns += c;
  out.nsec_total = total ? 100.0 * static_cast<double>(ns) / static_cast<double>(total) : 0.0;
  ToPercent(out.usec, u, total);
  ToPercent(out.msec, m, total);
  return out;
}

std::array<double, 7> DepthPercentages(const std::array<uint64_t, 7>& counts, uint64_t total) {
  std::array<double, 7> out{};
  for (size_t i = 0; i < 7; ++i) {
    out[i] = total ? 100.0 * static_cast<double>(counts[i]) / static_cast<double>(total) : 0.0;
    if (total && counts[i] && out[i] < 0.1) out[i] = 0.1;
  }
  return out;
}

uint64_t TotalIos(const ThreadStats& ts) {
  uint64_t t = 0;
  for (int d = 0; d < kNumDdirs; ++d) t += ts.dir[d].ios;
  return t;
}

double CpuPercent(uint64_t cpu_us, uint64_t runtime_us) {
  if (!runtime_us) return 0.0;
  return static_cast<double>(cpu_us) * 100.0 / static_cast<double>(runtime_us);
}

double RecordCpuPercent(const JobRecord& rec, uint64_t cpu_us) {
  return rec.cpu_runtime_ms ? CpuPercent(cpu_us, rec.cpu_runtime_us) : 0.0;
}

double CpuPerIoUs(const JobRecord& rec) {
  const uint64_t ios = TotalIos(rec.result.stats);
  if (!ios) return 0.0;
  const HelperCpu& h = rec.helpers;
  const uint64_t cpu = rec.result.stats.cpu.user_us + rec.result.stats.cpu.sys_us + h.iowq_user_us +
                       h.iowq_sys_us + h.sqpoll_user_us + h.sqpoll_sys_us + h.aio_user_us +
                       h.aio_sys_us + h.other_user_us + h.other_sys_us;
  return static_cast<double>(cpu) / static_cast<double>(ios);
}

double SubmitPerCall(const ThreadStats& ts) {
  return ts.submit_calls ? static_cast<double>(ts.submitted) / static_cast<double>(ts.submit_calls)
                         : 0.0;
}

double ReapPerCall(const ThreadStats& ts) {
  return ts.reap_calls ? static_cast<double>(ts.reaped) / static_cast<double>(ts.reap_calls) : 0.0;
}

}  // namespace iobench
