// Random sources: see random.h.
#include "run/random.h"

#include <algorithm>
#include <cmath>

namespace iobench::prng {

void Taus88::Seed(uint64_t seed) {
  // Each component must stay above its minimum (1, 7, 15) or it degenerates.
  uint64_t s = seed;
  s1_ = static_cast<uint32_t>(SplitMix64(&s)) | 0x2;
  s2_ = static_cast<uint32_t>(SplitMix64(&s)) | 0x10;
  s3_ = static_cast<uint32_t>(SplitMix64(&s)) | 0x20;
  // Warm up so that nearby seeds diverge at once.
  for (int i = 0; i < 10; ++i) Next();
}

void Taus258::Seed(uint64_t seed) {
  // Minimums: z1 > 1, z2 > 511, z3 > 4095, z4 > 131071, z5 > 8388607.
  uint64_t s = seed ^ 0x5851f42d4c957f2dULL;
  z1_ = SplitMix64(&s) | (1ULL << 1);
  z2_ = SplitMix64(&s) | (1ULL << 9);
  z3_ = SplitMix64(&s) | (1ULL << 12);
  z4_ = SplitMix64(&s) | (1ULL << 17);
  z5_ = SplitMix64(&s) | (1ULL << 23);
  for (int i = 0; i < 10; ++i) Next();
}

// Tap masks of maximal-length right-shifting Galois LFSRs, index w - 2 for a
// w-bit register. Bit i of the mask is the coefficient of x^(i+1) of a
// primitive polynomial of degree w (a trinomial where one exists, otherwise a
// pentanomial). Derived for this project by testing candidate polynomials for
// primitivity (x has order 2^w - 1 modulo the polynomial, checked against
// every prime factor of 2^w - 1); the unit tests re-check widths 2..20 by
// running the full period.
static constexpr uint64_t kLfsrTaps[63] = {
    0x3ULL,                 // 2
    0x5ULL,                 // 3
    0x9ULL,                 // 4
    0x12ULL,                // 5
    0x21ULL,                // 6
    0x41ULL,                // 7
    0xc3ULL,                // 8
    0x108ULL,               // 9
    0x204ULL,               // 10
    0x402ULL,               // 11
    0x883ULL,               // 12
    0x1013ULL,              // 13
    0x2803ULL,              // 14
    0x4001ULL,              // 15
    0x8805ULL,              // 16
    0x10004ULL,             // 17
    0x20040ULL,             // 18
    0x40013ULL,             // 19
    0x80004ULL,             // 20
    0x100002ULL,            // 21
    0x200001ULL,            // 22
    0x400010ULL,            // 23
    0x800043ULL,            // 24
    0x1000004ULL,           // 25
    0x2000023ULL,           // 26
    0x4000013ULL,           // 27
    0x8000004ULL,           // 28
    0x10000002ULL,          // 29
    0x20400003ULL,          // 30
    0x40000004ULL,          // 31
    0x80200003ULL,          // 32
    0x100001000ULL,         // 33
    0x204000003ULL,         // 34
    0x400000002ULL,         // 35
    0x800000400ULL,         // 36
    0x1000000103ULL,        // 37
    0x2000001005ULL,        // 38
    0x4000000008ULL,        // 39
    0x8400000003ULL,        // 40
    0x10000000004ULL,       // 41
    0x20010000003ULL,       // 42
    0x40000000803ULL,       // 43
    0x82000000005ULL,       // 44
    0x10000000000dULL,      // 45
    0x200000000105ULL,      // 46
    0x400000000010ULL,      // 47
    0x800008000005ULL,      // 48
    0x1000000000100ULL,     // 49
    0x2000000008003ULL,     // 50
    0x4000008000003ULL,     // 51
    0x8000000000004ULL,     // 52
    0x10000000000023ULL,    // 53
    0x20000000010003ULL,    // 54
    0x40000000800000ULL,    // 55
    0x80020000000003ULL,    // 56
    0x100000000000040ULL,   // 57
    0x200000000040000ULL,   // 58
    0x400000000800003ULL,   // 59
    0x800000000000001ULL,   // 60
    0x1000000000000013ULL,  // 61
    0x2000000008000005ULL,  // 62
    0x4000000000000001ULL,  // 63
    0x8000000000000403ULL,  // 64
};

uint64_t Lfsr::TapsForWidth(int w) { return kLfsrTaps[w - 2]; }

void Lfsr::Init(uint64_t n, uint64_t seed) {
  n_ = n;
  width_ = 2;
  while (width_ < 64 && ((1ULL << width_) - 1) < n) ++width_;
  taps_ = kLfsrTaps[width_ - 2];
  const uint64_t period = width_ == 64 ? ~0ULL : (1ULL << width_) - 1;
  // Any non-zero register value is on the single cycle; start somewhere
  // seed-dependent.
  uint64_t s = seed;
  state_ = SplitMix64(&s) % period + 1;
}

void BlockMap::Init(uint64_t nblocks) {
  nblocks_ = nblocks;
  levels_.clear();
  nbits_.clear();
  uint64_t bits = nblocks;
  for (;;) {
    uint64_t words = (bits + 63) / 64;
    if (words == 0) words = 1;
    nbits_.push_back(bits);
    levels_.emplace_back(words, 0);
    if (words == 1) break;
    bits = words;
  }
  Clear();
}

void BlockMap::Clear() {
  for (size_t l = 0; l < levels_.size(); ++l) {
    auto& v = levels_[l];
    std::fill(v.begin(), v.end(), 0);
    // Bits past the end read as used, so "word full" needs no special case.
    const uint64_t tail = nbits_[l] & 63;
    if (tail != 0) v.back() = ~0ULL << tail;
    if (nbits_[l] == 0) v.back() = ~0ULL;
  }
  // A word made full by padding alone (possible only at upper levels when the
  // level below has an exact multiple of 64 words) is already consistent: its
  // bits are all real and zero, so no level starts full.
  free_ = nblocks_;
}

void BlockMap::MarkFull(uint64_t word) {
  // Each level's bit says "the word below is full"; go up while that makes
  // the upper word full too.
  uint64_t idx = word;
  for (size_t l = 1; l < levels_.size(); ++l) {
    uint64_t& w = levels_[l][idx >> 6];
    w |= 1ULL << (idx & 63);
    if (w != ~0ULL) break;
    idx >>= 6;
  }
}

uint64_t BlockMap::FreeRun(uint64_t b, uint64_t max) const {
  uint64_t run = 0;
  while (run < max && b < nblocks_) {
    const uint64_t word = levels_[0][b >> 6] >> (b & 63);
    const uint64_t avail = 64 - (b & 63);
    const uint64_t zeros = word == 0 ? avail : static_cast<uint64_t>(__builtin_ctzll(word));
    run += zeros;
    if (zeros < avail) break;
    b += avail;
  }
  return std::min(run, max);
}

uint64_t BlockMap::Descend(int level, uint64_t pos) const {
  // pos is a zero bit at `level`: the word it names below is not full.
  while (level > 0) {
    --level;
    pos = (pos << 6) + static_cast<uint64_t>(__builtin_ctzll(~levels_[level][pos]));
  }
  return pos;
}

uint64_t BlockMap::FindFreeSlow(uint64_t from) const {
  if (from >= nblocks_) from = 0;
  uint64_t idx = from;
  const int nlevels = static_cast<int>(levels_.size());
  for (int l = 0; l < nlevels; ++l) {
    const uint64_t w = idx >> 6;
    if (w < levels_[l].size()) {
      const uint64_t word = levels_[l][w] | ((1ULL << (idx & 63)) - 1);
      if (word != ~0ULL)
        return Descend(l, (w << 6) + static_cast<uint64_t>(__builtin_ctzll(~word)));
    }
    idx = w + 1;  // the next word at this level is this bit at the next level
  }
  // Nothing free at or after `from`: wrap around from block 0.
  const int top = nlevels - 1;
  return Descend(top, static_cast<uint64_t>(__builtin_ctzll(~levels_[top][0])));
}

double Zipf::F(double x) const {
  return theta_ == 1.0 ? std::log(x) : std::pow(x, 1.0 - theta_) / (1.0 - theta_);
}

double Zipf::FInv(double y) const {
  return theta_ == 1.0 ? std::exp(y) : std::pow(y * (1.0 - theta_), 1.0 / (1.0 - theta_));
}

void Zipf::Init(double theta, uint64_t n) {
  theta_ = theta;
  n_ = n;
  head_ = std::min<uint64_t>(n, 1024);
  cum_.resize(head_);
  double sum = 0;
  for (uint64_t r = 1; r <= head_; ++r) {
    sum += std::pow(static_cast<double>(r), -theta);
    cum_[r - 1] = sum;
  }
  head_mass_ = sum;
  tail_base_ = F(static_cast<double>(head_) + 0.5);
  const double tail = n > head_ ? F(static_cast<double>(n) + 0.5) - tail_base_ : 0.0;
  total_ = head_mass_ + tail;
}

uint64_t Zipf::Rank(double u) const {
  const double v = u * total_;
  if (v < head_mass_ || n_ == head_) {
    const auto it = std::upper_bound(cum_.begin(), cum_.end(), v);
    const uint64_t r = static_cast<uint64_t>(it - cum_.begin());
    return std::min(r, head_ - 1);
  }
  // Tail: rank (1-based) k has weight F(k + 0.5) - F(k - 0.5).
  const double x = FInv(tail_base_ + (v - head_mass_));
  uint64_t k = static_cast<uint64_t>(x + 0.5);  // 1-based rank whose cell holds x
  k = std::clamp<uint64_t>(k, head_ + 1, n_);
  return k - 1;
}

}  // namespace iobench::prng
