// Random sources for I/O pattern generation: seeding, Tausworthe generators,
// a maximal-length LFSR, the random block map, and the skewed distributions
// (zipf, pareto, normal, zoned).
//
// Owned by one worker's IoPattern / RateLimiter / BufferFiller; no locks.
// Everything that allocates does so in Init(); the per-I/O calls never do.
#pragma once

#include <cstdint>
#include <vector>

namespace iobench::prng {

// SplitMix64 step: expands one 64-bit seed into a stream of well-mixed words.
// Used only for seeding and for cheap buffer filling, never for offsets.
inline uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Mixes two words into one seed (order matters).
inline uint64_t MixSeed(uint64_t a, uint64_t b) {
  uint64_t s = a ^ (b * 0xd6e8feb86659fd93ULL);
  return SplitMix64(&s);
}

// L'Ecuyer's three-component 32-bit combined Tausworthe generator (period
// about 2^88). Fast (a dozen shifts and xors) and statistically good enough
// for offsets. Each component needs a seed above a small minimum.
class Taus88 {
 public:
  explicit Taus88(uint64_t seed = 1) { Seed(seed); }
  void Seed(uint64_t seed);
  uint32_t Next() {
    s1_ = ((s1_ & 0xfffffffeU) << 12) ^ (((s1_ << 13) ^ s1_) >> 19);
    s2_ = ((s2_ & 0xfffffff8U) << 4) ^ (((s2_ << 2) ^ s2_) >> 25);
    s3_ = ((s3_ & 0xfffffff0U) << 17) ^ (((s3_ << 3) ^ s3_) >> 11);
    return s1_ ^ s2_ ^ s3_;
  }

 private:
  uint32_t s1_ = 0, s2_ = 0, s3_ = 0;
};

// L'Ecuyer's five-component 64-bit combined Tausworthe generator (lfsr258,
// period about 2^258). Used for files with more than 2^32 blocks.
class Taus258 {
 public:
  explicit Taus258(uint64_t seed = 1) { Seed(seed); }
  void Seed(uint64_t seed);
  uint64_t Next() {
    uint64_t b;
    b = ((z1_ << 1) ^ z1_) >> 53;
    z1_ = ((z1_ & 0xfffffffffffffffeULL) << 10) ^ b;
    b = ((z2_ << 24) ^ z2_) >> 50;
    z2_ = ((z2_ & 0xfffffffffffffe00ULL) << 5) ^ b;
    b = ((z3_ << 3) ^ z3_) >> 23;
    z3_ = ((z3_ & 0xfffffffffffff000ULL) << 29) ^ b;
    b = ((z4_ << 5) ^ z4_) >> 24;
    z4_ = ((z4_ & 0xfffffffffffe0000ULL) << 23) ^ b;
    b = ((z5_ << 3) ^ z5_) >> 33;
    z5_ = ((z5_ & 0xffffffffff800000ULL) << 8) ^ b;
    return z1_ ^ z2_ ^ z3_ ^ z4_ ^ z5_;
  }

 private:
  uint64_t z1_ = 0, z2_ = 0, z3_ = 0, z4_ = 0, z5_ = 0;
};

// A uniform source backed by Taus88 or Taus258. Range reduction uses the
// multiply-high trick (no division); its bias is below n / 2^32 (32-bit) or
// n / 2^64, negligible next to the I/O counts involved.
class Uniform {
 public:
  void Seed(uint64_t seed, bool wide) {
    wide_ = wide;
    t32_.Seed(seed);
    t64_.Seed(seed);
  }
  uint64_t Next64() {
    if (wide_) return t64_.Next();
    uint64_t hi = t32_.Next();
    return (hi << 32) | t32_.Next();
  }
  // Uniform in [0, n). REQUIRES: n >= 1.
  uint64_t Below(uint64_t n) {
    if (!wide_ && n <= (1ULL << 32)) return (uint64_t{t32_.Next()} * n) >> 32;
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next64()) * n) >> 64);
  }
  // Uniform in [0, 1) with 53 bits (or 32 bits for the narrow generator).
  double Unit() {
    if (wide_) return static_cast<double>(t64_.Next() >> 11) * 0x1.0p-53;
    return static_cast<double>(t32_.Next()) * 0x1.0p-32;
  }
  // Uniform in (0, 1], for logarithms.
  double UnitNonZero() { return 1.0 - Unit(); }

 private:
  bool wide_ = false;
  Taus88 t32_;
  Taus258 t64_;
};

