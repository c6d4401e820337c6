// The one clock every timestamp comes from.
//
// NowNs() is monotonic nanoseconds from an arbitrary origin. Today it reads
// CLOCK_MONOTONIC through the vDSO (~20 ns); the TSC path (calibrated once at
// start-up, invariant-TSC only) can replace the body without touching callers.
// Thread-safety: any thread, no shared state.
#pragma once

#include <time.h>

#include <cstdint>

namespace iobench {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Wall-clock seconds since the epoch, for report timestamps only.
inline uint64_t WallTimeMs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000ull + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

}  // namespace iobench
