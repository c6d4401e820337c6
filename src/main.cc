// iobench command line: `iobench [tool options] [job options] [jobfile ...]`.
//
// argv is pre-split (jobfile::SplitArgs): tool options, a fixed set listed
// once in jobfile::ToolOptions(), go to CLI11; everything else starting with
// '-' is a job option handed in order to jobfile::ParseJobs, and plain
// arguments are job files. CLI11 lives only in this file.
//
// Exit codes: 0 ok, 1 a job failed, 2 bad usage or job file (nothing ran).
// Diagnostics go to stderr, never into --output.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "iobench/engine.h"
#include "iobench/job.h"
#include "jobfile/lexer.h"
#include "jobfile/options.h"
#include "jobfile/parser.h"
#include "jobfile/units.h"
#include "report/common.h"
#include "report/interim.h"
#include "report/plot.h"
#include "report/status_line.h"
#include "report/table.h"
#include "run/coordinator.h"
#include "run/log_safety.h"
#include "sweep/session.h"
#include "sys/job_paths.h"
#include "sys/safety.h"
#include "sys/strings.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;  // as a report that could not be written
constexpr int kExitUsage = 2;

// Everything the tool options say; filled by CLI11.
struct Cli {
  std::string output;                    // --output=FILE ("" = stdout)
  std::string output_format = "normal";  // comma list: normal,terse,json,json+,table
  std::vector<std::string> formats;      // output_format split and checked
  bool minimal = false;                  // --minimal: fio's --output-format=terse
  bool append_terse = false;             // --append-terse: terse as well
  int terse_version = 3;                 // --terse-version: 2, 3, 4 or 5
  std::vector<std::string> sections;     // --section (repeatable)
  bool parse_only = false;
  bool showcmd = false;
  bool cmdhelp = false;
  std::string cmdhelp_option;
  bool enghelp = false;
  std::string enghelp_spec;
  bool version = false;
  bool help = false;
  bool list_engines = false;
  bool readonly = false;
  bool warnings_fatal = false;  // --warnings-fatal: a parser warning stops the run
  uint32_t max_jobs = 0;        // --max-jobs: accepted and ignored, as fio 3.33 does
  std::string alloc_size;       // --alloc-size: fio's shared memory pool; nothing to size here
  std::string eta = "auto";
  std::string eta_interval;  // --eta-interval=TIME (seconds by default, as in fio)
  std::string eta_newline;   // --eta-newline=TIME (seconds by default, as in fio)
  uint64_t eta_interval_ms = 1000;
  uint64_t eta_newline_ms = 0;
  std::string status_interval;  // --status-interval=TIME (seconds by default)
  std::string status_interval_mode = "cumulative";
  uint64_t status_interval_ns = 0;  // status_interval parsed
  std::string stuck_timeout;        // --stuck-timeout=TIME (seconds by default)
  int64_t stuck_timeout_ms = -1;    // stuck_timeout parsed; -1: the defaults
  bool bandwidth_log = false;
  std::vector<std::string> sweeps;
  std::string sweep_cmd;
  uint32_t repeat = 1;
  std::string table_metric = "iops";
  std::string table_style = "plain";
  bool table_metric_given = false, table_style_given = false;  // on the command line
  std::string table_rows;
  std::string table_cols;
  std::string compare;
  std::vector<std::string> compare_given;  // every --compare, to refuse a second
  std::string compare_labels;
  std::string plot;
};