// Maximal-length Galois LFSR over [0, n): every value exactly once in each run
// of n calls, with no memory beyond the register. The register width w is the
// smallest with 2^w - 1 >= n, so fewer than half the register values are
// skipped (cycle walking): Next() costs at most a few steps, amortised < 2.
class Lfsr {
 public:
  // REQUIRES: n >= 1.
  void Init(uint64_t n, uint64_t seed);
  uint64_t Next() {
    for (;;) {
      state_ = (state_ >> 1) ^ ((0 - (state_ & 1)) & taps_);
      if (state_ - 1 < n_) return state_ - 1;
    }
  }
  int width() const { return width_; }
  uint64_t taps() const { return taps_; }
  // The tap mask for a w-bit maximal-length register, w in [2, 64].
  static uint64_t TapsForWidth(int w);

 private:
  uint64_t state_ = 1;
  uint64_t taps_ = 0;
  uint64_t n_ = 1;
  int width_ = 2;
};

// Random block map: one bit per block ("used in this pass"), plus summary
// levels where a bit says "the 64-bit word below is full". FindFree() walks
// up until a level shows a non-full word, then straight down: O(levels) =
// O(log64 n) words per call, whatever the fill, which keeps a pass O(1) per
// I/O even at the end when almost every block is used.
class BlockMap {
 public:
  void Init(uint64_t nblocks);  // allocates; all blocks free
  void Clear();                 // all blocks free again (no allocation)
  uint64_t size() const { return nblocks_; }
  uint64_t free_count() const { return free_; }
  bool IsSet(uint64_t b) const { return (levels_[0][b >> 6] >> (b & 63)) & 1; }
  // Marks block b used. Returns false when it was already used. Inline: it
  // runs once per random I/O, and only a word that becomes full needs the
  // summary levels (1 call in 64).
  bool Set(uint64_t b) {
    uint64_t& w = levels_[0][b >> 6];
    const uint64_t bit = 1ULL << (b & 63);
    if (w & bit) return false;
    w |= bit;
    --free_;
    if (w == ~0ULL) MarkFull(b >> 6);
    return true;
  }
  // Number of consecutive free blocks starting at b, at most max.
  uint64_t FreeRun(uint64_t b, uint64_t max) const;
  // First free block at or after `from`, wrapping to 0 at the end.
  // REQUIRES: free_count() > 0. Inline fast path: `from` itself is free
  // (nearly always until late in a pass).
  uint64_t FindFree(uint64_t from) const {
    if (from < nblocks_ && !IsSet(from)) return from;
    return FindFreeSlow(from);
  }

 private:
  void MarkFull(uint64_t word);  // level-0 word `word` just became full
  uint64_t FindFreeSlow(uint64_t from) const;
  uint64_t Descend(int level, uint64_t pos) const;
  uint64_t nblocks_ = 0;
  uint64_t free_ = 0;
  std::vector<std::vector<uint64_t>> levels_;  // levels_[0]: one bit per block
  std::vector<uint64_t> nbits_;                // valid bits per level
};

// Zipf over ranks [0, n): P(rank r) proportional to 1 / (r + 1)^theta.
// The 1024 hottest ranks are drawn exactly (a cumulative table searched by
// bisection); beyond them each rank's weight is taken as the integral of
// x^-theta over [r + 0.5, r + 1.5] (midpoint rule), inverted in closed form.
// The relative error of that weight is below theta(theta+1)/(24 r^2), i.e.
// under 1e-7 for theta <= 2, so the distribution is exact for all practical
// purposes while Init costs O(1024), not O(n).
class Zipf {
 public:
  // REQUIRES: -10 <= theta <= 100, n >= 1 (0: uniform; negative: the high
  // ranks are the likely ones).
  void Init(double theta, uint64_t n);
  uint64_t Rank(double u) const;  // u uniform in [0, 1)

 private:
  double F(double x) const;     // antiderivative of x^-theta
  double FInv(double y) const;  // its inverse
  double theta_ = 1.0;
  uint64_t n_ = 1;
  uint64_t head_ = 1;
  std::vector<double> cum_;  // cum_[k] = sum_{r=1}^{k+1} r^-theta
  double head_mass_ = 0, tail_base_ = 0, total_ = 0;
};

}  // namespace iobench::prng
