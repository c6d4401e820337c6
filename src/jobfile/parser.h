// Public API of the job-file module: job files and command-line job options
// in, validated JobSpecs out. Also the texts generated from the option table
// (--cmdhelp, --enghelp, --showcmd, --parse-only, docs/options.md).
//
// Owner: jobfile module. Callers: main.cc, sweep/. All functions are
// reentrant; ParseJobs reads files, stdin ("-") and the environment and
// never writes anything or prints: warnings come back in ParseOutput.
//
// Precedence (lowest first): built-in default < job file [global] < job
// section < command-line globals (job options before the first --name, or
// after a --name=global...).
// This deliberately differs from fio, where the job file beats the command
// line: `iobench job.fio --iodepth=64` runs every job at iodepth 64.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench::jobfile {

struct ParseInput {
  std::vector<std::string> job_files;     // "-" = stdin
  std::vector<std::string> cli_job_args;  // raw argv job options in order,
                                          // e.g. {"-filename=/x", "-iodepth", "32", "--name=a"}
  std::vector<std::string> sections;      // --section: keep only these jobs of the job files
  // The keys of --sweep. When one is ioengine, every job's engine at each
  // point is the point's, so an engine option is judged there (SetOption,
  // CheckEngineOptions), not here against the job's own engine: a job file's
  // nowait=1 under the default psync refused --sweep ioengine=pvsync2,io_uring.
  std::vector<std::string> sweep_keys;
};

struct ParseOutput {
  std::vector<JobSpec> jobs;
  std::vector<std::string> warnings;  // complete lines; main prints each once to stderr
  // The job files and the files they include, as read (not stdin), so that
  // main can refuse an --output that would overwrite one of them.
  std::vector<std::string> files_read;
};

// Parses and validates everything. Error messages are complete user-facing
// text: "file:line:col: message", the line echoed and a caret.
Result<ParseOutput> ParseJobs(const ParseInput& in);

// Parses job-file text as if read from `display_name` (includes resolve
// relative to `base_dir`). Used by ParseJobs for stdin and by the fuzzer.
Result<ParseOutput> ParseJobText(const std::string& text, const std::string& display_name,
                                 const std::string& base_dir);

// Sets one option on an already-resolved job, as a --sweep value: full
// validation, units, kb_base of the job, engine option checks, with the
// command line's precedence. Appends to job->settings (and ->unimplemented)
// with file "<sweep>"; an error about the value starts "<sweep>: " (the
// sweep puts the argument there) and other errors name it "(<sweep>)".
// `warnings` (when not null) gets what the parser warns of the value, as
// "<sweep>: warning: option 'runtime': ...".
Status SetOption(JobSpec* job, const std::string& name, const std::string& value,
                 std::vector<std::string>* warnings = nullptr);

// Every engine option the job sets itself (or the command line does)
// against the job's engine; one its [global] gave was checked against the
// engine of its section when the job was parsed. SetOption ends with it.
Status CheckEngineOptions(const JobSpec& job);

// For each of job.settings, whether it is an engine option a global section
// ([global], or the command line's before the first --name) gave that the
// job does not use: the job's engine is not the one it was given under
// (JobSpec::global_engines), or a later global section with another
// engine's options let go of it. Its value is not in the JobSpec (the
// engine's default is), as in fio; its record stays, as fio's JSON still
// lists it under "global options".
std::vector<bool> DroppedEngineOptions(const JobSpec& job);

// True for any option iobench knows (incl. aliases).
bool IsJobOption(const std::string& name);
// True when the option cannot be given bare (`-iodepth` alone is an error).
bool OptionTakesValue(const std::string& name);
// Whether `-name next` on the command line takes `next` as the value, as fio
// does: always for valued options; for flags only when `next` is 0/1 (and
// true/false/yes/no/on/off), so `-direct 1` works and `-thread job.fio` keeps
// job.fio a job file; for write_*_log when `next` does not start with '-';
// for fio options iobench lacks when `next` does not start with '-'.
bool NextArgIsValue(const std::string& name, const std::string& next);

std::string OptionsMarkdown();  // docs/options.md, generated from the table
// --cmdhelp text ("" or "all" = all); an unknown option is an error (for stderr).
Result<std::string> CmdHelp(const std::string& option);
// --enghelp[=ENGINE[,OPTION]]; an unknown engine or option is an error (for stderr).
Result<std::string> EngHelp(const std::string& spec);
// --showcmd. `tool_options` ("--readonly", or empty) goes right after
// "iobench": the tool options that change which jobs may run.
std::string ShowCmd(const std::vector<JobSpec>& jobs, std::string_view tool_options = {});
std::string ParseOnlyJson(const std::vector<JobSpec>& jobs);  // every option: value and source
// --parse-only, human text. `files_of` gives the paths the run opens for a
// job (sys::JobFilePaths, which the jobfile layer does not reach); without
// it, filename= is shown as written and generated names as their template.
// It gives the first `shown` paths and sets *total to the number of all.
using JobFilesFn =
    std::function<std::vector<std::string>(const JobSpec&, size_t shown, size_t* total)>;
std::string ParseOnlySummary(const std::vector<JobSpec>& jobs, const JobFilesFn& files_of = {});

// ---- command-line splitting (used by main.cc; testable without CLI11) ----

enum class ToolArg { kNone, kRequired, kOptional };  // kOptional: only as --opt=value
struct ToolOptionSpec {
  std::string name;  // without dashes, e.g. "output-format"
  ToolArg arg = ToolArg::kNone;
  std::string help;
};

// The one list of tool options (fio's names, plus ours), in --help's
// order. SplitArgs uses the names and arities; main.cc registers the same
// rows with CLI11; SuggestCommandLineOption suggests them.
const std::vector<ToolOptionSpec>& ToolOptions();

// "Did you mean" for a name given on the command line, which takes job
// options and tool options: the nearer of the two (SuggestOption), a tool
// option with its dashes ("--output-format"), a job option bare ("offset");
// "" when none is near. With `prefixes` false, only a name within the edit
// distance (not one that merely begins with `name`).
std::string SuggestCommandLineOption(const std::string& name, bool prefixes = true);

struct SplitArgsResult {
  std::vector<std::string> tool_args;  // normalised to "--name" / "--name=value"
  std::vector<std::string> job_args;   // for ParseInput::cli_job_args
  std::vector<std::string> job_files;  // plain arguments and "-"
};

// Splits argv (without argv[0]) into tool options (the fixed set `tools`,
// single or double dash), job options (everything else starting with '-',
// plus its value in the next argument when NextArgIsValue) and job files.
// fio tool options iobench lacks (--minimal, --debug, ...) are refused here.
Result<SplitArgsResult> SplitArgs(const std::vector<std::string>& argv,
                                  const std::vector<ToolOptionSpec>& tools);

}  // namespace iobench::jobfile
