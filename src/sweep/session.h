// A session: everything one iobench invocation runs and reports, after the
// command line is parsed. One run of the jobs, or a sweep (--sweep), each
// point repeated --repeat times; then the reports in every requested format,
// tables, a compare against a baseline and a plot.
//
// Lives in sweep/ because it is the one place that both runs (run/) and
// formats (report/); main.cc only parses the command line and calls it.
// Thread-safety: main thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "iobench/job.h"
#include "run/coordinator.h"
#include "sweep/sweep.h"

namespace iobench {

struct SessionOptions {
  std::vector<std::string> formats = {"normal"};  // normal, terse, json, json+, table
  int terse_version = 3;                          // --terse-version (2..5)
  std::string output;                             // --output file; "" = stdout
  std::string cmdline;                            // for JSON "global options"
  std::vector<std::string> job_files;
  // Every job file read, includes too ("-": standard input): RunOptions::job_files.
  std::vector<std::string> files_read;
  bool readonly = false;
  std::string eta = "auto";         // --eta
  uint64_t eta_interval_ms = 1000;  // --eta-interval
  uint64_t eta_newline_ms = 0;      // --eta-newline
  // Interim reports and the aggregate bandwidth log (docs/status.md, docs/logs.md).
  uint64_t status_interval_ns = 0;  // --status-interval; 0: only on SIGUSR1
  int64_t stuck_timeout_ms = -1;    // --stuck-timeout: both watchdog grace periods; -1: defaults
  std::string status_interval_mode = "cumulative";  // --status-interval-mode
  bool bandwidth_log = false;                       // --bandwidth-log
  // Sweeps and tables (docs/sweep.md).
  std::vector<std::string> sweeps;  // --sweep KEY=VALUES (repeatable)
  std::string sweep_cmd;            // --sweep-cmd
  uint32_t repeat = 1;              // --repeat
  std::string table_metric = "iops";
  std::string table_style = "plain";
  // Given on the command line: refused when nothing reads them (no table,
  // comparison or plot is written), as other option misuse is.
  bool table_metric_given = false;
  bool table_style_given = false;
  std::string table_rows;            // --table-rows KEY ("" = the first swept key)
  std::string table_cols;            // --table-cols KEY ("" = the second)
  std::string compare_labels;        // --compare-labels BASE,NEW ("" = the file names)
  std::vector<std::string> compare;  // --compare BASE.json [NEW.json]
  std::string plot;                  // --plot FILE.svg|png
  sweep::OptionSetter set_option;
  sweep::IsJobOption is_job_option;
  sweep::CanonicalName canonical_option;  // alias -> option name
  // The closest option name to a misspelled one ("" if none): a swept key
  // that is no job option and reaches no hook is refused with it.
  std::function<std::string(const std::string&)> suggest_option;
  // The tool option a key names ("--eta" for eta, "--status-interval" for
  // status_interval), "" for none: such a key cannot be swept.
  std::function<std::string(const std::string&)> tool_option;
  // A value as the option reads it with a kb_base (4k: 4096, or 4000
  // with kb_base=1000), and the bytes of a size suffix with a kb_base
  // (jobfile::SizeMultiplier): the sweep reads values and range bounds as
  // the jobs will.
  std::function<std::string(const std::string& key, const std::string& value, uint32_t kb_base)>
      option_value_key;
  std::function<std::optional<uint64_t>(std::string_view suffix, uint32_t kb_base)> size_unit;
};

// Runs the jobs and writes every report. Returns the process exit code:
// 0 ok, 1 a job failed, 2 bad input (nothing ran), 130 interrupted, or a
// failing --sweep-cmd hook's exit code.
int RunSession(const std::vector<JobSpec>& jobs, const SessionOptions& opts);

// --parse-only: every check RunSession makes before it runs anything (the
// report options, --compare's base, the sweep values and hook), then
// CheckJobs with `check` on the jobs of every sweep point.
Status CheckSession(const std::vector<JobSpec>& jobs, const SessionOptions& opts,
                    const RunOptions& check);

// The points RunSession would run, each with its jobs (the point's values
// applied), after the checks PlanSession makes before a run (the same
// errors). One empty point without --sweep. For --showcmd and --parse-only,
// which show what each point runs.
Result<std::vector<std::pair<sweep::SweepPoint, std::vector<JobSpec>>>> PlanPoints(
    const std::vector<JobSpec>& jobs, const SessionOptions& opts);

// What the job parser warns of the --sweep values (a time unit or size
// prefix fio 3.33 reads otherwise), once each, as "--sweep runtime=2sec:
// warning: ...": for stderr before the run, beside the job file's. None when
// the sweep cannot be planned (the run refuses it in its own words).
std::vector<std::string> SweepWarnings(const std::vector<JobSpec>& jobs,
                                       const SessionOptions& opts);

// --compare BASE.json NEW.json with nothing to run.
int CompareFiles(const SessionOptions& opts);

// Writes `text` to stdout (after what stdio holds) and flushes it. A failed
// write (a full disk, a closed pipe with SIGPIPE ignored) is an error on
// stderr ("cannot write `what` to stdout: ...") and returns false: output
// the user never receives must not end in exit 0. A non-blocking stdout (a
// parent's O_NONBLOCK pipe) is waited for with poll(), not failed (EAGAIN).
bool WriteStdout(const std::string& text, const std::string& what = "the report");
// Writes all of `text` to the --output file `path` (truncating it first, or
// appending); on failure prints why on stderr ("cannot write --output=PATH:
// No space left on device") and returns false.
bool WriteOutputFile(const std::string& path, const std::string& text, bool append);

}  // namespace iobench