void BuildApp(CLI::App& app, Cli& cli) {
  app.set_help_flag();  // our own --help, so the usage can explain job options
  app.allow_extras(false);
  auto desc = [](const char* name) {
    for (const auto& t : iobench::jobfile::ToolOptions())
      if (t.name == name) return t.help;
    return std::string();
  };
  app.add_option("--output", cli.output, desc("output"));
  app.add_option("--output-format", cli.output_format, desc("output-format"));
  app.add_flag("--minimal", cli.minimal, desc("minimal"));
  app.add_flag("--append-terse", cli.append_terse, desc("append-terse"));
  app.add_option("--terse-version", cli.terse_version, desc("terse-version"));
  app.add_option("--section", cli.sections, desc("section"));
  app.add_flag("--parse-only", cli.parse_only, desc("parse-only"));
  app.add_flag("--showcmd", cli.showcmd, desc("showcmd"));
  app.add_option("--cmdhelp", cli.cmdhelp_option, desc("cmdhelp"))->expected(0, 1);
  app.add_option("--enghelp", cli.enghelp_spec, desc("enghelp"))->expected(0, 1);
  app.add_flag("--version", cli.version, desc("version"));
  app.add_flag("--help", cli.help, desc("help"));
  app.add_flag("--list-engines", cli.list_engines, desc("list-engines"));
  app.add_flag("--readonly", cli.readonly, desc("readonly"));
  app.add_flag("--warnings-fatal", cli.warnings_fatal, desc("warnings-fatal"));
  app.add_option("--max-jobs", cli.max_jobs, desc("max-jobs"));
  app.add_option("--alloc-size", cli.alloc_size, desc("alloc-size"));
  app.add_option("--eta", cli.eta, desc("eta"));
  app.add_option("--eta-interval", cli.eta_interval, desc("eta-interval"));
  app.add_option("--eta-newline", cli.eta_newline, desc("eta-newline"));
  app.add_option("--status-interval", cli.status_interval, desc("status-interval"));
  app.add_option("--status-interval-mode", cli.status_interval_mode, desc("status-interval-mode"));
  app.add_option("--stuck-timeout", cli.stuck_timeout, desc("stuck-timeout"));
  app.add_flag("--bandwidth-log", cli.bandwidth_log, desc("bandwidth-log"));
  app.add_option("--sweep", cli.sweeps, desc("sweep"));
  app.add_option("--sweep-cmd", cli.sweep_cmd, desc("sweep-cmd"));
  // One message for a bad number and one out of range ("abc" was "not in
  // range 1 to 1000").
  app.add_option("--repeat", cli.repeat, desc("repeat"))
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            unsigned n = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec == std::errc() && end == v.data() + v.size() && n >= 1 && n <= 1000) return "";
            return "'" + v + "' is not a whole number from 1 to 1000";
          },
          "1..1000"));
  app.add_option("--table-metric", cli.table_metric, desc("table-metric"));
  app.add_option("--table-style", cli.table_style, desc("table-style"));
  app.add_option("--table-rows", cli.table_rows, desc("table-rows"));
  app.add_option("--table-cols", cli.table_cols, desc("table-cols"));
  app.add_option("--compare", cli.compare_given, desc("compare"));
  app.add_option("--compare-labels", cli.compare_labels, desc("compare-labels"));
  app.add_option("--plot", cli.plot, desc("plot"));
  // fio keeps the last of a repeated option (`--output=a --output=b` writes
  // to b); CLI11 refused the repeat ("At Most 1 required but received 2").
  // --section and --sweep collect every value instead, and so does
  // --compare, so that a second BASE is refused rather than silently kept.
  for (CLI::Option* o : app.get_options())
    if (o->get_name() != "--section" && o->get_name() != "--sweep" && o->get_name() != "--compare")
      o->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// One value of option `def` as the option reads it: $ncpus expanded, true
// as 1, readwrite as rw, numbers as numbers (iodepth 1 and 01, bs 4k and 4096,
// with the job's kb_base: 4k is 4000 with kb_base=1000).
std::string OneValueKey(const iobench::jobfile::OptionDef& def, const std::string& value,
                        uint32_t kb_base) {
  namespace jf = iobench::jobfile;
  jf::ValueError err;
  auto expanded = jf::Expand(value, &err);
  const std::string v = expanded ? jf::KeywordArithmetic(*expanded) : value;
  if (bool b; def.type == jf::OptType::kBool && jf::ParseBoolWord(jf::Trim(v), &b))
    return std::string(b ? "#1" : "#0");
  // rw as the job reads it: readwrite is rw, read:0 is read, randread:1 is randread.
  if (def.name == "rw") {
    iobench::JobSpec job;
    job.kb_base = kb_base;
    if (!jf::SetOption(&job, "rw", v).ok()) return value;
    return "=" + std::string(iobench::RwModeName(job.rw)) + ":" + std::to_string(job.rw_nr) + ":" +
           std::to_string(job.rw_skip);
  }
  if (def.type == jf::OptType::kEnum) return "=" + v;  // exact, as the option reads it
  jf::NumContext ctx;
  ctx.kb_base = kb_base;
  if (def.type == jf::OptType::kInt || def.type == jf::OptType::kBool)
    ctx.kind = jf::NumKind::kPlain;
  else if (def.type == jf::OptType::kSize)
    ctx.kind = jf::NumKind::kSize;
  else if (def.type == jf::OptType::kTime)
    ctx.kind = jf::NumKind::kTime, ctx.time_unit_ns = def.time_unit_ns;
  else
    return value;
  auto n = jf::ParseNumber(v, ctx, &err);
  if (n && def.any_int) return std::string(*n != 0 ? "#1" : "#0");  // thread=2 is thread=1
  return n ? "#" + std::to_string(*n) : value;
}

// A --sweep value as its option reads it, so that two values the job reads
// alike are one point (OneValueKey); a per-direction list (bs=4k,8k)
// element by element, with fio's carry-over: 4k,8k is 4k,8k,8k and 4k is
// 4k,4k,4k.
std::string OptionValueKey(const std::string& name, const std::string& value, uint32_t kb_base) {
  namespace jf = iobench::jobfile;
  const jf::OptionDef* def = jf::FindOption(name);
  if (def == nullptr) return value;
  if (!def->per_dir) return OneValueKey(*def, value, kb_base);
  if (value.find(':') != std::string::npos) return value;
  std::vector<std::string> keys;
  for (const jf::DirPart& p : jf::SplitPerDirection(value))
    keys.push_back(p.text ? OneValueKey(*def, *p.text, kb_base) : std::string("-"));
  // One value for all directions keys as that value (4k and 4k,4k are #4096).
  if (std::all_of(keys.begin(), keys.end(), [&](const std::string& k) { return k == keys[0]; }))
    return keys[0];
  return "[" + iobench::sys::Join(keys, "|") + "]";
}

