// Reporters: each output format formats a RunResult; none runs anything.
//
// Several formats may be written in one run (--output-format=normal,json).
// Thread-safety: call after the run, from the main thread.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

enum class OutputFormat { kNormal, kTerse, kJson, kJsonPlus, kTable };

struct ReportOptions {
  std::vector<OutputFormat> formats;
  std::string cmdline;  // how iobench was invoked, for JSON "global options"
  std::vector<std::string> job_files;
  // A report after an interim one of the same run: the normal format leaves
  // out the header lines (context block, job lines) fio prints only once.
  bool interim = false;
  int terse_version = 3;  // --terse-version: 2, 3, 4 or 5 (fio's layouts)
};

// Writes one format. Implementations live in src/report/<format>.cc.
Status WriteNormal(const RunResult& run, const ReportOptions& opts, std::ostream& out);
// The normal report in two parts: the header (version, context, one line per
// job) and the body (per-job blocks, group status, disk stats). fio prints
// the header before any format when normal is one of several.
std::string FormatNormalHeader(const RunResult& run, const ReportOptions& opts);
Status WriteNormalBody(const RunResult& run, std::ostream& out);
Status WriteTerse(const RunResult& run, const ReportOptions& opts, std::ostream& out);
Status WriteJson(const RunResult& run, const ReportOptions& opts, bool plus, std::ostream& out);

// Writes every format in opts.formats, in order.
Status WriteReports(const RunResult& run, const ReportOptions& opts, std::ostream& out);

}  // namespace iobench
