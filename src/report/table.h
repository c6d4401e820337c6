// Tables people paste into a mailing list (`--output-format=table`) and delta
// tables against a baseline (`--compare`), rendered from fio-schema JSON.
//
// Ownership: the report module. Input is a fio-schema JSON document, not a
// RunResult, on purpose: the same code renders iobench's own results (after
// the JSON writer), a combined sweep document (sweep::CombineSweepResults)
// and JSON files written by fio 3.x. Fields read: "jobs"[] with "jobname",
// "job options", "read"/"write"/"trim" {iops, bw_bytes, bw, total_ios,
// io_bytes, runtime, clat_ns/lat_ns/slat_ns {mean, N, percentile}},
// usr_cpu, sys_cpu, elapsed; iobench additions: job "iobench" {"point",
// "cpu_per_io_us", "repeat", "member_rw", "member_options"}, top-level
// "global options" and "iobench" {"sweep": {"keys"}, "context"}. Missing
// fields show as "-".
//
// Thread-safety: pure functions; any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "iobench/status.h"

namespace iobench {

enum class TableMetric {
  kIops,     // I/O per second, formatted 12.9k / 241k / 1.20M
  kBw,       // MiB/s (bw_bytes / 2^20)
  kBwKib,    // KiB/s (bw_bytes / 1024): fio's "bw", seed 002's "Bw (KiB/sec)"
  kLatMean,  // µs, total latency mean
  kClatP50,  // µs, completion latency percentiles
  kClatP99,
  kClatP999,
  kLatP50,  // µs, total latency percentiles (fio: lat_percentiles=1)
  kLatP99,
  kSlatMean,  // µs
  kCpuPerIo,  // µs of CPU (user+system) per I/O, per job
  kUsrCpu,    // percent of one CPU, per job
  kSysCpu,
};

enum class TableStyle { kPlain, kMarkdown, kAscii, kCsv };

// Parses "iops", "clat_p99", ... / "plain", "ascii", ... Errors list the
// accepted names.
Result<TableMetric> ParseTableMetric(const std::string& name);
Result<std::vector<TableMetric>> ParseTableMetrics(const std::string& comma_list);
Result<TableStyle> ParseTableStyle(const std::string& name);
const char* TableMetricName(TableMetric m);  // "clat_p99"
// "IOPS", "bandwidth (MiB/s)", "clat p99 (µs)", ... for captions.
std::string TableMetricTitle(TableMetric m);
// True for metrics measured per job rather than per direction (CPU).
bool IsPerJobMetric(TableMetric m);

struct TableOptions {
  std::vector<TableMetric> metrics = {TableMetric::kIops};  // one table each
  TableStyle style = TableStyle::kPlain;
  // Override which swept keys form rows and columns (default: the first and
  // second --sweep keys). Other swept keys split the output into one table
  // per combination of their values.
  std::string row_key;
  std::string col_key;
  bool caption = true;  // the title and one-line job description
  // With --repeat information (iobench.repeat), cells read "241k (235k-250k)":
  // the median and the min-max of the runs. Not in csv (cells stay numbers).
  bool show_range = true;
  // Compare: the column headers of the two sides (seed 004: "bio(base)").
  std::string base_label = "base";
  std::string new_label = "new";
};

// Renders every table for `doc`: for each metric, for each direction with
// I/O (read, write, trim; one table per direction, so a randrw job gives a
// read and a write table; when every job does I/O in one direction only, one
// table holds each job's own direction, so rw=read,write sweeps stay in one
// table). Layout: no sweep -> one row per job (job name, the job options
// that differ between jobs, the metric); one swept key -> rows are its
// values, columns the jobs; two or more -> rows the first key, columns the
// second, further keys and several job names split tables. Tables are
// separated by a blank line; the output ends with a newline.
Result<std::string> RenderTables(const nlohmann::json& doc, const TableOptions& opts);

// Delta tables, for each metric and direction: `| job/point | base | new |
// delta |` with delta = (new - base) / base * 100, two decimals. Jobs are
// matched by job name and sweep point; rows follow the base document; jobs
// found on one side only are listed after the tables. With two or more swept
// keys the tables are split by the first key's value (its value heads the
// first column, as in seed 004). When both sides carry iobench.repeat
// min/max for the metric and the ranges overlap, the delta is suffixed " ~"
// (inside the run-to-run noise) and a footnote says so.
Result<std::string> RenderCompare(const nlohmann::json& base, const nlohmann::json& neu,
                                  const TableOptions& opts);

// The same comparison as data, for the JSON document of a run made now
// (iobench.compare): {"base": label, "new": label, "rows": [{"job",
// "point", "metric", "direction" (not for CPU metrics), "base", "new",
// "delta_pct" (null without a positive base), "noise"}], "only_in_base":
// [{"job", "point"}], "only_in_new": [...], "warnings": [...], "notes":
// [...] (the lines under RenderCompare's tables)}. cpu_per_io of a side
// counting kernel helper threads (iobench's) against one that does not
// (fio's) is compared by the own threads' figure on both sides, which
// "notes" says. Figures in the table's units
// (bw MiB/s, bw_kib KiB/s, latency µs); a missing figure is null. Rows follow the base,
// for each metric and direction view as RenderCompare's tables. Call after
// RenderCompare succeeded (it refuses documents with no job in common).
nlohmann::ordered_json CompareJson(const nlohmann::json& base, const nlohmann::json& neu,
                                   const TableOptions& opts);

// Reads an iobench or fio 3.x JSON result file. Text before the JSON (fio's
// warnings) and after it (other output formats) is skipped: the document is
// the last balanced {...} starting at a line's first '{' that reads as JSON with
// "jobs" ('{' lines of other formats, e.g. a job named "{x}", are skipped;
// --status-interval files hold interim documents first). Errors name the
// file; a document without a "jobs" array is refused, and so is one with a
// figure the tables read that is neither a number nor null ("iops": "abc",
// naming the job and the field).
Result<nlohmann::json> LoadResultsJson(const std::string& path);
// The same on text already in memory (`what` names it in errors).
Result<nlohmann::json> ParseResultsJson(const std::string& text, const std::string& what);

// --- helpers shared with plot.cc and sweep's MergeRepeats (own namespace:
// names like FormatIops are likely elsewhere in the project) ---
namespace table {

// Number formatting as fio users write it.
std::string FormatIops(double iops);  // 12.9k, 241k, 1.20M, 602, 9.50; past 999P 1.00e+18
std::string FormatFixed3(double v);   // 3 significant digits, no suffix; 1.00e+09 from 1e9
std::string FormatDelta(double pct);  // "137.57", "-3.85"; "1.00e+09" from 1e9
// A caption's run times, shortest to longest (ms): "14-567 ms", "1.5-10.0 s",
// each end in its own unit when one is under a second and the other not
// ("23 ms-1.1 s"), "10 s each" when they agree and `several` jobs ran.
std::string FormatRunTimes(double lo_ms, double hi_ms, bool several);

// Directions with I/O in a job ("read", "write", "trim").
std::vector<std::string> JobDirections(const nlohmann::json& job);
// The metric's value in table units (see TableMetric) for one job and
// direction ("read"...; ignored for per-job metrics), or nullopt when the
// job does not carry it.
std::optional<double> JobMetric(const nlohmann::json& job, const std::string& dir, TableMetric m);
// A job stopped by a signal before its end (jobs[].iobench.interrupted).
bool Interrupted(const nlohmann::json* job);
// The error a job ended with (jobs[].error, fio's errno), 0 when none.
int JobError(const nlohmann::json* job);
// The job objects of a document ("jobs"[] entries that are objects).
std::vector<const nlohmann::json*> AllJobs(const nlohmann::json& doc);
// The direction views tables use: {nullopt} ("each job's own direction")
// when no job does I/O in more than one direction, otherwise each direction
// with I/O in some job.
std::vector<std::optional<std::string>> DirectionViews(
    const std::vector<const nlohmann::json*>& jobs);
// The metric over several job entries of one cell (fio's numjobs clones
// without group_reporting share a name): iops and bw are fio's group line,
// their I/Os and io_bytes over the longest runtime (bw whole bytes/s, as
// fio's agg_bw; each entry's own rate added up when one lacks io_bytes,
// total_ios or runtime), CPU percent is fio's group figure (each entry's
// weighted by its job_runtime: their CPU time over their summed run
// times; the mean without job_runtime), means are weighted by I/O
// count, percentiles show the largest (JSON does not carry enough to merge
// them). dir nullopt: each job's own direction
// (jobs with other than one direction are skipped; per-job metrics, CPU,
// take every job whatever its directions). A job whose rw= does not ask for
// `dir` and that did no I/O in it has no figure there (a rw=write job in the
// read table is "-", not 0); `doc` supplies the "global options" its rw may
// come from (without it, only the job's own options are read, and a job
// whose rw is not known keeps its 0). Clones merged over --repeat runs
// (iobench.repeat.clones, when `jobs` are exactly them): the median of each
// run's figure of them, which sweep::MergeRepeats made with this function.
std::optional<double> AggregateMetric(const std::vector<const nlohmann::json*>& jobs,
                                      const std::optional<std::string>& dir, TableMetric m,
                                      const nlohmann::json* doc = nullptr);
// The directions ("read", "write", "trim") a job's rw= asks for, as fio
// reads it (fio's default, read, when neither the job's nor the document's
// options set it); nullopt when it cannot be told (no `doc` and no rw of
// the job's own, an rw fio does not know, a replayed iolog).
std::optional<std::set<std::string>> RwDirections(const nlohmann::json* doc,
                                                  const nlohmann::json& job);
// The label each job is shown and matched by, parallel to `jobs`: its job
// name, or, when jobs of that name ran in more than one group of one point
// (separate jobs sharing a name: a read phase and a stonewalled write phase
// both called "x"), the name and the group, "x (g=1)". The group is counted
// from the point's first group, so a job has the same label at every point
// of a sweep. Clones of one job (numjobs) share a label; separate jobs of
// one name in one group are numbered, "x (#2)" (a clone is an entry with
// iobench.clone > 0 or, in fio's JSON, its job's "job options").
std::vector<std::string> JobLabels(const std::vector<const nlohmann::json*>& jobs,
                                   const std::vector<std::string>& keys);
// A job's sweep point as ordered (key, value) pairs, keys in `keys` order.
std::vector<std::pair<std::string, std::string>> JobPoint(const nlohmann::json& job,
                                                          const std::vector<std::string>& keys);
// The swept keys of a document, in --sweep order (iobench.sweep.keys, else
// the union of the jobs' point keys).
std::vector<std::string> SweepKeys(const nlohmann::json& doc);
// The points of a sweep that were not run (iobench.sweep.not_run), each
// line with why: "not run (--sweep-cmd failed with exit code 1 at point
// iodepth=2; the sweep stopped there): iodepth=2; iodepth=4"; a point
// refused at its set-up gets its own line. Empty for a whole sweep.
std::vector<std::string> NotRunLines(const nlohmann::json& doc);
// "4k randread, buffered, io_uring, ext4 on nvme0n1, 6.18.0, 10 s each":
// the options all jobs share (swept keys left out) and the context. Targets
// on several file systems or devices are each named ("tmpfs / ext4 on vda");
// RenderTables says under the tables which path is on which.
std::string DescribeJobs(const nlohmann::json& doc);
// The same of `shown` only (all jobs when empty): the jobs of one table
// among several (a table per split key value or per job). The options they
// share, whether they all run a sync engine (no iodepth), their targets and
// run time (`10 s each`, `2-27 ms`, `median of 3 runs`) are theirs; the
// swept keys and the kernel stay the document's.
std::string DescribeJobs(const nlohmann::json& doc,
                         const std::vector<const nlohmann::json*>& shown);

}  // namespace table

}  // namespace iobench