std::string Usage() {
  std::string u =
      "usage: iobench [tool options] [job options] [jobfile ...]\n\n"
      "Job files use fio's format; '-' reads one from stdin. Job options are fio's\n"
      "(--name=a --rw=randread --bs=4k ..., also -name=a or -iodepth 32); each --name\n"
      "starts a job, and options before the first --name apply to every job, overriding\n"
      "the job files. See `iobench --cmdhelp` and man iobench.\n\ntool options:\n";
  for (const auto& t : iobench::jobfile::ToolOptions()) {
    std::string n = "  --" + t.name;
    if (t.arg == iobench::jobfile::ToolArg::kRequired) n += "=VALUE";
    if (t.arg == iobench::jobfile::ToolArg::kOptional) n += "[=VALUE]";
    n.resize(std::max<size_t>(n.size() + 1, 28), ' ');
    u += n + t.help + "\n";
  }
  return u;
}

// Help and lists go through the report's write path: a full disk or a
// closed pipe is an error (exit 1), not a silent exit 0.
int Print(const std::string& text) {
  return iobench::WriteStdout(text, "the output") ? kExitOk : kExitFailed;
}

int ListEngines() {
  std::string out;
  for (const auto& e : iobench::EngineRegistry()) {
    iobench::Status st = e.probe ? e.probe() : iobench::Status::Unsupported("no probe");
    char line[32];
    std::snprintf(line, sizeof(line), "%-14s ", e.name);
    out += line + (st.ok() ? std::string("available") : st.message()) + "\n";
  }
  return Print(out);
}

iobench::SessionOptions SessionFor(const Cli& cli, const std::vector<std::string>& job_files,
                                   const std::string& cmdline) {
  iobench::SessionOptions o;
  o.formats = cli.formats;
  o.terse_version = cli.terse_version;
  o.output = cli.output;
  o.cmdline = cmdline;
  o.job_files = job_files;
  o.readonly = cli.readonly;
  o.eta = cli.eta;
  o.eta_interval_ms = cli.eta_interval_ms;
  o.eta_newline_ms = cli.eta_newline_ms;
  o.status_interval_ns = cli.status_interval_ns;
  o.status_interval_mode = cli.status_interval_mode;
  o.stuck_timeout_ms = cli.stuck_timeout_ms;
  o.bandwidth_log = cli.bandwidth_log;
  o.sweeps = cli.sweeps;
  o.sweep_cmd = cli.sweep_cmd;
  o.repeat = cli.repeat;
  o.table_metric = cli.table_metric;
  o.table_style = cli.table_style;
  o.table_metric_given = cli.table_metric_given;
  o.table_style_given = cli.table_style_given;
  o.table_rows = cli.table_rows;
  o.table_cols = cli.table_cols;
  o.compare_labels = cli.compare_labels;
  if (!cli.compare.empty()) o.compare.push_back(cli.compare);
  o.plot = cli.plot;
  o.set_option = iobench::jobfile::SetOption;
  o.is_job_option = iobench::jobfile::IsJobOption;
  o.suggest_option = [](const std::string& name) { return iobench::jobfile::SuggestOption(name); };
  o.tool_option = [](const std::string& name) -> std::string {
    std::string dashed = name;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    for (const auto& t : iobench::jobfile::ToolOptions())
      if (t.name == dashed) return "--" + t.name;
    return "";
  };
  // The name the JSON's "job options" list the option under (fio's), so a
  // sweep of iodepth_batch is captioned iodepth_batch=8 like the job's
  // iodepth_batch column (it said iodepth_batch_submit=8, our table's name).
  o.canonical_option = [](const std::string& name) -> std::string {
    const iobench::jobfile::OptionDef* def = iobench::jobfile::FindOption(name);
    return def != nullptr ? iobench::FioOptionName(def->name) : name;
  };
  // Numbers as the option reads them (iodepth 1 and 01, bs 4k and 4096),
  // with the job's kb_base (4k is 4000 with kb_base=1000).
  o.option_value_key = OptionValueKey;
  o.size_unit = iobench::jobfile::SizeMultiplier;
  return o;
}

// Writes `text` to --output (or stdout).
// Output that cannot be written exits 1, as a report or --help does.
int Emit(const Cli& cli, const std::string& text) {
  if (cli.output.empty()) return iobench::WriteStdout(text) ? kExitOk : kExitFailed;
  return iobench::WriteOutputFile(cli.output, text, false) ? kExitOk : kExitFailed;
}

// A tool option's time (a bare number is seconds) in ns, or nullopt with the
// parser's message in *why.
std::optional<int64_t> ParseToolTime(const std::string& text, std::string* why) {
  iobench::jobfile::NumContext nc;
  nc.kind = iobench::jobfile::NumKind::kTime;
  iobench::jobfile::ValueError err;
  auto v = iobench::jobfile::ParseNumber(text, nc, &err);
  if (!v) *why = err.message;
  return v;
}

