#include "stats/units.h"

#include <cstdio>
#include <string>

namespace iobench {

namespace {

int Digits(uint64_t v) {
  int d = 1;
  while (v >= 10) {
    v /= 10;
    ++d;
  }
  return d;
}

bool IsPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

const char* UnitSuffix(NumUnit unit, bool bits) {
  switch (unit) {
    case NumUnit::kNone:
      return "";
    case NumUnit::kBytes:
      return bits ? "bit" : "B";
    case NumUnit::kBytesPerSec:
      return bits ? "bit/s" : "B/s";
  }
  return "";
}

}  // namespace

std::string FormatNumber(uint64_t num, int max_digits, bool pow2, NumUnit unit, bool bits) {
  static const char* const kSi[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const kIec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const uint64_t thousand = pow2 ? 1024 : 1000;
  if (bits && num <= UINT64_MAX / 8) num *= 8;
  const char* const* prefixes = pow2 ? kIec : kSi;
  const char* suffix = UnitSuffix(unit, bits);

  int post = 0;
  uint64_t modulo = 0;
  bool divided = false;
  while (Digits(num) > max_digits && post < 6) {
    modulo = num % thousand;
    num /= thousand;
    divided = true;
    ++post;
  }
  char buf[64];
  if (!divided) {
    std::snprintf(buf, sizeof(buf), "%llu%s%s", static_cast<unsigned long long>(num),
                  prefixes[post], suffix);
    return buf;
  }
  const int decimals = max_digits - Digits(num) - 1;
  if (decimals <= 0) {
    if (modulo >= thousand / 2) ++num;  // round half up, as fio's carry
    std::snprintf(buf, sizeof(buf), "%llu%s%s", static_cast<unsigned long long>(num),
                  prefixes[post], suffix);
    return buf;
  }
  // The fraction is rounded on its own; when it rounds up to 1 the carry goes
  // into the integer part and the decimals stay, so the result can be one
  // character wider than max_digits: fio 3.33 prints 99,960 B as "100.0kB"
  // and 10,237 B as "10.00KiB" (checked against fio's own output).
  char frac[32];
  std::snprintf(frac, sizeof(frac), "%.*f", decimals,
                static_cast<double>(modulo) / static_cast<double>(thousand));
  if (frac[0] == '1') ++num;
  std::snprintf(buf, sizeof(buf), "%llu.%s%s%s", static_cast<unsigned long long>(num), frac + 2,
                prefixes[post], suffix);
  return buf;
}

std::string FormatBandwidthPair(uint64_t bytes_per_sec, uint32_t kb_base, uint32_t unit_base,
                                int max_digits) {
  const bool pow2 = IsPowerOfTwo(kb_base);
  const bool bits = UnitBaseIsBits(unit_base);
  return FormatNumber(bytes_per_sec, max_digits, pow2, NumUnit::kBytesPerSec, bits) + " (" +
         FormatNumber(bytes_per_sec, max_digits, !pow2, NumUnit::kBytesPerSec, bits) + ")";
}

std::string FormatBytesPair(uint64_t bytes, uint32_t kb_base, int max_digits) {
  const bool pow2 = IsPowerOfTwo(kb_base);
  return FormatNumber(bytes, max_digits, pow2, NumUnit::kBytes) + " (" +
         FormatNumber(bytes, max_digits, !pow2, NumUnit::kBytes) + ")";
}

ScaledLat ScaleLatency(uint64_t min_ns, uint64_t max_ns, double mean_ns, double stddev_ns) {
  ScaledLat s;
  s.min = min_ns;
  s.max = max_ns;
  s.mean = mean_ns;
  s.stddev = stddev_ns;
  // fio's nsec_to_msec / nsec_to_usec (stat.h): the stddev counts too.
  if (min_ns > 2000000 && max_ns > 99999999ull && stddev_ns > 1e6) {
    s.unit = "msec";
    s.min /= 1000000;
    s.max /= 1000000;
    s.mean /= 1e6;
    s.stddev /= 1e6;
  } else if (min_ns > 2000 && max_ns > 99999 && stddev_ns > 1000.0) {
    s.unit = "usec";
    s.min /= 1000;
    s.max /= 1000;
    s.mean /= 1e3;
    s.stddev /= 1e3;
  }
  return s;
}

PercentileScale ChoosePercentileScale(uint64_t min_ns, uint64_t max_ns) {
  PercentileScale s;
  if (min_ns > 2000000 && max_ns > 99999999ull) {
    s.unit = "msec";
    s.steps = 2;
    s.divisor = 1000000;
  } else if (min_ns > 2000 && max_ns > 99999) {
    s.unit = "usec";
    s.steps = 1;
    s.divisor = 1000;
  }
  return s;
}

uint64_t ScalePercentileValue(uint64_t ns, int steps) {
  for (int i = 0; i < steps; ++i) ns = (ns + 999) / 1000;
  return ns;
}

std::string HumanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  if (u == 0 || v == static_cast<double>(static_cast<uint64_t>(v)))
    snprintf(buf, sizeof(buf), "%llu%s", static_cast<unsigned long long>(v), kUnits[u]);
  else
    snprintf(buf, sizeof(buf), "%.1f%s", v, kUnits[u]);
  return buf;
}

}  // namespace iobench
