// fio's terse output, versions 2 to 5 (3 by default): one ';'-separated
// line per job record, in fio's field order (v3: 130 fields with one disk).
// Latencies in µs, bandwidth in KiB/s. The version field holds iobench's
// version string where fio writes "fio-3.33". What the versions change
// (fio's man page, TERSE OUTPUT): v2 has no version field, no disk fields
// and puts the description on a line of its own; v2, v4 and v5 add the trim
// direction; v5 adds the bandwidth sample count and the IOPS statistics
// (min, max, mean, stdev, samples) to each direction.
#include <fmt/printf.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "iobench/report.h"
#include "report/common.h"
#include "report/fio_report.h"
#include "stats/summary.h"

namespace iobench {

namespace {

// fio prints a fixed 20 percentile slots; unused ones read "0%=0".
constexpr int kTersePercentileSlots = 20;

void LatFields(std::string& o, const LatStat& ls) {
  if (ls.n) {
    o += fmt::sprintf(";%llu;%llu;%f;%f", static_cast<unsigned long long>(ls.Min() / 1000),
                      static_cast<unsigned long long>(ls.max / 1000), ls.Mean() / 1000.0,
                      ls.Stddev() / 1000.0);
  } else {
    o += ";0;0;0.000000;0.000000";
  }
}

void DdirFields(std::string& o, const JobRecord& rec, const DirView& v, int version) {
  const JobResult& job = rec.result;
  const DirStats& ds = *v.stats;
  const uint64_t runt = v.runtime_ms;
  const uint64_t bw_kib = runt ? v.bw_bytes / 1024 : 0;
  const uint64_t iops = runt ? ReportedIos(ds) * 1000 / runt : 0;
  o += fmt::sprintf(";%llu;%llu;%llu;%llu", static_cast<unsigned long long>(ds.bytes >> 10),
                    static_cast<unsigned long long>(bw_kib), static_cast<unsigned long long>(iops),
                    static_cast<unsigned long long>(runt));
  LatFields(o, ds.slat);
  LatFields(o, ds.clat);

  // With percentiles on, fio names every listed percentile even for a
  // direction without I/O ("1.000000%=0"); the unused slots read "0%=0".
  std::vector<double> list;
  std::vector<PercentileValue> pv;
  const JobSpec& spec = job.spec;
  if (spec.lat_percentiles || spec.clat_percentiles) {
    list = PercentileListFor(spec);
    pv = Percentiles(spec.lat_percentiles ? ds.lat_hist : ds.clat_hist, list);
  }
  for (int i = 0; i < kTersePercentileSlots; ++i) {
    if (i < static_cast<int>(pv.size()))
      o += fmt::sprintf(";%f%%=%llu", pv[i].percentile,
                        static_cast<unsigned long long>(pv[i].value_ns / 1000));
    else if (i < static_cast<int>(list.size()))
      o += fmt::sprintf(";%f%%=0", list[i]);
    else
      o += ";0%=0";
  }
  LatFields(o, ds.lat);

  const SampleStat& b = *v.bw;
  if (b.samples) {
    // Whole KiB/s samples (BwSampleStat), as fio's.
    const double per = TerseBandwidthPercentOfGroup(b, v.group_agg_bw);
    o += fmt::sprintf(";%llu;%llu;%f%%;%f;%f", static_cast<unsigned long long>(b.min),
                      static_cast<unsigned long long>(b.max), per, b.mean, b.stddev);
  } else {
    o += ";0;0;0.000000%;0.000000;0.000000";
  }
  if (version != 5) return;
  o += fmt::sprintf(";%llu", static_cast<unsigned long long>(b.samples));
  const SampleStat& io = *v.iops_stat;
  if (io.samples) {
    o += fmt::sprintf(";%llu;%llu;%f;%f;%llu", static_cast<unsigned long long>(io.min),
                      static_cast<unsigned long long>(io.max), io.mean, io.stddev,
                      static_cast<unsigned long long>(io.samples));
  } else {
    o += ";0;0;0.000000;0.000000;0";
  }
}

// One record's line, without the trailing newline.
std::string TerseLine(const RunResult& run, const JobRecord& rec, const GroupTotals& t,
                      int version) {
  const JobResult& job = rec.result;
  const ThreadStats& ts = job.stats;
  std::string o = version == 2
                      ? fmt::sprintf("2;%s;%d;%d", job.name, job.groupid, job.shown_error())
                      : fmt::sprintf("%d;%s;%s;%d;%d", version, VersionString(run), job.name,
                                     job.groupid, job.shown_error());
  // unified_rw_reporting=mixed: the mixed block alone; both: the mixed
  // block after the directions (v3 has no trim block either way).
  for (const DirView& v : ReportedDirs(rec, t))
    if (v.ddir != 2 || version != 3) DdirFields(o, rec, v, version);
  o += fmt::sprintf(
      ";%f%%;%f%%;%llu;%llu;%llu", RecordCpuPercent(rec, ts.cpu.user_us),
      RecordCpuPercent(rec, ts.cpu.sys_us), static_cast<unsigned long long>(ts.cpu.ctx),
      static_cast<unsigned long long>(ts.cpu.majf), static_cast<unsigned long long>(ts.cpu.minf));
  const auto depth = DepthPercentages(ts.depth.depth, DepthSum(ts.depth.depth));
  for (double p : depth) o += fmt::sprintf(";%3.1f%%", p);
  // Terse v3 has no nsec buckets: fio folds them into the first usec one,
  // as their unrounded share (stat_calc_lat_nu), not the sum of the shown
  // ones (two nsec buckets of 0.004% each read 0.01% apiece).
  const LatencyDistribution ld = ComputeLatencyDistribution(ts);
  for (size_t i = 0; i < ld.usec.size(); ++i)
    o += fmt::sprintf(";%3.2f%%", ld.usec[i] + (i == 0 ? ld.nsec_total : 0.0));
  for (double p : ld.msec) o += fmt::sprintf(";%3.2f%%", p);
  for (const auto& d : run.disks) {
    if (version == 2) break;     // v2 predates the disk fields
    if (!d.fio_lists) continue;  // fio's field count (DiskUtil::fio_lists)
    o += fmt::sprintf(
        ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", d.name,
        static_cast<unsigned long long>(d.ios[0]), static_cast<unsigned long long>(d.ios[1]),
        static_cast<unsigned long long>(d.merges[0]), static_cast<unsigned long long>(d.merges[1]),
        static_cast<unsigned long long>(d.ticks[0]), static_cast<unsigned long long>(d.ticks[1]),
        static_cast<unsigned long long>(d.time_in_queue), d.util);
  }
  if (job.spec.continue_on_error != kCoeNone)
    o += fmt::sprintf(";%llu;%d", static_cast<unsigned long long>(ts.coe_errors),
                      ts.coe_first_error);
  if (!job.spec.description.empty()) o += (version == 2 ? "\n;" : ";") + job.spec.description;
  return o;
}

// --- the same record from a fio-schema JSON job (a --repeat median) ---

using ojson = nlohmann::ordered_json;

const ojson& At(const ojson& o, const char* key) {
  static const ojson kNull;
  if (!o.is_object()) return kNull;
  const auto it = o.find(key);
  return it == o.end() ? kNull : *it;
}
double DV(const ojson& v) { return v.is_number() ? v.get<double>() : 0.0; }
double D(const ojson& o, const char* key) { return DV(At(o, key)); }
// A whole figure; a median with a fraction (iops) is cut as the record's
// own integer division cuts it.
unsigned long long UV(const ojson& v) {
  if (v.is_number_unsigned()) return v.get<unsigned long long>();
  if (v.is_number_integer()) return static_cast<unsigned long long>(std::max<int64_t>(0, v));
  if (v.is_number_float()) return static_cast<unsigned long long>(std::max(0.0, v.get<double>()));
  return 0;
}
unsigned long long U(const ojson& o, const char* key) { return UV(At(o, key)); }

void JsonLatFields(std::string& o, const ojson& ls) {
  if (U(ls, "N"))
    o += fmt::sprintf(";%llu;%llu;%f;%f", U(ls, "min") / 1000, U(ls, "max") / 1000,
                      D(ls, "mean") / 1000.0, D(ls, "stddev") / 1000.0);
  else
    o += ";0;0;0.000000;0.000000";
}

void JsonDdirFields(std::string& o, const JobSpec& spec, const ojson& d, int version) {
  o += fmt::sprintf(";%llu;%llu;%llu;%llu", U(d, "io_kbytes"), U(d, "bw"), U(d, "iops"),
                    U(d, "runtime"));
  JsonLatFields(o, At(d, "slat_ns"));
  JsonLatFields(o, At(d, "clat_ns"));
  // The listed percentiles (named with 0 in a direction without I/O, whose
  // document has none), each looked up by its name ("99.000000").
  std::vector<double> list;
  if (spec.lat_percentiles || spec.clat_percentiles) list = PercentileListFor(spec);
  const ojson& p = At(At(d, spec.lat_percentiles ? "lat_ns" : "clat_ns"), "percentile");
  for (int i = 0; i < kTersePercentileSlots; ++i) {
    if (i < static_cast<int>(list.size())) {
      const std::string name = fmt::sprintf("%f", list[i]);
      o += fmt::sprintf(";%s%%=%llu", name, U(p, name.c_str()) / 1000);
    } else {
      o += ";0%=0";
    }
  }
  JsonLatFields(o, At(d, "lat_ns"));
  if (U(d, "bw_samples"))
    o += fmt::sprintf(";%llu;%llu;%f%%;%f;%f", U(d, "bw_min"), U(d, "bw_max"),
                      TersePercentFromBwAgg(D(d, "bw_mean"), D(d, "bw_agg")), D(d, "bw_mean"),
                      D(d, "bw_dev"));
  else
    o += ";0;0;0.000000%;0.000000;0.000000";
  if (version != 5) return;
  o += fmt::sprintf(";%llu", U(d, "bw_samples"));
  if (U(d, "iops_samples"))
    o += fmt::sprintf(";%llu;%llu;%f;%f;%llu", U(d, "iops_min"), U(d, "iops_max"),
                      D(d, "iops_mean"), D(d, "iops_stddev"), U(d, "iops_samples"));
  else
    o += ";0;0;0.000000;0.000000;0";
}

std::string JsonTerseLine(const ojson& doc, const ojson& job, const JobSpec& spec, int version) {
  const std::string name = At(job, "jobname").is_string() ? job["jobname"].get<std::string>() : "";
  const int groupid = static_cast<int>(U(job, "groupid"));
  const int error = static_cast<int>(U(job, "error"));
  const std::string fio_version =
      At(doc, "fio version").is_string() ? doc["fio version"].get<std::string>() : "";
  std::string o = version == 2
                      ? fmt::sprintf("2;%s;%d;%d", name, groupid, error)
                      : fmt::sprintf("%d;%s;%s;%d;%d", version, fio_version, name, groupid, error);
  // The directions the record has, in its order (v3 has no trim block).
  for (const char* dir : {"read", "write", "trim", "mixed"})
    if (At(job, dir).is_object() && (std::string(dir) != "trim" || version != 3))
      JsonDdirFields(o, spec, job[dir], version);
  o += fmt::sprintf(";%f%%;%f%%;%llu;%llu;%llu", D(job, "usr_cpu"), D(job, "sys_cpu"),
                    U(job, "ctx"), U(job, "majf"), U(job, "minf"));
  for (const auto& p : At(job, "iodepth_level")) o += fmt::sprintf(";%3.1f%%", DV(p));
  // v3's first usec bucket holds the nsec ones (see TerseLine).
  double nsec = 0;
  for (const auto& p : At(job, "latency_ns")) nsec += DV(p);
  bool first = true;
  for (const auto& p : At(job, "latency_us")) {
    o += fmt::sprintf(";%3.2f%%", DV(p) + (first ? nsec : 0.0));
    first = false;
  }
  for (const auto& p : At(job, "latency_ms")) o += fmt::sprintf(";%3.2f%%", DV(p));
  if (version != 2)
    for (const auto& d : At(doc, "disk_util"))
      o += fmt::sprintf(";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
                        At(d, "name").is_string() ? d["name"].get<std::string>() : "",
                        U(d, "read_ios"), U(d, "write_ios"), U(d, "read_merges"),
                        U(d, "write_merges"), U(d, "read_ticks"), U(d, "write_ticks"),
                        U(d, "in_queue"), D(d, "util"));
  if (spec.continue_on_error != kCoeNone)
    o += fmt::sprintf(";%llu;%d", U(job, "total_err"), static_cast<int>(U(job, "first_error")));
  if (!spec.description.empty()) o += (version == 2 ? "\n;" : ";") + spec.description;
  return o;
}

}  // namespace

Status WriteTerseFromJson(const RunResult& shape, const nlohmann::ordered_json& doc,
                          const ReportOptions& opts, std::ostream& out) {
  const int version = opts.terse_version;
  if (version < 2 || version > 5)
    return Status::Invalid("--terse-version=" + std::to_string(version) +
                           ": fio's terse versions are 2, 3, 4 and 5");
  const ojson& jobs = At(doc, "jobs");
  std::string o;
  size_t i = 0;
  for (const auto& g : shape.groups)
    for (const auto& r : RecordsForGroup(g)) {
      if (!jobs.is_array() || i >= jobs.size())
        return Status::Invalid("the document holds fewer jobs than the run");
      o += JsonTerseLine(doc, jobs[i++], r.result.spec, version) + "\n";
    }
  out << o;
  if (!out) return Status(Status::Code::kIoError, "writing the terse report failed");
  return Status::Ok();
}

Status WriteTerse(const RunResult& run, const ReportOptions& opts, std::ostream& out) {
  const int version = opts.terse_version;
  if (version < 2 || version > 5)
    return Status::Invalid("--terse-version=" + std::to_string(version) +
                           ": fio's terse versions are 2, 3, 4 and 5");
  std::string o;
  for (const auto& g : run.groups) {
    const auto records = RecordsForGroup(g);
    const GroupTotals t = ComputeGroupTotals(g, records);
    for (const auto& r : records) o += TerseLine(run, r, t, version) + "\n";
  }
  out << o;
  if (!out) return Status(Status::Code::kIoError, "writing the terse report failed");
  return Status::Ok();
}

}  // namespace iobench
