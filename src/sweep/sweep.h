// Sweeps: one job run over many points (`--sweep iodepth=1..128:x2 --sweep
// force_async=0,1`), the shell hooks run before each point (`--sweep-cmd`),
// the combined JSON of all points, and the `--repeat=N` median helpers.
//
// Ownership: the sweep module (src/sweep/). It never parses job files and
// never runs I/O: option values reach a JobSpec through an injected setter
// (main.cc passes jobfile::SetOption), and results arrive as fio-schema JSON
// documents (the JSON writer's output, or fio's own). That keeps this module
// buildable and testable apart from the parser and the run core.
//
// The order main.cc follows (docs/sweep.md shows it):
//   ExpandSweeps -> for each point: RunHook, ApplyPoint, run (RepeatCount
//   times, MergeRepeats), render to fio JSON -> CombineSweepResults ->
//   RenderTables / RenderCompare / WritePlot (src/report/).
//
// Thread-safety: plain functions on values; call from the main thread
// (RunHook forks a shell and waits for it).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench::sweep {

// Result documents keep fio's key order (the JSON writer's ordered_json), so
// that a sweep's document is written in fio's layout like a single run's.
using ojson = nlohmann::ordered_json;

// One swept key with its values, in the order they were written.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

// One point of the cartesian product: (key, value) in --sweep order.
struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values;

  // The value of `key`, or nullptr when the point does not sweep it.
  const std::string* Find(const std::string& key) const;
  // "iodepth=32 force_async=1" (empty for the single point of no sweep).
  std::string Label() const;
};

// Sets one job option by name on a JobSpec, with the parser's checks and
// unit conversions, appending to `warnings` (when not null) what the parser
// warns of the value (a unit fio reads otherwise). main.cc passes
// jobfile::SetOption.
using OptionSetter =
    std::function<Status(JobSpec*, const std::string& name, const std::string& value,
                         std::vector<std::string>* warnings)>;
// True when `name` is a job option (iodepth, bs, ...). A sweep key for which
// it is false (setra, scheduler, ...) is only passed to --sweep-cmd hooks.
using IsJobOption = std::function<bool(const std::string& name)>;

// The bytes a size suffix of a range bound stands for ("k", "KiB", "m",
// ...; case as typed), as the jobs read it: their kb_base decides (fio's
// default 1024: k = 1024, KiB = 1000; kb_base=1000: k = 1000, KiB = 1024).
// An error when the jobs read it differently (jobs with different
// kb_base). nullptr: no suffix is read (an error naming it).
using SizeUnit = std::function<Result<uint64_t>(const std::string& suffix)>;

// A --sweep argument as errors quote it: "--sweep KEY=VALUES", control
// characters escaped, a long one cut to its first 80 characters and its
// length.
std::string QuoteSweepArg(const std::string& arg);

// Parses one `--sweep` argument: `KEY=V1,V2,...`; each item may be a numeric
// range `A..B` (step +1), `A..B:+S` (add S) or `A..B:xF` (multiply by F >= 2),
// with optional k/m/g/t/p suffixes read by `unit` (`bs=4k..64k:x2`), the
// values written back with the bounds' suffix style. `\,` puts a literal
// comma in a value. Errors name the argument and the fault.
Result<SweepAxis> ParseSweepArg(const std::string& arg, const SizeUnit& unit = nullptr);

// The option a key names: its canonical name for an alias ("timeout" ->
// "runtime"), else the key itself. main.cc passes the option table's lookup.
using CanonicalName = std::function<std::string(const std::string& name)>;

// A value as the option reads it, for telling two spellings of one value
// apart ("1" and "01" are both iodepth 1): the same key for the same
// value. main.cc passes the option table's number parsing; values of an
// option that is no number, or that do not parse, are kept as written.
using ValueKey = std::function<std::string(const std::string& key, const std::string& value)>;

// Splits a comma list, `\,` standing for a comma inside an item: a
// --sweep's values (`bs=4k\,8k,16k`) and --compare-labels.
std::vector<std::string> SplitValues(const std::string& s);

// Parses every --sweep argument (a key may appear once, under any of its
// names when `canonical` is given; the points then hold each key under its
// canonical name, bs for blocksize=) and returns the cartesian product. The
// first --sweep key varies slowest, the last fastest, like nested shell
// loops written in the same order. No arguments: one empty point (a plain
// run).
// With `value_key`, two values of one key that read as the same value
// (iodepth=1,01; bs=4k,4096) are refused: the point would run twice.
// Range bounds are read with `unit` (see ParseSweepArg).
Result<std::vector<SweepPoint>> ExpandSweeps(const std::vector<std::string>& sweep_args,
                                             const CanonicalName& canonical = nullptr,
                                             const ValueKey& value_key = nullptr,
                                             const SizeUnit& unit = nullptr);
// The same product from already parsed axes.
std::vector<SweepPoint> ExpandAxes(const std::vector<SweepAxis>& axes);

