// Host facts for the "what was measured" block: kernel, CPU, memory.
//
// Thread-safety: reentrant; each call reads /proc afresh.
#pragma once

#include <cstdint>
#include <string>

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

}  // namespace iobench::sys
