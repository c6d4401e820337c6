// Statistics derived from what workers measured: percentiles from a
// histogram, merges of per-thread and per-job results (fio's rules), the
// fixed latency and depth distributions, and per-group totals.
//
// Everything here is pure computation on plain data (no I/O, no printing):
// reporters and the sweep tables call it after a run, from one thread. The
// functions are thread-compatible (distinct objects may be used from distinct
// threads).
//
// Owner: the report helper (src/stats/summary.*). Sweep tables may use it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "iobench/histogram.h"
#include "iobench/stats.h"

namespace iobench {

// fio's default percentile_list.
const std::vector<double>& DefaultPercentiles();

// The percentile list a job reports: spec.percentile_list, or fio's default
// when empty; sorted ascending, values outside (0, 100] dropped.
std::vector<double> PercentileListFor(const JobSpec& spec);

// Sum of all bucket counts.
uint64_t HistogramTotal(const Histogram& h);

struct PercentileValue {
  double percentile = 0;  // e.g. 99.9
  uint64_t value_ns = 0;  // the representative value of the bucket
};

// fio's method: walk the buckets in order, accumulating counts; the p-th
// percentile is the first bucket whose cumulative count reaches p% of the
// total, reported as that bucket's Histogram::IndexToValue. `list` must be
// sorted ascending. Empty result when the histogram is empty. The value is
// within 1/128 (0.78 %) of a sample in that bucket (see histogram.h).
std::vector<PercentileValue> Percentiles(const Histogram& h, const std::vector<double>& list);

// One percentile (0 < p <= 100); 0 when the histogram is empty.
uint64_t Percentile(const Histogram& h, double p);

// Decimal places needed to print the list the way fio does (2 for the
// default list; more when the user asks for, e.g., 99.999).
int PercentilePrecision(const std::vector<double>& list);
// The decimals a job's labels get: the list's as typed, else counted from it.
int PercentilePrecisionFor(const JobSpec& spec);

// min/max/mean/sample stddev of a vector of rate samples (fio's bw_*/iops_*),
// each sample first divided by `divisor` with integer division.
SampleStat SampleStatFromRates(const std::vector<RateSample>& samples, uint64_t divisor = 1);

// fio's bandwidth samples are whole KiB/s, bytes * 1000 / ms / 1024 in
// integers (__add_samples), whatever kb_base says; its bw_min/max/mean/dev
// and per= come from those. Ours are bytes/s (bytes * 1000 / ms), whose
// integer division by 1024 is the same number, so the stats are built from
// value / 1024 per sample: a mean from the fractional KiB/s could exceed max
// (one sample of 102390.62 KiB/s printed min=max=102390, avg=102390.62).
inline constexpr uint64_t kBwSampleDivisor = 1024;
SampleStat BwSampleStat(const std::vector<RateSample>& bw_samples);

// fio's group_reporting rule for bw/iops sample statistics: the group's
// bandwidth is the sum of its jobs', so min, max and mean are added, the
// sample counts are added, and the squared deviations are added (fio keeps
// its running S; we rebuild it from stddev as S = stddev^2 * (n - 1)).
SampleStat SumSampleStats(const SampleStat& a, const SampleStat& b);

// The priority a job's I/Os count under in the latency split by priority
// (fio's "clat prio"/"lat prio") when a direction has no split of its own (no
// cmdprio for it): all of them carry the job's own prioclass/prio (fio's
// td->ioprio, 0/0 when unset), so the direction's completion latency, or its
// total latency with lat_percentiles, is that priority's whole entry.
struct OwnPrio {
  uint16_t value = 0;
  bool total_lat = false;
};
OwnPrio OwnPrioOf(const JobSpec& spec);

// Adds src into dst: histograms exactly, counters summed, LatStats merged,
// depth distributions added, CPU summed; runtime per direction is the
// longest; the first error (dst's if any, else src's) is kept. A direction's
// latency split by priority merges by value (fio's order: a value dst has not
// seen is appended); a src direction without a split adds its whole latency
// under *own when given (fio's sum_clat_prio_stats_src_single_prio), nothing
// when own is null.
void MergeThreadStats(ThreadStats& dst, const ThreadStats& src, const OwnPrio* own = nullptr);

// A printable record: one job, or the whole group merged (group_reporting).
// A one-job record refers to that job in its GroupResult instead of copying
// it (seed 003 prints 252 of them, twice), so it is valid only as long as
// the GroupResult it was built from; a merged record owns its result.
struct JobRecord {
  explicit JobRecord(const JobResult& job) : result(job), options_from(&job.spec) {}
  explicit JobRecord(std::shared_ptr<const JobResult> merged)
      : result(*merged), options_from(&merged->spec), owned_(std::move(merged)) {}

