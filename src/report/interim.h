// Interim reports: --status-interval=N, --status-interval-mode and SIGUSR1.
//
// The coordinator takes snapshots of the cumulative numbers (RunResult, as
// at the end of a run) while the run goes on; this module turns them into
// what an interim report prints and decides when one is due:
//   - cumulative mode (fio's and our default): the snapshot itself;
//   - interval mode: the difference from the previous snapshot. Counts,
//     bytes, runtimes and histograms subtract exactly, so the intervals sum to
//     the final numbers; see Diff(LatStat) for what min/max can and cannot be.
// With JSON output each interim report is one line (JSON Lines): JsonToLine().
//
// Thread-safety: all functions are pure except InterimSchedule and the
// SIGUSR1 flag; InterimSchedule belongs to the thread that prints reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "iobench/histogram.h"
#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

enum class StatusIntervalMode : uint8_t { kCumulative, kInterval };
// "cumulative" or "interval" (--status-interval-mode).
Result<StatusIntervalMode> ParseStatusIntervalMode(std::string_view text);

// Bucket counts of the interval. REQUIRES: earlier is an earlier snapshot of
// the same histogram (every count <= later's); a count that went down (a
// restarted worker) yields 0 rather than wrapping.
Histogram Diff(const Histogram& later, const Histogram& earlier);

// n, sum and sum of squares subtract exactly, so mean and stddev of the
// interval are exact. min and max do not subtract: when the run's min (max)
// changed during the interval, the new value is the interval's, exactly;
// otherwise the interval's extreme is taken from interval_hist (its lowest /
// highest non-empty bucket, within the histogram's 0.78 %), clamped to the
// run's min..max. With an empty interval_hist (latency not recorded) such an
// extreme falls back to the run's value.
LatStat Diff(const LatStat& later, const LatStat& earlier, const Histogram& interval_hist);

DirStats Diff(const DirStats& later, const DirStats& earlier);
ThreadStats Diff(const ThreadStats& later, const ThreadStats& earlier);

// The interval between two snapshots of one run: same groups and jobs in the
// same order (else InvalidArgument naming the mismatch). Times (runtime,
// elapsed) are the interval's; bw/iops samples are those taken in it; the
// spec, names and context are later's.
Result<RunResult> IntervalResult(const RunResult& later, const RunResult& earlier);

// Turns successive cumulative snapshots into what each interim report shows.
class InterimReporter {
 public:
  explicit InterimReporter(StatusIntervalMode mode) : mode_(mode) {}
  // REQUIRES: snapshots of one run, in time order. The final report at the
  // end of the run stays cumulative (fio's); call Next() for interim ones only.
  Result<RunResult> Next(const RunResult& snapshot);

 private:
  StatusIntervalMode mode_;
  bool have_prev_ = false;
  RunResult prev_;
};

// One JSON document -> one line (no newlines inside, '\n' at the end), so a
// file of interim JSON reports is valid JSON Lines. Keys keep the document's
// order (fio's). Invalid JSON is an error
// naming the parse position; invalid UTF-8 is replaced, not thrown.
Result<std::string> JsonToLine(std::string_view json_text);

// SIGUSR1: the handler only sets a flag; the reporting thread polls it.
Status InstallSigusr1Handler();
// True once per SIGUSR1 received since the last call.
bool TakeSigusr1();

// When the next interim report is due: every interval_ns from the start of
// the run (0: never by time), and whenever SIGUSR1 arrived. A late poll
// catches up with one report, not a burst.
class InterimSchedule {
 public:
  explicit InterimSchedule(uint64_t interval_ns)
      : interval_ns_(interval_ns), next_ns_(interval_ns) {}
  // now_ns: time since the run started.
  bool Due(uint64_t now_ns);

 private:
  uint64_t interval_ns_;
  uint64_t next_ns_;
};

}  // namespace iobench
