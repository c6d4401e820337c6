// fio's "normal" human-readable output, laid out line for line like fio
// 3.33 so that eyes and greps find the same lines, plus iobench's additions
// (context block, helper-thread CPU, IOs per call, CPU per I/O, notes).
#include <fmt/printf.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "iobench/report.h"
#include "report/common.h"
#include "report/fio_report.h"
#include "stats/summary.h"
#include "stats/units.h"
#include "sys/mount_options.h"
#include "sys/strings.h"
#include "sys/target.h"

namespace iobench {

namespace {

// A signal after every job's I/O (during an exec_postrun) cut nothing short.
const char* InterruptedNote(const RunResult& run) {
  return run.io_complete
             ? "note: the run was interrupted by a signal after its I/O had finished; results "
               "are complete\n"
             : "note: the run was interrupted by a signal; results are partial\n";
}

void WriteLatLine(std::string& o, const char* name, const LatStat& ls) {
  if (!ls.n) return;
  const ScaledLat s = ScaleLatency(ls.Min(), ls.max, ls.Mean(), ls.Stddev());
  o += fmt::sprintf("    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, s.unit,
                    FormatNumber(s.min, 6, false, NumUnit::kNone),
                    FormatNumber(s.max, 6, false, NumUnit::kNone), s.mean, s.stddev);
}

void WritePercentiles(std::string& o, const char* name, const Histogram& h,
                      const std::vector<double>& list, int precision) {
  const auto vals = Percentiles(h, list);
  if (vals.empty()) return;
  uint64_t minv = UINT64_MAX, maxv = 0;
  for (const auto& v : vals) {
    minv = std::min(minv, v.value_ns);
    maxv = std::max(maxv, v.value_ns);
  }
  const PercentileScale sc = ChoosePercentileScale(minv, maxv);
  int width = 1;
  for (uint64_t x = maxv / sc.divisor; x >= 10; x /= 10) ++width;
  width = std::max(5, width);
  const int per_line = std::max(1, (80 - 7) / (precision + 10 + width));
  o += fmt::sprintf("    %s percentiles (%s):\n     |", name, sc.unit);
  for (size_t j = 0; j < vals.size(); ++j) {
    if (j != 0 && j % per_line == 0) o += "     |";
    const bool last = j + 1 == vals.size();
    o += fmt::sprintf(
        " %*.*fth=[%*llu]%c", precision + 3, precision, vals[j].percentile, width,
        static_cast<unsigned long long>(ScalePercentileValue(vals[j].value_ns, sc.steps)),
        last ? '\n' : ',');
    if (last) break;
    if (j % per_line == static_cast<size_t>(per_line - 1)) o += "\n";
  }
}

void WriteDdir(std::string& o, const JobRecord& rec, const GroupTotals& totals, const DirView& v) {
  const JobResult& job = rec.result;
  const DirStats& ds = *v.stats;
  const uint64_t runt = v.runtime_ms;
  if (!runt) return;
  const JobSpec& spec = job.spec;
  const uint32_t kb_base = totals.kb_base;
  const bool pow2 = (kb_base & (kb_base - 1)) == 0;
  const int digits = spec.significant_figures;
  const uint64_t bw = v.bw_bytes;
  const uint64_t iops = ReportedIos(ds) * 1000 / runt;
  o += fmt::sprintf("  %s: IOPS=%s, BW=%s(%s/%llumsec)%s\n", v.name,
                    FormatNumber(iops, digits, false, NumUnit::kNone),
                    FormatBandwidthPair(bw, kb_base, spec.unit_base, digits),
                    FormatNumber(ds.bytes, digits, pow2, NumUnit::kBytes),
                    static_cast<unsigned long long>(runt), v.ddir == 1 ? "; 0 zone resets" : "");
  WriteLatLine(o, "slat", ds.slat);
  WriteLatLine(o, "clat", ds.clat);
  WriteLatLine(o, " lat", ds.lat);
  // fio's split by priority (cmdprio): "clat prio CLASS/LEVEL", or "lat
  // prio" with lat_percentiles, where the split is of the total latency.
  const char* prio_of = spec.lat_percentiles ? "lat" : "clat";
  auto prio_name = [prio_of](const PrioStat& p) {
    return fmt::sprintf("%s prio %d/%d", prio_of, p.value >> 13, p.value & 7);
  };
  const bool by_prio = PrioSplitShown(ds);
  if (by_prio)
    for (const PrioStat& p : ds.prios) WriteLatLine(o, prio_name(p).c_str(), p.lat);
  const auto list = PercentileListFor(spec);
  const int precision = PercentilePrecisionFor(spec);
  // The priorities' blocks follow the block of the latency they split.
  auto prio_percentiles = [&] {
    if (!by_prio) return;
    uint64_t total = 0;
    for (const PrioStat& p : ds.prios) total += p.lat.n;
    for (const PrioStat& p : ds.prios) {
      if (p.lat.n == 0) continue;
      const double share = 100.0 * static_cast<double>(p.lat.n) / static_cast<double>(total);
      WritePercentiles(o, fmt::sprintf("%s (%.2f%% of IOs)", prio_name(p), share).c_str(), p.hist,
                       list, precision);
    }
  };
  if (spec.slat_percentiles && ds.slat.n)
    WritePercentiles(o, "slat", ds.slat_hist, list, precision);
  if (spec.clat_percentiles && ds.clat.n)
    WritePercentiles(o, "clat", ds.clat_hist, list, precision);
  if (spec.clat_percentiles && !spec.lat_percentiles) prio_percentiles();
  if (spec.lat_percentiles && ds.lat.n) WritePercentiles(o, "lat", ds.lat_hist, list, precision);
  if (spec.lat_percentiles) prio_percentiles();

  const SampleStat& b = *v.bw;
  if (b.samples) {
    // As fio 3.33 prints it: the samples in KiB/s (its JSON's bw_min/max/
    // mean) whatever kb_base says, which only picks the label ("kB" for
    // 1000), and in bytes whatever unit_base says (its BW= and group lines
    // are in bits); past kb_base^2 they are divided by kb_base, as "MiB".
    const char* bw_str = pow2 ? "KiB" : "kB";
    const double kb = static_cast<double>(kb_base);
    double mn = static_cast<double>(b.min), mx = static_cast<double>(b.max);
    double mean = b.mean, dev = b.stddev;
    const double per = BandwidthPercentOfGroup(b, v.group_agg_bw);
    if (mean > kb * kb) {
      mn /= kb;
      mx /= kb;
      mean /= kb;
      dev /= kb;
      bw_str = "MiB";
    }
    o += fmt::sprintf(
        "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
        "samples=%llu\n",
        bw_str, static_cast<unsigned long long>(mn), static_cast<unsigned long long>(mx), per, mean,
        dev, static_cast<unsigned long long>(b.samples));
  }
  const SampleStat& io = *v.iops_stat;
  if (io.samples) {
    o += fmt::sprintf(
        "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
        static_cast<unsigned long long>(io.min), static_cast<unsigned long long>(io.max), io.mean,
        io.stddev, static_cast<unsigned long long>(io.samples));
  }
}

void WriteLatDist(std::string& o, const char* unit, const double* v, size_t n) {
  bool new_line = true, shown = false;
  int on_line = 0;
  for (size_t i = 0; i < n; ++i) {
    if (v[i] <= 0.0) continue;
    if (new_line) {
      if (shown) o += "\n";
      o += fmt::sprintf("  lat (%s)   : ", unit);
      new_line = false;
      on_line = 0;
    }
    shown = true;
    if (on_line) o += ", ";
    o += fmt::sprintf("%s=%3.2f%%", kLatBucketLabels[i], v[i]);
    if (++on_line == 5) new_line = true;
  }
  if (shown) o += "\n";
}

std::string DistLine(const std::array<double, 7>& p, bool depth) {
  static const char* const kDepth[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  static const char* const kBatch[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  std::string s;
  for (int i = 0; i < 7; ++i) {
    if (i) s += ", ";
    s += fmt::sprintf("%s=%3.1f%%", depth ? kDepth[i] : kBatch[i], p[i]);
  }
  return s;
}

// fio's steady state bandwidth: the mean in kb_base units (integer), shown
// from the kilo prefix up; `names_pow2` picks Ki/Mi or k/M names. fio prints
// the alternative form with the same kb_base divisor and the other names
// ("4028KiB/s (4028kB/s)"), and so does this.
std::string SteadyStateBw(uint64_t bw_mean, uint32_t kb_base, bool names_pow2) {
  std::string s = FormatNumber(bw_mean / kb_base, 4, names_pow2, NumUnit::kNone);
  static const char* const kSi[] = {"k", "M", "G", "T", "P", "E"};
  static const char* const kIec[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const char* const* names = names_pow2 ? kIec : kSi;
  // FormatNumber counted prefixes from none; the number is already in kilo.
  int post = 0;
  for (int i = 5; i >= 0 && post == 0; --i) {
    const std::string p = names[i];
    if (s.size() > p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0 &&
        !std::isalpha(static_cast<unsigned char>(s[s.size() - p.size() - 1]))) {
      s.resize(s.size() - p.size());
      post = i + 1;
    }
  }
  return s + names[std::min(post, 5)] + "B/s";
}

void WriteSteadyState(std::string& o, const JobResult& job, const GroupTotals& totals) {
  const SteadyStateResult& ss = job.steadystate;
  if (!ss.enabled) return;
  const JobSpec& spec = job.spec;
  const bool pow2 = (totals.kb_base & (totals.kb_base - 1)) == 0;
  const uint64_t bw = SteadyStateMean(ss.bw);
  const bool iops = spec.ss_mode == JobSpec::SteadyStateMode::kIops ||
                    spec.ss_mode == JobSpec::SteadyStateMode::kIopsSlope;
  const bool slope = spec.ss_mode == JobSpec::SteadyStateMode::kIopsSlope ||
                     spec.ss_mode == JobSpec::SteadyStateMode::kBwSlope;
  o += fmt::sprintf("  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
                    ss.attained ? "yes" : "no", SteadyStateBw(bw, totals.kb_base, pow2),
                    SteadyStateBw(bw, totals.kb_base, !pow2),
                    FormatNumber(SteadyStateMean(ss.iops), 4, false, NumUnit::kNone),
                    iops ? "iops" : "bw", slope ? " slope" : " mean dev", ss.criterion,
                    spec.ss_percent ? "%" : "");
}

void WriteJob(std::string& o, const JobRecord& rec, const GroupTotals& totals, uint64_t timestamp_s,
              bool snapshot) {
  const JobResult& job = rec.result;
  const ThreadStats& ts = job.stats;
  const JobSpec& spec = job.spec;
  // fio skips a job that moved no data and issued nothing (create_only, a
  // failed exec_prerun): its error, if any, went to stderr when it happened.
  uint64_t moved = 0;
  for (int d = 0; d < kNumDdirs; ++d) moved += ts.dir[d].bytes + ts.issued[d];
  // A job that was meant to do I/O and did none, without an error, keeps its
  // block when it has notes: they say why (a block larger than the region).
  const bool explained = !job.notes.empty() && job.shown_error() == 0 && !spec.create_only;
  if (moved == 0 && !explained) return;
  if (job.shown_error() == 0) {
    o += fmt::sprintf("%s: (groupid=%d, jobs=%u): err=%2d: pid=%d: %s\n", job.name, job.groupid,
                      rec.members, 0, static_cast<int>(getpid()), CtimeString(timestamp_s));
  } else {
    o +=
        fmt::sprintf("%s: (groupid=%d, jobs=%u): err=%2d (%s): pid=%d: %s\n", job.name, job.groupid,
                     rec.members, job.shown_error(), sys::Printable(job.shown_error_message()),
                     static_cast<int>(getpid()), CtimeString(timestamp_s));
  }
  if (!spec.description.empty()) o += fmt::sprintf("  Description  : [%s]\n", spec.description);
  if (job.interrupted)
    o += "  note: interrupted by a signal; the figures cover the time until then\n";
  // Messages and notes may hold file names (an opendir= listing): a control
  // character in one split the line or recoloured the terminal, where the
  // JSON and stderr escape it.
  for (const auto& n : job.notes) o += "  note: " + sys::Printable(n) + "\n";

  for (const DirView& v : ReportedDirs(rec, totals))
    if (v.stats->bytes || v.stats->ios) WriteDdir(o, rec, totals, v);

  const LatencyDistribution ld = ComputeLatencyDistribution(ts);
  WriteLatDist(o, "nsec", ld.nsec.data(), ld.nsec.size());
  WriteLatDist(o, "usec", ld.usec.data(), ld.usec.size());
  WriteLatDist(o, "msec", ld.msec.data(), ld.msec.size());

  if (ts.sync_lat.n) {
    o += "  fsync/fdatasync/sync_file_range:\n";
    WriteLatLine(o, "sync", ts.sync_lat);
    WritePercentiles(o, "sync", ts.sync_hist, PercentileListFor(spec),
                     PercentilePrecisionFor(spec));
  }

  o += fmt::sprintf("  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
                    RecordCpuPercent(rec, ts.cpu.user_us), RecordCpuPercent(rec, ts.cpu.sys_us),
                    static_cast<unsigned long long>(ts.cpu.ctx),
                    static_cast<unsigned long long>(ts.cpu.majf),
                    static_cast<unsigned long long>(ts.cpu.minf));
  const HelperCpu& h = rec.helpers;
  if (HasHelperData(h)) {
    o += fmt::sprintf("  helpers      : io-wq usr=%.1f%%, sys=%.1f%%, sqpoll=%.1f%%",
                      RecordCpuPercent(rec, h.iowq_user_us), RecordCpuPercent(rec, h.iowq_sys_us),
                      RecordCpuPercent(rec, h.sqpoll_user_us + h.sqpoll_sys_us));
    if (h.aio_user_us || h.aio_sys_us)
      o += fmt::sprintf(", posixaio usr=%.1f%%, sys=%.1f%%", RecordCpuPercent(rec, h.aio_user_us),
                        RecordCpuPercent(rec, h.aio_sys_us));
    if (h.other_user_us || h.other_sys_us)
      o += fmt::sprintf(", other=%.1f%% (apportioned)",
                        RecordCpuPercent(rec, h.other_user_us + h.other_sys_us));
    o += fmt::sprintf(", threads=%u", h.peak_threads);
    // A PID namespace hid which worker made which io_uring helper.
    if (h.apportioned) o += " (io-wq/sqpoll apportioned by submissions)";
    o += "\n";
  }
  if (TotalIos(ts))
    o += fmt::sprintf("  cpu/IO       : %.2fusec (%s)\n", CpuPerIoUs(rec),
                      snapshot ? "own threads only; kernel helpers in the final report"
                               : "own threads and kernel helpers");
  if (ts.reap_calls)  // sync engines complete inside the submit call: nothing to say
    o += fmt::sprintf("  IOS/call     : submit=%.2f, reap=%.2f\n", SubmitPerCall(ts),
                      ReapPerCall(ts));

  o += "  IO depths    : " +
       DistLine(DepthPercentages(ts.depth.depth, DepthSum(ts.depth.depth)), true) + "\n";
  const uint64_t sub_total =
      ts.depth.submit_events ? ts.depth.submit_events : DepthSum(ts.depth.submit);
  const uint64_t comp_total =
      ts.depth.complete_events ? ts.depth.complete_events : DepthSum(ts.depth.complete);
  o += "     submit    : " + DistLine(DepthPercentages(ts.depth.submit, sub_total), false) + "\n";
  o +=
      "     complete  : " + DistLine(DepthPercentages(ts.depth.complete, comp_total), false) + "\n";
  // unified_rw_reporting=mixed: fio counts every direction's I/Os in the first slot.
  uint64_t issued[3], short_issued[3], dropped_issued[3];
  for (int d = 0; d < kNumDdirs; ++d) {
    issued[d] = ts.issued[d];
    short_issued[d] = ts.short_issued[d];
    dropped_issued[d] = ts.dropped_issued[d];
  }
  if (spec.unified_rw_reporting == JobSpec::UnifiedRw::kMixed) {
    for (int d = 1; d < kNumDdirs; ++d) {
      issued[0] += std::exchange(issued[d], 0);
      short_issued[0] += std::exchange(short_issued[d], 0);
      dropped_issued[0] += std::exchange(dropped_issued[d], 0);
    }
  }
  o += fmt::sprintf(
      "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
      "dropped=%llu,%llu,%llu,0\n",
      static_cast<unsigned long long>(issued[0]), static_cast<unsigned long long>(issued[1]),
      static_cast<unsigned long long>(issued[2]), static_cast<unsigned long long>(ts.sync_ios),
      static_cast<unsigned long long>(short_issued[0]),
      static_cast<unsigned long long>(short_issued[1]),
      static_cast<unsigned long long>(short_issued[2]),
      static_cast<unsigned long long>(dropped_issued[0]),
      static_cast<unsigned long long>(dropped_issued[1]),
      static_cast<unsigned long long>(dropped_issued[2]));
  if (spec.continue_on_error != kCoeNone) {
    // Only with continue_on_error (or ignore_error, which sets it), as fio:
    // without it the first error stops the job and err= already names it.
    // The count is of the errors of the classes it covers, first_error the
    // first of those counted (0 when none was).
    const int first = ts.coe_first_error;
    o += fmt::sprintf("     errors    : total=%llu, first_error=%d/<%s>\n",
                      static_cast<unsigned long long>(ts.coe_errors), first,
                      first ? std::strerror(first) : "Success");
  }
  if (ts.first_error.err && ts.first_error.message.find(" offset=") != std::string::npos) {
    // The worker's message already says what, where and why.
    o += fmt::sprintf("     first error: %s\n", sys::Printable(ts.first_error.message));
  } else if (ts.first_error.err) {
    o += fmt::sprintf("     first error: %s %s offset=%llu%s%s\n",
                      DdirName(static_cast<int>(ts.first_error.ddir)),
                      ts.first_error.file.empty() ? "-" : sys::Printable(ts.first_error.file),
                      static_cast<unsigned long long>(ts.first_error.offset),
                      ts.first_error.message.empty() ? "" : ": ",
                      sys::Printable(ts.first_error.message));
  }
  // fio's units: the target in ns, the window in us. Only for a job that
  // entered its I/O loop (latency_depth is 0 otherwise), as fio.
  if (job.latency_depth != 0)
    o += fmt::sprintf("     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
                      static_cast<unsigned long long>(spec.latency_target_ns),
                      static_cast<unsigned long long>(spec.latency_window_ns / 1000),
                      spec.latency_percentile, job.latency_depth);
  WriteSteadyState(o, job, totals);
}

void WriteGroupStatus(std::string& o, const GroupTotals& t) {
  static const char* const kNames[] = {"   READ", "  WRITE", "   TRIM", "  MIXED"};
  o += fmt::sprintf("\nRun status group %d (all jobs):\n", t.id);
  const bool pow2 = (t.kb_base & (t.kb_base - 1)) == 0;
  const bool bits = UnitBaseIsBits(t.unit_base);
  const int digits = t.significant_figures;
  // unified_rw_reporting: mixed prints only the MIXED line, both adds it
  // after the directions.
  const int first = t.unified == JobSpec::UnifiedRw::kMixed ? kMixedDdir : 0;
  const int last = t.unified == JobSpec::UnifiedRw::kNone ? kNumDdirs - 1 : kMixedDdir;
  for (int d = first; d <= last; ++d) {
    if (!t.max_run_ms[d]) continue;
    auto bw = [&](uint64_t v, bool p2) {
      return FormatNumber(v, digits, p2, NumUnit::kBytesPerSec, bits);
    };
    o += fmt::sprintf("%s: bw=%s (%s), %s-%s (%s-%s), io=%s, run=%llu-%llumsec\n", kNames[d],
                      bw(t.agg_bw[d], pow2), bw(t.agg_bw[d], !pow2), bw(t.min_bw[d], pow2),
                      bw(t.max_bw[d], pow2), bw(t.min_bw[d], !pow2), bw(t.max_bw[d], !pow2),
                      FormatBytesPair(t.io_bytes[d], t.kb_base, digits),
                      static_cast<unsigned long long>(t.min_run_ms[d]),
                      static_cast<unsigned long long>(t.max_run_ms[d]));
  }
}

// The target's mount options that change what is measured (sync,
// data=journal, compress=...): every mount has rw, relatime and its
// defaults, which are left out.
std::string ShownMountOptions(const TargetContext& t) {
  const bool in_memory = sys::IsMemoryFs(t.fs_type) || sys::IsMemoryFs(t.backing_fs);
  return sys::Printable(sys::Join(sys::MeasuredMountOptions(t.mount_options, in_memory), ","));
}

std::string TargetLine(const TargetContext& t) {
  std::vector<std::string> parts;
  if (!t.fs_type.empty()) parts.push_back("fs=" + t.fs_type);
  if (const std::string opts = ShownMountOptions(t); !opts.empty())
    parts.push_back("mount_options=" + opts);
  // No block device (tmpfs, ramfs, nfs, an overlay on tmpfs): say so, and
  // that the data lives in memory where it does; a buffered test there
  // measures RAM and nothing else in the header said it.
  if (!t.device.empty() || !t.fs_type.empty())
    parts.push_back("device=" + sys::TargetDeviceLabel(t));
  if (!t.model.empty()) parts.push_back("model=" + t.model);
  if (!t.scheduler.empty()) parts.push_back("scheduler=" + t.scheduler);
  if (t.read_ahead_kb >= 0) parts.push_back("read_ahead_kb=" + std::to_string(t.read_ahead_kb));
  if (t.nr_requests >= 0) parts.push_back("nr_requests=" + std::to_string(t.nr_requests));
  if (t.rotational >= 0) parts.push_back("rotational=" + std::to_string(t.rotational));
  if (t.logical_block_size || t.physical_block_size)
    parts.push_back("block_size=" + std::to_string(t.logical_block_size) + "/" +
                    std::to_string(t.physical_block_size));
  if (!t.write_cache.empty()) parts.push_back("write_cache=" + t.write_cache);
  if (t.page_cache_percent >= 0) {
    std::string pc = fmt::sprintf("page_cache=%.1f%%", t.page_cache_percent);
    if (t.page_cache_examined_bytes < t.page_cache_region_bytes)
      pc += " (sampled " + FormatNumber(t.page_cache_examined_bytes, 4, true, NumUnit::kBytes) +
            " of " + FormatNumber(t.page_cache_region_bytes, 4, true, NumUnit::kBytes) + ")";
    parts.push_back(std::move(pc));
  }
  // The path may come from a directory (opendir), not the job file: a
  // newline in a name split the line. Escaped as the table notes are.
  std::string s = "target " + sys::Printable(t.path) + ":";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : " ") + parts[i];
  return s;
}

}  // namespace

std::string FormatContextBlock(const RunResult& run) {
  const RunContext& c = run.context;
  std::string o = VersionString(run);
  std::vector<std::string> host;
  if (!c.kernel.empty()) host.push_back("kernel " + c.kernel);
  if (c.cpus || !c.cpu_model.empty()) {
    std::string cpu = std::to_string(c.cpus) + " CPUs";
    if (!c.cpu_model.empty()) cpu += " (" + c.cpu_model + ")";
    host.push_back(cpu);
  }
  if (c.mem_bytes) host.push_back("memory " + FormatNumber(c.mem_bytes, 4, true, NumUnit::kBytes));
  if (!c.clock.empty()) {
    // The kernel's clocksource decides whether the TSC is read directly; a
    // run on another (kvm-clock, hpet) pays a system-clock call per stamp.
    std::string clock = "clock " + c.clock;
    if (!c.kernel_clocksource.empty() && c.kernel_clocksource != c.clock)
      clock += " (kernel clocksource " + c.kernel_clocksource + ")";
    host.push_back(clock);
  }
  for (size_t i = 0; i < host.size(); ++i) o += (i ? ", " : ": ") + host[i];
  o += "\n";
  if (!run.point.empty()) {
    o += "sweep point:";
    bool first = true;
    for (const auto& [k, v] : run.point) {
      o += (first ? " " : ", ") + k + "=" + v;
      first = false;
    }
    o += "\n";
  }
  if (run.repeat_n > 1 && run.snapshot)  // a final block has its "=== repeat k/N ===" label
    o += "repeat " + std::to_string(run.repeat_run) + "/" + std::to_string(run.repeat_n) + "\n";
  // Many jobs on one file system or device (a job file of 100 sections on
  // tmpfs) each have a described file, for their own warnings; past the
  // first kShown, a line is printed only for a file system or device not
  // yet shown, and the rest are counted (all are in the JSON report).
  constexpr size_t kShown = 4;
  std::vector<std::string> shown_kinds;
  size_t folded = 0;
  for (size_t i = 0; i < c.targets.size(); ++i) {
    const TargetContext& t = c.targets[i];
    // A mount whose options change the numbers (sync) is a kind of its own.
    std::string kind = t.fs_type + "\n" + ShownMountOptions(t) + "\n" + sys::TargetDeviceLabel(t);
    const bool seen = std::find(shown_kinds.begin(), shown_kinds.end(), kind) != shown_kinds.end();
    if (i >= kShown && seen) {
      ++folded;
      continue;
    }
    if (!seen) shown_kinds.push_back(std::move(kind));
    o += TargetLine(t) + "\n";
  }
  if (folded != 0)
    o += "note: " + std::to_string(folded) + " more target" + (folded == 1 ? "" : "s") +
         " on the file systems and devices above (each is in the JSON report's context)\n";
  // Traps are warnings; sys marks the purely informational ones "note: ".
  // One line each: they name files (a newline in one split the line).
  for (const auto& raw : c.warnings) {
    const std::string w = sys::Printable(raw);
    const size_t n = w.find("note: ");
    if (n == std::string::npos)
      o += "warning: " + w + "\n";
    else
      o += "note: " + w.substr(0, n) + w.substr(n + 6) + "\n";
  }
  if (run.interrupted) o += InterruptedNote(run);
  return o;
}

std::string FormatNormalHeader(const RunResult& run, const ReportOptions& opts) {
  std::string o;
  if (!opts.interim) {
    o = FormatContextBlock(run);
    size_t workers = 0;
    for (const auto& g : run.groups) {
      workers += g.jobs.size();
      for (const auto& j : g.jobs) {
        if (j.jobnum != 0) continue;
        // fio prints no such line for its no-I/O engine (cpuio), but
        // still the "..." of its clones.
        if (j.spec.ioengine != "cpuio") o += JobHeaderLine(j) + "\n";
        if (j.spec.numjobs > 1) o += "...\n";
      }
    }
    // fio's "Starting 3 processes" (threads with --thread): iobench's
    // workers are always threads.
    if (workers != 0)
      o += "Starting " + std::to_string(workers) + (workers == 1 ? " thread\n" : " threads\n");
    // fio's cpuio engine says what it does as each clone starts.
    for (const auto& g : run.groups)
      for (const auto& j : g.jobs)
        if (j.spec.ioengine == "cpuio")
          o += j.name + (j.spec.cpumode_qsort ? " (qsort)" : " (noop)") +
               ": ioengine=cpuio, cpuload=" + std::to_string(j.spec.cpuload) +
               ", cpucycle=" + std::to_string(j.spec.cpuchunks_us) + "\n";
  } else if (run.interrupted) {
    // fio prints its header lines once, before the first report; a later
    // report starts with the blank line. The interruption still needs saying.
    o = InterruptedNote(run);
  }
  return o;
}

Status WriteNormalBody(const RunResult& run, std::ostream& out) {
  std::string o = "\n";
  std::vector<GroupTotals> totals;
  for (const auto& g : run.groups) {
    const auto records = RecordsForGroup(g);
    const GroupTotals t = ComputeGroupTotals(g, records);
    for (const auto& r : records) WriteJob(o, r, t, run.timestamp_s, run.snapshot);
    totals.push_back(t);
  }
  for (const auto& t : totals) WriteGroupStatus(o, t);
  if (!run.disks.empty()) {
    o += "\nDisk stats (read/write):\n";
    for (const auto& d : run.disks) {
      o += fmt::sprintf(
          "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
          "util=%3.2f%%\n",
          d.name, static_cast<unsigned long long>(d.ios[0]),
          static_cast<unsigned long long>(d.ios[1]), static_cast<unsigned long long>(d.merges[0]),
          static_cast<unsigned long long>(d.merges[1]), static_cast<unsigned long long>(d.ticks[0]),
          static_cast<unsigned long long>(d.ticks[1]),
          static_cast<unsigned long long>(d.time_in_queue), d.util);
    }
  }
  out << o;
  if (!out) return Status(Status::Code::kIoError, "writing the normal report failed");
  return Status::Ok();
}

Status WriteNormal(const RunResult& run, const ReportOptions& opts, std::ostream& out) {
  out << FormatNormalHeader(run, opts);
  return WriteNormalBody(run, out);
}

}  // namespace iobench