  const JobResult& result;  // for a merged group: name/spec of the first job
  // The spec whose options JSON lists: the last member's (fio's quirk), in
  // the GroupResult the record was built from.
  const JobSpec* options_from;
  uint32_t members = 1;
  // A merged group: each distinct rw of its members, in member order (the
  // options JSON lists are the last member's, so they cannot say it).
  std::vector<RwMode> member_rw;
  // A merged group: each member's spec, in member order, in the GroupResult
  // the record was built from (as options_from): the JSON says which options
  // its members set differently, which "job options" cannot say either.
  std::vector<const JobSpec*> member_specs;
  SampleStat bw[kNumDdirs];    // whole KiB/s per sample, as fio's (BwSampleStat)
  SampleStat iops[kNumDdirs];  // IO/s
  // unified_rw_reporting=mixed or both (the spec's): the directions summed
  // (MixDirections) and their bw/iops sample stats summed; null otherwise.
  std::shared_ptr<const DirStats> mixed;
  SampleStat mixed_bw, mixed_iops;
  HelperCpu helpers;            // summed over members
  uint64_t cpu_runtime_ms = 0;  // sum of members' runtime (JSON job_runtime)
  uint64_t cpu_runtime_us = 0;  // the same to the microsecond: denominator of usr/sys %

