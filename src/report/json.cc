// fio's JSON and JSON+ output (schema of fio 3.33), with iobench's own
// fields under one "iobench" key per job and at the top level, so fio's
// parsers (and fio_jsonplus_clat2csv) read our documents unchanged.
#include <fmt/printf.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "iobench/engine.h"
#include "iobench/report.h"
#include "report/common.h"
#include "report/fio_report.h"
#include "report/status_line.h"
#include "stats/summary.h"

namespace iobench {

using ojson = nlohmann::ordered_json;

namespace {

ojson LatObject(const LatStat& ls, const Histogram& h, bool percentiles,
                const std::vector<double>& list, bool plus) {
  ojson o;
  o["min"] = ls.n ? ls.Min() : 0;
  o["max"] = ls.n ? ls.max : 0;
  o["mean"] = ls.Mean();
  o["stddev"] = ls.Stddev();
  o["N"] = ls.n;
  if (percentiles && ls.n) {
    ojson p = ojson::object();
    for (const auto& v : Percentiles(h, list)) p[fmt::sprintf("%f", v.percentile)] = v.value_ns;
    o["percentile"] = std::move(p);
    if (plus) {
      ojson bins = ojson::object();
      for (unsigned i = 0; i < Histogram::kNr; ++i)
        if (h.counts[i]) bins[std::to_string(Histogram::IndexToValue(i))] = h.counts[i];
      o["bins"] = std::move(bins);
    }
  }
  return o;
}

ojson DdirObject(const JobRecord& rec, const DirView& v, bool plus) {
  const JobResult& job = rec.result;
  const DirStats& ds = *v.stats;
  const JobSpec& spec = job.spec;
  const auto list = PercentileListFor(spec);
  const uint64_t runt = v.runtime_ms;
  const uint64_t bw_bytes = v.bw_bytes;
  ojson o;
  o["io_bytes"] = ds.bytes;
  o["io_kbytes"] = ds.bytes >> 10;
  o["bw_bytes"] = bw_bytes;
  o["bw"] = bw_bytes / 1024;
  o["iops"] = v.iops;
  o["runtime"] = runt;
  o["total_ios"] = ReportedIos(ds);
  o["short_ios"] = ds.short_ios;
  o["drop_ios"] = ds.dropped;
  o["slat_ns"] = LatObject(ds.slat, ds.slat_hist, spec.slat_percentiles, list, plus);
  o["clat_ns"] = LatObject(ds.clat, ds.clat_hist, spec.clat_percentiles, list, plus);
  o["lat_ns"] = LatObject(ds.lat, ds.lat_hist, spec.lat_percentiles, list, plus);
  if (PrioSplitShown(ds)) {  // fio: one entry per priority that completed I/O
    ojson prios = ojson::array();
    for (const PrioStat& p : ds.prios) {
      if (p.lat.n == 0) continue;
      ojson e;
      e["prioclass"] = p.value >> 13;
      e["prio"] = p.value & 7;
      // fio: total latency with lat_percentiles, completion latency without.
      if (spec.lat_percentiles)
        e["lat_ns"] = LatObject(p.lat, p.hist, true, list, plus);
      else
        e["clat_ns"] = LatObject(p.lat, p.hist, spec.clat_percentiles, list, plus);
      prios.push_back(std::move(e));
    }
    o["prios"] = std::move(prios);
  }
  const SampleStat& b = *v.bw;
  // Whole KiB/s samples (BwSampleStat), as fio's.
  o["bw_min"] = b.min;
  o["bw_max"] = b.max;
  o["bw_agg"] = b.samples ? BandwidthPercentOfGroup(b, v.group_agg_bw) : 0.0;
  o["bw_mean"] = b.mean;
  o["bw_dev"] = b.stddev;
  o["bw_samples"] = b.samples;
  const SampleStat& io = *v.iops_stat;
  o["iops_min"] = io.min;
  o["iops_max"] = io.max;
  o["iops_mean"] = io.mean;
  o["iops_stddev"] = io.stddev;
  o["iops_samples"] = io.samples;
  return o;
}

ojson DistObject(const std::array<double, 7>& p, bool depth) {
  static const char* const kDepth[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  static const char* const kBatch[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  ojson o;
  for (int i = 0; i < 7; ++i) o[depth ? kDepth[i] : kBatch[i]] = p[i];
  return o;
}

template <size_t N>
ojson LatDistObject(const std::array<double, N>& v) {
  ojson o;
  for (size_t i = 0; i < N; ++i) o[kLatBucketLabels[i]] = v[i];
  return o;
}

// fio lists an option under "job options" / "global options" only when it
// was written with a value: bare flags (`stonewall`, `group_reporting`,
// `time_based`) are left out, `stonewall=1` is listed.
bool ListedOption(const OptionSetting& s) { return !s.value.empty(); }

// fio lists the options in the order it applied them. For a job file
// section: written order, except that kb_base and unit_base go first and
// filename and filename_format after the other general options (their parse
// priorities), and the engine's own options (cmdprio_percentage, hipri, ...)
// last, in a pass of their own. Command-line options are applied one by one,
// in written order (`from_job_file` false).
std::vector<const OptionSetting*> InFioOptionOrder(const std::vector<OptionSetting>& settings,
                                                   const std::string& ioengine,
                                                   bool from_job_file) {
  std::vector<const OptionSetting*> out;
  for (const auto& s : settings) out.push_back(&s);
  if (!from_job_file) return out;
  const EngineInfo* engine = FindEngine(ioengine);
  auto rank = [&](const std::string& n) {
    if (n == "kb_base" || n == "unit_base") return 0;
    if (n == "filename" || n == "filename_format") return 2;
    if (engine != nullptr &&
        std::find(engine->options.begin(), engine->options.end(), n) != engine->options.end())
      return 3;
    return 1;
  };
  std::stable_sort(out.begin(), out.end(), [&](const OptionSetting* a, const OptionSetting* b) {
    return rank(a->name) < rank(b->name);
  });
  return out;
}

// A group_reporting entry's options that its members set differently: for
// each, every distinct value in member order, null for a member that leaves
// it unset. Options as "job options" and "global options" list them
// together (written with a value). "job options" are the last member's, as
// fio writes them: a group of a bs=4k and a bs=64k job was captioned 64k.
ojson DifferingOptions(const JobRecord& rec) {
  using Listed = std::vector<std::pair<std::string, std::string>>;
  std::vector<Listed> distinct;  // numjobs clones list the same options
  for (const JobSpec* spec : rec.member_specs) {
    Listed l;
    for (const OptionSetting& s : spec->settings) {
      if (s.source == OptionSource::kDefault || !ListedOption(s)) continue;
      const std::string& name = FioOptionName(s.name);
      auto it = std::find_if(l.begin(), l.end(), [&](const auto& e) { return e.first == name; });
      if (it == l.end())
        l.emplace_back(name, s.value);
      else
        it->second = s.value;  // the later setting is the one applied
    }
    if (std::find(distinct.begin(), distinct.end(), l) == distinct.end())
      distinct.push_back(std::move(l));
  }
  ojson out = ojson::object();
  if (distinct.size() < 2) return out;
  std::vector<std::string> names;  // in order of first appearance
  for (const auto& l : distinct)
    for (const auto& [name, value] : l)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const auto& name : names) {
    ojson values = ojson::array();
    for (const auto& l : distinct) {
      auto it = std::find_if(l.begin(), l.end(), [&](const auto& e) { return e.first == name; });
      ojson v = it == l.end() ? ojson(nullptr) : ojson(it->second);
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    if (values.size() > 1) out[name] = std::move(values);
  }
  return out;
}

// `snapshot`: an interim report (--status-interval, SIGUSR1), which measures
// the job's own threads only: the kernel helpers' CPU is read at the end.
ojson IobenchJobObject(const JobRecord& rec, bool snapshot) {
  const JobResult& job = rec.result;
  const ThreadStats& ts = job.stats;
  const HelperCpu& h = rec.helpers;
  ojson o;
  o["members"] = rec.members;
  // Which numjobs clone of its job the entry is (0 the first): tables add
  // up the clones of one job, not separate jobs that share a name.
  o["clone"] = job.jobnum;
  // A group_reporting entry: its members' rw, which "job options" (the
  // last member's, as fio) does not say; tables caption by it.
  if (!rec.member_rw.empty()) {
    ojson rws = ojson::array();
    for (RwMode m : rec.member_rw) rws.push_back(RwModeName(m));
    o["member_rw"] = std::move(rws);
  }
  if (ojson differ = DifferingOptions(rec); !differ.empty())
    o["member_options"] = std::move(differ);
  // An interim record's helpers are not measured yet: null, not zeros
  // that read as measured; its cpu_per_io_us is the job's threads' only,
  // which cpu_scope says (as the normal report's "(own threads only; ...)").
  if (snapshot) {
    o["helpers"] = nullptr;
  } else {
    ojson helpers;
    helpers["iowq_usr_cpu"] = RecordCpuPercent(rec, h.iowq_user_us);
    helpers["iowq_sys_cpu"] = RecordCpuPercent(rec, h.iowq_sys_us);
    helpers["sqpoll_usr_cpu"] = RecordCpuPercent(rec, h.sqpoll_user_us);
    helpers["sqpoll_sys_cpu"] = RecordCpuPercent(rec, h.sqpoll_sys_us);
    helpers["aio_usr_cpu"] = RecordCpuPercent(rec, h.aio_user_us);
    helpers["aio_sys_cpu"] = RecordCpuPercent(rec, h.aio_sys_us);
    helpers["other_usr_cpu"] = RecordCpuPercent(rec, h.other_user_us);
    helpers["other_sys_cpu"] = RecordCpuPercent(rec, h.other_sys_us);
    helpers["iowq_user_us"] = h.iowq_user_us;
    helpers["iowq_sys_us"] = h.iowq_sys_us;
    helpers["sqpoll_user_us"] = h.sqpoll_user_us;
    helpers["sqpoll_sys_us"] = h.sqpoll_sys_us;
    helpers["aio_user_us"] = h.aio_user_us;
    helpers["aio_sys_us"] = h.aio_sys_us;
    helpers["other_user_us"] = h.other_user_us;
    helpers["other_sys_us"] = h.other_sys_us;
    helpers["peak_threads"] = h.peak_threads;
    helpers["apportioned"] = h.apportioned;
    o["helpers"] = std::move(helpers);
  }
  o["cpu_per_io_us"] = CpuPerIoUs(rec);
  o["cpu_scope"] = snapshot ? "own_threads" : "own_threads_and_helpers";
  ojson calls;
  calls["submit"] = SubmitPerCall(ts);
  calls["reap"] = ReapPerCall(ts);
  calls["submit_calls"] = ts.submit_calls;
  calls["submitted"] = ts.submitted;
  calls["reap_calls"] = ts.reap_calls;
  calls["reaped"] = ts.reaped;
  calls["reap_syscalls"] = ts.reap_syscalls;
  o["ios_per_call"] = std::move(calls);
  ojson eagain;
  for (int d = 0; d < kNumDdirs; ++d) eagain[DdirName(d)] = ts.dir[d].eagain;
  o["eagain"] = std::move(eagain);
  ojson prio;
  for (int d = 0; d < kNumDdirs; ++d) prio[DdirName(d)] = ts.dir[d].high_prio_ios;
  o["high_prio_ios"] = std::move(prio);
  o["total_errors"] = ts.total_errors;
  if (ts.first_error.err) {
    ojson fe;
    fe["error"] = ts.first_error.err;
    fe["ddir"] = DdirName(static_cast<int>(ts.first_error.ddir));
    fe["file"] = ts.first_error.file;
    fe["offset"] = ts.first_error.offset;
    fe["message"] = ts.first_error.message;
    o["first_error"] = std::move(fe);
  }
  if (!job.error_message.empty()) o["error_message"] = job.error_message;
  o["interrupted"] = job.interrupted;
  o["notes"] = job.notes;
  return o;
}

}  // namespace

ojson BuildJsonContext(const RunContext& c) {
  ojson o;
  o["iobench_version"] =
      c.iobench_version.empty() ? std::string(IOBENCH_VERSION) : c.iobench_version;
  o["kernel"] = c.kernel;
  o["cpu_model"] = c.cpu_model;
  o["cpus"] = c.cpus;
  o["mem_bytes"] = c.mem_bytes;
  o["clock"] = c.clock;
  o["kernel_clocksource"] = c.kernel_clocksource;
  ojson targets = ojson::array();
  for (const auto& t : c.targets) {
    ojson j;
    j["path"] = t.path;
    // Which jobs are on it: a table of some of the jobs names their file
    // systems only.
    if (!t.jobs.empty()) j["jobs"] = t.jobs;
    j["fs_type"] = t.fs_type;
    j["mount_options"] = t.mount_options;
    j["device"] = t.device;
    if (!t.backing_fs.empty()) j["backing_fs"] = t.backing_fs;
    j["model"] = t.model;
    j["scheduler"] = t.scheduler;
    j["read_ahead_kb"] = t.read_ahead_kb;
    j["nr_requests"] = t.nr_requests;
    j["rotational"] = t.rotational;
    j["logical_block_size"] = t.logical_block_size;
    j["physical_block_size"] = t.physical_block_size;
    j["write_cache"] = t.write_cache;
    j["page_cache_percent"] = t.page_cache_percent;
    j["page_cache_region_bytes"] = t.page_cache_region_bytes;
    j["page_cache_examined_bytes"] = t.page_cache_examined_bytes;
    targets.push_back(std::move(j));
  }
  o["targets"] = std::move(targets);
  o["warnings"] = c.warnings;
  return o;
}

namespace {

// fio's "steadystate" object. The limit and the criterion are printed from
// floats, as fio does ("iops:0.010000%" for 0.01%).
ojson SteadyStateObject(const JobResult& job) {
  const SteadyStateResult& ss = job.steadystate;
  const JobSpec& spec = job.spec;
  const char* pct = spec.ss_percent ? "%" : "";
  ojson o;
  o["ss"] = fmt::sprintf("%s:%f%s", SteadyStateModeName(spec.ss_mode),
                         static_cast<double>(static_cast<float>(spec.ss_limit)), pct);
  o["duration"] = ss.bw.size();
  o["attained"] = ss.attained ? 1 : 0;
  o["criterion"] = fmt::sprintf("%f%s", static_cast<double>(static_cast<float>(ss.criterion)), pct);
  o["max_deviation"] = ss.max_deviation;
  o["slope"] = ss.slope;
  ojson data;
  data["bw_mean"] = SteadyStateMean(ss.bw);
  data["iops_mean"] = SteadyStateMean(ss.iops);
  data["iops"] = ss.iops;
  data["bw"] = ss.bw;
  o["data"] = std::move(data);
  return o;
}

// fio's "eta" of an interim report, the same in every job record: the
// run's time left in whole seconds as the status line estimates it
// (get_jobs_eta there, SnapshotRemainingNs here), 3, 2, 1 ... in a
// time_based run. fio's INT_MAX while its clock (the records' "elapsed")
// is under 3 s, where calc_thread_status estimates nothing yet, and when
// nothing tells the end. (The final report's is 0: nothing is left.)
uint64_t InterimEtaSeconds(const RunResult& snapshot, uint64_t elapsed_s) {
  constexpr uint64_t kFioUnknown = 2147483647;  // INT_MAX
  if (elapsed_s < 3) return kFioUnknown;
  const int64_t remaining = snapshot.interval_remaining_ns != INT64_MIN
                                ? snapshot.interval_remaining_ns
                                : SnapshotRemainingNs(snapshot);
  return remaining < 0 ? kFioUnknown : std::min(kFioUnknown, EtaSeconds(remaining));
}

// `options_from` is the job whose options "job options" lists.
ojson JobObject(const JobRecord& rec, const GroupTotals& totals, bool plus,
                const JobSpec& options_from, bool snapshot) {
  const JobResult& job = rec.result;
  const ThreadStats& ts = job.stats;
  const JobSpec& spec = job.spec;
  ojson o;
  o["jobname"] = job.name;
  o["groupid"] = job.groupid;
  o["error"] = job.shown_error();
  o["eta"] = 0;
  o["elapsed"] = (job.elapsed_ms + 999) / 1000;  // BuildJsonReport: the run's, as fio
  ojson opts = ojson::object();
  // A command-line job was started by --name=NAME, an option fio lists
  // first; a job file's [NAME] section header is not an option.
  if (options_from.job_file.empty() && !options_from.name.empty()) opts["name"] = options_from.name;
  // fio writes the object when the job set any option of its own, bare
  // flags too, which it does not list: `[b]` + `stonewall` is {}.
  bool own = !opts.empty();
  for (const OptionSetting* s : InFioOptionOrder(options_from.settings, options_from.ioengine,
                                                 !options_from.job_file.empty())) {
    if (s->source == OptionSource::kGlobal || s->source == OptionSource::kDefault) continue;
    own = true;
    if (ListedOption(*s)) opts[FioOptionName(s->name)] = s->value;
  }
  if (own) o["job options"] = std::move(opts);
  // unified_rw_reporting: "mixed" alone (fio then has no "sync" object
  // either), or after read, write, trim and sync.
  for (const DirView& v : ReportedDirs(rec, totals)) {
    if (v.ddir == kMixedDdir) continue;
    o[v.name] = DdirObject(rec, v, plus);
  }
  if (spec.unified_rw_reporting != JobSpec::UnifiedRw::kMixed) {
    ojson sync;
    sync["total_ios"] = ts.sync_ios;
    sync["lat_ns"] =
        LatObject(ts.sync_lat, ts.sync_hist, spec.lat_percentiles || spec.clat_percentiles,
                  PercentileListFor(spec), plus);
    o["sync"] = std::move(sync);
  }
  if (rec.mixed) o["mixed"] = DdirObject(rec, ViewOf(rec, totals, kMixedDdir), plus);
  const uint64_t rt = rec.cpu_runtime_ms;
  o["job_runtime"] = rt;
  o["usr_cpu"] = RecordCpuPercent(rec, ts.cpu.user_us);
  o["sys_cpu"] = RecordCpuPercent(rec, ts.cpu.sys_us);
  o["ctx"] = ts.cpu.ctx;
  o["majf"] = ts.cpu.majf;
  o["minf"] = ts.cpu.minf;
  o["iodepth_level"] = DistObject(DepthPercentages(ts.depth.depth, DepthSum(ts.depth.depth)), true);
  const uint64_t sub_total =
      ts.depth.submit_events ? ts.depth.submit_events : DepthSum(ts.depth.submit);
  const uint64_t comp_total =
      ts.depth.complete_events ? ts.depth.complete_events : DepthSum(ts.depth.complete);
  o["iodepth_submit"] = DistObject(DepthPercentages(ts.depth.submit, sub_total), false);
  o["iodepth_complete"] = DistObject(DepthPercentages(ts.depth.complete, comp_total), false);
  const LatencyDistribution ld = ComputeLatencyDistribution(ts);
  o["latency_ns"] = LatDistObject(ld.nsec);
  o["latency_us"] = LatDistObject(ld.usec);
  o["latency_ms"] = LatDistObject(ld.msec);
  if (spec.continue_on_error != kCoeNone) {
    o["total_err"] = ts.coe_errors;
    o["first_error"] = ts.coe_first_error;
  }
  // fio's units: the target in ns, the window in us. Only for a job that
  // entered its I/O loop (latency_depth is 0 otherwise), as fio.
  if (job.latency_depth != 0) {
    o["latency_depth"] = job.latency_depth;
    o["latency_target"] = spec.latency_target_ns;
    o["latency_percentile"] = spec.latency_percentile;
    o["latency_window"] = spec.latency_window_ns / 1000;
  }
  if (!spec.description.empty()) o["desc"] = spec.description;
  if (job.steadystate.enabled) o["steadystate"] = SteadyStateObject(job);
  o["iobench"] = IobenchJobObject(rec, snapshot);
  return o;
}

}  // namespace

ojson BuildJsonJob(const JobRecord& rec, const GroupTotals& totals, bool plus) {
  return JobObject(rec, totals, plus, rec.result.spec, false);
}

ojson BuildJsonReport(const RunResult& run, const ReportOptions& opts, bool plus) {
  (void)opts;
  ojson root;
  root["fio version"] = VersionString(run);
  root["timestamp"] = run.timestamp_s;
  root["timestamp_ms"] = run.timestamp_ms;
  root["time"] = CtimeString(run.timestamp_s);
  // [global] options of the job file, as fio lists them: the last job's
  // (every job of a file shares them), so with several job files the last
  // job's file's; no key when that file's [global] sets nothing, and {}
  // when it sets only bare flags (`thread`, `group_reporting`), as in fio.
  // fio lists every [global] line of the last file: also one after the
  // last job, or of a last file without jobs, which no JobSpec holds
  // (docs/output.md).
  ojson global = ojson::object();
  bool any_global = false;
  const JobResult* last = nullptr;
  for (const auto& g : run.groups)
    if (!g.jobs.empty()) last = &g.jobs.back();
  if (last != nullptr)
    for (const OptionSetting* s :
         InFioOptionOrder(last->spec.settings, last->spec.ioengine, !last->spec.job_file.empty()))
      if (s->source == OptionSource::kGlobal) {
        any_global = true;
        if (ListedOption(*s)) global[FioOptionName(s->name)] = s->value;
      }
  if (any_global) root["global options"] = std::move(global);
  // fio's "elapsed" is the wall time from the process's start (RunJobs'
  // start_ms) to the report, in seconds, rounded up, the same in every job
  // (two 1 s groups: 3 in both; we wrote each job's own time, rounded down,
  // then the time to the last job's end, a second short of fio's when the
  // jobs took whole seconds).
  uint64_t end_ms = 0;
  for (const auto& g : run.groups)
    for (const auto& j : g.jobs)
      if (j.end_ms >= run.start_ms) end_ms = std::max(end_ms, j.end_ms);
  if (end_ms != 0) end_ms = std::max(end_ms, run.timestamp_ms);
  // at least 1: fio's clock starts before the jobs and runs to the report
  const uint64_t elapsed_s =
      end_ms != 0 ? std::max<uint64_t>(1, (end_ms - run.start_ms + 999) / 1000) : 0;
  const uint64_t eta_s = run.snapshot ? InterimEtaSeconds(run, elapsed_s) : 0;
  ojson jobs = ojson::array();
  for (const auto& g : run.groups) {
    const auto records = RecordsForGroup(g);
    const GroupTotals t = ComputeGroupTotals(g, records);
    for (const auto& r : records) {
      // fio quirk kept for its scripts: a group_reporting record is named
      // after its first job but lists its last job's options.
      jobs.push_back(JobObject(r, t, plus, *r.options_from, run.snapshot));
      jobs.back()["eta"] = eta_s;
      if (end_ms) jobs.back()["elapsed"] = elapsed_s;
    }
  }
  root["jobs"] = std::move(jobs);
  // disk_util holds the disks fio 3.33 lists, so its scripts find what they
  // expect; the others (a loop device's backing disk) go under iobench.
  ojson disks = ojson::array(), other_disks = ojson::array();
  for (const auto& d : run.disks) {
    ojson j;
    j["name"] = d.name;
    j["read_ios"] = d.ios[0];
    j["write_ios"] = d.ios[1];
    j["read_merges"] = d.merges[0];
    j["write_merges"] = d.merges[1];
    j["read_ticks"] = d.ticks[0];
    j["write_ticks"] = d.ticks[1];
    j["in_queue"] = d.time_in_queue;
    j["util"] = d.util;
    (d.fio_lists ? disks : other_disks).push_back(std::move(j));
  }
  if (!disks.empty()) root["disk_util"] = std::move(disks);
  ojson ib;
  ib["context"] = BuildJsonContext(run.context);
  if (!other_disks.empty()) ib["other_disk_util"] = std::move(other_disks);
  ib["interrupted"] = run.interrupted;
  if (run.snapshot) {
    // The run goes on: its figures are partial and its exit code is not
    // known yet. A file whose last record is this one (the run was killed,
    // its output filled up) must not read as a run that ended well.
    ib["interim"] = true;
    ib["partial"] = true;
    ib["exit_code"] = nullptr;
  } else {
    ib["partial"] = run.interrupted && !run.io_complete;
    ib["exit_code"] = run.exit_code;
  }
  ojson point = ojson::object();
  for (const auto& [k, v] : run.point) point[k] = v;
  ib["point"] = std::move(point);
  if (run.repeat_n > 1) ib["repeat"] = {{"run", run.repeat_run}, {"n", run.repeat_n}};
  if (!opts.cmdline.empty()) ib["cmdline"] = opts.cmdline;
  root["iobench"] = std::move(ib);
  return root;
}

namespace {

// Scalars as nlohmann writes them, but floats as fio does ("%f"); invalid
// UTF-8 (job names, file paths) is replaced rather than thrown on. Objects
// and arrays in fio's layout (json_print_object, json_print_array): each
// member on a line of its own, then a newline and the closer at the
// container's indent, so an empty one is "{", an empty line, then "}"
// (`"job options" : {\n\n      }`), never "{}", which scripts that cut a
// block by `sed '/"job options"/,/}/'` read on to the next closer.
void AppendFioJson(const ojson& j, int indent, std::string& out) {
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  const std::string pad(static_cast<size_t>(indent) + 2, ' ');
  const std::string closer_pad(static_cast<size_t>(indent), ' ');
  if (j.is_object()) {
    out += "{\n";
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it != j.begin()) out += ",\n";
      out += pad + ojson(it.key()).dump(-1, ' ', false, kReplace) + " : ";
      AppendFioJson(it.value(), indent + 2, out);
    }
    out += "\n" + closer_pad + "}";
  } else if (j.is_array()) {
    out += "[\n";
    for (size_t i = 0; i < j.size(); ++i) {
      if (i != 0) out += ",\n";
      out += pad;
      AppendFioJson(j[i], indent + 2, out);
    }
    out += "\n" + closer_pad + "]";
  } else if (j.is_number_float() && std::isfinite(j.get<double>())) {
    out += fmt::sprintf("%f", j.get<double>());
  } else {
    out += j.dump(-1, ' ', false, kReplace);
  }
}

}  // namespace

std::string FioJsonText(const ojson& doc) {
  std::string out;
  AppendFioJson(doc, 0, out);
  out += "\n";
  return out;
}

Status WriteJson(const RunResult& run, const ReportOptions& opts, bool plus, std::ostream& out) {
  out << FioJsonText(BuildJsonReport(run, opts, plus));
  if (!out) return Status(Status::Code::kIoError, "writing the JSON report failed");
  return Status::Ok();
}

}  // namespace iobench
