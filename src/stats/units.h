// Numbers the way fio prints them, so users' eyes and greps find the same
// strings: "82.8k", "323MiB/s", "1617MiB", and fio's choice of nsec/usec/msec.
//
// Pure functions; thread-compatible. Owner: the report helper. Sweep tables
// may use FormatNumber/FormatBandwidthPair for their cells.
#pragma once

#include <cstdint>
#include <string>

namespace iobench {

enum class NumUnit {
  kNone,        // plain count: "82.8k"
  kBytes,       // "1617MiB", "64.0MiB"
  kBytesPerSec  // "323MiB/s"; with bits=true "2.6Gibit/s"
};

// fio's num2str: divides by 1000 (or 1024 when pow2) while the integer part
// has more than `max_digits` digits, then shows at most `max_digits`
// characters of number: "5461k", "82.8k", "20.8GiB/s", "64.0MiB", "181MiB".
// A number that needed no division prints as the plain integer ("4096").
// pow2 selects Ki/Mi/Gi prefixes, else k/M/G. bits multiplies by 8 and uses
// "bit" for the unit (fio's unit_base=1).
std::string FormatNumber(uint64_t num, int max_digits, bool pow2, NumUnit unit, bool bits = false);

// "323MiB/s (339MB/s)": the kb_base-preferred form first, the other in
// parentheses. kb_base 1024 (default): IEC first; 1000: SI first.
// unit_base follows fio's man page: 1 means bits, 8 or 0 bytes. (The comment
// in include/iobench/job.h says the opposite; fio 3.33 prints bytes for
// unit_base=8, so we follow fio.)
// max_digits: significant_figures (fio's default 4).
std::string FormatBandwidthPair(uint64_t bytes_per_sec, uint32_t kb_base, uint32_t unit_base,
                                int max_digits = 4);
// True when unit_base asks for bits (fio: unit_base=1).
inline bool UnitBaseIsBits(uint32_t unit_base) { return unit_base == 1; }
// "1617MiB (1696MB)"
std::string FormatBytesPair(uint64_t bytes, uint32_t kb_base, int max_digits = 4);

// Latency values scaled into fio's unit choice for slat/clat/lat lines:
// msec when min > 2,000,000 ns and max > 99,999,999 ns; else usec when
// min > 2000 ns and max > 99,999 ns; else nsec. min/max are divided with
// integer division (as fio), mean/stddev as doubles.
struct ScaledLat {
  const char* unit = "nsec";
  uint64_t min = 0, max = 0;
  double mean = 0, stddev = 0;
};
ScaledLat ScaleLatency(uint64_t min_ns, uint64_t max_ns, double mean_ns, double stddev_ns);

// fio's unit for a percentile block, from the smallest and largest
// percentile values (ns): "msec" (divisor 1e6) when min > 2e6 and
// max > 99,999,999; "usec" (1000) when min > 2000 and max > 99,999; else
// "nsec" (1). Values are then rounded up per step of 1000.
struct PercentileScale {
  const char* unit = "nsec";
  int steps = 0;  // number of /1000 steps
  uint64_t divisor = 1;
};
PercentileScale ChoosePercentileScale(uint64_t min_ns, uint64_t max_ns);
// ceil(value / 1000) applied `steps` times, as fio rounds percentiles.
uint64_t ScalePercentileValue(uint64_t ns, int steps);

// Human size with binary units: 64MiB, 1.5GiB, 4096B.
std::string HumanBytes(uint64_t bytes);

}  // namespace iobench