// Checks the tool options CLI11 took as text and fills their parsed forms.
// Prints the error and returns false on bad input.
bool CheckToolOptions(Cli& cli, const std::vector<std::string>& tool_args) {
  if (cli.minimal || cli.append_terse) {
    // fio applies these in command-line order: --output-format=X and
    // --minimal set the formats, --append-terse adds terse to them.
    std::string formats = "normal";
    for (const auto& a : tool_args) {
      if (a == "--minimal")
        formats = "terse";
      else if (a == "--append-terse")
        formats += ",terse";
      else if (a.rfind("--output-format=", 0) == 0)
        formats = a.substr(16);
    }
    cli.output_format = formats;
  }
  // Checked here: CLI11 reads "-5" into an unsigned as a wrapped value.
  if (!cli.alloc_size.empty() && !std::all_of(cli.alloc_size.begin(), cli.alloc_size.end(),
                                              [](char c) { return c >= '0' && c <= '9'; })) {
    std::fprintf(stderr, "iobench: --alloc-size=%s: must be a whole number of KiB\n",
                 cli.alloc_size.c_str());
    return false;
  }
  if (cli.terse_version < 2 || cli.terse_version > 5) {
    std::fprintf(stderr, "iobench: --terse-version=%d: fio's terse versions are 2, 3, 4 and 5\n",
                 cli.terse_version);
    return false;
  }
  for (size_t b = 0, e; b <= cli.output_format.size(); b = e + 1) {
    e = cli.output_format.find(',', b);
    if (e == std::string::npos) e = cli.output_format.size();
    std::string f = cli.output_format.substr(b, e - b);
    if (f.empty()) {
      // "bad --output-format ''" for json, did not say what was wrong.
      std::fprintf(stderr,
                   "iobench: bad --output-format '%s': a format in the comma-separated list is "
                   "empty (normal, terse, json, json+, table)\n",
                   cli.output_format.c_str());
      return false;
    }
    if (f != "normal" && f != "terse" && f != "json" && f != "json+" && f != "table") {
      std::fprintf(stderr,
                   "iobench: bad --output-format '%s': unknown format '%s' (normal, terse, json, "
                   "json+, table)\n",
                   cli.output_format.c_str(), f.c_str());
      return false;
    }
    // A format named twice prints once (fio keeps a set of formats).
    if (std::find(cli.formats.begin(), cli.formats.end(), f) == cli.formats.end())
      cli.formats.push_back(f);
  }

  // The parsers' messages name the option and the value.
  if (auto eta = iobench::ParseEtaMode(cli.eta); !eta.ok()) {
    std::fprintf(stderr, "iobench: %s\n", eta.status().message().c_str());
    return false;
  }
  // fio reads both as times in seconds by default (--eta-newline=5 is 5 s,
  // not 5 ms), refuses an interval below 250 ms and a newline period of 0
  // ("eta new line time too short"; 0 here would mean no newlines at all).
  for (auto [flag, text, ms, min_ms] :
       {std::tuple{"--eta-interval", &cli.eta_interval, &cli.eta_interval_ms, int64_t{250}},
        std::tuple{"--eta-newline", &cli.eta_newline, &cli.eta_newline_ms, int64_t{1}}}) {
    if (text->empty()) continue;
    std::string why;
    auto v = ParseToolTime(*text, &why);
    if (v && *v < min_ms * 1000000)
      why = "must be at least " + std::to_string(min_ms) + "ms (a bare number is seconds)";
    if (!v || *v < min_ms * 1000000) {
      std::fprintf(stderr, "iobench: %s=%s: %s\n", flag, text->c_str(), why.c_str());
      return false;
    }
    *ms = static_cast<uint64_t>(*v / 1000000);
  }
  if (!cli.status_interval.empty()) {
    std::string why;
    auto v = ParseToolTime(cli.status_interval, &why);
    // fio refuses under 1 ms ("status interval too small").
    if (!v || *v < 1000000) {
      std::fprintf(stderr, "iobench: --status-interval=%s: %s\n", cli.status_interval.c_str(),
                   !v        ? why.c_str()
                   : *v <= 0 ? "must be positive"
                             : "too small: at least 1ms, as in fio");
      return false;
    }
    cli.status_interval_ns = static_cast<uint64_t>(*v);
  }
  if (!cli.stuck_timeout.empty()) {
    std::string why;
    auto v = ParseToolTime(cli.stuck_timeout, &why);
    // The watchdog counts whole milliseconds in 32 bits (49 days).
    constexpr int64_t kMaxNs = int64_t{UINT32_MAX} * 1000000;
    if (!v || *v < 0 || *v > kMaxNs || (*v > 0 && *v < 1000000)) {
      std::fprintf(stderr, "iobench: --stuck-timeout=%s: %s\n", cli.stuck_timeout.c_str(),
                   !v            ? why.c_str()
                   : *v < 0      ? "must not be negative"
                   : *v > kMaxNs ? "too large (at most 4294967s)"
                                 : "must be 0 (wait forever) or at least 1ms");
      return false;
    }
    cli.stuck_timeout_ms = *v / 1000000;
  }
  if (auto mode = iobench::ParseStatusIntervalMode(cli.status_interval_mode); !mode.ok()) {
    std::fprintf(stderr, "iobench: %s\n", mode.status().message().c_str());
    return false;
  }
  return true;
}

