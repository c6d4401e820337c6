#include "report/common.h"

#include <cstring>

#include "stats/units.h"

namespace iobench {

const std::string& FioOptionName(const std::string& name) {
  static const std::string kBa = "ba", kBatch = "iodepth_batch", kLogMax = "log_max_value";
  if (name == "blockalign") return kBa;
  if (name == "iodepth_batch_submit") return kBatch;
  if (name == "log_window_value") return kLogMax;
  return name;
}

const char* DdirName(int ddir) {
  static const char* const kNames[] = {"read", "write", "trim"};
  return ddir >= 0 && ddir < kNumDdirs ? kNames[ddir] : "?";
}

std::string VersionString(const RunResult& run) {
  if (!run.context.iobench_version.empty()) {
    // Accept both "0.1.0" and "iobench-0.1.0".
    if (run.context.iobench_version.rfind("iobench", 0) == 0) return run.context.iobench_version;
    return "iobench-" + run.context.iobench_version;
  }
  return std::string("iobench-") + IOBENCH_VERSION;
}

std::string CtimeString(uint64_t epoch_s) {
  const time_t t = static_cast<time_t>(epoch_s);
  struct tm tm_buf;
  localtime_r(&t, &tm_buf);
  char buf[64];
  // ctime's layout: "Mon Nov 30 08:24:40 2026" (day padded to width 2).
  std::strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm_buf);
  return buf;
}

std::string JobHeaderLine(const JobResult& job) {
  const JobSpec& s = job.spec;
  // fio's backend header (init.c): num2str(bs, o->sig_figs, 1, is_power_of_2(kb_base), N2S_BYTE),
  // so both significant_figures and kb_base=1000 ("12.0kB") shape it. With bs_is_seq_rand the
  // second pair is seq/rand, not write, and fio prints no trim pair.
  const bool pow2 = s.kb_base != 0 && (s.kb_base & (s.kb_base - 1)) == 0;
  const int digits = s.significant_figures;
  std::string line =
      job.name + ": (g=" + std::to_string(job.groupid) + "): rw=" + RwModeName(s.rw) + ", bs=";
  static const char* const kTag[] = {"(R)", "(W)", "(T)"};
  const int pairs = s.bs_is_seq_rand ? 2 : kNumDdirs;
  for (int d = 0; d < pairs; ++d) {
    if (d) line += ", ";
    line += kTag[d];
    line += " ";
    line += FormatNumber(s.bs[d].min, digits, pow2, NumUnit::kBytes);
    line += "-";
    line += FormatNumber(s.bs[d].max, digits, pow2, NumUnit::kBytes);
  }
  if (s.bs_is_seq_rand) line += ", bs_is_seq_rand";
  line += ", ioengine=" + s.ioengine + ", iodepth=" + std::to_string(s.iodepth);
  return line;
}

bool HasHelperData(const HelperCpu& h) {
  return h.iowq_user_us || h.iowq_sys_us || h.sqpoll_user_us || h.sqpoll_sys_us || h.aio_user_us ||
         h.aio_sys_us || h.other_user_us || h.other_sys_us || h.peak_threads;
}

bool PrioSplitShown(const DirStats& ds) {
  if (!ds.prio_split) return false;
  int with_samples = 0;
  for (const PrioStat& p : ds.prios) with_samples += p.lat.n != 0 ? 1 : 0;
  return with_samples >= 2;
}

uint64_t SteadyStateMean(const std::vector<uint64_t>& window) {
  if (window.empty()) return 0;
  uint64_t sum = 0;
  for (uint64_t v : window) sum += v;
  return sum / window.size();
}

const char* SteadyStateModeName(JobSpec::SteadyStateMode mode) {
  switch (mode) {
    case JobSpec::SteadyStateMode::kIops:
      return "iops";
    case JobSpec::SteadyStateMode::kIopsSlope:
      return "iops_slope";
    case JobSpec::SteadyStateMode::kBw:
      return "bw";
    case JobSpec::SteadyStateMode::kBwSlope:
      return "bw_slope";
  }
  return "?";
}

}  // namespace iobench
