// Host facts for the "what was measured" block: kernel, CPU, memory.
//
// Thread-safety: reentrant; each call reads /proc afresh.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iobench/status.h"

namespace iobench::sys {

// `uname -r`, e.g. "6.18.0-rc1".
Result<std::string> KernelRelease();
// "model name" of the first CPU in /proc/cpuinfo; where the architecture has
// no such line (arm64), "Hardware"/"Processor", else the machine name.
Result<std::string> CpuModel();
// Online CPUs (sysconf(_SC_NPROCESSORS_ONLN)).
Result<uint32_t> CpuCount();
// MemTotal from /proc/meminfo, in bytes.
Result<uint64_t> MemTotalBytes();
// MemAvailable from /proc/meminfo, in bytes (what buffers can use).
Result<uint64_t> MemAvailableBytes();

// The machine's configured CPUs (sysconf(_SC_NPROCESSORS_CONF), as fio
// counts them; at least 1), at most CPU_SETSIZE: a cpu_set_t holds no more.
int ConfiguredCpus();
// Whether the calling thread may be placed on the sorted `cpus`, as the
// kernel says (a cgroup cpuset may forbid CPUs the machine has;
// sched_setaffinity answers EINVAL when no CPU of the set is permitted):
// "" when it may, else "CPU 0 is not in this process's allowed CPUs (1)",
// the allowed ones among the ConfiguredCpus(). A sched_getaffinity mask
// alone (taskset) is no limit: a thread may widen it. Probes with
// sched_setaffinity on the calling thread and puts its mask back.
std::string ForbiddenCpus(const std::vector<int>& cpus);

}  // namespace iobench::sys
