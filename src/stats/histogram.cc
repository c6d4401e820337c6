#include "iobench/histogram.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace iobench {
namespace {

constexpr size_t kBytes = sizeof(uint64_t) * Histogram::kNr;
// The counters are scanned in 4 KiB spans: a span that holds no count is
// neither copied nor cleared, so its page is never written (and, in fresh
// storage, never becomes resident).
constexpr unsigned kSpan = 4096 / sizeof(uint64_t);
constexpr size_t kMapBytes = (kBytes + 4095) / 4096 * 4096;

// Zero-filled pages straight from the kernel: malloc may hand back memory
// that was used before and would have to be cleared (and so made resident).
uint64_t* AllocZeroed() {
  void* p = mmap(nullptr, kMapBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<uint64_t*>(p);
}

void Release(uint64_t* p) {
  if (p != nullptr) munmap(p, kMapBytes);
}

bool SpanEmpty(const uint64_t* p, unsigned n) {
  uint64_t any = 0;
  for (unsigned i = 0; i < n; ++i) any |= p[i];
  return any == 0;
}

// dst = src, span by span, writing only spans where either holds a count.
void CopyCounts(uint64_t* dst, const uint64_t* src) {
  for (unsigned b = 0; b < Histogram::kNr; b += kSpan) {
    const unsigned n = std::min(kSpan, Histogram::kNr - b);
    if (src != nullptr && !SpanEmpty(src + b, n)) {
      std::memcpy(dst + b, src + b, n * sizeof(uint64_t));
    } else if (!SpanEmpty(dst + b, n)) {
      std::memset(dst + b, 0, n * sizeof(uint64_t));
    }
  }
}

}  // namespace

Histogram::Histogram() : counts(AllocZeroed()) {}

Histogram::Histogram(const Histogram& o) : counts(AllocZeroed()) {
  if (o.counts != nullptr) CopyCounts(counts, o.counts);
}

Histogram& Histogram::operator=(const Histogram& o) {
  if (this == &o) return *this;
  if (counts == nullptr) counts = AllocZeroed();
  CopyCounts(counts, o.counts);
  return *this;
}

Histogram& Histogram::operator=(Histogram&& o) noexcept {
  if (this != &o) {
    Release(counts);
    counts = o.counts;
    o.counts = nullptr;
  }
  return *this;
}

Histogram::~Histogram() { Release(counts); }

void Histogram::Clear() {
  if (counts == nullptr) {
    counts = AllocZeroed();
    return;
  }
  CopyCounts(counts, nullptr);
}

void Histogram::Merge(const Histogram& o) {
  if (o.counts == nullptr) return;
  if (counts == nullptr) counts = AllocZeroed();
  for (unsigned b = 0; b < kNr; b += kSpan) {
    const unsigned n = std::min(kSpan, kNr - b);
    if (SpanEmpty(o.counts + b, n)) continue;
    for (unsigned i = b; i < b + n; ++i) counts[i] += o.counts[i];
  }
}

}  // namespace iobench