// --output naming a file the jobs read or write (a data file: the report
// replaced what a write job wrote, or what a read job read), or one the run
// writes beside them (RunSideFiles: the logs, the mem=mmap:FILE buffer
// file, the verify state files, a hook's output, the --bandwidth-log
// files): `--output=d.dat --filename=d.dat` left the report where the data
// was, `--output=x_bw.1.log --write_bw_log=x` lost the log.
// `clobbers(path, what)` says so and returns true. The same goes for
// --plot's image and script (Written, below).
template <typename Clobbers>
bool ClobbersRunFiles(const Cli& cli, const std::vector<iobench::JobSpec>& jobs,
                      const Clobbers& clobbers) {
  namespace sys = iobench::sys;
  for (const auto& j : jobs) {
    const std::string data_file = sys::JobFileWhat(j);
    for (const auto& f : sys::JobFilePaths(j))
      if (clobbers(f, data_file)) return true;
  }
  // A verify_dump's name holds the failed block's offset, known only then.
  for (const auto& f : iobench::RunSideFiles(jobs, iobench::FirstWorkerOf(jobs), cli.bandwidth_log))
    if (f.kind != iobench::SideFile::Kind::kVerifyDump && clobbers(f.path, f.Described()))
      return true;
  return false;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // fio's two single-letter options (getopt short forms of --help, --version).
  for (auto& a : args) {
    if (a == "-h") a = "--help";
    if (a == "-v") a = "--version";
  }
  auto split = iobench::jobfile::SplitArgs(args, iobench::jobfile::ToolOptions());
  if (!split.ok()) {
    std::fprintf(stderr, "%s\n", split.status().message().c_str());
    return kExitUsage;
  }
  Cli cli;
  CLI::App app{"iobench: a storage I/O benchmark that reads fio job files", "iobench"};
  BuildApp(app, cli);
  std::vector<std::string> tool_args = split->tool_args;
  std::vector<std::string> rev(tool_args.rbegin(),
                               tool_args.rend());  // CLI11 parses a reversed vector
  try {
    app.parse(rev);
  } catch (const CLI::ConversionError& e) {
    // CLI11 says "Could not convert: --terse-version = x": name the option
    // as it was typed and what it takes (its numeric options are counts).
    std::string m = e.what();
    const std::string kPrefix = "Could not convert: ";
    if (const size_t eq = m.find(" = "); m.rfind(kPrefix, 0) == 0 && eq != std::string::npos) {
      const std::string name = m.substr(kPrefix.size(), eq - kPrefix.size());
      const std::string value = m.substr(eq + 3);
      // Digits that do not fit are a number out of range, not "not a
      // whole number" (--max-jobs=99999999999999999999, --max-jobs=-1).
      const size_t digits = value.find_first_not_of("+-") == 1 ? 1 : 0;
      const bool number = value.size() > digits &&
                          value.find_first_not_of("0123456789", digits) == std::string::npos;
      const char* range = name == "--max-jobs"        ? " (0 to 4294967295)"
                          : name == "--terse-version" ? " (fio's terse versions are 2, 3, 4 and 5)"
                                                      : "";
      m = name + "=" + value +
          (number ? std::string(": out of range") + range : std::string(": not a whole number"));
    }
    std::fprintf(stderr, "iobench: %s\n", m.c_str());
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "iobench: %s\n", e.what());
    return kExitUsage;
  }
  // `--compare A --compare B` kept B alone: the user meant one of them, or
  // `--compare A B`.
  if (cli.compare_given.size() > 1) {
    std::fprintf(stderr,
                 "iobench: --compare given %zu times (%s, %s): give one BASE.json, and the NEW "
                 "results file after it: --compare BASE.json NEW.json\n",
                 cli.compare_given.size(), cli.compare_given[0].c_str(),
                 cli.compare_given[1].c_str());
    return kExitUsage;
  }
  if (!cli.compare_given.empty()) cli.compare = cli.compare_given[0];
  cli.cmdhelp = app.count("--cmdhelp") > 0;
  cli.table_metric_given = app.count("--table-metric") > 0;
  cli.table_style_given = app.count("--table-style") > 0;
  cli.enghelp = app.count("--enghelp") > 0;
  if (cli.help) {
    return Print(Usage());
  }
  if (cli.version) return Print("iobench-" IOBENCH_VERSION "\n");
  if (cli.cmdhelp || cli.enghelp) {
    // Help goes to stdout; an unknown option or engine is an error on stderr
    // (fio prints "No such command" / "engine not loadable" there too).
    auto text = cli.cmdhelp ? iobench::jobfile::CmdHelp(cli.cmdhelp_option)
                            : iobench::jobfile::EngHelp(cli.enghelp_spec);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n", text.status().message().c_str());
      return kExitUsage;
    }
    return Print(*text);
  }
  if (cli.list_engines) return ListEngines();

  if (!CheckToolOptions(cli, tool_args)) return kExitUsage;
  // The report is written over whatever --output names: not a block device
  // (its data), nor an image under a mounted loop device; and it must be
  // writable, found now rather than after the run (RunSession checks the
  // same, with --plot's files).
  if (!cli.output.empty())
    if (iobench::Status st =
            iobench::sys::CheckOutputFile(cli.output, "--output", "the report (--output)");
        !st.ok()) {
      std::fprintf(stderr, "iobench: %s\n", st.message().c_str());
      return kExitUsage;
    }
  // --compare BASE.json [NEW.json]: a .json "job file" is the NEW side.
  std::vector<std::string> job_files;
  std::string compare_new;
  for (const auto& f : split->job_files) {
    // NEW may be named anything (fio --output=new.out): a file that holds a
    // results document is NEW, not a job file to parse.
    // So is a regular file whose text starts with '{' (no job file does):
    // one whose JSON is refused (an interim report last, cut short) gets
    // that error, not a job-file parse error at its first line.
    auto starts_json = [](const std::string& path) {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
      std::ifstream in(path, std::ios::binary);
      char c = 0;
      while (in.get(c) && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      }
      return in && c == '{';
    };
    const bool json = !cli.compare.empty() && compare_new.empty() &&
                      ((f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0) ||
                       (f != "-" && (starts_json(f) || iobench::LoadResultsJson(f).ok())));
    if (json)
      compare_new = f;
    else
      job_files.push_back(f);
  }
  // As a shell would need it: iobench.cmdline is pasted back into one
  // (--sweep-cmd=echo {bs} {iodepth} was written bare, three words).
  std::string cmdline = "iobench";
  for (const auto& a : args) cmdline += " " + iobench::sys::ShellWord(a);
  // The command line goes into the JSON report, which must be UTF-8: a job
  // file or --output path in another encoding made the report throw after
  // the run. Such bytes are shown as '?'.
  for (std::string bad;;) {
    const size_t at = iobench::jobfile::FirstNonUtf8(cmdline, 0, cmdline.size(), &bad);
    if (at == std::string_view::npos) break;
    cmdline[at] = '?';
  }
  // The files written after the run, the report (--output) and --plot's
  // image and gnuplot script, naming a file this run reads, or writes
  // otherwise: they would overwrite it, or the two would mix. Any
  // spelling, made yet or not. (--plot=q.svg --output=q.gp replaced the
  // JSON report with the script, and --plot's files a job file or the
  // --compare base.)
  struct Written {
    std::string option;  // as given: --output=r.json, --plot=q.svg
    std::string path;
    std::string what;   // what would be written there: the report, its gnuplot script
    std::string named;  // the file as another one's clash names it
    std::string thing;  // what to write to another file: the report, the plot
    bool in_place;      // exists and is not a regular file (/dev/null, a pipe)
  };
  std::vector<Written> written;
  const auto add_written = [&written](std::string option, std::string path, std::string what,
                                      std::string named, std::string thing) {
    struct stat st {};
    const bool in_place = stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    written.push_back({std::move(option), std::move(path), std::move(what), std::move(named),
                       std::move(thing), in_place});
  };
  if (!cli.output.empty())
    add_written("--output=" + cli.output, cli.output, "the report",
                "the report (--output=" + cli.output + ")", "the report");
  // (A name that is no image name, --plot=q.gp, is refused for that.)
  if (!cli.plot.empty() && iobench::CheckPlotName(cli.plot).ok()) {
    add_written("--plot=" + cli.plot, cli.plot, "the plot", "the plot (--plot=" + cli.plot + ")",
                "the plot");
    const std::string script = iobench::PlotScriptPath(cli.plot);
    add_written("--plot=" + cli.plot, script, "its gnuplot script",
                "the plot's gnuplot script (" + script + ")", "the plot");
  }
  const auto refuse_clobber = [](const Written& w, const std::string& path,
                                 const std::string& what) {
    std::fprintf(stderr,
                 "iobench: %s names %s, %s: %s would overwrite it; write %s to another file\n",
                 w.option.c_str(), path.c_str(), what.c_str(), w.what.c_str(), w.thing.c_str());
    return true;
  };
  // A file the jobs or their logs use (`run_file`) is not clobbered by a
  // written file that exists and is not a regular one (--output=/dev/null
  // with filename=/dev/null).
  const auto clobbers_as = [&](bool run_file, const std::string& path, const std::string& what) {
    if (path.empty() || path == "-") return false;
    for (const Written& w : written)
      if (!(run_file && w.in_place) && iobench::sys::SameFile(w.path, path))
        return refuse_clobber(w, path, what);
    return false;
  };
  const auto clobbers = [&](const std::string& path, const std::string& what) {
    return clobbers_as(false, path, what);
  };
  // And each other: --output=q.svg --plot=q.svg.
  for (size_t i = 0; i < written.size(); ++i)
    for (size_t k = i + 1; k < written.size(); ++k)
      if (iobench::sys::SameFile(written[i].path, written[k].path)) {
        refuse_clobber(written[k], written[k].path, written[i].named);
        return kExitUsage;
      }
  // A job file read from stdin (`iobench - --output=j.fio < j.fio`) has no
  // path to compare: its device and inode are, when stdin is a file.
  if (std::find(job_files.begin(), job_files.end(), "-") != job_files.end())
    for (const Written& w : written)
      if (struct stat in{}, out{}; fstat(STDIN_FILENO, &in) == 0 && S_ISREG(in.st_mode) &&
                                   stat(w.path.c_str(), &out) == 0 && in.st_dev == out.st_dev &&
                                   in.st_ino == out.st_ino) {
        refuse_clobber(w, "the file on standard input",
                       "the job file this run reads from it ('-')");
        return kExitUsage;
      }
  if (clobbers(cli.compare, "the --compare base results") ||
      clobbers(compare_new, "the --compare new results"))
    return kExitUsage;
  if (!compare_new.empty()) {
    if (!job_files.empty() || !split->job_args.empty()) {
      std::fprintf(stderr, "iobench: --compare BASE.json NEW.json takes no jobs to run\n");
      return kExitUsage;
    }
    auto o = SessionFor(cli, job_files, cmdline);
    o.compare.push_back(compare_new);
    return iobench::CompareFiles(o);
  }

  if (!cli.compare.empty() && job_files.empty() && split->job_args.empty()) {
    // Said before the job parser's "no jobs defined", which does not tell
    // what --compare wants.
    std::fprintf(stderr,
                 "iobench: --compare %s: give the NEW results file (NEW.json) or a job to run "
                 "now and compare with\n",
                 cli.compare.c_str());
    return kExitUsage;
  }
  iobench::jobfile::ParseInput in;
  in.job_files = job_files;
  in.cli_job_args = split->job_args;
  in.sections = cli.sections;
  for (const auto& sw : cli.sweeps) in.sweep_keys.push_back(sw.substr(0, sw.find('=')));
  auto parsed = iobench::jobfile::ParseJobs(in);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.status().message().c_str());
    return kExitUsage;
  }
  // And the --sweep values' (runtime=2sec is 2 us to fio), said before
  // the run as the job file's are, and counted by --warnings-fatal.
  if (!cli.sweeps.empty())
    for (auto& w : iobench::SweepWarnings(parsed->jobs, SessionFor(cli, job_files, cmdline)))
      parsed->warnings.push_back(std::move(w));
  for (const auto& w : parsed->warnings) std::fprintf(stderr, "%s\n", w.c_str());
  // `--output=ow.fio ow.fio` replaced the job file with the report, and
  // --output=x.log a job's read_iolog=x.log or write_iolog=x.log.
  for (const auto& f : parsed->files_read)
    if (clobbers(f, "a job file this run reads")) return kExitUsage;
  const auto clobbers_jobs = [&](const std::vector<iobench::JobSpec>& jobs) {
    if (written.empty()) return false;
    for (const auto& j : jobs)
      if (clobbers(iobench::sys::ReadIologPath(j),
                   "the log job '" + j.name + "' replays (read_iolog)"))
        return true;
    return ClobbersRunFiles(cli, jobs, [&](const std::string& path, const std::string& what) {
      return clobbers_as(true, path, what);
    });
  };
  if (clobbers_jobs(parsed->jobs)) return kExitUsage;
  // And each --sweep point's jobs, whose values may name the files
  // (--sweep filename=a,b, write_bw_log=...). A point that cannot be
  // planned is refused by the run itself, in its words.
  if (!written.empty() && !cli.sweeps.empty())
    if (auto points = iobench::PlanPoints(parsed->jobs, SessionFor(cli, job_files, cmdline));
        points.ok())
      for (const auto& [point, point_jobs] : *points)
        if (clobbers_jobs(point_jobs)) return kExitUsage;
  if (cli.warnings_fatal && !parsed->warnings.empty()) {
    std::fprintf(stderr, "iobench: --warnings-fatal: %zu warning%s above, not running\n",
                 parsed->warnings.size(), parsed->warnings.size() == 1 ? "" : "s");
    return kExitUsage;
  }
  const auto& jobs = parsed->jobs;
  // With --sweep, --showcmd and --parse-only show each point's jobs (they
  // showed the base job: iodepth=1 for --sweep iodepth=8,16), as the shell
  // loop a sweep replaces would run them.
  // A point's label on one line whatever a value holds (in --showcmd's
  // comment, a newline would start a command of its own).
  auto one_line = [](const std::string& s) {
    std::string out;
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\x%02x", u);
        out += buf;
      } else {
        out += c;
      }
    }
    return out;
  };
  // --readonly --showcmd refuses a writing job as --parse-only and a run do
  // (it printed the line, without --readonly, and exit 0); the printed line
  // keeps --readonly, which fio's drops. A --sweep point's jobs are checked
  // by PlanPoints, as --parse-only checks them.
  const std::string showcmd_tools = cli.readonly ? "--readonly" : "";
  if (cli.showcmd && cli.readonly && cli.sweeps.empty())
    for (const auto& j : jobs)
      if (iobench::Status st = iobench::sys::CheckReadonlyOptions(j); !st.ok()) {
        std::fprintf(stderr, "iobench: %s\n", st.message().c_str());
        return kExitUsage;
      }
  if (cli.showcmd && cli.sweeps.empty())
    return Emit(cli, iobench::jobfile::ShowCmd(jobs, showcmd_tools));
  if (cli.showcmd) {
    const iobench::SessionOptions session = SessionFor(cli, job_files, cmdline);
    auto points = iobench::PlanPoints(jobs, session);
    if (!points.ok()) {
      std::fprintf(stderr, "iobench: %s\n", points.status().message().c_str());
      return kExitUsage;
    }
    // The shell loop the sweep stands for: each point's --sweep-cmd hook,
    // then its command line.
    std::string text;
    for (const auto& [point, point_jobs] : *points) {
      text += "# --sweep point " + one_line(point.Label()) + "\n";
      if (!cli.sweep_cmd.empty()) {
        auto hook = iobench::sweep::ExpandHookCommand(
            cli.sweep_cmd, point, iobench::jobfile::IsJobOption, session.canonical_option);
        if (hook.ok()) text += *hook + "\n";  // checked by PlanPoints
      }
      text += iobench::jobfile::ShowCmd(point_jobs, showcmd_tools);
    }
    return Emit(cli, text);
  }
  if (cli.parse_only) {
    iobench::RunOptions check;
    check.readonly = cli.readonly;
    const iobench::SessionOptions session = SessionFor(cli, job_files, cmdline);
    if (iobench::Status st = iobench::CheckSession(jobs, session, check); !st.ok()) {
      std::fprintf(stderr, "iobench: %s\n", st.message().c_str());
      return kExitUsage;
    }
    bool json = false;
    for (const auto& f : cli.formats) json |= f == "json" || f == "json+";
    if (cli.sweeps.empty())
      return Emit(cli,
                  json ? iobench::jobfile::ParseOnlyJson(jobs)
                       : iobench::jobfile::ParseOnlySummary(jobs, iobench::sys::JobFilePathsHead));
    auto points = iobench::PlanPoints(jobs, session);  // checked above
    if (!points.ok()) {
      std::fprintf(stderr, "iobench: %s\n", points.status().message().c_str());
      return kExitUsage;
    }
    if (!json) {
      std::string text;
      for (const auto& [point, point_jobs] : *points)
        text += "=== " + one_line(point.Label()) + " ===\n" +
                iobench::jobfile::ParseOnlySummary(point_jobs, iobench::sys::JobFilePathsHead);
      return Emit(cli, text);
    }
    // One document: {"points": [{"point": {...}, "jobs": [...]}, ...]}.
    nlohmann::ordered_json doc = {{"points", nlohmann::ordered_json::array()}};
    for (const auto& [point, point_jobs] : *points) {
      auto one = nlohmann::ordered_json::parse(iobench::jobfile::ParseOnlyJson(point_jobs));
      nlohmann::ordered_json entry = {{"point", iobench::sweep::PointToJson(point)}};
      for (auto it = one.begin(); it != one.end(); ++it) entry[it.key()] = it.value();
      doc["points"].push_back(std::move(entry));
    }
    return Emit(cli, doc.dump(2) + "\n");
  }
  iobench::SessionOptions session = SessionFor(cli, job_files, cmdline);
  // No side file of the run may be a job file (write_iolog=j.fio in j.fio
  // appended the log to it): the run compares them before any I/O.
  session.files_read = parsed->files_read;
  if (std::find(job_files.begin(), job_files.end(), "-") != job_files.end())
    session.files_read.push_back("-");
  const int rc = iobench::RunSession(jobs, session);
  if (iobench::LeftBehindThreads() > 0) {
    // The watchdog left a stuck job's thread behind. Static destructors and
    // atexit handlers would run while it may still wake up (the device
    // resumes) and use them: flush what was written and leave at once.
    std::fflush(nullptr);
    std::_Exit(rc);
  }
  return rc;
}

