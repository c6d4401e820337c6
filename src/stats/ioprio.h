// I/O priority values as fio forms them (class << 13 | level), shared by the
// worker (what it issues with) and the report merge (under which priority a
// job's I/Os count in the per-priority latency split).
#pragma once

#include <cstdint>

#include "iobench/job.h"

namespace iobench {

// An ioprio value as fio's ioprio_value() makes it: class 0 (none) is best
// effort, so prioclass=0 or a cmdprio_bssplit entry of class 0 asks the
// kernel for best effort, not for "none" (EINVAL).
inline uint16_t IoprioValue(int cls, int level) {
  return static_cast<uint16_t>(((cls == 0 ? 2 : cls) << 13) | (level & 7));
}

// The job's ioprio value from prio/prioclass, 0 when neither is set. As fio:
// an unset prioclass is best effort and an unset prio is level 0.
inline uint16_t JobIoprio(const JobSpec& job) {
  if (!job.prio && !job.prioclass) return 0;
  return IoprioValue(job.prioclass.value_or(0), job.prio.value_or(0));
}

}  // namespace iobench
