// Runs a program with stdin from /dev/null and stdout+stderr captured, for
// --sweep-cmd hooks and gnuplot. The child gets an empty signal mask and
// default actions for the stop signals, SIGPIPE and SIGXFSZ: the run core may block,
// catch or ignore them in this process, and Ctrl-C must still reach the child.
// Thread-safety: any thread; blocks until the child exits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "iobench/status.h"

namespace iobench::sys {

struct SpawnResult {
  int exit_code = 0;     // the child's exit status, or 128 + signal
  std::string output;    // stdout and stderr, interleaved as written
  uint64_t dropped = 0;  // bytes read and not kept (see `keep`), at output[cut_at]
  size_t cut_at = 0;
};

// argv[0] is the program's path. cwd: "" keeps ours. `what` prefixes errors
// ("--plot: run gnuplot: No such file or directory"). `keep` > 0 keeps the
// first and the last `keep` bytes of the output and counts the rest in
// `dropped`; the pipe is read to its end either way, so the child never
// blocks on a full pipe.
Result<SpawnResult> RunCaptured(const std::vector<std::string>& argv, const std::string& cwd,
                                const std::string& what, size_t keep = 0);

}  // namespace iobench::sys