// Started with stdin, stdout or stderr closed (cron, a daemon, `>&-`), the
// first file iobench opened took the free number, and the status line, the
// report or an error message went into the benchmark's target: the text at
// offset 0 of a write job's file, a false verify failure on "Jobs". Each
// closed one gets /dev/null, opened so that using it fails as a closed
// descriptor does (EBADF): the report's own error path still says the
// report could not be written.
void HoldStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // The lowest free number is this one: the ones below are open.
    const int got = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
    if (got == fd) continue;
    if (got >= 0) close(got);
    _exit(kExitUsage);  // no /dev/null: nothing can be run safely
  }
}

}  // namespace

int main(int argc, char** argv) {
  HoldStandardDescriptors();
  try {
    return Main(argc, argv);
  } catch (const std::bad_alloc&) {
    // Not a usage error, and no bug: the machine (or ulimit -v) has less
    // memory than the jobs ask for. Each job clone keeps its own latency
    // histograms, buffers and file table, so numjobs multiplies them. A
    // failed run's exit code, as fio uses for it.
    std::fprintf(stderr,
                 "iobench: out of memory: the jobs need more memory than this process may use "
                 "(each of numjobs clones has its own histograms, iodepth x bs buffers and files); "
                 "reduce numjobs, iodepth, bs or nrfiles, or raise the limit (ulimit -v)\n");
    return kExitFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "iobench: internal error: %s\n", e.what());
    return kExitUsage;
  }
}