// Copies `base` and sets the point's job-option keys on every job through
// `set`. Keys for which is_job_option is false are skipped (hooks only). If
// the setter did not record the setting in JobSpec::settings (so that "job
// options" in JSON shows it), an OptionSetting with source kCommandLine and
// file "<sweep>" is appended. Errors read "--sweep iodepth=abc: <setter's>",
// a leading "<sweep>: " of the setter's (the place jobfile::SetOption names)
// left out: the argument names it. The setter's warnings go to `warnings`
// (when not null) once each, their "<sweep>" place replaced by the argument
// as the errors' is ("--sweep runtime=2sec: warning: ...").
Result<std::vector<JobSpec>> ApplyPoint(const std::vector<JobSpec>& base, const SweepPoint& point,
                                        const OptionSetter& set, const IsJobOption& is_job_option,
                                        std::vector<std::string>* warnings = nullptr);

// Expands a --sweep-cmd template for a point: `{KEY}` is KEY's value, `{}`
// the value of the first key that is not a job option (the first key when
// is_job_option is null or every key is a job option). `${...}` and braces
// around anything that is not a plain word (awk '{print $1}') are left alone.
// Values other than [A-Za-z0-9_./:=,+@%-] are single-quoted for the shell.
// `{WORD}` naming no sweep key is an error (a typo would otherwise run);
// with `canonical`, `{ALIAS}` names the key swept under its option name.
// `used` (may be null) receives the keys whose values the command holds,
// each once, in point order: a key that is no job option and that the hook
// does not use changes nothing at all (a typo: `iodeph`).
Result<std::string> ExpandHookCommand(const std::string& cmd_template, const SweepPoint& point,
                                      const IsJobOption& is_job_option = nullptr,
                                      const CanonicalName& canonical = nullptr,
                                      std::vector<std::string>* used = nullptr);

// Runs the expanded hook with /bin/sh -c, stdin from /dev/null, stdout and
// stderr captured together. Appends to *log (may be null):
//   "# point: setra=0 iodepth=1\n$ blockdev --setra 0 /dev/nvme0n1\n<output>"
// and, on failure, "# exit code N\n". `which_run` ("repeat 2/3", may be empty)
// names the run the hook prepares, after the point in the log and the error. A non-zero exit (or
// death by a signal, reported as 128+signo) returns an error naming the command, the point, the
// exit code and the output's last lines; *exit_code (may be null) receives
// the code (0 on success) so that iobench can exit with it. Errors from the
// template return kInvalidArgument, a failing hook kIoError.
Status RunHook(const std::string& cmd_template, const SweepPoint& point, std::string* log,
               const IsJobOption& is_job_option = nullptr, int* exit_code = nullptr,
               const CanonicalName& canonical = nullptr, const std::string& which_run = "");

// The point as a JSON object {"iodepth": "32", ...} (values as strings, as
// written on the command line).
ojson PointToJson(const SweepPoint& point);

// One document for the whole sweep: the first point's top level ("fio
// version", "global options", "iobench" context, ...), "jobs" of every point
// concatenated in point order, each job carrying "iobench": {"point": {...}}
// (other "iobench" fields it had are kept), group ids renumbered so that each
// point's groups stay distinct, the context's targets of every point (each
// distinct one once, with "points": where it was measured; a swept
// filename= ran on several file systems), "disk_util" of every point (per
// device: counters summed, util the busiest point's; each point's own list
// in "iobench.sweep.disk_util"), and top-level "iobench": {"sweep": {"keys":
// [...in --sweep order...], "points": N}}. `hook_logs`, when given (one per
// point, as RunHook wrote them), is stored as "iobench.sweep.hook_log" so the
// hook output is kept without writing a file the user did not name.
ojson CombineSweepResults(const std::vector<std::pair<SweepPoint, ojson>>& per_point_fio_json,
                          const std::vector<std::string>* hook_logs = nullptr);

// --repeat=N: merges N fio-schema documents of the same point (same jobs in
// the same order) into one. Each job's figures are the median over the runs
// (even N: the mean of the two middle values) of: per direction iops, bw,
// bw_bytes, io_bytes, io_kbytes, runtime, total_ios, {clat,lat,slat}_ns mean
// and percentiles; per job usr_cpu, sys_cpu and iobench.cpu_per_io_us. The
// spread goes to "iobench": {"repeat": {"n": N, "min": {...}, "max": {...}}}
// where min/max are {"read": {"iops": .., "bw": .., "lat_mean": ..,
// "clat_p99": .., ...}, ..., "job": {"usr_cpu": .., "cpu_per_io": ..}} keyed
// by --table-metric names in the table's units (bw MiB/s, latency µs), which
// is what RenderCompare reads to mark differences inside the noise.
// numjobs clones (jobs of one name and group) each also get "clones":
// {"jobs": count, "median", "min", "max"} keyed the same, of each run's
// figure of them together (table::AggregateMetric): a table's cell of them.
// A run cut short by a signal (top-level iobench.interrupted) is left out
// of the medians and of "n" when another run is whole; the merged document
// is then marked interrupted (top level and every job) with the worst
// exit_code of the runs.
// Errors: no runs, or runs whose job lists differ (count or names).
Result<ojson> MergeRepeats(const std::vector<ojson>& runs);

// Median of values (even count: mean of the two middle ones); 0 when empty.
double Median(std::vector<double> values);

}  // namespace iobench::sweep
