#include "iobench/clock.h"

#include <fstream>
#include <string>

namespace iobench {

ClockState g_clock;

namespace {

std::string ReadFirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

bool TscInvariant() {
#if defined(__x86_64__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) == 0) {
      const std::string flags = line + " ";
      auto has = [&](const char* f) {
        return flags.find(std::string(" ") + f + " ") != std::string::npos;
      };
      return has("constant_tsc") && has("nonstop_tsc");
    }
  }
#endif
  return false;
}

namespace {

// The kernel trusts the TSC only if it is invariant and synchronised across
// CPUs; by default we follow its judgement rather than re-deriving it.
bool TscIsSafe() { return KernelClockSource() == "tsc" && TscInvariant(); }

}  // namespace

std::string KernelClockSource() {
  return ReadFirstLine("/sys/devices/system/clocksource/clocksource0/current_clocksource");
}

ClockSource InitClock(ClockSource want) {
  g_clock.use_tsc = false;
  // kTsc (clocksource=cpu asked for by name) needs only an invariant TSC, as
  // fio's does; kAuto also needs the kernel to run on it.
  if (want == ClockSource::kClockGettime ||
      !(want == ClockSource::kTsc ? TscInvariant() : TscIsSafe()))
    return ClockSource::kClockGettime;
#if defined(__x86_64__)
  // Two (tsc, ns) pairs ~2 ms apart; each pair is taken as the tightest of a
  // few tries so a preemption between the two reads does not skew it.
  auto pair = [](uint64_t* tsc, uint64_t* ns) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; ++i) {
      const uint64_t t0 = __rdtsc();
      const uint64_t n = MonotonicNs();
      const uint64_t t1 = __rdtsc();
      if (t1 - t0 < best) {
        best = t1 - t0;
        *tsc = t0 + (t1 - t0) / 2;
        *ns = n;
      }
    }
  };
  uint64_t tsc_a = 0, ns_a = 0, tsc_b = 0, ns_b = 0;
  pair(&tsc_a, &ns_a);
  do {
    pair(&tsc_b, &ns_b);
  } while (ns_b - ns_a < 2000000);
  if (tsc_b <= tsc_a) return ClockSource::kClockGettime;
  g_clock.mult = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(ns_b - ns_a) << ClockState::kShift) / (tsc_b - tsc_a));
  g_clock.tsc0 = tsc_b;
  g_clock.ns0 = ns_b;
  g_clock.use_tsc = true;
  return ClockSource::kTsc;
#else
  (void)want;
  return ClockSource::kClockGettime;
#endif
}

const char* ClockSourceName() { return g_clock.use_tsc ? "tsc" : "clock_gettime"; }

}  // namespace iobench
