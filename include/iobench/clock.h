// The one clock every timestamp comes from.
//
// NowNs() is monotonic nanoseconds from an arbitrary origin. When the kernel
// itself trusts the TSC (clocksource "tsc", constant_tsc and nonstop_tsc), it
// reads the TSC directly (~10 ns, a handful of instructions) and scales it
// with a multiplier calibrated once against CLOCK_MONOTONIC by InitClock().
// Otherwise it calls clock_gettime(CLOCK_MONOTONIC) through the vDSO (~25 ns,
// ~60 instructions). The kernel only picks "tsc" when the TSC is synchronised
// across CPUs, so readings from different threads compare.
//
// Thread-safety: InitClock() runs on the main thread while no other thread
// reads the clock: before a run's workers start (a sweep runs it again
// between points whose jobs ask for another clocksource); while a run's
// workers live, NowNs() is safe from any thread (read-only state).
#pragma once

#include <time.h>

#include <cstdint>
#include <string>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace iobench {

struct ClockState {
  bool use_tsc = false;
  uint64_t tsc0 = 0;  // TSC at calibration
  uint64_t ns0 = 0;   // CLOCK_MONOTONIC at calibration
  uint64_t mult = 0;  // ns = (tsc delta * mult) >> kShift
  static constexpr unsigned kShift = 32;
};
extern ClockState g_clock;

enum class ClockSource { kAuto, kTsc, kClockGettime };

// Calibrates (about 2 ms) and chooses the source: kAuto takes the TSC when
// the kernel's clocksource is "tsc" and the TSC is invariant; kTsc (asked
// for by name) whenever the TSC is invariant, whatever the kernel runs on;
// returns the source actually chosen.
ClockSource InitClock(ClockSource want = ClockSource::kAuto);
// The CPU says its TSC runs at a constant rate and does not stop
// (constant_tsc and nonstop_tsc in /proc/cpuinfo).
bool TscInvariant();
const char* ClockSourceName();
// The kernel's current clocksource ("tsc", "kvm-clock", "hpet", ...), empty
// when sysfs does not say.
std::string KernelClockSource();

inline uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Inlined at every stamp of the per-I/O path (GCC left the reap's stamp a
// call: 5 instructions per I/O more); the clock_gettime fallback stays a call.
[[gnu::always_inline]] inline uint64_t NowNs() {
#if defined(__x86_64__)
  if (__builtin_expect(g_clock.use_tsc, 1)) {
    const uint64_t d = __rdtsc() - g_clock.tsc0;
    return g_clock.ns0 + static_cast<uint64_t>((static_cast<unsigned __int128>(d) * g_clock.mult) >>
                                               ClockState::kShift);
  }
#endif
  return MonotonicNs();
}

// An option's duration in ms or us (rate_cycle, bwavgtime, log_avg_msec,
// log_hist_msec, flow_sleep, ...), in ns, saturating at UINT64_MAX: the
// options take any 64-bit count, and a window or sleep longer than 64 bits
// of ns (584 years) is one that never ends, not the short one a wrapped
// product would give (log_avg_msec=2^58 wrapped to 0 ns, a division by zero).
constexpr uint64_t SaturatingNs(uint64_t count, uint64_t unit_ns) {
  uint64_t ns = 0;
  return __builtin_mul_overflow(count, unit_ns, &ns) ? UINT64_MAX : ns;
}
constexpr uint64_t MsToNs(uint64_t ms) { return SaturatingNs(ms, 1000000); }
constexpr uint64_t UsToNs(uint64_t us) { return SaturatingNs(us, 1000); }
// A time plus such a duration: UINT64_MAX (never) rather than a wrapped, past time.
constexpr uint64_t SaturatingAddNs(uint64_t t, uint64_t ns) {
  return ns > UINT64_MAX - t ? UINT64_MAX : t + ns;
}

// Wall-clock milliseconds since the epoch, for report timestamps only.
inline uint64_t WallTimeMs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000ull + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

// WallTimeMs() when the process started (before main): fio's "genesis", which
// its JSON "elapsed" counts from.
inline const uint64_t kProcessStartMs = WallTimeMs();

}  // namespace iobench
