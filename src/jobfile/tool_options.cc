// The command line's own options (tool options), as data: main.cc
// registers them with CLI11 and prints them in --help, SplitArgs tells
// them from job options, and "did you mean" suggests them.
#include "jobfile/parser.h"

namespace iobench::jobfile {

const std::vector<ToolOptionSpec>& ToolOptions() {
  static const std::vector<ToolOptionSpec> kTools = {
      {"output", ToolArg::kRequired, "Write the report to FILE instead of stdout"},
      {"output-format", ToolArg::kRequired,
       "Report formats, comma separated: normal,terse,json,json+,table"},
      {"minimal", ToolArg::kNone, "Same as --output-format=terse (the later of the two wins)"},
      {"append-terse", ToolArg::kNone,
       "Add terse to the formats given before it (fio's deprecated spelling)"},
      {"terse-version", ToolArg::kRequired, "Terse layout: 3 (default), 2, 4 or 5, as fio's"},
      {"section", ToolArg::kRequired, "Run only this job section of the job files (repeatable)"},
      {"parse-only", ToolArg::kNone,
       "Parse and validate, print what would run (each --sweep point), do not run"},
      {"showcmd", ToolArg::kNone,
       "Print the jobs as an equivalent command line (one per --sweep point)"},
      {"cmdhelp", ToolArg::kOptional, "Help on a job option (--cmdhelp=OPTION), or list all"},
      {"enghelp", ToolArg::kOptional,
       "List engines, or an engine's options (--enghelp=ENGINE[,OPTION])"},
      {"version", ToolArg::kNone, "Print the version"},
      {"help", ToolArg::kNone, "Print this help"},
      {"list-engines", ToolArg::kNone, "List the engines and whether this machine can run them"},
      {"readonly", ToolArg::kNone, "Refuse any job that writes"},
      {"warnings-fatal", ToolArg::kNone,
       "Treat job file warnings as errors: print them and exit 2 without running"},
      {"max-jobs", ToolArg::kRequired,
       "Accepted for fio command lines and ignored (fio 3.33 ignores it too)"},
      {"alloc-size", ToolArg::kRequired,
       "Accepted for fio command lines and ignored (fio's shared memory pool, in KiB)"},
      {"eta", ToolArg::kRequired, "When to print the progress line: always, never, auto"},
      {"eta-interval", ToolArg::kRequired,
       "Redraw the progress line every TIME (default unit: seconds; at least 250ms)"},
      {"eta-newline", ToolArg::kRequired,
       "Start a new progress line every TIME (default unit: seconds)"},
      {"status-interval", ToolArg::kRequired,
       "Print a full report every TIME (default unit: seconds; at least 1ms; kill -USR1 asks "
       "for one now)"},
      {"status-interval-mode", ToolArg::kRequired,
       "Interim report numbers: cumulative (since the start, as fio) or interval"},
      {"stuck-timeout", ToolArg::kRequired,
       "Give up on a job whose device completes no I/O for TIME after it was told to stop "
       "(default: 10s after a signal, 30s after its runtime; 0: wait forever); a job pausing on "
       "purpose (thinktime, rate) or a stopped process (Ctrl-Z) is not counted"},
      {"bandwidth-log", ToolArg::kNone,
       "Log the bandwidth of all jobs to agg-{read,write,trim}_bw.log in the current directory"},
      {"sweep", ToolArg::kRequired,
       "Run the jobs once per value: KEY=V1,V2 or KEY=1..128:x2 (repeatable: products)"},
      {"sweep-cmd", ToolArg::kRequired,
       "Shell command run before each --sweep point; {} / {KEY} are replaced by the values"},
      {"repeat", ToolArg::kRequired, "Run each point N times; report the median and min-max"},
      {"table-metric", ToolArg::kRequired,
       "Table cells: iops,bw (MiB/s),bw_kib (KiB/s),lat_mean,clat_p50,clat_p99,cpu_per_io,... "
       "(comma list)"},
      {"table-style", ToolArg::kRequired, "Table style: plain, markdown, ascii, csv"},
      {"table-rows", ToolArg::kRequired, "Swept key whose values are the table rows"},
      {"table-cols", ToolArg::kRequired, "Swept key whose values are the table columns"},
      {"compare", ToolArg::kRequired,
       "Delta table against BASE.json (fio or iobench JSON); a second .json file is NEW"},
      {"compare-labels", ToolArg::kRequired,
       "Column headers of the compare table: BASE,NEW (\\, is a comma in a label; default: the "
       "file names)"},
      {"plot", ToolArg::kRequired, "After a sweep, plot the table metric to FILE.svg or FILE.png"},
  };
  return kTools;
}

}  // namespace iobench::jobfile
