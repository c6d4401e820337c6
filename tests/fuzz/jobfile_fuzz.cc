// libFuzzer target: bytes in as a job file. Must never crash, hang or leak;
// every input either parses or returns an error Status. No filesystem writes.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "jobfile/parser.h"

namespace {
// Relative includes resolve under a directory that cannot exist (nothing can
// be created in /proc/self), so they fail to open. A mkdtemp directory made
// once per process was left behind by every fork-mode child: 50 empty
// /tmp/iobench_fuzz_* directories after each CI run.
constexpr const char* kBaseDir = "/proc/self/iobench-fuzz-no-such-dir";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  setenv("IOB_FUZZ", "4k", 0);
  std::string text(reinterpret_cast<const char*>(data), size);
  auto r = iobench::jobfile::ParseJobText(text, "fuzz.fio", kBaseDir);
  if (r.ok()) {
    // Exercise the generated texts too.
    (void)iobench::jobfile::ParseOnlyJson(r->jobs);
    (void)iobench::jobfile::ShowCmd(r->jobs);
    (void)iobench::jobfile::ParseOnlySummary(r->jobs);
  }
  // The same bytes as a command line (whitespace-separated arguments),
  // through the splitting main.cc uses. Job files are dropped so nothing is
  // read from disk or stdin.
  std::vector<std::string> argv;
  std::istringstream is(text);
  for (std::string w; is >> w && argv.size() < 256;) argv.push_back(w);
  static const std::vector<iobench::jobfile::ToolOptionSpec> kTools = {
      {"output", iobench::jobfile::ToolArg::kRequired, ""},
      {"parse-only", iobench::jobfile::ToolArg::kNone, ""},
      {"cmdhelp", iobench::jobfile::ToolArg::kOptional, ""},
  };
  auto split = iobench::jobfile::SplitArgs(argv, kTools);
  if (split.ok()) {
    iobench::jobfile::ParseInput in;
    in.cli_job_args = split->job_args;
    (void)iobench::jobfile::ParseJobs(in);
  }
  return 0;
}
