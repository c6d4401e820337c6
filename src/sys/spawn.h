// Runs a program with stdin from /dev/null and stdout+stderr captured, for
// --sweep-cmd hooks and gnuplot. The child gets an empty signal mask and
// default actions for the stop signals, SIGPIPE and SIGXFSZ: the run core may block,
// catch or ignore them in this process, and Ctrl-C must still reach the child.
// Thread-safety: any thread; blocks until the child exits.
#pragma once

#include <string>
#include <vector>

#include "iobench/status.h"

namespace iobench::sys {

struct SpawnResult {
  int exit_code = 0;   // the child's exit status, or 128 + signal
  std::string output;  // stdout and stderr, interleaved as written
};

// argv[0] is the program's path. cwd: "" keeps ours. `what` prefixes errors
// ("--plot: run gnuplot: No such file or directory").
Result<SpawnResult> RunCaptured(const std::vector<std::string>& argv, const std::string& cwd,
                                const std::string& what);

}  // namespace iobench::sys