 private:
  std::shared_ptr<const JobResult> owned_;  // a merged group's result; null for one job
};

// The report's note for verify's counts: "verify: N blocks written, ...".
std::string VerifyTallyNote(const VerifyTally& t);

// The report's note for what a job laid out, as fio prints it before the
// run: "Laying out IO file (1 file / 64MiB)", "Laying out IO files (252
// files / total 252MiB)" (the size the files were laid out to).
std::string LayoutTallyNote(const LayoutTally& t);

// Builds a record for one job (bw/iops stats from its samples); it refers to
// `job`, which must outlive it.
JobRecord RecordForJob(const JobResult& job);
JobRecord RecordForJob(const JobResult&& job) = delete;  // would dangle

// fio's group_reporting merge: stats merged with MergeThreadStats; elapsed
// and runtime the longest; bw/iops sample stats summed (SumSampleStats);
// helpers CPU summed, peak threads summed; error: the first job with an
// error; notes concatenated without duplicates; interrupted if any was.
// The jobs must outlive the record (options_from points into the last).
JobRecord MergeGroup(const std::vector<const JobResult*>& jobs);

// The records a group prints, by fio's rule (__show_run_stats): a job with
// group_reporting joins the record before it, a job without starts its own.
// [a] numjobs=2 group_reporting then [b] without: "a" (2 jobs) and "b";
// [d] numjobs=2 without, then [e] with it: "d" (1 job) and "d" (d.1 and e).
std::vector<JobRecord> RecordsForGroup(const GroupResult& group);
std::vector<JobRecord> RecordsForGroup(const GroupResult&& group) = delete;  // would dangle

// That rule on its own, for the jobs of one group in run order (before a
// run, too: --compare matches the records a run will print): each record's
// members, as indices into `jobs`. stats=0 jobs are in none (Reported).
std::vector<std::vector<size_t>> RecordMembers(const std::vector<const JobSpec*>& jobs);

// Whether a job did I/O in this direction (fio's io_bytes[ddir] != 0, or
// I/Os that moved nothing): only then does the direction have a runtime.
inline bool DirDidIo(const DirStats& d) { return d.ios != 0 || d.bytes != 0; }

// Per-direction runtime in ms: DirStats.runtime_ns, or the job's runtime_ms
// when no per-direction time was recorded; 0 for a direction without I/O.
uint64_t DirRuntimeMs(const JobResult& job, int ddir);
uint64_t DirRuntimeMs(const DirStats& ds, uint64_t job_runtime_ms);

// unified_rw_reporting's "mixed" direction: read, write and trim of `ts`
// summed (counts and bytes added, latencies and histograms merged, the
// runtime the longest, rate samples of all directions kept). As fio, the mix
// is split by priority whenever two priorities completed I/O in it: a
// direction without a split of its own counts whole under `own`, the
// record's priority (its first member's prioclass/prio).
DirStats MixDirections(const ThreadStats& ts, const OwnPrio& own);

// Index of the mixed direction in GroupTotals' arrays and DirView::ddir.
inline constexpr int kMixedDdir = 3;

// Records whose job asked for stats=0 are left out of every report (and of
// the group totals), as fio leaves them out of its normal output.
bool Reported(const JobResult& job);

// fio's "Run status group" figures, one set per direction.
// Index kMixedDdir holds the records' mixed directions (unified_rw_reporting).
struct GroupTotals {
  int id = 0;
  uint32_t kb_base = 1024;
  uint32_t unit_base = 0;
  int significant_figures = 4;                             // the first reported job's
  JobSpec::UnifiedRw unified = JobSpec::UnifiedRw::kNone;  // the first reported job's
  uint64_t io_bytes[kNumDdirs + 1] = {0, 0, 0, 0};
  uint64_t agg_bw[kNumDdirs + 1] = {0, 0, 0, 0};  // bytes/s: io_bytes / longest runtime
  uint64_t min_bw[kNumDdirs + 1] = {0, 0, 0, 0};  // bytes/s over the records
  uint64_t max_bw[kNumDdirs + 1] = {0, 0, 0, 0};
  uint64_t min_run_ms[kNumDdirs + 1] = {0, 0, 0, 0};
  uint64_t max_run_ms[kNumDdirs + 1] = {0, 0, 0, 0};
};
GroupTotals ComputeGroupTotals(const GroupResult& group, const std::vector<JobRecord>& records);

// One direction of a record as a report prints it: read, write, trim or
// mixed, with its figures and the group's aggregate bandwidth to compare
// against ("per=", bw_agg).
struct DirView {
  int ddir = 0;           // 0..2, or kMixedDdir
  const char* name = "";  // "read", "write", "trim", "mixed"
  const DirStats* stats = nullptr;
  uint64_t runtime_ms = 0;  // DirRuntimeMs
  uint64_t bw_bytes = 0;    // BandwidthBytes
  double iops = 0;          // Iops
  const SampleStat* bw = nullptr;
  const SampleStat* iops_stat = nullptr;
  uint64_t group_agg_bw = 0;
};
DirView ViewOf(const JobRecord& rec, const GroupTotals& t, int ddir);
// The directions a record reports, in fio's order, per unified_rw_reporting:
// none: read, write, trim; mixed: mixed; both: read, write, trim, mixed.
std::vector<DirView> ReportedDirs(const JobRecord& rec, const GroupTotals& t);

// Per-direction bandwidth (bytes/s) and IOPS as fio computes them:
// 1000 * x / runtime_ms, integer for bw; 0 when runtime is 0.
uint64_t BandwidthBytes(const JobResult& job, int ddir);
double Iops(const JobResult& job, int ddir);
uint64_t BandwidthBytes(const DirStats& ds, uint64_t job_runtime_ms);
double Iops(const DirStats& ds, uint64_t job_runtime_ms);

// Share of the group's aggregate bandwidth that a record's mean sample
// bandwidth (KiB/s, BwSampleStat) is: fio's "per=" and json "bw_agg",
// trunc(mean) * 100 / (agg / 1024.0), as fio's convert_agg_kbytes_percent,
// capped at 100; 100 when the aggregate is 1 KiB/s or less.
double BandwidthPercentOfGroup(const SampleStat& bw_kib, uint64_t group_agg_bw_bytes);
// The same share as fio 3.33's terse line forms it: mean * 100 / (agg / 1024)
// with the mean whole and the aggregate cut to a whole KiB/s, capped at 100.
double TerseBandwidthPercentOfGroup(const SampleStat& bw_kib, uint64_t group_agg_bw_bytes);
// The terse share from a JSON record's bw_mean and bw_agg (a --repeat
// median's terse line): the aggregate worked back from bw_agg.
double TersePercentFromBwAgg(double bw_mean_kib, double bw_agg);

// fio's fixed latency distribution, in percent of all completed I/Os.
// Buckets per decade are labelled 2,4,10,20,50,100,250,500,750,1000 (a
// bucket holds values from the previous label up to, not including, its
// own); msec adds 2000 and >=2000. Derived from each direction's clat_hist
// (fio marks the completion latency; none without clat): the edges are exact to the
// histogram's resolution (0.78 %) because each bucket is classified by its
// representative value. Nonzero shares below 0.01 % show as 0.01, as fio.
struct LatencyDistribution {
  std::array<double, 10> nsec{};
  double nsec_total = 0;  // all nsec buckets' share, unrounded (terse v3 folds it, as fio)
  std::array<double, 10> usec{};
  std::array<double, 12> msec{};
};
LatencyDistribution ComputeLatencyDistribution(const ThreadStats& ts);
inline constexpr std::array<const char*, 12> kLatBucketLabels = {
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"};

// IO depth / submit / complete percentages (nonzero shares below 0.1 %
// show as 0.1, as fio). For depth, total is all completed I/Os.
std::array<double, 7> DepthPercentages(const std::array<uint64_t, 7>& counts, uint64_t total);
// The sum of one of those depth/submit/complete count arrays.
inline uint64_t DepthSum(const std::array<uint64_t, 7>& counts) {
  uint64_t s = 0;
  for (uint64_t x : counts) s += x;
  return s;
}

// I/Os as fio counts them in total_ios and IOPS (its total_io_u): the
// completed ones, those that ended in an error, and the short parts of
// short transfers (each part fio issues is an I/O).
inline uint64_t ReportedIos(const DirStats& ds) { return ds.ios + ds.failed + ds.short_ios; }

// Total completed I/Os over read, write and trim.
uint64_t TotalIos(const ThreadStats& ts);

// usr/sys CPU in percent of the measured runtime (fio: over job runtime).
// CPU time as a share of run time, in percent. The microseconds, not the
// whole milliseconds fio divides by: a 1.9 ms job is not 1 ms long (its
// 1.5 ms of CPU read 150%).
double CpuPercent(uint64_t cpu_us, uint64_t runtime_us);

// CPU of a record (its own threads' or a helper kind's) in percent of its
// run time, as every report prints it: over cpu_runtime_us (CpuPercent),
// but 0 when the run time in whole milliseconds (JSON job_runtime) is 0,
// fio's rule (fio 3.33 writes usr_cpu 0.0 for such a job, where its CPU
// read 84%). The CPU measured stays in CpuPerIoUs and the helpers' µs.
double RecordCpuPercent(const JobRecord& rec, uint64_t cpu_us);

// µs of CPU (own threads plus kernel helpers) per completed I/O; 0 when no
// I/O completed.
double CpuPerIoUs(const JobRecord& rec);

// I/Os per system call: submitted/submit_calls and reaped/reap_calls (0 when
// no calls were counted).
double SubmitPerCall(const ThreadStats& ts);
double ReapPerCall(const ThreadStats& ts);

}  // namespace iobench
