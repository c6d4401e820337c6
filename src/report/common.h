// Helpers shared by the fio-compatible reporters (normal, terse, json).
// Pure formatting of plain data; call from the reporting thread.
// Owner: the report helper.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/stats.h"

namespace iobench {

// fio's rw= names: read, write, trim, randread, randwrite, randtrim, rw,
// randrw, trimwrite, randtrimwrite.

// "read", "write", "trim" (lower case, as fio's per-job lines and JSON keys).
const char* DdirName(int ddir);

// The name fio lists an option under (JSON "job options", fio 3.33's
// --cmdhelp) for an option table name: fio's primary name where our option
// table keeps it as an alias (iodepth_batch_submit -> iodepth_batch,
// blockalign -> ba, log_window_value -> log_max_value), else `name`. Sweep
// points use it too, so a swept key and a job's option have one name.
const std::string& FioOptionName(const std::string& name);

// "iobench-0.1.0": what goes where fio writes "fio-3.33".
std::string VersionString(const RunResult& run);

// ctime-style local time without the newline: "Mon Nov 30 08:24:40 2026".
std::string CtimeString(uint64_t epoch_s);

// A job's header line: `t: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) ...,
// ioengine=psync, iodepth=1`.
std::string JobHeaderLine(const JobResult& job);

// Whether any helper-thread CPU was recorded.
bool HasHelperData(const HelperCpu& h);

// Whether a direction's latency split by priority (cmdprio) is shown: as
// fio, only when at least two priorities completed I/O in it (stat.c,
// get_nr_prios_with_samples() >= 2), in the normal and JSON reports alike.
bool PrioSplitShown(const DirStats& ds);

// Steady state (steadystate=): fio's mean of a sample window (integer, over
// all steadystate_duration slots, the empty ones counting as 0), and the
// criterion's name as "iops", "iops_slope", "bw" or "bw_slope".
uint64_t SteadyStateMean(const std::vector<uint64_t>& window);
const char* SteadyStateModeName(JobSpec::SteadyStateMode mode);

}  // namespace iobench
