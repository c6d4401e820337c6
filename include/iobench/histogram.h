// Log-linear latency histogram in nanoseconds, fio's scheme and layout.
//
// Values below 2^(kBits+1) = 128 ns get one bucket each. Above, each power of
// two [2^m, 2^(m+1)) is split into kVal = 2^kBits = 64 equal sub-buckets of
// width 2^(m-kBits). A value is reported as its bucket's midpoint, so the
// error is at most half a bucket width over the bucket's lowest value:
//     2^(m-kBits) / 2 / 2^m = 1 / 2^(kBits+1) = 1/128 = 0.78 %  (< 1 %).
// kGroups = 29 groups cover values up to 2^34 ns (~17 s); larger values fall
// into the last bucket (as in fio), and min/max stay exact in LatStat.
// kNr = 29 * 64 = 1856 buckets, the same indices as fio's json+ "bins", so
// fio's tools read ours.
//
// Storage: the kNr counters (14.5 KiB) live in their own anonymous mapping,
// zero-filled by the kernel and never written on construction, so a
// histogram that records nothing costs no resident memory (seed 003's 252
// workers hold 2,520 histograms and use 2 or 3 each). Copies and merges
// write only the pages that hold counts; a move takes the storage (free).
// A moved-from histogram holds none (counts is null): copying or merging
// from it gives zeros; Add() and reading counts need it assigned or
// Clear()ed first (Add() has no check: it runs per I/O). Allocation
// failure throws std::bad_alloc, as `new` does.
//
// Thread-safety: none; each worker owns its histograms, merged after join.
#pragma once

#include <cstdint>

namespace iobench {

struct Histogram {
  static constexpr unsigned kBits = 6;
  static constexpr unsigned kVal = 1u << kBits;
  static constexpr unsigned kGroups = 29;
  static constexpr unsigned kNr = kGroups * kVal;

  // kNr counters; null only in a moved-from histogram (see above).
  uint64_t* counts;

  Histogram();  // all zero, no page touched (stats/histogram.cc)
  Histogram(const Histogram& o);
  Histogram(Histogram&& o) noexcept : counts(o.counts) { o.counts = nullptr; }
  Histogram& operator=(const Histogram& o);
  Histogram& operator=(Histogram&& o) noexcept;
  ~Histogram();
  // Zeroes the counts, writing only pages that hold a count.
  void Clear();

  // Runs per I/O (clat; lat too unless the worker derives it from clat), so
  // it is kept to a few instructions:
  // with e = msb - kBits, the bucket is (e + 1) * kVal + (the kBits bits below
  // the msb), and v >> e is exactly kVal + those bits, so idx = e * kVal + (v >> e).
  static unsigned ValueToIndex(uint64_t v) {
    if (v < (2u * kVal)) return static_cast<unsigned>(v);  // msb <= kBits
    const unsigned e = (63u - kBits) - static_cast<unsigned>(__builtin_clzll(v));
    const unsigned idx = (e << kBits) + static_cast<unsigned>(v >> e);
    return idx < kNr - 1 ? idx : kNr - 1;
  }

  // The representative value (bucket midpoint) of bucket idx.
  static uint64_t IndexToValue(unsigned idx) {
    if (idx < (kVal << 1)) return idx;
    const unsigned error_bits = (idx >> kBits) - 1;
    const uint64_t base = 1ull << (error_bits + kBits);
    const uint64_t k = idx % kVal;
    return base + static_cast<uint64_t>((static_cast<double>(k) + 0.5) *
                                        static_cast<double>(1ull << error_bits));
  }

  void Add(uint64_t ns) { ++counts[ValueToIndex(ns)]; }
  // Adds o's counts; pages of o without a count are skipped (this one's
  // pages stay untouched).
  void Merge(const Histogram& o);
};

// Running min/max/mean/stddev. Both sums are exact 128-bit integers (one
// multiply and a 128-bit add per value; a long double square cost twice as
// much on the per-I/O path): latencies below 2^40 ns (18 minutes) leave room
// for 2^48 values in sumsq, i.e. years at millions of IOPS. The variance is
// formed in long double only when printed.
struct LatStat {
  uint64_t n = 0;
  uint64_t min = UINT64_MAX;
  uint64_t max = 0;
  unsigned __int128 sum = 0;
  unsigned __int128 sumsq = 0;

  void Add(uint64_t v) {
    ++n;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    sumsq += static_cast<unsigned __int128>(v) * v;
  }
  void Merge(const LatStat& o) {
    n += o.n;
    if (o.min < min) min = o.min;
    if (o.max > max) max = o.max;
    sum += o.sum;
    sumsq += o.sumsq;
  }
  double Mean() const { return n ? static_cast<double>(sum) / static_cast<double>(n) : 0.0; }
  double Stddev() const;  // sample stddev (n-1), as fio; stats/latstat.cc
  uint64_t Min() const { return n ? min : 0; }
};

}  // namespace iobench
